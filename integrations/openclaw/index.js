// hookhost's OpenClaw plugin: OpenClaw's typed hooks are forwarded to a
// running `hookhost serve`, whose answers become OpenClaw's own results
// (see bridge.js). No import from openclaw: OpenClaw's loader accepts a
// plain default export with register(api), so the plugin has no
// dependency at all.

import { createBridge } from "./bridge.js";
import { MAX_TIMEOUT_MS, resolveConfig } from "./transport.js";

// Above ordinary plugins: a block from hookhost ends the chain before
// lower-priority handlers run.
export const PRIORITY = 1000;
// OpenClaw's own budget for a before_tool_call handler is 15 s; ours ends
// before it, and the fire's own timeout ends before ours.
const HOOK_TIMEOUT_CAP_MS = 14000;

export default {
  id: "hookhost",
  name: "hookhost",
  description: "Asks a running hookhost serve before every tool call; fails closed.",
  register(api) {
    const log = api.logger ?? console;
    const bridge = createBridge({
      pluginConfig: api.pluginConfig ?? {},
      log,
      workspaceFor: (agentId) => api.runtime?.agent?.resolveAgentWorkspaceDir?.(api.config, agentId),
    });
    let fireTimeoutMs = MAX_TIMEOUT_MS;
    try {
      fireTimeoutMs = resolveConfig(api.pluginConfig ?? {}).timeoutMs;
    } catch (err) {
      // Every tool call will be blocked with this reason; say it now too.
      log.error(`hookhost: ${err.message}; every tool call is blocked until it is fixed`);
    }
    const timeoutMs = Math.min(fireTimeoutMs + 1000, HOOK_TIMEOUT_CAP_MS);
    api.on("before_tool_call", bridge.beforeToolCall, { priority: PRIORITY, timeoutMs });
    api.on("after_tool_call", bridge.afterToolCall, { priority: PRIORITY, timeoutMs });
    api.on("session_start", bridge.sessionStart, { priority: PRIORITY, timeoutMs });
    api.on("session_end", bridge.sessionEnd, { priority: PRIORITY, timeoutMs });
  },
};
