"""Secrets never leave the process: redaction of bot tokens, webhook secrets and database passwords in
log lines, tracebacks and error messages (issue 17, item 2).

Two kinds of protection, both applied by :func:`redact`:

- **registered secrets** (:func:`register_secret`: the bot token read from the environment, the
  webhook secret, a database password) are replaced wherever they occur, and a token's secret part
  (after ``<bot id>:``) also on its own;
- **shapes** that carry a secret even when it was never registered: the Bot API URL path
  ``/bot<id>:<secret>/`` and the password of a URL (``postgresql://user:<password>@host``).

:func:`install` puts a :class:`RedactingFilter` on every handler of the root logger (a filter on a
logger would miss records propagated from child loggers such as ``telegram.ext`` or ``httpx``) and
wraps ``sys.excepthook`` and ``threading.excepthook``, so an uncaught traceback is redacted too. The
registry is process-wide on purpose: logging is process-wide, and a secret seen once must be hidden
from every later line (worker processes register what they read themselves).

Example:
    >>> register_secret("123456:SECRETSECRET")
    >>> redact("GET http://127.0.0.1:8081/bot123456:SECRETSECRET/getMe failed")
    'GET http://127.0.0.1:8081/bot123456:<redacted>/getMe failed'
"""

from __future__ import annotations

import logging
import re
import sys
import threading
from types import TracebackType

__all__ = ["MASK", "RedactingFilter", "install", "redact", "register_secret"]

MASK = "<redacted>"
"""What a secret is replaced with."""

_MIN_SECRET = 4  # shorter strings would mask ordinary words; no real token, password or secret is that short
_secrets: set[str] = set()
_lock = threading.Lock()
_pattern: re.Pattern[str] | None = None
_SHAPES = (
    (re.compile(r"(/bot\d+:)[^/\s'\"]+"), r"\1" + MASK),  # Bot API URLs: /bot<id>:<secret>/method
    (re.compile(r"(\b\d{5,}:)[A-Za-z0-9_-]{30,}"), r"\1" + MASK),  # a bare token of Telegram's shape
    (re.compile(r"(\b[a-z][a-z0-9+.-]*://[^:/@\s]*:)[^@\s]+@"), r"\1" + MASK + "@"),  # scheme://user:password@
)


def register_secret(secret: str | None) -> None:
    """Hide ``secret`` from everything :func:`redact` sees from now on (None or very short: ignored).

    A bot token ``<id>:<secret>`` registers its secret part too, so that the part alone is hidden.
    """
    global _pattern
    if not secret or len(secret) < _MIN_SECRET:
        return
    parts = {secret}
    head, sep, tail = secret.partition(":")
    if sep and head.isdigit() and len(tail) >= _MIN_SECRET:
        parts.add(tail)
    with _lock:
        if parts <= _secrets:
            return
        _secrets.update(parts)
        alternatives = sorted(_secrets, key=len, reverse=True)  # longest first: the whole token before its part
        _pattern = re.compile("|".join(re.escape(s) for s in alternatives))


def redact(text: object) -> str:
    """``str(text)`` with every registered secret and every secret-carrying shape masked."""
    out = str(text)
    pattern = _pattern
    if pattern is not None:
        out = pattern.sub(_mask_keeping_bot_id, out)
    for shape, replacement in _SHAPES:
        out = shape.sub(replacement, out)
    return out


def _mask_keeping_bot_id(match: re.Match[str]) -> str:
    head, sep, _ = match.group(0).partition(":")
    return f"{head}:{MASK}" if sep and head.isdigit() else MASK


class RedactingFilter(logging.Filter):
    """A handler filter that redacts the formatted message, the traceback and the stack of a record.

    The record is rewritten in place (message formatted once, ``args`` cleared, ``exc_text`` set to
    the redacted traceback), so every formatter after it sees only redacted text.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        """Redact ``record``; always keeps it."""
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a bad format string must not lose the line
            message = f"{record.msg!r} {record.args!r}"
        record.msg, record.args = redact(message), None
        if record.exc_info and record.exc_info[0] is not None:  # formatters use exc_text when it is set
            record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
        elif record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


_FILTER = RedactingFilter()


def install(root: logging.Logger | None = None) -> None:
    """Put the redacting filter on every handler of ``root`` (default the root logger) and redact
    uncaught tracebacks (``sys.excepthook``, ``threading.excepthook``). Idempotent; call it after
    the handlers are configured."""
    root = root or logging.getLogger()
    for handler in root.handlers:
        if _FILTER not in handler.filters:
            handler.addFilter(_FILTER)
    if getattr(sys.excepthook, "__name__", "") != "_redacted_excepthook":
        sys.excepthook = _redacted_excepthook
        threading.excepthook = _redacted_thread_excepthook


def _redacted_excepthook(
    kind: type[BaseException], value: BaseException, tb: TracebackType | None
) -> None:  # pragma: no cover - process exit path
    import traceback  # noqa: PLC0415

    sys.stderr.write(redact("".join(traceback.format_exception(kind, value, tb))))


def _redacted_thread_excepthook(args: threading.ExceptHookArgs) -> None:  # pragma: no cover
    if args.exc_type is SystemExit:
        return
    import traceback  # noqa: PLC0415

    name = args.thread.name if args.thread is not None else "?"
    text = "".join(traceback.format_exception(args.exc_type, args.exc_value, args.exc_traceback))
    sys.stderr.write(redact(f"Exception in thread {name}:\n{text}"))
