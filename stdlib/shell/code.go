package shell

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/hookhost/hookhost/stdlib"
)

// A Call is a call found in the code of an interpreter one-liner that
// deletes files or runs a command: shutil.rmtree("/"), os.system("rm
// -rf ~"), `rm -rf /` in Perl or Ruby, execSync in Node.
type Call struct {
	// Kind is "delete" (the arguments are paths it removes), "write"
	// (Args[0] is a file it writes, creates, replaces or links), "shell"
	// (Args[0] is a command line a shell runs) or "exec" (Args is the
	// argv of a program it runs, no shell in between).
	Kind string
	// Func is the function as written, with its qualifiers
	// ("shutil.rmtree", "os.system", "FileUtils.rm_rf"), or "`" for
	// backticks, "qx" and "%x" for their quote forms.
	Func string
	// Args are the arguments: the values of string literals (lists of
	// them flattened), a known home directory expression
	// (os.path.expanduser("~"), os.homedir(), ENV["HOME"], $ENV{HOME})
	// as "~", anything else as written.
	Args []string
	// Paths are Args read as paths, for a delete or a write (nil
	// otherwise).
	Paths []PathInfo
	// Recursive reports a delete of whole trees: shutil.rmtree,
	// FileUtils.rm_rf, File::Path's rmtree, fs.rmSync with recursive.
	Recursive bool
	// Dynamic reports that an argument is not a literal, so what the
	// call deletes or runs is only known at run time.
	Dynamic bool

	argDyn []bool // per Args entry: not a literal
}

// Value returns the call as the neutral map scripts receive.
func (c Call) Value() map[string]any { return c.record().Map() }

// callKeys are the keys of a call's record, in byte order: args,
// dynamic, func, kind, paths, recursive.
var callKeys = stdlib.NewRecordKeys("kind", "func", "args", "paths", "recursive", "dynamic")

func (c Call) record() stdlib.Record {
	paths := make([]any, len(c.Paths))
	for i, p := range c.Paths {
		paths[i] = p.record()
	}
	return stdlib.Record{Keys: callKeys, Values: []any{stringList(c.Args), c.Dynamic, c.Func, c.Kind, paths, c.Recursive}}
}

// Languages lists the languages CodeCalls reads.
var Languages = []string{"python", "perl", "ruby", "node", "php", "lua"}

// CodeCalls returns the calls in code, a program in lang (one of
// Languages), that delete files or run commands, in source order. It
// reads code with a scanner that knows each language's strings,
// comments and call syntax, not with a full parser: code built at run
// time (getattr(os, "sys"+"tem"), eval of a string) is not seen, and an
// argument that is not a literal is reported as written, with Dynamic
// set. Code longer than MaxLineBytes, or with more than 64 calls of
// the functions it looks for, is an error (ErrTooLong, ErrTooMany).
func CodeCalls(lang, code string) ([]Call, error) {
	if _, ok := lexSpecs()[lang]; !ok {
		return nil, fmt.Errorf("unknown language %q (want one of %s)", lang, strings.Join(Languages, ", "))
	}
	if len(code) > MaxLineBytes {
		return nil, fmt.Errorf("%w: %d bytes of code (the limit is %d)", ErrTooLong, len(code), MaxLineBytes)
	}
	return scanCalls(lang, code)
}

// maxCalls bounds the calls read from one piece of code: reading each
// costs time linear in the code.
const maxCalls = 64

// callKind says how a function's arguments are read.
type callKind int

const (
	kDelete callKind = iota
	kShell           // the first argument is a command line
	kAuto            // one string: a command line; several words or a list: an argv
	kExec            // an argv, given as a list or as words (os.execvp)
	kSpawn           // a program, then a list of its arguments (spawn("rm", ["-rf"]))
	kWrite           // a file it writes: the argument at rule.path, when the mode at rule.mode writes
)

// A rule tells what a function does. quals lists the qualifiers it must
// have ("" for none, ")" for a call's result such as Path(…).unlink);
// nil accepts any.
type rule struct {
	kind      callKind
	recursive bool
	quals     []string
	// For kWrite: path is the index of the written file among the
	// positional arguments (-1 the last; -2 the receiver's first:
	// Path("x").write_text(…)), and mode, when not -1, that of a mode
	// string (open(f, "w")) without which the call only reads;
	// perlOpen reads Perl's open(FH, MODE, PATH) and open(FH, ">PATH").
	path, mode int
	perlOpen   bool
}

