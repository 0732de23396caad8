package server

import (
	"bytes"
	"io"
	"net/http"
	"testing"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/claude"
)

// BenchmarkAgentHTTP is what a Claude Code http hook answered by serve
// costs beside a plain fire: one client on one kept-alive loopback
// connection (Claude Code's own is kept alive between hooks), the
// benchmark guardrail, a call it has no opinion on.
//
//	fire    POST /v1/fire/tool.execute.pre with the hookhost payload
//	claude  POST /v1/agents/claude with Claude Code's PreToolUse event:
//	        the same fire, plus the dialect's decoding and answer
//
// docs/performance.md reports the medians (p50-µs) as a ratio.
func BenchmarkAgentHTTP(b *testing.B) {
	b.Run("fire", func(b *testing.B) { benchAgentPost(b, "/v1/fire/tool.execute.pre", benchBody) })
	b.Run("claude", func(b *testing.B) { benchAgentPost(b, "/v1/agents/claude", benchClaudeEvent) })
}

// benchClaudeEvent is a Claude Code PreToolUse event of the usual size.
const benchClaudeEvent = `{"session_id":"9f1c2b7e-5d1a-4c39-9a57-2f0d3c1e8b44",` +
	`"transcript_path":"/home/u/.claude/projects/-home-u-p/9f1c2b7e-5d1a-4c39-9a57-2f0d3c1e8b44.jsonl",` +
	`"cwd":"/home/u/p","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"bash",` +
	`"tool_input":{"command":"ls -la","description":"List the files"},"tool_use_id":"toolu_01ABCDEF"}`

func benchAgentPost(b *testing.B, path, body string) {
	h := benchHost(b, nil)
	base := serve(b, Options{Backend: h, Agents: []adapter.CommandDialect{claude.Dialect{}}})
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1, MaxConnsPerHost: 1}}
	url := base + path
	concurrently(b, 1, func() error {
		resp, err := client.Post(url, "application/json", bytes.NewReader([]byte(body)))
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			return &statusError{resp.StatusCode}
		}
		return nil
	})
}
