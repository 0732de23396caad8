"""The transport: hookhost's proof against its documented known answer, and
the vendored copies in both bridges being the same file."""

import os
import struct
import sys
import unittest
from pathlib import Path
from unittest import mock

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from hookhost import _transport  # noqa: E402

BODY = b'{"tool_name":"bash","params":{"command":"rm -rf /"}}\n'
NONCE = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"


class ProofV1(unittest.TestCase):
    def test_known_request(self) -> None:
        self.assertEqual(_transport._b64(bytes(range(32))), NONCE)
        got = _transport.request_proof("s3cret-token", NONCE, "1767225600",
                                       "POST", "/v1/fire/tool.execute.pre",
                                       BODY)
        self.assertEqual(got["Hookhost-Content-Sha256"],
                         "7ac524ab5d9bd1e0ceacfebb3fbf5135"
                         "ff08ecc8010f1f3c6e218abd64f1bd25")
        self.assertEqual(got["Hookhost-Mac"],
                         "DvLmFT6d_jplWI4drKyqzquAOmpfxK6tW-YhcTiJTF4")

    def test_known_answer(self) -> None:
        body = b'{"event":"tool.execute.pre","decision":{"action":"deny"}}\n'
        self.assertEqual(_transport.answer_mac("s3cret-token", NONCE, 200,
                                               body),
                         "ob23iN_52uwg7XALbqRvo6iOGp8rjvfdjXmsM3lfA9Q")

    def test_token_is_trimmed(self) -> None:
        self.assertEqual(_transport._key(" s3cret-token\n"),
                         _transport._key("s3cret-token"))


class PeerCheck(unittest.TestCase):
    """A Unix socket served by another user is refused before sending
    (SO_PEERCRED: Linux, where CI runs)."""

    def sock(self, uid: int) -> mock.Mock:
        sock = mock.Mock()
        sock.getsockopt.return_value = struct.pack("3i", 4242, uid, uid)
        return sock

    def test_other_user_is_refused(self) -> None:
        with mock.patch.object(os, "getuid", return_value=1000):
            with self.assertRaisesRegex(_transport.HookhostError,
                                        "served by uid 1001, pid 4242, not "
                                        "by this user .uid 1000. or root; "
                                        "nothing was sent"):
                _transport._check_peer(self.sock(1001), "/s.sock")

    def test_same_user_and_root_pass(self) -> None:
        with mock.patch.object(os, "getuid", return_value=1000):
            _transport._check_peer(self.sock(1000), "/s.sock")
            _transport._check_peer(self.sock(0), "/s.sock")


class Vendored(unittest.TestCase):
    def test_bub_copy_is_identical(self) -> None:
        bub = HERE.parent.parent / "bub" / "hookhost_bub" / "_transport.py"
        self.assertEqual(bub.read_bytes(),
                         Path(_transport.__file__).read_bytes(),
                         "integrations/bub/hookhost_bub/_transport.py differs "
                         "from integrations/gptme/hookhost/_transport.py: "
                         "copy one over the other")


if __name__ == "__main__":
    unittest.main()
