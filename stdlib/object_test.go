package stdlib

import (
	"reflect"
	"strings"
	"testing"
)

func TestDecodeObject(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     map[string]any
		err      string
	}{
		{name: "numbers kept exact", in: `{"n": 9007199254740993, "x": 1.5}`,
			want: map[string]any{"n": int64(9007199254740993), "x": 1.5}},
		{name: "nested", in: `{"a": {"b": [1, "c", null]}}`,
			want: map[string]any{"a": map[string]any{"b": []any{int64(1), "c", nil}}}},
		{name: "space around", in: " {\"a\": true}\n", want: map[string]any{"a": true}},
		{name: "not an object", in: `[1]`, err: "want a JSON object, got an array"},
		{name: "text after", in: `{"a": 1} rm`, err: "more data after the object at byte 10"},
		{name: "syntax", in: `{"a" 1}`, err: "invalid JSON at byte 6"},
		{name: "truncated", in: `{"a": `, err: "unexpected end after 6 bytes"},
		{name: "empty", in: ``, err: "invalid JSON"},
		{name: "too deep", in: strings.Repeat(`{"a":`, MaxDepth+1) + "1" + strings.Repeat("}", MaxDepth+1),
			err: "nests deeper than 512 levels"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeObject([]byte(tc.in))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("DecodeObject(%.30q) = %v, %v; want error %q", tc.in, got, err, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("DecodeObject(%.30q) = %#v, %v; want %#v", tc.in, got, err, tc.want)
			}
		})
	}
}
