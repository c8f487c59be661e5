"""What keeps the web channel safe (issue 26): request size and rate limits, security headers, CSRF
tokens, the signing key of the session cookie and the console's login secret.

- **Size**: :class:`BodyLimit` (pure ASGI middleware) answers 413 to a request whose body is over the
  limit (declared ``Content-Length`` or counted while streaming), before any handler reads it. The rest
  of the body is read and dropped first (up to :data:`DRAIN_MAX_BYTES` and :data:`DRAIN_MAX_S`): a server
  that answers and closes while the client is still sending makes the client's kernel see a reset, not
  the 413 (a client that asked ``Expect: 100-continue`` has sent nothing yet and gets the 413 at once).
- **Errors** of the middleware (413, 429) are JSON ``{"error": "<readable message>"}`` to a request that
  accepts ``application/json`` (the chat page's script shows the message), plain text otherwise.
- **Rate**: :class:`RateLimiter`, token buckets per key (a client address, a participant, a login
  form), bounded in memory; a request over its bucket gets 429 with ``Retry-After``.
- **Headers**: :class:`SecurityHeaders` adds a Content-Security-Policy (scripts and styles only from
  this server: no inline script can run even if some text escaped escaping), ``X-Frame-Options:
  DENY``, ``nosniff`` and a same-origin referrer policy to every response.
- **CSRF**: every form and ``fetch`` POST carries the session's random token (:func:`csrf_token`,
  checked by :func:`csrf_ok` in constant time); the session cookie is also ``SameSite=Lax``,
  HttpOnly and signed (Starlette's ``SessionMiddleware``, itsdangerous).
- **Secrets**: the session signing key comes from ``CORSBOT_WEB_SECRET`` or a file
  (``$CORSBOT_HOME/web_secret.key``, mode 600, made on first start, so a restart keeps sessions);
  the console's login token only from the environment (``CORSBOT_CONSOLE_TOKEN``), never from a URL,
  and it is registered with :mod:`bot.redact` so no log line shows it.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import os
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from corsbot_errors import ConfigError

__all__ = [
    "DRAIN_MAX_BYTES",
    "DRAIN_MAX_S",
    "TOO_FAST",
    "BodyLimit",
    "ClientLimit",
    "RateLimiter",
    "SecurityHeaders",
    "console_fingerprint",
    "csrf_ok",
    "csrf_token",
    "load_signing_key",
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' http: https: data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'"
)
"""Card images come from the knowledge base's URLs (Wikimedia Commons), so images may be remote."""


TOO_FAST = "You are going a bit fast: wait a moment and send it again."
"""The readable message of a 429 (rate limits) in a JSON error."""
TOO_LARGE = "That was too much to send at once."
"""The readable message of a 413 in a JSON error."""
DRAIN_MAX_BYTES = 64 * 1024 * 1024
"""The most of a refused body read (and dropped) before the 413 goes out; a larger one is cut off."""
DRAIN_MAX_S = 10.0
"""The longest a refused body is read before the 413 goes out (a slow sender is cut off)."""


class _TooLarge(Exception):
    pass


class BodyLimit:
    """ASGI middleware: 413 for a request body over ``max_bytes`` (see the module docstring)."""

    def __init__(self, app: ASGIApp, *, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = self.max_bytes + 1
                if declared > self.max_bytes:
                    if declared <= DRAIN_MAX_BYTES:
                        await _drain(scope, receive)
                    await _refuse(scope, send, 413, "request too large", TOO_LARGE)
                    return
        seen = 0
        started = False

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise _TooLarge
            return message

        async def tracking(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited, tracking)
        except _TooLarge:
            if not started:
                await _drain(scope, receive, DRAIN_MAX_BYTES - seen)
                await _refuse(scope, send, 413, "request too large", TOO_LARGE)


async def _drain(scope: Scope, receive: Receive, limit: int = DRAIN_MAX_BYTES) -> None:
    """Read and drop the rest of a refused request body: at most ``limit`` bytes and :data:`DRAIN_MAX_S`
    seconds, nothing when the client waits for ``100 Continue`` (it has not sent the body)."""
    if (b"expect", b"100-continue") in ((k, v.lower()) for k, v in scope.get("headers", ())):
        return

    async def read() -> None:
        dropped = 0
        while dropped <= limit:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            dropped += len(message.get("body", b""))
            if not message.get("more_body", False):
                return

    try:
        await asyncio.wait_for(read(), DRAIN_MAX_S)
    except TimeoutError:
        return


def _wants_json(scope: Scope) -> bool:
    return any(k == b"accept" and b"application/json" in v for k, v in scope.get("headers", ()))


async def _refuse(
    scope: Scope, send: Send, status: int, text: str, readable: str, headers: tuple[tuple[bytes, bytes], ...] = ()
) -> None:
    """The middleware's error: ``{"error": readable}`` to a request that accepts JSON, else ``text``."""
    if _wants_json(scope):
        await _send(send, status, json.dumps({"error": readable}).encode(), b"application/json", headers)
    else:
        await _send(send, status, text.encode("utf-8"), b"text/plain; charset=utf-8", headers)


async def _send(
    send: Send, status: int, body: bytes, content_type: bytes, headers: tuple[tuple[bytes, bytes], ...]
) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", content_type), (b"content-length", str(len(body)).encode()),
                            *headers]})  # fmt: skip
    await send({"type": "http.response.body", "body": body})


