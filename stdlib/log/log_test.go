package log

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"math"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/hookhost/hookhost/stdlib/stdlibtest"
)

// recorder is a slog handler that keeps what it is given.
type recorder struct {
	mu      sync.Mutex
	level   slog.Level
	records []slog.Record
}

func (r *recorder) Enabled(_ context.Context, l slog.Level) bool { return l >= r.level }
func (r *recorder) WithAttrs([]slog.Attr) slog.Handler           { return r }
func (r *recorder) WithGroup(string) slog.Handler                { return r }
func (r *recorder) Handle(_ context.Context, rec slog.Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.records = append(r.records, rec)
	return nil
}

// attrs flattens a record's attributes to "key=value" strings.
func attrStrings(rec slog.Record) []string {
	var out []string
	rec.Attrs(func(a slog.Attr) bool {
		out = append(out, a.Key+"="+a.Value.String())
		return true
	})
	return out
}

func TestLevelsAndAttrs(t *testing.T) {
	tests := []struct {
		fn        string
		msg       any
		kwargs    map[string]any
		wantLevel slog.Level
		wantMsg   string
		wantAttrs string
		wantErr   string
	}{
		{fn: "debug", msg: "d", wantLevel: slog.LevelDebug, wantMsg: "d", wantAttrs: "hook=test.lua:t"},
		{fn: "info", msg: "i", wantLevel: slog.LevelInfo, wantMsg: "i", wantAttrs: "hook=test.lua:t"},
		{fn: "warn", msg: "w", wantLevel: slog.LevelWarn, wantMsg: "w", wantAttrs: "hook=test.lua:t"},
		{fn: "error", msg: "e", wantLevel: slog.LevelError, wantMsg: "e", wantAttrs: "hook=test.lua:t"},
		{fn: "info", msg: "", kwargs: map[string]any{}, wantLevel: slog.LevelInfo, wantAttrs: "hook=test.lua:t"},
		{
			fn: "info", msg: "sorted", wantLevel: slog.LevelInfo, wantMsg: "sorted",
			kwargs:    map[string]any{"tool": "bash", "calls": int64(3), "allowed": false, "ratio": 0.5, "why": nil},
			wantAttrs: "hook=test.lua:t allowed=false calls=3 ratio=0.5 tool=bash why=<nil>",
		},
		{
			fn: "warn", msg: "nested", wantLevel: slog.LevelWarn, wantMsg: "nested",
			kwargs:    map[string]any{"argv": []any{"rm", "-rf", "/"}, "m": map[string]any{"b": int64(2), "a": []any{}}},
			wantAttrs: `hook=test.lua:t argv=["rm","-rf","/"] m={"a":[],"b":2}`,
		},
		{fn: "info", msg: int64(3), wantErr: "argument 1 (msg): want string, got int"},
		{fn: "info", msg: nil, wantErr: "want string, got nil"},
		{fn: "error", msg: map[string]any{}, wantErr: "got map"},
		{fn: "info", msg: "spoof", kwargs: map[string]any{"hook": "other.lua:x"}, wantErr: `key "hook" is reserved`},
	}
	for _, tt := range tests {
		rec := &recorder{level: slog.LevelDebug}
		m := New(slog.New(rec))
		got, err := stdlibtest.CallKw(t, m, tt.fn, tt.kwargs, tt.msg)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s(%v): error %v, want %q", tt.fn, tt.msg, err, tt.wantErr)
			}
			if len(rec.records) != 0 {
				t.Errorf("%s(%v): logged despite the error", tt.fn, tt.msg)
			}
			continue
		}
		if err != nil || got != nil {
			t.Fatalf("%s(%v) = %v, %v; want nil, nil", tt.fn, tt.msg, got, err)
		}
		if len(rec.records) != 1 {
			t.Fatalf("%s(%v): %d records, want 1", tt.fn, tt.msg, len(rec.records))
		}
		r := rec.records[0]
		if r.Level != tt.wantLevel || r.Message != tt.wantMsg {
			t.Errorf("%s: logged %v %q, want %v %q", tt.fn, r.Level, r.Message, tt.wantLevel, tt.wantMsg)
		}
		if a := strings.Join(attrStrings(r), " "); a != tt.wantAttrs {
			t.Errorf("%s: attrs\n  %s\nwant\n  %s", tt.fn, a, tt.wantAttrs)
		}
	}
}

