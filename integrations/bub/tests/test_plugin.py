"""The bub bridge, loaded from pyproject.toml's entry point into a stand-in
of bub's hook runner (tests/standin), against a real hookhost serve built
from this checkout.

Set BUB_SRC to a path holding the real bub and pluggy to run these tests'
mapping against bub's own types instead (see docs/integrations/bub.md).
"""

from __future__ import annotations

import asyncio
import os
import sys
import unittest
from pathlib import Path
from typing import Any
from unittest import mock

HERE = Path(__file__).resolve().parent
BRIDGE = HERE.parent
sys.path[:0] = [str(HERE / "standin"), str(BRIDGE),
                str(BRIDGE.parent / "testsupport")]

import hookhost_serve as hs  # noqa: E402
from bub import hookimpl  # noqa: E402
from bub.hooks.interception import (  # noqa: E402
    Framework, LlmCallDecision, LlmCallRequest, ToolCall, ToolCallResult)


class Builtin:
    """bub's builtin implementation, registered before the plugins: it
    records the arguments it is called with."""

    def __init__(self) -> None:
        self.seen: list[dict[str, Any]] = []

    @hookimpl
    def before_tool_call(self, call: ToolCall, state: Any) -> None:
        self.seen.append(dict(call.arguments))


def _framework() -> tuple[Framework, Builtin]:
    fw = Framework()
    builtin = Builtin()
    fw.register(builtin)
    fw.load_entry_points(BRIDGE / "pyproject.toml")
    return fw, builtin


class Base(unittest.TestCase):
    url = ""
    token = ""

    def env(self, **extra: str) -> Any:
        values = {"HOOKHOST_URL": self.url, "HOOKHOST_TOKEN": self.token,
                  "HOOKHOST_TIMEOUT": "20", **extra}
        return mock.patch.dict(os.environ, values)

    def tool(self, command: str, **extra: str) -> tuple[Any, Any, Builtin]:
        fw, builtin = _framework()
        state = {"session_id": "s1", "_runtime_workspace": "/work"}
        with self.env(**extra):
            call, decision = asyncio.run(fw.before_tool_call(
                ToolCall("r1", "bash", {"command": command}), state))
        self.assertEqual(fw.errors, [], "the bridge must never raise")
        return call, decision, builtin

    def llm(self, model: str) -> tuple[Any, Any]:
        fw, _ = _framework()
        with self.env():
            return asyncio.run(fw.before_llm_call(
                LlmCallRequest("r1", model, [{"role": "user",
                                              "content": "hi"}]), {}))


