package shell

import (
	"slices"
	"strings"
)

// This file unwraps the launchers: programs that run a command given
// to them as an argv (strace, flock, systemd-run, …) or as a line of
// shell (script -c, sg -c, tmux new, nix-shell --run, expect -c).
// Their options are read well enough to find the command; a guard that
// wants more than that can judge the launcher's own words too.

// addLaunchers adds the launchers to the wrapper table m.
func addLaunchers(m map[string]unwrapFunc) {
	launchers := map[string]opts{
		"flock":            {value: "wE", long: []string{"timeout", "conflict-exit-code"}, stop: "cu", stopLong: []string{"command", "unlock"}, operands: 1},
		"strace":           {value: "abeEIoOpPsSuUX", long: []string{"output", "trace", "signal", "user", "string-limit", "attach", "env"}},
		"ltrace":           {value: "aAeEfLnopsuwXx", long: []string{"output", "library", "indent"}},
		"prlimit":          {value: "p", long: []string{"pid", "output"}},
		"chrt":             {stop: "p", stopLong: []string{"pid"}, value: "T", long: []string{"sched-runtime", "sched-period", "sched-deadline"}, operands: 1},
		"setpriv":          {long: []string{"reuid", "regid", "ruid", "rgid", "euid", "egid", "groups", "inh-caps", "ambient-caps", "bounding-set", "securebits", "pdeathsig", "selinux-label", "apparmor-profile", "landlock-access", "landlock-rule"}},
		"unshare":          {value: "SGRw", long: []string{"setuid", "setgid", "root", "wd", "map-user", "map-group", "map-users", "map-groups"}},
		"nsenter":          {value: "tSGUT", optional: "wr", long: []string{"target", "setuid", "setgid"}}, // -w, -r, --wd, --root: a value only attached
		"fakeroot":         {value: "lsi", long: []string{"lib", "faked"}},
		"firejail":         {},
		"systemd-run":      {value: "pEuMHS", long: []string{"unit", "property", "setenv", "uid", "gid", "nice", "working-directory", "slice", "description", "machine", "host", "on-calendar", "on-active", "service-type", "timer-property", "path-property", "socket-property"}},
		"cgexec":           {value: "g"},
		"pkexec":           {long: []string{"user"}},
		"numactl":          {value: "NmCpPiwab", long: []string{"cpunodebind", "membind", "physcpubind", "preferred", "interleave", "localalloc"}},
		"setarch":          {operands: 1},
		"linux32":          {},
		"linux64":          {},
		"valgrind":         {},
		"xvfb-run":         {value: "efnpsw", long: []string{"error-file", "server-num", "xauth-protocol", "server-args", "wait"}},
		"dbus-run-session": {long: []string{"config-file", "dbus-daemon"}},
		"chronic":          {},
		"ifne":             {},
		"unbuffer":         {},
		"tsp":              {value: "LDNwuitocrkUSh"},
		"nq":               {},
		"daemonize":        {value: "acejlopuE"},
		"caffeinate":       {value: "tw"},
		"screen":           {value: "cehpStTXrRx"}, // -r, -x: a session to attach, not a command
		"toybox":           {},
		"spawn":            {}, // expect's: expect -c 'spawn rm -rf /'
	}
	for name, o := range launchers {
		m[name] = plain(o)
	}
	// launchers whose options say where their command starts
	for name, ld := range map[string]launcherDir{
		"unshare":     {dir: []string{"w", "wd"}, root: []string{"R", "root"}},
		"nsenter":     {dir: []string{"w", "wd"}, root: []string{"r", "root"}},
		"systemd-run": {dir: []string{"working-directory"}, serviceDir: true},
	} {
		ld.opts = launchers[name]
		m[name] = inDir(m[name], ld)
	}
	m["gdb"] = unwrapGdb
	m["start-stop-daemon"] = unwrapStartStop
	m["script"] = unwrapScript
	m["sg"] = unwrapSg
	m["tmux"] = unwrapTmux
	m["nix-shell"] = unwrapNixShell
	m["expect"] = unwrapExpect
	m["alias"] = unwrapAlias
	for _, name := range []string{"npx", "pnpx", "bunx"} {
		m[name] = unwrapNpx
	}
	m["cmake"] = unwrapCmake
	for _, name := range []string{"npm", "pnpm", "yarn", "bun"} {
		m[name] = unwrapPackageManager
	}
}

