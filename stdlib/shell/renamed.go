package shell

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// A line can make a word run another program before it uses the word:
//
//	hash -p /bin/rm ls; ls -rf /        bash's table of commands
//	BASH_CMDS[x]=/bin/rm; x -rf /        the same table, as an array
//	cp /bin/rm x; ./x -rf /              a copy (or a link) run by its new name
//
// The walker follows these within the line and reports a later command
// run by such a word twice, wrapped or not (sudo ./x, xargs ./x): as
// written, then as the program it stands for (Name rm, Argv[0] /bin/rm),
// so that a guard reading Name judges what may run (programFor says why
// both). A program known only at run time (hash -p "$P"
// x, cp "$(which rm)" x) makes the command's name dynamic.
//
// A name copied onto twice stands for a program known only at run time:
// the second copy may not happen (cp -n, ln without -f).
//
// A copy is known by its file (the destination joined to the directory
// the copy ran in, so .//x and ./x after a cd to its directory are the
// same file) and by its last element, since a PATH that holds its
// directory runs it by that name; where the directory is not known, by
// that name only. A copy that keeps its source's name (cp /bin/rm
// /tmp/rm) needs no following. What is not followed: a directory
// holding a copy that is itself moved or linked, copies made by
// interpreters, and aliases (BASH_ALIASES, alias), whose values are
// code that a guard reads as such.

// copiers make a file that is a copy of, or a link to, another.
var copiers = map[string]bool{"cp": true, "ln": true, "link": true, "install": true, "mv": true, "rsync": true,
	"objcopy": true}

// copierNames are the programs whose copies the module follows, as
// scripts see them (shell.copiers): the copiers, and strip, which copies
// with -o.
func copierNames() []any {
	names := make([]string, 0, len(copiers)+1)
	for n := range copiers {
		names = append(names, n)
	}
	names = append(names, "strip")
	slices.Sort(names)
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = n
	}
	return out
}

// maxPrograms bounds the names one line may give programs.
const maxPrograms = 256

// programFor returns the program the command word w stands for, run
// from dir, when the line gave it one. The walker reports the command
// both as written and as that program: a copy may have failed and left
// the file as it was, a copy's bare name runs it only where PATH holds
// its directory, and bash's table of commands is the shell's own, which
// a subshell, a pipeline element or a branch not taken may have kept
// from the shell that runs the name. Reported both ways, a name only
// adds to what a guard sees.
func (w *walker) programFor(word, dir string) (arg, bool) {
	if len(w.programs) == 0 {
		return arg{}, false
	}
	if !strings.Contains(word, "/") {
		p, ok := w.programs["n:"+word] // hash -p, BASH_CMDS, a copy's name on PATH
		return p, ok
	}
	if key := fileKey(word, dir); key != "" {
		p, ok := w.programs["f:"+key]
		return p, ok
	}
	p, ok := w.programs["n:"+path.Base(word)] // the directory is not known: by its name
	return p, ok
}

// fileKey is the file word names from dir, as one spelling; "" when dir
// is not known and word is relative.
func fileKey(word, dir string) string {
	if strings.HasPrefix(word, "/") || strings.HasPrefix(word, "~/") {
		return path.Clean(word)
	}
	if dir == DirUnknown {
		return ""
	}
	return path.Join(dir, word)
}

// nameProgram records that the command word name runs program, through
// bash's table of commands (hash -p, BASH_CMDS).
func (w *walker) nameProgram(name string, program arg) {
	if name == "" || len(w.programs) >= maxPrograms {
		return
	}
	if w.programs == nil {
		w.programs = map[string]arg{}
	}
	w.programs["n:"+name] = program
}

// copyProgram records that the file dst, made in dir, is a copy of src.
func (w *walker) copyProgram(dst, dir string, src arg) {
	if dst == "" || strings.ContainsAny(dst, "$`*?[") || len(w.programs) >= maxPrograms {
		return
	}
	base := path.Base(strings.TrimRight(dst, "/"))
	if !src.dynamic {
		if key := fileKey(src.text, dir); key != "" && w.programs["f:"+key].text != "" {
			src = w.programs["f:"+key] // a copy of a copy
		} else if strings.TrimRight(src.text, "/") != "" && path.Base(src.text) == base {
			return // it keeps its name: cp /bin/rm /tmp/rm runs as rm already
		} else if !strings.Contains(src.text, "/") {
			src = staticArg("./" + src.text) // the file, not a program PATH finds
		}
	}
	if w.programs == nil {
		w.programs = map[string]arg{}
	}
	// A second copy onto a name may not happen (cp -n, ln without -f, a
	// copy that fails): the file is then one of two programs, which only
	// the run decides.
	either := func(key string) arg {
		if old, ok := w.programs[key]; ok && (old.text != src.text || old.dynamic != src.dynamic) {
			return arg{dynamic: true} // no text: the word as written, known only at run time (programFor)
		}
		return src
	}
	if key := fileKey(dst, dir); key != "" {
		w.programs["f:"+key] = either("f:" + key)
	}
	w.programs["n:"+base] = either("n:" + base)
}