class ClientLimit:
    """ASGI middleware: 429 (with ``Retry-After``) for a client address over its :class:`RateLimiter`."""

    def __init__(self, app: ASGIApp, *, limiter: RateLimiter) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        if scope["type"] == "http" and not self.limiter.allow(str(client[0]) if client else "unknown"):
            await _refuse(scope, send, 429, "too many requests, slow down", TOO_FAST,
                          ((b"retry-after", str(self.limiter.retry_after()).encode()),))  # fmt: skip
            return
        await self.app(scope, receive, send)


class SecurityHeaders:
    """ASGI middleware adding the security headers of the module docstring to every response."""

    HEADERS = (
        (b"content-security-policy", CSP.encode()),
        (b"x-frame-options", b"DENY"),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"same-origin"),
    )

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *self.HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


class RateLimiter:
    """Token buckets per key: ``allow(key)`` spends one token; ``rate`` tokens a second refill a
    bucket of ``burst``. At most ``max_keys`` buckets are kept (the least recently used go).

    Args:
        rate: tokens per second (0 or less: no limit).
        burst: bucket size.
        max_keys: bound on the buckets kept.
    """

    def __init__(self, rate: float, burst: float, *, max_keys: int = 100_000) -> None:
        self.rate, self.burst, self.max_keys = rate, burst, max_keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def allow(self, key: str, *, now: float | None = None) -> bool:
        """Spend a token of ``key``'s bucket; False when it is empty."""
        if self.rate <= 0:
            return True
        now = time.monotonic() if now is None else now
        with self._lock:
            tokens, last = self._buckets.pop(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - last) * self.rate)
            allowed = tokens >= 1.0
            self._buckets[key] = (tokens - 1.0 if allowed else tokens, now)
            while len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
        return allowed

    def retry_after(self) -> int:
        """Seconds to wait for one token (for ``Retry-After``)."""
        return max(1, int(1.0 / self.rate) if self.rate > 0 else 1)


def csrf_token(session: MutableMapping[str, Any]) -> str:
    """The session's CSRF token (made on first use)."""
    token = session.get("csrf")
    if not isinstance(token, str) or len(token) < 32:
        token = secrets.token_urlsafe(32)
        session["csrf"] = token
    return token


def csrf_ok(session: MutableMapping[str, Any], given: object) -> bool:
    """Whether ``given`` is the session's CSRF token (constant time)."""
    token = session.get("csrf")
    return isinstance(token, str) and isinstance(given, str) and hmac.compare_digest(token, given)


def console_fingerprint(token: str, key: bytes) -> str:
    """What the session keeps of a successful console login: an HMAC of the token (a changed token
    logs everyone out; the token itself is never stored in the cookie)."""
    return hmac.new(key, b"console:" + token.encode("utf-8"), hashlib.sha256).hexdigest()


def load_signing_key(home: Path, *, env: str = "CORSBOT_WEB_SECRET") -> bytes:
    """The session cookie's signing key: ``$CORSBOT_WEB_SECRET``, else the key file in ``home`` (made
    with mode 600 on first use).

    Raises:
        ConfigError: the key file cannot be read or written.
    """
    from bot.redact import register_secret

    given = os.environ.get(env, "").strip()
    if given:
        register_secret(given)
        return given.encode("utf-8")
    path = home / "web_secret.key"
    try:
        if not path.exists():
            home.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as fh:
                fh.write(secrets.token_urlsafe(48))
        key = path.read_text(encoding="utf-8").strip()
    except FileExistsError:
        key = path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise ConfigError(f"cannot read or create the web signing key {path} ({exc.strerror or exc}): "
                          f"set {env} or CORSBOT_HOME to a writable folder") from None  # fmt: skip
    if len(key) < 32:
        raise ConfigError(f"the web signing key {path} is too short: delete it to make a new one")
    register_secret(key)
    return key.encode("utf-8")
