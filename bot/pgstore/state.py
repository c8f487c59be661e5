"""Dialog states and the turn's one transaction on PostgreSQL (issue 15): :class:`PgStateStore`, a
:class:`bot.store.TurnStore` (dialog states, the turn's one transaction of state + log record +
receipt, numeric user ids) plus :meth:`PgStateStore.turn_lock`, a PostgreSQL advisory lock per user
held from loading the state to committing the turn, so two processes never run turns of one user at
once (the later waits).
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import psycopg

from bot.pgstore.connection import Connection, now_ms, shown
from bot.state import DialogState
from bot.store import KEEP_RECEIPTS_S, DuplicateTurn, reply_from_json, reply_to_json
from bot.turns import Reply
from logs.record import LogRecord
from logs.store import StoreError

__all__ = ["PgStateStore"]


class PgStateStore(Connection):
    """:class:`bot.store.TurnStore` on PostgreSQL (see the module docstring).

    A turn costs two round trips to the server, whatever its latency (each one also wakes the
    server process and then this one: on a loaded machine that, not the SQL, was the cost of a turn),
    each one query string of several statements (client-side parameter binding, the simple query
    protocol, which runs them in order as one implicit transaction; READ COMMITTED takes a snapshot
    per statement):

    1. :meth:`turn_lock` takes the user's advisory lock, then reads the turn's receipt, the user's
       state and numeric id and the id of the user's last log row; :meth:`receipt`,
       :meth:`load_saved`, :meth:`numeric_id` and :meth:`log_head` inside the lock answer from what
       it read;
    2. :meth:`commit_turn` moves the lock to its transaction (``pg_advisory_xact_lock``, then the
       session lock released: the user stays locked until the transaction ends, PostgreSQL docs
       "Advisory Locks") and writes the receipt, the log record, the state and the changed toCheck
       flags in one statement.
    """

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self._ids: dict[str, int] = {}
        self._held: dict[str, int] = {}  # user -> thread holding the user's turn lock (until commit)
        self._read: dict[str, _Prefetch] = {}  # user -> what turn_lock read with the lock
        with self._lock:
            self._conn.execute("DELETE FROM turn_receipts WHERE created_ms < %s", (now_ms() - KEEP_RECEIPTS_S * 1000,))

    @contextlib.contextmanager
    def turn_lock(self, user_id: str, key: str | None = None) -> Iterator[None]:
        """Hold the user's advisory lock for a whole turn: other processes' turns of the user wait.

        The lock belongs to this connection (session-level): a process killed mid-turn loses it
        with its connection. It is released by :meth:`commit_turn` (in the commit's round trip), or
        on leaving the block. ``key``: the turn's key, whose receipt is read with the lock.

        Raises:
            StoreError: the database cannot be reached.
        """
        me = threading.get_ident()
        while True:
            with self._lock:
                try:
                    # one query string, two statements: the read's snapshot is taken after the lock
                    cursor = psycopg.ClientCursor(self._conn)
                    cursor.execute(
                        f"SELECT pg_try_advisory_lock({_USER_LOCK}); {_TURN_READ}", {"user": user_id, "key": key}
                    )
                    row = cursor.fetchone()
                    if row is not None and row[0]:
                        cursor.nextset()
                        read = cursor.fetchone()
                        assert read is not None  # one row, whatever exists
                        self._held[user_id] = me
                        self._read[user_id] = _Prefetch(me, key, read[0], read[2], int(read[3]))
                        if read[1] is not None:
                            self._remember_id(user_id, int(read[1]))
                        break
                except psycopg.Error as exc:
                    raise self._error("take the user's turn lock", exc) from None
            time.sleep(0.002)  # another process runs a turn of this user; never block this connection
        try:
            yield
        finally:
            self._read.pop(user_id, None)
            if self._held.pop(user_id, None) is not None:  # not released by commit_turn
                with self._lock, contextlib.suppress(psycopg.Error):
                    self._conn.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 7))", (user_id,))

    def _prefetched(self, user_id: str) -> _Prefetch | None:
        read = self._read.get(user_id)
        return read if read is not None and read.thread == threading.get_ident() else None

    def load(self, user_id: str) -> DialogState:
        """The saved state of ``user_id``, or a fresh one."""
        saved = self.load_saved(user_id)
        return saved if saved is not None else DialogState.from_json(None)

    def load_saved(self, user_id: str) -> DialogState | None:
        """See :meth:`bot.store.StateStore.load_saved` (inside :meth:`turn_lock`: as read with the lock)."""
        read = self._prefetched(user_id)
        if read is not None and not read.state_used:
            read.state_used = True
            return DialogState.from_json(read.state) if read.state is not None else None
        with self._lock:
            try:
                row = self._conn.execute("SELECT state FROM users WHERE user_id = %s", (user_id,)).fetchone()
            except psycopg.Error as exc:
                raise self._error("read the dialog state", exc) from None
        return DialogState.from_json(row[0]) if row else None

    def log_head(self, user_id: str) -> int | None:
        """The id of the user's last log row in any session (0: none), as read with :meth:`turn_lock`
        (queried outside it): several processes write one user's turns, so a copy of the user's rows
        held in memory is checked against it."""
        read = self._prefetched(user_id)
        if read is not None:
            return read.log_head
        with self._lock:
            try:
                row = self._conn.execute(
                    "SELECT coalesce(max(l.id), 0) FROM log_records l JOIN users u ON l.user_id = u.id "
                    "WHERE u.user_id = %s",
                    (user_id,),
                ).fetchone()
            except psycopg.Error as exc:
                raise self._error("read the log", exc) from None
        return int(row[0]) if row else 0

    def save(self, user_id: str, state: DialogState) -> None:
        """See :meth:`bot.store.StateStore.save`."""
        with self._lock:
            self._read.pop(user_id, None)
            try:
                self._upsert(user_id, state)
            except psycopg.Error as exc:
                raise self._error("save the dialog state", exc) from None

    def _upsert(self, user_id: str, state: DialogState) -> None:
        self._conn.execute(
            "INSERT INTO users (user_id, state, active, updated_ms) VALUES (%s, %s, %s, %s) "
            "ON CONFLICT (user_id) DO UPDATE SET state = excluded.state, active = excluded.active, "
            "updated_ms = excluded.updated_ms",
            (user_id, state.to_json(), bool(state.active), now_ms()),
        )

    def commit_turn(
        self,
        user_id: str,
        state: DialogState,
        *,
        session: str,
        record: LogRecord,
        receipt: tuple[str, Reply] | None = None,
        to_check: Mapping[int, bool] | None = None,
    ) -> int:
        """See :meth:`bot.store.StateStore.commit_turn`: one transaction, one round trip (see the class
        docstring); ``DuplicateTurn`` when the receipt's key exists. Inside :meth:`turn_lock`, the
        user's lock is released in the same round trip, after the commit."""
        release = self._held.get(user_id) == threading.get_ident()
        with self._lock:
            self._read.pop(user_id, None)
            try:
                cursor = psycopg.ClientCursor(self._conn)
                params = _commit_params(user_id, state, session, record, receipt, to_check)
                if release:  # the lock passes to the transaction: released when it commits (or fails)
                    cursor.execute(f"SELECT pg_advisory_xact_lock({_USER_LOCK}); "
                                   f"SELECT pg_advisory_unlock({_USER_LOCK}); {_COMMIT_TURN}", params)  # fmt: skip
                    self._held.pop(user_id, None)
                    cursor.nextset()
                    cursor.nextset()
                else:
                    cursor.execute(_COMMIT_TURN, params)
                row = cursor.fetchone()
            except psycopg.errors.UniqueViolation as exc:
                if release:
                    self._held.pop(user_id, None)  # released: the unlock ran before the failed write
                if receipt is None or exc.diag.constraint_name != "turn_receipts_pkey":
                    raise self._error("save the turn", exc) from None
                stored = self.receipt(receipt[0])
                raise DuplicateTurn(receipt[0], stored or receipt[1]) from None
            except psycopg.Error as exc:
                raise self._error("save the turn", exc) from None
        assert row is not None
        return int(row[0])

    def receipt(self, key: str) -> Reply | None:
        """See :meth:`bot.store.StateStore.receipt` (inside :meth:`turn_lock` given ``key``: as read with the lock)."""
        me = threading.get_ident()
        for read in list(self._read.values()):
            if read.key == key and read.thread == me:
                return reply_from_json(read.receipt) if read.receipt is not None else None
        with self._lock:
            try:
                row = self._conn.execute("SELECT reply FROM turn_receipts WHERE key = %s", (key,)).fetchone()
            except psycopg.Error as exc:
                raise self._error("read a turn receipt", exc) from None
        return reply_from_json(row[0]) if row else None

    def save_receipt(self, user_id: str, key: str, reply: Reply) -> None:
        """See :meth:`bot.store.StateStore.save_receipt`."""
        with self._lock:
            try:
                self._conn.execute(
                    "INSERT INTO turn_receipts (key, user_id, reply, created_ms) VALUES (%s, %s, %s, %s) "
                    "ON CONFLICT (key) DO NOTHING",
                    (key, user_id, reply_to_json(reply), now_ms()),
                )
            except psycopg.Error as exc:
                raise self._error("save a turn receipt", exc) from None

    def numeric_id(self, user_id: str) -> int:
        """See :meth:`bot.store.StateStore.numeric_id` (known after :meth:`turn_lock` read the user's row)."""
        known = self._ids.get(user_id)
        if known is not None:
            return known
        with self._lock:
            try:
                with self._conn.pipeline():
                    self._conn.execute(
                        "INSERT INTO users (user_id, state, updated_ms) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                        (user_id, DialogState().to_json(), now_ms()),
                    )
                    found = self._conn.execute("SELECT id FROM users WHERE user_id = %s", (user_id,))
                row = found.fetchone()
            except psycopg.Error as exc:
                raise self._error("read a user id", exc) from None
        if row is None:
            raise StoreError(f"{shown(self.url)}: user {user_id} has no row")
        self._remember_id(user_id, int(row[0]))
        return int(row[0])

    def _remember_id(self, user_id: str, row_id: int) -> None:
        if len(self._ids) >= 100_000:
            self._ids.clear()
        self._ids[user_id] = row_id

    def set_active(self, user_id: str, active: bool) -> None:
        """See :meth:`bot.store.StateStore.set_active`."""
        state = self.load(user_id)
        state.active = active
        self.save(user_id, state)

    def users(self, *, active_only: bool = False) -> list[str]:
        """User ids, optionally only the active ones."""
        query = "SELECT user_id FROM users" + (" WHERE active" if active_only else "") + " ORDER BY id"
        with self._lock:
            return [row[0] for row in self._conn.execute(query)]


_USER_LOCK = "hashtextextended(%(user)s, 7)"
"""The advisory lock id of a user's turns (SQL, with the parameter ``user``)."""

_TURN_READ = (
    "SELECT (SELECT reply FROM turn_receipts WHERE key = %(key)s), u.id, u.state, "
    "(SELECT coalesce(max(l.id), 0) FROM log_records l WHERE l.user_id = u.id) "
    "FROM (SELECT 1) AS one LEFT JOIN users u ON u.user_id = %(user)s"
)
"""A turn's reads, one row: its receipt's reply, the user's numeric id, state, last log row id (or NULLs, 0)."""

_COMMIT_TURN = (
    "WITH receipt AS (INSERT INTO turn_receipts (key, user_id, reply, created_ms) "
    "  SELECT %(key)s, %(user)s, %(reply)s, %(now)s WHERE %(key)s::text IS NOT NULL RETURNING 1), "
    "record AS (INSERT INTO log_records (session, user_id, message_id, timestamp_start, intent, to_check, record) "
    "  VALUES (%(session)s, %(uid)s, %(mid)s, %(ts)s, %(intent)s, %(check)s, %(json)s) RETURNING id), "
    "state AS (INSERT INTO users (user_id, state, active, updated_ms) VALUES (%(user)s, %(state)s, %(active)s, %(now)s) "
    "  ON CONFLICT (user_id) DO UPDATE SET state = excluded.state, active = excluded.active, "
    "  updated_ms = excluded.updated_ms RETURNING 1), "
    "flags AS (UPDATE log_records AS l SET to_check = f.flag, "
    "  record = jsonb_set(l.record::jsonb, '{toCheck}', to_jsonb(f.flag))::text "
    "  FROM unnest(%(ids)s::bigint[], %(flags)s::boolean[]) AS f(id, flag) "
    "  WHERE l.id = f.id AND l.to_check IS DISTINCT FROM f.flag RETURNING 1) "
    "SELECT id FROM record"
)
"""A turn's writes as one statement (so one transaction): the receipt (its primary key refuses a
second application of the key), the log record, the state, the toCheck flags of earlier rows."""


def _commit_params(
    user_id: str,
    state: DialogState,
    session: str,
    record: LogRecord,
    receipt: tuple[str, Reply] | None,
    to_check: Mapping[int, bool] | None,
) -> dict[str, Any]:
    ids = list(to_check or {})
    return {
        "key": receipt[0] if receipt else None, "user": user_id,
        "reply": reply_to_json(receipt[1]) if receipt else None, "now": now_ms(), "session": session,
        "uid": record.user_id, "mid": record.message_id, "ts": record.timestamp_start, "intent": record.intent,
        "check": bool(record.to_check), "json": json.dumps(record.to_json(), ensure_ascii=False),
        "state": state.to_json(), "active": bool(state.active), "ids": ids,
        "flags": [bool(to_check[i]) for i in ids] if to_check else [],
    }  # fmt: skip


@dataclass(slots=True)
class _Prefetch:
    """What :meth:`PgStateStore.turn_lock` read with the lock, for the thread holding it."""

    thread: int
    key: str | None
    receipt: str | None
    state: str | None
    log_head: int
    state_used: bool = False
