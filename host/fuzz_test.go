package host

import (
	"testing"
)

// FuzzParseConfig: any bytes as hookhost.yaml give a config or an error,
// never a panic, and a parsed config resolves or errors cleanly.
func FuzzParseConfig(f *testing.F) {
	for _, seed := range []string{
		"defaults: { timeout: 1s }\n",
		"events:\n  tool.approve: { timeout: 5s, timeout_behavior: deny }\n  x: { mode: chain, actions: [allow, deny] }\n",
		"hooks:\n  \"a.lua\": { priority: 80, timeouts: { tool.execute.pre: 500 }, config: { k: [1, {a: b}] } }\n",
		"hooks: [\n", "", "~", "hooks:\n  a.lua:x: {enabled: true}\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := ParseConfig("c.yaml", data)
		if err != nil {
			return
		}
		_, _ = resolveEvents(AgentEvents(), cfg)
	})
}

// FuzzParseReply: whatever a hook returns (as JSON-shaped values) parses
// into a reply or an error, never a panic.
func FuzzParseReply(f *testing.F) {
	for _, seed := range []string{
		`{"action":"deny","reason":"x"}`, `{"action":"ask","approval":{"timeout":"2s","timeout_behavior":"allow"}}`,
		`{"messages":[{"role":"user","content":"c"},"x"]}`, `{"action":"modify","fields":{"a":[1,2]}}`,
		`{"stop":true,"action":"respond","result":null}`, `[1]`, `"deny"`, `{"approval":5}`,
	} {
		f.Add([]byte(seed))
	}
	specs := AgentEvents()
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := normalizeJSON(data)
		if err != nil {
			return
		}
		for i := range specs {
			spec, _ := specs[i].normalized()
			_, _ = parseReply(v, &spec)
		}
	})
}