// recordPrograms notes the names a reported command gives programs:
// hash -p PROGRAM NAME…, and a copy or link by a copier, strip -o, cat
// SRC > DST, tee DST < SRC or dd if=SRC of=DST.
func (w *walker) recordPrograms(c *Command, args []arg) {
	switch {
	case c.Name == "hash":
		w.hashProgram(c, args)
	case c.Name == "dd":
		var src, dst *arg
		for i := 1; i < len(args); i++ {
			if strings.HasPrefix(c.Argv[i], "if=") {
				a := args[i]
				a.text = strings.TrimPrefix(a.text, "if=")
				src = &a
			} else if strings.HasPrefix(c.Argv[i], "of=") && !args[i].dynamic {
				a := args[i]
				dst = &a
			}
		}
		if src == nil {
			src = stdinFile(c)
		}
		if src != nil && dst != nil {
			w.copyProgram(strings.TrimPrefix(dst.text, "of="), c.Dir, *src)
		}
	case (c.Name == "strip" || c.Name == "objcopy") && slices.Contains(c.Argv, "-o"): // strip -o x /bin/rm
		for i := 1; i+1 < len(args); i++ {
			if c.Argv[i] == "-o" {
				for j := 1; j < len(args); j++ {
					if j != i+1 && c.Roles[j] == RoleOperand && !args[i+1].dynamic {
						w.copyProgram(c.Argv[i+1], c.Dir, args[j])
						return
					}
				}
			}
		}
	case copiers[c.Name]: // objcopy IN OUT too; strip without -o strips in place
		// Every operand after the first may be where one before it went:
		// GNU tools take options after their operands, and an option's
		// value this module does not know (install -m 755) is an operand
		// to it. Of those before, a path or a file already followed is the
		// source, not a word such as 755.
		var ops []int
		for i := 1; i < len(args); i++ {
			if c.Roles[i] == RoleOperand {
				ops = append(ops, i)
			}
		}
		for k := 1; k < len(ops); k++ {
			src := -1
			if len(ops) == 2 {
				src = ops[0]
			}
			for j := k - 1; j >= 0; j-- {
				t := c.Argv[ops[j]]
				if _, known := w.programs["f:"+fileKey(t, c.Dir)]; strings.Contains(t, "/") || known {
					src = ops[j]
				}
			}
			if src >= 0 && !args[ops[k]].dynamic {
				w.copyProgram(c.Argv[ops[k]], c.Dir, args[src])
			}
		}
	case c.Name == "cat" || c.Name == "tee":
		var src *arg
		if c.Name == "cat" {
			for i := 1; i < len(args); i++ {
				if c.Roles[i] == RoleOperand && c.Argv[i] != "-" && !strings.HasPrefix(c.Argv[i], "/dev/") {
					src = &args[i]
					break
				}
			}
		}
		if src == nil {
			src = stdinFile(c)
		}
		if src == nil {
			return
		}
		for _, r := range c.Redirects {
			if writesFile(r) {
				w.copyProgram(r.Target, c.Dir, *src)
			}
		}
		if c.Name == "tee" {
			for i := 1; i < len(args); i++ {
				if c.Roles[i] == RoleOperand && !args[i].dynamic {
					w.copyProgram(c.Argv[i], c.Dir, *src)
				}
			}
		}
	}
}

// stdinFile is the file a command reads on standard input (< FILE).
func stdinFile(c *Command) *arg {
	for _, r := range c.Redirects {
		if r.Op == "<" && r.Fd == 0 && r.Target != "" {
			a := staticArg(r.Target)
			a.dynamic = strings.ContainsAny(r.Target, "$`*?[")
			return &a
		}
	}
	return nil
}

// writesFile reports whether r writes its target to a file (>, >>, >|).
func writesFile(r Redirect) bool {
	return (r.Op == ">" || r.Op == ">>" || r.Op == ">|" || r.Op == "&>") && r.Fd <= 1
}

// hashProgram follows hash -p PROGRAM NAME… (and -pPROGRAM).
func (w *walker) hashProgram(c *Command, args []arg) {
	var program *arg
	wantNext := false
	for i := 1; i < len(args); i++ {
		a := c.Argv[i]
		switch {
		case program == nil && !wantNext && hashP().MatchString(a):
			rest := a[strings.IndexByte(a, 'p')+1:]
			if rest == "" {
				wantNext = true
				continue
			}
			p := args[i]
			p.text = rest
			program = &p
		case wantNext:
			p := args[i]
			program, wantNext = &p, false
		case program != nil && !strings.HasPrefix(a, "-"):
			prog := *program
			if !prog.dynamic && strings.Contains(prog.text, "/") {
				if p, ok := w.programs["f:"+fileKey(prog.text, c.Dir)]; ok {
					prog = p
				}
			}
			w.nameProgram(a, prog)
		}
	}
}

// hashP matches hash's -p option, alone or clustered (-dp, -p/bin/rm).
var hashP = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-[a-oq-z]*p`) })

// hashAssign follows an assignment to BASH_CMDS, bash's table of
// commands as an array: BASH_CMDS[x]=/bin/rm, BASH_CMDS=([x]=/bin/rm),
// and declare 'BASH_CMDS[x]=/bin/rm' (a quoted argument of declare,
// which bash reads as an assignment all the same).
func (w *walker) hashAssign(src source, a *syntax.Assign) {
	if a.Naked && a.Name == nil && a.Value != nil {
		v := resolve(src, a.Value, unquoted)
		if m := quotedHashAssign().FindStringSubmatch(v.text); m != nil && !v.dynamic {
			w.nameProgram(m[1], staticArg(m[2]))
		}
		return
	}
	if a.Name == nil || a.Name.Value != "BASH_CMDS" {
		return
	}
	entry := func(index syntax.ArithmExpr, value *syntax.Word) {
		name := src.of(index)
		name = strings.Trim(name, `'"`)
		if name == "" || value == nil {
			return
		}
		w.nameProgram(name, resolve(src, value, unquoted))
	}
	if a.Index != nil {
		entry(a.Index, a.Value)
	}
	if a.Array != nil {
		for _, e := range a.Array.Elems {
			if e.Index != nil {
				entry(e.Index, e.Value)
			}
		}
	}
}

// quotedHashAssign matches BASH_CMDS[NAME]=PROGRAM as the text of one word.
var quotedHashAssign = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^BASH_CMDS\[['"]?([^]'"]+)['"]?\]\+?=(.+)$`)
})
