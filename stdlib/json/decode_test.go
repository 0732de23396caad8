package json

import (
	stdjson "encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"unsafe"

	"github.com/hookhost/hookhost/stdlib"
)

func TestDecode(t *testing.T) {
	tests := []struct {
		text string
		want any
	}{
		{"null", nil},
		{" \t\r\ntrue ", true},
		{"false", false},
		{"0", int64(0)},
		{"-0", int64(0)},
		{"42", int64(42)},
		{"-9223372036854775808", int64(math.MinInt64)},
		{"9223372036854775807", int64(math.MaxInt64)},
		{"9223372036854775808", 9223372036854775808.0}, // past int64: a float
		{"1.0", 1.0},
		{"1e3", 1000.0},
		{"1E+3", 1000.0},
		{"-2.5e-3", -0.0025},
		{`""`, ""},
		{`"a\"\\\/\b\f\n\r\t"`, "a\"\\/\b\f\n\r\t"},
		{`"\u00e9\u20AC"`, "é€"},
		{`"\ud83d\ude00"`, "😀"},
		{`"\ud800"`, "\ufffd"},        // unpaired high surrogate
		{`"\ud800\u0041"`, "\ufffdA"}, // high surrogate, then no low one
		{`"\ude00"`, "\ufffd"},        // unpaired low surrogate
		{"\"a\xffb\"", "a\ufffdb"},    // invalid UTF-8
		{"\"é\x80\"", "é\ufffd"},      // invalid UTF-8 after valid
		{`"<&>"`, "<&>"},
		{`[]`, []any{}},
		{`[ 1 , [ ] , { } ]`, []any{int64(1), []any{}, map[string]any{}}},
		{`{"a":1,"a":2}`, map[string]any{"a": int64(2)}}, // the last wins
		{`{"":{"x":[null]}}`, map[string]any{"": map[string]any{"x": []any{nil}}}},
	}
	for _, tt := range tests {
		got, err := Decode(tt.text)
		if err != nil {
			t.Errorf("Decode(%q): %v", tt.text, err)
			continue
		}
		if !stdlib.Equal(got, tt.want) || typeOf(got) != typeOf(tt.want) {
			t.Errorf("Decode(%q) = %#v, want %#v", tt.text, got, tt.want)
		}
	}
}

