package picoclaw

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
)

func TestCheckHello(t *testing.T) {
	for _, tc := range []struct {
		params map[string]any
		ok     bool
	}{
		{map[string]any{"name": "x", "version": int64(1), "modes": []any{"tool"}}, true},
		{map[string]any{"protocol_version": int64(1)}, true},
		{map[string]any{}, true},
		{map[string]any{"version": int64(2)}, false},
		{map[string]any{"version": 1.5}, false},
		{map[string]any{"version": "1"}, false},
	} {
		_, problem := CheckHello(tc.params)
		if (problem == "") != tc.ok {
			t.Errorf("CheckHello(%v): problem %q", tc.params, problem)
		}
	}
}

func TestRequest(t *testing.T) {
	call := Request("hook.after_tool", map[string]any{"tool": "bash", "duration": int64(2500000),
		"result":  map[string]any{"for_llm": "boom", "is_error": true},
		"meta":    map[string]any{"SessionKey": "s", "TurnID": "t", "AgentID": "a"},
		"context": map[string]any{"inbound": map[string]any{"channel": "c", "chat_id": "42", "sender_id": "u"}}})
	p := call.Payload
	if call.Event != "tool.execute.post" || p["tool_name"] != "bash" || p["error"] != "boom" || p["duration_ms"] != 2.5 ||
		p["session_id"] != "s" || p["turn_id"] != "t" || p["agent_id"] != "a" || p["channel"] != "c" || p["chat_id"] != "42" ||
		p["sender_id"] != "u" || len(p["params"].(map[string]any)) != 0 {
		t.Errorf("payload %v", p)
	}
	if c := Request("hook.nope", nil); c.Event != "" {
		t.Errorf("unknown method mapped to %q", c.Event)
	}
}

func TestToolResult(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want string
	}{
		{"text", `{"for_llm":"text","is_error":false}`},
		{map[string]any{"for_llm": "x", "silent": true}, `{"for_llm":"x","silent":true}`},
		{map[string]any{"out": int64(1)}, `{"for_llm":"{\"out\":1}","is_error":false}`},
		{[]any{int64(1)}, `{"for_llm":"[1]","is_error":false}`},
	} {
		b, _ := json.Marshal(ToolResult(tc.in))
		if string(b) != tc.want {
			t.Errorf("ToolResult(%v) = %s, want %s", tc.in, b, tc.want)
		}
	}
}

func TestShrink(t *testing.T) {
	long := strings.Repeat("é", 1<<20)
	call := adapter.Call{AgentEvent: "hook.before_tool"}
	if got := Shrink(call, Decision{Action: Modify, Call: map[string]any{"x": long}}).(Decision); got.Action != Continue || got.Call != nil {
		t.Errorf("modify shrinks to %v", got)
	}
	d := Shrink(call, Decision{Action: DenyTool, Reason: long}).(Decision)
	if d.Action != DenyTool || len(d.Reason) > 5000 || !strings.HasSuffix(d.Reason, "…") {
		t.Errorf("deny shrinks to %s with a reason of %d bytes", d.Action, len(d.Reason))
	}
	if a := Shrink(call, Approval{Approved: false, Reason: long}).(Approval); a.Approved || len(a.Reason) > 5000 {
		t.Errorf("approval shrinks to %v", a.Approved)
	}
}

func TestDeadline(t *testing.T) {
	d := Dialect{}
	for method, want := range map[string]time.Duration{
		"hook.before_tool": 4500 * time.Millisecond, "hook.approve_tool": 54 * time.Second, "hook.runtime_event": 400 * time.Millisecond,
	} {
		if got := d.Deadline(adapter.Call{AgentEvent: method}); got != want {
			t.Errorf("Deadline(%s) = %v, want %v", method, got, want)
		}
	}
	if got := (Dialect{InterceptorTimeout: time.Second}).Deadline(adapter.Call{AgentEvent: "hook.after_llm"}); got != 900*time.Millisecond {
		t.Errorf("Deadline with a 1s interceptor timeout = %v", got)
	}
}
