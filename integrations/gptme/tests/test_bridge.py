"""The gptme bridge through a stand-in of gptme's hook API (tests/standin),
against a real hookhost serve built from this checkout.

Set GPTME_SRC to a gptme checkout to run the same tests against gptme's
real hook registry and confirmation instead of the stand-in.
"""

from __future__ import annotations

import os
import sys
import unittest
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

HERE = Path(__file__).resolve().parent
BRIDGE = HERE.parent
sys.path[:0] = [os.environ.get("GPTME_SRC") or str(HERE / "standin"),
                str(BRIDGE), str(BRIDGE.parent / "testsupport")]

import hookhost_serve as hs  # noqa: E402
from gptme.hooks import (  # noqa: E402
    HookType, get_hooks, register_hook, trigger_hook)
from gptme.hooks.confirm import (  # noqa: E402
    ConfirmAction, ConfirmationResult, get_confirmation)

import hookhost.hooks  # noqa: E402  (the plugin, as gptme's loader imports it)


@dataclass
class ToolUse:
    """The fields of gptme's ToolUse the bridge reads."""
    tool: str
    args: list[str] | None
    content: str | None
    kwargs: dict[str, str] | None = None


def _reset_hooks() -> None:
    for hook in get_hooks():
        hook.enabled = False
    hookhost.hooks.register()


def _ask_person(*_: Any) -> ConfirmationResult:
    return ConfirmationResult.skip("the person said no")


class Base(unittest.TestCase):
    url = ""
    token = ""

    def setUp(self) -> None:
        _reset_hooks()

    def env(self, **extra: str) -> Any:
        values = {"HOOKHOST_URL": self.url, "HOOKHOST_TOKEN": self.token,
                  "HOOKHOST_TIMEOUT": "20", **extra}
        return mock.patch.dict(os.environ, values)

    def confirm(self, content: str, **extra: str) -> ConfirmationResult:
        with self.env(**extra):
            return get_confirmation(ToolUse("shell", [], content), None,
                                    Path("/work"))


