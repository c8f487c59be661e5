"""What the fake Bot API checks and parses: Telegram's HTML subset, size limits, request bodies."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from html import unescape
from typing import Any
from urllib.parse import parse_qs

MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_CALLBACK_DATA = 64
_ALLOWED_TAGS = {
    "b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "a", "code", "pre",
    "tg-spoiler", "span", "blockquote", "tg-emoji",
}  # fmt: skip
_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)([^<>]*)>")
_ENTITY = re.compile(r"&(lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);")


class ApiError(Exception):
    """An error answer of the fake API (HTTP status = error_code)."""

    def __init__(self, code: int, description: str, retry_after: int | None = None) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.retry_after = retry_after


@dataclass
class Rule:
    """An injected failure: the next ``times`` calls of ``method`` for which ``when`` holds fail."""

    method: str
    code: int
    description: str
    times: int = 1
    retry_after: int | None = None
    when: Callable[[dict[str, Any]], bool] = field(default=lambda params: True)


def html_to_text(markup: str) -> str:
    """Check Telegram-style HTML and return its visible text.

    Raises:
        ApiError: 400 "can't parse entities" for an unknown or unbalanced tag or a bare ``&``/``<``/``>``.
    """
    out: list[str] = []
    stack: list[str] = []
    pos = 0
    while pos < len(markup):
        ch = markup[pos]
        if ch == "<":
            m = _TAG.match(markup, pos)
            if m is None or m.group(2).lower() not in _ALLOWED_TAGS:
                raise ApiError(400, f"Bad Request: can't parse entities: Unsupported start tag at byte offset {pos}")
            closing, name = m.group(1) == "/", m.group(2).lower()
            if closing:
                if not stack or stack[-1] != name:
                    raise ApiError(400, f"Bad Request: can't parse entities: Unexpected end tag at byte offset {pos}")
                stack.pop()
            else:
                stack.append(name)
            pos = m.end()
        elif ch == "&":
            m = _ENTITY.match(markup, pos)
            if m is None:
                raise ApiError(400, f"Bad Request: can't parse entities: Unsupported entity at byte offset {pos}")
            out.append(unescape(m.group(0)))
            pos = m.end()
        elif ch == ">":
            raise ApiError(400, f"Bad Request: can't parse entities: Unexpected '>' at byte offset {pos}")
        else:
            out.append(ch)
            pos += 1
    if stack:
        raise ApiError(
            400, f"Bad Request: can't parse entities: Can't find end tag corresponding to start tag {stack[-1]}"
        )
    return "".join(out)


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def int_param(value: Any) -> int | None:
    """An optional integer parameter (form values are strings); None when absent or empty.

    Raises:
        ApiError: 400 when it is no integer (Telegram answers 400, never drops the connection).
    """
    if value is None or value == "":
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ApiError(400, f"Bad Request: invalid integer parameter {value!r}") from None


def required_int(params: dict[str, Any], name: str) -> int:
    """A required integer parameter (``chat_id``, ``message_id``).

    Raises:
        ApiError: 400 "<name> is empty" when it is missing, as Telegram answers.
    """
    value = int_param(params.get(name))
    if value is None:
        raise ApiError(400, f"Bad Request: {name} is empty")
    return value


def parse_params(content_type: str, body: bytes) -> dict[str, Any]:
    """Form-encoded (PTB's default), JSON or multipart bodies -> params (JSON values decoded)."""
    if not body:
        return {}
    if content_type.startswith("application/json"):
        return json.loads(body)
    if content_type.startswith("multipart/form-data"):
        return _parse_multipart(content_type, body)
    params: dict[str, Any] = {k: v[-1] for k, v in parse_qs(body.decode(), keep_blank_values=True).items()}
    return _decode_json_fields(params)


def _decode_json_fields(params: dict[str, Any]) -> dict[str, Any]:
    for key in ("reply_markup", "commands", "allowed_updates", "reply_parameters", "media", "link_preview_options"):
        if isinstance(params.get(key), str):
            try:
                params[key] = json.loads(params[key])
            except ValueError:
                pass
    return params


def _parse_multipart(content_type: str, body: bytes) -> dict[str, Any]:
    boundary = content_type.split("boundary=", 1)[1].strip('"').encode()
    params: dict[str, Any] = {}
    for part in body.split(b"--" + boundary):
        head, _, value = part.partition(b"\r\n\r\n")
        m = re.search(rb'name="([^"]+)"', head)
        if m:
            params[m.group(1).decode()] = value.rstrip(b"\r\n").decode(errors="replace")
    return _decode_json_fields(params)


def visible(text: str, parse_mode: str | None, limit: int, too_long: str) -> str:
    visible = html_to_text(text) if (parse_mode or "").upper() == "HTML" else text
    if utf16(visible) > limit:
        raise ApiError(400, f"Bad Request: {too_long}")
    return visible


def parse_markup(raw: Any) -> dict[str, Any] | None:
    if not raw:
        return None
    markup = json.loads(raw) if isinstance(raw, str) else raw
    for row in markup.get("inline_keyboard", []):
        for button in row:
            data = button.get("callback_data")
            if data is not None and len(data.encode()) > MAX_CALLBACK_DATA:
                raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
    return markup


def set_markup(message: dict[str, Any], markup: dict[str, Any] | None) -> None:
    if markup:
        message["reply_markup"] = markup
    else:
        message.pop("reply_markup", None)
