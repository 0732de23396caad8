"""hookhost bridge for gptme: a folder plugin (see hooks/bridge.py)."""