class WithToken(Base):
    """TCP with a token: the proof both ways."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.serve = hs.Serve(token="s3cret").__enter__()
        cls.url, cls.token = cls.serve.url, "s3cret"

    @classmethod
    def tearDownClass(cls) -> None:
        cls.serve.__exit__()

    def test_allow(self) -> None:
        self.assertEqual(self.confirm("allow-me").action,
                         ConfirmAction.CONFIRM)

    def test_no_opinion_confirms(self) -> None:
        self.assertEqual(self.confirm("ls").action, ConfirmAction.CONFIRM)

    def test_deny(self) -> None:
        got = self.confirm("deny-me")
        self.assertEqual(got.action, ConfirmAction.SKIP)
        self.assertEqual(got.message, "denied by the test hook")

    def test_abort(self) -> None:
        got = self.confirm("abort-me")
        self.assertEqual((got.action, got.message),
                         (ConfirmAction.SKIP, "aborted by the test hook"))

    def test_respond_skips(self) -> None:
        self.assertEqual(self.confirm("respond-me").action, ConfirmAction.SKIP)

    def test_modify_edits(self) -> None:
        got = self.confirm("modify-me")
        self.assertEqual((got.action, got.edited_content),
                         (ConfirmAction.EDIT, "echo rewritten"))

    def test_ask_goes_to_the_person(self) -> None:
        register_hook("cli", HookType.TOOL_CONFIRM, _ask_person, priority=0)
        self.assertEqual(self.confirm("ask-me").message, "the person said no")

    def test_ask_without_a_person_skips(self) -> None:
        got = self.confirm("ask-me")
        self.assertEqual(got.action, ConfirmAction.SKIP)
        self.assertIn("approval required", got.message)
        self.assertIn("a person must approve this", got.message)

    def test_ranked_above_gptme_confirm_hooks(self) -> None:
        register_hook("server", HookType.TOOL_CONFIRM, _ask_person,
                      priority=100)
        self.assertEqual(self.confirm("deny-me").message,
                         "denied by the test hook")

    def test_hook_slower_than_the_timeout(self) -> None:
        got = self.confirm("spin-me", HOOKHOST_TIMEOUT="0.5")
        self.assertEqual(got.action, ConfirmAction.SKIP)
        self.assertIn("did not answer within 0.5s", got.message)

    def test_wrong_token_is_refused(self) -> None:
        got = self.confirm("allow-me", HOOKHOST_TOKEN="other")
        self.assertEqual(got.action, ConfirmAction.SKIP)
        self.assertIn("answered 401", got.message)
        self.assertIn("no Hookhost-Mac", got.message)

    def test_session_start_messages(self) -> None:
        with self.env():
            msgs = list(trigger_hook(HookType.SESSION_START, Path("/tmp/log"),
                                     Path("/work"), []))
        self.assertEqual([(m.role, m.content) for m in msgs],
                         [("system", "hello from hookhost")])

    def test_post_and_generation_do_not_block(self) -> None:
        data = mock.Mock(tool_use=ToolUse("shell", [], "ls"), workspace=None,
                         result_msgs=())
        with self.env():
            self.assertEqual(list(trigger_hook(HookType.TOOL_EXECUTE_POST,
                                               data)), [])
            self.assertEqual(list(trigger_hook(HookType.GENERATION_PRE, [],
                                               model="m")), [])


class WithoutToken(Base):
    """TCP without a token: the answer can only make the call stricter."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.serve = hs.Serve().__enter__()
        cls.url = cls.serve.url

    @classmethod
    def tearDownClass(cls) -> None:
        cls.serve.__exit__()

    def test_allow_is_no_opinion(self) -> None:
        register_hook("cli", HookType.TOOL_CONFIRM, _ask_person, priority=0)
        self.assertEqual(self.confirm("allow-me").message,
                         "the person said no")

    def test_deny_still_blocks(self) -> None:
        self.assertEqual(self.confirm("deny-me").message,
                         "denied by the test hook")

    def test_modify_is_not_applied(self) -> None:
        got = self.confirm("modify-me")
        self.assertEqual(got.action, ConfirmAction.SKIP)
        self.assertIn("not trusted", got.message)


class OverUnixSocket(Base):
    @classmethod
    def setUpClass(cls) -> None:
        cls.serve = hs.Serve(token="s3cret", unix=True).__enter__()
        cls.url, cls.token = cls.serve.url, "s3cret"

    @classmethod
    def tearDownClass(cls) -> None:
        cls.serve.__exit__()

    def test_allow_deny_modify(self) -> None:
        self.assertEqual(self.confirm("allow-me").action,
                         ConfirmAction.CONFIRM)
        self.assertEqual(self.confirm("deny-me").action, ConfirmAction.SKIP)
        self.assertEqual(self.confirm("modify-me").edited_content,
                         "echo rewritten")

    def test_bearer_401(self) -> None:
        got = self.confirm("allow-me", HOOKHOST_TOKEN="other")
        self.assertEqual(got.action, ConfirmAction.SKIP)
        self.assertIn("answered 401", got.message)


class Failures(Base):
    """Every failure to get an answer skips the tool, naming the cause."""

    def assert_skips(self, want: str, **extra: str) -> None:
        got = self.confirm("allow-me", **extra)
        self.assertEqual(got.action, ConfirmAction.SKIP)
        self.assertIn(want, got.message)

    def test_server_down(self) -> None:
        self.url = hs.free_dead_url()
        self.assert_skips("not reachable")

    def test_refused_answers(self) -> None:
        for name, status, body, delay, token, want, env in \
                hs.REFUSED_ANSWERS:
            with self.subTest(name), \
                    hs.FakeServer(hs.answer(status, body, delay)) as fake:
                self.url, self.token = fake.url, token
                self.assert_skips(want, **env)

    def test_bad_timeout_setting(self) -> None:
        self.url = hs.free_dead_url()
        self.assert_skips("HOOKHOST_TIMEOUT", HOOKHOST_TIMEOUT="soon")


if __name__ == "__main__":
    unittest.main()
