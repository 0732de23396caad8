package shell

import (
	"strings"
	"sync"
)

// This file reads the Windows shells a line starts: PowerShell
// (powershell, pwsh, and Start-Process, which starts a program) and
// cmd.exe. The line either is given to run is read as PowerShell (see
// PowerShell), whatever shell runs the line around it: pwsh -c
// "Remove-Item -Recurse C:\Users" from bash runs Remove-Item on
// C:/Users. Their names are matched in any case (PowerShell.exe).

// windowsShellKinds are the programs that start PowerShell or cmd.exe,
// by their names lower-cased, and which of the two each starts: what
// scripts see as shell.windows_shells.
func windowsShellKinds() map[string]string {
	return map[string]string{"powershell": "powershell", "pwsh": "powershell", "powershell.exe": "powershell",
		"pwsh.exe": "powershell", "cmd": "cmd", "cmd.exe": "cmd"}
}

// windowsShells are the unwrappers of the programs that start
// PowerShell or cmd.exe, or a program from PowerShell (Start-Process),
// by their names lower-cased. It and psValueOptions are built on first
// use, not at init, as the package's other tables are.
var windowsShells = sync.OnceValue(func() map[string]unwrapFunc {
	m := map[string]unwrapFunc{"start-process": unwrapStartProcess, "saps": unwrapStartProcess}
	for name, kind := range windowsShellKinds() {
		m[name] = unwrapPowerShellHost
		if kind == "cmd" {
			m[name] = unwrapCmd
		}
	}
	return m
})

// windowsShellConst is shell.windows_shells: windowsShellKinds as a
// neutral map.
func windowsShellConst() map[string]any {
	out := map[string]any{}
	for name, kind := range windowsShellKinds() {
		out[name] = kind
	}
	return out
}

// psValueOptions are PowerShell's options that take a value.
var psValueOptions = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"-executionpolicy": true, "-ex": true, "-ep": true, "-windowstyle": true,
		"-w": true, "-workingdirectory": true, "-wd": true, "-configurationname": true, "-outputformat": true,
		"-of": true, "-inputformat": true, "-if": true, "-version": true, "-v": true, "-psconsolefile": true,
		"-settingsfile": true, "-custompipename": true}
})

// unwrapPowerShellHost reads powershell [options] -Command CODE (or
// CODE after the options): CODE is parsed as PowerShell. -Command -
// and no command at all read the script from standard input; -File and
// -EncodedCommand run what the line does not show, and PowerShell is
// reported itself.
func unwrapPowerShellHost(args []arg) unwrapped {
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a.dynamic {
			return unwrapped{self: true} // an option known only at run time
		}
		low := strings.ToLower(a.text)
		switch {
		case low == "-encodedcommand" || low == "-enc" || low == "-e" || low == "-ec",
			low == "-file" || low == "-f":
			return unwrapped{self: true}
		case low == "-c" || (len(low) >= 4 && strings.HasPrefix("-command", low)):
			return powerShellScript(args[i+1:])
		case psValueOptions()[low]:
			i++
		case strings.HasPrefix(low, "-"): // a switch: -NoProfile, -NonInteractive
		default:
			return powerShellScript(args[i:]) // powershell CODE
		}
	}
	return unwrapped{self: true, stdin: true, code: &codeInfo{lang: "powershell", stdin: true}}
}

// powerShellScript is what PowerShell given the words of CODE runs.
func powerShellScript(words []arg) unwrapped {
	if len(words) == 1 && words[0].text == "-" {
		return unwrapped{self: true, stdin: true, code: &codeInfo{lang: "powershell", stdin: true}}
	}
	texts := make([]string, 0, len(words))
	for _, w := range words {
		if expands(w) {
			return unwrapped{self: true} // code built at run time
		}
		texts = append(texts, w.raw) // a glob or a ~ is the line's own to expand
	}
	if len(texts) == 0 {
		return unwrapped{self: true}
	}
	return unwrapped{scripts: []scriptText{{text: PowerShell(strings.Join(texts, " "))}}}
}

