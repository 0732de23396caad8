package shell

import (
	"slices"
	"strings"
	"sync"
)

// What a wrapper runs, as found by its unwrap function.
type unwrapped struct {
	self    bool // the wrapper is a command in its own right too (find)
	stdin   bool // it reads a script from standard input (sh, bash), or descriptor fd
	fd      int
	argvs   [][]arg      // commands it runs directly
	scripts []scriptText // shell source it runs (bash -c, eval, ssh)
	dynamic bool         // what it runs gets arguments at run time (xargs)
	code    *codeInfo    // with self: the code the wrapper runs itself (sh, source)
	interp  *interpCode  // an interpreter: the code it runs (python -c)
}

// none reports that nothing was unwrapped: the wrapper is the command.
func (u unwrapped) none() bool {
	return !u.self && u.interp == nil && len(u.argvs) == 0 && len(u.scripts) == 0
}

// An unwrapFunc reads a wrapper's argv (args[0] is the wrapper).
type unwrapFunc func(args []arg) unwrapped

// wrappers maps a wrapper's base name to how to unwrap it. It is built
// on first use and never modified.
var wrappers = sync.OnceValue(newWrappers)

func newWrappers() map[string]unwrapFunc {
	m := map[string]unwrapFunc{
		"sudo":    unwrapSudo,
		"doas":    plain(opts{value: "uC"}),
		"env":     unwrapEnv,
		"nice":    plain(opts{value: "n", long: []string{"adjustment"}, digits: true}),
		"nohup":   plain(opts{}),
		"time":    plain(opts{value: "fo", long: []string{"format", "output"}}),
		"timeout": plain(opts{value: "sk", long: []string{"signal", "kill-after"}, operands: 1}),
		"xargs": plain(opts{
			value: "adEILnPs", optional: "eil",
			long:    []string{"arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"},
			dynamic: true,
		}),
		"command":   plain(opts{stop: "vV"}),
		"builtin":   plain(opts{}),
		"exec":      plain(opts{value: "a"}),
		"setsid":    plain(opts{}),
		"stdbuf":    plain(opts{value: "ioe", long: []string{"input", "output", "error"}}),
		"ionice":    plain(opts{value: "cn", long: []string{"class", "classdata"}, stop: "pPu", stopLong: []string{"pid", "pgid", "uid"}}),
		"chroot":    unwrapChroot,
		"taskset":   plain(opts{stop: "p", stopLong: []string{"pid"}, operands: 1}),
		"busybox":   unwrapBusybox,
		"coreutils": unwrapCoreutils,
		"eval":      unwrapEval,
		"trap":      unwrapTrap,
		"ssh":       unwrapSSH,
		"watch":     unwrapWatch,
		"su":        unwrapSu,
		"runuser":   unwrapRunuser,
		"find":      unwrapFind,
		"source":    unwrapSource,
		".":         unwrapSource,
		"at":        unwrapAt,
		"parallel":  unwrapParallel,
		"batch":     unwrapAt,
	}
	for _, sh := range shells {
		m[sh] = unwrapShell
	}
	addLaunchers(m)
	return m
}

// lookupWrapper returns how to unwrap the command named base, or nil
// when it is no wrapper.
func lookupWrapper(base string) unwrapFunc {
	if u := wrappers()[base]; u != nil {
		return u
	}
	if u := windowsShells()[strings.ToLower(base)]; u != nil {
		return u
	}
	if lang := interpLang(base); lang != "" {
		return interps()[lang]
	}
	return nil
}

// interps maps a language to how its interpreters are read (built on
// first use).
var interps = sync.OnceValue(newInterps)

func newInterps() map[string]unwrapFunc {
	m := map[string]unwrapFunc{}
	for lang := range interpSpecs() {
		m[lang] = unwrapInterp(lang)
	}
	return m
}

// shells are the programs whose -c argument, or standard input, is a
// shell script.
// shellNames is shells as scripts see them (shell.shells).
func shellNames() []any {
	out := make([]any, len(shells))
	for i, s := range shells {
		out[i] = s
	}
	return out
}

var shells = []string{"sh", "bash", "dash", "zsh", "ksh", "ksh93", "mksh", "oksh", "pdksh", "lksh", "ash", "rbash", "posh", "yash", "fish"}

// opts describes a wrapper's options in the GNU style: short options
// cluster (-un) and take their value attached or as the next word;
// long options take theirs after = or as the next word and may be
// abbreviated; the first operand ends the options, and so does --.
type opts struct {
	value    string   // short options that take a value (-u root, -uroot)
	optional string   // short options whose value can only be attached (xargs -i{})
	long     []string // long options that take a value
	flags    []string // long flags that are prefixes of a value option (sudo --login)
	stop     string   // short options after which nothing is run (command -v)
	stopLong []string
	operands int  // words between the options and the command (timeout's DURATION)
	assigns  bool // NAME=VALUE words may come before the command (env, sudo)
	digits   bool // -N and --N are options (nice -5)
	dash     bool // a lone - is an option (env -, su -)
	dynamic  bool // the command gets arguments at run time (xargs)
}

// An option found by scan: a short letter or a full long name, and the
// value it took, if any.
type option struct {
	name  string
	value *arg
}

// A scan is the outcome of reading a wrapper's options.
type scan struct {
	next     int // index of the first word after the options; -1: nothing runs
	options  []option
	dashdash bool // the options ended with --
}

// has reports whether any of names was given.
func (s scan) has(names ...string) bool {
	return slices.ContainsFunc(s.options, func(o option) bool { return slices.Contains(names, o.name) })
}

