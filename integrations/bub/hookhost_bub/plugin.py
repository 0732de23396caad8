"""bub's interception hooks → hookhost fires → bub's decisions.

bub logs and skips a hook that raises, so this plugin never raises to
refuse: any failure to get hookhost's answer becomes a deny naming the
cause.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from bub import hookimpl
from bub.hooks.interception import (
    LlmCallDecision,
    LlmCallRequest,
    ToolCall,
    ToolCallDecision,
    ToolCallResult,
)

from . import _transport
from ._transport import Answer, HookhostError

logger = logging.getLogger(__name__)


def _fire(event: str, payload: dict[str, Any]) -> Answer:
    return _transport.restrict(_transport.fire(event, payload))


def _tool_payload(call: ToolCall, state: dict[str, Any]) -> dict[str, Any]:
    return {"tool_name": call.tool, "params": dict(call.arguments),
            "session_id": str(state.get("session_id") or call.run_id),
            "cwd": str(state.get("_runtime_workspace") or "")}


class HookhostPlugin:
    """The object bub registers (bub calls the class with its framework)."""

    def __init__(self, framework: Any = None) -> None:
        self.framework = framework

    @hookimpl
    def before_tool_call(self, call: ToolCall, state: dict[str, Any]
                         ) -> ToolCallDecision | None:
        """tool.execute.pre decides whether and how the tool runs."""
        try:
            answer = _fire("tool.execute.pre", _tool_payload(call, state))
        except HookhostError as err:
            return ToolCallDecision.deny(str(err))
        return _to_tool_decision(answer)

    @hookimpl
    def after_tool_call(self, call: ToolCall, result: ToolCallResult,
                        state: dict[str, Any]) -> None:
        """tool.execute.post observes the outcome."""
        payload = _tool_payload(call, state)
        payload["result"] = result.result
        payload["error"] = str(result.error) if result.error else ""
        payload["duration_ms"] = result.duration_ms
        try:
            _fire("tool.execute.post", payload)
        except HookhostError as err:
            logger.warning("hookhost: tool.execute.post: %s", err)

    @hookimpl
    def before_llm_call(self, request: LlmCallRequest, state: dict[str, Any]
                        ) -> LlmCallRequest | LlmCallDecision | None:
        """generation.pre may end the call or rewrite model and messages."""
        payload = {"model": request.model, "messages": list(request.messages),
                   "tools": list(request.tool_names), "options": {}}
        try:
            answer = _fire("generation.pre", payload)
        except HookhostError as err:
            return LlmCallDecision.finish(str(err))
        return _to_llm_decision(answer, request)


def _to_tool_decision(answer: Answer) -> ToolCallDecision | None:
    reason = answer.reason or f"hookhost: {answer.action}"
    if answer.blocks:
        return ToolCallDecision.deny(reason)
    if answer.action == "ask":  # bub has no approval channel
        return ToolCallDecision.deny(f"approval required: {reason}")
    if answer.action == "respond":
        return ToolCallDecision.replace(answer.result)
    if answer.action == "modify":
        params = answer.payload.get("params")
        if not isinstance(params, dict):
            return ToolCallDecision.deny(
                "hookhost: a modify without params bub could use")
        return ToolCallDecision.proceed(arguments=params)
    return None  # allow, continue: later implementations still decide


def _to_llm_decision(answer: Answer, request: LlmCallRequest
                     ) -> LlmCallRequest | LlmCallDecision | None:
    if answer.blocks:
        return LlmCallDecision.finish(answer.reason or answer.action)
    if answer.action == "respond":
        result = answer.result
        return LlmCallDecision.finish(
            result if isinstance(result, str) else str(result or ""))
    if answer.action == "modify":
        return _modified_request(answer.payload, request)
    return None


def _modified_request(payload: dict[str, Any], request: LlmCallRequest
                      ) -> LlmCallRequest | None:
    """Apply what bub lets a hook change (model, messages); log the rest."""
    changes: dict[str, Any] = {}
    if isinstance(payload.get("model"), str) and payload["model"]:
        changes["model"] = payload["model"]
    if isinstance(payload.get("messages"), list):
        changes["messages"] = payload["messages"]
    if list(payload.get("tools") or []) != list(request.tool_names):
        logger.warning("hookhost: bub cannot change the tools of a model "
                       "call; the change is ignored")
    if not changes:
        return None
    return dataclasses.replace(request, **changes)
