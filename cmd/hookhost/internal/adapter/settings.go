package adapter

import (
	"maps"
	"slices"
)

// CommandSettings is the "hooks" block of Claude Code's settings.json and
// Codex's hooks.json: every event runs command, with no matcher (all
// tools), under timeout (the agent's own unit).
func CommandSettings(events []string, command string, timeout int) map[string]any {
	hooks := make(map[string]any, len(events))
	for _, e := range events {
		hooks[e] = []any{map[string]any{
			"hooks": []any{map[string]any{"type": "command", "command": command, "timeout": timeout}},
		}}
	}
	return map[string]any{"hooks": hooks}
}

// SortedKeys lists the agent events of a dialect's table, sorted.
func SortedKeys(events map[string]Mapping) []string {
	return slices.Sorted(maps.Keys(events))
}
