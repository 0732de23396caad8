"""bub's interception types and how bub runs them: implementations are
called last-registered first; one that raises is logged and skipped;
before_tool_call chains argument changes and stops at the first replace
or deny; before_llm_call chains requests and stops at the first decision."""

from __future__ import annotations

import importlib
import inspect
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal


@dataclass(frozen=True)
class LlmCallRequest:
    run_id: str
    model: str
    messages: list[dict[str, Any]]
    tool_names: tuple[str, ...] = ()
    max_tokens: int | None = None


@dataclass(frozen=True)
class LlmCallDecision:
    action: Literal["finish"] = "finish"
    text: str = ""

    @classmethod
    def finish(cls, text: str) -> LlmCallDecision:
        return cls("finish", text)


@dataclass(frozen=True)
class ToolCall:
    run_id: str
    tool: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class ToolCallDecision:
    action: Literal["proceed", "replace", "deny"] = "proceed"
    arguments: dict[str, Any] | None = None
    result: Any = None
    message: str | None = None

    @classmethod
    def proceed(cls, arguments: dict[str, Any] | None = None
                ) -> ToolCallDecision:
        return cls("proceed", arguments=arguments)

    @classmethod
    def replace(cls, result: Any) -> ToolCallDecision:
        return cls("replace", result=result)

    @classmethod
    def deny(cls, message: str) -> ToolCallDecision:
        return cls("deny", message=message)


@dataclass
class ToolCallResult:
    run_id: str
    tool: str
    arguments: dict[str, Any]
    result: Any = None
    error: Exception | None = None
    duration_ms: int = 0


_SKIP = object()


class Framework:
    """Registers plugins and runs the interception hooks like bub does."""

    def __init__(self) -> None:
        self.plugins: list[Any] = []
        self.errors: list[str] = []

    def load_entry_points(self, pyproject: Path) -> None:
        """Load [project.entry-points.bub] the way bub's load_hooks does:
        a callable is called with the framework, then registered."""
        text = pyproject.read_text()
        section = text.split("[project.entry-points.bub]", 1)[1]
        for name, target in re.findall(r'^(\w+)\s*=\s*"([^"]+)"', section,
                                       re.M):
            module, attr = target.split(":")
            plugin = getattr(importlib.import_module(module), attr)
            self.register(plugin(self) if callable(plugin) else plugin)

    def register(self, plugin: Any) -> None:
        self.plugins.append(plugin)

    def _impls(self, name: str) -> list[Any]:
        found = [getattr(p, name) for p in reversed(self.plugins)
                 if hasattr(getattr(p, name, None), "bub_impl")]
        return found

    async def _call(self, impl: Any, **kwargs: Any) -> Any:
        try:
            value = impl(**kwargs)
            if inspect.isawaitable(value):
                value = await value
            return value
        except Exception as err:  # bub: logged and skipped
            self.errors.append(repr(err))
            return _SKIP

    async def before_tool_call(self, call: ToolCall, state: dict[str, Any]
                               ) -> tuple[ToolCall, ToolCallDecision]:
        for impl in self._impls("before_tool_call"):
            value = await self._call(impl, call=call, state=state)
            if value is None or value is _SKIP:
                continue
            if value.action == "proceed":
                if value.arguments is not None:
                    call = replace(call, arguments=dict(value.arguments))
                continue
            return call, value
        return call, ToolCallDecision.proceed()

    async def after_tool_call(self, call: ToolCall, result: ToolCallResult,
                              state: dict[str, Any]) -> None:
        for impl in self._impls("after_tool_call"):
            await self._call(impl, call=call, result=result, state=state)

    async def before_llm_call(self, request: LlmCallRequest,
                              state: dict[str, Any]
                              ) -> tuple[LlmCallRequest,
                                         LlmCallDecision | None]:
        for impl in self._impls("before_llm_call"):
            value = await self._call(impl, request=request, state=state)
            if value is None or value is _SKIP:
                continue
            if isinstance(value, LlmCallRequest):
                request = value
            elif isinstance(value, LlmCallDecision):
                return request, value
        return request, None
