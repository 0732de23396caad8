package examples

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/hookhost/hookhost/host"
)

// The redaction guards (the shipped pack, the samples, and the guardrail
// of docs/stdlib.md) must not fail open on long output: tool.execute.post
// cannot deny, so a guard that errors (a text past re's 4 MiB limit) or
// times out lets the output through unredacted. Each bounds what it
// scans, withholds the rest, and cuts only at whitespace.

// redactScan is the guards' SCAN: what they scan before withholding.
const redactScan = 256 << 10

// A redactGuard is one guard's files, as a host serves them.
type redactGuard struct {
	name string
	dir  string       // a hooks directory, or
	fsys fstest.MapFS // the files themselves
}

func redactGuards(t *testing.T) []redactGuard {
	guards := []redactGuard{{name: "hooks.d/redact-secrets", dir: "../hooks.d"}}
	for _, f := range []string{"redact_secrets.lua", "redact_secrets.star"} {
		data, err := os.ReadFile("hooks/" + f)
		if err != nil {
			t.Fatal(err)
		}
		guards = append(guards, redactGuard{name: "examples/hooks/" + f, fsys: fstest.MapFS{f: {Data: data}}})
	}
	// The guardrail of docs/stdlib.md: its Lua and its Starlark block.
	doc, err := os.ReadFile("../docs/stdlib.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "### Guardrail: redact secrets")
	if !ok {
		t.Fatal("docs/stdlib.md has no redaction guardrail")
	}
	blocks := regexp.MustCompile("(?s)```(lua|python)\n(.*?)```").FindAllStringSubmatch(section, 2)
	if len(blocks) != 2 {
		t.Fatalf("docs/stdlib.md's redaction guardrail has %d code blocks, want 2", len(blocks))
	}
	for _, b := range blocks {
		file := map[string]string{"lua": "redact.lua", "python": "redact.star"}[b[1]]
		guards = append(guards, redactGuard{name: "docs/stdlib.md " + file, fsys: fstest.MapFS{file: {Data: []byte(b[2])}}})
	}
	return guards
}

// fireRedact fires tool.execute.post with result through the guard, with
// a generous deadline (the race detector slows matching tenfold), and
// returns the result the model would see.
func fireRedact(t *testing.T, g redactGuard, result any) (host.Action, any) {
	t.Helper()
	cfg, err := host.ParseConfig("hookhost.yaml", []byte("defaults: { timeout: 60s }\n"))
	if err != nil {
		t.Fatal(err)
	}
	opts := host.Options{Dir: g.dir, Config: cfg}
	if g.fsys != nil {
		opts = host.Options{FS: g.fsys, Config: cfg}
	}
	h, err := host.New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if p := h.Problems(); len(p) > 0 {
		t.Fatalf("problems: %v", p)
	}
	r, err := h.Fire(context.Background(), "tool.execute.post", map[string]any{"tool_name": "bash", "result": result})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range r.Trace {
		if e.Error != "" {
			t.Errorf("%s failed: %.300s", e.Hook, e.Error)
		}
	}
	return r.Decision.Action, r.Payload["result"]
}

// Credentials every guard redacts, and the parts of them that must not
// show.
const (
	ghToken = "ghp_0123456789abcdefghijklmnopqrstuvwxyz"
	awsKey  = "AKIAABCDEFGHIJKLMNOP"
)

func TestRedactLongOutput(t *testing.T) {
	padding := strings.Repeat("lorem ipsum ", (5<<20)/12) // past re's 4 MiB
	cases := []struct {
		name   string
		result string
		leaks  []string // none of these may reach the model
	}{
		{"secrets around 5 MiB of padding", "token " + ghToken + " and " + awsKey + "\n" + padding + " " + awsKey,
			[]string{"ghp_0123", awsKey}},
		{"a secret across the scan bound", strings.Repeat("a ", (redactScan-10)/2) + awsKey + strings.Repeat(" b", 100),
			[]string{"AKIA"}},
		{"a secret just past the scan bound", strings.Repeat("a ", redactScan/2) + "x" + awsKey, []string{"AKIA"}},
		{"no whitespace at all", strings.Repeat("x", redactScan) + awsKey, []string{"AKIA", "xxx"}},
	}
	for _, g := range redactGuards(t) {
		for _, c := range cases {
			t.Run(g.name+"/"+c.name, func(t *testing.T) {
				action, out := fireRedact(t, g, c.result)
				s, _ := out.(string)
				if action != host.Modify || s == "" {
					t.Fatalf("got %s with result %.200v, want modify", action, out)
				}
				for _, leak := range c.leaks {
					if i := strings.Index(s, leak); i >= 0 {
						t.Errorf("%q reached the model at byte %d: …%.80s…", leak, i, s[max(0, i-20):])
					}
				}
				if len(s) > redactScan+200 || !strings.Contains(s, "withheld") {
					t.Errorf("%d bytes, ending %q: want at most the scanned part and a note that the rest was withheld", len(s), s[max(0, len(s)-100):])
				}
			})
		}
	}
}

// TestRedactPackBounds covers what only the shipped pack handles: a
// private key block the cut leaves open, strings past the budget in a
// structure, and nesting past its depth limit.
func TestRedactPackBounds(t *testing.T) {
	pack := redactGuards(t)[0]
	key := "-----BEGIN OPENSSH PRIVATE KEY-----\n" + strings.Repeat("b3BlbnNzaC1rZXktdjEAAAAA\n", redactScan/25+100) + "-----END OPENSSH PRIVATE KEY-----\n"
	nested := any(map[string]any{"stdout": "token " + ghToken})
	for range 40 {
		nested = map[string]any{"inner": nested}
	}
	many := make([]any, 200)
	for i := range many {
		many[i] = strings.Repeat("z ", 1000) + awsKey
	}
	for _, c := range []struct {
		name   string
		result any
		leak   string
	}{
		{"an open private key block", "log\n" + key, "b3Bl"},
		{"nested 40 deep", nested, "ghp_"},
		{"many strings past the budget", map[string]any{"parts": many}, "AKIA"},
	} {
		t.Run(c.name, func(t *testing.T) {
			action, out := fireRedact(t, pack, c.result)
			if action != host.Modify {
				t.Fatalf("got %s, want modify", action)
			}
			if s := deepString(out); strings.Contains(s, c.leak) {
				t.Errorf("%q reached the model", c.leak)
			}
		})
	}
}

// deepString concatenates every string in v.
func deepString(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case map[string]any:
		var b strings.Builder
		for _, x := range v {
			b.WriteString(deepString(x))
		}
		return b.String()
	case []any:
		var b strings.Builder
		for _, x := range v {
			b.WriteString(deepString(x))
		}
		return b.String()
	}
	return ""
}
