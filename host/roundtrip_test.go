package host

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/hookhost/hookhost/stdlib"
)

// echoHost loads one hook per language that returns what it got: as a
// respond result, or as a modify of the same field.
func echoHost(t *testing.T, ext string) *Host {
	t.Helper()
	fsys := fstest.MapFS{
		"echo.lua": {Data: []byte(`
hook.on("echo", function(v, how)
  if how == "modify" then return hook.modify({ v = v }) end
  return hook.respond(v)
end, { name = "echo" })`)},
		"echo.star": {Data: []byte(`
def echo(v, how):
    if how == "modify":
        return hook.modify({"v": v})
    return hook.respond(v)

hook.on("echo", echo)`)},
	}
	delete(fsys, map[string]string{"lua": "echo.star", "star": "echo.lua"}[ext])
	h, err := New(context.Background(), Options{FS: fsys, NoAgentEvents: true,
		Events: []EventSpec{{Name: "echo", Mode: Chain, Actions: []Action{Respond, Modify}}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// TestRoundTrip checks that neutral values survive the trip into each
// language and back unchanged — the one conversion table both engines
// pass.
func TestRoundTrip(t *testing.T) {
	values := []string{
		`true`, `false`, `0`, `-5`, `9007199254740992`, `1.5`, `-0.25`, `1e300`,
		`""`, `"ünïcödé \u0000 nul"`, `[1,2,3]`, `["a",["b",["c"]]]`,
		`{"a":{"b":[1,{"c":"d"}]},"e":[]}`, `{"k":{}}`, `[[],[[]],{}]`,
	}
	for _, ext := range []string{"lua", "star"} {
		h := echoHost(t, ext)
		for _, text := range values {
			want := decode(t, text)
			for _, how := range []string{"respond", "modify"} {
				r, err := h.Fire(context.Background(), "echo", map[string]any{"v": want, "how": how})
				if err != nil {
					t.Fatal(err)
				}
				got := r.Decision.Result
				if how == "modify" {
					got = r.Payload["v"]
				}
				if !stdlib.Equal(got, want) && !(ext == "lua" && how == "respond" && emptyListsOnly(want)) {
					t.Errorf("%s %s %s: got %s (%v)", ext, how, text, show(got), r.Trace)
				}
			}
		}
	}
}

// emptyListsOnly reports whether v holds an empty list: Lua cannot tell
// one from an empty map, and a respond result has no payload to take the
// hint from, so it comes back as {}.
func emptyListsOnly(v any) bool {
	switch v := v.(type) {
	case []any:
		if len(v) == 0 {
			return true
		}
		for _, e := range v {
			if emptyListsOnly(e) {
				return true
			}
		}
	case map[string]any:
		for _, e := range v {
			if emptyListsOnly(e) {
				return true
			}
		}
	}
	return false
}

func decode(t *testing.T, text string) any {
	t.Helper()
	var raw any
	if err := json.Unmarshal([]byte(text), &raw); err != nil {
		t.Fatal(err)
	}
	v, err := stdlib.Normalize(raw)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func show(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestRoundTripLuaNumbers: Lua numbers are doubles, so whole numbers
// within ±2^53 come back as integers and larger ones as floats.
func TestRoundTripLuaNumbers(t *testing.T) {
	h := echoHost(t, "lua")
	for _, c := range []struct {
		in   any
		want any
	}{
		{int64(42), int64(42)},
		{float64(42), int64(42)},
		{int64(1) << 53, int64(1) << 53},
		{int64(1)<<53 + 2, float64(1<<53 + 2)},
	} {
		r, err := h.Fire(context.Background(), "echo", map[string]any{"v": c.in})
		if err != nil {
			t.Fatal(err)
		}
		if r.Decision.Result != c.want {
			t.Errorf("%v: got %#v, want %#v", c.in, r.Decision.Result, c.want)
		}
	}
}

// normalizeJSON decodes JSON text into a neutral value.
func normalizeJSON(data []byte) (any, error) {
	var raw any
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	return stdlib.Normalize(raw)
}

// nestLists returns a value of n nested lists around "x".
func nestLists(n int) any {
	v := any("x")
	for range n {
		v = []any{v}
	}
	return v
}

// TestRoundTripDeepest: a payload nested as deeply as Fire accepts (the
// payload object and 511 levels below it) comes back through hook.modify
// and hook.respond unchanged, although the decision wraps it in more
// levels; one level more is refused with a short path.
func TestRoundTripDeepest(t *testing.T) {
	deepest := nestLists(stdlib.MaxDepth - 1)
	if err := stdlib.Check(map[string]any{"v": deepest}); err != nil {
		t.Fatalf("the deepest payload is refused by Check: %v", err)
	}
	scripts := map[string]string{
		"lua": `
hook.on("echo", function(v, how)
  if how == "modify" then return hook.modify({ w = v }) end
  return hook.respond(v)
end, { name = "copy" })`,
		"star": `
def copy(v, how):
    if how == "modify":
        return hook.modify({"w": v})
    return hook.respond(v)

hook.on("echo", copy)`,
	}
	for ext, code := range scripts {
		h := deepHost(t, ext, code)
		for _, how := range []string{"respond", "modify"} {
			r, err := h.Fire(context.Background(), "echo", map[string]any{"v": deepest, "how": how})
			if err != nil {
				t.Fatal(err)
			}
			got := r.Decision.Result
			if how == "modify" {
				got = r.Payload["w"]
			}
			if r.Decision.Action != Action(how) || !stdlib.Equal(got, deepest) {
				t.Errorf("%s %s: the 512-level payload did not come back: %v: %.300s", ext, how, r.Decision.Action, r.Trace[0].Error)
			}
		}
		_, err := h.Fire(context.Background(), "echo", map[string]any{"v": nestLists(stdlib.MaxDepth), "how": "modify"})
		if !errors.Is(err, ErrBadPayload) || !errors.Is(err, stdlib.ErrTooDeep) || len(err.Error()) > 120 {
			t.Errorf("%s: a 513-level payload: got %v, want a short ErrBadPayload naming the place", ext, err)
		}
	}
}

// deepHost is a host of one script for the event echo (chain: modify,
// respond).
func deepHost(t *testing.T, ext, code string) *Host {
	t.Helper()
	h, err := New(context.Background(), Options{FS: fstest.MapFS{"deep." + ext: {Data: []byte(code)}}, NoAgentEvents: true,
		Events: []EventSpec{{Name: "echo", Mode: Chain, Actions: []Action{Modify, Respond}}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// TestReturnTooDeep: a hook that returns fields nested one level deeper
// than a payload may fails with an error whose path is short, whether it
// used the constructor or wrote the decision by hand.
func TestReturnTooDeep(t *testing.T) {
	scripts := map[string]string{
		"lua": `
hook.on("echo", function(v, how)
  if how == "plain" then return { action = "modify", fields = { v = { v } } } end
  return hook.modify({ v = { v } })
end, { name = "wrap" })`,
		"star": `
def wrap(v, how):
    if how == "plain":
        return {"action": "modify", "fields": {"v": [v]}}
    return hook.modify({"v": [v]})

hook.on("echo", wrap)`,
	}
	for ext, code := range scripts {
		h := deepHost(t, ext, code)
		first := map[string]string{"lua": "[1]", "star": "[0]"}[ext]
		for how, want := range map[string]string{
			"ctor":  "hook.modify: argument 1 (fields): v" + first + "×511: value nests deeper than 512 levels",
			"plain": "bad return value: fields.v" + first + "×511: value nests deeper than 512 levels",
		} {
			r, err := h.Fire(context.Background(), "echo", map[string]any{"v": nestLists(stdlib.MaxDepth - 1), "how": how})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Trace) != 1 || r.Trace[0].Outcome != OutcomeError || !strings.HasSuffix(r.Trace[0].Error, want) {
				t.Errorf("%s %s: trace %+v, want an error ending %q", ext, how, r.Trace, want)
			}
		}
	}
}
