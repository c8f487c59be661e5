"""Settings, texts, errors and the handler protocols of the Telegram channel (no ``telegram`` import:
the CLI and the dialog workers read these without loading python-telegram-bot)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.turns import Reply, Turn
from corsbot_errors import CorsbotError

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
    storage_apology: str = "Sorry, I could not save that just now. Please send it again in a moment."
    choose: str = "Please choose:"
    not_your_button: str = "This button belongs to another chat."
    not_delivered: str = "Telegram is busy: some of my answers may come late."


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
        max_retries: retries after a 429 ``RetryAfter`` (waiting what Telegram asks) by PTB's rate limiter.
        retry_budget_s: after those, how long the channel keeps retrying one reply (429 and refused
            connections; see :class:`~bot.channels.telegram.outbound.ReplySender`).
        poll_timeout_s: long-polling timeout of ``getUpdates``.
        request_timeout_s: read/write/connect timeout of ordinary Bot API calls.
        connection_pool_size: HTTP connections for ordinary Bot API calls (kept alive).
        sends_in_flight: replies being sent at once (>= 1); each is recorded sent before the gate lets
            another one through. A ``kill -9`` can duplicate only the replies in flight (Telegram
            accepted them, the bot had not recorded them), so 1 bounds that to one reply per crash;
            more send faster over a slow link (at a 100 ms round trip, 1 allows about 10 replies/s,
            Telegram's own limit is about 30/s per bot) at the price of up to that many duplicates.
        http_backend: ``"aiohttp"`` (default: :class:`AiohttpRequest`, about 4x less CPU per call
            than PTB's httpx backend, see ``bot/cli/telegram.py``) or ``"httpx"`` (PTB's own
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
    retry_budget_s: float = 60.0
    poll_timeout_s: float = 10.0
    request_timeout_s: float = 15.0
    connection_pool_size: int = 64
    sends_in_flight: int = 1
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
        if self.sends_in_flight < 1:
            raise ChannelError("sends_in_flight must be >= 1")
