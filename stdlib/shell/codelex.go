package shell

import (
	"strings"
	"sync"
)

// This file splits the code of an interpreter one-liner (python -c,
// perl -e, …) into tokens: enough of each language's lexical rules —
// strings, comments, identifiers, brackets — to find calls and their
// literal arguments. It is a scanner, not a parser: it never fails, and
// code it does not understand yields tokens that match nothing.

type tokKind int

const (
	tIdent  tokKind = iota // a name: os, system, $ENV
	tString                // a string literal; text is its value
	tList                  // a word list: qw(a b), %w[a b]; list holds it
	tPunct                 // one of ( ) [ ] { } , ; = . :: -> and others
)

type token struct {
	kind    tokKind
	text    string
	list    []string
	dynamic bool // a string with interpolation (f"{x}", "$x", `${x}`)
	shell   bool // a command string: `…`, qx(…), %x(…)
	start   int  // byte offsets into the code
	end     int
	idx     int // its index among the tokens
}

// A lexSpec holds what differs between languages.
type lexSpec struct {
	lineComments []string
	blockComment [2]string
	pyPrefixes   bool // r"", f"", b"" and triple quotes
	backtick     int  // 0: none, btShell: a command, btTemplate: a JS template
	perlQuotes   bool // q() qq() qw() qx()
	rubyPercent  bool // %w[] %q() %Q() %x() %()
	luaLong      bool // [[…]] and [==[…]==]
	sigils       bool // $x @x %x are names (perl, php)
	interpolate  string
}

const (
	btShell = 1 + iota
	btTemplate
)

// lexSpecs are the languages' lexical rules (built on first use).
var lexSpecs = sync.OnceValue(func() map[string]lexSpec {
	return map[string]lexSpec{
		"python": {lineComments: []string{"#"}, pyPrefixes: true, interpolate: "{"},
		"perl":   {lineComments: []string{"#"}, backtick: btShell, perlQuotes: true, sigils: true, interpolate: "$@"},
		"ruby":   {lineComments: []string{"#"}, backtick: btShell, rubyPercent: true, interpolate: "#{"},
		"node":   {lineComments: []string{"//"}, blockComment: [2]string{"/*", "*/"}, backtick: btTemplate, interpolate: "${"},
		"php":    {lineComments: []string{"//", "#"}, blockComment: [2]string{"/*", "*/"}, backtick: btShell, sigils: true, interpolate: "$"},
		"lua":    {lineComments: []string{"--"}, luaLong: true},
	}
})

// maxTokens bounds the tokens read from one piece of code.
const maxTokens = 1 << 14

type lexer struct {
	spec lexSpec
	src  string
	i    int
	toks []token
}

// lex splits code into tokens.
func lex(lang, code string) []token {
	l := &lexer{spec: lexSpecs()[lang], src: code}
	for l.i < len(l.src) && len(l.toks) < maxTokens {
		l.next()
	}
	return l.toks
}

func (l *lexer) emit(t token) {
	t.idx = len(l.toks)
	l.toks = append(l.toks, t)
}

func (l *lexer) next() {
	s, i := l.src, l.i
	c := s[i]
	switch {
	case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		l.i++
	case l.comment():
	case l.spec.luaLong && c == '[' && luaLongLevel(s[i:]) >= 0:
		l.luaLongString()
	case l.prefixedString():
	case c == '\'' || c == '"':
		l.quoted(i, i+1, c, c == '"' && l.spec.interpolate != "", false)
	case c == '`' && l.spec.backtick != 0:
		l.quoted(i, i+1, '`', true, l.spec.backtick == btShell)
	case isIdentStart(c) || (l.spec.sigils && strings.IndexByte("$@%", c) >= 0 && i+1 < len(s) && isIdentStart(s[i+1])):
		l.ident()
	case strings.HasPrefix(s[i:], "::") || strings.HasPrefix(s[i:], "->"):
		l.emit(token{kind: tPunct, text: s[i : i+2], start: i, end: i + 2})
		l.i += 2
	default:
		l.emit(token{kind: tPunct, text: s[i : i+1], start: i, end: i + 1})
		l.i++
	}
}

