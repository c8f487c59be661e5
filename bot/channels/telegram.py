"""The Telegram channel (python-telegram-bot v22): Telegram updates in, :class:`Turn` values to the
dialog manager, :class:`Reply` values rendered back. The only module of the project that imports
``telegram``; ``Update``, ``chat_id``, ``ParseMode`` and keyboards never leave it (STYLE H4).

The channel *holds* a PTB :class:`~telegram.ext.Application` (it is not one) and translates:

- **Text** in a private chat (commands included, ``/start@OurBot`` shortened to ``/start``) becomes
  ``Turn(user_id="tg:<telegram user id>", text, payload=None, interaction_type="mixed")``.
  Every Telegram turn is ``"mixed"``: the dataset logs the interaction type per session, and a
  Telegram session is one where buttons are offered (ConveRSE ``messages_mixed`` files).
- **A button press** (callback query) is answered at once (before any slow work, F06; a "query is
  too old" error is swallowed), then becomes ``Turn(text=<button label>, payload=<callback_data>)``.
  When the reply is a card (``Reply.card``) it edits the pressed card in place, else it is sent as
  a new message. Repeated taps on a card that is still being computed are debounced (F05): they are
  answered "working on it" at once; when the computation ends, the *last* of them runs, unless it
  repeats the payload just run or the card was meanwhile edited in place (the tap was made on the
  card's previous version: a generic "like" must not land on the next item).
  A stale button whose state the dialog manager no longer has is the dialog manager's business (it
  gets the payload and answers e.g. "that list is out of date").
- **Captions** of photos and other media are processed as text (the user wrote them); media without
  a caption (sticker, voice, photo, video, document, location, ...) gets a short "I can only read
  text" reply and never reaches the dialog manager, so the conversation state stays where it was (F02).
- **Edited messages** are never re-read: the user gets "edits are not read, please send it again"
  (F01), so an opinion is never counted twice. Channel posts, group and supergroup messages and
  updates without a user are ignored quietly.
- **Replies** are sent in HTML parse mode with every dynamic string escaped; if Telegram still
  answers 400 "can't parse entities" the part is resent as plain text (F03). Long texts are split on
  line boundaries at 4096 UTF-16 units after escaping, the keyboard only on the last part (F04).
  With ``Reply.image`` a photo is sent with the text as caption when it fits in 1024 units (else the
  photo, then the text); if the photo fails the reply falls back to text. Inline keyboards come from
  ``Reply.choices``, ``callback_data`` = ``Choice.payload`` (checked <= 64 bytes by ``Choice``, F08).
- **Work off the loop** (F12): ``DialogHandler.handle`` (NLU, PageRank, SQLite) runs in the channel's
  thread pool; a handler with an ``ahandle`` coroutine (:class:`AsyncDialogHandler`, e.g. the dialog
  managers in worker processes of :mod:`bot.dialog_pool`, what ``corsbot telegram`` runs) is awaited
  on the loop instead. A "typing" action is sent once if the answer is not ready after ``typing_delay_s``,
  a "still working on it" note once after ``slow_notice_s``; after ``deadline_s`` the user gets an
  apology and the channel stops waiting (the worker thread itself cannot be interrupted).
- **Order and concurrency** (F11): updates of one user are processed strictly in arrival order (a
  per-user FIFO lock taken by the update processor before anything else is awaited), different users
  concurrently (up to ``max_concurrent_updates``).
- **HTTP**: PTB talks to the Bot API through :class:`AiohttpRequest` (aiohttp, kept-alive
  connections, ``connection_pool_size`` of them), or PTB's own httpx backend with
  ``http_backend="httpx"``.
- **Flood control**: PTB's :class:`~telegram.ext.AIORateLimiter` (overall rate configurable) retries
  after a 429 ``RetryAfter`` up to ``max_retries`` times, waiting the time Telegram asks for.
- **Blocked users** (F09): a 403 ``Forbidden`` on a send, or Telegram's ``my_chat_member`` update
  saying the user blocked the bot, marks the user inactive in :class:`bot.channels.users.ChannelUsers`
  and the channel keeps serving everyone else; the user is active again when they unblock or write. (The channel schedules no jobs of its own.)
- **Single instance** (F10): :class:`InstanceLock` (an ``fcntl`` lock file next to the database,
  named after the bot id) refuses a second instance with the same token on the same machine;
  polling calls ``deleteWebhook`` at start-up (PTB's bootstrap), and a 409 ``Conflict`` from
  ``getUpdates`` (another poller elsewhere) stops the channel with a clear error.
- A **global error handler** logs the failure with its traceback and sends the user a polite apology.

Example (a handler that echoes, against the real Bot API)::

    channel = TelegramChannel(EchoHandler(), TelegramConfig(token=os.environ["TELEGRAM_BOT_TOKEN"]))
    channel.run()          # long polling until SIGINT / SIGTERM
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import logging
import os
import re
import signal
import time
import warnings
from collections.abc import AsyncIterator, Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import aiohttp
from telegram import (
    BotCommand,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
    ReplyParameters,
    Update,
)
from telegram.constants import ChatAction, ParseMode
from telegram.error import BadRequest, Conflict, Forbidden, InvalidToken, NetworkError, TelegramError, TimedOut
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    BaseUpdateProcessor,
    CallbackQueryHandler,
    ChatMemberHandler,
    ContextTypes,
    MessageHandler,
    filters,
)
from telegram.request import BaseRequest, RequestData
from telegram.warnings import PTBUserWarning

from bot.channels.render import (
    TELEGRAM_CAPTION_LIMIT,
    TELEGRAM_TEXT_LIMIT,
    escape_html,
    fits_caption,
    split_text,
)
from bot.channels.users import ChannelUsers
from bot.turns import Choice, Reply, Turn
from logs.errors import CorsbotError

logger = logging.getLogger(__name__)

USER_PREFIX = "tg:"
"""Prefix of Telegram user keys in :class:`Turn` (``"tg:42"``)."""
INTERACTION_TYPE = "mixed"
"""Interaction type of every Telegram turn: buttons are offered in a Telegram session."""

DEFAULT_COMMANDS: tuple[tuple[str, str], ...] = (
    ("start", "start (or restart) the conversation"),
    ("help", "what I can do and how to talk to me"),
    ("movie", "talk about movies"),
    ("book", "talk about books"),
    ("music", "talk about music"),
    ("profile", "what I know you like and dislike"),
    ("recommend", "recommend something now"),
    ("reset", "forget your preferences"),
)
"""Commands published with ``setMyCommands``; the command text is passed to the dialog manager as is."""

_MEDIA = (
    filters.Sticker.ALL
    | filters.VOICE
    | filters.AUDIO
    | filters.VIDEO
    | filters.VIDEO_NOTE
    | filters.ANIMATION
    | filters.PHOTO
    | filters.Document.ALL
    | filters.LOCATION
    | filters.VENUE
    | filters.CONTACT
    | filters.POLL
    | filters.Dice.ALL
    | filters.STORY
)
_COMMAND_MENTION = re.compile(r"^(/[A-Za-z0-9_]+)@[A-Za-z0-9_]+")


class DialogHandler(Protocol):
    """Anything that answers one turn: ``bot.dialog.DialogManager`` or a test fake.

    ``handle`` is synchronous and may block (NLU, PageRank, SQLite); it must be safe to call from
    several threads for different users. The channel never calls it twice at once for one user.
    """

    def handle(self, turn: Turn) -> Reply:
        """Answer one turn."""
        ...


class AsyncDialogHandler(DialogHandler, Protocol):
    """A handler that can also answer on the event loop without blocking it (e.g.
    :class:`bot.dialog_pool.ProcessDialogHandler`, whose turns run in worker processes): the
    channel awaits ``ahandle`` instead of running ``handle`` in its thread pool."""

    async def ahandle(self, turn: Turn) -> Reply:
        """Answer one turn (a coroutine; must not block the loop)."""
        ...


class ChannelError(CorsbotError):
    """The Telegram channel cannot run (bad token, another instance running, unusable setting)."""


@dataclass(frozen=True, slots=True)
class ChannelTexts:
    """User-facing texts of the channel itself (the dialog manager owns every other text)."""

    only_text: str = "I can only read text. Tell me a title or a name, or type /help."
    edits_not_read: str = "I don't read edited messages. Please send it again as a new message."
    working: str = "Working on it…"
    still_working: str = "Still working on it, one moment…"
    too_slow: str = "Sorry, that took too long. Please try again, maybe with a narrower request."
    apology: str = "Sorry, something went wrong on my side. Please try again."
    choose: str = "Please choose:"


@dataclass(frozen=True, slots=True)
class TelegramConfig:
    """Settings of the Telegram channel.

    Attributes:
        token: bot token from @BotFather (``"123456:ABC..."``).
        base_url: Bot API root; PTB appends the token (``https://api.telegram.org/bot``; a fake
            server in tests, ``http://127.0.0.1:PORT/bot``).
        base_file_url: file download root, same convention.
        workers: threads running ``DialogHandler.handle`` (>= 1) and the user bookkeeping; a handler
            with ``ahandle`` is awaited on the loop instead.
        max_concurrent_updates: updates processed at once across users (>= 1).
        typing_delay_s: send one "typing" action if the answer is not ready after this many seconds.
        slow_notice_s: send one "still working" note after this many seconds.
        deadline_s: stop waiting for the answer after this many seconds and apologise.
        debounce: answer repeated taps on a busy card "working on it" and run only the last one.
        overall_rate_per_s: AIORateLimiter's overall limit (Telegram: about 30 messages/s per bot);
            0 disables it (benchmarks against a fake server).
        max_retries: retries after a 429 ``RetryAfter`` (waiting what Telegram asks).
        poll_timeout_s: long-polling timeout of ``getUpdates``.
        request_timeout_s: read/write/connect timeout of ordinary Bot API calls.
        connection_pool_size: HTTP connections for ordinary Bot API calls (kept alive).
        http_backend: ``"aiohttp"`` (default: :class:`AiohttpRequest`, about 4x less CPU per call
            than PTB's httpx backend, see ``bot/cli_telegram.py``) or ``"httpx"`` (PTB's own
            :class:`~telegram.request.HTTPXRequest`, e.g. to use PTB's proxy support).
        commands: (command, description) pairs for ``setMyCommands``.
        webhook_url: public HTTPS URL Telegram posts updates to; None = long polling.
        listen: address the local webhook server binds to.
        port: port of the local webhook server.
        url_path: path of the webhook on the local server.
        secret_token: webhook secret (``X-Telegram-Bot-Api-Secret-Token``), or None.
    """

    token: str
    base_url: str = "https://api.telegram.org/bot"
    base_file_url: str = "https://api.telegram.org/file/bot"
    workers: int = 8
    max_concurrent_updates: int = 256
    typing_delay_s: float = 0.5
    slow_notice_s: float = 8.0
    deadline_s: float = 60.0
    debounce: bool = True
    overall_rate_per_s: float = 30.0
    max_retries: int = 3
    poll_timeout_s: float = 10.0
    request_timeout_s: float = 15.0
    connection_pool_size: int = 64
    http_backend: str = "aiohttp"
    commands: tuple[tuple[str, str], ...] = DEFAULT_COMMANDS
    webhook_url: str | None = None
    listen: str = "127.0.0.1"
    port: int = 8443
    url_path: str = "telegram"
    secret_token: str | None = None

    def __post_init__(self) -> None:
        if not self.token or ":" not in self.token:
            raise ChannelError("the Telegram bot token is missing or malformed (expected '<bot id>:<secret>')")
        if self.workers < 1 or self.max_concurrent_updates < 1:
            raise ChannelError("workers and max_concurrent_updates must be >= 1")
        if not 0 <= self.typing_delay_s <= self.slow_notice_s <= self.deadline_s:
            raise ChannelError("need 0 <= typing_delay_s <= slow_notice_s <= deadline_s")
        if self.http_backend not in ("aiohttp", "httpx"):
            raise ChannelError(f"http_backend must be 'aiohttp' or 'httpx', not {self.http_backend!r}")
        if self.connection_pool_size < 1:
            raise ChannelError("connection_pool_size must be >= 1")


# --------------------------------------------------------------------------- single instance (F10)


def bot_id_of(token: str) -> str:
    """The numeric bot id of a token (the part before ':'), or a short hash if it has none."""
    head = token.split(":", 1)[0]
    return head if head.isdigit() else hashlib.sha256(token.encode()).hexdigest()[:12]


def lock_path_for(token: str, folder: Path) -> Path:
    """Lock file of the bot owning ``token``: ``<folder>/telegram-<bot id>.lock`` (folder = the DB's)."""
    return Path(folder) / f"telegram-{bot_id_of(token)}.lock"


class InstanceLock:
    """An exclusive, non-blocking ``fcntl.flock`` on a lock file: one running bot per token and host.

    The lock is released by the kernel when the process dies, so a stale file never blocks a restart.
    The file holds the owner's pid (for the error message).

    Example::

        with InstanceLock(lock_path_for(token, db.parent)):
            channel.run()
    """

    def __init__(self, path: Path) -> None:
        """Args: path: the lock file (created with its folder if missing)."""
        self.path = Path(path)
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock.

        Raises:
            ChannelError: if another process (or another ``InstanceLock`` object) holds it.
        """
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            owner = os.read(fd, 32).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise ChannelError(
                f"another corsbot telegram instance is already running with this bot token "
                f"(lock {self.path} held by pid {owner}); stop it first"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._fd = fd

    def release(self) -> None:
        """Release the lock (idempotent); the file is left in place."""
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> InstanceLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


# --------------------------------------------------------------------------- HTTP backend


class AiohttpRequest(BaseRequest):
    """python-telegram-bot networking backend on an :mod:`aiohttp` client session (HTTP/1.1 keep-alive).

    PTB's default backend (httpx over httpcore and anyio) costs about 4-5 ms of CPU per Bot API call
    on this project's 2-core test machine, most of it in httpcore's connection-pool bookkeeping
    (its queue is re-scanned for every request, each idle connection is probed with a ``poll``
    syscall); this one about 0.4 ms, and a whole message through PTB and the channel 1.2-1.6 ms
    instead of 5-6.5 ms (``corsbot bench telegram`` and py-spy; figures in ``bot/cli_telegram.py``). It implements PTB's documented extension point
    :class:`telegram.request.BaseRequest`: parameters are sent form-encoded (JSON values as PTB
    encodes them), files as ``multipart/form-data``.

    Timeouts (seconds, None = no limit; PTB passes per-call values, else the defaults here):
    ``connect_timeout`` bounds the TCP/TLS connect, ``pool_timeout`` + ``connect_timeout`` the wait
    for a free pooled connection plus the connect, ``read_timeout`` each socket read, and their sum
    plus ``write_timeout`` the whole call. Errors: a timeout raises :class:`telegram.error.TimedOut`,
    any other client failure :class:`telegram.error.NetworkError` (as PTB's own backend does).

    Example::

        ApplicationBuilder().token(token).request(AiohttpRequest(connection_pool_size=64)).build()
    """

    def __init__(
        self, *, connection_pool_size: int = 64, timeout_s: float | None = 15.0, read_timeout_s: float | None = None
    ) -> None:
        """Args:
        connection_pool_size: most connections open at once (per host); further calls wait.
        timeout_s: default connect, pool, write and read timeout in seconds.
        read_timeout_s: default read timeout if different (``getUpdates``: poll timeout + margin).
        """
        self._pool_size = connection_pool_size
        self._timeout_s = timeout_s
        self._read_timeout_s = timeout_s if read_timeout_s is None else read_timeout_s
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float | None:
        """Default read timeout in seconds (PTB adds it to long-polling timeouts)."""
        return self._read_timeout_s

    async def initialize(self) -> None:
        """Open the client session (idempotent)."""
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(
                limit=self._pool_size, limit_per_host=self._pool_size, keepalive_timeout=30
            )
            self._session = aiohttp.ClientSession(connector=connector, headers={"User-Agent": self.USER_AGENT})

    async def shutdown(self) -> None:
        """Close the session and its connections (idempotent)."""
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = BaseRequest.DEFAULT_NONE,
        write_timeout: Any = BaseRequest.DEFAULT_NONE,
        connect_timeout: Any = BaseRequest.DEFAULT_NONE,
        pool_timeout: Any = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        """One HTTP call -> (status code, body); see :meth:`telegram.request.BaseRequest.do_request`.

        Raises:
            RuntimeError: not initialised.
            telegram.error.TimedOut: a timeout expired.
            telegram.error.NetworkError: the call failed otherwise (refused connection, reset, bad URL).
        """
        session = self._session
        if session is None or session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        read = self._read_timeout_s if read_timeout is BaseRequest.DEFAULT_NONE else read_timeout
        write, connect, pool = (
            self._timeout_s if value is BaseRequest.DEFAULT_NONE else value
            for value in (write_timeout, connect_timeout, pool_timeout)
        )
        parts = (read, write, connect, pool)
        timeout = aiohttp.ClientTimeout(
            total=None if any(p is None for p in parts) else sum(parts),
            connect=None if pool is None or connect is None else pool + connect,
            sock_connect=connect,
            sock_read=read,
        )
        data: Any = None
        if request_data is not None:
            fields = request_data.json_parameters
            files = request_data.multipart_data if request_data.contains_files else None
            if files:
                form = aiohttp.FormData()
                for name, value in fields.items():
                    if name not in files:
                        form.add_field(name, value)
                for name, (filename, content, mime) in files.items():
                    form.add_field(name, content, filename=filename, content_type=mime)
                data = form
            elif fields:
                data = fields
        try:
            async with session.request(method, url, data=data, timeout=timeout) as response:
                return response.status, await response.read()
        except TimeoutError as exc:  # aiohttp's timeouts derive from it (asyncio.TimeoutError on 3.11)
            raise TimedOut(f"timed out calling the Bot API ({type(exc).__name__})") from exc
        except aiohttp.ClientError as exc:
            raise NetworkError(f"aiohttp.{type(exc).__name__}: {exc}") from exc


# --------------------------------------------------------------------------- per-user order (F11)


class KeyedLocks:
    """FIFO asyncio locks by key, dropped when nobody holds or waits for them (bounded memory)."""

    def __init__(self) -> None:
        self._entries: dict[Hashable, list[Any]] = {}  # key -> [asyncio.Lock, holders + waiters]

    @contextlib.asynccontextmanager
    async def hold(self, key: Hashable) -> AsyncIterator[None]:
        """Hold the lock of ``key``; waiters get it in the order they asked (asyncio.Lock is FIFO)."""
        entry = self._entries.get(key)
        if entry is None:
            entry = self._entries[key] = [asyncio.Lock(), 0]
        entry[1] += 1
        try:
            async with entry[0]:
                yield
        finally:
            entry[1] -= 1
            if entry[1] == 0:
                self._entries.pop(key, None)

    def __len__(self) -> int:
        return len(self._entries)


class _SerialUpdateProcessor(BaseUpdateProcessor):
    """Processes updates of different users concurrently and updates of one user in arrival order.

    PTB creates one task per update in arrival order; this processor's first step (before any
    await that can suspend) is to queue on the user's FIFO lock, so arrival order is kept. A
    ``gate`` returning False drops the update (used to debounce taps, F05).
    """

    def __init__(
        self,
        max_concurrent_updates: int,
        *,
        key: Callable[[object], Hashable | None],
        gate: Callable[[object], bool],
        done: Callable[[object], None],
    ) -> None:
        super().__init__(max_concurrent_updates)
        self._key = key
        self._gate = gate
        self._done = done
        self.locks = KeyedLocks()

    async def process_update(self, update: object, coroutine: Any) -> None:
        if not self._gate(update):
            coroutine.close()
            return
        key = self._key(update)
        try:
            if key is None:
                await super().process_update(update, coroutine)
            else:
                async with self.locks.hold(key):
                    await super().process_update(update, coroutine)
        finally:
            self._done(update)

    async def do_process_update(self, update: object, coroutine: Any) -> None:
        await coroutine

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None


def _serial_key(update: object) -> Hashable | None:
    """The key updates are serialised on: the Telegram user (else the chat), None for neither."""
    if not isinstance(update, Update):
        return None
    if update.effective_user is not None:
        return ("user", update.effective_user.id)
    if update.effective_chat is not None:
        return ("chat", update.effective_chat.id)
    return None


# --------------------------------------------------------------------------- the channel


class TelegramChannel:
    """Telegram adapter around one :class:`DialogHandler` (see the module docstring for behaviour).

    Use :meth:`run` from a script (blocking, with signals), or ``await start()`` / ``await stop()``
    from an event loop (tests, benchmarks).
    """

    def __init__(
        self,
        handler: DialogHandler,
        config: TelegramConfig,
        *,
        users: ChannelUsers | None = None,
        texts: ChannelTexts = ChannelTexts(),
    ) -> None:
        """Build the PTB application (no network until :meth:`start`).

        Args:
            handler: answers turns (blocking; called from worker threads).
            config: channel settings.
            users: where blocked users are marked inactive; None keeps no record (logs only).
            texts: the channel's own user-facing texts.
        """
        self._handler = handler
        self.config = config
        self._users = users
        self.texts = texts
        self._executor: ThreadPoolExecutor | None = None
        self._busy: dict[tuple[int, int], int] = {}  # card (chat, message) -> update_id computing it
        self._pending: dict[tuple[int, int], Update] = {}  # card -> last tap received while busy
        self._fatal: str | None = None
        self._stop_event: asyncio.Event | None = None
        self._started = False
        self._requests: tuple[AiohttpRequest, ...] = ()  # closed at teardown even if PTB never initialised
        self.processor = _SerialUpdateProcessor(
            config.max_concurrent_updates, key=_serial_key, gate=self._gate, done=self._done
        )
        self.application = self._build_application()

    # ----------------------------------------------------------------- construction and life cycle

    def _build_application(self) -> Application:
        cfg = self.config
        builder = (
            ApplicationBuilder()
            .token(cfg.token)
            .base_url(cfg.base_url)
            .base_file_url(cfg.base_file_url)
            .concurrent_updates(self.processor)
            .rate_limiter(AIORateLimiter(overall_max_rate=cfg.overall_rate_per_s, max_retries=cfg.max_retries))
        )
        if cfg.http_backend == "aiohttp":
            self._requests = (
                AiohttpRequest(connection_pool_size=cfg.connection_pool_size, timeout_s=cfg.request_timeout_s),
                AiohttpRequest(
                    connection_pool_size=1, timeout_s=cfg.request_timeout_s, read_timeout_s=cfg.poll_timeout_s + 10
                ),
            )
            builder = builder.request(self._requests[0]).get_updates_request(self._requests[1])
        else:
            builder = (
                builder.connection_pool_size(cfg.connection_pool_size)
                .connect_timeout(cfg.request_timeout_s)
                .read_timeout(cfg.request_timeout_s)
                .write_timeout(cfg.request_timeout_s)
                .pool_timeout(cfg.request_timeout_s)
                .get_updates_read_timeout(cfg.poll_timeout_s + 10)
            )
        app = builder.build()
        private = filters.ChatType.PRIVATE
        app.add_handler(CallbackQueryHandler(self._on_callback))
        app.add_handler(ChatMemberHandler(self._on_my_member, ChatMemberHandler.MY_CHAT_MEMBER))
        app.add_handler(MessageHandler(filters.UpdateType.EDITED_MESSAGE & private, self._on_edit))
        app.add_handler(
            MessageHandler(filters.UpdateType.MESSAGE & private & (filters.TEXT | filters.CAPTION), self._on_text)
        )
        app.add_handler(MessageHandler(filters.UpdateType.MESSAGE & private & _MEDIA, self._on_media))
        app.add_error_handler(self._on_error)
        return app

    async def start(self) -> None:
        """Initialise the bot (``getMe``), publish the commands, start polling or the webhook.

        Raises:
            ChannelError: Telegram refuses the token, the Bot API cannot be reached, or the webhook
                server cannot listen. Whatever was started is stopped again.
        """
        cfg = self.config
        # Bot.do_api_request("sendMessage", ...) (see _post_message) warns that Bot.sendMessage exists;
        # it is used on purpose, to skip parsing the answer. Set here, not at import, so that it also
        # holds under test runners that reset the warning filters around each test.
        warnings.filterwarnings("ignore", message=r"Please use 'Bot\.sendMessage' instead", category=PTBUserWarning)
        self._executor = ThreadPoolExecutor(cfg.workers, thread_name_prefix="corsbot-dialog")
        self._stop_event = asyncio.Event()
        self._fatal = None
        try:
            await self._start_receiving()
        except InvalidToken as exc:
            await self._teardown()
            raise ChannelError(f"Telegram refused the bot token: {exc}") from exc
        except NetworkError as exc:
            await self._teardown()
            raise ChannelError(f"cannot reach the Telegram Bot API at {cfg.base_url}: {exc}") from exc
        except OSError as exc:
            await self._teardown()
            raise ChannelError(f"cannot listen for the webhook on {cfg.listen}:{cfg.port}: {exc}") from exc
        except BaseException:
            await self._teardown()
            raise
        self._started = True
        logger.info(
            "telegram channel started as @%s (%s)",
            self.application.bot.username,
            "webhook" if cfg.webhook_url else "long polling",
        )

    async def _start_receiving(self) -> None:
        cfg = self.config
        await self.application.initialize()
        try:
            await self.application.bot.set_my_commands([BotCommand(c, d) for c, d in cfg.commands])
        except TelegramError as exc:
            logger.warning("setMyCommands failed (%s); the command menu may be stale", exc)
        updater = self.application.updater
        assert updater is not None
        if cfg.webhook_url:
            await updater.start_webhook(
                listen=cfg.listen,
                port=cfg.port,
                url_path=cfg.url_path,
                webhook_url=cfg.webhook_url,
                secret_token=cfg.secret_token,
                drop_pending_updates=False,
            )
        else:  # start_polling calls deleteWebhook first (F10)
            await updater.start_polling(
                timeout=cfg.poll_timeout_s, drop_pending_updates=False, error_callback=self._on_polling_error
            )
        await self.application.start()

    async def stop(self) -> None:
        """Stop receiving, finish the updates in progress, shut the application down (idempotent)."""
        if not self._started:
            return
        self._started = False
        await self._teardown()
        logger.info("telegram channel stopped")

    async def _teardown(self) -> None:
        """Stop whatever is running (updater, application, workers); failures are logged, not raised."""
        updater = self.application.updater
        steps = (
            ("updater", updater.stop if updater is not None and updater.running else None),
            ("application", self.application.stop if self.application.running else None),
            ("shutdown", self.application.shutdown),
        )
        for name, step in steps:
            if step is None:
                continue
            try:
                await step()
            except Exception as exc:  # noqa: BLE001 - keep tearing down the rest
                logger.warning("stopping the %s failed: %s", name, exc)
        for request in self._requests:  # PTB skips them when initialize() failed half-way
            try:
                await request.shutdown()
            except Exception as exc:  # noqa: BLE001 - keep tearing down the rest
                logger.warning("closing the HTTP session failed: %s", exc)
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    async def serve(self) -> None:
        """Run until :meth:`request_stop`, SIGINT or SIGTERM.

        Raises:
            ChannelError: bad token, or another process polls with the same token (409 Conflict).
        """
        await self.start()
        loop = asyncio.get_running_loop()
        installed = []
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, self.request_stop)
                installed.append(sig)
        try:
            assert self._stop_event is not None
            await self._stop_event.wait()
        finally:
            for sig in installed:
                loop.remove_signal_handler(sig)
            await self.stop()
        if self._fatal:
            raise ChannelError(self._fatal)

    def request_stop(self) -> None:
        """Ask :meth:`serve` to return (safe from signal handlers and callbacks on the loop)."""
        if self._stop_event is not None:
            self._stop_event.set()

    def run(self) -> None:
        """Blocking: :meth:`serve` in a fresh event loop.

        Raises:
            ChannelError: see :meth:`serve`.
        """
        asyncio.run(self.serve())

    def _on_polling_error(self, exc: TelegramError) -> None:
        if isinstance(exc, Conflict):
            self._fatal = (
                "another process is receiving updates for this bot token (Telegram 409 Conflict: "
                f"{exc.message}); stop it (or delete its webhook) and start again"
            )
            logger.error("%s", self._fatal)
            self.request_stop()
            return
        logger.warning("polling error (will retry): %s", exc)

    # ----------------------------------------------------------------- debounce of taps (F05)

    def _gate(self, update: object) -> bool:
        """Called in arrival order: False for a tap on a card whose previous tap is still running."""
        if not self.config.debounce or not isinstance(update, Update):
            return True
        query = update.callback_query
        if query is None or not isinstance(query.message, Message):
            return True
        card = (query.message.chat.id, query.message.message_id)
        if card not in self._busy:
            self._busy[card] = update.update_id
            return True
        self._pending[card] = update  # the last request wins
        self.application.create_task(self._answer_query(query, self.texts.working), update=update)
        return False

    def _done(self, update: object) -> None:
        """Called when an admitted update is finished: free its card if it still marks it busy."""
        if isinstance(update, Update) and update.callback_query is not None:
            message = update.callback_query.message
            if isinstance(message, Message):
                card = (message.chat.id, message.message_id)
                if self._busy.get(card) == update.update_id:  # the handler did not run or failed early
                    del self._busy[card]
                    self._pending.pop(card, None)

    # ----------------------------------------------------------------- update handlers

    async def _on_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        text = message.text if message.text is not None else (message.caption or "")
        text = _COMMAND_MENTION.sub(r"\1", text)
        key = f"{USER_PREFIX}{user.id}"
        await self._seen(key, message.chat.id)
        turn = Turn(
            user_id=key,
            text=text,
            payload=None,
            interaction_type=INTERACTION_TYPE,
            timestamp_ms=int(message.date.timestamp() * 1000) if message.date else None,
        )
        reply = await self._compute(turn, message.chat.id)
        if reply is not None:
            await self._deliver(key, message.chat.id, reply)

    async def _on_edit(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        await self._deliver(
            f"{USER_PREFIX}{user.id}", message.chat.id, Reply(self.texts.edits_not_read), reply_to=message.message_id
        )

    async def _on_media(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        await self._deliver(f"{USER_PREFIX}{user.id}", message.chat.id, Reply(self.texts.only_text))

    async def _on_callback(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query, user = update.callback_query, update.effective_user
        if query is None or user is None:
            return
        await self._answer_query(query)
        key = f"{USER_PREFIX}{user.id}"
        card_message = query.message if isinstance(query.message, Message) else None
        chat_id = query.message.chat.id if query.message is not None else user.id
        card = (chat_id, card_message.message_id) if card_message is not None else None
        current: Update | None = update
        try:
            while current is not None:
                q = current.callback_query
                edited = False
                if q is not None and q.data is not None:
                    await self._seen(key, chat_id)
                    turn = Turn(
                        user_id=key,
                        text=_button_label(card_message, q.data),
                        payload=q.data,
                        interaction_type=INTERACTION_TYPE,
                    )
                    reply = await self._compute(turn, chat_id)
                    if reply is not None:
                        edited = await self._deliver(key, chat_id, reply, card=card_message)
                current = self._next_tap(card, q.data if q is not None else None, edited=edited)
        finally:  # no await since the last _next_tap: nothing pending is lost on a normal exit
            if card is not None:
                self._pending.pop(card, None)
                self._busy.pop(card, None)

    def _next_tap(self, card: tuple[int, int] | None, done_payload: str | None, *, edited: bool) -> Update | None:
        """The last tap received on ``card`` while it was busy, if it should still run (F05).

        A repeat of the payload just run is dropped (one computation for 25 taps on "more"); so is
        any tap once the card was edited in place, because it was made on the previous version of
        the card (a "like" meant for the item the user saw, not the one shown now). Otherwise the
        last request wins. Dropped taps were already answered "working on it".
        """
        pending = self._pending.pop(card, None) if card is not None else None
        if pending is None or pending.callback_query is None:
            return None
        if pending.callback_query.data == done_payload or edited:
            logger.debug("dropped a debounced tap %r on card %s", pending.callback_query.data, card)
            return None
        return pending

    async def _on_my_member(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Telegram reports that a user blocked (``kicked``) or unblocked (``member``) the bot (F09)."""
        change, user = update.my_chat_member, update.effective_user
        if change is None or user is None or change.chat.type != "private":
            return
        key = f"{USER_PREFIX}{user.id}"
        status = change.new_chat_member.status
        if status in ("kicked", "left"):
            if self._users is not None:
                await asyncio.get_running_loop().run_in_executor(
                    self._executor, lambda: self._users.mark_inactive(key, f"bot {status} by the user", chat_id=user.id)
                )
            logger.info("user %s blocked the bot", key)
        elif status == "member":
            await self._seen(key, change.chat.id)

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Global error handler: log with traceback, apologise to the user if there is one."""
        error = context.error
        chat_id = None
        user_key = None
        if isinstance(update, Update):
            if update.effective_chat is not None and update.effective_chat.type == "private":
                chat_id = update.effective_chat.id
            if update.effective_user is not None:
                user_key = f"{USER_PREFIX}{update.effective_user.id}"
        if isinstance(error, Forbidden) and user_key is not None:
            await self._mark_inactive(user_key, chat_id, error)
            return
        logger.error(
            "update %s failed: %s",
            getattr(update, "update_id", "?"),
            error,
            exc_info=error if isinstance(error, BaseException) else None,
        )
        if chat_id is None:
            return
        try:
            await self.application.bot.send_message(chat_id, self.texts.apology)
        except TelegramError as exc:
            logger.warning("could not send the apology to chat %s: %s", chat_id, exc)

    # ----------------------------------------------------------------- computing (F12)

    async def _compute(self, turn: Turn, chat_id: int) -> Reply | None:
        """Run ``handler.handle(turn)`` in the thread pool (or await ``handler.ahandle(turn)`` when the
        handler has it); typing once, a note once, a deadline.

        Returns:
            The reply; an apology reply if the handler failed or missed the deadline; None if the
            channel is shutting down.
        """
        cfg = self.config
        if self._executor is None:
            return None
        loop = asyncio.get_running_loop()
        started = time.perf_counter()
        ahandle = getattr(self._handler, "ahandle", None)
        future: asyncio.Future[Reply] = (
            asyncio.ensure_future(ahandle(turn))
            if ahandle is not None
            else loop.run_in_executor(self._executor, self._handler.handle, turn)
        )
        waits = (
            (cfg.typing_delay_s, self._send_typing),
            (cfg.slow_notice_s - cfg.typing_delay_s, self._send_still_working),
            (cfg.deadline_s - cfg.slow_notice_s, None),
        )
        try:
            for delay, action in waits:
                done, _ = await asyncio.wait({future}, timeout=max(delay, 0.0))
                if done:
                    break
                if action is None:
                    logger.warning(
                        "no answer for %s after %.0f s; giving up waiting", turn.user_id, time.perf_counter() - started
                    )
                    future.add_done_callback(_discard_outcome)  # a late failure is not "never retrieved"
                    return Reply(self.texts.too_slow)
                await action(chat_id)
            return future.result()
        except CorsbotError as exc:  # deliberate errors carry a user-facing message
            logger.warning("turn of %s failed: %s", turn.user_id, exc)
            return Reply(str(exc) or self.texts.apology)
        except Exception:  # noqa: BLE001 - a bug in the handler must not kill the channel
            logger.exception("turn of %s failed", turn.user_id)
            return Reply(self.texts.apology)

    async def _send_typing(self, chat_id: int) -> None:
        try:
            await self.application.bot.send_chat_action(chat_id, ChatAction.TYPING)
        except TelegramError as exc:
            logger.debug("typing action failed: %s", exc)

    async def _send_still_working(self, chat_id: int) -> None:
        try:
            await self.application.bot.send_message(chat_id, self.texts.still_working)
        except TelegramError as exc:
            logger.debug("still-working note failed: %s", exc)

    # ----------------------------------------------------------------- users (F09)

    async def _seen(self, key: str, chat_id: int) -> None:
        if self._users is None or self._users.known_active(key) or self._executor is None:
            return
        await asyncio.get_running_loop().run_in_executor(self._executor, self._users.seen, key, chat_id)

    async def _mark_inactive(self, key: str, chat_id: int | None, error: TelegramError) -> None:
        logger.info("user %s blocked the bot or cannot be reached: %s", key, error)
        if self._users is None:
            return
        await asyncio.get_running_loop().run_in_executor(
            self._executor, lambda: self._users.mark_inactive(key, str(error), chat_id=chat_id)
        )

    # ----------------------------------------------------------------- rendering (F03, F04, F08)

    async def _deliver(
        self,
        key: str,
        chat_id: int,
        reply: Reply,
        *,
        card: Message | None = None,
        reply_to: int | None = None,
    ) -> bool:
        """Render ``reply`` to ``chat_id``: edit ``card`` in place when possible, else send.

        Returns:
            True if ``card`` was edited in place.
        """
        try:
            markup = _keyboard(reply.choices)
            if card is not None and reply.card and await self._edit_card(card, reply, markup):
                return True
            if reply.image and await self._send_photo(chat_id, reply, markup):
                return False
            text = reply.text if reply.text.strip() else (self.texts.choose if markup else "")
            parts = split_text(text)
            for i, part in enumerate(parts):
                last = i == len(parts) - 1
                await self._send_text(chat_id, part, markup if last else None, reply_to=reply_to if i == 0 else None)
        except Forbidden as exc:
            await self._mark_inactive(key, chat_id, exc)
        return False

    async def _send_text(
        self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None, *, reply_to: int | None = None
    ) -> None:
        """Send one part in HTML; resend as plain text on a parse error, re-split if still too long."""
        try:
            await self._post_message(chat_id, escape_html(text), ParseMode.HTML, markup, reply_to)
        except BadRequest as exc:
            reason = exc.message.lower()
            if "parse entities" in reason:
                logger.warning("HTML rejected (%s); resending as plain text", exc.message)
                await self._post_message(chat_id, text, None, markup, reply_to)
            elif "too long" in reason and len(text) > 16:
                logger.warning("message rejected as too long (%d chars); splitting it", len(text))
                halves = split_text(text, limit=max(len(text) // 2, 8), measure=len)
                for i, half in enumerate(halves):
                    await self._send_text(chat_id, half, markup if i == len(halves) - 1 else None)
            elif "message to be replied not found" in reason and reply_to is not None:
                await self._send_text(chat_id, text, markup)
            else:
                raise

    async def _post_message(
        self, chat_id: int, text: str, parse_mode: str | None, markup: InlineKeyboardMarkup | None, reply_to: int | None
    ) -> None:
        """``sendMessage`` through PTB (rate limiter, retries, error mapping) without parsing Telegram's
        answer into a :class:`~telegram.Message`, which the channel never uses: ``Bot.send_message``
        spent about 15 % of the event loop's CPU in ``Message.de_json`` of its own answers (inline
        keyboards included; py-spy of ``corsbot bench telegram``). Errors as ``Bot.send_message``.
        """
        params: dict[str, Any] = {"chat_id": chat_id, "text": text}
        if parse_mode is not None:
            params["parse_mode"] = parse_mode
        if markup is not None:
            params["reply_markup"] = markup
        if reply_to is not None:
            params["reply_parameters"] = ReplyParameters(message_id=reply_to)
        await self.application.bot.do_api_request("sendMessage", api_kwargs=params)

    async def _send_photo(self, chat_id: int, reply: Reply, markup: InlineKeyboardMarkup | None) -> bool:
        """Photo with caption (or photo then text); False if the photo could not be sent."""
        assert reply.image is not None
        bot = self.application.bot
        caption = reply.text if fits_caption(reply.text) else None
        try:
            try:
                await bot.send_photo(
                    chat_id,
                    reply.image,
                    caption=escape_html(caption) if caption else None,
                    parse_mode=ParseMode.HTML if caption else None,
                    reply_markup=markup if caption is not None or not reply.text.strip() else None,
                )
            except BadRequest as exc:
                if caption is None or "parse entities" not in exc.message.lower():
                    raise
                await bot.send_photo(chat_id, reply.image, caption=caption, parse_mode=None, reply_markup=markup)
        except Forbidden:
            raise
        except TelegramError as exc:
            logger.warning("photo %s could not be sent (%s); sending text instead", reply.image, exc)
            return False
        if caption is None and reply.text.strip():
            parts = split_text(reply.text)
            for i, part in enumerate(parts):
                await self._send_text(chat_id, part, markup if i == len(parts) - 1 else None)
        return True

    async def _edit_card(self, card: Message, reply: Reply, markup: InlineKeyboardMarkup | None) -> bool:
        """Edit the pressed card in place; False when it cannot be (the caller sends a new message)."""
        bot = self.application.bot
        chat_id, message_id = card.chat.id, card.message_id
        try:
            if card.photo:
                if not reply.image or not fits_caption(reply.text):
                    return False
                for parse_mode, caption in ((ParseMode.HTML, escape_html(reply.text)), (None, reply.text)):
                    try:
                        media = InputMediaPhoto(reply.image, caption=caption, parse_mode=parse_mode)
                        await bot.edit_message_media(media, chat_id=chat_id, message_id=message_id, reply_markup=markup)
                        return True
                    except BadRequest as exc:
                        if parse_mode is None or "parse entities" not in exc.message.lower():
                            raise
                return False
            if reply.image or len(split_text(reply.text)) != 1:
                return False
            for parse_mode, text in ((ParseMode.HTML, escape_html(reply.text)), (None, reply.text)):
                try:
                    await bot.edit_message_text(
                        text, chat_id=chat_id, message_id=message_id, parse_mode=parse_mode, reply_markup=markup
                    )
                    return True
                except BadRequest as exc:
                    if parse_mode is None or "parse entities" not in exc.message.lower():
                        raise
            return False
        except Forbidden:
            raise
        except BadRequest as exc:
            if "not modified" in exc.message.lower():
                return True
            logger.info("card %s/%s cannot be edited (%s); sending a new message", chat_id, message_id, exc.message)
            return False

    async def _answer_query(self, query: Any, text: str | None = None) -> None:
        """Answer a callback query; "query is too old" and similar errors are swallowed (F06)."""
        try:
            await query.answer(text)
        except BadRequest as exc:
            logger.debug("callback query %s not answered: %s", query.id, exc.message)
        except TelegramError as exc:
            logger.info("callback query %s not answered: %s", query.id, exc)


def _discard_outcome(future: asyncio.Future[Any]) -> None:
    """Done-callback of a turn the channel stopped waiting for: retrieve (and drop) its outcome."""
    if not future.cancelled() and future.exception() is not None:
        logger.info("a turn answered after its deadline failed: %s", future.exception())


def _keyboard(choices: tuple[Choice, ...]) -> InlineKeyboardMarkup | None:
    """Inline keyboard of the choices: rows of up to 3 buttons and about 30 label characters."""
    if not choices:
        return None
    rows: list[list[InlineKeyboardButton]] = []
    row: list[InlineKeyboardButton] = []
    width = 0
    for choice in choices:
        label = choice.label
        if row and (len(row) == 3 or width + len(label) > 30):
            rows.append(row)
            row, width = [], 0
        row.append(InlineKeyboardButton(label, callback_data=choice.payload))
        width += len(label)
    rows.append(row)
    return InlineKeyboardMarkup(rows)


def _button_label(message: Message | None, data: str) -> str:
    """Label of the button with ``callback_data == data`` on ``message``, else ``data`` itself."""
    markup = message.reply_markup if message is not None else None
    if markup is not None:
        for row in markup.inline_keyboard:
            for button in row:
                if button.callback_data == data:
                    return button.text
    return data


__all__ = [
    "AiohttpRequest",
    "AsyncDialogHandler",
    "ChannelError",
    "ChannelTexts",
    "DialogHandler",
    "InstanceLock",
    "KeyedLocks",
    "TelegramChannel",
    "TelegramConfig",
    "TELEGRAM_CAPTION_LIMIT",
    "TELEGRAM_TEXT_LIMIT",
    "lock_path_for",
]
