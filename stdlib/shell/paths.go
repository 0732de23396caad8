package shell

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/hookhost/hookhost/stdlib"
)

// A PathInfo is one word of a command read as a path, normalised
// lexically so that a guard compares one spelling: /./usr/, /etc/../usr
// and //usr are all /usr; "$HOME", ${HOME}, ~ and ~/ are all ~.
type PathInfo struct {
	// Path is the word cleaned as a path (repeated slashes, . and ..
	// resolved, no trailing slash), with a leading ~, $HOME or ${HOME}
	// spelled ~ and a leading $PWD or ${PWD} spelled ".". Parts that
	// cannot be resolved stay as written ($DIR). A relative path stays
	// relative: resolve it against the working directory (path.abs).
	Path string
	// Prefix is the part of Path before its first element holding an
	// unquoted glob character: everything the word can match lies under
	// it. "/" for /*, "/usr" for /usr/lib*, "." for *; Path itself when
	// there is no glob.
	Prefix string
	// Glob reports an unquoted *, ? or [...] in the word.
	Glob bool
	// Dynamic reports that Path holds a part known only at run time (a
	// variable other than HOME and PWD, a substitution), or climbs out of
	// the home directory (~/..), whose parent is not known.
	Dynamic bool
}

// Value returns the path as the neutral map scripts receive.
func (p PathInfo) Value() map[string]any { return p.record().Map() }

// pathKeys are the keys of a path's record, in byte order: dynamic,
// glob, path, prefix.
var pathKeys = stdlib.NewRecordKeys("path", "prefix", "glob", "dynamic")

func (p PathInfo) record() stdlib.Record {
	return stdlib.Record{Keys: pathKeys, Values: []any{p.Dynamic, p.Glob, p.Path, p.Prefix}}
}

// staticPath reads a word known in advance (its quotes removed) as a
// path: nothing in it is a glob, a variable or a tilde.
func staticPath(s string) PathInfo {
	p := cleanPath(escapeGlob(s))
	return PathInfo{Path: unescapePath(p), Prefix: unescapePath(p)}
}

// plainPath reads a path given to a program as a string (by code that
// deletes it, say), where only a leading ~ is special.
func plainPath(s string, dynamic bool) PathInfo {
	b := pathBuilder{dynamic: dynamic}
	if head, ok := homePrefix(s); ok {
		b.home(head)
		s = s[len(head):]
	}
	b.literal(s)
	return b.info()
}

// homePrefix returns the ~ or ~user that begins s, if any.
func homePrefix(s string) (string, bool) {
	if !strings.HasPrefix(s, "~") {
		return "", false
	}
	head, _, _ := strings.Cut(s, "/")
	return head, true
}

// wordPath reads a parsed word as a path.
func wordPath(src source, w *syntax.Word) PathInfo {
	var b pathBuilder
	for i, p := range w.Parts {
		b.part(src, p, i == 0)
	}
	return b.info()
}

// A pathBuilder accumulates a word with its literal glob characters
// escaped by a backslash, so that only the unquoted ones stay bare.
type pathBuilder struct {
	s       strings.Builder
	glob    bool
	dynamic bool
}

func (b *pathBuilder) literal(s string) { b.s.WriteString(escapeGlob(s)) }

func (b *pathBuilder) home(head string) { b.s.WriteString(escapeGlob(head)) }

// unknown writes a part whose value is only known at run time.
func (b *pathBuilder) unknown(src source, n syntax.Node) {
	b.dynamic = true
	b.literal(src.of(n))
}

func (b *pathBuilder) part(src source, p syntax.WordPart, first bool) {
	switch p := p.(type) {
	case *syntax.Lit:
		b.lit(p.Value, first)
	case *syntax.SglQuoted:
		if p.Dollar {
			b.literal(ansiC(p.Value))
		} else {
			b.literal(p.Value)
		}
	case *syntax.DblQuoted:
		for i, inner := range p.Parts {
			if lit, ok := inner.(*syntax.Lit); ok {
				b.literal(unescapeDouble(lit.Value, '"'))
			} else {
				b.param(src, inner, first && i == 0)
			}
		}
	default:
		b.param(src, p, first)
	}
}

// param writes a parameter expansion: $HOME and $PWD at the start of
// the word are known places; anything else is unknown.
func (b *pathBuilder) param(src source, p syntax.WordPart, first bool) {
	pe, ok := p.(*syntax.ParamExp)
	if ok && first && b.s.Len() == 0 && plainParam(pe) {
		switch pe.Param.Value {
		case "HOME":
			b.s.WriteString("~")
			return
		case "PWD":
			b.s.WriteString(".")
			return
		}
	}
	b.unknown(src, p)
}

// plainParam reports $NAME or ${NAME}, with no operator.
func plainParam(p *syntax.ParamExp) bool {
	return p.Param != nil && !p.Excl && !p.Length && !p.Width && !p.IsSet && p.Index == nil &&
		p.Slice == nil && p.Repl == nil && p.Exp == nil && p.Names == 0 && p.NestedParam == nil && len(p.Modifiers) == 0
}

