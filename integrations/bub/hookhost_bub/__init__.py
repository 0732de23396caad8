"""hookhost bridge for bub (see plugin.py)."""
