"""Turns in through the web channel's durable table (issue 26): :class:`TurnIntake` stores a turn in
``web_turns`` before the dialog sees it, runs one participant's turns one at a time in arrival
order, stores the reply with the turn, and at start handles what a killed process left unanswered.

The dialog handler is any ``DialogHandler``: a :class:`bot.dialog_pool.ProcessDialogHandler` (awaited
on the event loop through ``ahandle``, the dialog in worker processes) or an in-process one
(``handle``, run in a thread). Each turn carries the key ``web:<row id>``, so a turn handed over again
after a crash is applied at most once (the dialog's turn receipts). A failed turn is answered with a
short apology (never a trace or a path) and that answer is stored, so the conversation goes on.

The table's writes are group-committed (:class:`GroupCommit`): the turns of many participants arriving
together are stored in one transaction (each still before it is answered), so the web process takes
the database's write lock once per group, not twice per message, beside the dialog workers' commits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.channels.web.dialogs import AnnotatedReply
from bot.channels.web.store import Participant, StoredTurn, WebStore
from bot.turns import Reply, Turn
from corsbot_errors import CorsbotError
from logs.store import StoreError

__all__ = ["ChannelTexts", "GroupCommit", "TurnIntake"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ChannelTexts:
    """The web channel's own user-facing texts (the dialog's are in ``bot/messages.py``)."""

    apology: str = "Sorry, something went wrong on my side. Please try again."
    storage_apology: str = "Sorry, I could not save that just now. Please send it again in a moment."


T = TypeVar("T")


class GroupCommit:
    """Writes of the turn table from the event loop, committed in groups: every write waiting while a
    group is being committed goes into the next one (one transaction and one thread hop for all of
    them, instead of one each). A write's ``await`` returns once its group is committed, so "stored
    before answered" holds; if a group fails, every write in it fails (nothing of it was kept).

    Args:
        store: the web tables.
    """

    def __init__(self, store: WebStore) -> None:
        self._store = store
        self._pending: list[tuple[Callable[[WebStore], Any], asyncio.Future[Any]]] = []
        self._draining = False
        self.groups = 0

    async def run(self, write: Callable[[WebStore], T]) -> T:
        """Run ``write(store)`` in the next group; its result once the group is committed.

        Raises:
            StoreError: the group could not be committed.
        """
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending.append((write, future))
        if not self._draining:
            self._draining = True
            asyncio.get_running_loop().create_task(self._drain())
        result: T = await future
        return result

    async def _drain(self) -> None:
        try:
            while self._pending:
                group, self._pending = self._pending, []
                try:
                    results = await asyncio.to_thread(self._commit, [write for write, _ in group])
                except Exception as exc:  # noqa: BLE001 - every writer of the group gets the error
                    error = exc if isinstance(exc, StoreError) else StoreError(f"cannot store web turns ({exc})")
                    for _, future in group:
                        if not future.done():
                            future.set_exception(error)
                    continue
                self.groups += 1
                for (_, future), result in zip(group, results, strict=True):
                    if not future.done():
                        future.set_result(result)
        finally:
            self._draining = False

    def _commit(self, writes: list[Callable[[WebStore], Any]]) -> list[Any]:
        with self._store.transaction():
            return [write(self._store) for write in writes]


class TurnIntake:
    """The channel's side of the turn table (see the module docstring).

    Args:
        store: the web tables.
        handler: the dialog handler (``ahandle`` or ``handle``); :meth:`replace` swaps it.
        texts: apologies.
    """

    def __init__(self, store: WebStore, handler: Any, *, texts: ChannelTexts | None = None) -> None:
        self.store = store
        self._handler = handler
        self._texts = texts or ChannelTexts()
        self._users: dict[str, tuple[asyncio.Lock, int]] = {}  # pid -> (lock, turns waiting or running)
        self._running: dict[int, int] = {}  # id(handler) -> turns in it
        self._writes = GroupCommit(store)
        self.handled = 0

    @property
    def handler(self) -> Any:
        """The current dialog handler."""
        return self._handler

    async def turn(
        self, participant: Participant, text: str, payload: str | None, *, interaction: str, auto: bool = False
    ) -> StoredTurn:
        """Store the turn, answer it in order after the participant's earlier turns, store the reply.

        Raises:
            StoreError: the turn could not be stored (nothing was handed to the dialog).
        """
        async with self._user_lock(participant.pid):
            turn_id = await self._writes.run(
                lambda store: store.add_turn(participant.pid, text, payload, interaction=interaction, auto=auto)
            )
            reply = await self._answer(Turn(participant.user_key, text, payload, interaction, key=f"web:{turn_id}"))
            return await self._finish(turn_id, participant.pid, text, payload, interaction, auto, reply)

    async def resume(self, user_key_of: Callable[[str], str | None]) -> int:
        """Answer the turns a previous run stored but did not answer, in order (before serving).

        Args:
            user_key_of: ``pid -> user key`` (None: the participant is gone; the turn is dropped).

        Returns:
            How many were answered.
        """
        left = await asyncio.to_thread(self.store.unfinished)
        if left:
            logger.warning("answering %d web turns left unanswered by the previous run", len(left))
        for stored in left:
            key = user_key_of(stored.pid)
            if key is None:
                continue
            async with self._user_lock(stored.pid):
                turn = Turn(key, stored.text, stored.payload, stored.interaction, key=stored.key)
                reply = await self._answer(turn)
                await self._finish(stored.id, stored.pid, stored.text, stored.payload, stored.interaction,
                                   stored.auto, reply)  # fmt: skip
        return len(left)

    async def _finish(
        self, turn_id: int, pid: str, text: str, payload: str | None, interaction: str, auto: bool, reply: Reply
    ) -> StoredTurn:
        annotation = reply.annotation if isinstance(reply, AnnotatedReply) else None
        plain = Reply(reply.text, reply.choices, reply.image, reply.card)
        typed = None
        try:
            typed = await self._writes.run(lambda store: store.finish_turn(turn_id, plain, annotation, pid=pid))
        except StoreError as exc:  # the dialog applied it; the transcript misses the reply until a retry
            logger.error("reply of web turn %d not stored: %s", turn_id, exc)
        self.handled += 1
        return StoredTurn(turn_id, pid, auto, text, payload, interaction, 0, 1, plain, annotation, typed)

    async def _answer(self, turn: Turn) -> Reply:
        handler = self._handler
        key = id(handler)
        self._running[key] = self._running.get(key, 0) + 1
        try:
            if hasattr(handler, "ahandle"):
                return await handler.ahandle(turn)  # type: ignore[no-any-return]
            return await asyncio.to_thread(handler.handle, turn)  # type: ignore[no-any-return]
        except StoreError as exc:  # names a path or an SQL error: the operator's log, not the participant
            logger.error("web turn %s failed: %s", turn.key, exc)
            return Reply(self._texts.storage_apology)
        except CorsbotError as exc:  # deliberate errors carry a user-facing message (a crash's is empty)
            logger.warning("web turn %s failed: %s", turn.key, exc.__class__.__name__)
            return Reply(str(exc) or self._texts.apology)
        except Exception:  # noqa: BLE001 - a bug in the handler must not end the conversation
            logger.exception("web turn %s failed", turn.key)
            return Reply(self._texts.apology)
        finally:
            self._running[key] -= 1
            if not self._running[key]:
                del self._running[key]

    @contextlib.asynccontextmanager
    async def _user_lock(self, pid: str) -> Any:
        lock, waiting = self._users.get(pid, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._users[pid] = (lock, waiting + 1)
        try:
            async with lock:
                yield
        finally:
            lock, waiting = self._users[pid]
            if waiting <= 1:
                del self._users[pid]
            else:
                self._users[pid] = (lock, waiting - 1)

    async def replace(self, handler: Any) -> Any:
        """Swap the dialog handler (a new model promoted); returns the old one once its turns are done."""
        old, self._handler = self._handler, handler
        while self._running.get(id(old), 0):
            await asyncio.sleep(0.05)
        return old

    @property
    def busy(self) -> int:
        """Participants with a turn waiting or running."""
        return len(self._users)
