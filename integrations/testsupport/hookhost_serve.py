"""Test support shared by the Python bridges' tests: a real hookhost serve
built from this checkout, and a fake server for answers serve never gives.

The binary is $HOOKHOST_BIN when set (.ci/run builds it once), else it is
built here with ``go build`` into a temporary directory.
"""

from __future__ import annotations

import http.server
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
GUARD = HERE / "guard.lua"

_built: list[str] = []


def hookhost_binary() -> str:
    """The hookhost binary to test against (built once per process)."""
    if os.environ.get("HOOKHOST_BIN"):
        return os.environ["HOOKHOST_BIN"]
    if not _built:
        out = Path(tempfile.mkdtemp(prefix="hookhost-bin-")) / "hookhost"
        subprocess.run(["go", "build", "-o", str(out), "./cmd/hookhost"],
                       cwd=REPO, check=True)
        _built.append(str(out))
    return _built[0]


class Serve:
    """``hookhost serve`` on a free loopback port (or a Unix socket) with
    the test guard; use as a context manager."""

    def __init__(self, token: str = "", unix: bool = False) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="hookhost-serve-"))
        (self.dir / "hooks").mkdir()
        shutil.copy(GUARD, self.dir / "hooks" / "guard.lua")
        self.token = token
        self.unix = unix
        self.url = ""
        self.proc: subprocess.Popen[str] | None = None

    def __enter__(self) -> "Serve":
        addr = f"unix:{self.dir}/s.sock" if self.unix else "127.0.0.1:0"
        args = [hookhost_binary(), "serve", "--dir", str(self.dir / "hooks"),
                "--http", addr]
        if self.token:
            (self.dir / "token").write_text(self.token)
            os.chmod(self.dir / "token", 0o600)
            args += ["--token-file", str(self.dir / "token")]
        env = {k: v for k, v in os.environ.items() if k != "HOOKHOST_TOKEN"}
        self.proc = subprocess.Popen(args, stderr=subprocess.PIPE, text=True,
                                     env=env)
        self.url = self._wait_listening()
        return self

    def _wait_listening(self) -> str:
        assert self.proc is not None and self.proc.stderr is not None
        for line in self.proc.stderr:
            m = re.search(r'listening on (\S+?)"', line)
            if m:
                threading.Thread(target=self._drain, daemon=True).start()
                url = m.group(1)
                return url if url.startswith("unix:") else url
        raise RuntimeError(f"hookhost serve exited: {self.proc.wait()}")

    def _drain(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        for _ in self.proc.stderr:
            pass

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=30)
        shutil.rmtree(self.dir, ignore_errors=True)


def free_dead_url() -> str:
    """A loopback URL nobody listens on (a port just bound and released)."""
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}"


Responder = Callable[[http.server.BaseHTTPRequestHandler], None]


class FakeServer:
    """A loopback HTTP server answering every POST with ``respond``."""

    def __init__(self, respond: Responder) -> None:
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                respond(self)

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                                      Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> "FakeServer":
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def answer(status: int, body: bytes, delay: float = 0.0) -> Responder:
    """A responder that waits ``delay`` seconds, then answers."""
    def respond(h: http.server.BaseHTTPRequestHandler) -> None:
        if delay:
            time.sleep(delay)
        try:
            h.send_response(status)
            h.send_header("Content-Type", "application/json")
            h.send_header("Content-Length", str(len(body)))
            h.end_headers()
            h.wfile.write(body)
        except OSError:
            pass  # the client gave up first, as the timeout test wants
    return respond


# The answers a bridge must refuse, each with the text its refusal must
# carry and the environment it runs with: every bridge's tests run these
# cases against a FakeServer and check their own agent's refusal (a
# deny, a skip), so that the bridges fail closed alike. The table lives in
# refused_answers.json so that the Node bridge's tests read the same one.
# (name, status, body, delay, token, refusal text, extra environment)
REFUSED_ANSWERS: list[tuple[str, int, bytes, float, str, str, dict[str, str]]] = [
    (c["name"], c["status"], c["body"].encode("utf-8"), c["delay"],
     c["token"], c["refusal"], c["env"])
    for c in json.loads((HERE / "refused_answers.json").read_text())["cases"]
]