func anyQual(k callKind) rule            { return rule{kind: k} }
func quals(k callKind, q ...string) rule { return rule{kind: k, quals: q} }
func tree() rule                         { return rule{kind: kDelete, recursive: true} }

// writes is a call that writes the file at argument path.
func writes(path int, q ...string) rule { return rule{kind: kWrite, path: path, mode: -1, quals: q} }

// opens is a call that writes the file at argument 0 when its mode at
// argument mode (or the keyword mode=) writes.
func opens(mode int, q ...string) rule { return rule{kind: kWrite, path: 0, mode: mode, quals: q} }

// callRules are, per language, the calls that run or delete something.
// It, like the package's other tables, is built on first use, not at
// init: every hookhost command links this package, and most never read
// code.
var callRules = sync.OnceValue(func() map[string]map[string]rule {
	return map[string]map[string]rule{
		"python": withNames(map[string]rule{
			"system": anyQual(kShell), "popen": anyQual(kShell), "getoutput": anyQual(kShell),
			"getstatusoutput": anyQual(kShell), "create_subprocess_shell": anyQual(kShell),
			"run": quals(kAuto, "subprocess", "sp", ")"), "call": quals(kAuto, "subprocess", "sp", ")"),
			"check_call": anyQual(kAuto), "check_output": anyQual(kAuto), "Popen": anyQual(kAuto),
			"create_subprocess_exec": anyQual(kSpawn),
			"rmtree":                 tree(),
			"remove":                 quals(kDelete, "os", ")", ""), "unlink": quals(kDelete, "os", ")", ""),
			"rmdir": quals(kDelete, "os", ")", ""), "removedirs": anyQual(kDelete),
			"open": opens(1, "", "io", "builtins", "codecs"), "copy": writes(1, "shutil"), "copyfile": writes(1, "shutil"),
			"copy2": writes(1, "shutil"), "copytree": writes(1, "shutil"), "move": writes(1, "shutil"),
			"rename": writes(1, "os"), "replace": writes(1, "os"), "symlink": writes(1, "os"), "link": writes(1, "os"),
			"write_text": writes(-2, ")"), "write_bytes": writes(-2, ")"),
		}, kExec, "execv", "execve", "execvp", "execvpe", "execl", "execle", "execlp", "execlpe",
			"spawnv", "spawnve", "spawnvp", "spawnvpe", "spawnl", "spawnle", "spawnlp", "spawnlpe", "posix_spawn", "posix_spawnp"),
		"perl": {
			"system": anyQual(kAuto), "exec": anyQual(kAuto),
			"unlink": anyQual(kDelete), "rmdir": anyQual(kDelete), "rmtree": tree(), "remove_tree": tree(),
			"open": {kind: kWrite, perlOpen: true, mode: -1}, "rename": writes(1), "copy": writes(1, "", "File::Copy"),
			"move": writes(1, "", "File::Copy"), "symlink": writes(1), "link": writes(1),
		},
		"ruby": {
			"system": quals(kAuto, "", "Kernel", "Process"), "exec": quals(kAuto, "", "Kernel", "Process"),
			"spawn": quals(kAuto, "", "Kernel", "Process"), "popen": quals(kAuto, "IO"),
			"capture2": anyQual(kAuto), "capture2e": anyQual(kAuto), "capture3": anyQual(kAuto),
			"popen2": anyQual(kAuto), "popen2e": anyQual(kAuto), "popen3": anyQual(kAuto),
			"rm_rf": tree(), "rm_r": tree(), "remove_dir": tree(), "remove_entry": tree(),
			"remove_entry_secure": tree(), "rmtree": tree(),
			"rm": quals(kDelete, "FileUtils", "FU"), "rm_f": quals(kDelete, "FileUtils", "FU"),
			"remove_file": anyQual(kDelete), "rmdir": quals(kDelete, "FileUtils", "FU", "Dir", ")"),
			"delete": quals(kDelete, "File", "Dir", ")"), "unlink": quals(kDelete, "File", "Dir", ")"),
			"write": writes(0, "File", "IO"), "binwrite": writes(0, "File", "IO"), "open": opens(1, "File"),
			"rename": writes(1, "File"), "symlink": writes(1, "File"), "cp": writes(1, "FileUtils", "FU"),
			"mv": writes(1, "FileUtils", "FU"), "install": writes(1, "FileUtils", "FU"), "ln_s": writes(1, "FileUtils", "FU"),
			"ln_sf": writes(1, "FileUtils", "FU"), "copy": writes(1, "FileUtils", "FU"),
		},
		"node": {
			"exec": quals(kShell, "", "child_process", "cp", "childProcess", ")"), "execSync": anyQual(kShell),
			"spawn": quals(kSpawn, "", "child_process", "cp", "childProcess", ")"), "spawnSync": anyQual(kSpawn),
			"execFile": anyQual(kSpawn), "execFileSync": anyQual(kSpawn),
			"rmSync": anyQual(kDelete), "rmdirSync": anyQual(kDelete), "unlinkSync": anyQual(kDelete),
			"rm": quals(kDelete, "fs", "fsp", "promises", "fse", ")"), "rmdir": quals(kDelete, "fs", "fsp", "promises", "fse", ")"),
			"unlink": quals(kDelete, "fs", "fsp", "promises", "fse", ")"), "remove": quals(kDelete, "fse", "Deno", ")"),
			"removeSync": tree(), "emptyDirSync": tree(),
			"writeFileSync": writes(0), "appendFileSync": writes(0), "createWriteStream": writes(0), "outputFileSync": writes(0),
			"writeFile": writes(0, "fs", "fsp", "promises", "fse", ")"), "appendFile": writes(0, "fs", "fsp", "promises", "fse", ")"),
			"copyFileSync": writes(1), "cpSync": writes(1), "renameSync": writes(1), "symlinkSync": writes(1), "linkSync": writes(1),
			"copyFile": writes(1, "fs", "fsp", "promises", "fse", ")"), "rename": writes(1, "fs", "fsp", "promises", "fse", ")"),
			"openSync": opens(1), "copySync": writes(1), "moveSync": writes(1),
		},
		"php": {
			"system": anyQual(kShell), "exec": anyQual(kShell), "shell_exec": anyQual(kShell),
			"passthru": anyQual(kShell), "popen": anyQual(kShell), "proc_open": anyQual(kShell),
			"pcntl_exec": anyQual(kSpawn), "unlink": anyQual(kDelete), "rmdir": anyQual(kDelete),
			"file_put_contents": writes(0), "fopen": opens(1), "copy": writes(1), "rename": writes(1),
			"symlink": writes(1), "link": writes(1),
		},
		"lua": {
			"execute": quals(kShell, "os"), "popen": quals(kShell, "io"), "remove": quals(kDelete, "os"),
			"open": opens(1, "io"), "rename": writes(1, "os"),
		},
	}
})

