package re

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A template is a replacement string parsed once: literal text and
// references to groups ($1, ${1}, $name, ${name}), with the semantics of
// regexp.Regexp.Expand. It exists so that replace can tell the exact
// length of each expansion before making it: one expansion of "$0$0$0…"
// could otherwise be far larger than any limit.
type template []segment

// A segment is literal text, or a reference to the first of groups that
// took part in the match (several groups may share a name); a reference
// to no group expands to nothing.
type segment struct {
	lit    string
	ref    bool
	groups []int
}

// parseTemplate parses repl for re, as regexp's expand does.
func parseTemplate(re *regexp.Regexp, repl string) template {
	var t template
	for {
		before, after, ok := strings.Cut(repl, "$")
		if !ok {
			break
		}
		t = t.literal(before)
		repl = after
		if strings.HasPrefix(repl, "$") {
			t = t.literal("$")
			repl = repl[1:]
			continue
		}
		name, num, rest, ok := extract(repl)
		if !ok {
			t = t.literal("$") // malformed: the $ is literal text
			continue
		}
		repl = rest
		t = append(t, segment{ref: true, groups: groupsOf(re, name, num)})
	}
	return t.literal(repl)
}

// literal appends text, merging it with a literal segment before it.
func (t template) literal(s string) template {
	if s == "" {
		return t
	}
	if n := len(t); n > 0 && !t[n-1].ref {
		t[n-1].lit += s
		return t
	}
	return append(t, segment{lit: s})
}

// groupsOf returns the indexes of the groups a reference names.
func groupsOf(re *regexp.Regexp, name string, num int) []int {
	if num >= 0 {
		if num <= re.NumSubexp() {
			return []int{num}
		}
		return nil
	}
	var groups []int
	for i, n := range re.SubexpNames() {
		if n == name {
			groups = append(groups, i)
		}
	}
	return groups
}

// extract reads a leading "name" or "{name}" from s (after a '$'), as
// regexp's unexported function of the same name does: num is the group
// number when name is a number without leading zeros, else -1.
func extract(s string) (name string, num int, rest string, ok bool) {
	brace := strings.HasPrefix(s, "{")
	if brace {
		s = s[1:]
	}
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
			break
		}
		i += size
	}
	if i == 0 {
		return "", 0, "", false
	}
	name = s[:i]
	if brace {
		if i >= len(s) || s[i] != '}' {
			return "", 0, "", false
		}
		i++
	}
	return name, groupNumber(name), s[i:], true
}

// groupNumber returns name as a group number, or -1 when it is not a
// decimal number without leading zeros (or is absurdly large).
func groupNumber(name string) int {
	if name[0] == '0' && len(name) > 1 {
		return -1
	}
	num := 0
	for i := 0; i < len(name); i++ {
		if name[i] < '0' || name[i] > '9' || num >= 1e8 {
			return -1
		}
		num = num*10 + int(name[i]-'0')
	}
	return num
}

// size returns the length of the expansion for match, a submatch index
// slice of text.
func (t template) size(text string, match []int) int {
	n := 0
	for _, s := range t {
		n += len(s.text(text, match))
	}
	return n
}

// expand appends the expansion for match to dst.
func (t template) expand(dst []byte, text string, match []int) []byte {
	for _, s := range t {
		dst = append(dst, s.text(text, match)...)
	}
	return dst
}

func (s segment) text(text string, match []int) string {
	if !s.ref {
		return s.lit
	}
	for _, g := range s.groups {
		if 2*g+1 < len(match) && match[2*g] >= 0 {
			return text[match[2*g]:match[2*g+1]]
		}
	}
	return ""
}
