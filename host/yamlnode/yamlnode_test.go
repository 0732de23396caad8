package yamlnode

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// decode parses src and runs read on its root with a decoder of style,
// returning the problems as "line: message" and read's result.
func decode(t *testing.T, style Style, first bool, src string, read func(d *Decoder, n *yaml.Node) any) ([]string, any) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatalf("parsing %q: %v", src, err)
	}
	var problems []string
	d := &Decoder{Style: style, Report: func(line int, msg string) { problems = append(problems, fmt.Sprintf("%d: %s", line, msg)) }}
	if first {
		d.Stop = func() bool { return len(problems) > 0 }
	}
	return problems, read(d, doc.Content[0])
}

func keys(allowed ...string) func(d *Decoder, n *yaml.Node) any {
	return func(d *Decoder, n *yaml.Node) any {
		var got []string
		d.Mapping(n, "m", allowed, func(key string, _, _ *yaml.Node) { got = append(got, key) })
		return got
	}
}

func TestMapping(t *testing.T) {
	for _, tc := range []struct {
		name     string
		style    Style
		first    bool
		src      string
		allowed  []string
		want     []string
		problems []string
	}{
		{"keys in order", Terse, false, "b: 1\na: 2\n", []string{"a", "b"}, []string{"b", "a"}, nil},
		{"any key", Terse, false, "x: 1\n", nil, []string{"x"}, nil},
		{"unknown key", Terse, false, "a: 1\nz: 2\n", []string{"a"}, []string{"a"},
			[]string{`2: m: unknown key "z" (want a)`}},
		{"twice, terse", Terse, false, "a: 1\na: 2\n", nil, []string{"a"}, []string{`2: m: key "a" appears twice`}},
		{"twice, found", Found, false, "a: 1\na: 2\n", []string{"a"}, []string{"a"}, []string{`2: m: key "a" is repeated`}},
		{"null is empty, terse", Terse, false, "~\n", []string{"a"}, nil, nil},
		{"null refused, found", Found, false, "~\n", []string{"a", "b"}, nil, []string{"1: m: want a mapping (a, b), got null"}},
		{"list, terse", Terse, false, "- 1\n", nil, nil, []string{"1: m: want a mapping"}},
		{"list, found", Found, false, "- 1\n", []string{"a"}, nil, []string{"1: m: want a mapping (a), got a list"}},
		{"a list as a key", Found, false, "[x]: 1\n", []string{"a"}, nil, []string{`1: m: unknown key "" (want a)`}},
		{"all problems", Terse, false, "y: 1\nz: 2\n", []string{"a"}, nil,
			[]string{`1: m: unknown key "y" (want a)`, `2: m: unknown key "z" (want a)`}},
		{"first problem only", Found, true, "y: 1\nz: 2\n", []string{"a"}, nil, []string{`1: m: unknown key "y" (want a)`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			problems, got := decode(t, tc.style, tc.first, tc.src, keys(tc.allowed...))
			if g, _ := got.([]string); !reflect.DeepEqual(g, tc.want) {
				t.Errorf("keys %q, want %q", g, tc.want)
			}
			if !reflect.DeepEqual(problems, tc.problems) {
				t.Errorf("problems\n got %q\nwant %q", problems, tc.problems)
			}
		})
	}
}

func TestValues(t *testing.T) {
	str := func(d *Decoder, n *yaml.Node) any { return d.Str(n, "s") }
	list := func(d *Decoder, n *yaml.Node) any { return d.StrList(n, "l") }
	free := func(d *Decoder, n *yaml.Node) any { return d.FreeMap(n, "f") }
	for _, tc := range []struct {
		name     string
		style    Style
		src      string
		read     func(d *Decoder, n *yaml.Node) any
		want     any
		problems []string
	}{
		{"string", Terse, "abc\n", str, "abc", nil},
		{"number as string, terse", Terse, "12\n", str, "", []string{"1: s: want a string"}},
		{"number as string, found", Found, "12\n", str, "", []string{"1: s: want a string, got int 12"}},
		{"mapping as string, found", Found, "a: 1\n", str, "", []string{"1: s: want a string, got a mapping"}},
		{"string list", Terse, "[a, b]\n", list, []string{"a", "b"}, nil},
		{"string list with a number", Terse, "- a\n- 3\n", list, []string{"a", ""}, []string{"2: l: want a string"}},
		{"scalar as list, terse", Terse, "a\n", list, []string(nil), []string{"1: l: want a list of strings"}},
		{"scalar as list, found", Found, "a\n", list, []string(nil), []string{`1: l: want a list of strings, got the string "a"`}},
		{"free map", Terse, "a: {b: [1, x]}\n", free, map[string]any{"a": map[string]any{"b": []any{int64(1), "x"}}}, nil},
		{"free map from null, terse", Terse, "~\n", free, map[string]any{}, nil},
		{"free map from null, found", Found, "~\n", free, map[string]any(nil), []string{"1: f: want a mapping, got null"}},
		{"free map from list, terse", Terse, "- 1\n", free, map[string]any(nil),
			[]string{"1: f: want a mapping: yaml: unmarshal errors:\n  line 1: cannot unmarshal !!seq into map[string]interface {}"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			problems, got := decode(t, tc.style, false, tc.src, tc.read)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("value %#v, want %#v", got, tc.want)
			}
			if !reflect.DeepEqual(problems, tc.problems) {
				t.Errorf("problems\n got %q\nwant %q", problems, tc.problems)
			}
		})
	}
}

func TestSyntaxError(t *testing.T) {
	for _, tc := range []struct {
		src, msg string
		line     int
	}{
		{"a: [1\n", "did not find expected ',' or ']'", 1},
		{"a: 1\n b: 2\n", "mapping values are not allowed in this context", 2},
	} {
		var doc yaml.Node
		err := yaml.Unmarshal([]byte(tc.src), &doc)
		if err == nil {
			t.Fatalf("%q parsed", tc.src)
		}
		line, msg := SyntaxError(err)
		if line != tc.line || !strings.Contains(msg, tc.msg) || strings.HasPrefix(msg, "yaml:") || strings.HasPrefix(msg, "line") {
			t.Errorf("%q: line %d, msg %q; want line %d, %q", tc.src, line, msg, tc.line, tc.msg)
		}
	}
	if line, msg := SyntaxError(errors.New("yaml: something else")); line != 0 || msg != "something else" {
		t.Errorf("no line: got %d %q", line, msg)
	}
}