// unwrapGdb unwraps gdb … --args program args…: gdb runs it on `run`.
func unwrapGdb(args []arg) unwrapped {
	for i := 1; i < len(args)-1; i++ {
		if args[i].text == "--args" || args[i].text == "-args" {
			return unwrapped{argvs: [][]arg{args[i+1:]}}
		}
	}
	return unwrapped{}
}

// unwrapStartStop unwraps start-stop-daemon --start --exec PROGRAM -- args…
// (or --startas): the program gets the words after --.
func unwrapStartStop(args []arg) unwrapped {
	var prog, dir *arg
	for i := 1; i < len(args); i++ {
		t := args[i].text
		switch {
		case t == "--":
			if prog == nil {
				return unwrapped{}
			}
			if dir != nil { // --chdir DIR: the program starts there
				return inDirScript(*dir, append([]arg{*prog}, args[i+1:]...))
			}
			return unwrapped{argvs: [][]arg{append([]arg{*prog}, args[i+1:]...)}}
		case (t == "-d" || t == "--chdir") && i+1 < len(args):
			dir = &args[i+1]
			i++
		case strings.HasPrefix(t, "--chdir="):
			d := args[i]
			d.text, d.raw = strings.TrimPrefix(d.text, "--chdir="), strings.TrimPrefix(d.raw, "--chdir=")
			dir = &d
		case (t == "-x" || t == "--exec" || t == "-a" || t == "--startas") && i+1 < len(args):
			prog = &args[i+1]
			i++
		case strings.HasPrefix(t, "--exec=") || strings.HasPrefix(t, "--startas="):
			_, v, _ := strings.Cut(t, "=")
			a := staticArg(v)
			prog = &a
		}
	}
	if prog == nil {
		return unwrapped{}
	}
	if dir != nil {
		return inDirScript(*dir, []arg{*prog})
	}
	return unwrapped{argvs: [][]arg{{*prog}}}
}

// valueScripts returns the values of the options of o called any of
// names, as scripts, reading options and operands in any order.
func valueScripts(o opts, args []arg, names ...string) []scriptText {
	var out []scriptText
	rest := args
	for range len(args) {
		s := o.scan(rest)
		for _, v := range s.values(names...) {
			out = append(out, script(v))
		}
		if s.next < 0 || s.dashdash {
			break
		}
		rest = append([]arg{rest[0]}, rest[s.next+1:]...) // skip one operand
	}
	return out
}

var scriptOpts = opts{value: "cEIOBT", long: []string{"command", "echo", "log-in", "log-out", "log-io", "log-timing", "logging-format", "output-limit"}}

// unwrapScript unwraps script -c 'line' [file]: script runs the line
// with the user's shell.
func unwrapScript(args []arg) unwrapped {
	return unwrapped{scripts: valueScripts(scriptOpts, args, "c", "command")}
}

// unwrapSg unwraps sg GROUP -c 'line' and sg GROUP 'line', both run by
// /bin/sh -c.
func unwrapSg(args []arg) unwrapped {
	i := 1
	if i < len(args) && args[i].text == "-" {
		i++
	}
	i++ // the group
	if i < len(args) && args[i].text == "-c" {
		i++
	}
	if i >= len(args) {
		return unwrapped{}
	}
	return unwrapped{scripts: []scriptText{join(args[i:])}}
}

// tmuxRuns are the tmux commands whose last words are a shell command.
var tmuxRuns = map[string]bool{
	"new": true, "new-session": true, "new-window": true, "neww": true,
	"split-window": true, "splitw": true, "respawn-pane": true, "respawnp": true,
	"respawn-window": true, "respawnw": true, "run-shell": true, "run": true,
	"display-popup": true, "popup": true, "pipe-pane": true, "pipep": true,
}

var tmuxOpts = opts{value: "ceFflnpstxy"} // -h, -d, -b are flags of split-window and new-session

// unwrapTmux unwraps tmux [options] new -d 'line' and the other tmux
// commands that run a shell command: tmux hands one word to sh -c and
// runs several as an argv; both are read as their words joined.
func unwrapTmux(args []arg) unwrapped {
	i := 1
	for i < len(args) && strings.HasPrefix(args[i].text, "-") {
		if t := args[i].text; len(t) == 2 && strings.ContainsAny(t[1:], "LSfc") {
			i++ // -L socket, -S path, -f file, -c command
		}
		i++
	}
	if i >= len(args) || !tmuxRuns[args[i].text] {
		return unwrapped{}
	}
	sub := append([]arg{args[i]}, args[i+1:]...)
	s := tmuxOpts.scan(sub)
	if s.next < 0 {
		return unwrapped{}
	}
	return unwrapped{scripts: []scriptText{join(sub[s.next:])}}
}

