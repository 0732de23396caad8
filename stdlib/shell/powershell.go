package shell

import (
	"bytes"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"github.com/hookhost/hookhost/stdlib"
)

// PowerShell rewrites a PowerShell line as the POSIX shell line that runs
// the same commands on the same paths, as far as a guard needs to see
// them, for Parse to read. PowerShell and a POSIX shell agree on words,
// quotes, pipes, ; and $(…); where they differ:
//
//   - the backslash separates path elements (C:\Windows): it becomes a
//     slash, and the backtick, PowerShell's escape, becomes the backslash
//     (a backtick at the end of a line continues it);
//   - $env:NAME and ${env:NAME} are the environment: $NAME, or, for the
//     variables that name a Windows place, its default value
//     ($env:USERPROFILE is ~, $env:SystemRoot C:/Windows); $null is
//     /dev/null (> $null);
//   - curly quotes quote, and an en or em dash starts a parameter; the
//     file system provider's name before a path is dropped
//     (FileSystem::C:\Users is C:\Users);
//   - a statement that assigns ($x = Remove-Item …, $x += …) runs its
//     right side, which is kept; one that starts with a variable
//     ($r.count, $x | …) evaluates it, and is given to : so that the
//     variable is not taken for a program; & (the call operator) is
//     dropped, so & $tool runs the program $tool names;
//   - a parenthesised expression or @(…) is a subexpression, $(…), and
//     so is a script block { … }, whose statements run where it stands
//     (ForEach-Object { Remove-Item $_ }, if (…) { … }); a statement
//     that is an expression ((Get-Item x).Length, 'text' | Out-File f)
//     is given to :;
//   - Set-Location (sl, chdir), Push-Location and Pop-Location are cd,
//     pushd and popd;
//   - if, elseif, while, foreach, for and switch are followed by their
//     condition, which they run: the keyword becomes :;
//   - the dots (and, before a closing quote, the spaces) that end a name
//     are dropped, as Windows drops them: settings.json. is
//     settings.json (windowsNames); a path through a device prefix, the
//     local machine's administrative share or to a default data stream
//     is the file it opens (\\?\C:\x, \\localhost\C$\x and x::$DATA are
//     C:/x and x: devicePaths).
//
// What it cannot express stays as written and may not parse, which a
// guard treats as a line it could not check.
func PowerShell(line string) string {
	t := psTranslator{in: withoutProvider(psTypography.Replace(line))}
	t.run()
	return windowsNames(devicePaths(t.out.String()))
}

// deviceWord finds a word that reaches a file through a device or NT
// prefix (\\?\C:\x), the local machine's administrative share
// (\\localhost\C$\x) or a default data stream (x::$DATA): devicePaths
// spells each as stdlib.WindowsPath reads it (C:/x, x), which is the file it opens.
var deviceWord = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[^\s'"();|&,={}]*(?://[?.]/|/\?\?/|//(?i:localhost|127\.0\.0\.1)/|(?i:::?\$(?:data|index_allocation)))[^\s'"();|&,={}]*`)
})

func devicePaths(line string) string {
	if !strings.Contains(line, "//") && !strings.Contains(line, "/??/") && !strings.Contains(line, ":$") {
		return line
	}
	return deviceWord().ReplaceAllStringFunc(line, stdlib.WindowsPath)
}

// windowsNames drops the dots and spaces that end a name, which Windows
// drops too: settings.json. and "C:\Windows \x" name settings.json and
// C:\Windows\x. A name here is what lies between the separators of the
// translated line: a slash, a quote, and, outside quotes, white space
// and the shell's operators. Spaces end a name only where a quote
// closes after them (outside quotes they end the word, and inside, a
// line for cmd /c has its words). A name of dots alone (., ..), a glob
// (*. is a filter of its own) and a variable keep theirs.
func windowsNames(line string) string {
	if !strings.ContainsAny(line, ". ") {
		return line
	}
	out := make([]byte, 0, len(line))
	start := 0 // where the current name starts in out
	var quote byte
	// end ends a name; closing says a quote closes after it, the one
	// place where spaces end a name rather than separate words
	// ("C:\Windows " but "del /q x": cmd's words in a quoted line)
	end := func(closing bool) {
		n := len(out)
		for n > start && (out[n-1] == '.' || out[n-1] == ' ' && closing) {
			n--
		}
		if n == len(out) || out[start] == '$' || bytes.ContainsAny(out[start:], "*?") ||
			len(bytes.Trim(out[start:n], ". ")) == 0 || out[n-1] == ':' { // C:.. is drive C's parent
			return
		}
		out = out[:n]
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote == '"' && c == '\\' && i+1 < len(line): // an escaped character, part of the name
			out = append(out, c, line[i+1])
			i++
			continue
		case quote != 0 && c == quote, quote == 0 && (c == '"' || c == '\''):
			end(quote != 0)
			if quote == 0 {
				quote = c
			} else {
				quote = 0
			}
		case c == '/', quote == 0 && strings.IndexByte(" \t\n;|&(),={}", c) >= 0:
			end(false)
		default:
			out = append(out, c)
			continue
		}
		out = append(out, c)
		start = len(out)
	}
	if quote != 0 {
		return line // a quote left open: the line does not parse, and is reported as it is
	}
	end(false)
	return string(out)
}

