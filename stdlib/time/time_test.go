package time

import (
	"math"
	"strings"
	"testing"
	stdtime "time"

	"github.com/hookhost/hookhost/stdlib"
	"github.com/hookhost/hookhost/stdlib/stdlibtest"
)

// fixed is the clock the tests run under: 2024-03-05T06:07:08.009Z.
var fixed = stdtime.Date(2024, 3, 5, 6, 7, 8, 9e6, stdtime.UTC)

const fixedMS = int64(1709618828009)

func TestFunctions(t *testing.T) {
	m := New(func() stdtime.Time { return fixed })
	tests := []struct {
		fn      string
		args    []any
		want    any
		wantErr string
	}{
		{"now", nil, fixedMS, ""},

		{"parse_duration", []any{"1m30s"}, int64(90000), ""},
		{"parse_duration", []any{" 250ms "}, int64(250), ""},
		{"parse_duration", []any{"1500us"}, int64(1), ""},
		{"parse_duration", []any{int64(42)}, int64(42), ""},
		{"parse_duration", []any{float64(7)}, int64(7), ""},
		{"parse_duration", []any{"0s"}, int64(0), ""},
		{"parse_duration", []any{"soon"}, nil, `bad duration "soon"`},
		{"parse_duration", []any{"-1s"}, nil, "must not be negative"},
		{"parse_duration", []any{int64(-5)}, nil, "must not be negative"},
		{"parse_duration", []any{true}, nil, "argument 1 (d)"},
		{"parse_duration", []any{nil}, nil, "got nil"},
		{"parse_duration", []any{int64(math.MaxInt64)}, nil, "too long"},

		{"since", []any{fixedMS - 1500}, int64(1500), ""},
		{"since", []any{fixedMS + 10}, int64(-10), ""},
		{"since", []any{float64(fixedMS)}, int64(0), ""},
		{"since", []any{int64(0)}, fixedMS, ""},
		{"since", []any{int64(math.MinInt64)}, nil, "out of range"},
		{"since", []any{int64(-math.MaxInt64)}, nil, "out of range"},
		{"since", []any{"yesterday"}, nil, "argument 1 (t): want integer, got string"},
		{"since", []any{1.5}, nil, "want integer"},
		{"since", []any{nil}, nil, "got nil"},

		{"format", []any{int64(0)}, "1970-01-01T00:00:00Z", ""},
		{"format", []any{fixedMS}, "2024-03-05T06:07:08Z", ""},
		{"format", []any{fixedMS, "rfc3339"}, "2024-03-05T06:07:08Z", ""},
		{"format", []any{fixedMS, "RFC3339ms"}, "2024-03-05T06:07:08.009Z", ""},
		{"format", []any{fixedMS, "date"}, "2024-03-05", ""},
		{"format", []any{fixedMS, "time"}, "06:07:08", ""},
		{"format", []any{fixedMS, "datetime"}, "2024-03-05 06:07:08", ""},
		{"format", []any{fixedMS, "15"}, "06", ""},
		{"format", []any{fixedMS, "Monday 02 Jan"}, "Tuesday 05 Mar", ""},
		{"format", []any{int64(-1000)}, "1969-12-31T23:59:59Z", ""},
		{"format", []any{fixedMS, "rfc339"}, nil, `unknown layout "rfc339"`},
		{"format", []any{fixedMS, "iso"}, nil, `unknown layout "iso"`},
		{"format", []any{fixedMS, "20060102"}, "20240305", ""},
		{"format", []any{fixedMS, "at noon"}, nil, `layout "at noon" has no time fields`},
		{"format", []any{fixedMS, ""}, nil, "has no time fields"},
		{"format", []any{fixedMS, strings.Repeat("2006", 40)}, nil, "longer than 128"},
		{"format", []any{fixedMS, int64(3)}, nil, "argument 2 (layout): want string, got int"},
		{"format", []any{"now"}, nil, "argument 1 (t)"},
	}
	for _, tt := range tests {
		got, err := stdlibtest.Call(t, m, tt.fn, tt.args...)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s%v: error %v, want one containing %q", tt.fn, tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !stdlib.Equal(got, tt.want) {
			t.Errorf("%s%v = %#v, %v; want %#v", tt.fn, tt.args, got, err, tt.want)
		}
		if _, isInt := tt.want.(int64); isInt {
			if _, ok := got.(int64); !ok {
				t.Errorf("%s%v = %T, want int64", tt.fn, tt.args, got)
			}
		}
	}
}

// Extreme instants must format without panicking, whatever the text.
func TestFormatExtremes(t *testing.T) {
	m := New(nil)
	for _, ms := range []int64{math.MinInt64, math.MaxInt64, -62135596800001, 253402300800000} {
		for _, layout := range []any{nil, "rfc3339ms", "2006 Jan _2 .000"} {
			if _, err := stdlibtest.Call(t, m, "format", ms, layout); err != nil {
				t.Errorf("format(%d, %v): %v", ms, layout, err)
			}
		}
	}
}

func TestNilClockIsSystemClock(t *testing.T) {
	m := New(nil)
	before := stdtime.Now().UnixMilli()
	got, err := stdlibtest.Call(t, m, "now")
	after := stdtime.Now().UnixMilli()
	if err != nil {
		t.Fatal(err)
	}
	if n := got.(int64); n < before || n > after {
		t.Errorf("now() = %d, want within [%d, %d]", n, before, after)
	}
}

// The clock is read on every call, never cached at construction.
func TestClockIsReadPerCall(t *testing.T) {
	now := fixed
	m := New(func() stdtime.Time { return now })
	now = now.Add(2 * stdtime.Second)
	got, err := stdlibtest.Call(t, m, "since", fixedMS)
	if err != nil || got != int64(2000) {
		t.Errorf("since = %v, %v; want 2000", got, err)
	}
}

func TestModuleShape(t *testing.T) {
	m := New(nil)
	if m.Name != "time" {
		t.Errorf("Name = %q", m.Name)
	}
	for _, f := range m.Funcs {
		if f.Impl == nil || f.Doc == "" || f.Kwargs || f.Blocking {
			t.Errorf("%s: want Impl, Doc, no kwargs, not blocking", f.Name)
		}
	}
}
