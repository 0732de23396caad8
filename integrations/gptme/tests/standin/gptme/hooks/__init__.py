"""Registry: hooks sorted by priority (higher first); trigger yields the
Messages of generator hooks and skips a hook that raises."""

from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable, Iterator


class HookType(str, Enum):
    TOOL_EXECUTE_PRE = "tool.execute.pre"
    TOOL_EXECUTE_POST = "tool.execute.post"
    SESSION_START = "session.start"
    GENERATION_PRE = "generation.pre"
    TOOL_CONFIRM = "tool.confirm"


@dataclass
class Hook:
    name: str
    hook_type: HookType
    func: Callable[..., Any]
    priority: int = 0
    enabled: bool = True


_hooks: dict[HookType, list[Hook]] = {}


def clear() -> None:
    """Test helper: forget every hook."""
    _hooks.clear()


def register_hook(name: str, hook_type: HookType, func: Callable[..., Any],
                  priority: int = 0, enabled: bool = True) -> None:
    hooks = [h for h in _hooks.get(hook_type, []) if h.name != name]
    hooks.append(Hook(name, hook_type, func, priority, enabled))
    hooks.sort(key=lambda h: (-h.priority, h.name))
    _hooks[hook_type] = hooks


def get_hooks(hook_type: HookType | None = None) -> list[Hook]:
    if hook_type is None:
        return [h for hs in _hooks.values() for h in hs]
    return list(_hooks.get(hook_type, []))


def trigger_hook(hook_type: HookType, *args: Any, **kwargs: Any
                 ) -> Iterator[Any]:
    for hook in get_hooks(hook_type):
        try:
            result = hook.func(*args, **kwargs)
            if result is not None:
                yield from result
        except Exception:  # gptme logs and goes on with the next hook
            continue
