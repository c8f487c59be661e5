"""The Telegram channel itself: PTB application, life cycle, update handlers, debounce and the turn's
computation (see :mod:`bot.channels.telegram` for the behaviour)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import signal
import warnings
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from telegram import BotCommand, Message, Update
from telegram.error import Forbidden, InvalidToken, NetworkError, TelegramError
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ChatMemberHandler,
    ContextTypes,
    MessageHandler,
    filters,
)
from telegram.warnings import PTBUserWarning

from bot.channels.inbox import InboxUpdate, MemoryInbox, UpdateInbox
from bot.channels.telegram.compute import TurnRunner
from bot.channels.telegram.config import (
    INTERACTION_TYPE,
    USER_PREFIX,
    ChannelError,
    ChannelTexts,
    DialogHandler,
    TelegramConfig,
)
from bot.channels.telegram.debounce import TapDebouncer
from bot.channels.telegram.http_backend import AiohttpRequest
from bot.channels.telegram.locks import SerialUpdateProcessor, bot_id_of, serial_key
from bot.channels.telegram.outbound import ReplySender, button_label
from bot.channels.telegram.receiving import Poller, WebhookServer, user_key_of
from bot.channels.users import ChannelUsers
from bot.redact import redact, register_secret
from bot.turns import Reply, Turn

logger = logging.getLogger(__name__)
T = TypeVar("T")
SWEEP_S = 3.0
"""Webhook workers look for updates left unfinished (by a killed worker) this often, and take those
older than this."""

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
        texts: ChannelTexts | None = None,
        inbox: UpdateInbox | None = None,
    ) -> None:
        """Build the PTB application (no network until :meth:`start`).

        Args:
            handler: answers turns (blocking; called from worker threads).
            config: channel settings.
            users: where blocked users are marked inactive; None keeps no record (logs only).
            texts: the channel's own user-facing texts.
            inbox: where updates are stored before they are confirmed to Telegram and until they
                are handled (:class:`~bot.channels.inbox.SqliteInbox` for durability); None keeps
                them in memory (nothing survives a crash).
        """
        self._handler = handler
        self.config = config
        register_secret(config.token)  # hidden from every log line and error from now on
        register_secret(config.secret_token)
        self._users = users
        self._inbox: UpdateInbox = inbox if inbox is not None else MemoryInbox()
        self._receivers: list[Poller | WebhookServer] = []
        self._sweeper: asyncio.Task[None] | None = None
        self._key_prefix = f"tg:{bot_id_of(config.token)}:"
        self.texts = texts if texts is not None else ChannelTexts()
        self._executor: ThreadPoolExecutor | None = None
        self._fatal: str | None = None
        self._stop_event: asyncio.Event | None = None
        self._started = False
        self._requests: tuple[AiohttpRequest, ...] = ()  # closed at teardown even if PTB never initialised
        self._taps = TapDebouncer(enabled=config.debounce, answer=self._answer_working, settle=self._finish)
        shared = self._shared_turn if config.webhook_url and hasattr(self._inbox, "user_lock") else None
        self.processor = SerialUpdateProcessor(
            config.max_concurrent_updates, key=serial_key, gate=self._taps.gate, done=self._done, shared=shared
        )
        self.application = self._build_application()
        self._sender = ReplySender(
            self.application, self.texts, self._mark_inactive, retry_budget_s=config.retry_budget_s
        )
        self._runner = TurnRunner(handler, config, self.texts, self.application, lambda: self._executor)

    # ----------------------------------------------------------------- construction and life cycle

    def _build_application(self) -> Application:
        cfg = self.config
        builder = (
            ApplicationBuilder()
            .token(cfg.token)
            .base_url(cfg.base_url)
            .base_file_url(cfg.base_file_url)
            .concurrent_updates(self.processor)
            .updater(None)  # the channel receives itself, storing each update first (receiving.py)
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
        warnings.filterwarnings(
            "ignore", message=r"Please use 'Bot\.(sendMessage|getUpdates)' instead", category=PTBUserWarning
        )
        self._executor = ThreadPoolExecutor(cfg.workers, thread_name_prefix="corsbot-dialog")
        self._stop_event = asyncio.Event()
        self._fatal = None
        try:
            await self._start_receiving()
        except InvalidToken:
            await self._teardown()
            raise ChannelError(
                "Telegram refused the bot token (401 Unauthorized): check the token from @BotFather"
            ) from None  # PTB's message quotes the token
        except NetworkError as exc:
            await self._teardown()
            raise ChannelError(redact(f"cannot reach the Telegram Bot API at {cfg.base_url}: {exc}")) from None
        except OSError as exc:
            await self._teardown()
            raise ChannelError(redact(f"cannot listen for the webhook on {cfg.listen}:{cfg.port}: {exc}")) from None
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
        await self.application.start()
        left = await self._in_thread(self._inbox.unfinished)
        if left:  # a previous run stopped before handling them (killed): in order, before anything new
            logger.warning("handling %d updates left unfinished by the previous run", len(left))
            for stored in left:
                self._schedule(json.loads(stored.payload))
        if cfg.webhook_url:
            server = WebhookServer(
                self._accept, listen=cfg.listen, port=cfg.port, url_path=cfg.url_path, secret_token=cfg.secret_token
            )
            await server.start()
            self._receivers.append(server)
            await self.application.bot.set_webhook(
                cfg.webhook_url, secret_token=cfg.secret_token, drop_pending_updates=False
            )
            if hasattr(self._inbox, "unfinished_older_than"):
                self._sweeper = asyncio.get_running_loop().create_task(self._sweep(), name="corsbot-sweep")
        else:
            await self.application.bot.delete_webhook(drop_pending_updates=False)  # F10: polling needs none
            poller = Poller(self.application.bot, self._accept, timeout_s=cfg.poll_timeout_s, on_fatal=self._on_fatal)
            poller.start()
            self._receivers.append(poller)

    async def _accept(self, raw: list[dict[str, Any]]) -> None:
        """Store raw updates in the inbox (a thread), then schedule those not seen before, in order.

        Raises:
            CorsbotError: the inbox cannot be written (the caller does not confirm them).
        """
        stored = [InboxUpdate(u["update_id"], user_key_of(u, USER_PREFIX), json.dumps(u)) for u in raw]
        new = await self._in_thread(self._inbox.add, stored)
        fresh = {u.update_id for u in new}
        for update in raw:
            if update["update_id"] in fresh:
                self._schedule(update)

    def _schedule(self, raw: dict[str, Any]) -> None:
        """Hand one update to PTB's queue (processed per user in queue order, see locks.py)."""
        update = Update.de_json(raw, self.application.bot)
        if update is None:
            return
        self.application.update_queue.put_nowait(update)

    def _done(self, update: object) -> None:
        """An admitted update is finished: free its card, mark it handled in the inbox."""
        self._taps.done(update)
        self._finish(update)

    def _finish(self, update: object) -> None:
        if not isinstance(update, Update) or self._executor is None:
            return
        future = self._executor.submit(self._inbox.finish, update.update_id)
        future.add_done_callback(_log_failure)

    @contextlib.asynccontextmanager
    async def _shared_turn(self, update: object) -> AsyncIterator[bool]:
        """Several webhook workers on one database (issue 15): hold the user's lock across processes;
        first handle the user's earlier updates that are still unfinished (stored by another worker,
        or left by a killed one), in order; then say whether ``update`` itself still needs handling."""
        inbox: Any = self._inbox
        user = user_key_of(update.to_dict(), USER_PREFIX) if isinstance(update, Update) else None
        if user is None or not isinstance(update, Update):
            yield True
            return
        while not await self._in_thread(inbox.user_lock, user):
            await asyncio.sleep(0.005)  # another worker handles this user now
        try:
            for earlier in await self._in_thread(inbox.unfinished, user):
                if earlier.update_id >= update.update_id:
                    break
                before = Update.de_json(json.loads(earlier.payload), self.application.bot)
                if before is not None:
                    await self.application.process_update(before)
                await self._in_thread(inbox.finish, earlier.update_id)
            yield not await self._in_thread(inbox.is_finished, update.update_id)
        finally:
            await self._in_thread(inbox.user_unlock, user)

    async def _sweep(self) -> None:
        """Webhook workers: every few seconds, schedule unfinished updates older than a few seconds
        (a killed worker's), so that they are handled even if their user writes nothing more."""
        inbox: Any = self._inbox
        while True:
            await asyncio.sleep(SWEEP_S)
            try:
                for stale in await self._in_thread(inbox.unfinished_older_than, SWEEP_S * 1000):
                    self._schedule(json.loads(stale.payload))
            except Exception as exc:  # noqa: BLE001 - a failed sweep is retried at the next one
                logger.warning("sweep of unfinished updates failed: %s", exc)

    async def _in_thread(self, function: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, lambda: function(*args))

    async def stop(self) -> None:
        """Stop receiving, finish the updates in progress, shut the application down (idempotent)."""
        if not self._started:
            return
        self._started = False
        await self._teardown()
        logger.info("telegram channel stopped")

    async def _teardown(self) -> None:
        """Stop whatever is running (updater, application, workers); failures are logged, not raised."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        for receiver in self._receivers:  # nothing new comes in; updates in progress finish below
            try:
                await receiver.stop()
            except Exception as exc:  # noqa: BLE001 - keep tearing down the rest
                logger.warning("stopping the receiver failed: %s", exc)
        self._receivers = []
        steps = (
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

    async def serve(self, on_started: Callable[[], None] | None = None) -> None:
        """Run until :meth:`request_stop`, SIGINT or SIGTERM.

        Args:
            on_started: called once the bot is up (``getMe`` answered, receiving started), e.g. to
                print "serving" only when it is true.

        Raises:
            ChannelError: bad token, or another process polls with the same token (409 Conflict).
        """
        await self.start()
        if on_started is not None:
            on_started()
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

    def run(self, on_started: Callable[[], None] | None = None) -> None:
        """Blocking: :meth:`serve` in a fresh event loop.

        Raises:
            ChannelError: see :meth:`serve`.
        """
        asyncio.run(self.serve(on_started))

    def _on_fatal(self, message: str) -> None:
        """Receiving cannot go on (409 Conflict, token revoked): stop :meth:`serve` with ``message``."""
        self._fatal = message
        logger.error("%s", message)
        self.request_stop()

    def _answer_working(self, update: Update) -> None:
        """Answer a debounced tap "working on it" (a task: the gate runs outside any coroutine)."""
        assert update.callback_query is not None
        self.application.create_task(
            self._sender.answer_query(update.callback_query, self.texts.working), update=update
        )

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
            key=f"{self._key_prefix}{update.update_id}",
        )
        reply = await self._runner.compute(turn, message.chat.id)
        if reply is not None:
            await self._sender.deliver(key, message.chat.id, reply)

    async def _on_edit(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        await self._sender.deliver(
            f"{USER_PREFIX}{user.id}", message.chat.id, Reply(self.texts.edits_not_read), reply_to=message.message_id
        )

    async def _on_media(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        await self._sender.deliver(f"{USER_PREFIX}{user.id}", message.chat.id, Reply(self.texts.only_text))

    async def _on_callback(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query, user = update.callback_query, update.effective_user
        if query is None or user is None:
            return
        key = f"{USER_PREFIX}{user.id}"
        card_message = query.message if isinstance(query.message, Message) else None
        chat_id = query.message.chat.id if query.message is not None else user.id
        if query.message is not None and (query.message.chat.id != user.id or query.message.chat.type != "private"):
            # a button is honoured only in the private chat it was sent to, by its user (issue 17.3): a
            # tap forwarded or forged from elsewhere must not read or edit another user's card
            logger.warning("refused a tap by %s on a message of chat %s", key, query.message.chat.id)
            await self._sender.answer_query(query, self.texts.not_your_button)
            return
        await self._sender.answer_query(query)
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
                        text=button_label(card_message, q.data),
                        payload=q.data,
                        interaction_type=INTERACTION_TYPE,
                        key=f"{self._key_prefix}{current.update_id}",
                    )
                    reply = await self._runner.compute(turn, chat_id)
                    if reply is not None:
                        edited = await self._sender.deliver(key, chat_id, reply, card=card_message)
                if current is not update:  # a debounced tap run after the first one: handled now
                    self._finish(current)
                current = self._taps.next_tap(card, q.data if q is not None else None, edited=edited)
        finally:  # no await since the last _next_tap: nothing pending is lost on a normal exit
            if card is not None:
                self._taps.release(card)

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


def _log_failure(future: Any) -> None:
    if not future.cancelled() and future.exception() is not None:
        logger.error("could not mark an update handled: %s", future.exception())