func TestBounds(t *testing.T) {
	rec := &recorder{}
	m := New(slog.New(rec))
	kwargs := map[string]any{
		strings.Repeat("k", 100): "long key",
		"big":                    strings.Repeat("é", 5000),
		"list":                   make([]any, 100000),
	}
	for i := range 40 {
		kwargs["n"+strconv.Itoa(i+10)] = int64(i)
	}
	if _, err := stdlibtest.CallKw(t, m, "info", kwargs, strings.Repeat("€", 3000)); err != nil {
		t.Fatal(err)
	}
	r := rec.records[0]
	if !utf8.ValidString(r.Message) || !strings.HasSuffix(r.Message, "…[truncated 4905 bytes]") ||
		len(r.Message) > MaxMessage+40 {
		t.Errorf("message not cut as expected: %d bytes ending %q", len(r.Message), r.Message[len(r.Message)-30:])
	}
	n := 0
	r.Attrs(func(a slog.Attr) bool {
		n++
		if len(a.Key) > MaxKey+40 {
			t.Errorf("key of %d bytes kept", len(a.Key))
		}
		if s := a.Value.String(); len(s) > MaxValue+40 || !utf8.ValidString(s) {
			t.Errorf("%s: value of %d bytes kept, or invalid UTF-8", a.Key, len(s))
		}
		if a.Key == DroppedKey && a.Value.Int64() != 11 {
			t.Errorf("dropped_attrs = %v, want 11", a.Value)
		}
		return true
	})
	if n != 1+MaxAttrs+1 {
		t.Errorf("%d attrs, want hook + %d + %s", n, MaxAttrs, DroppedKey)
	}
}

func TestDisabledLevel(t *testing.T) {
	rec := &recorder{level: slog.LevelWarn}
	m := New(slog.New(rec))
	if _, err := stdlibtest.CallKw(t, m, "info", nil, "quiet"); err != nil {
		t.Fatal(err)
	}
	if len(rec.records) != 0 {
		t.Errorf("info logged at warn level")
	}
	if _, err := stdlibtest.CallKw(t, m, "debug", nil, int64(1)); err == nil {
		t.Errorf("a bad call at a disabled level did not fail")
	}
}

func TestNilLogger(t *testing.T) {
	m := New(nil)
	if got, err := stdlibtest.CallKw(t, m, "error", map[string]any{"a": int64(1)}, "x"); got != nil || err != nil {
		t.Errorf("= %v, %v", got, err)
	}
}

// A real handler end to end: one JSON line with the hook first.
func TestJSONHandler(t *testing.T) {
	var buf bytes.Buffer
	m := New(slog.New(slog.NewJSONHandler(&buf, nil)))
	kwargs := map[string]any{"n": int64(5), "tool": "<web_search>", "inf": math.Inf(-1)}
	if _, err := stdlibtest.CallKw(t, m, "warn", kwargs, "denied"); err != nil {
		t.Fatal(err)
	}
	var line map[string]any
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
		t.Fatalf("%v: %s", err, buf.String())
	}
	if line["msg"] != "denied" || line["hook"] != "test.lua:t" || line["n"] != 5.0 || line["level"] != "WARN" ||
		line["inf"] != "-Inf" {
		t.Errorf("line = %s", buf.String())
	}
	if !strings.Contains(buf.String(), `{"time":`) || strings.Index(buf.String(), `"hook"`) > strings.Index(buf.String(), `"n"`) {
		t.Errorf("hook is not the first attribute: %s", buf.String())
	}
}

func TestModuleShape(t *testing.T) {
	m := New(nil)
	if m.Name != "log" || len(m.Funcs) != 4 {
		t.Fatalf("module %q with %d funcs", m.Name, len(m.Funcs))
	}
	for _, f := range m.Funcs {
		if !f.Kwargs || f.Blocking || f.Doc == "" || len(f.Params) != 1 {
			t.Errorf("%s: want one param, kwargs, doc, not blocking", f.Name)
		}
	}
}
