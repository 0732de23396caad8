"""Fire a hookhost event from a Python agent bridge, failing closed.

This file is shared, byte for byte, by the gptme and bub bridges (each
ships its own copy so that each installs on its own; a test checks the
copies are identical). It knows nothing about either agent: it sends one
``POST /v1/fire/{event}`` to ``hookhost serve`` and returns the answer,
or raises :class:`HookhostError` with a reason naming the cause.

Configuration (environment): ``HOOKHOST_URL`` (default
``http://127.0.0.1:7878``, or ``unix:/path`` for a Unix socket),
``HOOKHOST_TOKEN`` and ``HOOKHOST_TIMEOUT`` (seconds, default 5).

Authentication follows hookhost's own clients:

- over a Unix socket the peer's uid must be ours or root (``SO_PEERCRED``
  on Linux), checked before anything is sent; the token, if set, then goes
  as a bearer token;
- over TCP with a token, the token is never sent: the request carries
  hookhost's proof (version 1) and the answer's ``Hookhost-Mac`` is checked
  before any of it is used;
- over TCP without a token the answer cannot be authenticated, so
  :func:`fire` marks it ``authenticated=False`` and :func:`restrict` may
  only make it stricter.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import http.client
import json
import os
import secrets
import socket
import struct
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import Any, Mapping

DEFAULT_URL = "http://127.0.0.1:7878"
DEFAULT_TIMEOUT = 5.0
MAX_ANSWER = 16 << 20  # bytes; a larger answer is refused, not truncated

# Actions that block the guarded action.
BLOCKING = frozenset({"deny", "abort_turn", "hard_abort"})


class HookhostError(Exception):
    """hookhost could not give a usable answer; the message names why."""


@dataclass(frozen=True)
class Config:
    """Where and how to reach ``hookhost serve``."""

    url: str = DEFAULT_URL
    token: str = ""
    timeout: float = DEFAULT_TIMEOUT

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "Config":
        """Read HOOKHOST_URL, HOOKHOST_TOKEN and HOOKHOST_TIMEOUT."""
        env = os.environ if env is None else env
        raw = env.get("HOOKHOST_TIMEOUT", "").strip()
        try:
            timeout = float(raw) if raw else DEFAULT_TIMEOUT
        except ValueError:
            raise HookhostError(
                f"HOOKHOST_TIMEOUT={raw!r} is not a number of seconds"
            ) from None
        if timeout <= 0:
            raise HookhostError(f"HOOKHOST_TIMEOUT={raw!r} must be positive")
        url = env.get("HOOKHOST_URL", "").strip() or DEFAULT_URL
        return cls(url, env.get("HOOKHOST_TOKEN", "").strip(), timeout)


@dataclass(frozen=True)
class Answer:
    """serve's answer to one fire, reduced to what a bridge maps."""

    action: str
    reason: str = ""
    result: Any = None
    payload: dict[str, Any] = field(default_factory=dict)
    messages: list[dict[str, str]] = field(default_factory=list)
    authenticated: bool = True

    @property
    def blocks(self) -> bool:
        """True for deny and the aborts."""
        return self.action in BLOCKING


def fire(event: str, payload: dict[str, Any],
         config: Config | None = None) -> Answer:
    """Fire ``event`` with ``payload``; raise HookhostError on any failure."""
    config = Config.from_env() if config is None else config
    body = json.dumps(payload, default=str).encode("utf-8")
    path = "/v1/fire/" + urllib.parse.quote(event, safe="")
    status, headers, data, proof = _exchange(config, path, body)
    if proof is not None:
        _check_answer_mac(config.token, proof, status, headers, data)
    if not 200 <= status < 300:
        raise HookhostError(
            f"hookhost at {config.url} answered {status}: {_error_text(data)}")
    return _parse(data, authenticated=proof is not None or _is_unix(config))


def restrict(answer: Answer) -> Answer:
    """Keep only what an unauthenticated answer may do: make a call stricter.

    An allow becomes no opinion, a modify becomes ask (without the change),
    a respond becomes deny; payload changes and messages are dropped.
    """
    if answer.authenticated:
        return answer
    action = {"allow": "continue", "modify": "ask",
              "respond": "deny"}.get(answer.action, answer.action)
    reason = answer.reason
    if action != answer.action:
        reason = (f"hookhost's {answer.action} is not trusted: the server "
                  "cannot be authenticated without HOOKHOST_TOKEN"
                  + (f" ({reason})" if reason else ""))
    return Answer(action, reason, authenticated=False)


def _is_unix(config: Config) -> bool:
    return config.url.startswith("unix:")


def _exchange(config: Config, path: str, body: bytes
              ) -> tuple[int, http.client.HTTPMessage, bytes, str | None]:
    """Send the request; return status, headers, body and the proof nonce."""
    headers = {"Content-Type": "application/json"}
    nonce: str | None = None
    if _is_unix(config):
        conn: http.client.HTTPConnection = _UnixConnection(
            config.url[len("unix:"):], config.timeout)
        if config.token:
            headers["Authorization"] = "Bearer " + config.token
    else:
        conn = _tcp_connection(config)
        if config.token:
            nonce = _b64(secrets.token_bytes(32))
            headers.update(request_proof(config.token, nonce,
                                         str(int(time.time())), "POST",
                                         path, body))
    try:
        conn.request("POST", path, body=body, headers=headers)
        resp = conn.getresponse()
        data = resp.read(MAX_ANSWER + 1)
    except socket.timeout:
        raise HookhostError(
            f"hookhost at {config.url} did not answer within "
            f"{config.timeout:g}s (HOOKHOST_TIMEOUT)") from None
    except HookhostError:
        raise
    except (OSError, http.client.HTTPException) as err:
        raise HookhostError(
            f"hookhost is not reachable at {config.url}: {err}") from None
    finally:
        conn.close()
    if len(data) > MAX_ANSWER:
        raise HookhostError(f"hookhost at {config.url} answered more than "
                            f"{MAX_ANSWER} bytes")
    return resp.status, resp.headers, data, nonce


