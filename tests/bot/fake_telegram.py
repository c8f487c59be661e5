"""A fake Telegram Bot API server on 127.0.0.1 for end-to-end tests of the Telegram channel.

Stdlib only (``http.server`` in a daemon thread, HTTP/1.1 keep-alive); point python-telegram-bot at
it with ``ApplicationBuilder().base_url(server.base_url)`` (``http://127.0.0.1:PORT/bot``).

What it implements (Bot API 7+ shapes, the subset the channel uses): ``getMe``, ``getUpdates``
(long polling over a queue of scripted updates, honouring ``offset``/``timeout``), ``sendMessage``,
``sendPhoto``, ``editMessageText``, ``editMessageCaption``, ``editMessageMedia``,
``editMessageReplyMarkup``, ``deleteMessage``, ``answerCallbackQuery``, ``sendChatAction``,
``setMyCommands``, ``deleteWebhook``, ``setWebhook``, ``getWebhookInfo``, ``close``, ``logOut``.
Unknown methods answer 404 like Telegram.

Like Telegram it checks what it is sent: HTML parse mode must be well formed (only Telegram's tags,
``&`` only in ``&lt; &gt; &amp; &quot;`` or numeric entities, balanced tags), otherwise 400 "can't
parse entities"; a text over 4096 (caption over 1024) UTF-16 units after parsing is refused with 400
"message is too long" ("message caption is too long"); ``callback_data`` over 64 bytes gives 400
"BUTTON_DATA_INVALID"; ``getUpdates`` while a webhook is set gives 409 Conflict.

Injected faults: :meth:`FakeTelegram.fail` makes the next matching call(s) of a method answer an error
(400 / 403 / 409 / 429 with ``retry_after``); :meth:`FakeTelegram.block` makes every send to a chat
answer 403 "bot was blocked by the user".

Example::

    with FakeTelegram() as tg:
        tg.push_text(user_id=7, text="hello")
        ...  # run the bot with base_url=tg.base_url
        assert tg.wait_for(lambda: tg.texts(7))
"""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from html import unescape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

BOT_ID = 123456789
BOT_USERNAME = "corsbot_test_bot"
TOKEN = f"{BOT_ID}:TEST-fake-token"

MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_CALLBACK_DATA = 64
_ALLOWED_TAGS = {
    "b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "a", "code", "pre",
    "tg-spoiler", "span", "blockquote", "tg-emoji",
}  # fmt: skip
_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)([^<>]*)>")
_ENTITY = re.compile(r"&(lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);")
SEND_METHODS = frozenset(
    {"sendMessage", "sendPhoto", "editMessageText", "editMessageCaption", "editMessageMedia",
     "editMessageReplyMarkup", "sendChatAction", "deleteMessage"}
)  # fmt: skip


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


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


