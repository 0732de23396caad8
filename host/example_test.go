package host_test

import (
	"context"
	"fmt"
	"testing/fstest"

	"github.com/hookhost/hookhost/host"
)

// A guardrail in Lua and a policy in Starlark, loaded from memory.
func Example() {
	scripts := fstest.MapFS{
		"guard.lua": {Data: []byte(`
hook.on("tool.execute.pre", function(tool_name, params)
  if tool_name == "bash" and params.command:find("rm -rf /", 1, true) then
    return hook.deny("refusing to delete the root filesystem")
  end
end, { name = "no-rm-root", priority = 50 })
`)},
		"writes.star": {Data: []byte(`
def ask_before_writes(tool_name, params):
    if tool_name == "write" and not params.get("path", "").startswith("/workspace/"):
        return hook.ask("write outside the workspace?")

hook.on("tool.execute.pre", ask_before_writes)
`)},
	}
	h, err := host.New(context.Background(), host.Options{FS: scripts})
	if err != nil {
		panic(err)
	}
	defer h.Close()

	for _, call := range []host.ToolCall{
		{Name: "bash", Params: map[string]any{"command": "rm -rf /"}},
		{Name: "write", Params: map[string]any{"path": "/etc/passwd"}},
		{Name: "bash", Params: map[string]any{"command": "ls"}},
	} {
		d, err := h.BeforeTool(context.Background(), call)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: %s %q (by %s), proceed=%v\n", call.Name, d.Action, d.Reason, d.Hook, d.Proceed())
	}
	// Output:
	// bash: deny "refusing to delete the root filesystem" (by guard.lua:no-rm-root), proceed=false
	// write: ask "write outside the workspace?" (by writes.star:ask_before_writes), proceed=false
	// bash: continue "" (by ), proceed=true
}

// An embedder's own event, fired with a raw payload.
func ExampleHost_Fire() {
	scripts := fstest.MapFS{
		"deploy.star": {Data: []byte(`
def freeze(env):
    if env == "prod":
        return hook.deny("deploy freeze")

hook.on("deploy.requested", freeze)
`)},
	}
	h, err := host.New(context.Background(), host.Options{
		FS: scripts,
		Events: []host.EventSpec{{
			Name: "deploy.requested", Mode: host.Chain,
			Actions: []host.Action{host.Allow, host.Deny},
		}},
	})
	if err != nil {
		panic(err)
	}
	defer h.Close()
	r, err := h.Fire(context.Background(), "deploy.requested", map[string]any{"env": "prod"})
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Decision.Action, r.Decision.Reason, len(r.Trace))
	// Output: deny deploy freeze 1
}

// Redacting a tool's output after it ran.
func ExampleHost_AfterTool() {
	scripts := fstest.MapFS{
		"redact.lua": {Data: []byte(`
hook.on("tool.execute.post", function(result)
  if type(result) == "string" and result:find("sk%-%w+") then
    return hook.modify({ result = result:gsub("sk%-%w+", "[redacted]") })
  end
end, { name = "redact-keys" })
`)},
	}
	h, err := host.New(context.Background(), host.Options{FS: scripts})
	if err != nil {
		panic(err)
	}
	defer h.Close()
	d, err := h.AfterTool(context.Background(), host.ToolOutcome{Name: "bash", Result: "key=sk-abc123"})
	if err != nil {
		panic(err)
	}
	fmt.Println(d.Action, d.Result)
	// Output: modify key=[redacted]
}
