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

// The working directory of the commands of a line, followed the way the
// shell follows it. A cd changes the directory of the commands after
// it in the same shell only: not outside a subshell ( … ), a pipeline
// element, a background job, a substitution, a function body or a
// nested shell (bash -c); eval's script and the builtin and command
// wrappers do run in the same shell. A command reads the directory as it
// was before its own words were expanded, and the walker applies a cd
// only once the cd's whole statement has been walked (pendingDir), so
// that the substitutions in its words see the directory before it.
//
// What a cd that does not run, or fails, leaves is not known: after
// cd x || y the directory is unknown, and so it is after an if, case or
// loop whose branches changed it (and within a loop whose body changes
// it, every command of the body is). A cd that is followed by ; or &&
// is taken to succeed, as a person reading the line would.

// isolated walks fn with the line's directory as it is now, and puts it
// back afterwards: fn's cd commands stay in fn's own process.
func (w *walker) isolated(fn func() error) error {
	dir, pending := w.dir, w.pendingDir
	err := fn()
	w.dir, w.pendingDir = dir, pending
	return err
}

// unsureSince marks the directory unknown when it is no longer entry:
// the walk went through a cd that may not have run.
func (w *walker) unsureSince(entry string) {
	if w.dir != entry {
		w.dir = DirUnknown
	}
}

// loop walks a loop's parts: when its body changes the directory, a
// second pass runs each of its commands somewhere else, so all of them
// and what follows run in a directory the line does not tell.
func (w *walker) loop(fn func() error) error {
	entry, start := w.dir, len(w.cmds)
	if err := fn(); err != nil {
		return err
	}
	if w.dir == entry {
		return nil
	}
	for i := start; i < len(w.cmds); i++ {
		w.cmds[i].Dir = DirUnknown
	}
	w.dir = DirUnknown
	return nil
}

// follow notes the directory c moves the shell to, applied once c's
// statement is walked (applyDir); own are the wrappers c itself was
// unwrapped from (command cd, builtin cd run in the shell; sudo cd or
// env cd in a process of their own, where a cd does nothing).
func (w *walker) follow(c *Command, own []string) {
	if slices.ContainsFunc(own, func(s string) bool { return s != "command" && s != "builtin" }) {
		return
	}
	switch {
	case c.Name == "cd" || c.Name == "pushd" || c.Name == "popd":
		d := dirAfter(w.dir, c)
		w.pendingDir = &d
	case w.cdFuncs[c.Name] && len(own) == 0:
		d := DirUnknown
		w.pendingDir = &d
	}
}

// applyDir applies the cd the statement just walked ran, if any.
func (w *walker) applyDir() {
	if w.pendingDir != nil {
		w.dir, w.pendingDir = *w.pendingDir, nil
	}
}

// dirAfter is the directory the cd, pushd or popd c leaves the shell
// in, given cur, the directory before it ("" where the line started).
func dirAfter(cur string, c *Command) string {
	i := 1
	for i < len(c.Argv) && c.Roles[i] == RoleOption && c.Argv[i] != "-" {
		i++ // -P, -L, -e, -@, --
	}
	switch {
	case c.Name == "popd":
		return DirUnknown
	case i >= len(c.Argv) && c.Name == "cd":
		return "~"
	case i >= len(c.Argv), c.Argv[i] == "-":
		return DirUnknown // pushd alone swaps; cd - goes back
	case c.Name == "pushd" && (strings.HasPrefix(c.Argv[i], "+") || strings.HasPrefix(c.Argv[i], "-")):
		return DirUnknown // pushd +N rotates the stack
	}
	p := c.Paths[i]
	if p.Dynamic || p.Glob {
		return DirUnknown
	}
	return joinDir(cur, p.Path)
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