// psTypography maps what PowerShell reads as ASCII to it: curly quotes
// quote, and an en or em dash starts a parameter (–Recurse).
var psTypography = strings.NewReplacer("\u2018", "'", "\u2019", "'", "\u201a", "'", "\u201b", "'",
	"\u201c", `"`, "\u201d", `"`, "\u201e", `"`, "\u2013", "-", "\u2014", "-", "\u2015", "-")

// withoutProvider drops the file system provider's name from paths
// (FileSystem::C:\Users, Microsoft.PowerShell.Core\FileSystem::C:\x):
// the path after it is the same path.
func withoutProvider(line string) string {
	const name = "filesystem::"
	for {
		i := strings.Index(strings.ToLower(line), name)
		if i < 0 {
			return line
		}
		start := i
		if core := "microsoft.powershell.core"; i > len(core) && strings.EqualFold(line[i-len(core)-1:i-1], core) {
			start = i - len(core) - 1
		}
		line = line[:start] + line[i+len(name):]
	}
}

// windowsPlaces are the environment variables that name a Windows place,
// with their default values as a POSIX line spells them.
var windowsPlaces = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"userprofile":       "~",
		"home":              "~",
		"homepath":          "~",
		"systemroot":        "C:/Windows",
		"windir":            "C:/Windows",
		"systemdrive":       "C:",
		"homedrive":         "C:",
		"programfiles":      "C:/Program Files",
		"programfiles(x86)": "C:/Program Files (x86)",
		"programw6432":      "C:/Program Files",
		"programdata":       "C:/ProgramData",
		"allusersprofile":   "C:/ProgramData",
		"public":            "C:/Users/Public",
		"appdata":           "~/AppData/Roaming",
		"localappdata":      "~/AppData/Local",
		"temp":              "~/AppData/Local/Temp",
		"tmp":               "~/AppData/Local/Temp",
	}
})

// psKeywords are the words that start a statement which is not a
// command: those whose condition follows in parentheses and runs (if,
// while, …), and those a block follows (else, try, function NAME, …).
var psKeywords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"if": true, "elseif": true, "while": true, "foreach": true, "for": true,
		"switch": true, "until": true, "else": true, "try": true, "catch": true, "finally": true, "do": true,
		"function": true, "filter": true, "param": true, "begin": true, "process": true, "end": true, "trap": true}
})

// psLocations are PowerShell's commands that change directory, as the
// POSIX shell's that the shell module follows.
var psLocations = sync.OnceValue(func() map[string]string {
	return map[string]string{"set-location": "cd", "sl": "cd", "chdir": "cd", "push-location": "pushd",
		"pop-location": "popd"}
})

type psTranslator struct {
	in     string
	i      int
	out    strings.Builder
	braces []bool // open braces, innermost last: true for a hashtable's @{, false for a script block
}

func (t *psTranslator) run() {
	t.out.Grow(len(t.in) + 8)
	t.statementStart()
	for t.i < len(t.in) {
		c := t.in[t.i]
		switch {
		case c == '\'':
			t.single()
		case c == '"':
			t.double()
		case c == '`':
			t.backtick(false)
		case c == '\\':
			t.out.WriteByte('/')
			t.i++
		case c == '$':
			t.dollar(false)
		case c == '@' && t.peek(1) == '(':
			t.out.WriteString("$(")
			t.i += 2
			t.statementStart()
		case c == '(':
			t.out.WriteString("$(")
			t.i++
			t.statementStart()
		case c == '{':
			hashtable := t.i > 0 && t.in[t.i-1] == '@' // @{…}: a hashtable, a word
			t.braces = append(t.braces, hashtable)
			t.i++
			if hashtable {
				t.out.WriteByte(c)
				continue
			}
			t.out.WriteString("$(") // a script block: statements that run, where it stands
			t.statementStart()
		case c == '}':
			hashtable := len(t.braces) > 0 && t.braces[len(t.braces)-1]
			if len(t.braces) > 0 {
				t.braces = t.braces[:len(t.braces)-1]
			}
			t.i++
			if hashtable {
				t.out.WriteByte(c)
				continue
			}
			t.out.WriteByte(')')
		case c == ';' && t.ended():
			t.i++ // a statement end after a block's end: the line has one already
			t.statementStart()
		case c == ';' || c == '\n' || c == '|':
			t.out.WriteByte(c)
			t.i++
			if c == '|' && t.peek(0) == '|' {
				t.out.WriteByte('|')
				t.i++
			}
			t.statementStart()
		case c == '&' && t.peek(1) == '&':
			t.out.WriteString("&&")
			t.i += 2
			t.statementStart()
		case c == '#' && (t.i == 0 || isSpace(t.in[t.i-1])):
			t.comment()
		default:
			t.out.WriteByte(c)
			t.i++
		}
	}
}

