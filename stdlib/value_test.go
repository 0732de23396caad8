package stdlib

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

func TestCheck(t *testing.T) {
	deep := any("x")
	for i := 0; i < MaxDepth+1; i++ {
		deep = []any{deep}
	}
	for _, c := range []struct {
		v    any
		want string
	}{
		{map[string]any{"a": []any{int64(1), "x", nil, true, 1.5, map[string]any{}}}, ""},
		{map[string]any{"a": []any{int64(1), map[string]any{"b": 1}}}, "a[1].b: int is not a neutral value"},
		{map[string]any{"a": math.NaN()}, "a: NaN cannot be represented"},
		{[]any{[]any{math.Inf(1)}}, "[0][0]: +Inf cannot be represented"},
		{deep, "[0]×512: value nests deeper than 512 levels"},
		{struct{}{}, "value: struct {} is not a neutral value"},
	} {
		err := Check(c.v)
		if (c.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("Check(%v) = %v, want %q", c.v, err, c.want)
		}
	}
}

// CheckField(k, v) says what Check says of a map holding only v at k.
func TestCheckField(t *testing.T) {
	deep := func(n int) any {
		v := any("x")
		for i := 0; i < n; i++ {
			v = []any{v}
		}
		return v
	}
	for _, v := range []any{"ok", map[string]any{"b": 1}, []any{math.NaN()}, deep(MaxDepth - 1), deep(MaxDepth), deep(MaxDepth + 1), struct{}{}} {
		got, want := CheckField("a", v), Check(map[string]any{"a": v})
		if (got == nil) != (want == nil) || got != nil && got.Error() != want.Error() {
			t.Errorf("CheckField(a, %.40v) = %v, want %v", v, got, want)
		}
	}
}

func TestPathName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "value"},
		{"params.args[2]", "params.args[2]"},
		{"v[1][1][1]", "v[1][1][1]"},
		{"v" + strings.Repeat("[1]", 510), "v[1]×510"},
		{"fields.v" + strings.Repeat("[0]", 4) + ".k[2]", "fields.v[0]×4.k[2]"},
		{"a" + strings.Repeat(".a", 5), "a.a×5"},
		{strings.Repeat("[0][1]", 3), "[0][1][0][1][0][1]"},
		{"x.y.z[0][0][0][0][0].w", "x.y.z[0]×5.w"},
		{"params." + strings.Repeat("k", 1<<20), "params." + strings.Repeat("k", maxPathName-len("params.")) + "…"},
		{strings.Repeat("é", 200), strings.Repeat("é", maxPathName/2) + "…"},
	} {
		if got := PathName(c.in); got != c.want {
			t.Errorf("PathName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestCheckAllocatesNothing(t *testing.T) {
	v := map[string]any{"tool_name": "bash", "params": map[string]any{"command": "ls", "args": []any{"-l", int64(2)}}}
	if n := testing.AllocsPerRun(100, func() { _ = Check(v) }); n != 0 {
		t.Errorf("Check allocates %v times", n)
	}
}

func TestNormalize(t *testing.T) {
	var raw any
	_ = json.Unmarshal([]byte(`{"a":[1,2.5,"x",null,true],"b":{"c":{}}}`), &raw)
	v, err := Normalize(map[string]any{"json": raw, "int": 5, "u8": uint8(3), "strs": []string{"a"}, "dur": 2 * time.Second, "f32": float32(0.5)})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"json": map[string]any{"a": []any{int64(1), 2.5, "x", nil, true}, "b": map[string]any{"c": map[string]any{}}},
		"int": int64(5), "u8": int64(3), "strs": []any{"a"}, "dur": int64(2000), "f32": 0.5}
	if !Equal(v, want) {
		t.Errorf("got %#v", v)
	}
	if _, err := Normalize(map[string]any{"x": uint64(math.MaxUint64)}); err == nil {
		t.Error("uint64 overflow accepted")
	}
	if _, err := Normalize(map[string]any{"x": []int{1}}); err == nil || !strings.Contains(err.Error(), "x: []int is not a neutral value") {
		t.Errorf("[]int: %v", err)
	}
}

// TestNormalizeNumberOutOfRange checks that a number past float64's
// range is an error naming its path and quoting only its start: strconv's
// own error quoted all of it, two megabytes on stderr for a payload of a
// 2-million-digit number.
func TestNormalizeNumberOutOfRange(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{map[string]any{"params": map[string]any{"n": json.Number(strings.Repeat("9", 2_000_000))}},
			"params.n: number " + strings.Repeat("9", 32) + "… is out of range"},
		{map[string]any{"a": []any{json.Number("-1e999")}}, "a[0]: number -1e999 is out of range"},
		{map[string]any{strings.Repeat("k", 1<<20): json.Number("1e400")}, strings.Repeat("k", maxPathName) + "…: number 1e400 is out of range"},
	} {
		_, err := Normalize(c.v)
		if err == nil || err.Error() != c.want {
			t.Errorf("got %.300v, want %.300q", err, c.want)
		}
	}
}

func TestEqualAndCopy(t *testing.T) {
	a := map[string]any{"l": []any{int64(1), 2.0, map[string]any{"x": nil}}}
	b := Copy(a).(map[string]any)
	if !Equal(a, b) || !Equal(int64(2), 2.0) || Equal([]any{}, map[string]any{}) || Equal(nil, false) {
		t.Error("Equal")
	}
	b["l"].([]any)[2].(map[string]any)["x"] = "changed"
	if a["l"].([]any)[2].(map[string]any)["x"] != nil {
		t.Error("Copy shares")
	}
}

func TestParseDuration(t *testing.T) {
	for _, c := range []struct {
		v    any
		want time.Duration
		err  string
	}{
		{"250ms", 250 * time.Millisecond, ""},
		{" 2s ", 2 * time.Second, ""},
		{int64(1500), 1500 * time.Millisecond, ""},
		{1.5, 1500 * time.Microsecond, ""},
		{"-1s", 0, "negative"},
		{"soon", 0, "bad duration"},
		{true, 0, "got bool"},
		{int64(math.MaxInt64), 0, "too long"},
	} {
		d, err := ParseDuration(c.v)
		if d != c.want || (c.err == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("ParseDuration(%v) = %v, %v", c.v, d, err)
		}
	}
}
