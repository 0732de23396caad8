// Package shell is the shell module of the script stdlib: it parses a
// command line, with mvdan.cc/sh/v3 in bash mode, into the simple
// commands it would run, so that a guardrail holds against
// `cd / && sudo r\m -fr *` as well as against `rm -rf /`. Scripts load it
// with require("shell") in Lua and load("shell", "shell") in Starlark;
// Go code calls [Parse], [Split], [HasFlag] and [CodeCalls] directly. Nothing is run:
// the package reads text, touches no file and looks up no variable.
//
// # What parse reports
//
// parse(line) returns one map per simple command, in source order
// ([Command] in Go, [Command.Value] for the map):
//
//   - name: the base name of argv[0] ("rm" for /bin/rm).
//   - argv: the command and its arguments after quote removal ('r'm,
//     r\m, "rm" and $'\x72m' are all rm) and brace expansion (r{m,} is
//     rm r), with wrappers stripped. A word that cannot be resolved
//     statically appears as its source text, exactly as written: $HOME,
//     "$DIR"/, $(echo rm), *.go, ~/x.
//   - wrapped_by: the wrappers it runs under, outermost first:
//     `sudo env X=1 nice rm` gives ["sudo", "env", "nice"], `bash -c '…'`
//     gives "bash", `time rm` gives "time".
//   - redirects: a list of {op, fd, target}: ">" 1 "/etc/passwd", ">&" 2
//     "1". fd is the number written before the operator, else 0 for
//     input and 1 for output operators; -1 for {var}> forms. For << the
//     target is the here-document's body, for <<< the here-string. A
//     compound command's redirections are inherited by the commands in
//     it, after their own.
//   - pipeline, position: pipelines are numbered from 0 in the order their
//     first command is reported, a lone command being a pipeline of its
//     own; position is the 0-based element in the pipeline, so position
//     > 0 means "reads the output of the element before". `curl … | sh`
//     gives sh pipeline 0, position 1; `curl …; sh` gives it pipeline 1,
//     position 0. The commands directly inside a compound element of a
//     longer pipeline — `curl … | (cd /tmp; sh)`, `curl … | bash -c
//     'sh'` — take that element's slot; a pipeline nested inside one, or
//     inside $(…), gets a number of its own.
//   - dynamic: see below.
//   - paths: each word of argv read as a path, normalised ([PathInfo]):
//     /./usr/, /etc/../usr and //usr are /usr; "$HOME", ${HOME} and ~
//     are ~; /* is a glob whose prefix is /.
//   - roles: what the program does with each word of argv ([Roles]):
//     "name", "option", "value" (an option's value: rg --threads 2),
//     "pattern" (grep PAT, find -name PAT), "code" (a jq filter, a sed
//     script, an awk program), "data" (echo's words, git commit -m MSG,
//     everything after git --version), "subcommand" (git's), "command"
//     (find -exec's words) or "operand" (anything else: a file, a
//     name). A guard that looks for paths reads only operands.
//   - dir: the directory the command runs in as far as the line says,
//     relative to where it starts ("" there, "?" where it cannot tell):
//     a cd moves only the shell it runs in, never out of a subshell, a
//     pipeline element, a substitution or bash -c (see DirUnknown).
//   - alt_dirs: where else it runs when a cd before it fails and the
//     line goes on (cd /tmp/gone; rm -rf *).
//   - in_function, background: the shell function whose body holds the
//     command, and whether it runs with & (a fork bomb is a function
//     that runs itself in the background or a pipe).
//   - code_from: the names of the commands whose output it runs as
//     code — before it in a pipe to a shell or interpreter (curl … |
//     sh), in a process substitution it runs (bash <(curl …)), or in a
//     substitution in its script's text (sh -c "$(curl …)").
//   - lang, code, calls: for a shell or interpreter reported itself, the
//     language it runs, the code of a one-liner (python -c, perl -e,
//     node -e, …) and the calls in it that delete files or run commands
//     ([CodeCalls]).
//
// Commands are found through pipes, &&, ||, ;, &, !, subshells, { …; },
// if/while/for/case, function bodies (reported where they are defined),
// $(…), backticks, <(…) and >(…), ${X:-$(…)}, $((…)), [[ … ]] and
// (( … )), assignments (X=$(…), a=(… $(…))), declarations (export,
// declare, local, readonly, typeset, which are reported themselves,
// with NAME=value words), time and coproc, and the bodies of unquoted
// here-documents. A statement that runs no command but has
// redirections of its own (`> file`, `X=1 2> log`) is reported as the
// command ":" with them, which is what it does: it still creates or
// truncates the file. Substitutions are reported after the command whose
// words hold them, those in assignments before it.
//
// # Dynamic commands: guards must check them
//
// A command is dynamic when its run-time argv cannot be known from the
// text: a word of argv or a file redirection target holds a variable
// ($X, ${X}), a command, process or arithmetic substitution, a glob (*,
// ?, [...], extended globs), or a tilde (~, ~user, PREFIX=~/x); a brace
// expansion too wide to list (more than 256 words) counts too. Commands
// under xargs and find -exec are always dynamic, since their arguments
// come at run time, and so is every command of a nested script whose
// text is itself dynamic (bash -c "rm $X").
//
// A guard that looks only at argv is blind to dynamic commands:
// `rm -rf $TARGET` and `$(echo rm) -rf /` say nothing about what they
// delete or run. Check dynamic too, and ask or deny when it is set:
//
//	for _, cmd in ipairs(shell.parse(params.command)) do
//	  if cmd.name == "rm" and shell.has_flag(cmd, "r", "recursive") then
//	    if cmd.dynamic then return hook.ask("recursive rm of " .. table.concat(cmd.argv, " ")) end
//	  end
//	end
//
// # Wrappers
//
// These are unwrapped, with tables of which of their options take a
// value (`nice -n 5`, `timeout -s KILL 5`, `sudo -u root --`, `xargs
// -I{}`), GNU-style clustering and abbreviated long options (sudo --us
// root): sudo (and NAME=value before the command), doas, env (-u, -C,
// NAME=value, and env -S 'cmd args', split like a script), nice (also
// nice -5), nohup, time (GNU /usr/bin/time; the bash keyword too),
// timeout DURATION, xargs, command (but not command -v or -V, which run
// nothing), builtin, exec, setsid, stdbuf, ionice (but not ionice -p),
// chroot NEWROOT, taskset MASK (but not -p), busybox APPLET and coreutils
// --coreutils-prog=PROGRAM. A command run by a name the line gave a
// program (hash -p, BASH_CMDS, a copy or link run by its new name) is
// reported as written and as that program (renamed.go). env -C
// DIR command and chroot NEWROOT command are read as cd DIR && command
// (the cd reported too), so that the command's relative paths are DIR's;
// so are unshare's and nsenter's --wd and --root, systemd-run's
// --working-directory (/ by default, ~ with --user), sudo -D and sudo
// -i's home (~root, or ~USER with -u).
//
// These run shell source, which is parsed in turn (at most
// [MaxScriptDepth] scripts deep) and reported wrapped by them: sh -c
// and its kin (bash, dash, zsh, ksh, mksh, ash, fish, …, with their
// options: bash -lc, sh -xec, bash -o pipefail -c), eval, trap
// 'action' SIG, su -c / runuser -c, runuser -u USER cmd, watch (the
// words joined, as watch gives them to sh -c; watch -x runs them
// directly), and ssh HOST cmd… (the words joined, as the remote shell
// gets them; wrapped_by holds "ssh", so a guard can tell the command
// runs elsewhere). A shell that reads its script from standard input
// (`sh`, `bash -s`) is reported itself, and the here-document or
// here-string it is given is parsed as its script. A shell running a
// script file (`bash deploy.sh`) is reported as it is. find is
// reported itself (find / -delete) and each of its -exec, -execdir,
// -ok and -okdir commands as a dynamic command wrapped by "find".
//
// A dynamic word where a wrapper's option or command would be ends the
// unwrapping: `sudo $CMD -rf /` is reported as the dynamic command
// "$CMD" wrapped by sudo (and so is `sudo $FLAGS rm -rf /`, as
// "$FLAGS"). A shell's options are scanned on past one, so that
// `bash $OPTS -c 'rm -rf /'` reports both bash and rm, dynamic. More
// than 16 wrappers around one command are an error, not a command
// named after the 17th.
//
// Interpreters (python, perl, ruby, node, bun, deno, php, lua, with
// versioned names) are reported themselves, with the code they are
// given on the command line or in a here-document, and the calls in it
// that delete or run commands; the command lines of os.system, system,
// backticks, execSync and their kin are parsed as scripts, and the
// argvs of subprocess.run([…]), spawn(…) and os.exec* run as commands,
// both wrapped by the interpreter. source and . are reported with lang
// "sh"; sourcing standard input (source /dev/stdin, . /dev/fd/0) reads
// its script as bash -s does, so a here-document or here-string it is
// given is parsed as its script and a pipe into it gives code_from.
//
// Not unwrapped, and reported as the commands they are: code in other
// languages (awk 'BEGIN{system(…)}'), flock, parallel, script -c, strace, ltrace, gdb,
// nsenter, systemd-run, make, git aliases and git -c, docker/kubectl/
// podman exec, tmux send-keys, screen, at, batch and crontab (which
// read their script from standard input), source and . (a file), and
// sudo -e (edits files). A shell reading a pipe (`echo … | base64 -d |
// sh`) is reported at position > 0, but what it reads is not known.
// Aliases and functions defined outside the line are not known either.
//
// # has_flag, split and code_calls
//
// has_flag(cmd, short, long) reports whether a parsed command (or an
// argv list) passes a flag, the GNU way: case-sensitive; combined
// short flags (-rf, -fr); long options with or without =value and
// abbreviated to any prefix (--rec, even --r, for --recursive: the
// program's option table is not known, so every prefix counts, as an
// unambiguous one does for getopt_long, and an ambiguous one makes the
// program refuse to run); flags after operands (rm / -rf); nothing
// after --. It sees the words as written, so a flag made at run time
// ($(echo -rf)) is not seen: check dynamic. Programs whose long options
// take one dash (find -delete) need argv checks instead.
//
// split(line) returns the shell words of line after quote removal,
// without any expansion; an operator (|, ;, &&, >, …) is an error.
//
// code_calls(lang, code) returns the calls in a Python, Perl, Ruby,
// Node, PHP or Lua program that delete files or run commands ([Call]):
// what parse reports in calls for a one-liner, for code that reaches a
// hook some other way. It scans strings, comments and call syntax per
// language; code built at run time is not seen.
//
// # Limits and errors
//
// A line longer than [MaxLineBytes] (16 KiB), nesting deeper than
// [MaxNesting] (checked by a scan before parsing: mvdan.cc/sh recurses
// per level, and a deep enough input overflows the Go stack beyond what
// recover can catch), with scripts nested deeper than
// [MaxScriptDepth], running more than [MaxCommands] commands, or that
// does not parse (including a nested script that does not) is an
// error, never a partial result and never a crash. Errors are plain
// ("1:6: reached EOF without closing quote `\"`", "bash script: …");
// the binder prefixes them with "shell.parse: ". They wrap
// [ErrTooLong], [ErrTooDeep] and [ErrTooMany] where those apply. Parse
// also stops when its context is done. The limits bound the work one
// check may do, since a guard runs before every tool call; a long
// here-document can pass 16 KiB, so the module exports max_line_bytes
// for a guard to ask about such a line rather than refuse it.
//
// salvage(line) ([Salvage]) examines a line that does not parse whole
// for what can be known: the commands of its lines, and of the parts
// between unquoted ;, && and || of a line, that parse, and the parts
// that do not. A guard denies what those commands would do and asks
// about the rest.
//
// # Concurrency
//
// The module holds no state. Each Parse and Split call makes its own
// mvdan.cc/sh parser, which is not safe to share, so all functions are
// safe for concurrent use. See ExampleParse.
package shell
