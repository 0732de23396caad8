"""gptme loads this package and calls its register()."""

from .bridge import register

__all__ = ["register"]
