package claude

import (
	"maps"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
)

// OnFailure is the hook key that makes Claude Code (2.1.295 and later)
// block when a hook cannot run, times out or — for an http hook —
// answers with an error or not at all; without it such failures let the
// call through. Older versions ignore the key.
const OnFailure = "onFailure"

var _ adapter.HTTPDialect = Dialect{}

// HTTPSettings implements adapter.HTTPDialect: the "hooks" block that
// posts every mapped event to url (serve's agent endpoint), blocking on
// failure at the guard events. With tokenEnv, the request carries
// "Authorization: Bearer $tokenEnv", which Claude Code fills in from its
// environment (allowedEnvVars lets it), so the token itself is never in
// the settings.
func (Dialect) HTTPSettings(url, tokenEnv string) any {
	hook := map[string]any{"type": "http", "url": url, "timeout": SettingsTimeout}
	if tokenEnv != "" {
		hook["headers"] = map[string]any{"Authorization": "Bearer $" + tokenEnv}
		hook["allowedEnvVars"] = []any{tokenEnv}
	}
	return settings(hook)
}

// settings is the hooks block that runs hook on every mapped event, with
// onFailure "block" on the guard events.
func settings(hook map[string]any) map[string]any {
	events := adapter.SortedKeys(Events)
	hooks := make(map[string]any, len(events))
	for _, e := range events {
		h := maps.Clone(hook)
		if Events[e].Guard {
			h[OnFailure] = "block"
		}
		hooks[e] = []any{map[string]any{"hooks": []any{h}}}
	}
	return map[string]any{"hooks": hooks}
}