def _tcp_connection(config: Config) -> http.client.HTTPConnection:
    url = urllib.parse.urlsplit(config.url)
    if url.scheme != "http" or not url.hostname:
        raise HookhostError(f"HOOKHOST_URL={config.url!r}: want "
                            "http://HOST:PORT or unix:/path")
    return http.client.HTTPConnection(url.hostname, url.port or 80,
                                      timeout=config.timeout)


class _UnixConnection(http.client.HTTPConnection):
    """HTTP over a Unix socket whose listener must be us or root."""

    def __init__(self, path: str, timeout: float) -> None:
        super().__init__("localhost", timeout=timeout)
        self._path = path

    def connect(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        try:
            sock.connect(self._path)
            _check_peer(sock, self._path)
        except BaseException:
            sock.close()
            raise
        self.sock = sock


def _check_peer(sock: socket.socket, path: str) -> None:
    """Refuse a socket served by another user (before sending anything)."""
    me = os.getuid()
    if hasattr(socket, "SO_PEERCRED"):
        creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,
                                struct.calcsize("3i"))
        pid, uid, _ = struct.unpack("3i", creds)
        who = f"uid {uid}, pid {pid}"
    else:  # no SO_PEERCRED: the socket file's owner is the best we have
        uid = os.stat(path).st_uid
        who = f"uid {uid} (the socket file's owner)"
    if uid not in (me, 0):
        raise HookhostError(
            f"the peer at {path} is not the hookhost server it claims to be: "
            f"the socket is served by {who}, not by this user (uid {me}) or "
            "root; nothing was sent to it")


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def _key(token: str) -> bytes:
    return hashlib.sha256(token.strip().encode("utf-8")).digest()


def request_proof(token: str, nonce: str, when: str, method: str,
                  target: str, body: bytes) -> dict[str, str]:
    """The four headers of hookhost's proof (version 1) for one request."""
    digest = hashlib.sha256(body).hexdigest()
    lines = ["hookhost-auth-v1 request", nonce, when, method, target, digest]
    mac = hmac.new(_key(token), "\n".join(lines).encode("utf-8"),
                   hashlib.sha256).digest()
    return {"Hookhost-Nonce": nonce, "Hookhost-Time": when,
            "Hookhost-Content-Sha256": digest, "Hookhost-Mac": _b64(mac)}


def answer_mac(token: str, nonce: str, status: int, body: bytes) -> str:
    """The Hookhost-Mac a genuine serve puts on its answer."""
    lines = ["hookhost-auth-v1 response", nonce, f"{status:03d}",
             hashlib.sha256(body).hexdigest()]
    mac = hmac.new(_key(token), "\n".join(lines).encode("utf-8"),
                   hashlib.sha256).digest()
    return _b64(mac)


def _check_answer_mac(token: str, nonce: str, status: int,
                      headers: http.client.HTTPMessage, body: bytes) -> None:
    got = headers.get("Hookhost-Mac")
    if got is None:
        raise HookhostError(
            f"the peer is not the hookhost server it claims to be: no proof "
            f"of the token (no Hookhost-Mac header; it answered {status}); it "
            "does not hold HOOKHOST_TOKEN's token (an impostor, a serve run "
            "with another token or none, or one older than this bridge): its "
            "answer is not used")
    if not hmac.compare_digest(got.strip(), answer_mac(token, nonce, status,
                                                       body)):
        raise HookhostError(
            "the peer is not the hookhost server it claims to be: its "
            "Hookhost-Mac does not match HOOKHOST_TOKEN's token: its answer "
            "is not used")


def _error_text(data: bytes) -> str:
    """serve's error message, or the start of whatever came back."""
    try:
        doc = json.loads(data)
        if isinstance(doc, dict) and isinstance(doc.get("error"), str):
            return doc["error"]
    except ValueError:
        pass
    text = data[:200].decode("utf-8", "replace").strip()
    return text or "(no body)"


def _parse(data: bytes, authenticated: bool) -> Answer:
    """Read serve's fire answer; anything unexpected is an error."""
    try:
        doc = json.loads(data)
    except ValueError as err:
        raise HookhostError(f"hookhost's answer is not JSON: {err}") from None
    decision = doc.get("decision") if isinstance(doc, dict) else None
    action = decision.get("action") if isinstance(decision, dict) else None
    if not isinstance(action, str) or not action:
        raise HookhostError("hookhost's answer has no decision.action")
    payload = doc.get("payload")
    messages = doc.get("messages") or []
    if not isinstance(payload, dict):
        payload = {}
    if not isinstance(messages, list):
        raise HookhostError(
            "hookhost's answer has messages that are not a list")
    return Answer(action, str(decision.get("reason") or ""),
                  decision.get("result"), payload,
                  [m for m in messages if isinstance(m, dict)], authenticated)
