"""Computing a turn off the event loop (field case F12): the dialog handler in the channel's thread
pool, or awaited on the loop when it has ``ahandle`` (dialog managers in worker processes); a
"typing" action once, a "still working" note once, then a deadline with an apology."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from telegram.constants import ChatAction
from telegram.error import TelegramError
from telegram.ext import Application

from bot.channels.telegram.config import ChannelTexts, DialogHandler, TelegramConfig
from bot.turns import Reply, Turn
from corsbot_errors import CorsbotError
from logs.store import StoreError

logger = logging.getLogger(__name__)


class TurnRunner:
    """Runs one turn of a :class:`DialogHandler` for the channel, with typing, a note and a deadline.

    Args:
        handler: the dialog handler.
        config: channel settings (``typing_delay_s``, ``slow_notice_s``, ``deadline_s``).
        texts: the channel's texts (``still_working``, ``too_slow``, ``apology``).
        application: the PTB application whose bot sends the typing action and the note.
        executor_of: returns the channel's thread pool, or None once it is shut down.
    """

    def __init__(
        self,
        handler: DialogHandler,
        config: TelegramConfig,
        texts: ChannelTexts,
        application: Application,
        executor_of: Callable[[], ThreadPoolExecutor | None],
    ) -> None:
        self._handler = handler
        self.config = config
        self.texts = texts
        self.application = application
        self._executor_of = executor_of

    async def compute(self, turn: Turn, chat_id: int) -> Reply | None:
        """Run ``handler.handle(turn)`` in the thread pool (or await ``handler.ahandle(turn)`` when the
        handler has it); typing once, a note once, a deadline.

        Returns:
            The reply; an apology reply if the handler failed or missed the deadline; None if the
            channel is shutting down.
        """
        cfg = self.config
        executor = self._executor_of()
        if executor is None:
            return None
        loop = asyncio.get_running_loop()
        started = time.perf_counter()
        ahandle = getattr(self._handler, "ahandle", None)
        future: asyncio.Future[Reply] = (
            asyncio.ensure_future(ahandle(turn))
            if ahandle is not None
            else loop.run_in_executor(executor, self._handler.handle, turn)
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
        except StoreError as exc:  # names a server path and an SQL error: the operator's business (issue 17.5)
            logger.error("turn of %s failed on the database: %s", turn.user_id, exc)
            return Reply(self.texts.storage_apology)
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


def _discard_outcome(future: asyncio.Future[Any]) -> None:
    """Done-callback of a turn the channel stopped waiting for: retrieve (and drop) its outcome."""
    if not future.cancelled() and future.exception() is not None:
        logger.info("a turn answered after its deadline failed: %s", future.exception())
