"""Updates in through the inbox (issue 17.1): :class:`UpdateIntake` stores what the receivers
(:mod:`.receiving`) get before it is confirmed, hands it to PTB's queue, marks it finished once
handled, schedules what a previous run left unfinished, and, for webhook workers sharing one database
(issue 15), runs each update under the user's cross-process lock after the user's earlier unfinished
updates and sweeps up those a killed worker left."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from telegram import Update
from telegram.ext import Application

from bot.channels.inbox import InboxUpdate, UpdateInbox
from bot.channels.telegram.config import USER_PREFIX
from bot.channels.telegram.receiving import user_key_of

logger = logging.getLogger(__name__)
T = TypeVar("T")
SWEEP_S = 3.0
"""Webhook workers look for updates left unfinished (by a killed worker) this often, and take those
older than this."""
SCHEDULE_SLICE = 8
"""Updates parsed and queued in a row before the loop gets a turn (a batch of 100 costs it 10-30 ms, which
would hold up the replies arriving meanwhile and the record that they went out)."""
FINISH_BATCH_S = 0.05
"""Updates handled within this long are marked finished together (one thread hop, one transaction)."""


class UpdateIntake:
    """The channel's side of the inbox.

    Args:
        inbox: where updates are stored until they are handled.
        application_of: returns the channel's PTB application (built after this object).
        executor_of: returns the channel's thread pool, or None when it is not running; the inbox is
            used from its threads.
    """

    def __init__(
        self,
        inbox: UpdateInbox,
        application_of: Callable[[], Application],
        executor_of: Callable[[], ThreadPoolExecutor | None],
    ) -> None:
        self.inbox = inbox
        self._application_of = application_of
        self._executor_of = executor_of
        self._to_finish: list[int] = []  # handled, to be marked finished at the next flush
        self._flush_timer: asyncio.TimerHandle | None = None

    @property
    def shared(self) -> bool:
        """True when the inbox has the cross-process user lock (several processes share it)."""
        return hasattr(self.inbox, "user_lock")

    @property
    def sweepable(self) -> bool:
        """True when the inbox can list updates left unfinished by another process."""
        return hasattr(self.inbox, "unfinished_older_than")

    async def resume(self) -> None:
        """Schedule the updates a previous run stopped before handling (killed), in order, before
        anything new."""
        left = await self.in_thread(self.inbox.unfinished)
        if left:
            logger.warning("handling %d updates left unfinished by the previous run", len(left))
            for n, stored in enumerate(left, 1):
                self.schedule(json.loads(stored.payload))
                if n % SCHEDULE_SLICE == 0:
                    await asyncio.sleep(0)

    async def accept(self, raw: list[dict[str, Any]]) -> None:
        """Store raw updates in the inbox (a thread), then schedule those not seen before, in order.

        Raises:
            CorsbotError: the inbox cannot be written (the caller does not confirm them).
        """
        stored = [InboxUpdate(u["update_id"], user_key_of(u, USER_PREFIX), json.dumps(u)) for u in raw]
        new = await self.in_thread(self.inbox.add, stored)
        fresh = {u.update_id for u in new}
        scheduled = 0
        for update in raw:
            if update["update_id"] in fresh:
                self.schedule(update)
                scheduled += 1
                if scheduled % SCHEDULE_SLICE == 0:
                    await asyncio.sleep(0)

    def schedule(self, raw: dict[str, Any]) -> None:
        """Hand one update to PTB's queue (processed per user in queue order, see locks.py)."""
        application = self._application_of()
        update = Update.de_json(raw, application.bot)
        if update is None:
            return
        application.update_queue.put_nowait(update)

    def sent(self, update: object) -> None:
        """The update's reply went out (the Bot API accepted its last message): record it at once, on
        the loop, so that a restart never sends it again (``UpdateInbox.record_sent``; never raises)."""
        if not isinstance(update, Update):
            return
        try:
            self.inbox.record_sent(update.update_id)
        except Exception as exc:  # noqa: BLE001 - the update is still finished after the turn
            logger.warning("could not record the reply to update %s as sent: %s", update.update_id, exc)

    def finish(self, update: object) -> None:
        """Mark a handled update finished in the inbox, in a thread (a failure is logged; called on the
        loop). Updates handled within :data:`FINISH_BATCH_S` share one thread hop and one transaction:
        a thread per update costs the loop interpreter-lock hand-offs, and nothing waits for the mark
        (a reply that went out is recorded at once by :meth:`sent`). Webhook workers sharing the inbox
        mark each update at once (the others read the marks)."""
        executor = self._executor_of()
        if not isinstance(update, Update) or executor is None:
            return
        if self.shared:
            executor.submit(self.inbox.finish, update.update_id).add_done_callback(_log_failure)
            return
        self._to_finish.append(update.update_id)
        if self._flush_timer is None:
            self._flush_timer = asyncio.get_running_loop().call_later(FINISH_BATCH_S, self._flush)

    def _flush(self) -> None:
        """Loop callback: hand the updates handled since the last flush to a thread, to be marked finished."""
        self._flush_timer = None
        batch, self._to_finish = self._to_finish, []
        executor = self._executor_of()
        if batch and executor is not None:
            executor.submit(self.inbox.finish_many, batch).add_done_callback(_log_failure)

    async def drain(self) -> None:
        """Mark the updates still waiting for a flush finished now (at stop, before the threads go)."""
        if self._flush_timer is not None:
            self._flush_timer.cancel()
            self._flush_timer = None
        batch, self._to_finish = self._to_finish, []
        if batch and self._executor_of() is not None:
            try:
                await self.in_thread(self.inbox.finish_many, batch)
            except Exception as exc:  # noqa: BLE001 - handled again after the restart, answered from receipts
                logger.error("could not mark %d handled updates finished: %s", len(batch), exc)

    @contextlib.asynccontextmanager
    async def shared_turn(self, update: object) -> AsyncIterator[bool]:
        """Several webhook workers on one database (issue 15): hold the user's lock across processes;
        first handle the user's earlier updates that are still unfinished (stored by another worker,
        or left by a killed one), in order; then say whether ``update`` itself still needs handling."""
        inbox: Any = self.inbox
        user = user_key_of(update.to_dict(), USER_PREFIX) if isinstance(update, Update) else None
        if user is None or not isinstance(update, Update):
            yield True
            return
        while not await self.in_thread(inbox.user_lock, user):
            await asyncio.sleep(0.005)  # another worker handles this user now
        try:
            application = self._application_of()
            for earlier in await self.in_thread(inbox.unfinished, user):
                if earlier.update_id >= update.update_id:
                    break
                before = Update.de_json(json.loads(earlier.payload), application.bot)
                if before is not None:
                    await application.process_update(before)
                await self.in_thread(inbox.finish, earlier.update_id)
            yield not await self.in_thread(inbox.is_finished, update.update_id)
        finally:
            await self.in_thread(inbox.user_unlock, user)

    async def sweep(self) -> None:
        """Webhook workers: every few seconds, schedule unfinished updates older than a few seconds
        (a killed worker's), so that they are handled even if their user writes nothing more."""
        inbox: Any = self.inbox
        while True:
            await asyncio.sleep(SWEEP_S)
            try:
                for stale in await self.in_thread(inbox.unfinished_older_than, SWEEP_S * 1000):
                    self.schedule(json.loads(stale.payload))
            except Exception as exc:  # noqa: BLE001 - a failed sweep is retried at the next one
                logger.warning("sweep of unfinished updates failed: %s", exc)

    async def in_thread(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in the channel's thread pool (the loop's default one when it has none)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor_of(), lambda: function(*args))


def _log_failure(future: Any) -> None:
    if not future.cancelled() and future.exception() is not None:
        logger.error("could not mark an update handled: %s", future.exception())
