package shell

import (
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// This file unwraps the wrappers that run shell source rather than an
// argv (sh -c, eval, ssh, watch, su -c, trap, env -S) and find -exec.

// A scriptBuilder assembles shell source from words, separated by
// spaces, keeping track of the holes and whether any word is dynamic.
type scriptBuilder struct {
	b       strings.Builder
	words   int
	holes   []span
	dynamic bool
	substs  []syntax.Node
}

func (sb *scriptBuilder) add(text string, holes []span, dynamic bool, substs ...syntax.Node) {
	sb.dynamic = sb.dynamic || dynamic
	sb.substs = append(sb.substs, substs...)
	if sb.b.Len() > MaxLineBytes {
		return // too long to parse anyway: admit will refuse it
	}
	if sb.words++; sb.words > 1 {
		sb.b.WriteByte(' ')
	}
	sb.holes = append(sb.holes, shift(holes, sb.b.Len())...)
	sb.b.WriteString(text)
}

// raw adds words as eval, ssh and watch use them: their values, which
// the shell parses again.
func (sb *scriptBuilder) raw(args []arg) *scriptBuilder {
	for _, a := range args {
		sb.add(a.raw, a.holes, a.dynamic, a.substs...)
	}
	return sb
}

// quoted adds words as source that yields them back as they are.
func (sb *scriptBuilder) quoted(args []arg) *scriptBuilder {
	for _, a := range args {
		if a.dynamic { // its text is its source: leave it
			sb.add(a.text, []span{{0, len(a.text)}}, true, a.substs...)
			continue
		}
		q, err := syntax.Quote(a.text, syntax.LangBash)
		if err != nil {
			q = a.text
		}
		sb.add(q, nil, false)
	}
	return sb
}

func (sb *scriptBuilder) script() scriptText {
	return scriptText{text: sb.b.String(), dynamic: sb.dynamic, holes: sb.holes, substs: sb.substs}
}

// join returns words as the shell source that eval, ssh and watch
// build from them: their values joined by spaces, parsed again.
func join(args []arg) scriptText { return new(scriptBuilder).raw(args).script() }

// script returns a word that a shell runs as a script.
func script(a arg) scriptText {
	return scriptText{text: a.raw, dynamic: a.dynamic, holes: a.holes, substs: a.substs}
}

var envOpts = opts{value: "uCSP", long: []string{"unset", "chdir", "split-string"}, assigns: true, dash: true}

// unwrapEnv unwraps env [options] [NAME=VALUE]… command, including
// env -S 'cmd args', whose string env splits into words itself.
func unwrapEnv(args []arg) unwrapped {
	s := envOpts.scan(args)
	split := s.values("S", "split-string")
	if dirs := s.values("C", "chdir"); len(dirs) > 0 && len(split) == 0 && s.next >= 0 {
		// env -C DIR command runs command in DIR: read as cd DIR && command,
		// so that its relative paths are DIR's (env -C / rm -rf usr)
		return inDirScript(dirs[len(dirs)-1], args[s.next:])
	}
	if len(split) == 0 {
		return plain(envOpts)(args)
	}
	sb := new(scriptBuilder)
	if strings.HasPrefix(strings.TrimSpace(split[len(split)-1].text), "-") {
		sb.add("env", nil, false) // env -S '-C / cmd': the string holds env's own options too
	}
	str := split[len(split)-1]
	str.raw, str.holes = envEscapes(str.raw, str.holes)
	sb.raw([]arg{str})
	if s.next >= 0 {
		sb.quoted(args[s.next:])
	}
	return unwrapped{scripts: []scriptText{sb.script()}}
}

// envEscapes reads env -S's own escapes in its string, which the shell
// parser would read otherwise: \_ outside single quotes is a space (a
// separator outside double quotes, a space inside them: env -S
// 'rm\_-rf\_/' runs rm -rf /), and \c ends the string. Other escapes
// are left to the parser, which reads them as the characters they
// escape. Text inside holes (the outer shell's expansions) is left
// alone, and the holes are moved with the text around them.
func envEscapes(raw string, holes []span) (string, []span) {
	if !strings.Contains(raw, `\`) {
		return raw, holes
	}
	var b strings.Builder
	moved := slices.Clone(holes)
	// removed moves every hole that starts or ends after the byte at i
	// one byte to the left.
	removed := func(i int) {
		for k := range moved {
			if holes[k].start > i {
				moved[k].start--
			}
			if holes[k].end > i {
				moved[k].end--
			}
		}
	}
	single, double := false, false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case within(holes, i):
		case c == '\'' && !double:
			single = !single
		case c == '"' && !single:
			double = !double
		case c == '\\' && !single && i+1 < len(raw) && !within(holes, i+1):
			switch raw[i+1] {
			case '_':
				b.WriteByte(' ')
				removed(i)
				i++
				continue
			case 'c':
				end := b.Len()
				if double { // the quote env would close at the end
					b.WriteByte('"')
				}
				for k := range moved {
					moved[k].start, moved[k].end = min(moved[k].start, end), min(moved[k].end, end)
				}
				return b.String(), moved
			}
			b.WriteByte(c)
			b.WriteByte(raw[i+1])
			i++
			continue
		}
		b.WriteByte(c)
	}
	return b.String(), moved
}

// unwrapShell unwraps sh -c 'script' and its kin. A shell given no
// script and no file reads its script from standard input: it is
// reported itself (curl … | sh), and a here-document or here-string
// it is given is parsed as its script. A shell running a file is
// reported as it is: what the file holds is not known.
func unwrapShell(args []arg) unwrapped {
	sa := readShellArgs(args)
	sh := &codeInfo{lang: "sh"}
	switch {
	case sa.cmd && sa.next < len(args):
		s := script(args[sa.next])
		s.dynamic = s.dynamic || sa.unsure
		return unwrapped{self: sa.unsure, code: sh, scripts: append(sa.scripts, s)}
	case sa.cmd: // bash -c with no script fails, unless a wrapper adds one (xargs bash -c)
		sh.argScript = true
		return unwrapped{self: true, code: sh, scripts: sa.scripts}
	}
	fd := 0
	if sa.next < len(args) && !sa.stdin {
		n, ok := scriptFD(&args[sa.next])
		if !ok {
			// bash file runs a file we cannot see, unless it is <(…).
			sh.nodes = args[sa.next].substs
			return unwrapped{self: true, code: sh, scripts: sa.scripts}
		}
		fd = n // bash /dev/fd/3 3<<<'…': the here-string on 3 is the script
	}
	sh.stdin, sh.fd, sh.nodes = fd == 0, fd, sa.substs
	return unwrapped{self: true, stdin: true, fd: fd, code: sh, scripts: sa.scripts}
}

// unwrapSource reports source FILE and . FILE, which run a file in the
// current shell: the commands of a process substitution given as the
// file (source <(curl …)) are the code it runs. Sourcing standard input
// (source /dev/stdin) reads the script as bash -s does: from the pipe
// before it, or from the here-document or here-string it is given,
// which is parsed as its script.
func unwrapSource(args []arg) unwrapped {
	sh := &codeInfo{lang: "sh"}
	fd, read := 0, false
	if len(args) > 1 {
		sh.nodes = args[1].substs
		fd, read = scriptFD(&args[1])
		sh.stdin = read && fd == 0
		if read {
			sh.fd = fd
		}
	}
	return unwrapped{self: true, stdin: read, fd: fd, code: sh}
}

// unwrapAt reports at TIME and batch, which run a shell script later:
// the one -f names (a file, not seen), or the one they read from
// standard input (echo "rm -rf /" | at now: the output of echo runs as
// code; at now <<< 'rm -rf /': the here-string is the script). -l, -r,
// -d and -c list, remove or print jobs and run nothing.
func unwrapAt(args []arg) unwrapped {
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a.dynamic || len(a.text) < 2 || a.text[0] != '-' {
			continue // the time, or a word only known at run time
		}
		for j := 1; j < len(a.text); j++ {
			switch a.text[j] {
			case 'l', 'r', 'd', 'c':
				return unwrapped{}
			case 'f':
				return unwrapped{self: true, code: &codeInfo{lang: "sh"}}
			case 'q', 't':
				if j == len(a.text)-1 {
					i++ // the value is the next word
				}
				j = len(a.text)
			}
		}
	}
	return stdinShell()
}

// shellArgs is what a shell's options say it runs.
type shellArgs struct {
	cmd     bool          // -c: the first operand is the script
	stdin   bool          // -s: the script comes from standard input
	unsure  bool          // a dynamic word came among the options
	substs  []syntax.Node // the substitutions in those words (bash <(curl …))
	scripts []scriptText  // fish's -C and --command scripts
	next    int           // index of the first operand
}

// readShellArgs reads the options of sh, bash and their kin. A dynamic
// word before -c may be an option or a script file: the scan goes on,
// so that `bash $OPTS -c 'rm -rf /'` still shows rm, as dynamic.
func readShellArgs(args []arg) shellArgs {
	var sa shellArgs
	valued := "oO" // -o pipefail, -O extglob
	if args[0].base == "fish" {
		valued = "Cdo" // -C init-command, -d categories, -o file
	}
	i := 1
	for ; i < len(args); i++ {
		t := args[i].text
		switch {
		case args[i].dynamic && sa.cmd: // the script: bash -c "$X"
		case args[i].dynamic:
			sa.unsure = true
			sa.substs = append(sa.substs, args[i].substs...)
			continue
		case t == "--" || t == "-":
			i++
		case strings.HasPrefix(t, "--") && len(t) > 2:
			i = sa.longOption(args, i)
			continue
		case len(t) > 1 && (t[0] == '-' || t[0] == '+'):
			i = sa.shortOptions(args, i, valued)
			continue
		}
		break
	}
	sa.next = i
	return sa
}

// longOption reads --name[=value] at args[i] and returns the index of
// its last word.
func (sa *shellArgs) longOption(args []arg, i int) int {
	name, val, eq := strings.Cut(args[i].text[2:], "=")
	switch {
	case (name == "command" || name == "init-command") && eq: // fish
		sa.scripts = append(sa.scripts, script(staticArg(val)))
	case name == "command" || name == "init-command":
		if i++; i < len(args) {
			sa.scripts = append(sa.scripts, script(args[i]))
		}
	case (name == "rcfile" || name == "init-file") && !eq:
		i++
	}
	return i
}

// shortOptions reads a cluster such as -xec or +o at args[i] and returns
// the index of its last word, past the values its letters took.
func (sa *shellArgs) shortOptions(args []arg, i int, valued string) int {
	t := args[i].text
	for _, c := range t[1:] {
		switch {
		case c == 'c' && t[0] == '-':
			sa.cmd = true
		case c == 's' && t[0] == '-':
			sa.stdin = true
		case strings.ContainsRune(valued, c):
			if i++; c == 'C' && i < len(args) {
				sa.scripts = append(sa.scripts, script(args[i]))
			}
		}
	}
	return i
}

// unwrapBusybox unwraps busybox applet args….
func unwrapBusybox(args []arg) unwrapped {
	if len(args) < 2 || strings.HasPrefix(args[1].text, "-") {
		return unwrapped{}
	}
	return unwrapped{argvs: [][]arg{args[1:]}}
}

// unwrapCoreutils unwraps the single-binary coreutils' coreutils
// --coreutils-prog=PROGRAM args…, which runs PROGRAM.
func unwrapCoreutils(args []arg) unwrapped {
	if len(args) < 2 || !strings.HasPrefix(args[1].text, "--coreutils-prog=") {
		return unwrapped{}
	}
	prog := args[1]
	prog.text = strings.TrimPrefix(prog.text, "--coreutils-prog=")
	prog.raw = strings.TrimPrefix(prog.raw, "--coreutils-prog=")
	prog.base = baseName(prog.text)
	return unwrapped{argvs: [][]arg{append([]arg{prog}, args[2:]...)}}
}

// unwrapEval unwraps eval words…, which joins its words and runs them.
func unwrapEval(args []arg) unwrapped {
	args = args[1:]
	if len(args) > 0 && args[0].text == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return unwrapped{}
	}
	return unwrapped{scripts: []scriptText{join(args)}}
}

// unwrapTrap unwraps trap 'action' SIGNAL…: the action is a script.
func unwrapTrap(args []arg) unwrapped {
	args = args[1:]
	if len(args) > 0 && args[0].text == "--" {
		args = args[1:]
	}
	if len(args) < 2 || args[0].text == "-" || (!args[0].dynamic && args[0].text == "") {
		return unwrapped{}
	}
	return unwrapped{scripts: []scriptText{script(args[0])}}
}

var sshOpts = opts{value: "BbcDEeFIiJLlmOopQRSWw"}

// unwrapSSH unwraps ssh [options] destination [options] command…: the
// remote shell runs the words joined by spaces.
func unwrapSSH(args []arg) unwrapped {
	s := sshOpts.scan(args)
	if s.next < 0 {
		return unwrapped{}
	}
	rest := append([]arg{args[0]}, args[s.next+1:]...)
	if !s.dashdash {
		s = sshOpts.scan(rest) // OpenSSH reads options after the destination too
	} else {
		s = scan{next: 1}
	}
	if s.next < 0 || s.next >= len(rest) {
		return unwrapped{}
	}
	return unwrapped{scripts: []scriptText{join(rest[s.next:])}}
}

var watchOpts = opts{value: "nqs", optional: "d", long: []string{"interval", "equexit", "shotsdir"}}

// unwrapWatch unwraps watch [options] command…, which runs the words
// joined by spaces with sh -c, or directly with -x.
func unwrapWatch(args []arg) unwrapped {
	s := watchOpts.scan(args)
	if s.next < 0 {
		return unwrapped{}
	}
	if s.has("x", "exec") {
		return unwrapped{argvs: [][]arg{args[s.next:]}}
	}
	return unwrapped{scripts: []scriptText{join(args[s.next:])}}
}

var sudoOpts = opts{
	value: "aCcDgpRrTtUu", optional: "h",
	long:  []string{"auth-type", "close-from", "chdir", "group", "host", "prompt", "chroot", "role", "command-timeout", "type", "other-user", "user", "login-class"},
	flags: []string{"login"}, stop: "e", stopLong: []string{"edit"}, assigns: true,
}

// unwrapSudo unwraps sudo [options] command. sudo -i or -s with no
// command starts a login or a shell, which reads its script from
// standard input (curl … | sudo -i, sudo -s <<< '…').
func unwrapSudo(args []arg) unwrapped {
	s := sudoOpts.scan(args)
	if s.next < 0 && s.has("i", "s", "login", "shell") {
		return stdinShell()
	}
	// where the command starts: sudo -D DIR, or a login shell's home
	// (sudo -i starts in the target user's: ~root, or ~USER with -u USER)
	var dir *arg
	if v := s.values("D", "chdir"); len(v) > 0 {
		dir = &v[len(v)-1]
	} else if s.has("i", "login") {
		home := staticArg("~root")
		if u := s.values("u", "user"); len(u) > 0 {
			home = u[len(u)-1]
			home.text, home.raw = "~"+home.text, "~"+home.raw
		}
		dir = &home
	}
	var u unwrapped
	if dir != nil && s.next >= 0 && s.next < len(args) {
		u = inDirScript(*dir, args[s.next:])
	} else {
		u = plain(sudoOpts)(args)
	}
	// sudo -s and -i hand the command to a shell as one string, escaping
	// every character but letters, digits, _, - and $: a $ the outer shell
	// left alone is expanded there (sudo -i rm '-rf$IFS/usr' runs rm -rf
	// /usr), so such a command is read as that shell's line too
	if s.next >= 0 && s.has("i", "s", "login", "shell") &&
		slices.ContainsFunc(args[s.next:], func(a arg) bool { return !a.dynamic && strings.Contains(a.text, "$") }) {
		u.scripts = append(u.scripts, join(args[s.next:]))
	}
	return u
}

// inDirScript is command run in DIR, reported as cd DIR && command. A
// command with a word known only at run time is reported as it stands
// too: the shell that runs the launcher expanded that word before the
// launcher changed directory (env -C /tmp rm -rf "$PWD" removes the
// shell's directory, not /tmp), and a guard judging both sees what
// either may do.
func inDirScript(dir arg, command []arg) unwrapped {
	sb := new(scriptBuilder)
	sb.add("cd", nil, false)
	switch {
	case strings.HasPrefix(dir.text, "~") && !dir.dynamic:
		sb.add(dir.text, nil, false) // ~USER expands only unquoted
	case dir.dynamic:
		// a place known only at run time, whose substitutions ran in the
		// outer shell (env -C "$(mktemp -d)"): not code this cd runs
		sb.add(dir.text, []span{{0, len(dir.text)}}, false) // the cd's word is unknown, not the command's
	default:
		sb.quoted([]arg{dir})
	}
	sb.add("&&", nil, false)
	sb.quoted(command)
	u := unwrapped{scripts: []scriptText{sb.script()}}
	if slices.ContainsFunc(command, func(a arg) bool { return a.dynamic }) {
		u.argvs = [][]arg{command}
	}
	return u
}

// parallelValues are GNU parallel's options that take the next word as
// their value.
// (built on first use, as the package's other tables are).
var parallelValues = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"-j": true, "--jobs": true, "-P": true, "--max-procs": true, "-S": true,
		"--sshlogin": true, "-a": true, "--arg-file": true, "-d": true, "--delimiter": true, "-I": true, "-E": true,
		"--colsep": true, "-C": true, "--timeout": true, "--joblog": true, "--results": true, "-n": true,
		"--max-args": true, "-N": true, "-L": true, "--max-lines": true, "--tmpdir": true, "--workdir": true,
		"--wd": true, "--tagstring": true, "--retries": true, "--delay": true}
})

// unwrapParallel reads GNU parallel given no command and no arguments of
// its own (curl … | parallel): each line of its input is a command it
// runs, so it reads a script from standard input, as sh does. With a
// command or ::: arguments it is left to what the line's words show.
func unwrapParallel(args []arg) unwrapped {
	for i := 1; i < len(args); i++ {
		t := args[i].text
		switch {
		case args[i].dynamic || !strings.HasPrefix(t, "-") || t == "-":
			return unwrapped{} // a command, :::, or a word known only at run time
		case parallelValues()[t]:
			i++
		}
	}
	return stdinShell()
}

// stdinShell is what a shell that reads its script from standard input
// is: reported itself, its code from the pipe or the here-document.
func stdinShell() unwrapped {
	return unwrapped{self: true, stdin: true, code: &codeInfo{lang: "sh", stdin: true}}
}

var suOpts = opts{
	value: "cgGsw",
	long:  []string{"command", "session-command", "group", "supp-group", "shell", "whitelist-environment"},
	dash:  true,
}

// unwrapSu unwraps su [options] [user] -c 'script'. Options and
// operands may come in any order, as getopt_long permutes them. Without
// -c the user's shell reads its script from standard input (curl … |
// sudo su, su - <<< '…').
func unwrapSu(args []arg) unwrapped {
	var scripts []scriptText
	rest := args
	for {
		s := suOpts.scan(rest)
		for _, v := range s.values("c", "command", "session-command") {
			scripts = append(scripts, script(v))
		}
		if s.next < 0 || s.dashdash {
			break
		}
		rest = append([]arg{rest[0]}, rest[s.next+1:]...) // skip one operand
	}
	if len(scripts) == 0 { // no -c: the user's shell reads its script from standard input
		return stdinShell()
	}
	return unwrapped{scripts: scripts}
}

var runuserOpts = opts{value: "cgGsuw", long: suOpts.long}

// unwrapRunuser unwraps runuser -u user command… and, otherwise, the
// su-like runuser user -c 'script'.
func unwrapRunuser(args []arg) unwrapped {
	s := runuserOpts.scan(args)
	if !s.has("u") {
		return unwrapSu(args)
	}
	if s.next < 0 {
		return unwrapped{}
	}
	return unwrapped{argvs: [][]arg{args[s.next:]}}
}

// unwrapFind reports find itself (find / -delete is its own danger) and
// unwraps each -exec, -execdir, -ok and -okdir command up to its ; or
// {} +. Those commands are dynamic: {} stands for the files found.
func unwrapFind(args []arg) unwrapped {
	u := unwrapped{self: true, dynamic: true}
	for i := 1; i < len(args); i++ {
		switch args[i].text {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		j := i + 1
		for j < len(args) && !endsExec(args, j) {
			j++
		}
		if j > i+1 {
			u.argvs = append(u.argvs, args[i+1:j])
		}
		i = j
	}
	return u
}

// endsExec reports whether args[j] ends a find -exec command.
func endsExec(args []arg, j int) bool {
	a := args[j]
	return !a.dynamic && (a.text == ";" || (a.text == "+" && args[j-1].text == "{}"))
}