// unwrapCmd reads cmd [switches] /c LINE (or /k, /r): LINE, whose
// %VARIABLES% are the environment's, is read as PowerShell reads a
// line (its paths, pipes and redirections are the same), with cmd.exe's
// switches (rd /s /q) left as they are. cmd.exe given no line is
// reported itself.
func unwrapCmd(args []arg) unwrapped {
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a.dynamic {
			return unwrapped{self: true}
		}
		switch strings.ToLower(a.text) {
		case "/c", "/k", "/r":
			texts := make([]string, 0, len(args)-i-1)
			for _, w := range args[i+1:] {
				if expands(w) {
					return unwrapped{self: true} // a line built at run time
				}
				t := w.raw // cmd.exe expands no glob
				if len(args) > i+2 && strings.ContainsAny(t, " \t") {
					// one of several words: cmd.exe gets its line as text,
					// quoted where PowerShell or a shell quoted it (a single
					// word is the whole line: cmd /c "rd /s x")
					t = `"` + t + `"`
				}
				texts = append(texts, t)
			}
			if len(texts) == 0 {
				return unwrapped{self: true}
			}
			return unwrapped{scripts: []scriptText{{text: PowerShell(cmdVariables(strings.Join(texts, " ")))}}}
		}
	}
	return unwrapped{self: true}
}

// cmdVariables writes cmd.exe's %NAME% as PowerShell's $env:NAME.
func cmdVariables(line string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(line, '%')
		if i < 0 {
			break
		}
		j := strings.IndexByte(line[i+1:], '%')
		name := ""
		if j > 0 {
			name = line[i+1 : i+1+j]
		}
		if name == "" || strings.ContainsAny(name, " \t/\\\"'") {
			b.WriteString(line[:i+1])
			line = line[i+1:]
			continue
		}
		b.WriteString(line[:i])
		b.WriteString("${env:" + name + "}")
		line = line[i+2+j:]
	}
	b.WriteString(line)
	return b.String()
}

// expands reports whether a word holds a variable or a substitution,
// which the shell around replaces before PowerShell or cmd.exe sees the
// line; a glob or a ~ is passed on as written (the line's own to
// expand).
func expands(a arg) bool {
	for _, h := range a.holes {
		if strings.ContainsAny(a.raw[h.start:h.end], "$`") {
			return true
		}
	}
	return false
}

// unwrapStartProcess reads PowerShell's Start-Process FILE [-ArgumentList
// A,B]: it runs FILE with those arguments (a list, or one string of
// them), which are read as the words of a command (Start-Process pwsh
// -ArgumentList '-c','Remove-Item …' runs pwsh -c). Start-Process itself
// is reported too: what it starts runs apart from the line.
func unwrapStartProcess(args []arg) unwrapped {
	var file *arg
	var list []arg
	for i := 1; i < len(args); i++ {
		a := args[i]
		low := strings.ToLower(a.text)
		switch {
		case expands(a):
			return unwrapped{self: true} // a word known only at run time
		case low == "-filepath" || low == "-path":
			if i+1 < len(args) {
				file = &args[i+1]
				i++
			}
		case low == "-argumentlist" || low == "-args" || low == "-a":
			if i+1 < len(args) {
				for _, part := range strings.Split(args[i+1].raw, ",") {
					for _, w := range strings.Fields(part) {
						list = append(list, staticArg(w))
					}
				}
				i++
			}
		case strings.HasPrefix(low, "-"):
			if psStartValueOptions()[low] {
				i++
			}
		case file == nil:
			file = &args[i]
		}
	}
	if file == nil || expands(*file) {
		return unwrapped{self: true}
	}
	argv := append([]arg{staticArg(file.raw)}, list...)
	return unwrapped{self: true, argvs: [][]arg{argv}}
}

// psStartValueOptions are Start-Process's options that take a value.
var psStartValueOptions = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"-verb": true, "-workingdirectory": true, "-windowstyle": true,
		"-credential": true, "-redirectstandardoutput": true, "-redirectstandarderror": true,
		"-redirectstandardinput": true, "-environment": true}
})