// values returns the values of the options called any of names.
func (s scan) values(names ...string) []arg {
	var out []arg
	for _, o := range s.options {
		if o.value != nil && slices.Contains(names, o.name) {
			out = append(out, *o.value)
		}
	}
	return out
}

// scan reads the options of args (args[0] is the wrapper). A dynamic
// word ends them: it may be an option or the command, and taking it for
// the command reports it, dynamic, rather than hide what follows.
func (o *opts) scan(args []arg) scan {
	s := scan{next: -1}
	i := 1
	for i < len(args) && !args[i].dynamic {
		t := args[i].text
		n, stop := 0, false
		switch {
		case t == "--":
			s.dashdash = true
			return o.rest(args, i+1, s)
		case t == "-" && o.dash, o.digits && isNumberOption(t):
			n = 1
		case strings.HasPrefix(t, "--"):
			n, stop = o.longOption(args, i, &s)
		case len(t) > 1 && t[0] == '-':
			n, stop = o.shortOptions(args, i, &s)
		}
		if stop || i+n > len(args) {
			return s
		}
		if n == 0 {
			break
		}
		i += n
	}
	return o.rest(args, i, s)
}

// rest skips the operands and assignments between the options and the
// command, and sets next.
func (o *opts) rest(args []arg, i int, s scan) scan {
	i += o.operands
	for o.assigns && i < len(args) && args[i].assignment() {
		i++
	}
	if i < len(args) {
		s.next = i
	}
	return s
}

// assignment reports whether the word is a NAME=VALUE that env and sudo
// set rather than run: its name and its = are written out, whatever the
// value holds (HOME=$HOME, PATH="$PATH:/opt/bin" and X=$(date) are
// assignments; $N=1 and ${N}=1 are not known to be, and are taken for
// the command, dynamic).
func (a *arg) assignment() bool {
	if !a.dynamic {
		return isAssign(a.text)
	}
	static := a.raw
	for _, h := range a.holes {
		static = static[:min(len(static), h.start)]
	}
	return isAssign(static)
}

// isAssign reports whether a word is NAME=VALUE.
func isAssign(t string) bool {
	name, _, ok := strings.Cut(t, "=")
	return ok && isName(name)
}

// isNumberOption reports whether t is nice's old -N, --N or -+N form.
func isNumberOption(t string) bool {
	t = strings.TrimLeft(strings.TrimPrefix(t, "-"), "-+")
	return t != "" && strings.Trim(t, "0123456789") == ""
}

// longOption reads the long option at args[i] and returns how many words
// it used, or stop when nothing will run.
func (o *opts) longOption(args []arg, i int, s *scan) (int, bool) {
	name, val, eq := strings.Cut(args[i].text[2:], "=")
	if matchLong(name, o.stopLong) != "" {
		return 0, true
	}
	full := matchLong(name, o.long)
	if slices.Contains(o.flags, name) {
		full = ""
	}
	switch {
	case eq:
		v := staticArg(val)
		s.options = append(s.options, option{name: or(full, name), value: &v})
		return 1, false
	case full != "":
		if i+1 >= len(args) {
			return 2, false // the value is missing: nothing runs
		}
		s.options = append(s.options, option{name: full, value: &args[i+1]})
		return 2, false
	}
	s.options = append(s.options, option{name: name})
	return 1, false
}

// matchLong returns the option of names that name spells or abbreviates
// (getopt_long accepts any unambiguous prefix; an ambiguous one makes
// the program fail, so taking it for a value option costs nothing).
func matchLong(name string, names []string) string {
	if name == "" {
		return ""
	}
	for _, n := range names {
		if strings.HasPrefix(n, name) {
			return n
		}
	}
	return ""
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// shortOptions reads the cluster of short options at args[i] (-rf,
// -n5, -u root) and returns how many words it used, or stop.
func (o *opts) shortOptions(args []arg, i int, s *scan) (int, bool) {
	t := args[i].text
	for j := 1; j < len(t); j++ {
		c := t[j : j+1]
		switch {
		case strings.Contains(o.stop, c):
			return 0, true
		case strings.Contains(o.value, c) && j+1 == len(t):
			if i+1 >= len(args) {
				return 2, false // the value is missing: nothing runs
			}
			s.options = append(s.options, option{name: c, value: &args[i+1]})
			return 2, false
		case strings.Contains(o.value, c) || strings.Contains(o.optional, c):
			v := staticArg(t[j+1:])
			s.options = append(s.options, option{name: c, value: &v})
			return 1, false
		}
		s.options = append(s.options, option{name: c})
	}
	return 1, false
}

// plain unwraps a wrapper that runs its operands as a command.
func plain(o opts) unwrapFunc {
	return func(args []arg) unwrapped {
		s := o.scan(args)
		if s.next < 0 {
			return unwrapped{}
		}
		return unwrapped{argvs: [][]arg{args[s.next:]}, dynamic: o.dynamic}
	}
}

var chrootOpts = opts{long: []string{"userspec", "groups"}, operands: 1}

// unwrapChroot reads chroot NEWROOT command as cd NEWROOT && command:
// the command starts in the new root's /, so its relative paths are
// NEWROOT's (chroot / rm -rf usr).
func unwrapChroot(args []arg) unwrapped {
	s := chrootOpts.scan(args)
	if s.next < 2 || s.next > len(args) || slices.ContainsFunc(s.options, func(o option) bool {
		return strings.HasPrefix("skip-chdir", o.name) && len(o.name) >= 2
	}) { // --skip-chdir (abbreviated too) keeps the directory
		return plain(chrootOpts)(args)
	}
	return inDirScript(args[s.next-1], args[s.next:])
}
