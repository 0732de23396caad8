"""A pluggy-style marker: it tags a method as an implementation of the
"bub" project's hooks, the way pluggy.HookimplMarker("bub") does."""

from typing import Any, Callable


def hookimpl(func: Callable[..., Any]) -> Callable[..., Any]:
    setattr(func, "bub_impl", {})
    return func