func isIdentStart(c byte) bool { return c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z') }

func isIdentChar(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }

// comment skips a comment at l.i, if one starts there.
func (l *lexer) comment() bool {
	rest := l.src[l.i:]
	if b := l.spec.blockComment; b[0] != "" && strings.HasPrefix(rest, b[0]) {
		if j := strings.Index(rest[2:], b[1]); j >= 0 {
			l.i += 2 + j + len(b[1])
		} else {
			l.i = len(l.src)
		}
		return true
	}
	for _, p := range l.spec.lineComments {
		if strings.HasPrefix(rest, p) {
			if j := strings.IndexByte(rest, '\n'); j >= 0 {
				l.i += j
			} else {
				l.i = len(l.src)
			}
			return true
		}
	}
	return false
}

func (l *lexer) ident() {
	start := l.i
	l.i++
	for l.i < len(l.src) && isIdentChar(l.src[l.i]) {
		l.i++
	}
	name := l.src[start:l.i]
	if l.spec.perlQuotes && (name == "q" || name == "qq" || name == "qw" || name == "qx") && l.perlQuote(start, name) {
		return
	}
	l.emit(token{kind: tIdent, text: name, start: start, end: l.i})
}

// prefixedString reads Python's r"…", f'…', b"…" and triple-quoted
// strings, and Ruby's %w[…], %x(…) and friends.
func (l *lexer) prefixedString() bool {
	s, i := l.src, l.i
	if l.spec.rubyPercent && s[i] == '%' {
		return l.rubyPercentString()
	}
	if !l.spec.pyPrefixes {
		return false
	}
	j := i
	for j < len(s) && j-i < 2 && strings.IndexByte("rRbBfFuU", s[j]) >= 0 {
		j++
	}
	if j >= len(s) || (s[j] != '\'' && s[j] != '"') || (j > i && i > 0 && isIdentChar(s[i-1])) {
		return false
	}
	prefix := strings.ToLower(s[i:j])
	raw, format := strings.Contains(prefix, "r"), strings.Contains(prefix, "f")
	q := s[j]
	if strings.HasPrefix(s[j:], strings.Repeat(string(q), 3)) {
		end := strings.Index(s[j+3:], strings.Repeat(string(q), 3))
		body := s[j+3:]
		l.i = len(s)
		if end >= 0 {
			body, l.i = body[:end], j+6+end
		}
		l.emitString(i, pyUnescape(body, raw), format && strings.Contains(body, "{"), false)
		return true
	}
	if j == i {
		return false // a plain quote: the common path handles it
	}
	l.quotedPy(i, j+1, q, raw, format)
	return true
}

func (l *lexer) emitString(start int, val string, dynamic, shell bool) {
	l.emit(token{kind: tString, text: val, dynamic: dynamic, shell: shell, start: start, end: l.i})
}

// quoted reads a string from body to the closing quote q. Backslashes
// escape; interp says whether the language interpolates in it.
func (l *lexer) quoted(start, body int, q byte, interp, shell bool) {
	var b strings.Builder
	i := body
	for ; i < len(l.src) && l.src[i] != q; i++ {
		if l.src[i] == '\\' && i+1 < len(l.src) {
			i++
			b.WriteString(cEscape(l.src[i]))
			continue
		}
		b.WriteByte(l.src[i])
	}
	l.i = min(i+1, len(l.src))
	raw := l.src[body:i]
	dyn := interp && hasInterpolation(raw, l.spec.interpolate)
	if q == '\'' && !l.spec.pyPrefixes && l.spec.backtick != btTemplate {
		// Perl, Ruby, PHP and Lua single quotes escape only \\ and \'.
		val := strings.NewReplacer(`\\`, `\`, `\'`, `'`).Replace(raw)
		l.emitString(start, val, false, shell)
		return
	}
	l.emitString(start, b.String(), dyn, shell)
}

func (l *lexer) quotedPy(start, body int, q byte, raw, format bool) {
	i := body
	for ; i < len(l.src) && l.src[i] != q; i++ {
		if l.src[i] == '\\' {
			i++
		}
	}
	end := min(i, len(l.src))
	l.i = min(i+1, len(l.src))
	text := l.src[body:end]
	l.emitString(start, pyUnescape(text, raw), format && strings.Contains(text, "{"), false)
}

// hasInterpolation reports whether a string body interpolates: any of
// marks' characters (perl's $ and @), or the mark as a whole (#{, ${).
func hasInterpolation(s, marks string) bool {
	if marks == "" {
		return false
	}
	if len(marks) > 1 && (marks[0] == '#' || marks[0] == '$') && marks[1] == '{' {
		return strings.Contains(s, marks)
	}
	return strings.ContainsAny(s, marks)
}

// cEscape decodes the common one-letter escapes; others keep their
// character.
func cEscape(c byte) string {
	switch c {
	case 'n':
		return "\n"
	case 't':
		return "\t"
	case '0':
		return ""
	}
	return string(c)
}

// pyUnescape decodes a Python string body (raw strings keep backslashes).
func pyUnescape(s string, raw bool) string {
	if raw || !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			b.WriteString(cEscape(s[i]))
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// closing maps an opening bracket to its closer; other delimiters close
// themselves.
func closing(c byte) byte {
	switch c {
	case '(':
		return ')'
	case '[':
		return ']'
	case '{':
		return '}'
	case '<':
		return '>'
	}
	return c
}

// delimited returns the body of a string delimited by open at s[i] and
// the index after it. Brackets nest; backslashes escape.
func delimited(s string, i int) (string, int) {
	open := s[i]
	cl := closing(open)
	depth := 1
	j := i + 1
	for ; j < len(s); j++ {
		switch c := s[j]; {
		case c == '\\':
			j++
		case c == cl:
			depth--
		case c == open && cl != open:
			depth++
		}
		if depth == 0 {
			return s[i+1 : j], j + 1
		}
	}
	return s[i+1:], len(s)
}

// perlQuote reads q(…), qq{…}, qw[…] or qx!…! whose name ends at l.i.
func (l *lexer) perlQuote(start int, name string) bool {
	j := l.i
	for j < len(l.src) && l.src[j] == ' ' {
		j++
	}
	if j >= len(l.src) || isIdentChar(l.src[j]) || strings.IndexByte(" \t\n,;=", l.src[j]) >= 0 {
		return false
	}
	body, end := delimited(l.src, j)
	l.i = end
	switch name {
	case "qw":
		l.emit(token{kind: tList, list: strings.Fields(body), start: start, end: end})
	case "qx":
		l.emitString(start, body, hasInterpolation(body, "$@"), true)
	case "qq":
		l.emitString(start, body, hasInterpolation(body, "$@"), false)
	default:
		l.emitString(start, body, false, false)
	}
	return true
}

// rubyPercentString reads %w[…], %i[…], %q(…), %Q(…), %x(…) and %(…).
func (l *lexer) rubyPercentString() bool {
	s, i := l.src, l.i
	if i+1 >= len(s) {
		return false
	}
	kind, j := byte('Q'), i+1
	if strings.IndexByte("wWiIqQx", s[j]) >= 0 {
		kind, j = s[j], j+1
	}
	if j >= len(s) || strings.IndexByte("([{<|!/", s[j]) < 0 {
		return false
	}
	body, end := delimited(s, j)
	l.i = end
	switch kind {
	case 'w', 'W', 'i', 'I':
		l.emit(token{kind: tList, list: strings.Fields(body), start: i, end: end})
	case 'x':
		l.emitString(i, body, strings.Contains(body, "#{"), true)
	case 'q':
		l.emitString(i, body, false, false)
	default:
		l.emitString(i, body, strings.Contains(body, "#{"), false)
	}
	return true
}

// luaLongLevel returns the level of a long bracket [[ or [==[ at the
// start of s, or -1.
func luaLongLevel(s string) int {
	j := 1
	for j < len(s) && s[j] == '=' {
		j++
	}
	if j < len(s) && s[j] == '[' {
		return j - 1
	}
	return -1
}

func (l *lexer) luaLongString() {
	start := l.i
	level := luaLongLevel(l.src[start:])
	body := start + level + 2
	closer := "]" + strings.Repeat("=", level) + "]"
	end := strings.Index(l.src[body:], closer)
	if end < 0 {
		l.i = len(l.src)
		l.emitString(start, l.src[body:], false, false)
		return
	}
	l.i = body + end + len(closer)
	l.emitString(start, strings.TrimPrefix(l.src[body:body+end], "\n"), false, false)
}
