// OpenClaw's typed plugin hooks → hookhost fires → OpenClaw's results.
//
// OpenClaw blocks a tool call whose before_tool_call handler throws or
// times out, but this bridge does not rely on that: it never throws, and
// every failure to get hookhost's answer is returned as a block whose
// reason names the cause.

import { BLOCKING, HookhostError, fire, resolveConfig, restrict } from "./transport.js";

/**
 * The bridge's handlers, bound to where they read their settings.
 * `pluginConfig` is OpenClaw's plugins.entries.hookhost.config; `env` the
 * environment (read at every call, as the Python bridges do); `log` has
 * warn and error; `workspaceFor(agentId)` names the agent's workspace
 * (or undefined).
 */
export function createBridge({ pluginConfig = {}, env = process.env, log = console, workspaceFor = () => undefined } = {}) {
  async function fireRestricted(event, payload) {
    const config = resolveConfig(pluginConfig, env);
    return restrict(await fire(event, payload, config));
  }

  function toolPayload(event, ctx = {}) {
    const params = isObject(event?.params) ? event.params : {};
    return {
      tool_name: String(event?.toolName ?? ctx.toolName ?? ""),
      params,
      cwd: cwdOf(params, ctx),
      session_id: String(ctx.sessionId || ctx.sessionKey || event?.runId || ""),
      session_key: ctx.sessionKey ?? "",
      agent_id: ctx.agentId ?? "",
      run_id: event?.runId ?? ctx.runId ?? "",
      tool_call_id: event?.toolCallId ?? ctx.toolCallId ?? "",
      source: "openclaw",
    };
  }

  // exec's own working directory when the call names one, else the
  // agent's workspace, else the Gateway's working directory.
  function cwdOf(params, ctx) {
    if (typeof params.workdir === "string" && params.workdir) return params.workdir;
    if (typeof params.cwd === "string" && params.cwd) return params.cwd;
    let dir;
    try {
      dir = ctx.agentId ? workspaceFor(ctx.agentId) : undefined;
    } catch {
      dir = undefined;
    }
    return typeof dir === "string" && dir ? dir : process.cwd();
  }

  async function observe(event, payload) {
    let answer;
    try {
      answer = await fireRestricted(event, payload);
    } catch (err) {
      log.warn(`hookhost: ${event}: ${describe(err)}`);
      return;
    }
    if (answer.action !== "continue" && answer.action !== "allow") {
      log.warn(`hookhost: ${event}: OpenClaw only lets this hook observe; hookhost's ${answer.action} is not applied`);
    }
    if (answer.messages.length > 0) {
      log.warn(`hookhost: ${event}: OpenClaw cannot add messages here; ${answer.messages.length} dropped`);
    }
  }

  return {
    /** before_tool_call → tool.execute.pre; never throws. */
    async beforeToolCall(event, ctx) {
      try {
        const answer = await fireRestricted("tool.execute.pre", toolPayload(event, ctx));
        return toBeforeToolCallResult(answer, event?.toolName);
      } catch (err) {
        return block(describe(err));
      }
    },

    /** after_tool_call → tool.execute.post (observe only). */
    async afterToolCall(event, ctx) {
      const payload = toolPayload(event, ctx);
      payload.result = event?.result ?? null;
      payload.error = event?.error ?? "";
      payload.duration_ms = event?.durationMs ?? 0;
      await observe("tool.execute.post", payload);
    },

    /** session_start → session.start (observe only). */
    async sessionStart(event, ctx) {
      await observe("session.start", {
        session_id: String(event?.sessionId ?? ctx?.sessionId ?? ""),
        session_key: event?.sessionKey ?? ctx?.sessionKey ?? "",
        agent_id: ctx?.agentId ?? "",
        workspace: cwdOf({}, ctx ?? {}),
        source: "openclaw",
      });
    },

    /** session_end → session.end (observe only). */
    async sessionEnd(event, ctx) {
      await observe("session.end", {
        session_id: String(event?.sessionId ?? ctx?.sessionId ?? ""),
        reason: String(event?.reason ?? ""),
        source: "openclaw",
      });
    },
  };
}

/** hookhost's answer at tool.execute.pre → before_tool_call's result. */
export function toBeforeToolCallResult(answer, toolName = "the tool") {
  const reason = answer.reason || `hookhost: ${answer.action}`;
  if (BLOCKING.has(answer.action)) return block(reason);
  switch (answer.action) {
    case "allow":
    case "continue":
      return undefined; // no opinion: OpenClaw's other hooks and policy still decide
    case "modify": {
      const params = answer.payload?.params;
      if (!isObject(params)) return block("hookhost: a modify without params OpenClaw could use");
      return { params };
    }
    case "ask":
      return {
        requireApproval: {
          title: `hookhost: approve ${toolName}?`,
          description: reason,
          severity: "warning",
        },
      };
    case "respond":
      // before_tool_call cannot stand in for the tool: the tool does not
      // run and the respond's result reaches the model as the block reason.
      return block(resultText(answer.result) || reason);
    default:
      return block(`hookhost answered an action this bridge does not know: ${JSON.stringify(answer.action)}`);
  }
}

function block(reason) {
  return { block: true, blockReason: reason };
}

function describe(err) {
  if (err instanceof HookhostError) return err.message;
  return `hookhost bridge failed: ${err?.message ?? String(err)}`;
}

function resultText(result) {
  if (result === undefined || result === null) return "";
  return typeof result === "string" ? result : JSON.stringify(result);
}

function isObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
