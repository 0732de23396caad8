package host

import (
	"context"
	"encoding/json"
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
