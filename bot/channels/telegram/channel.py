"""The Telegram channel itself: the PTB application, its life cycle (start, serve, stop) and the wiring
of its parts: :mod:`.intake` (updates in through the inbox), :mod:`.handlers` (what each update does),
:mod:`.compute` (the turn off the loop), :mod:`.outbound` (replies out), :mod:`.debounce` and
:mod:`.locks` (see :mod:`bot.channels.telegram` for the behaviour)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import warnings
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from telegram import BotCommand, Update
from telegram.error import InvalidToken, NetworkError, TelegramError
from telegram.ext import AIORateLimiter, Application, ApplicationBuilder
from telegram.warnings import PTBUserWarning

from bot.channels.inbox import MemoryInbox, UpdateInbox
from bot.channels.telegram.compute import TurnRunner
from bot.channels.telegram.config import ChannelError, ChannelTexts, DialogHandler, TelegramConfig
from bot.channels.telegram.debounce import TapDebouncer
from bot.channels.telegram.handlers import KnownUsers, UpdateHandlers
from bot.channels.telegram.http_backend import AiohttpRequest
from bot.channels.telegram.intake import SWEEP_S, UpdateIntake
from bot.channels.telegram.locks import SerialUpdateProcessor, bot_id_of, serial_key
from bot.channels.telegram.outbound import ReplySender
from bot.channels.telegram.receiving import Poller, WebhookServer
from bot.channels.users import ChannelUsers
from bot.errors import bind_error
from bot.redact import redact, register_secret

__all__ = ["SWEEP_S", "TelegramChannel"]

logger = logging.getLogger(__name__)


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
        self._receivers: list[Poller | WebhookServer] = []
        self._sweeper: asyncio.Task[None] | None = None
        self.texts = texts if texts is not None else ChannelTexts()
        self._executor: ThreadPoolExecutor | None = None
        self._fatal: str | None = None
        self._stop_event: asyncio.Event | None = None
        self._started = False
        self._requests: tuple[AiohttpRequest, ...] = ()  # closed at teardown even if PTB never initialised
        self._intake = UpdateIntake(
            inbox if inbox is not None else MemoryInbox(), lambda: self.application, lambda: self._executor
        )
        self._taps = TapDebouncer(enabled=config.debounce, answer=self._answer_working, settle=self._intake.finish)
        shared = self._intake.shared_turn if config.webhook_url and self._intake.shared else None
        self.processor = SerialUpdateProcessor(
            config.max_concurrent_updates, key=serial_key, gate=self._taps.gate, done=self._done, shared=shared
        )
        self.application = self._build_application()
        users_record = KnownUsers(users, lambda: self._executor)
        self._sender = ReplySender(
            self.application, self.texts, users_record.unreachable, retry_budget_s=config.retry_budget_s
        )
        self._runner = TurnRunner(handler, config, self.texts, self.application, lambda: self._executor)
        self._handlers = UpdateHandlers(
            self.application,
            self.texts,
            runner=self._runner,
            sender=self._sender,
            taps=self._taps,
            users=users_record,
            key_prefix=f"tg:{bot_id_of(config.token)}:",
            finish=self._intake.finish,
            sent=self._intake.sent,
            sends_in_flight=config.sends_in_flight,
        )
        self._handlers.register()

    # ----------------------------------------------------------------- construction and life cycle

    def _build_application(self) -> Application:
        cfg = self.config
        builder = (
            ApplicationBuilder()
            .token(cfg.token)
            .base_url(cfg.base_url)
            .base_file_url(cfg.base_file_url)
            .concurrent_updates(self.processor)
            .updater(None)  # the channel receives itself, storing each update first (intake.py, receiving.py)
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
        return builder.build()

    async def start(self) -> None:
        """Initialise the bot (``getMe``), publish the commands, start polling or the webhook.

        Raises:
            ChannelError: Telegram refuses the token, the Bot API cannot be reached, or the webhook
                server cannot listen. Whatever was started is stopped again.
        """
        cfg = self.config
        # Bot.do_api_request("sendMessage", ...) (see ReplySender._post_message in outbound.py) warns that
        # Bot.sendMessage exists; it is used on purpose, to skip parsing the answer. Set here, not at import,
        # so that it also holds under test runners that reset the warning filters around each test.
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
            raise ChannelError(
                str(bind_error(cfg.listen, cfg.port, exc, option="--port (the webhook server's)"))
            ) from None
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
        await self._intake.resume()  # a previous run's unfinished updates, in order, before anything new
        if cfg.webhook_url:
            server = WebhookServer(
                self._intake.accept,
                listen=cfg.listen,
                port=cfg.port,
                url_path=cfg.url_path,
                secret_token=cfg.secret_token,
            )
            await server.start()
            self._receivers.append(server)
            await self.application.bot.set_webhook(
                cfg.webhook_url, secret_token=cfg.secret_token, drop_pending_updates=False
            )
            if self._intake.sweepable:
                self._sweeper = asyncio.get_running_loop().create_task(self._intake.sweep(), name="corsbot-sweep")
        else:
            await self.application.bot.delete_webhook(drop_pending_updates=False)  # F10: polling needs none
            poller = Poller(
                self.application.bot, self._intake.accept, timeout_s=cfg.poll_timeout_s, on_fatal=self._on_fatal
            )
            poller.start()
            self._receivers.append(poller)

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
        await self._intake.drain()  # the handled updates still waiting to be marked finished
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

    def _done(self, update: object) -> None:
        """An admitted update is finished: free its card, mark it handled in the inbox."""
        self._taps.done(update)
        self._intake.finish(update)
