package opa

import (
	"fmt"
	"strings"
)

// The guardrail both sides implement: deny a bash command that contains
// one of the patterns, with the pattern in the reason. smallPatterns is
// the one-rule policy; rulePatterns the 20-rule one.
var (
	smallPatterns = []string{"rm -rf /"}
	rulePatterns  = []string{
		"rm -rf /", "mkfs", "wipefs", "shred /dev/", "dd of=/dev/", ":(){", "chmod -R 777 /", "chown -R",
		"| sh", "| bash", "curl -s", "wget -q", "> /dev/sda", "git push --force", "git reset --hard",
		"git clean -f", "sudo su", "/etc/shadow", "~/.ssh", "base64 -d",
	}
)

// regoPolicy is the policy as OPA v1 Rego: one rule body per pattern,
// each adding its reason to the deny set.
func regoPolicy(patterns []string) string {
	var b strings.Builder
	b.WriteString("package guard\n\n")
	for _, p := range patterns {
		fmt.Fprintf(&b, "deny contains %q if {\n\tinput.tool_name == \"bash\"\n\tcontains(input.params.command, %q)\n}\n\n",
			"refusing: "+p, p)
	}
	return b.String()
}

// luaHook is the policy as one Lua hook: one check per pattern.
func luaHook(patterns []string) string {
	var b strings.Builder
	b.WriteString("hook.on(\"tool.execute.pre\", function(tool_name, params)\n")
	b.WriteString("  if tool_name ~= \"bash\" then return end\n  local cmd = params.command\n")
	for _, p := range patterns {
		fmt.Fprintf(&b, "  if string.find(cmd, %q, 1, true) then return hook.deny(%q) end\n", p, "refusing: "+p)
	}
	b.WriteString("end, { name = \"guard\" })\n")
	return b.String()
}

// starHook is the policy as one Starlark hook.
func starHook(patterns []string) string {
	var b strings.Builder
	b.WriteString("def guard(tool_name, params):\n")
	b.WriteString("    if tool_name != \"bash\":\n        return None\n    cmd = params.get(\"command\", \"\")\n")
	for _, p := range patterns {
		fmt.Fprintf(&b, "    if %q in cmd:\n        return hook.deny(%q)\n", p, "refusing: "+p)
	}
	b.WriteString("\nhook.on(\"tool.execute.pre\", guard)\n")
	return b.String()
}

// payload is the tool call both sides decide on.
func payload(command string) map[string]any {
	return map[string]any{"tool_name": "bash", "params": map[string]any{"command": command}}
}
