package tool

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/hookhost/hookhost/stdlib"
)

// commandKeys are the keys agents put a shell call's command under:
// command (Claude Code, Codex, Gemini CLI, PicoClaw, OpenClaw, Cursor,
// Copilot CLI), cmd (Codex's exec_command, bub), script, and the text
// typed into a session a shell call started: chars (Codex's
// write_stdin) and input (Copilot CLI's write_bash, whose keys are
// spelled {enter}, {backspace}, …). What is typed into a running shell
// runs as a line of its own; typed into another program, it is read as
// one all the same, since the guard cannot see which program it is.
var commandKeys = []string{"command", "cmd", "script", "chars", "input"}

// MaxParamsText is the longest params given as JSON text that command
// and paths decode; longer text is taken as no params. (An agent's hook
// input is smaller: the adapters refuse more.)
const MaxParamsText = 4 << 20

// dirKeys are the keys agents put the directory a shell call runs in
// under: workdir (Codex's shell and exec_command, OpenClaw's exec),
// working_directory (Codex's local_shell), dir_path (Gemini CLI's
// run_shell_command; directory in its older versions) and cwd (Cursor's
// Shell tool).
var dirKeys = []string{"workdir", "working_directory", "dir_path", "directory", "cwd"}

// dir returns the directory a shell call's params say it runs in, as
// given (relative to the payload's cwd when not absolute), or nil.
func dir(c *stdlib.Call) (any, error) {
	p := decodeParams(c.Any(0))
	for _, k := range dirKeys {
		if s, ok := p[k].(string); ok && s != "" {
			return s, nil
		}
	}
	return nil, nil
}

func command(c *stdlib.Call) (any, error) {
	line, err := commandOf(c.Any(0))
	if err != nil || line == "" {
		return nil, err
	}
	return line, nil
}

// decodeParams returns params as a map: a map as it is, JSON text
// holding an object decoded (Copilot CLI's toolArgs are the model's JSON
// text), anything else nil.
func decodeParams(params any) map[string]any {
	switch p := params.(type) {
	case map[string]any:
		return p
	case string:
		s := strings.TrimSpace(p)
		if !strings.HasPrefix(s, "{") || len(s) > MaxParamsText {
			return nil
		}
		return decodeObject(s)
	}
	return nil
}

// commandOf returns the shell line of a shell call's params, or "" when
// they hold none. gptme's bridge sends {content, args, kwargs}: the
// line is the content (or kwargs.command). A patch envelope under
// command is apply_patch's body (Codex), not a shell line.
func commandOf(params any) (string, error) {
	p := decodeParams(params)
	if p == nil {
		return "", nil
	}
	for _, k := range commandKeys {
		v, ok := p[k]
		if !ok || v == nil {
			continue
		}
		line, err := lineOf(k, v)
		if k == "input" {
			line = typedKeys(line)
		}
		if err != nil || line != "" {
			if isPatchBody(line) {
				return "", nil
			}
			return line, err
		}
	}
	if kw, ok := p["kwargs"].(map[string]any); ok {
		if line, err := commandOf(kw); err != nil || line != "" {
			return line, err
		}
	}
	if content, ok := p["content"].(string); ok && isGptmeShape(p) {
		return content, nil
	}
	return "", nil
}

// typedKeys turns write_bash's keys into the text they type: {enter} a
// line's end, {backspace} the character before it taken away; the
// cursor keys ({up}, {down}, {left}, {right}) move in what the session
// shows, which the guard cannot see, and are dropped.
func typedKeys(s string) string {
	if !strings.Contains(s, "{") {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		end := -1
		if s[i] == '{' {
			end = strings.IndexByte(s[i:], '}')
		}
		if end < 0 {
			b = append(b, s[i])
			continue
		}
		switch key := s[i : i+end+1]; key {
		case "{enter}":
			b = append(b, '\n')
		case "{backspace}":
			if len(b) > 0 {
				b = b[:len(b)-1]
			}
		case "{up}", "{down}", "{left}", "{right}":
		default:
			b = append(b, key...) // a brace of the text's own (echo {a,b})
		}
		i += end
	}
	return string(b)
}

// isGptmeShape reports whether p is what the gptme bridge sends.
func isGptmeShape(p map[string]any) bool {
	_, hasArgs := p["args"]
	_, hasKwargs := p["kwargs"]
	return hasArgs || hasKwargs
}

// lineOf turns the value of a command key into a shell line: a string
// as it is, an argv list unwrapped or quoted.
func lineOf(key string, v any) (string, error) {
	switch v := v.(type) {
	case string:
		return v, nil
	case []any:
		argv := make([]string, len(v))
		for i, w := range v {
			switch w := w.(type) {
			case string:
				argv[i] = w
			case int64:
				argv[i] = strconv.FormatInt(w, 10)
			case float64:
				argv[i] = strconv.FormatFloat(w, 'f', -1, 64)
			default:
				return "", fmt.Errorf("argument 1 (params): %s[%d]: want a string, got %s", key, i+1, stdlib.TypeName(w))
			}
		}
		return argvLine(argv), nil
	case map[string]any:
		if len(v) == 0 {
			return "", nil // an empty Lua table
		}
	}
	return "", fmt.Errorf("argument 1 (params): %s: want a string or a list of strings, got %s", key, stdlib.TypeName(v))
}

// posixShells are the shells whose -c script is a POSIX shell line.
var posixShells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true, "ash": true}

// argvLine returns the shell line an argv list runs. ["bash", "-lc",
// LINE] (Codex's shell tool) is LINE itself: a shell given only a script
// and options that end in c. Any other list is its words, quoted where
// a shell would otherwise read them differently.
func argvLine(argv []string) string {
	if script, ok := unwrapShell(argv); ok {
		return script
	}
	words := make([]string, len(argv))
	for i, w := range argv {
		words[i] = quote(w, i == 0)
	}
	return strings.Join(words, " ")
}

// unwrapShell returns the script of [shell, options…, -c, script] when
// nothing follows the script (operands after it would be its $0, $1, …,
// which the unwrapped line would lose).
func unwrapShell(argv []string) (string, bool) {
	if len(argv) < 3 || !posixShells[path.Base(argv[0])] {
		return "", false
	}
	sawC := false
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case sawC:
			return a, i == len(argv)-1
		case a == "--login" || a == "--noprofile" || a == "--norc":
		case len(a) >= 2 && a[0] == '-' && strings.Trim(a[1:], "lciexuv") == "":
			sawC = strings.Contains(a, "c")
		default:
			return "", false
		}
	}
	return "", false
}

// quote returns w as one shell word: as it is when every byte of it is
// plain, else in single quotes. A first word holding = is quoted, or the
// shell would take it for an assignment.
func quote(w string, first bool) string {
	if w != "" && plain(w) && !(first && strings.Contains(w, "=")) {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

func plain(w string) bool {
	for i := 0; i < len(w); i++ {
		b := w[i]
		switch {
		case b >= 'a' && b <= 'z', b >= 'A' && b <= 'Z', b >= '0' && b <= '9':
		case strings.IndexByte("_@%+=:,./-", b) >= 0:
		default:
			return false
		}
	}
	return true
}

// decodeObject decodes JSON text holding one object, as an event's
// payload is decoded, or returns nil.
func decodeObject(s string) map[string]any {
	m, err := stdlib.DecodeObject([]byte(s))
	if err != nil {
		return nil // not JSON, not an object, or text after it
	}
	return m
}