// ended reports whether the output so far ends a statement (or is
// empty), where a POSIX shell refuses another ;.
func (t *psTranslator) ended() bool {
	out := strings.TrimRight(t.out.String(), " \t\r")
	return out == "" || strings.HasSuffix(out, "\n") || strings.HasSuffix(out, ";")
}

func (t *psTranslator) peek(k int) byte {
	if t.i+k < len(t.in) {
		return t.in[t.i+k]
	}
	return 0
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// comment copies a # comment to the end of its line, its backslashes
// too (a POSIX comment ignores them).
func (t *psTranslator) comment() {
	end := strings.IndexByte(t.in[t.i:], '\n')
	if end < 0 {
		end = len(t.in) - t.i
	}
	t.out.WriteString(t.in[t.i : t.i+end])
	t.i += end
}

// single copies a '…' string: literal in both shells. Two single quotes
// in a row are a quote in PowerShell and two strings side by side in a
// POSIX shell: one word without the quote, the same path for a guard's
// purposes.
func (t *psTranslator) single() {
	end := strings.IndexByte(t.in[t.i+1:], '\'')
	if end < 0 {
		t.out.WriteString(strings.ReplaceAll(t.in[t.i:], `\`, "/")) // unclosed: the parse says so
		t.i = len(t.in)
		return
	}
	t.out.WriteString(strings.ReplaceAll(t.in[t.i:t.i+end+2], `\`, "/"))
	t.i += end + 2
}

// double copies a "…" string: $ expands in both shells; the backtick
// escapes, and the backslash is a path's.
func (t *psTranslator) double() {
	t.out.WriteByte('"')
	t.i++
	for t.i < len(t.in) {
		c := t.in[t.i]
		switch {
		case c == '"' && t.peek(1) == '"': // "" is a quote
			t.out.WriteString(`\"`)
			t.i += 2
		case c == '"':
			t.out.WriteByte('"')
			t.i++
			return
		case c == '`':
			t.backtick(true)
		case c == '\\':
			t.out.WriteByte('/')
			t.i++
		case c == '$':
			t.dollar(true)
		default:
			t.out.WriteByte(c)
			t.i++
		}
	}
}

// backtick translates PowerShell's escape: the next character as it is
// (escaped for the POSIX shell), a line continued.
func (t *psTranslator) backtick(quoted bool) {
	t.i++
	if t.i >= len(t.in) {
		return
	}
	c := t.in[t.i]
	t.i++
	switch {
	case c == '\n':
		t.out.WriteByte(' ')
	case c == '\r' && t.peek(0) == '\n':
		t.out.WriteByte(' ')
		t.i++
	case quoted && (c == '"' || c == '$' || c == '`'):
		t.out.WriteByte('\\')
		t.out.WriteByte(c)
	case quoted:
		t.out.WriteByte(c) // `n, `t: a character of the data
	default:
		t.out.WriteByte('\\')
		t.out.WriteByte(c)
	}
}

// dollar translates $env:NAME and ${env:NAME}; any other $ goes on as
// it is ($x, $(…), ${x}).
func (t *psTranslator) dollar(quoted bool) {
	rest := t.in[t.i+1:]
	braced := strings.HasPrefix(rest, "{")
	if braced {
		rest = rest[1:]
	}
	if len(rest) < 4 || !strings.EqualFold(rest[:4], "env:") {
		switch {
		case strings.HasPrefix(rest, "(") && !braced:
			t.out.WriteString("$(")
			t.i += 2
			t.statementStart()
		case braced: // ${name}: copied whole, braces and all
			end := strings.IndexByte(t.in[t.i:], '}')
			if end < 0 {
				end = len(t.in) - t.i - 1
			}
			t.out.WriteString(t.in[t.i : t.i+end+1])
			t.i += end + 1
		case len(rest) >= 4 && strings.EqualFold(rest[:4], "null") && (len(rest) == 4 || !isWordByte(rest[4])):
			t.out.WriteString("/dev/null") // $null: what is sent there is gone (> $null)
			t.i += 5
		default:
			t.out.WriteByte('$')
			t.i++
		}
		return
	}
	name := rest[4:]
	n := 0
	for n < len(name) && (isWordByte(name[n]) || (braced && name[n] != '}')) {
		n++
	}
	if n == 0 || (braced && (n >= len(name) || name[n] != '}')) {
		t.out.WriteByte('$')
		t.i++
		return
	}
	name = name[:n]
	t.i += 1 + 4 + n
	if braced {
		t.i += 2 // { and }
	} else if strings.HasPrefix(t.in[t.i:], "(x86)") && strings.EqualFold(name, "programfiles") {
		name += "(x86)"
		t.i += len("(x86)")
	}
	if v, ok := windowsPlaces()[strings.ToLower(name)]; ok {
		if !quoted && strings.ContainsRune(v, ' ') {
			v = "'" + v + "'"
		}
		t.out.WriteString(v)
		return
	}
	t.out.WriteString("${" + sanitizeVar(name) + "}")
}

func isWordByte(c byte) bool {
	return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// sanitizeVar keeps a variable name one a POSIX shell reads.
func sanitizeVar(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		if isWordByte(name[i]) {
			b.WriteByte(name[i])
		} else {
			b.WriteByte('_')
		}
	}
	s := b.String()
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		s = "_" + s
	}
	return s
}

// statementStart reads what begins a statement: the spaces before it
// are copied, then an assignment's target is dropped, a statement that
// starts with a variable is given to :, & is dropped, and a keyword
// whose condition follows becomes :.
func (t *psTranslator) statementStart() {
	for t.i < len(t.in) && isSpace(t.in[t.i]) {
		t.out.WriteByte(t.in[t.i])
		t.i++
	}
	rest := t.in[t.i:]
	switch {
	case strings.HasPrefix(rest, "&") && !strings.HasPrefix(rest, "&&"):
		t.i++ // the call operator: what follows is the program, quoted or not
		for t.i < len(t.in) && isSpace(t.in[t.i]) {
			t.i++
		}
	case strings.HasPrefix(rest, "$") && !strings.HasPrefix(rest, "$("):
		if n := assignmentTarget(rest); n > 0 {
			t.i += n // the right side is the statement
			t.statementStart()
			return
		}
		t.out.WriteString(": ")
	case len(rest) > 1 && (rest[0] == '?' || rest[0] == '%') && (isSpace(rest[1]) || rest[1] == '{'):
		// ? is Where-Object and % ForEach-Object (… | % { Remove-Item $_ })
		t.out.WriteString(map[byte]string{'?': "Where-Object", '%': "ForEach-Object"}[rest[0]])
		t.i++
	case rest != "" && (strings.IndexByte("('\"@0123456789", rest[0]) >= 0 || strings.HasPrefix(rest, "$(")):
		// an expression, whose value is output: (Get-Item x).Length,
		// 'text' | Out-File f, $(…) as a statement
		t.out.WriteString(": ")
	default:
		word, next := rest, byte(0)
		if n := strings.IndexFunc(rest, func(r rune) bool { return !unicode.IsLetter(r) }); n >= 0 {
			word, next = rest[:n], rest[n]
		}
		// a keyword is a word of its own: ForEach-Object is a command
		alone := next == 0 || isSpace(next) || next == '(' || next == '{' || next == '\n' || next == ';'
		if alone && psKeywords()[strings.ToLower(word)] {
			t.out.WriteString(": ")
			t.i += len(word)
			return
		}
		// Set-Location (sl, chdir) is cd, Push-Location pushd and
		// Pop-Location popd: the shell module follows those
		name := rest
		if n := strings.IndexFunc(rest, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }); n >= 0 {
			name = rest[:n]
		}
		if to := psLocations()[strings.ToLower(name)]; to != "" {
			t.out.WriteString(to)
			t.i += len(name)
		}
	}
}

// assignmentTarget returns the length of "$name = " (or +=, -=, *=, /=,
// %=, and a property or index target: $x.y =, $a[0] =) at the start of
// s, or 0 when s is not an assignment.
func assignmentTarget(s string) int {
	i := 1
	if strings.HasPrefix(s[i:], "{") { // ${name}
		end := strings.IndexByte(s, '}')
		if end < 0 {
			return 0
		}
		i = end + 1
	}
	for i < len(s) && (isWordByte(s[i]) || s[i] == ':' || s[i] == '.' || s[i] == '?') {
		i++
	}
	for i < len(s) && s[i] == '[' { // $a[0]
		end := strings.IndexByte(s[i:], ']')
		if end < 0 {
			return 0
		}
		i += end + 1
	}
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	if i < len(s) && strings.IndexByte("+-*/%", s[i]) >= 0 && i+1 < len(s) && s[i+1] == '=' {
		i++
	}
	if i >= len(s) || s[i] != '=' || (i+1 < len(s) && s[i+1] == '=') {
		return 0
	}
	i++
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}
