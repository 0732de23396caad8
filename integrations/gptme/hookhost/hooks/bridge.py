"""gptme's hooks → hookhost fires → gptme's decisions.

gptme's ``tool.execute.pre`` cannot stop a tool, so the guard point is
``TOOL_CONFIRM``: this bridge's confirm hook runs before gptme's own
(priority above 100) and answers confirm, skip or edit from hookhost's
decision. hookhost failing in any way is a skip naming the cause.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any, Iterator

from gptme.hooks import HookType, get_hooks, register_hook
from gptme.hooks.confirm import ConfirmationResult
from gptme.message import Message

from .. import _transport
from .._transport import Answer, HookhostError

logger = logging.getLogger(__name__)

# gptme's server_confirm registers at 100; ours must be asked first.
CONFIRM_PRIORITY = 1000
NAME = "hookhost"


def register() -> None:
    """Register the bridge's hooks with gptme."""
    register_hook(f"{NAME}.confirm", HookType.TOOL_CONFIRM, confirm,
                  priority=CONFIRM_PRIORITY)
    register_hook(f"{NAME}.tool_post", HookType.TOOL_EXECUTE_POST, tool_post)
    register_hook(f"{NAME}.session_start", HookType.SESSION_START,
                  session_start)
    register_hook(f"{NAME}.generation_pre", HookType.GENERATION_PRE,
                  generation_pre)


def _fire(event: str, payload: dict[str, Any]) -> Answer:
    return _transport.restrict(_transport.fire(event, payload))


def _tool_payload(tool_use: Any, workspace: Path | None) -> dict[str, Any]:
    return {
        "tool_name": tool_use.tool,
        "params": {"content": tool_use.content, "args": tool_use.args or [],
                   "kwargs": tool_use.kwargs or {}},
        "cwd": str(workspace) if workspace else os.getcwd(),
    }


def confirm(tool_use: Any, preview: str | None = None,
            workspace: Path | None = None) -> ConfirmationResult | None:
    """TOOL_CONFIRM: hookhost's tool.execute.pre decides first."""
    try:
        answer = _fire("tool.execute.pre", _tool_payload(tool_use, workspace))
    except HookhostError as err:
        return ConfirmationResult.skip(str(err))
    return _to_confirmation(answer, tool_use)


def _to_confirmation(answer: Answer, tool_use: Any
                     ) -> ConfirmationResult | None:
    reason = answer.reason or f"hookhost: {answer.action}"
    if answer.blocks:
        return ConfirmationResult.skip(reason)
    if answer.action == "respond":
        # gptme cannot use a substitute result: not running the tool is
        # the closest it can do.
        return ConfirmationResult.skip(
            "hookhost answered with a result in the tool's place, which "
            "gptme cannot use: the tool does not run"
            + (f" ({answer.reason})" if answer.reason else ""))
    if answer.action == "ask":
        return None if _someone_can_ask() else ConfirmationResult.skip(
            f"approval required, and nobody can approve here: {reason}")
    if answer.action == "modify":
        return _edit(answer, tool_use)
    if not answer.authenticated:
        return None  # an unauthenticated allow is no opinion: gptme decides
    return ConfirmationResult.confirm()  # allow, continue


def _edit(answer: Answer, tool_use: Any) -> ConfirmationResult:
    params = answer.payload.get("params")
    content = params.get("content") if isinstance(params, dict) else None
    if not isinstance(content, str) or not content:
        return ConfirmationResult.skip(
            "hookhost: a modify gptme cannot apply (it can rewrite only a "
            "non-empty params.content)")
    if content == tool_use.content:
        return ConfirmationResult.confirm()
    return ConfirmationResult.edit(content)


def _someone_can_ask() -> bool:
    """True when a lower-ranked confirm hook (a person) will be asked."""
    return any(h.enabled and h.priority < CONFIRM_PRIORITY
               for h in get_hooks(HookType.TOOL_CONFIRM))


def _messages(answer: Answer) -> Iterator[Message]:
    for m in answer.messages:
        if m.get("content"):
            yield Message("system", str(m["content"]))


def _observe(event: str, payload: dict[str, Any]) -> Iterator[Message]:
    """Fire an event gptme only lets add messages; say what is lost."""
    try:
        answer = _fire(event, payload)
    except HookhostError as err:
        logger.warning("hookhost: %s: %s", event, err)
        return
    if answer.action not in ("continue", "allow"):
        logger.warning("hookhost: %s: gptme cannot apply a %s here; only "
                       "its messages are used", event, answer.action)
    yield from _messages(answer)


def tool_post(data: Any) -> Iterator[Message]:
    """TOOL_EXECUTE_POST → tool.execute.post with the result text."""
    tool_use = data.tool_use
    if tool_use is None:
        return
    payload = _tool_payload(tool_use, data.workspace)
    payload["result"] = "\n".join(
        str(m.content) for m in (data.result_msgs or ()))
    yield from _observe("tool.execute.post", payload)


def session_start(logdir: Path, workspace: Path | None,
                  initial_msgs: list[Message]) -> Iterator[Message]:
    """SESSION_START → session.start; its messages become system messages."""
    yield from _observe("session.start", {
        "session_id": Path(logdir).name,
        "workspace": str(workspace) if workspace else os.getcwd(),
        "source": "gptme"})


def generation_pre(messages: list[Message], **kwargs: Any
                   ) -> Iterator[Message]:
    """GENERATION_PRE → generation.pre; its messages join the context."""
    yield from _observe("generation.pre", {
        "model": kwargs.get("model") or "",
        "messages": [{"role": m.role, "content": m.content}
                     for m in messages]})
