package shell

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// An arg is one word of a command line as a guard sees it.
type arg struct {
	// text is the word after quote removal, or, when the word is dynamic,
	// its source text exactly as written.
	text string
	// raw is the word after quote removal with every part that cannot be
	// resolved left as its source text: what a nested shell (bash -c,
	// eval) would be given to parse.
	raw string
	// base is what the command would be called if this word were argv[0].
	base string
	// dynamic reports that the word holds a variable, a substitution, a
	// glob or a tilde, so its run-time value is unknown.
	dynamic bool
	// holes are the byte ranges of raw copied from unresolved parts. A
	// nested script parsed from raw does not report the commands inside
	// them again: they run in the outer shell, and were reported there.
	holes []span
	// substs are the command and process substitutions in the word,
	// whose output becomes part of it.
	substs []syntax.Node
	// path is the word read as a path; set for command words only
	// (see pathOf).
	path    PathInfo
	hasPath bool
}

// pathOf returns the word read as a path.
func (a arg) pathOf() PathInfo {
	switch {
	case a.hasPath:
		return a.path
	case a.dynamic:
		return PathInfo{Path: a.text, Prefix: a.text, Dynamic: true}
	}
	return staticPath(a.text)
}

// substsIn returns the command and process substitutions under n.
func substsIn(n syntax.Node) []syntax.Node {
	var out []syntax.Node
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			out = append(out, n)
		}
		return true
	})
	return out
}

// A span is a byte range [start, end).
type span struct{ start, end int }

// within reports whether offset falls inside one of spans.
func within(spans []span, offset int) bool {
	for _, s := range spans {
		if offset >= s.start && offset < s.end {
			return true
		}
	}
	return false
}

// shift returns spans moved by n bytes.
func shift(spans []span, n int) []span {
	out := make([]span, len(spans))
	for i, s := range spans {
		out[i] = span{s.start + n, s.end + n}
	}
	return out
}

// staticArg returns an arg for a value known in advance.
func staticArg(s string) arg { return arg{text: s, raw: s, base: baseName(s)} }

// source is the text of one script, from which unresolvable words are
// quoted as written.
type source string

// of returns the source text of n, or "" when its position is unusable.
func (s source) of(n syntax.Node) string {
	start, end := n.Pos().Offset(), n.End().Offset()
	if start > end || end > uint(len(s)) {
		return ""
	}
	return string(s[start:end])
}

// baseName is path.Base without its "." for the empty string.
func baseName(s string) string {
	if s == "" {
		return ""
	}
	return path.Base(s)
}

// quoting says how the literal parts of a word are unescaped.
type quoting int

const (
	unquoted   quoting = iota // a command word: every backslash escapes
	heredoc                   // an unquoted here-document body: only \\ \$ \` and newline
	heredocTab                // the same for <<-, which also strips leading tabs
)

// resolver accumulates one word.
type resolver struct {
	src     source
	raw     strings.Builder
	dynamic bool
	holes   []span
	substs  []syntax.Node
}

// resolve turns a parsed word into an arg, without brace expansion.
func resolve(src source, w *syntax.Word, q quoting) arg {
	if w == nil || len(w.Parts) == 0 {
		return staticArg("")
	}
	r := resolver{src: src}
	for i, p := range w.Parts {
		r.part(p, q, i == 0)
	}
	raw := r.raw.String()
	if !r.dynamic {
		return staticArg(raw)
	}
	a := arg{text: src.of(w), raw: raw, dynamic: true, holes: r.holes, substs: r.substs}
	a.base = a.text
	// A static tail after a slash still names the command: $HOME/bin/rm.
	if tail := raw[r.holes[len(r.holes)-1].end:]; strings.Contains(tail, "/") {
		if b := tail[strings.LastIndexByte(tail, '/')+1:]; b != "" {
			a.base = b
		}
	}
	return a
}

func (r *resolver) static(s string) { r.raw.WriteString(s) }

// unresolved records a part whose value is only known at run time.
func (r *resolver) unresolved(n syntax.Node) {
	r.dynamic = true
	r.substs = append(r.substs, substsIn(n)...)
	start := r.raw.Len()
	r.raw.WriteString(r.src.of(n))
	r.holes = append(r.holes, span{start, r.raw.Len()})
}

