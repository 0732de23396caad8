package shell

import (
	"slices"
	"strings"
)

// This file reads the package managers' runners, which run a program
// from a package (or any on PATH) with its arguments, or a shell line:
// npx, pnpx and bunx, and the subcommands npm exec (npm x), npm
// explore, pnpm exec and dlx, yarn exec and dlx, bun x and bun exec.
// npm, pnpm, yarn and bun are otherwise commands themselves (npm
// install), their words not commands.

// npxOpts are npx's (and npm exec's) options: -p/--package name the
// packages to install, -c/--call a shell line to run instead of a
// command.
var npxOpts = opts{value: "pcw", long: []string{"package", "call", "workspace", "node-options", "registry",
	"cache", "userconfig", "prefix", "loglevel", "script-shell"}}

// unwrapNpx reads npx [options] COMMAND ARGS… and npx -c 'LINE'.
func unwrapNpx(args []arg) unwrapped {
	s := npxOpts.scan(args)
	var u unwrapped
	for _, o := range s.options {
		if (o.name == "c" || o.name == "call") && o.value != nil {
			u.scripts = append(u.scripts, script(*o.value))
		}
	}
	if s.next >= 0 && s.next < len(args) {
		argv := slices.Clone(args[s.next:])
		argv[0] = packageProgram(argv[0])
		u.argvs = [][]arg{argv}
	}
	return u
}

// packageProgram is the program a runner runs for a package named with
// its version (aws-cdk@2, @scope/tool@1.2.0): the package's name, whose
// last element names its program.
func packageProgram(a arg) arg {
	if a.dynamic {
		return a
	}
	if at := strings.LastIndexByte(a.text, '@'); at > 0 {
		return staticArg(a.text[:at])
	}
	return a
}

// pmValueOptions are the package managers' options before their
// subcommand that take a value as the next word.
var pmValueOptions = map[string]bool{"--prefix": true, "-C": true, "--dir": true, "-w": true, "--workspace": true,
	"--filter": true, "-F": true, "--cwd": true, "--registry": true, "--userconfig": true, "--cache": true}

// unwrapPackageManager reads the runner subcommands of npm, pnpm, yarn
// and bun; any other subcommand is the command itself.
func unwrapPackageManager(args []arg) unwrapped {
	i := 1
	for i < len(args) && !args[i].dynamic && strings.HasPrefix(args[i].text, "-") {
		if pmValueOptions[args[i].text] {
			i++
		}
		i++
	}
	if i >= len(args) || args[i].dynamic {
		return otherwise(args)
	}
	pm, sub, rest := args[0].base, args[i].text, args[i:] // rest[0] is the subcommand, in npx's place
	switch {
	case pm == "npm" && (sub == "exec" || sub == "x"), pm == "bun" && sub == "x",
		(pm == "pnpm" || pm == "yarn") && sub == "dlx":
		return unwrapNpx(rest)
	case (pm == "pnpm" || pm == "yarn") && sub == "exec":
		return unwrapPnpmExec(rest)
	case pm == "bun" && sub == "exec" && len(rest) > 1:
		return unwrapped{scripts: []scriptText{script(rest[1])}} // bun exec 'LINE': Bun's shell runs it
	case pm == "npm" && sub == "explore":
		// npm explore PKG -- CMD ARGS…: the words after -- joined, run by
		// the shell in the package's directory
		for j := 2; j < len(rest); j++ {
			if rest[j].text == "--" && !rest[j].dynamic {
				if j+1 < len(rest) {
					return unwrapped{scripts: []scriptText{join(rest[j+1:])}}
				}
				break
			}
		}
		return unwrapped{self: true, code: &codeInfo{lang: "sh"}} // an interactive shell
	case pm == "yarn" && !yarnCommands[sub]:
		// yarn NAME runs the package's script NAME, or else the program
		// NAME installed: both reported (yarn rimraf dist)
		return unwrapped{self: true, argvs: [][]arg{rest}}
	}
	return otherwise(args)
}

// yarnCommands are yarn's own commands (classic and berry); any other
// first word is a script or an installed program yarn runs.
var yarnCommands = map[string]bool{"add": true, "audit": true, "autoclean": true, "bin": true, "cache": true,
	"check": true, "config": true, "constraints": true, "create": true, "dedupe": true, "dlx": true, "exec": true,
	"explain": true, "generate-lock-entry": true, "global": true, "help": true, "import": true, "info": true,
	"init": true, "install": true, "licenses": true, "link": true, "list": true, "login": true, "logout": true,
	"node": true, "npm": true, "outdated": true, "owner": true, "pack": true, "patch": true, "patch-commit": true,
	"plugin": true, "policies": true, "publish": true, "rebuild": true, "remove": true, "run": true, "search": true,
	"set": true, "stage": true, "tag": true, "team": true, "unlink": true, "unplug": true, "up": true,
	"upgrade": true, "upgrade-interactive": true, "version": true, "versions": true, "why": true,
	"workspace": true, "workspaces": true}

// otherwise is what a package manager's command line is when it runs no
// runner: bun is also a JavaScript interpreter (bun -e CODE, bun x.js),
// the others are commands themselves.
func otherwise(args []arg) unwrapped {
	if lang := interpLang(args[0].base); lang != "" {
		return interps()[lang](args)
	}
	return unwrapped{}
}

// unwrapPnpmExec reads pnpm exec [options] COMMAND ARGS…; with -c
// (--shell-mode) the words are a shell line.
func unwrapPnpmExec(args []arg) unwrapped {
	shellMode := false
	i := 1
	for i < len(args) && !args[i].dynamic && strings.HasPrefix(args[i].text, "-") && args[i].text != "--" {
		switch args[i].text {
		case "-c", "--shell-mode":
			shellMode = true
		case "--filter", "-F", "--workspace", "-w", "--dir", "-C":
			i++
		}
		i++
	}
	if i < len(args) && args[i].text == "--" && !args[i].dynamic {
		i++
	}
	if i >= len(args) {
		return unwrapped{}
	}
	if shellMode {
		return unwrapped{scripts: []scriptText{join(args[i:])}}
	}
	return unwrapped{argvs: [][]arg{args[i:]}}
}

// unwrapCmake reads cmake -E's file removal commands as the rm they
// are: cmake -E rm [-rRf] [--] PATHS, remove [-f] FILES and
// remove_directory DIRS (rm -r). Any other use of cmake is cmake
// itself.
func unwrapCmake(args []arg) unwrapped {
	if len(args) < 4 || args[1].dynamic || args[1].text != "-E" || args[2].dynamic {
		return unwrapped{}
	}
	rm := []arg{staticArg("rm")}
	switch args[2].text {
	case "rm", "remove":
	case "remove_directory":
		rm = append(rm, staticArg("-r"))
	default:
		return unwrapped{}
	}
	return unwrapped{argvs: [][]arg{append(rm, args[3:]...)}}
}
