package shell

import (
	"path"
	"slices"
	"strings"
)

// DirUnknown is Command.Dir for a command the line may run somewhere it
// cannot tell: after cd "$X", cd -, popd, a shell function that changes
// directory, or a cd that may or may not have run (cd x || …, a cd in
// an if branch or a loop).
const DirUnknown = "?"

// maxAltDirs is how many other directories a command may be reported
// to run in (Command.AltDirs) before they are given as DirUnknown.
const maxAltDirs = 3

// The working directory of the commands of a line, followed the way the
// shell follows it. A cd changes the directory of the commands after
// it in the same shell only: not outside a subshell ( … ), a pipeline
// element, a background job, a substitution, a function body or a
// nested shell (bash -c); eval's script and the builtin and command
// wrappers do run in the same shell. A command reads the directory as it
// was before its own words were expanded, and the walker applies a cd
// only once the cd's whole statement has been walked (pending), so that
// the substitutions in its words see the directory before it.
//
// A cd can fail (the directory does not exist), and then the shell goes
// on where it was: cd /tmp/gone; rm -rf * removes the files of the
// directory the line started in. So each command is reported with where
// it runs if every cd before it succeeded (Dir) and where else it runs
// if one failed and the line went on (AltDirs). A cd followed by && is
// not such a case for the commands of its chain, nor cd x || exit, nor
// any cd after set -e; a cd to /, ~, . or .. is taken never to fail.
// Where a cd may or may not have run (cd x || y, in an if branch or a
// loop) the directory is DirUnknown.

// A where is what the walker knows of the directory the next command
// runs in.
type where struct {
	dir  string   // if every cd so far succeeded, relative to the line's start ("" there)
	alts []string // where else: a cd before failed and the line went on
	// failed are where the current statement's cd commands leave the
	// line should one of them fail; they join alts when the statement
	// ends (stmts), since the commands of an && chain run only where
	// each cd succeeded.
	failed  []string
	errexit bool // set -e is on: a failed cd ends the shell
}

// isolated walks fn with the line's directory as it is now, and puts it
// back afterwards: fn's cd commands stay in fn's own process.
func (w *walker) isolated(fn func() error) error {
	at, pending := w.at, w.pending
	err := fn()
	w.at, w.pending = at, pending
	return err
}

// unsureSince makes the directory unknown when it is no longer entry:
// the walk went through a cd that may not have run.
func (w *walker) unsureSince(entry string) {
	if w.at.dir != entry {
		w.at = where{dir: DirUnknown, errexit: w.at.errexit}
	}
}

// statementEnd lets the next statement run where a cd of the one just
// walked leaves the line should it have failed.
func (w *walker) statementEnd() {
	if len(w.at.failed) > 0 {
		w.at.alts = altDirs(w.at.dir, w.at.alts, w.at.failed)
		w.at.failed = nil
	}
}

