"""TOOL_CONFIRM as gptme runs it: hooks by priority, first non-None wins,
an exception skips, nobody answering confirms."""

from dataclasses import dataclass
from enum import Enum
from typing import Any


class ConfirmAction(str, Enum):
    CONFIRM = "confirm"
    SKIP = "skip"
    EDIT = "edit"


@dataclass
class ConfirmationResult:
    action: ConfirmAction
    edited_content: str | None = None
    message: str | None = None

    @classmethod
    def confirm(cls) -> "ConfirmationResult":
        return cls(ConfirmAction.CONFIRM)

    @classmethod
    def skip(cls, message: str | None = None) -> "ConfirmationResult":
        return cls(ConfirmAction.SKIP, message=message or "Operation skipped")

    @classmethod
    def edit(cls, edited_content: str) -> "ConfirmationResult":
        return cls(ConfirmAction.EDIT, edited_content=edited_content)


def get_confirmation(tool_use: Any, preview: Any = None,
                     workspace: Any = None) -> ConfirmationResult:
    from . import HookType, get_hooks
    for hook in [h for h in get_hooks(HookType.TOOL_CONFIRM) if h.enabled]:
        try:
            result = hook.func(tool_use, preview, workspace)
        except Exception as err:  # gptme: an error skips the tool
            return ConfirmationResult.skip(f"Error: {err}")
        if result is not None:
            return result
    return ConfirmationResult.confirm()
