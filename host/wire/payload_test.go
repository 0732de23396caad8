package wire

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

func TestParsePayload(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     map[string]any
	}{
		{"empty", "", map[string]any{}},
		{"spaces", " \n\t", map[string]any{}},
		{"empty object", "{}", map[string]any{}},
		{"whole numbers are int64", `{"n": 3, "neg": -7, "big": 9007199254740993}`,
			map[string]any{"n": int64(3), "neg": int64(-7), "big": int64(9007199254740993)}},
		{"fractions are float64", `{"x": 1.5, "e": 1e3, "one": 1.0}`,
			map[string]any{"x": 1.5, "e": 1000.0, "one": 1.0}},
		{"past int64 is float64", `{"n": 18446744073709551616}`, map[string]any{"n": 18446744073709551616.0}},
		{"nested", `{"params": {"command": "ls", "args": [1, "a", null, true]}}`,
			map[string]any{"params": map[string]any{"command": "ls", "args": []any{int64(1), "a", nil, true}}}},
		{"trailing space", "{\"a\": \"b\"}\n", map[string]any{"a": "b"}},
		{"duplicate keys keep the last", `{"a": 1, "a": 2}`, map[string]any{"a": int64(2)}},
		{"512 levels", nest(511), map[string]any{"a": nestedList(510)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodePayload([]byte(tc.in))
			if err != nil {
				t.Fatalf("DecodePayload(%.40q): %v", tc.in, err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("DecodePayload(%.40q) = %#v, want %#v", tc.in, got, tc.want)
			}
		})
	}
}

func TestParsePayloadErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"array", `[1, 2]`, "want a JSON object, got an array"},
		{"string", `"x"`, "want a JSON object, got a string"},
		{"number", `12`, "want a JSON object, got a number"},
		{"null", `null`, "want a JSON object, got null"},
		{"bool", `true`, "want a JSON object, got a boolean"},
		{"syntax", `{"a" 1}`, "invalid JSON at byte 6"},
		{"truncated", `{"a": `, "invalid JSON: unexpected end"},
		{"not JSON", `x=1`, "invalid JSON at byte 1"},
		{"two objects", `{} {}`, "more data after the object"},
		{"trailing garbage", `{}]`, "more data after the object"},
		{"513 levels", nest(512), "nests deeper than 512 levels"},
		{"600 levels", nest(599), "nests deeper than 512 levels"},
		{"past the decoder's own limit", nest(20000), "nests deeper than 512 levels"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodePayload([]byte(tc.in))
			if err == nil {
				t.Fatalf("DecodePayload(%.40q) = %v, want an error", tc.in, got)
			}
			if !strings.HasPrefix(err.Error(), "payload: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("DecodePayload(%.40q): %v, want %q", tc.in, err, tc.want)
			}
			if len(err.Error()) > 200 {
				t.Errorf("error is %d bytes long: %.80s…", len(err.Error()), err)
			}
		})
	}
}

func TestReadPayload(t *testing.T) {
	got, err := ReadPayload("-", strings.NewReader(`{"tool_name": "bash"}`))
	if err != nil || got["tool_name"] != "bash" {
		t.Errorf(`ReadPayload("-", stdin) = %v, %v`, got, err)
	}
	got, err = ReadPayload(`{"tool_name": "ls"}`, strings.NewReader(`{"tool_name": "bash"}`))
	if err != nil || got["tool_name"] != "ls" {
		t.Errorf("ReadPayload(arg) = %v, %v; want the argument, not stdin", got, err)
	}
	got, err = ReadPayload("-", strings.NewReader(""))
	if err != nil || len(got) != 0 {
		t.Errorf(`ReadPayload("-", empty stdin) = %v, %v; want {}`, got, err)
	}
	boom := errors.New("boom")
	if _, err := ReadPayload("-", iotest.ErrReader(boom)); !errors.Is(err, boom) {
		t.Errorf(`ReadPayload("-", failing stdin): %v, want boom`, err)
	}
}

// nest is a payload whose object holds n nested lists: n+1 levels.
func nest(n int) string {
	return `{"a":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`
}

// nestedList is what nest(n+1) decodes to under "a".
func nestedList(n int) any {
	var v any = []any{}
	for range n {
		v = []any{v}
	}
	return v
}

// FuzzReadPayload: any payload text is a neutral object or a usage error,
// never a panic.
func FuzzReadPayload(f *testing.F) {
	for _, seed := range []string{`{"tool_name":"bash","params":{"command":"ls"}}`, `[]`, `{"a":1e400}`, `{"a":`, `  `, `{"a":[[[[1]]]]}`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if p, err := ReadPayload(text, strings.NewReader("")); err == nil && p == nil {
			t.Fatal("nil payload without an error")
		}
	})
}