class WithToken(Base):
    @classmethod
    def setUpClass(cls) -> None:
        cls.serve = hs.Serve(token="s3cret").__enter__()
        cls.url, cls.token = cls.serve.url, "s3cret"

    @classmethod
    def tearDownClass(cls) -> None:
        cls.serve.__exit__()

    def test_allow_proceeds_to_builtin(self) -> None:
        _, decision, builtin = self.tool("allow-me")
        self.assertEqual(decision.action, "proceed")
        self.assertEqual(builtin.seen, [{"command": "allow-me"}])

    def test_deny(self) -> None:
        _, decision, builtin = self.tool("deny-me")
        self.assertEqual((decision.action, decision.message),
                         ("deny", "denied by the test hook"))
        self.assertEqual(builtin.seen, [])

    def test_abort_denies(self) -> None:
        _, decision, _ = self.tool("abort-me")
        self.assertEqual((decision.action, decision.message),
                         ("deny", "aborted by the test hook"))

    def test_ask_denies(self) -> None:
        _, decision, _ = self.tool("ask-me")
        self.assertEqual((decision.action, decision.message),
                         ("deny", "approval required: "
                          "a person must approve this"))

    def test_respond_replaces(self) -> None:
        _, decision, builtin = self.tool("respond-me")
        self.assertEqual((decision.action, decision.result),
                         ("replace", "canned result"))
        self.assertEqual(builtin.seen, [])

    def test_modify_reaches_later_implementations(self) -> None:
        call, decision, builtin = self.tool("modify-me")
        self.assertEqual(decision.action, "proceed")
        self.assertEqual(call.arguments, {"command": "echo rewritten"})
        self.assertEqual(builtin.seen, [{"command": "echo rewritten"}])

    def test_hook_slower_than_the_timeout(self) -> None:
        _, decision, builtin = self.tool("spin-me", HOOKHOST_TIMEOUT="0.5")
        self.assertEqual(decision.action, "deny")
        self.assertIn("did not answer within 0.5s", decision.message)
        self.assertEqual(builtin.seen, [])

    def test_wrong_token(self) -> None:
        _, decision, _ = self.tool("allow-me", HOOKHOST_TOKEN="other")
        self.assertEqual(decision.action, "deny")
        self.assertIn("answered 401", decision.message)

    def test_after_tool_call_observes(self) -> None:
        fw, _ = _framework()
        with self.env():
            asyncio.run(fw.after_tool_call(
                ToolCall("r1", "bash", {"command": "ls"}),
                ToolCallResult("r1", "bash", {"command": "ls"}, "a\nb"), {}))
        self.assertEqual(fw.errors, [])

    def test_llm_abort_and_respond_finish(self) -> None:
        _, decision = self.llm("abort-model")
        self.assertEqual(decision, LlmCallDecision.finish(
            "no model calls today"))
        _, decision = self.llm("respond-model")
        self.assertEqual(decision, LlmCallDecision.finish("canned answer"))

    def test_llm_modify_changes_the_model(self) -> None:
        request, decision = self.llm("modify-model")
        self.assertIsNone(decision)
        self.assertEqual(request.model, "safer-model")

    def test_llm_no_opinion(self) -> None:
        request, decision = self.llm("gpt")
        self.assertEqual((request.model, decision), ("gpt", None))


class WithoutToken(Base):
    @classmethod
    def setUpClass(cls) -> None:
        cls.serve = hs.Serve().__enter__()
        cls.url = cls.serve.url

    @classmethod
    def tearDownClass(cls) -> None:
        cls.serve.__exit__()

    def test_deny_blocks_and_modify_is_not_applied(self) -> None:
        self.assertEqual(self.tool("deny-me")[1].action, "deny")
        call, decision, builtin = self.tool("modify-me")
        self.assertEqual(decision.action, "deny")
        self.assertIn("approval required", decision.message)
        self.assertEqual(builtin.seen, [])

    def test_respond_becomes_deny(self) -> None:
        self.assertEqual(self.tool("respond-me")[1].action, "deny")


class OverUnixSocket(Base):
    @classmethod
    def setUpClass(cls) -> None:
        cls.serve = hs.Serve(unix=True).__enter__()
        cls.url = cls.serve.url

    @classmethod
    def tearDownClass(cls) -> None:
        cls.serve.__exit__()

    def test_allow_deny_modify(self) -> None:
        self.assertEqual(self.tool("allow-me")[1].action, "proceed")
        self.assertEqual(self.tool("deny-me")[1].action, "deny")
        self.assertEqual(self.tool("modify-me")[0].arguments,
                         {"command": "echo rewritten"})


class Failures(Base):
    def assert_denies(self, want: str, **extra: str) -> None:
        _, decision, builtin = self.tool("allow-me", **extra)
        self.assertEqual(decision.action, "deny")
        self.assertIn(want, decision.message)
        self.assertEqual(builtin.seen, [])

    def test_server_down(self) -> None:
        self.url = hs.free_dead_url()
        self.assert_denies("not reachable")

    def test_server_down_finishes_llm_call(self) -> None:
        self.url = hs.free_dead_url()
        _, decision = self.llm("gpt")
        self.assertIn("not reachable", decision.text)

    def test_refused_answers(self) -> None:
        for name, status, body, delay, token, want, env in \
                hs.REFUSED_ANSWERS:
            with self.subTest(name), \
                    hs.FakeServer(hs.answer(status, body, delay)) as fake:
                self.url, self.token = fake.url, token
                self.assert_denies(want, **env)


if __name__ == "__main__":
    unittest.main()