func (r *resolver) part(p syntax.WordPart, q quoting, first bool) {
	switch p := p.(type) {
	case *syntax.Lit:
		r.lit(p, q, first)
	case *syntax.SglQuoted:
		if p.Dollar {
			r.static(ansiC(p.Value))
		} else {
			r.static(p.Value)
		}
	case *syntax.DblQuoted:
		for _, inner := range p.Parts {
			if lit, ok := inner.(*syntax.Lit); ok {
				r.static(unescapeDouble(lit.Value, '"'))
			} else {
				r.unresolved(inner)
			}
		}
	default: // parameters, substitutions, arithmetic, extended globs
		r.unresolved(p)
	}
}

func (r *resolver) lit(p *syntax.Lit, q quoting, first bool) {
	if q != unquoted {
		v := unescapeDouble(p.Value, 0)
		if q == heredocTab {
			// Dynamic parts never begin with a tab, so lines begin in literals.
			s := r.raw.String()
			v = stripTabs(v, s == "" || strings.HasSuffix(s, "\n"))
		}
		r.static(v)
		return
	}
	val, glob := unescapeUnquoted(p.Value)
	switch {
	case glob:
		r.unresolved(p)
	case first && hasTilde(p.Value):
		r.tilde(p.Value)
	default:
		r.static(val)
	}
}

// tilde records a literal that begins with a tilde expansion. Only the
// ~ or ~user before the first slash is unknown: ~/bin/rm is still rm.
func (r *resolver) tilde(lit string) {
	prefix, rest, slash := strings.Cut(lit, "/")
	if !strings.HasPrefix(lit, "~") || !slash {
		prefix, rest = lit, "" // PREFIX=~/x, {~,x}: all of it
	}
	r.dynamic = true
	start := r.raw.Len()
	r.raw.WriteString(prefix)
	r.holes = append(r.holes, span{start, r.raw.Len()})
	if slash && prefix != lit {
		val, _ := unescapeUnquoted(rest)
		r.static("/" + val)
	}
}

// hasTilde reports whether the leading literal of a word undergoes tilde
// expansion: "~", "~/x", "~user", or an assignment-like word such as
// PREFIX=~/x or PATH=a:~/bin (bash expands those even as arguments). A
// "~" starting a brace alternative ({~,x}) counts too.
func hasTilde(lit string) bool {
	if strings.HasPrefix(lit, "~") || strings.Contains(lit, "{~") || strings.Contains(lit, ",~") {
		return true
	}
	name, val, ok := strings.Cut(lit, "=")
	if !ok || !isName(name) {
		return false
	}
	return strings.HasPrefix(val, "~") || strings.Contains(val, ":~")
}

// isName reports whether s is a valid shell variable name.
func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z')
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// unescapeUnquoted removes the backslashes of an unquoted literal (a
// backslash-newline disappears) and reports whether the literal holds an
// unescaped glob: *, ? or a [...] bracket expression.
func unescapeUnquoted(s string) (val string, glob bool) {
	if !strings.ContainsAny(s, `\*?[`) {
		return s, false
	}
	var b strings.Builder
	bracket := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
			}
			continue
		case c == '*' || c == '?':
			glob = true
		case c == '[':
			bracket = true
		case c == ']' && bracket:
			glob = true
		}
		b.WriteByte(c)
	}
	return b.String(), glob
}

// unescapeDouble removes the backslashes that are special inside double
// quotes (quote is '"') or in a here-document body (quote is 0): before
// $, `, \, the quote itself and a newline, which disappears with it.
func unescapeDouble(s string, quote byte) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			switch n := s[i+1]; {
			case n == '\n':
				i++
				continue
			case n == '$' || n == '`' || n == '\\' || (quote != 0 && n == quote):
				i++
				c = n
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// stripTabs removes the tabs that begin each line of s, as <<- does;
// first says whether s itself begins a line.
func stripTabs(s string, first bool) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if i > 0 || first {
			lines[i] = strings.TrimLeft(l, "\t")
		}
	}
	return strings.Join(lines, "")
}

// isQuoted reports whether a here-document delimiter has any quoting,
// which makes the body literal.
func isQuoted(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			if strings.Contains(p.Value, `\`) {
				return true
			}
		}
	}
	return false
}
