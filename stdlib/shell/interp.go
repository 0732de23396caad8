package shell

import (
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// This file recognises interpreters (python, perl, ruby, node, php,
// lua) and finds the code they run: the argument of -c or -e, a script
// file, or standard input.

// interpLang returns the language an interpreter's name runs, or "".
// Versioned names count: python3.12, perl5.36, lua5.4.
func interpLang(base string) string {
	name := strings.TrimRight(base, "0123456789.")
	switch name {
	case "python", "pypy":
		return "python"
	case "perl":
		return "perl"
	case "ruby", "jruby", "truffleruby":
		return "ruby"
	case "node", "nodejs", "bun", "deno":
		return "node"
	case "php", "php-cli":
		return "php"
	case "lua", "luajit":
		return "lua"
	}
	return ""
}

// An interpSpec describes an interpreter's options.
type interpSpec struct {
	code     string   // short options whose value is code: python -c, perl -e
	value    string   // short options that take a value, attached or next
	attached string   // short options that take the rest of the cluster only (perl -Mstrict)
	stop     string   // short options after which no code runs from here (python -m)
	longCode []string // long options whose value is code: node --eval
	longVal  []string // long options that take a value
	joinCode bool     // repeated code options add lines (perl -e a -e b)
	codeEnds bool     // the code option ends the options (python -c)
}

// interpSpecs are how each language's interpreters take code (built on
// first use).
var interpSpecs = sync.OnceValue(func() map[string]interpSpec {
	return map[string]interpSpec{
		"python": {code: "c", value: "WXQ", stop: "m", codeEnds: true},
		"perl":   {code: "eE", attached: "MmIxiDdC0lV", joinCode: true},
		"ruby":   {code: "e", value: "rICE", attached: "FWTx0", joinCode: true},
		"node":   {code: "ep", value: "rC", longCode: []string{"eval", "print"}, longVal: []string{"require", "import", "loader", "experimental-loader", "conditions", "input-type", "title", "env-file"}},
		"php":    {code: "rBRFE", value: "cdfz", codeEnds: true},
		"lua":    {code: "e", value: "l", joinCode: true},
	}
})

// interpCode is what an interpreter runs, as found from its argv.
type interpCode struct {
	lang   string
	code   []arg // the code options' values, in order
	file   *arg  // the script file, when no code is given
	stdin  bool  // the code comes from standard input, or descriptor fd
	fd     int
	module bool // python -m: a module, whose code is not here
}

// readInterp reads an interpreter's argv (args[0] is the interpreter).
func readInterp(lang string, args []arg) interpCode {
	ic := interpCode{lang: lang}
	spec := interpSpecs()[lang]
	i := 1
	if args[0].base == "deno" {
		if len(args) > 2 && args[1].text == "eval" {
			ic.code = append(ic.code, args[2])
		}
		return ic
	}
	for ; i < len(args) && !args[i].dynamic; i++ {
		t := args[i].text
		if t == "-" || t == "--" || !strings.HasPrefix(t, "-") || len(t) < 2 {
			break
		}
		next, done := ic.option(spec, args, i)
		if i = next; done {
			return ic
		}
	}
	switch {
	case len(ic.code) > 0 || ic.module:
	case i < len(args) && args[i].text == "--":
		if i+1 < len(args) {
			ic.file = &args[i+1]
		} else {
			ic.stdin = true
		}
	case i < len(args) && args[i].text != "-":
		ic.file = &args[i]
	default:
		ic.stdin = true
	}
	if ic.file != nil {
		if fd, ok := scriptFD(ic.file); ok {
			ic.file, ic.stdin, ic.fd = nil, true, fd
		}
	}
	return ic
}

// isStdinFile reports a script file that is standard input.
func isStdinFile(a *arg) bool {
	fd, ok := scriptFD(a)
	return ok && fd == 0
}

// scriptFD reports a script file that is one of the process's own
// descriptors, and which: /dev/stdin, /dev/fd/N, /proc/self/fd/N (or
// thread-self) and /proc/$$/fd/N. The last names the shell's own
// descriptors, which a builtin (source) shares and a child does not;
// it is read as the command's all the same, so that the script a
// guard sees is never less than what may run.
func scriptFD(a *arg) (int, bool) {
	t := a.text
	if a.dynamic {
		t = strings.Replace(strings.Replace(a.raw, "${$}", "self", 1), "$$", "self", 1)
		if strings.ContainsAny(t, "$`") {
			return 0, false
		}
	}
	if t == "/dev/stdin" {
		return 0, true
	}
	var n string
	for _, prefix := range []string{"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"} {
		if rest, ok := strings.CutPrefix(t, prefix); ok {
			n = rest
		}
	}
	if n == "" || len(n) > 4 || strings.Trim(n, "0123456789") != "" {
		return 0, false
	}
	fd, err := strconv.Atoi(n)
	return fd, err == nil
}

// option reads the option at args[i]; it returns the index of its last
// word and whether the options are over for good (code that ends them,
// or python -m).
func (ic *interpCode) option(spec interpSpec, args []arg, i int) (int, bool) {
	t := args[i].text
	if strings.HasPrefix(t, "--") {
		return ic.longOption(spec, args, i), false
	}
	for j := 1; j < len(t); j++ {
		c := t[j : j+1]
		switch {
		case strings.Contains(spec.stop, c):
			ic.module = true
			return i, true
		case strings.Contains(spec.code, c):
			i = ic.takeCode(args, i, t[j+1:])
			return i, spec.codeEnds
		case strings.Contains(spec.value, c):
			if j+1 == len(t) {
				i++
			}
			return i, false
		case strings.Contains(spec.attached, c):
			if c == "0" || c == "l" { // perl -0777, -l015: digits only
				for j+1 < len(t) && t[j+1] >= '0' && t[j+1] <= '9' {
					j++
				}
				continue
			}
			return i, false
		}
	}
	return i, false
}

// takeCode records a code option's value: the rest of its cluster, or
// the next word.
func (ic *interpCode) takeCode(args []arg, i int, rest string) int {
	if rest != "" {
		ic.code = append(ic.code, staticArg(rest))
		return i
	}
	if i+1 < len(args) {
		ic.code = append(ic.code, args[i+1])
	}
	return i + 1
}

func (ic *interpCode) longOption(spec interpSpec, args []arg, i int) int {
	name, val, eq := strings.Cut(args[i].text[2:], "=")
	switch {
	case contains(spec.longCode, name) && eq:
		ic.code = append(ic.code, staticArg(val))
	case contains(spec.longCode, name):
		return ic.takeCode(args, i, "")
	case contains(spec.longVal, name) && !eq:
		return i + 1
	}
	return i
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// unwrapInterp reports an interpreter itself, with the code it runs.
func unwrapInterp(lang string) unwrapFunc {
	return func(args []arg) unwrapped {
		ic := readInterp(lang, args)
		return unwrapped{self: true, interp: &ic}
	}
}

// codeText joins the code options' values as the interpreter runs them.
func (ic *interpCode) codeText() (text string, dynamic bool, substs []syntax.Node) {
	parts := make([]string, len(ic.code))
	for i, a := range ic.code {
		parts[i] = a.raw
		dynamic = dynamic || a.dynamic
		substs = append(substs, a.substs...)
	}
	return strings.Join(parts, "\n"), dynamic, substs
}