func withNames(m map[string]rule, k callKind, names ...string) map[string]rule {
	for _, n := range names {
		m[n] = quals(k, "os", ")")
	}
	return m
}

// homeExpr matches, with spaces removed, the expressions of each
// language that name the user's home directory. It and expanduser are
// compiled on first use, not at init: every hookhost command links this
// package, and most never read code.
var homeExpr = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:` + strings.Join([]string{
		`(?:os\.path\.)?expanduser\(['"]~['"]\)`,
		`os\.environ\[['"]HOME['"]\]`, `os\.environ\.get\(['"]HOME['"]\)`, `os\.getenv\(['"]HOME['"]\)`,
		`(?:pathlib\.)?Path\.home\(\)`, `(?:pathlib\.)?Path\(['"]~['"]\)\.expanduser\(\)`,
		`(?:require\(['"](?:node:)?os['"]\)|os)\.homedir\(\)`, `process\.env(?:\.HOME|\[['"]HOME['"]\])`,
		`Dir\.home`, `ENV\[['"]HOME['"]\]`, `File\.expand_path\(['"]~['"]\)`,
		`\$ENV\{['"]?HOME['"]?\}`, `getenv\(['"]HOME['"]\)`, `\$_SERVER\[['"]HOME['"]\]`, `os\.getenv\(['"]HOME['"]\)`,
	}, "|") + `)$`)
})

