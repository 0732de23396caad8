"""A stand-in for the parts of gptme the bridge uses, written for these
tests from gptme's hook API (gptme/hooks/registry.py, types.py,
confirm.py; gptme/message.py). CI cannot install gptme; run the tests
with the real gptme on sys.path instead to check against it."""
