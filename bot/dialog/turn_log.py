"""Writing a turn: its dataset-format log record and the user's new state, in one transaction.

toCheck (the paper's task heuristic) is recomputed over the user's log with the new record, and the
flags it changes are written in the turn's transaction; the user's rows are kept in a bounded
in-memory cache so a turn does not re-read the whole log (re-read when the store says another process
wrote a turn of the user since: ``TurnStore.log_head``).
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from bot.state import DialogState
from bot.store import TurnStore
from bot.turns import Reply, Turn
from logs.record import LogRecord
from logs.schema import format_objects, join_list
from logs.store import LogStore, StoreError

logger = logging.getLogger(__name__)

ROWS_CACHE_USERS = 1000
"""Users whose session log is kept in memory for the per-turn toCheck recomputation (LRU)."""


class TurnLog:
    """The session log and the state store, written together.

    Args:
        states: the dialog state store.
        log: the session log (dataset format); None disables logging.
        session: the log session name.
        to_check: ``records -> list[bool]``, the toCheck heuristic applied to the user's log after
            each turn; None logs toCheck=True until recomputed.
    """

    def __init__(
        self,
        states: TurnStore,
        log: LogStore | None,
        *,
        session: str,
        to_check: Callable[[Sequence[LogRecord]], list[bool]] | None = None,
    ) -> None:
        self._states, self._log, self._session, self._to_check = states, log, session, to_check
        self._rows_cache: dict[int, list[tuple[int, LogRecord]]] = {}
        self._rows_guard = threading.Lock()
        self._same_database = (
            log is not None and states.path is not None and Path(log.path).resolve() == Path(states.path).resolve()
        )

    def commit(
        self,
        turn: Turn,
        state: DialogState,
        *,
        intent: str,
        events: Sequence[str],
        objects: Sequence[tuple[str, str]],
        contexts: Sequence[str],
        started_ms: int,
        now_ms: int,
        reply: Reply | None = None,
    ) -> None:
        """Write the turn's log record and the user's new state: one transaction when both live in one
        database (``StateStore.commit_turn``), with the toCheck flags the turn changes on the user's
        earlier rows; else the log row, then the state, then the flags. A turn with a key
        (``Turn.key``) also stores its receipt ``(key, reply)`` in that transaction.

        Raises:
            bot.store.DuplicateTurn: the key was applied meanwhile (nothing was written).
            StoreError: the database cannot be written; with one transaction, nothing was written.
        """
        receipt = (turn.key, reply) if turn.key is not None and reply is not None else None
        if self._log is None:
            self._states.save(turn.user_id, state)
            if receipt is not None:
                self._states.save_receipt(turn.user_id, *receipt)
            return
        numeric_id = self._states.numeric_id(turn.user_id)
        start = turn.timestamp_ms if turn.timestamp_ms is not None else started_ms
        end = max(start, start + (now_ms - started_ms)) if turn.timestamp_ms is not None else now_ms
        record = LogRecord(
            message_id=f"{numeric_id}-{time.time_ns()}",
            user_id=numeric_id,
            message=turn.text,
            timestamp_start=start,
            timestamp_end=end,
            intent=intent,
            contexts=join_list(contexts),
            to_check=True,
            recognized_objects=format_objects(objects),
            events=join_list(events),
            pagerank_cycle=state.pagerank_cycle,
            number_recommendation_list=state.number_recommendation_list,
            interaction_type=turn.interaction_type,
        )
        if self._same_database:
            self._commit_with_flags(turn.user_id, numeric_id, state, record, receipt)
            return
        row_id = self._log.append(self._session, record)
        self._states.save(turn.user_id, state)
        if receipt is not None:
            self._states.save_receipt(turn.user_id, *receipt)
        if self._to_check is not None:
            try:
                self._recheck(numeric_id, row_id, record)
            except StoreError as exc:  # the turn is saved; its toCheck flags are recomputed next turn
                logger.warning("toCheck of %s not updated: %s", turn.user_id, exc)

    def _commit_with_flags(
        self, user_id: str, numeric_id: int, state: DialogState, record: LogRecord, receipt: tuple[str, Reply] | None
    ) -> None:
        """One transaction: the record (with its toCheck flag), the state, the receipt and the toCheck
        flags the new record changes on the user's earlier rows (computed over the cached rows,
        reloaded when another process wrote a turn of the user meanwhile: ``TurnStore.log_head``)."""
        assert self._log is not None
        rows: list[tuple[int, LogRecord]] | None = None
        changed: dict[int, bool] = {}
        if self._to_check is not None:
            with self._rows_guard:
                rows = self._rows_cache.pop(numeric_id, None)
            head = self._states.log_head(user_id)
            if head == 0:  # the user has no log row yet
                rows = []
            elif rows is None or (head is not None and (rows[-1][0] if rows else 0) != head):
                rows = self._log.rows(self._session, user_id=numeric_id)
            flags = self._to_check([rec for _, rec in rows] + [record])
            record = dataclasses.replace(record, to_check=flags[-1])
            changed = {rid: flag for (rid, rec), flag in zip(rows, flags, strict=False) if rec.to_check != flag}
        row_id = self._states.commit_turn(
            user_id, state, session=self._session, record=record, receipt=receipt, to_check=changed
        )
        if rows is None:
            return
        rows = [(rid, dataclasses.replace(rec, to_check=changed[rid]) if rid in changed else rec) for rid, rec in rows]
        rows.append((row_id, record))
        with self._rows_guard:
            self._rows_cache[numeric_id] = rows
            while len(self._rows_cache) > ROWS_CACHE_USERS:
                self._rows_cache.pop(next(iter(self._rows_cache)))

    def last_records(self, user_id: str, n: int) -> list[LogRecord]:
        """The last ``n`` log records of ``user_id`` in this session, oldest first (from the in-memory
        copy of the user's rows when the store says it is current, else read from the log)."""
        if self._log is None or n <= 0:
            return []
        numeric_id = self._states.numeric_id(user_id)
        with self._rows_guard:
            cached = self._rows_cache.get(numeric_id)
        if cached and len(cached) >= n and self._states.log_head(user_id) in (None, cached[-1][0]):
            return [record for _, record in cached[-n:]]
        rows = self._log.rows(self._session, user_id=numeric_id)
        return [record for _, record in rows[-n:]]

    def _recheck(self, numeric_id: int, row_id: int, record: LogRecord) -> None:
        """Recompute toCheck over the user's log (kept in a bounded in-memory cache, loaded once)."""
        assert self._log is not None and self._to_check is not None
        with self._rows_guard:
            rows = self._rows_cache.pop(numeric_id, None)
        if rows is None:
            rows = self._log.rows(self._session, user_id=numeric_id)
        elif not rows or rows[-1][0] != row_id:
            rows.append((row_id, record))
        with self._rows_guard:
            self._rows_cache[numeric_id] = rows
            while len(self._rows_cache) > ROWS_CACHE_USERS:
                self._rows_cache.pop(next(iter(self._rows_cache)))
        flags = self._to_check([rec for _, rec in rows])
        changed = {}
        for i, ((rid, rec), flag) in enumerate(zip(rows, flags, strict=True)):
            if rec.to_check != flag:
                changed[rid] = flag
                rows[i] = (rid, dataclasses.replace(rec, to_check=flag))
        if changed:
            self._log.set_to_check(changed)
