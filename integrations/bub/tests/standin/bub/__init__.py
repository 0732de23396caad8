"""A stand-in for the parts of bub the bridge uses, written for these tests
from bub's sources (src/bub/hooks/specs.py, runtime.py, interception.py;
src/bub/framework.py load_hooks). CI cannot install bub; put the real bub
and pluggy on sys.path (BUB_SRC) to run the tests against them instead."""

from bub.hooks import hookimpl

__all__ = ["hookimpl"]
