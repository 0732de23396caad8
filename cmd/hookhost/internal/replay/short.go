package replay

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// shortValue is how many characters of a value Short keeps.
const shortValue = 100

// shortFields are what Short shows of a payload, in order: a name and
// where its value may be (a top-level key, or params.KEY), first found
// first. They are the fields a person recognises a fire by: the tool,
// its shell line, the file or address it touches, a prompt.
var shortFields = []struct {
	name  string
	paths [][]string
}{
	{"tool", [][]string{{"tool_name"}}},
	{"command", [][]string{{"params", "command"}, {"params", "cmd"}, {"command"}}},
	{"path", [][]string{{"params", "file_path"}, {"params", "path"}, {"params", "notebook_path"}, {"path"}}},
	{"url", [][]string{{"params", "url"}, {"url"}}},
	{"prompt", [][]string{{"prompt"}}},
}

// Short is a one-line summary of a payload for a person, as name=value
// pairs: the tool, its shell command, the path or URL it touches, the
// prompt. A payload with none of them is shown as its JSON. Values are
// cut at 100 characters (marked …) and quoted when they hold a space, a
// quote or a control character, so the summary stays on one line.
func Short(payload map[string]any) string {
	var b strings.Builder
	for _, f := range shortFields {
		for _, path := range f.paths {
			v, ok := lookup(payload, path)
			if !ok {
				continue
			}
			s, ok := text(v)
			if !ok {
				continue
			}
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(f.name)
			b.WriteByte('=')
			b.WriteString(quote(cut(s)))
			break
		}
	}
	if b.Len() > 0 {
		return b.String()
	}
	if len(payload) == 0 {
		return "{}"
	}
	data, err := json.Marshal(payload)
	if err != nil {
		return "(a payload that does not encode)"
	}
	return cut(string(data))
}

// lookup follows path through nested objects.
func lookup(payload map[string]any, path []string) (any, bool) {
	var v any = payload
	for _, key := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[key]; !ok {
			return nil, false
		}
	}
	return v, true
}

// text is a value as text: a string, or a list of strings (an argv, as
// Codex sends its commands) joined by spaces.
func text(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, x != ""
	case []any:
		words := make([]string, 0, len(x))
		for _, w := range x {
			s, ok := w.(string)
			if !ok {
				return "", false
			}
			words = append(words, s)
		}
		return strings.Join(words, " "), len(words) > 0
	}
	return "", false
}

// cut keeps the first shortValue characters of s, marking a cut with ….
func cut(s string) string {
	if utf8.RuneCountInString(s) <= shortValue {
		return s
	}
	n := 0
	for i := range s {
		if n == shortValue {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// quote quotes s when it would not read as one word on one line.
func quote(s string) string {
	if s == "" || strings.ContainsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || r == '"' || r == '\'' || r == '=' || !unicode.IsPrint(r)
	}) {
		return strconv.Quote(s)
	}
	return s
}