// lit writes an unquoted literal: backslashes escape, glob characters
// stay bare, and a leading ~ or ~user is the home directory.
func (b *pathBuilder) lit(s string, first bool) {
	if first && b.s.Len() == 0 {
		if head, ok := homePrefix(s); ok {
			b.home(head)
			s = s[len(head):]
		}
	}
	bracket := strings.Contains(s, "]")
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			if s[i] != '\n' {
				b.literal(s[i : i+1])
			}
		case c == '*' || c == '?' || (c == '[' && bracket):
			b.glob = true
			b.s.WriteByte(c)
		default:
			b.literal(s[i : i+1])
		}
	}
}

// info cleans what was built.
func (b *pathBuilder) info() PathInfo {
	p, climbs := cleanHome(b.s.String())
	out := PathInfo{Path: unescapePath(p), Prefix: unescapePath(globPrefix(p)), Glob: b.glob, Dynamic: b.dynamic || climbs}
	return out
}

// cleanHome cleans p, keeping a leading ~ or ~user as the root it is,
// and reports whether p climbs out of it (~/..).
func cleanHome(p string) (string, bool) {
	head, ok := homePrefix(p)
	if !ok {
		return cleanPath(p), false
	}
	rest := strings.TrimLeft(p[len(head):], "/")
	c := path.Clean(rest)
	switch {
	case rest == "" || c == ".":
		return head, false
	case c == ".." || strings.HasPrefix(c, "../"):
		return head + "/" + c, true
	}
	return head + "/" + c, false
}

// cleanPath is path.Clean, except that "" stays "", and a drive letter
// before a relative path (C:..\x, which Windows reads in drive C's
// current directory) is kept apart from it: "C:.." is no name for the
// ".." after it to take away.
func cleanPath(p string) string {
	if p == "" {
		return ""
	}
	if len(p) > 2 && p[1] == ':' && p[2] != '/' && ('a' <= p[0]|0x20 && p[0]|0x20 <= 'z') {
		return p[:2] + path.Clean(p[2:])
	}
	return path.Clean(p)
}

// globPrefix returns the elements of an escaped path before the first
// one with a bare glob character.
func globPrefix(p string) string {
	elems := strings.Split(p, "/")
	for i, e := range elems {
		if !hasBareGlob(e) {
			continue
		}
		switch prefix := strings.Join(elems[:i], "/"); {
		case prefix != "":
			return prefix
		case strings.HasPrefix(p, "/"):
			return "/"
		}
		return "."
	}
	return p
}

func hasBareGlob(e string) bool {
	for i := 0; i < len(e); i++ {
		switch e[i] {
		case '\\':
			i++
		case '*', '?', '[':
			return true
		}
	}
	return false
}

// escapeGlob escapes the characters that escaped paths give meaning.
func escapeGlob(s string) string {
	if !strings.ContainsAny(s, `\*?[`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(`\*?[`, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// unescapePath undoes escapeGlob.
func unescapePath(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// boundWordPath reads a word that starts with a bound variable as a
// path: a loop's ("$f", "$d/dist", ${f}.bak: the names the loop's word
// lists) or one the line assigned before the word (assigned, at the
// line's own level), then the rest of the word, which must be known in
// advance. ok is false for any other word.
func boundWordPath(sc *scope, assigned map[string]assignedPath, w *syntax.Word) (PathInfo, bool) {
	if len(w.Parts) == 0 {
		return PathInfo{}, false
	}
	// the variable, alone or first in double quotes ("$f", "${f}/x"),
	// and the parts after it
	first, rest := w.Parts[0], w.Parts[1:]
	quoted := false
	if dq, isDQ := first.(*syntax.DblQuoted); isDQ && len(dq.Parts) > 0 {
		quoted = true
		first = dq.Parts[0]
		if len(dq.Parts) > 1 {
			rest = append([]syntax.WordPart{&syntax.DblQuoted{Parts: dq.Parts[1:]}}, rest...)
		}
	}
	pe, isParam := first.(*syntax.ParamExp)
	if !isParam || !plainParam(pe) {
		return PathInfo{}, false
	}
	loop, bound := sc.loopPaths[pe.Param.Value]
	if a, set := assigned[pe.Param.Value]; !bound && set && sc.level == 0 && uint(w.Pos().Offset()) > a.end {
		loop, bound = a.path, true
	}
	if !bound || (loop.Glob && !quoted) {
		// unquoted, a loop's $f splits a matched name with spaces in it
		return PathInfo{}, false
	}
	// the bound path, its glob characters bare only when it is a glob,
	// then the rest of the word as written
	var b pathBuilder
	if loop.Glob {
		b.glob = true
		b.s.WriteString(loop.Path)
	} else {
		b.literal(loop.Path)
	}
	for _, p := range rest {
		b.part(sc.src, p, false)
	}
	if b.dynamic {
		return PathInfo{}, false
	}
	return b.info(), true
}
