"""The fake Bot API server: state, HTTP transport (threaded or asyncio), polling and webhook delivery."""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
import urllib.request
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from bot.channels.fake_bot_api.markup import ApiError, Rule, int_param, parse_params
from bot.channels.fake_bot_api.methods import BotMethods
from bot.channels.fake_bot_api.updates import BOT_ID, BOT_USERNAME, TOKEN, UpdateScripting

SEND_METHODS = frozenset(
    {"sendMessage", "sendPhoto", "editMessageText", "editMessageCaption", "editMessageMedia",
     "editMessageReplyMarkup", "sendChatAction", "deleteMessage"}
)  # fmt: skip


class FakeTelegram(UpdateScripting, BotMethods):
    """The fake Bot API server and its scripted state (thread-safe; see the module docstring).

    Attributes:
        calls: every API call received, in order: ``(method, params)``.
        events: every message sent or edited by the bot, in order (dicts with ``method``,
            ``chat_id``, ``message_id``, ``text``, ``caption``, ``photo``, ``parse_mode``, ``buttons``).
        messages: current state of every message, by ``(chat_id, message_id)``.
        answered: callback query ids answered, with their text: ``[(query_id, text | None)]``.
        commands: the last ``setMyCommands`` list.
        acked_offset: highest ``offset`` a poller confirmed (updates below it were delivered).

    Args:
        host: address to bind.
        port: port to bind (0: any free one).
        first_update_id: the first ``update_id`` (the tests count from 1; ``corsbot fake-telegram``
            starts from the current time in milliseconds, so that a bot whose database holds the
            updates of an earlier run never takes new ones for those).
    """

    def __init__(self, *, host: str = "127.0.0.1", port: int = 0, first_update_id: int = 1) -> None:
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
        self._next_update = first_update_id
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
                params = parse_params(content_type, body)
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

    async def serve_async(self, *, host: str = "127.0.0.1", port: int = 0) -> asyncio.Server:
        """Serve on an asyncio server instead (one thread, for benchmarks in a subprocess).

        Long polls are served by re-checking the queue every 5 ms until their timeout. Returns the
        started ``asyncio.Server``; its port is ``server.sockets[0].getsockname()[1]``.
        """
        import socket  # noqa: PLC0415

        async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
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
                        params = parse_params(content_type, body)
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
        if method in SEND_METHODS and int_param(params.get("chat_id")) in self.blocked:
            raise ApiError(403, "Forbidden: bot was blocked by the user")

    def _get_updates(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        offset = int_param(params.get("offset")) or 0
        limit = min(int_param(params.get("limit")) or 100, 100)
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
