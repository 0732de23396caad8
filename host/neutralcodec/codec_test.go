package neutralcodec

import (
	"math"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/stdlib"
)

func TestCodecRoundTrip(t *testing.T) {
	for _, v := range []any{
		nil, true, false, int64(0), int64(-1), int64(math.MaxInt64), int64(math.MinInt64), 2.0, -0.5, math.MaxFloat64,
		"", "ünï\x00code", []any{}, map[string]any{}, []any{int64(1), "a", nil, []any{map[string]any{"k": 2.5}}},
		map[string]any{"a": map[string]any{"b": []any{true}}, "": int64(3)},
	} {
		b, err := Append(nil, v)
		if err != nil {
			t.Fatalf("%v: %v", v, err)
		}
		got, err := Decode(b)
		if err != nil || !stdlib.Equal(got, v) {
			t.Errorf("%#v came back as %#v, %v", v, got, err)
		}
		if f, ok := v.(float64); ok {
			if _, isFloat := got.(float64); !isFloat || got != f {
				t.Errorf("%v lost its kind: %#v", v, got)
			}
		}
	}
}

// A corrupt or hostile message is an error, never a panic or a huge
// allocation.
func FuzzDecode(f *testing.F) {
	for _, v := range []any{map[string]any{"id": int64(1), "value": []any{"x", 1.5}}, "s", []any{nil}} {
		b, _ := Append(nil, v)
		f.Add(b)
	}
	f.Add([]byte{tagList, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := Decode(b)
		if err != nil {
			return
		}
		again, err := Append(nil, v)
		if err != nil {
			t.Fatalf("decoded %#v does not encode: %v", v, err)
		}
		if w, err := Decode(again); err != nil || !stdlib.Equal(v, w) {
			t.Fatalf("re-encoding changed %#v to %#v (%v)", v, w, err)
		}
	})
}

// What is not a neutral value, or nests past MaxDepth, is an error
// naming why.
func TestAppendRefuses(t *testing.T) {
	deep := any(int64(1))
	for range MaxDepth + 1 {
		deep = []any{deep}
	}
	for _, tc := range []struct {
		v    any
		want string
	}{
		{map[string]any{"f": func() {}}, "func() is not a neutral value"},
		{[]any{int32(1)}, "int32 is not a neutral value"},
		{deep, ErrTooDeep.Error()},
	} {
		if _, err := Append(nil, tc.v); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Append(%T): %v, want %q", tc.v, err, tc.want)
		}
	}
}

// Bytes no value encodes to are ErrCorrupt.
func TestDecodeRefuses(t *testing.T) {
	nan := append([]byte{tagFloat}, 0x7f, 0xf8, 0, 0, 0, 0, 0, 1)
	for name, b := range map[string][]byte{
		"empty":          nil,
		"unknown tag":    {'x'},
		"trailing bytes": {tagNil, tagNil},
		"short string":   {tagString, 5, 'a'},
		"huge count":     {tagList, 0xff, 0xff, 0xff, 0xff, 0x0f},
		"short float":    {tagFloat, 0},
		"NaN":            nan,
		"bad varint":     {tagInt, 0x80},
	} {
		if _, err := Decode(b); err != ErrCorrupt {
			t.Errorf("%s: %v, want ErrCorrupt", name, err)
		}
	}
}
