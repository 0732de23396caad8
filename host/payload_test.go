package host

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
)

// nested is v inside n lists.
func nested(v any, n int) any {
	for range n {
		v = []any{v}
	}
	return v
}

// Whichever field holds a value that is not neutral — one the first hook
// binds (which its engine checks as it converts it), one it does not, one
// a **kwargs takes — Fire refuses the payload with stdlib.Check's error
// before any script runs, in both languages; a payload Check accepts, up
// to the last level of nesting, reaches the hook.
func TestBadPayloadWhateverTheHookBinds(t *testing.T) {
	hooks := map[string]string{
		"named.star":  "def h(tool_name, params):\n    print(\"ran\")\n\nhook.on(\"tool.execute.pre\", h)\n",
		"ctx.star":    "def h(ctx, tool_name):\n    print(\"ran\")\n\nhook.on(\"tool.execute.pre\", h)\n",
		"kwargs.star": "def h(**fields):\n    print(\"ran\")\n\nhook.on(\"tool.execute.pre\", h)\n",
		"named.lua":   "hook.on(\"tool.execute.pre\", function(tool_name, params) print(\"ran\") end, { name = \"h\" })\n",
		"ctx.lua":     "hook.on(\"tool.execute.pre\", function(ctx, tool_name) print(\"ran\") end, { name = \"h\" })\n",
		"vararg.lua":  "hook.on(\"tool.execute.pre\", function(tool_name, ...) print(\"ran\") end, { name = \"h\" })\n",
	}
	payloads := []struct {
		name    string
		payload map[string]any
	}{
		{"bound field", map[string]any{"tool_name": "bash", "params": map[string]any{"n": 5}}},
		{"NaN in a bound field", map[string]any{"tool_name": "bash", "params": map[string]any{"x": []any{math.NaN()}}}},
		{"bound field too deep", map[string]any{"tool_name": "bash", "params": nested("x", stdlib.MaxDepth)}},
		{"unbound field", map[string]any{"tool_name": "bash", "other": struct{}{}}},
		{"a field named ctx", map[string]any{"tool_name": "bash", "ctx": int32(1)}},
		{"deepest accepted", map[string]any{"tool_name": "bash", "params": nested("x", stdlib.MaxDepth-1)}},
		{"deepest accepted, unbound", map[string]any{"tool_name": "bash", "other": nested("x", stdlib.MaxDepth-1)}},
		{"good", map[string]any{"tool_name": "bash", "params": map[string]any{"command": "ls"}, "cwd": "/"}},
	}
	for file, src := range hooks {
		var logs bytes.Buffer
		h := newTestHost(t, map[string]string{file: src}, Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
		for _, p := range payloads {
			t.Run(file+"/"+p.name, func(t *testing.T) {
				logs.Reset()
				_, err := h.Fire(context.Background(), "tool.execute.pre", p.payload)
				ran := strings.Contains(logs.String(), "msg=ran")
				want := stdlib.Check(p.payload)
				if want == nil {
					if err != nil || !ran {
						t.Fatalf("a neutral payload: %v (the hook ran: %v)", err, ran)
					}
					return
				}
				if !errors.Is(err, ErrBadPayload) || err.Error() != "bad payload: "+want.Error() {
					t.Fatalf("got %v, want bad payload: %v", err, want)
				}
				if ran {
					t.Fatal("the hook ran on a bad payload")
				}
			})
		}
	}
}

// A fire that calls no hook after all — its context ended first, or
// strict mode answers deny — still refuses a payload whose bad field only
// the first hook's binding would have checked.
func TestBadPayloadWithoutTheFirstCall(t *testing.T) {
	bad := map[string]any{"tool_name": "bash", "params": map[string]any{"n": 5}}
	src := map[string]string{"a.star": "def h(tool_name, params):\n    return hook.deny(\"no\")\n\nhook.on(\"tool.execute.pre\", h)\n"}
	h := newTestHost(t, src, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := h.Fire(ctx, "tool.execute.pre", bad); !errors.Is(err, ErrBadPayload) {
		t.Errorf("a cancelled fire: got %v, want a bad payload", err)
	}
	src["broken.star"] = "def"
	strict := newTestHostAllowProblems(t, src)
	strict.Close()
	strict, err := New(context.Background(), Options{FS: strict.fsys, Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	defer strict.Close()
	if _, err := strict.Fire(context.Background(), "tool.execute.pre", bad); !errors.Is(err, ErrBadPayload) {
		t.Errorf("strict mode: got %v, want a bad payload", err)
	}
}

// A first hook whose call fails before its binding has checked every
// field it names — a Lua function naming one field twice, a binding that
// reaches the call's memory limit on an earlier field — still leaves no
// bad field unchecked: the fire is a bad payload and no script sees it,
// in both languages.
func TestBadPayloadWhenTheFirstBindingStopsShort(t *testing.T) {
	tooDeep := nested("x", stdlib.MaxDepth)
	// big is charged far past 4 KiB when it is bound (every entry counts).
	big := map[string]any{}
	for i := range 500 {
		big[fmt.Sprint("k", i)] = int64(i)
	}
	cases := []struct {
		name, file, src string
		limits          scripting.Limits
		payload         map[string]any
	}{
		{"lua: a field named twice", "dup.lua",
			"hook.on(\"tool.execute.pre\", function(params, params) print(\"ran\") end, { name = \"h\" })\n",
			scripting.Limits{}, map[string]any{"params": "x", "other": []any{math.NaN()}}},
		{"lua: the memory limit on an earlier field", "mem.lua",
			"hook.on(\"tool.execute.pre\", function(big, params) print(\"ran\") end, { name = \"h\" })\n",
			scripting.Limits{MaxCallMemory: 4096}, map[string]any{"big": big, "params": tooDeep}},
		{"star: the memory limit on an earlier field", "mem.star",
			"def h(big, params):\n    print(\"ran\")\n\nhook.on(\"tool.execute.pre\", h)\n",
			scripting.Limits{MaxCallMemory: 4096}, map[string]any{"big": big, "params": tooDeep}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var logs bytes.Buffer
			h := newTestHost(t, map[string]string{c.file: c.src}, Options{Limits: c.limits, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			want := stdlib.Check(c.payload)
			if want == nil {
				t.Fatal("the test payload must be bad")
			}
			res, err := h.Fire(context.Background(), "tool.execute.pre", c.payload)
			if !errors.Is(err, ErrBadPayload) || err.Error() != "bad payload: "+want.Error() {
				t.Fatalf("got %v (decision %+v), want bad payload: %v", err, res.Decision, want)
			}
			if strings.Contains(logs.String(), "msg=ran") {
				t.Fatal("the hook ran on a bad payload")
			}
		})
	}
	// The same hooks on a good payload: the memory-limit failure is the
	// hook's own error, not a bad payload.
	h := newTestHost(t, map[string]string{"mem.star": cases[2].src}, Options{Limits: scripting.Limits{MaxCallMemory: 4096}})
	res, err := h.Fire(context.Background(), "tool.execute.pre", map[string]any{"big": big, "params": "fine"})
	if err != nil || len(res.Trace) != 1 || !strings.Contains(res.Trace[0].Error, "memory limit") {
		t.Fatalf("a good payload over the call's memory limit: %v %+v", err, res.Trace)
	}
}