// altDirs is alts and more without dir and repeats, or [DirUnknown] when
// that is more than maxAltDirs. It makes a new slice: a where's slices
// are shared by the copies isolated keeps.
func altDirs(dir string, alts, more []string) []string {
	var out []string
	for _, d := range slices.Concat(alts, more) {
		if d == DirUnknown && dir != DirUnknown {
			return []string{DirUnknown}
		}
		if d != dir && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	if len(out) > maxAltDirs {
		return []string{DirUnknown}
	}
	return out
}

// loop walks a loop's parts: when its body changes the directory, a
// second pass runs each of its commands somewhere else, so all of them
// and what follows run in a directory the line does not tell.
func (w *walker) loop(fn func() error) error {
	entry, start := w.at.dir, len(w.cmds)
	if err := fn(); err != nil {
		return err
	}
	if w.at.dir == entry {
		return nil
	}
	for i := start; i < len(w.cmds); i++ {
		w.cmds[i].Dir, w.cmds[i].AltDirs = DirUnknown, []string{}
	}
	w.unsureSince(entry)
	return nil
}

// follow notes where c moves the shell, applied once c's statement is
// walked (applyDir); own are the wrappers c itself was unwrapped from
// (command cd, builtin cd run in the shell; sudo cd or env cd in a
// process of their own, where a cd does nothing).
func (w *walker) follow(c *Command, own []string) {
	if slices.ContainsFunc(own, func(s string) bool { return s != "command" && s != "builtin" }) {
		return
	}
	next := w.at
	switch {
	case c.Name == "set":
		next.errexit = setsErrexit(c.Argv, next.errexit)
	case (c.Name == "cd" || c.Name == "pushd" || c.Name == "popd") && !strings.Contains(c.Argv[0], "/"):
		// (a cd named by its path, /usr/bin/cd, is a program: it moves
		// only its own process)
		dir, sure := dirAfter(w.at.dir, c, w.cdpath)
		next.dir, next.alts = dir, nil
		if dir != DirUnknown {
			for _, a := range w.at.alts { // where the cd leads from the other places
				d, _ := dirAfter(a, c, w.cdpath)
				next.alts = altDirs(dir, next.alts, []string{d})
			}
		}
		if !sure && !w.at.errexit && dir != DirUnknown {
			next.failed = altDirs(dir, w.at.failed, append([]string{w.at.dir}, w.at.alts...))
		}
	case w.cdFuncs[c.Name] && len(own) == 0:
		next = where{dir: DirUnknown, errexit: w.at.errexit}
	default:
		return
	}
	w.pending = &next
}

// applyDir applies the cd the statement just walked ran, if any.
func (w *walker) applyDir() {
	if w.pending != nil {
		w.at, w.pending = *w.pending, nil
	}
}

// setsErrexit is whether set with argv leaves set -e on, given on.
func setsErrexit(argv []string, on bool) bool {
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case (a == "-o" || a == "+o") && i+1 < len(argv):
			if argv[i+1] == "errexit" {
				on = a == "-o"
			}
			i++
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsRune(a, 'e'):
			on = true
		case strings.HasPrefix(a, "+") && strings.ContainsRune(a, 'e'):
			on = false
		}
	}
	return on
}

// dirAfter is the directory the cd, pushd or popd c leaves the shell
// in, given cur, the directory before it ("" where the line started),
// and whether it cannot fail (a cd to /, ~, . or ..). cdpath: the line
// sets CDPATH, which a cd to a bare relative name (cd etc, not ./etc)
// searches first, so where it leads is not known.
func dirAfter(cur string, c *Command, cdpath bool) (dir string, sure bool) {
	i := 1
	for i < len(c.Argv) && c.Roles[i] == RoleOption && c.Argv[i] != "-" {
		i++ // -P, -L, -e, -@, --
	}
	switch {
	case c.Name == "popd":
		return DirUnknown, false
	case i >= len(c.Argv) && c.Name == "cd":
		return "~", true
	case i >= len(c.Argv), c.Argv[i] == "-":
		return DirUnknown, false // pushd alone swaps; cd - goes back
	case c.Name == "pushd" && (strings.HasPrefix(c.Argv[i], "+") || strings.HasPrefix(c.Argv[i], "-")):
		return DirUnknown, false // pushd +N rotates the stack
	}
	p := c.Paths[i]
	if p.Dynamic || p.Glob {
		return DirUnknown, false
	}
	if a := c.Argv[i]; cdpath && !strings.HasPrefix(a, "/") && !strings.HasPrefix(a, "~") &&
		a != "." && a != ".." && !strings.HasPrefix(a, "./") && !strings.HasPrefix(a, "../") {
		return DirUnknown, false
	}
	switch p.Path {
	case "/", "~", ".", "..":
		sure = true
	}
	return joinDir(cur, p.Path), sure
}

// joinDir is the directory target leads to from cur.
func joinDir(cur, target string) string {
	switch {
	case strings.HasPrefix(target, "/") || target == "~" || strings.HasPrefix(target, "~/"):
		return target
	case cur == DirUnknown:
		return DirUnknown
	case cur == "":
		return target
	}
	joined := path.Join(cur, target)
	if strings.HasPrefix(cur, "~") && joined != "~" && !strings.HasPrefix(joined, "~/") {
		return DirUnknown // above the home directory, which is not known
	}
	return joined
}