// expanduser matches os.path.expanduser("~/x") with a longer path.
var expanduser = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:os\.path\.)?expanduser\(['"](~[^'"]*)['"]\)$`)
})

// scanner walks the tokens of one piece of code.
type scanner struct {
	lang  string
	code  string
	toks  []token
	rules map[string]rule
	calls []Call
	sites int // calls of the functions looked for, read so far
	// aliases are the names Python code imports a function looked for
	// under (from shutil import rmtree as r): r is rmtree.
	aliases map[string]string
}

func scanCalls(lang, code string) ([]Call, error) {
	s := &scanner{lang: lang, code: code, toks: lex(lang, code), rules: callRules()[lang]}
	if lang == "python" {
		s.importAliases()
	}
	for i := range s.toks {
		if s.sites > maxCalls || len(s.calls) > maxCalls {
			return nil, fmt.Errorf("%w: more than %d calls that delete or run commands", ErrTooMany, maxCalls)
		}
		s.at(i)
	}
	if s.calls == nil {
		return []Call{}, nil
	}
	return s.calls, nil
}

// at looks for a call starting at token i.
func (s *scanner) at(i int) {
	t := s.toks[i]
	if t.kind == tString && t.shell {
		s.calls = append(s.calls, Call{Kind: "shell", Func: shellQuoteName(s.code[t.start:]), Args: []string{t.text},
			Dynamic: t.dynamic, argDyn: []bool{t.dynamic}})
		return
	}
	if t.kind != tIdent {
		return
	}
	r, ok := s.rules[t.text]
	if !ok {
		if name, aliased := s.aliases[t.text]; aliased {
			r, ok = s.rules[name]
		}
	}
	if !ok {
		return
	}
	qual := s.qualifier(i)
	if r.quals != nil && !slices.Contains(r.quals, qual) {
		return
	}
	s.sites++
	args, ok := s.arguments(i + 1)
	if !ok {
		return
	}
	if (len(args) == 0 || r.path == -2) && qual == ")" { // Path("/x").unlink(): the receiver's arguments
		args, _ = s.arguments(s.openerOf(i - 2))
	}
	if c, ok := s.build(r, s.funcName(i), args); ok {
		s.calls = append(s.calls, c)
	}
}

// importAliases records the functions looked for that Python code
// imports under another name: NAME as ALIAS, after import (from M
// import rmtree as r, and in a list: import a, rmtree as r).
func (s *scanner) importAliases() {
	for k := 1; k+1 < len(s.toks); k++ {
		as, name, alias := s.toks[k], s.toks[k-1], s.toks[k+1]
		if as.kind != tIdent || as.text != "as" || name.kind != tIdent || alias.kind != tIdent {
			continue
		}
		if _, looked := s.rules[name.text]; looked && alias.text != name.text {
			if s.aliases == nil {
				s.aliases = map[string]string{}
			}
			s.aliases[alias.text] = name.text
		}
	}
}

func shellQuoteName(s string) string {
	switch {
	case strings.HasPrefix(s, "qx"):
		return "qx"
	case strings.HasPrefix(s, "%x"):
		return "%x"
	}
	return "`"
}

func isSep(t token) bool {
	return t.kind == tPunct && (t.text == "." || t.text == "::" || t.text == "->")
}

// qualifier returns what the name at i is called on: the name before a
// separator, ")" for a call's result, "" for none, "?" for anything else.
func (s *scanner) qualifier(i int) string {
	if i < 2 || !isSep(s.toks[i-1]) {
		return ""
	}
	switch p := s.toks[i-2]; {
	case p.kind == tIdent:
		return p.text
	case p.kind == tPunct && (p.text == ")" || p.text == "]"):
		return ")"
	}
	return "?"
}

// funcName returns the dotted name ending at token i (os.path.x).
func (s *scanner) funcName(i int) string {
	start := i
	for start >= 2 && isSep(s.toks[start-1]) && s.toks[start-2].kind == tIdent {
		start -= 2
	}
	return s.code[s.toks[start].start:s.toks[i].end]
}

// openerOf returns the index of the opening bracket that matches the
// closing one at i, or len(toks) when there is none.
func (s *scanner) openerOf(i int) int {
	if i < 0 || i >= len(s.toks) {
		return len(s.toks)
	}
	depth := 0
	for j := i; j >= 0; j-- {
		switch s.toks[j].text {
		case ")", "]":
			if s.toks[j].kind == tPunct {
				depth++
			}
		case "(", "[":
			if s.toks[j].kind == tPunct {
				if depth--; depth == 0 {
					return j
				}
			}
		}
	}
	return len(s.toks)
}