func typeOf(v any) string { return stdlib.TypeName(v) }

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		text string
		want string // the whole message
	}{
		{"", "line 1, column 1: found end of text, want a value"},
		{"   ", "line 1, column 4: found end of text, want a value"},
		{"nul", `line 1, column 1: found "nul", want a value`},
		{"True", `line 1, column 1: found "True", want a value`},
		{"'a'", `line 1, column 1: found '\'', want a value`},
		{"\xef\xbb\xbf{}", `line 1, column 1: found '\ufeff', want a value`},
		{"\xff", "line 1, column 1: found byte 0xff, want a value"},
		{"[1,]", "line 1, column 4: found ']', want a value"},
		{"[1 2]", "line 1, column 4: found '2', want ',' or ']'"},
		{"[1", "line 1, column 3: found end of text, want ',' or ']'"},
		{`{"a":1,}`, "line 1, column 8: found '}', want a string key"},
		{`{a:1}`, `line 1, column 2: found "a", want a string key`},
		{"{\n  \"a\" 1}", "line 2, column 7: found '1', want ':' after the key"},
		{`{"a":1 "b":2}`, `line 1, column 8: found '"', want ',' or '}'`},
		{"[1] x", `line 1, column 5: found "x" after the value, want the end of the text`},
		{"{} {}", `line 1, column 4: found '{' after the value, want the end of the text`},
		{"\"abc", `line 1, column 5: found end of text, want '"' to close the string begun at line 1, column 1`},
		{"[\"é\n\"]", `line 1, column 4: found '\n' in a string, want it escaped`},
		{`"\x"`, `line 1, column 3: found "x" after '\', want one of " \ / b f n r t u`},
		{`"\u12g4"`, `line 1, column 6: found "g" in \u escape, want a hex digit`},
		{`"\u12`, `line 1, column 6: found end of text, want a hex digit`},
		{`"\`, `line 1, column 3: found end of text, want an escape sequence`},
		{"01", "line 1, column 2: found '1' after a leading 0, want '.', 'e' or the end of the number"},
		{"-", "line 1, column 2: found end of text, want a digit"},
		{"-a", `line 1, column 2: found "a", want a digit`},
		{"+1", "line 1, column 1: found '+', want a value"},
		{".5", "line 1, column 1: found '.', want a value"},
		{"1.", "line 1, column 3: found end of text, want a digit"},
		{"1.e5", `line 1, column 3: found "e", want a digit`},
		{"1e", "line 1, column 3: found end of text, want a digit"},
		{"1e+", "line 1, column 4: found end of text, want a digit"},
		{"[1e400]", "line 1, column 2: number 1e400 is out of range"},
		{"-" + strings.Repeat("9", 400), "line 1, column 1: number -9999999999999999999999999999999… is out of range"},
		{"ab\nçé x", `line 1, column 1: found "ab", want a value`},
		{"[\n1,\nçé]", `line 3, column 1: found 'ç', want a value`},
		{"š", `line 1, column 1: found 'š', want a value`},
	}
	for _, tt := range tests {
		_, err := Decode(tt.text)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Decode(%q): error %v is not a *SyntaxError", tt.text, err)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("Decode(%q):\n got %s\nwant %s", tt.text, err, tt.want)
		}
	}
}

func TestDecodeDepth(t *testing.T) {
	ok := strings.Repeat("[", stdlib.MaxDepth) + strings.Repeat("]", stdlib.MaxDepth)
	if _, err := Decode(ok); err != nil {
		t.Errorf("%d levels: %v", stdlib.MaxDepth, err)
	}
	okMaps := strings.Repeat(`{"a":`, stdlib.MaxDepth-1) + "{}" + strings.Repeat("}", stdlib.MaxDepth-1)
	if _, err := Decode(okMaps); err != nil {
		t.Errorf("%d levels of maps: %v", stdlib.MaxDepth, err)
	}
	// Far deeper than the limit and unterminated: refused where the limit
	// is passed, before reading further.
	deep := strings.Repeat("[", 1<<20)
	_, err := Decode(deep)
	if !errors.Is(err, stdlib.ErrTooDeep) {
		t.Fatalf("error %v, want ErrTooDeep", err)
	}
	if want := "line 1, column 513: found '[' nested deeper than 512 levels"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
}

func TestDecodeTooLarge(t *testing.T) {
	_, err := Decode(strings.Repeat(" ", MaxSize+1))
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("error %v, want ErrTooLarge", err)
	}
	if _, err := Decode(`"` + strings.Repeat("x", MaxSize-2) + `"`); err != nil {
		t.Errorf("a text of exactly MaxSize: %v", err)
	}
}

// TestDecodeDoesNotAlias checks that decoded strings do not share memory
// with the text, so a small result does not keep a large text alive.
func TestDecodeDoesNotAlias(t *testing.T) {
	text := `["abc"]`
	v, err := Decode(text)
	if err != nil {
		t.Fatal(err)
	}
	s := v.([]any)[0].(string)
	if unsafeSame(text[2:5], s) {
		t.Errorf("decoded string shares the text's memory")
	}
}

// FuzzDecode checks that decoding never panics, that anything decoded
// encodes and decodes again to an equal value, and that Decode accepts
// what encoding/json calls valid, except where hookhost is stricter on
// purpose (nesting, number range).
func FuzzDecode(f *testing.F) {
	seeds := []string{
		`null`, `true`, `0`, `-1.5e10`, `"a\u00e9\ud83d\ude00\n"`, `[]`, `{}`,
		`{"tool_name":"bash","params":{"command":"rm -rf /","timeout":30}}`,
		`[1,[2,[3,{"a":null}]]]`, `{"a":1,"a":2}`, "\"\xff\"", `"\ud800"`,
		`9223372036854775808`, `1e400`, `01`, `[1,]`, `{"a" 1}`, `"unterminated`,
		strings.Repeat("[", 600), `123456789.123456789e-300`,
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v, err := Decode(text)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("Decode(%q): error %v is neither a *SyntaxError nor ErrTooLarge", text, err)
			}
			if stdjson.Valid([]byte(text)) && !errors.Is(err, stdlib.ErrTooDeep) && !strings.Contains(err.Error(), "out of range") {
				t.Fatalf("Decode(%q): %v, but encoding/json calls it valid", text, err)
			}
			return
		}
		if !stdjson.Valid([]byte(text)) {
			t.Fatalf("Decode(%q) accepted what encoding/json calls invalid", text)
		}
		if err := stdlib.Check(v); err != nil {
			t.Fatalf("Decode(%q) gave a value Check refuses: %v", text, err)
		}
		for _, indent := range []int{0, 2} {
			enc, err := Encode(v, indent)
			if err != nil {
				t.Fatalf("Encode(Decode(%q)): %v", text, err)
			}
			v2, err := Decode(enc)
			if err != nil {
				t.Fatalf("Decode(Encode(Decode(%q))) = Decode(%q): %v", text, enc, err)
			}
			if !stdlib.Equal(v, v2) {
				t.Fatalf("round trip of %q: %#v, then %#v", text, v, v2)
			}
		}
	})
}

func unsafeSame(a, b string) bool {
	return len(a) > 0 && len(b) > 0 && unsafe.StringData(a) == unsafe.StringData(b)
}