var nixShellOpts = opts{value: "pAEIj", long: []string{"run", "command", "packages", "attr", "expr", "arg", "argstr", "include", "option", "keep"}}

// unwrapNixShell unwraps nix-shell --run 'line' and --command 'line'.
func unwrapNixShell(args []arg) unwrapped {
	return unwrapped{scripts: valueScripts(nixShellOpts, args, "run", "command")}
}

var expectOpts = opts{value: "cfD"}

// unwrapExpect unwraps expect -c 'script': Tcl, whose commands read
// close enough to shell for spawn PROGRAM args… and exec to show.
func unwrapExpect(args []arg) unwrapped {
	return unwrapped{scripts: valueScripts(expectOpts, args, "c")}
}

// unwrapAlias reports the values of alias NAME=VALUE as code: with
// expand_aliases, a later use of NAME runs VALUE (the alias itself
// still runs nothing until then).
func unwrapAlias(args []arg) unwrapped {
	u := unwrapped{self: true}
	for _, a := range args[1:] {
		name, val, ok := strings.Cut(a.text, "=")
		if !ok || name == "" {
			continue
		}
		if a.dynamic && len(val) > 1 && val[0] == '"' && val[len(val)-1] == '"' {
			val = val[1 : len(val)-1] // alias x="rm -rf $HOME": the words inside the quotes
		}
		s := script(staticArg(val))
		s.dynamic = a.dynamic
		u.scripts = append(u.scripts, s)
	}
	return u
}

// A launcherDir says which of a launcher's options set where its command
// starts: dir a working directory, root a new root (the command starts
// at its /); serviceDir a systemd service's default, / for the system
// manager and ~ for --user, unless --same-dir (-d) keeps the caller's.
type launcherDir struct {
	opts       opts
	dir, root  []string
	serviceDir bool
}

// inDir wraps a launcher's unwrapping: where its options make the
// command start elsewhere, the command is read as cd DIR && command, so
// that its relative paths are DIR's (unshare --wd=/ rm -rf usr,
// systemd-run rm -rf usr: /usr).
func inDir(unwrap unwrapFunc, ld launcherDir) unwrapFunc {
	return func(args []arg) unwrapped {
		s := ld.opts.scan(args)
		if s.next < 0 || s.next >= len(args) {
			return unwrap(args)
		}
		dir := ld.where(s)
		if dir == nil {
			return unwrap(args)
		}
		return inDirScript(*dir, args[s.next:])
	}
}

// where is the directory the launcher's options s start its command
// in, or nil for the caller's.
func (ld launcherDir) where(s scan) *arg {
	if v := s.values(ld.dir...); len(v) > 0 {
		if v[len(v)-1].text == "" { // nsenter -w: the target's directory, known only at run time
			return &arg{text: `"$TARGET_WD"`, raw: `"$TARGET_WD"`, base: `"$TARGET_WD"`, dynamic: true}
		}
		return &v[len(v)-1]
	}
	if ld.serviceDir { // systemd-run -p WorkingDirectory=DIR ("-" or "!" before DIR: the same place)
		var dir *arg
		for _, v := range s.values("p", "property") {
			if d, ok := strings.CutPrefix(v.text, "WorkingDirectory="); ok && strings.TrimLeft(d, "-!+") != "" {
				v.text = strings.TrimLeft(d, "-!+")
				v.raw = v.text
				dir = &v
			}
		}
		if dir != nil {
			return dir
		}
	}
	if v := s.values(ld.root...); len(v) > 0 && v[len(v)-1].text != "" {
		return &v[len(v)-1]
	}
	if ld.serviceDir && !s.has("d") && !slices.ContainsFunc(s.options, func(o option) bool {
		// --same-dir and --scope keep the caller's directory (abbreviated too)
		return len(o.name) >= 2 && (strings.HasPrefix("same-dir", o.name) || strings.HasPrefix("scope", o.name))
	}) {
		home := staticArg("/")
		if s.has("user") {
			home = staticArg("~")
		}
		return &home
	}
	return nil
}