class FakeTelegram:
    """The fake Bot API server and its scripted state (thread-safe; see the module docstring).

    Attributes:
        calls: every API call received, in order: ``(method, params)``.
        events: every message sent or edited by the bot, in order (dicts with ``method``,
            ``chat_id``, ``message_id``, ``text``, ``caption``, ``photo``, ``parse_mode``, ``buttons``).
        messages: current state of every message, by ``(chat_id, message_id)``.
        answered: callback query ids answered, with their text: ``[(query_id, text | None)]``.
        commands: the last ``setMyCommands`` list.
        acked_offset: highest ``offset`` a poller confirmed (updates below it were delivered).
    """

    def __init__(self, *, host: str = "127.0.0.1", port: int = 0) -> None:
        self._cond = threading.Condition()
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.events: list[dict[str, Any]] = []
        self.messages: dict[tuple[int, int], dict[str, Any]] = {}
        self.answered: list[tuple[str, str | None]] = []
        self.commands: list[dict[str, Any]] = []
        self.rules: list[Rule] = []
        self.blocked: set[int] = set()
        self.webhook: dict[str, Any] | None = None
        self.acked_offset = 0
        self.delivered: list[int] = []
        self._queue: list[dict[str, Any]] = []
        self._next_update = 1
        self._next_message: dict[int, int] = {}
        self._next_query = 1
        self._closing = False
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # headers and body are two writes: avoid the 40 ms delayed-ACK stall

            def do_POST(self) -> None:  # noqa: N802 - http.server naming
                outer._serve(self)

            do_GET = do_POST  # noqa: N815

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                return

        class Server(ThreadingHTTPServer):
            request_queue_size = 1024  # the default backlog (5) resets bursts of new connections
            daemon_threads = True

        self._server = Server((host, port), Handler)
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, name="fake-telegram", daemon=True)

    # ------------------------------------------------------------------ life cycle

    @property
    def base_url(self) -> str:
        """Bot API root to give PTB (``ApplicationBuilder().base_url``)."""
        return f"http://127.0.0.1:{self.port}/bot"

    @property
    def base_file_url(self) -> str:
        """File root to give PTB (``ApplicationBuilder().base_file_url``)."""
        return f"http://127.0.0.1:{self.port}/file/bot"

    def start(self) -> FakeTelegram:
        """Serve in a daemon thread; returns self."""
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving and wake every held ``getUpdates``."""
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> FakeTelegram:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ scripting updates

    @staticmethod
    def user(user_id: int) -> dict[str, Any]:
        """A Telegram ``User`` object for a fake human user."""
        return {"id": user_id, "is_bot": False, "first_name": f"User{user_id}", "username": f"user_{user_id}"}

    @staticmethod
    def private_chat(user_id: int) -> dict[str, Any]:
        """The private ``Chat`` with a user (chat id = user id, as on Telegram)."""
        return {"id": user_id, "type": "private", "first_name": f"User{user_id}"}

    def _message_id(self, chat_id: int) -> int:
        self._next_message[chat_id] = self._next_message.get(chat_id, 0) + 1
        return self._next_message[chat_id]

    def push(self, update: dict[str, Any]) -> int:
        """Queue a raw update (its ``update_id`` is assigned here); returns the update id."""
        with self._cond:
            update = {"update_id": self._next_update, **update}
            self._next_update += 1
            self._queue.append(update)
            self._cond.notify_all()
        if self.webhook is not None:
            self._post_to_webhook(update)
        return update["update_id"]

    def push_text(self, user_id: int, text: str, *, chat: dict[str, Any] | None = None) -> int:
        """A user types ``text`` (a command gets its ``bot_command`` entity); returns the message id."""
        chat = chat or self.private_chat(user_id)
        with self._cond:
            mid = self._message_id(chat["id"])
        msg: dict[str, Any] = {"message_id": mid, "date": int(time.time()), "chat": chat, "from": self.user(user_id),
                               "text": text}  # fmt: skip
        if text.startswith("/"):
            msg["entities"] = [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]
        self.push({"message": msg})
        return mid

    def push_texts(self, items: list[tuple[int, str]]) -> None:
        """Queue many texts at once (one lock, one wake-up): ``[(user_id, text), ...]``."""
        with self._cond:
            for user_id, text in items:
                chat = self.private_chat(user_id)
                msg = {"message_id": self._message_id(user_id), "date": int(time.time()), "chat": chat,
                       "from": self.user(user_id), "text": text}  # fmt: skip
                self._queue.append({"update_id": self._next_update, "message": msg})
                self._next_update += 1
            self._cond.notify_all()

    def push_edit(self, user_id: int, message_id: int, text: str) -> int:
        """The user edits their earlier message ``message_id`` to ``text`` (an ``edited_message``)."""
        msg = {"message_id": message_id, "date": int(time.time()) - 5, "edit_date": int(time.time()),
               "chat": self.private_chat(user_id), "from": self.user(user_id), "text": text}  # fmt: skip
        return self.push({"edited_message": msg})

    def _push_media(self, user_id: int, media: dict[str, Any]) -> int:
        with self._cond:
            mid = self._message_id(user_id)
        msg = {"message_id": mid, "date": int(time.time()), "chat": self.private_chat(user_id),
               "from": self.user(user_id), **media}  # fmt: skip
        self.push({"message": msg})
        return mid

    def push_sticker(self, user_id: int) -> int:
        """The user sends a sticker."""
        return self._push_media(user_id, {"sticker": {"file_id": "stk", "file_unique_id": "stku", "type": "regular",
                                                      "width": 512, "height": 512, "is_animated": False,
                                                      "is_video": False, "emoji": "👍"}})  # fmt: skip

    def push_voice(self, user_id: int) -> int:
        """The user sends a voice note."""
        return self._push_media(user_id, {"voice": {"file_id": "v", "file_unique_id": "vu", "duration": 3}})

    def push_photo(self, user_id: int, caption: str | None = None) -> int:
        """The user sends a photo, optionally captioned."""
        media: dict[str, Any] = {"photo": [{"file_id": "p", "file_unique_id": "pu", "width": 90, "height": 90}]}
        if caption is not None:
            media["caption"] = caption
        return self._push_media(user_id, media)

    def push_channel_post(self, channel_id: int, text: str) -> int:
        """A post in a channel the bot is in: no ``from`` user."""
        with self._cond:
            mid = self._message_id(channel_id)
        chat = {"id": channel_id, "type": "channel", "title": "Some channel"}
        return self.push({"channel_post": {"message_id": mid, "date": int(time.time()), "chat": chat, "text": text}})

    def push_block(self, user_id: int, *, blocked: bool = True) -> int:
        """Telegram's ``my_chat_member`` update when the user blocks (or unblocks) the bot."""
        bot = {"id": BOT_ID, "is_bot": True, "first_name": "Corsbot", "username": BOT_USERNAME}
        old, new = ("member", "kicked") if blocked else ("kicked", "member")

        def member(status: str) -> dict[str, Any]:
            return {"user": bot, "status": status, **({"until_date": 0} if status == "kicked" else {})}

        return self.push({"my_chat_member": {
            "chat": self.private_chat(user_id), "from": self.user(user_id), "date": int(time.time()),
            "old_chat_member": member(old), "new_chat_member": member(new)}})  # fmt: skip

    def push_callback(self, user_id: int, message_id: int, data: str, *, chat_id: int | None = None) -> str:
        """The user taps a button with ``data`` on the bot's message ``message_id``; returns the query id."""
        chat_id = user_id if chat_id is None else chat_id
        with self._cond:
            query_id = str(self._next_query)
            self._next_query += 1
            message = dict(self.messages.get((chat_id, message_id)) or {
                "message_id": message_id, "date": int(time.time()), "chat": self.private_chat(chat_id),
                "from": self._me(), "text": "(old message)"})  # fmt: skip
        self.push({"callback_query": {"id": query_id, "from": self.user(user_id), "chat_instance": f"ci{chat_id}",
                                      "data": data, "message": message}})  # fmt: skip
        return query_id

    # ------------------------------------------------------------------ faults

    def fail(
        self,
        method: str,
        code: int,
        description: str,
        *,
        times: int = 1,
        retry_after: int | None = None,
        when: Callable[[dict[str, Any]], bool] | None = None,
    ) -> Rule:
        """Make the next ``times`` calls of ``method`` (matching ``when``) answer an error."""
        rule = Rule(method, code, description, times, retry_after, when or (lambda params: True))
        with self._cond:
            self.rules.append(rule)
        return rule

    def block(self, chat_id: int) -> None:
        """The user of ``chat_id`` blocks the bot: every send to it answers 403."""
        with self._cond:
            self.blocked.add(chat_id)

    # ------------------------------------------------------------------ inspection

    def wait_for(self, predicate: Callable[[], Any], timeout: float = 10.0) -> bool:
        """Wait until ``predicate()`` is truthy (re-checked after every API call); False on timeout."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while not predicate():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(min(left, 0.05))
            return True

    def sent(
        self, chat_id: int, *, methods: frozenset[str] = frozenset({"sendMessage", "sendPhoto"})
    ) -> list[dict[str, Any]]:
        """Messages the bot sent to a chat (not edits), in order."""
        with self._cond:
            return [e for e in self.events if e["chat_id"] == chat_id and e["method"] in methods]

    def texts(self, chat_id: int) -> list[str]:
        """Visible texts (or captions) of the messages sent to a chat, in order."""
        return [e["text"] if e["text"] is not None else (e["caption"] or "") for e in self.sent(chat_id)]

    def calls_of(self, method: str) -> list[dict[str, Any]]:
        """Parameters of every call of ``method``, in order."""
        with self._cond:
            return [p for m, p in self.calls if m == method]

    # ------------------------------------------------------------------ HTTP

    def _serve(self, request: BaseHTTPRequestHandler) -> None:
        length = int(request.headers.get("Content-Length") or 0)
        body = request.rfile.read(length) if length else b""
        status, data = self._respond(request.path, request.headers.get("Content-Type", ""), body)
        try:
            request.send_response(status)
            request.send_header("Content-Type", "application/json")
            request.send_header("Content-Length", str(len(data)))
            request.end_headers()
            request.wfile.write(data)
        except OSError:  # the client gave up (e.g. a cancelled long poll at shutdown)
            request.close_connection = True

    def _respond(self, raw_path: str, content_type: str, body: bytes, *, wait: bool = True) -> tuple[int, bytes]:
        """One API or control call -> (HTTP status, JSON body). ``wait=False``: getUpdates never blocks."""
        path = raw_path.split("?", 1)[0]
        m = re.fullmatch(r"/bot([^/]+)/(\w+)", path)
        try:
            if path.startswith("/control/"):
                result = self._control(path[len("/control/") :], json.loads(body) if body else None)
            elif m is None or m.group(1) != TOKEN:
                raise ApiError(404 if m is None else 401, "Not Found" if m is None else "Unauthorized")
            else:
                params = _parse_params(content_type, body)
                if not wait and m.group(2) == "getUpdates":
                    params["timeout"] = 0
                result = self._call(m.group(2), params)
            payload: dict[str, Any] = {"ok": True, "result": result}
            status = 200
        except ApiError as exc:
            payload = {"ok": False, "error_code": exc.code, "description": exc.description}
            if exc.retry_after is not None:
                payload["parameters"] = {"retry_after": exc.retry_after}
            status = exc.code
        return status, json.dumps(payload).encode()

    async def serve_async(self, *, host: str = "127.0.0.1", port: int = 0) -> Any:
        """Serve on an asyncio server instead (one thread, for benchmarks in a subprocess).

        Long polls are served by re-checking the queue every 5 ms until their timeout. Returns the
        started ``asyncio.Server``; its port is ``server.sockets[0].getsockname()[1]``.
        """
        import asyncio  # noqa: PLC0415
        import socket  # noqa: PLC0415

        async def connection(reader: Any, writer: Any) -> None:
            writer.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            try:
                while True:
                    line = await reader.readline()
                    if not line.strip():
                        break
                    target = line.decode("latin-1").split(" ")[1]
                    headers: dict[str, str] = {}
                    while (header := await reader.readline()) not in (b"\r\n", b"\n", b""):
                        name, _, value = header.decode("latin-1").partition(":")
                        headers[name.strip().lower()] = value.strip()
                    body = await reader.readexactly(int(headers.get("content-length") or 0))
                    content_type = headers.get("content-type", "")
                    status, data = self._respond(target, content_type, body, wait=False)
                    if "/getUpdates" in target and data.startswith(b'{"ok": true, "result": []'):
                        params = _parse_params(content_type, body)
                        deadline = time.monotonic() + min(float(params.get("timeout") or 0), 30.0)
                        while time.monotonic() < deadline and not self._queue and not self._closing:
                            await asyncio.sleep(0.005)
                        status, data = self._respond(target, content_type, body, wait=False)
                    writer.write(b"HTTP/1.1 %d X\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
                                 % (status, len(data)) + data)  # fmt: skip
                    await writer.drain()
            except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
                pass
            finally:
                writer.close()

        return await asyncio.start_server(connection, host, port, backlog=1024)

    def _control(self, action: str, body: Any) -> Any:
        """Control endpoints for a server in another process (benchmarks): ``push_texts`` (body
        ``[[user_id, text], ...]``), ``count`` (messages sent), ``texts`` (``{chat_id: [texts]}`` of
        ``sendMessage``), ``replies`` (``{chat_id: [text or caption]}`` of ``sendMessage`` and
        ``sendPhoto``, in order)."""
        if action == "push_texts":
            self.push_texts([(int(u), str(x)) for u, x in body])
            return True
        with self._cond:
            if action == "count":
                return sum(1 for e in self.events if e["method"] == "sendMessage")
            if action == "texts":
                out: dict[str, list[str]] = {}
                for e in self.events:
                    if e["method"] == "sendMessage":
                        out.setdefault(str(e["chat_id"]), []).append(e["text"])
                return out
            if action == "replies":
                out = {}
                for e in self.events:
                    if e["method"] in ("sendMessage", "sendPhoto"):
                        out.setdefault(str(e["chat_id"]), []).append(e.get("text") or e.get("caption") or "")
                return out
        raise ApiError(404, "Not Found: control action")

    def _me(self) -> dict[str, Any]:
        return {"id": BOT_ID, "is_bot": True, "first_name": "Corsbot", "username": BOT_USERNAME,
                "can_join_groups": False, "can_read_all_group_messages": False, "supports_inline_queries": False}  # fmt: skip

    def _call(self, method: str, params: dict[str, Any]) -> Any:
        if method == "getUpdates":
            return self._get_updates(params)
        with self._cond:
            self.calls.append((method, params))
            try:
                self._check_faults(method, params)
                handler = getattr(self, f"_m_{method}", None)
                if handler is None:
                    raise ApiError(404, "Not Found: method not found")
                return handler(params)
            finally:
                self._cond.notify_all()

    def _check_faults(self, method: str, params: dict[str, Any]) -> None:
        for rule in self.rules:
            if rule.method == method and rule.times > 0 and rule.when(params):
                rule.times -= 1
                raise ApiError(rule.code, rule.description, rule.retry_after)
        if method in SEND_METHODS and _int(params.get("chat_id")) in self.blocked:
            raise ApiError(403, "Forbidden: bot was blocked by the user")

    def _get_updates(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        offset = _int(params.get("offset")) or 0
        limit = min(_int(params.get("limit")) or 100, 100)
        timeout = float(params.get("timeout") or 0)
        deadline = time.monotonic() + min(timeout, 30.0)
        with self._cond:
            self.calls.append(("getUpdates", params))
            self._check_faults("getUpdates", params)
            if self.webhook is not None:
                raise ApiError(409, "Conflict: can't use getUpdates method while webhook is active; "
                                    "use deleteWebhook to delete the webhook first")  # fmt: skip
            if offset:
                self.acked_offset = max(self.acked_offset, offset)
                self._queue = [u for u in self._queue if u["update_id"] >= offset]
            while not self._queue and not self._closing:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._cond.wait(left)
            batch = self._queue[:limit]
            self.delivered.extend(u["update_id"] for u in batch)
            self._cond.notify_all()
            return batch

    def _post_to_webhook(self, update: dict[str, Any]) -> None:
        hook = self.webhook
        assert hook is not None
        headers = {"Content-Type": "application/json"}
        if hook.get("secret_token"):
            headers["X-Telegram-Bot-Api-Secret-Token"] = hook["secret_token"]
        req = urllib.request.Request(hook["url"], data=json.dumps(update).encode(), headers=headers, method="POST")
        with urllib.request.urlopen(req, timeout=5) as resp:  # noqa: S310 - 127.0.0.1 only
            resp.read()
        with self._cond:
            self._queue = [u for u in self._queue if u["update_id"] != update["update_id"]]
            self.delivered.append(update["update_id"])

    # ------------------------------------------------------------------ methods

    def _m_getMe(self, params: dict[str, Any]) -> dict[str, Any]:  # noqa: N802
        return self._me()

    def _m_setMyCommands(self, params: dict[str, Any]) -> bool:  # noqa: N802
        self.commands = params.get("commands") or []
        return True

    def _m_deleteWebhook(self, params: dict[str, Any]) -> bool:  # noqa: N802
        self.webhook = None
        return True

    def _m_setWebhook(self, params: dict[str, Any]) -> bool:  # noqa: N802
        self.webhook = {"url": params["url"], "secret_token": params.get("secret_token")}
        return True

    def _m_getWebhookInfo(self, params: dict[str, Any]) -> dict[str, Any]:  # noqa: N802
        return {"url": (self.webhook or {}).get("url", ""), "has_custom_certificate": False,
                "pending_update_count": len(self._queue)}  # fmt: skip

    def _m_close(self, params: dict[str, Any]) -> bool:
        return True

    _m_logOut = _m_close  # noqa: N815

    def _m_sendChatAction(self, params: dict[str, Any]) -> bool:  # noqa: N802
        return True

    def _m_answerCallbackQuery(self, params: dict[str, Any]) -> bool:  # noqa: N802
        self.answered.append((str(params["callback_query_id"]), params.get("text")))
        return True

    def _m_deleteMessage(self, params: dict[str, Any]) -> bool:  # noqa: N802
        key = (_int(params["chat_id"]), _int(params["message_id"]))
        if self.messages.pop(key, None) is None:
            raise ApiError(400, "Bad Request: message to delete not found")
        return True

    def _m_sendMessage(self, params: dict[str, Any]) -> dict[str, Any]:  # noqa: N802
        chat_id = _int(params["chat_id"])
        text = _visible(params.get("text") or "", params.get("parse_mode"), MAX_TEXT, "message is too long")
        if not text.strip():
            raise ApiError(400, "Bad Request: message text is empty")
        markup = _markup(params.get("reply_markup"))
        message = self._new_message(chat_id, {"text": text}, markup)
        self._event("sendMessage", message, params)
        return message

    def _m_sendPhoto(self, params: dict[str, Any]) -> dict[str, Any]:  # noqa: N802
        chat_id = _int(params["chat_id"])
        photo = params.get("photo")
        if not isinstance(photo, str) or not photo:
            raise ApiError(400, "Bad Request: there is no photo in the request")
        caption = params.get("caption")
        fields: dict[str, Any] = {"photo": [{"file_id": photo, "file_unique_id": "u" + str(abs(hash(photo)) % 10**8),
                                             "width": 300, "height": 450}]}  # fmt: skip
        if caption:
            fields["caption"] = _visible(caption, params.get("parse_mode"), MAX_CAPTION, "message caption is too long")
        message = self._new_message(chat_id, fields, _markup(params.get("reply_markup")))
        self._event("sendPhoto", message, params, photo=photo)
        return message

    def _m_editMessageText(self, params: dict[str, Any]) -> dict[str, Any]:  # noqa: N802
        message = self._existing(params)
        if "text" not in message:
            raise ApiError(400, "Bad Request: there is no text in the message to edit")
        text = _visible(params.get("text") or "", params.get("parse_mode"), MAX_TEXT, "message is too long")
        markup = _markup(params.get("reply_markup"))
        if text == message["text"] and markup == message.get("reply_markup"):
            raise ApiError(400, "Bad Request: message is not modified: specified new message content and reply "
                                "markup are exactly the same as a current content and reply markup of the message")  # fmt: skip
        message["text"] = text
        _set_markup(message, markup)
        message["edit_date"] = int(time.time())
        self._event("editMessageText", message, params)
        return message

    def _m_editMessageCaption(self, params: dict[str, Any]) -> dict[str, Any]:  # noqa: N802
        message = self._existing(params)
        caption = params.get("caption") or ""
        message["caption"] = _visible(caption, params.get("parse_mode"), MAX_CAPTION, "message caption is too long")
        _set_markup(message, _markup(params.get("reply_markup")))
        self._event("editMessageCaption", message, params)
        return message

    def _m_editMessageMedia(self, params: dict[str, Any]) -> dict[str, Any]:  # noqa: N802
        message = self._existing(params)
        media = params.get("media")
        media = json.loads(media) if isinstance(media, str) else media
        if not isinstance(media, dict) or media.get("type") != "photo":
            raise ApiError(400, "Bad Request: wrong media type")
        if "photo" not in message:
            raise ApiError(400, "Bad Request: message can't be edited")
        message["photo"] = [{"file_id": media["media"], "file_unique_id": "m", "width": 300, "height": 450}]
        caption = media.get("caption")
        if caption:
            message["caption"] = _visible(caption, media.get("parse_mode"), MAX_CAPTION, "message caption is too long")
        else:
            message.pop("caption", None)
        _set_markup(message, _markup(params.get("reply_markup")))
        self._event("editMessageMedia", message, params, photo=media["media"])
        return message

    def _m_editMessageReplyMarkup(self, params: dict[str, Any]) -> dict[str, Any]:  # noqa: N802
        message = self._existing(params)
        _set_markup(message, _markup(params.get("reply_markup")))
        self._event("editMessageReplyMarkup", message, params)
        return message

    # ------------------------------------------------------------------ helpers

    def _new_message(self, chat_id: int, fields: dict[str, Any], markup: dict[str, Any] | None) -> dict[str, Any]:
        message = {"message_id": self._message_id(chat_id), "date": int(time.time()), "chat": self.private_chat(chat_id),
                   "from": self._me(), **fields}  # fmt: skip
        _set_markup(message, markup)
        self.messages[(chat_id, message["message_id"])] = message
        return message

    def _existing(self, params: dict[str, Any]) -> dict[str, Any]:
        key = (_int(params.get("chat_id")), _int(params.get("message_id")))
        message = self.messages.get(key)  # type: ignore[arg-type]
        if message is None:
            raise ApiError(400, "Bad Request: message to edit not found")
        return message

    def _event(self, method: str, message: dict[str, Any], params: dict[str, Any], *, photo: str | None = None) -> None:
        markup = message.get("reply_markup")
        self.events.append({
            "method": method, "chat_id": message["chat"]["id"], "message_id": message["message_id"],
            "text": message.get("text"), "caption": message.get("caption"), "photo": photo,
            "parse_mode": params.get("parse_mode"), "reply_to": _int(params.get("reply_to_message_id") or (params.get("reply_parameters") or {}).get("message_id")),
            "buttons": [[(b["text"], b.get("callback_data")) for b in row] for row in markup["inline_keyboard"]]
            if markup else [],
            "time": time.monotonic(),
        })  # fmt: skip


def _int(value: Any) -> int | None:
    if value is None or value == "":
        return None
    return int(value)


def _parse_params(content_type: str, body: bytes) -> dict[str, Any]:
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


def _visible(text: str, parse_mode: str | None, limit: int, too_long: str) -> str:
    visible = html_to_text(text) if (parse_mode or "").upper() == "HTML" else text
    if _utf16(visible) > limit:
        raise ApiError(400, f"Bad Request: {too_long}")
    return visible


def _markup(raw: Any) -> dict[str, Any] | None:
    if not raw:
        return None
    markup = json.loads(raw) if isinstance(raw, str) else raw
    for row in markup.get("inline_keyboard", []):
        for button in row:
            data = button.get("callback_data")
            if data is not None and len(data.encode()) > MAX_CALLBACK_DATA:
                raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
    return markup


def _set_markup(message: dict[str, Any], markup: dict[str, Any] | None) -> None:
    if markup:
        message["reply_markup"] = markup
    else:
        message.pop("reply_markup", None)


# ---------------------------------------------------------------------- test doubles of the dialog side


class ScriptedHandler:
    """A fake dialog manager: ``script(turn) -> Reply`` (default :func:`echo`).

    Records every turn, counts overlapping turns of one user (``overlaps``, must stay 0) and the
    worker threads it ran on.
    """

    def __init__(self, script: Callable[[Any], Any] | None = None) -> None:
        self.script = script or echo
        self.turns: list[Any] = []
        self.threads: set[str] = set()
        self.overlaps = 0
        self._busy: set[str] = set()
        self._lock = threading.Lock()

    def handle(self, turn: Any) -> Any:
        with self._lock:
            if turn.user_id in self._busy:
                self.overlaps += 1
            self._busy.add(turn.user_id)
            self.turns.append(turn)
            self.threads.add(threading.current_thread().name)
        try:
            return self.script(turn)
        finally:
            with self._lock:
                self._busy.discard(turn.user_id)

    def texts(self, user_id: str) -> list[str]:
        """Texts of the turns of one user, in the order they were handled."""
        with self._lock:
            return [t.text for t in self.turns if t.user_id == user_id]


def echo(turn: Any) -> Any:
    """``you said X`` with Like/Skip buttons; a button press answers a card (edited in place)."""
    from bot.turns import Choice, Reply

    buttons = (Choice("Like", "like:Q1"), Choice("Skip", "skip"))
    if turn.payload is not None:
        return Reply(f"pressed {turn.payload} ({turn.text})", choices=buttons, card=True)
    return Reply(f"you said {turn.text}", choices=buttons)


async def wait_until(predicate: Callable[[], object], timeout: float = 10.0) -> bool:
    """Poll ``predicate`` from the event loop (the bot runs on the same loop) until true or timeout."""
    import asyncio  # noqa: PLC0415

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        await asyncio.sleep(0.02)
    return bool(predicate())


def main() -> None:
    """Serve in this process on asyncio (for benchmarks): prints ``PORT <n>``, serves until stdin closes."""
    import asyncio  # noqa: PLC0415
    import sys  # noqa: PLC0415

    async def run() -> None:
        fake = FakeTelegram(port=0)
        fake._server.server_close()  # the threaded transport is not used here
        server = await fake.serve_async()
        print(f"PORT {server.sockets[0].getsockname()[1]}", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        fake._closing = True
        server.close()

    asyncio.run(run())


if __name__ == "__main__":
    main()
