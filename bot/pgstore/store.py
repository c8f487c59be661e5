"""The PostgreSQL store (psycopg 3): the same interfaces as the SQLite one, for several bot processes
and hosts sharing one database (issue 15).

Selected by ``CORSBOT_DATABASE_URL=postgresql://user:password@host:port/dbname`` (SQLite stays the
default). Every class takes the URL and opens its own connection (autocommit; transactions are
explicit), guarded by a lock, as the SQLite classes do:

- :class:`PgStateStore`: :class:`bot.store.TurnStore` (dialog states, the turn's one transaction of
  state + log record + receipt, numeric user ids) plus :meth:`PgStateStore.turn_lock`, a
  PostgreSQL advisory lock per user held from loading the state to committing the turn, so two
  processes never run turns of one user at once (the later waits);
- :class:`PgLogStore`: the session log (the methods of :class:`logs.store.LogStore` the dialog and
  the export use);
- :class:`PgInbox`: :class:`bot.channels.inbox.UpdateInbox`;
- :class:`PgChannelUsers`: :class:`bot.channels.users.ChannelUsers`.

Schema: created or migrated on first connection, versioned in ``corsbot_schema(version)``
(:data:`SCHEMA_VERSION`); migrations run in one transaction under an advisory lock, so processes
starting together do not race; a database whose version is newer than the code's is refused with a
clear :class:`SchemaError`. The password of the URL is registered with :mod:`bot.redact`: it never
appears in a log line or an error.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psycopg

from bot.channels.inbox import KEEP_FINISHED_S, InboxUpdate
from bot.channels.users import ChannelUser
from bot.redact import redact, register_secret
from bot.state import DialogState
from bot.store import KEEP_RECEIPTS_S, DuplicateTurn, reply_from_json, reply_to_json
from bot.turns import Reply
from logs.record import LogRecord, RecordError
from logs.store import StoreError

__all__ = ["SCHEMA_VERSION", "PgChannelUsers", "PgInbox", "PgLogStore", "PgStateStore", "SchemaError", "is_url"]

SCHEMA_VERSION = 2
_MIGRATIONS: dict[int, str] = {
    1: """
CREATE TABLE users (
    id BIGSERIAL UNIQUE, user_id TEXT PRIMARY KEY, state TEXT NOT NULL,
    active BOOLEAN NOT NULL DEFAULT TRUE, updated_ms BIGINT NOT NULL
);
CREATE TABLE log_records (
    id BIGSERIAL PRIMARY KEY, session TEXT NOT NULL, user_id BIGINT NOT NULL, message_id TEXT NOT NULL,
    timestamp_start BIGINT NOT NULL, intent TEXT NOT NULL, to_check BOOLEAN NOT NULL, record TEXT NOT NULL
);
CREATE INDEX log_records_session_user ON log_records (session, user_id, id);
CREATE TABLE turn_receipts (
    key TEXT PRIMARY KEY, user_id TEXT NOT NULL, reply TEXT NOT NULL, created_ms BIGINT NOT NULL
);
CREATE INDEX turn_receipts_age ON turn_receipts (created_ms);
CREATE TABLE channel_inbox (
    source TEXT NOT NULL, update_id BIGINT NOT NULL, user_key TEXT, payload TEXT NOT NULL,
    received_ms BIGINT NOT NULL, finished_ms BIGINT, PRIMARY KEY (source, update_id)
);
CREATE INDEX channel_inbox_open ON channel_inbox (source, user_key, update_id) WHERE finished_ms IS NULL;
CREATE TABLE channel_users (
    user_id TEXT PRIMARY KEY, chat_id BIGINT NOT NULL, active BOOLEAN NOT NULL, changed_ms BIGINT NOT NULL,
    reason TEXT
);
""",
    # the id of a user's last log row, read with every turn's lock (PgStateStore.log_head)
    2: "CREATE INDEX log_records_user ON log_records (user_id, id);",
}
_MIGRATION_LOCK = 0x636F7273  # advisory lock id for schema changes ("cors")


class SchemaError(StoreError):
    """The database's schema is newer than this corsbot (or not corsbot's)."""


def is_url(value: str | None) -> bool:
    """True for a PostgreSQL URL (``postgresql://`` or ``postgres://``)."""
    return bool(value) and str(value).startswith(("postgresql://", "postgres://"))


def _now_ms() -> int:
    return int(time.time() * 1000)


class _Connection:
    """One autocommit connection with a lock, the schema checked; base of the store classes."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        register_secret(parts.password)
        self.url = url
        self.path: Path | None = Path(
            f"postgresql:{parts.hostname or 'localhost'}:{parts.port or 5432}{parts.path or '/'}"
        )
        self._lock = threading.RLock()
        try:
            self._conn = psycopg.connect(url, autocommit=True, connect_timeout=15)
        except psycopg.Error as exc:
            raise StoreError(redact(f"cannot connect to the database {_shown(url)} ({_first_line(exc)})")) from None
        _migrate(self._conn, url)

    def _tx(self) -> contextlib.AbstractContextManager[Any]:
        return self._conn.transaction()

    def _error(self, what: str, exc: BaseException) -> StoreError:
        return StoreError(redact(f"{_shown(self.url)}: cannot {what} ({_first_line(exc)})"))

    def close(self) -> None:
        """Close the connection (idempotent)."""
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _shown(url: str) -> str:
    parts = urlsplit(url)
    return f"postgresql://{parts.hostname or 'localhost'}:{parts.port or 5432}{parts.path}"


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def _migrate(conn: psycopg.Connection[Any], url: str) -> None:
    """Create or migrate the schema to :data:`SCHEMA_VERSION` (see the module docstring).

    Raises:
        SchemaError: the database is newer than the code.
    """
    try:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            conn.execute("CREATE TABLE IF NOT EXISTS corsbot_schema (version INTEGER NOT NULL)")
            row = conn.execute("SELECT max(version) FROM corsbot_schema").fetchone()
            version = int(row[0]) if row and row[0] is not None else 0
            if version > SCHEMA_VERSION:
                raise SchemaError(
                    f"the database {_shown(url)} has schema version {version}, newer than this corsbot "
                    f"understands ({SCHEMA_VERSION}): upgrade corsbot, or use another database"
                )
            for step in range(version + 1, SCHEMA_VERSION + 1):
                conn.execute(_MIGRATIONS[step])
                conn.execute("INSERT INTO corsbot_schema (version) VALUES (%s)", (step,))
    except psycopg.Error as exc:
        raise StoreError(redact(f"cannot prepare the database {_shown(url)} ({_first_line(exc)})")) from None


class PgStateStore(_Connection):
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
            self._conn.execute("DELETE FROM turn_receipts WHERE created_ms < %s", (_now_ms() - KEEP_RECEIPTS_S * 1000,))

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
            (user_id, state.to_json(), bool(state.active), _now_ms()),
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
                    (key, user_id, reply_to_json(reply), _now_ms()),
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
                        (user_id, DialogState().to_json(), _now_ms()),
                    )
                    found = self._conn.execute("SELECT id FROM users WHERE user_id = %s", (user_id,))
                row = found.fetchone()
            except psycopg.Error as exc:
                raise self._error("read a user id", exc) from None
        if row is None:
            raise StoreError(f"{_shown(self.url)}: user {user_id} has no row")
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
        "reply": reply_to_json(receipt[1]) if receipt else None, "now": _now_ms(), "session": session,
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


def _update_to_check(conn: psycopg.Connection[Any], flags: Mapping[int, bool]) -> psycopg.Cursor[Any]:
    """Overwrite ``toCheck`` of stored rows in one statement (the record's JSON through ``jsonb_set``:
    its keys come back in jsonb's order, which :meth:`LogRecord.from_json` does not mind)."""
    ids = list(flags)
    return conn.execute(
        "UPDATE log_records AS l SET to_check = f.flag, record = jsonb_set(l.record::jsonb, '{toCheck}', "
        "to_jsonb(f.flag))::text FROM unnest(%s::bigint[], %s::boolean[]) AS f(id, flag) "
        "WHERE l.id = f.id AND l.to_check IS DISTINCT FROM f.flag",
        (ids, [bool(flags[i]) for i in ids]),
    )


def _send_record(conn: psycopg.Connection[Any], session: str, record: LogRecord) -> psycopg.Cursor[Any]:
    """Insert one record; the cursor yields its row id (read it after a pipeline's sync)."""
    return conn.execute(
        "INSERT INTO log_records (session, user_id, message_id, timestamp_start, intent, to_check, record) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING id",
        (session, record.user_id, record.message_id, record.timestamp_start, record.intent, bool(record.to_check),
         json.dumps(record.to_json(), ensure_ascii=False)),
    )  # fmt: skip


def _insert_record(conn: psycopg.Connection[Any], session: str, record: LogRecord) -> int:
    row = _send_record(conn, session, record).fetchone()
    assert row is not None
    return int(row[0])


class PgLogStore(_Connection):
    """The session log on PostgreSQL: the methods of :class:`logs.store.LogStore` (same semantics)."""

    def append(self, session: str, record: LogRecord) -> int:
        """Append one record and commit; returns its row id."""
        with self._lock:
            try:
                return _insert_record(self._conn, session, record)
            except psycopg.Error as exc:
                raise self._error("append to the log", exc) from None

    def append_many(self, session: str, records: Iterable[LogRecord]) -> list[int]:
        """Append several records in one transaction; their row ids in order."""
        with self._lock:
            try:
                with self._tx():
                    return [_insert_record(self._conn, session, r) for r in records]
            except psycopg.Error as exc:
                raise self._error("append to the log", exc) from None

    def set_to_check(self, flags: Mapping[int, bool]) -> int:
        """Overwrite ``toCheck`` of stored rows in one statement; the number of rows changed."""
        if not flags:
            return 0
        with self._lock:
            try:
                cursor = _update_to_check(self._conn, flags)
            except psycopg.Error as exc:
                raise self._error("update the log", exc) from None
        return max(cursor.rowcount, 0)

    def rows(self, session: str | None = None, *, user_id: int | None = None) -> list[tuple[int, LogRecord]]:
        """``(row id, record)`` pairs in insertion order, optionally of one session and/or user."""
        clauses: list[str] = []
        params: list[Any] = []
        if session is not None:
            clauses.append("session = %s")
            params.append(session)
        if user_id is not None:
            clauses.append("user_id = %s")
            params.append(user_id)
        query = "SELECT id, record FROM log_records" + (" WHERE " + " AND ".join(clauses) if clauses else "")
        with self._lock:
            try:
                found = self._conn.execute(query + " ORDER BY id", params).fetchall()
            except psycopg.Error as exc:
                raise self._error("read the log", exc) from None
        out = []
        for row_id, text in found:
            try:
                out.append((int(row_id), LogRecord.from_json(json.loads(text))))
            except (ValueError, RecordError) as exc:
                raise StoreError(f"{_shown(self.url)}: log row {row_id} is corrupt ({exc})") from None
        return out

    def records(self, session: str | None = None) -> list[LogRecord]:
        """The records of ``session`` (all if None), in insertion order."""
        return [record for _, record in self.rows(session)]

    def sessions(self) -> list[str]:
        """Session names, in order of their first record."""
        with self._lock:
            rows = self._conn.execute("SELECT session FROM log_records GROUP BY session ORDER BY min(id)").fetchall()
        return [r[0] for r in rows]

    def count(self, session: str | None = None) -> int:
        """Number of records of ``session`` (all if None)."""
        query, params = "SELECT count(*) FROM log_records", []
        if session is not None:
            query, params = query + " WHERE session = %s", [session]
        with self._lock:
            row = self._conn.execute(query, params).fetchone()
        return int(row[0]) if row else 0


class PgInbox(_Connection):
    """:class:`bot.channels.inbox.UpdateInbox` on PostgreSQL (table ``channel_inbox``)."""

    def __init__(self, url: str, source: str) -> None:
        super().__init__(url)
        self.source = source
        self._waiting: set[int] = set()  # finished update ids not written yet (see finish)
        self._waiting_guard = threading.Lock()
        with self._lock:
            self._conn.execute(
                "DELETE FROM channel_inbox WHERE source = %s AND finished_ms < %s",
                (source, _now_ms() - KEEP_FINISHED_S * 1000),
            )

    def add(self, updates: Sequence[InboxUpdate]) -> list[InboxUpdate]:
        """See :meth:`bot.channels.inbox.UpdateInbox.add` (one statement, one round trip, for a batch)."""
        if not updates:
            return []
        with self._lock:
            try:
                rows = self._conn.execute(
                    "INSERT INTO channel_inbox (source, update_id, user_key, payload, received_ms) "
                    "SELECT %s, u.update_id, u.user_key, u.payload, %s "
                    "FROM unnest(%s::bigint[], %s::text[], %s::text[]) AS u(update_id, user_key, payload) "
                    "ON CONFLICT DO NOTHING RETURNING update_id",
                    (self.source, _now_ms(), [u.update_id for u in updates], [u.user_key for u in updates],
                     [u.payload for u in updates]),
                ).fetchall()  # fmt: skip
            except psycopg.Error as exc:
                raise self._error("store incoming updates", exc) from None
        stored = {int(r[0]) for r in rows}
        new = []
        for update in updates:  # in the order given; a batch that repeats an id yields it once
            if update.update_id in stored:
                stored.discard(update.update_id)
                new.append(update)
        return new

    def finish(self, update_id: int) -> None:
        """See :meth:`bot.channels.inbox.UpdateInbox.finish`.

        Threads finishing updates at once share one statement (whoever gets the connection first
        marks every id waiting: one round trip for many). The mark is committed without waiting for
        the server's disk flush (``synchronous_commit`` off, for this transaction only): a mark lost
        in a crash of the database server means the update is handed to the dialog again, which
        answers it from the turn's receipt (committed durably) without applying it twice.

        Raises:
            StoreError: the database cannot be written (the ids stay waiting for the next call).
        """
        with self._waiting_guard:
            self._waiting.add(update_id)
        with self._lock:
            with self._waiting_guard:
                batch, self._waiting = sorted(self._waiting), set()
            if not batch:
                return  # marked by another thread's statement meanwhile
            try:
                with self._conn.pipeline():
                    self._conn.execute("SELECT set_config('synchronous_commit', 'off', true)")
                    self._conn.execute(
                        "UPDATE channel_inbox SET finished_ms = %s WHERE source = %s AND update_id = ANY(%s) "
                        "AND finished_ms IS NULL",
                        (_now_ms(), self.source, batch),
                    )
            except psycopg.Error as exc:
                with self._waiting_guard:
                    self._waiting.update(batch)
                raise self._error(f"mark update {update_id} handled", exc) from None

    def unfinished(self, user_key: str | None = None) -> list[InboxUpdate]:
        """See :meth:`bot.channels.inbox.UpdateInbox.unfinished` (optionally of one user only)."""
        query = "SELECT update_id, user_key, payload FROM channel_inbox WHERE source = %s AND finished_ms IS NULL"
        params: list[Any] = [self.source]
        if user_key is not None:
            query += " AND user_key = %s"
            params.append(user_key)
        with self._lock:
            rows = self._conn.execute(query + " ORDER BY update_id", params).fetchall()
        return [InboxUpdate(int(r[0]), r[1], r[2]) for r in rows]

    def user_lock(self, user_key: str) -> bool:
        """Try to take the user's lock across processes (a session advisory lock); True if taken."""
        with self._lock:
            row = self._conn.execute(
                "SELECT pg_try_advisory_lock(hashtextextended(%s, 11))", (f"{self.source}|{user_key}",)
            ).fetchone()
        return bool(row and row[0])

    def user_unlock(self, user_key: str) -> None:
        """Release :meth:`user_lock` (a killed process releases it with its connection)."""
        with self._lock, contextlib.suppress(psycopg.Error):
            self._conn.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 11))", (f"{self.source}|{user_key}",))

    def is_finished(self, update_id: int) -> bool:
        """True once the update was handled (by any process)."""
        with self._lock:
            row = self._conn.execute(
                "SELECT finished_ms IS NOT NULL FROM channel_inbox WHERE source = %s AND update_id = %s",
                (self.source, update_id),
            ).fetchone()
        return bool(row and row[0])

    def unfinished_older_than(self, age_ms: float) -> list[InboxUpdate]:
        """Unfinished updates received more than ``age_ms`` ago (left by a killed worker), in order."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT update_id, user_key, payload FROM channel_inbox WHERE source = %s AND finished_ms IS NULL "
                "AND received_ms < %s ORDER BY update_id LIMIT 1000",
                (self.source, _now_ms() - int(age_ms)),
            ).fetchall()
        return [InboxUpdate(int(r[0]), r[1], r[2]) for r in rows]


class PgChannelUsers(_Connection):
    """:class:`bot.channels.users.ChannelUsers` on PostgreSQL (table ``channel_users``)."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self._known_active: set[str] = set()

    def seen(self, user_id: str, chat_id: int) -> None:
        """See :meth:`bot.channels.users.ChannelUsers.seen`."""
        if user_id in self._known_active:
            return
        with self._lock:
            self._conn.execute(
                "INSERT INTO channel_users (user_id, chat_id, active, changed_ms, reason) VALUES (%s, %s, TRUE, %s, "
                "NULL) ON CONFLICT (user_id) DO UPDATE SET chat_id = excluded.chat_id, active = TRUE, "
                "changed_ms = excluded.changed_ms, reason = NULL WHERE NOT channel_users.active "
                "OR channel_users.chat_id <> excluded.chat_id",
                (user_id, chat_id, _now_ms()),
            )
            self._known_active.add(user_id)

    def known_active(self, user_id: str) -> bool:
        """See :meth:`bot.channels.users.ChannelUsers.known_active`."""
        return user_id in self._known_active

    def mark_inactive(self, user_id: str, reason: str, *, chat_id: int | None = None) -> None:
        """See :meth:`bot.channels.users.ChannelUsers.mark_inactive`."""
        with self._lock:
            self._known_active.discard(user_id)
            self._conn.execute(
                "INSERT INTO channel_users (user_id, chat_id, active, changed_ms, reason) VALUES (%s, %s, FALSE, %s, "
                "%s) ON CONFLICT (user_id) DO UPDATE SET active = FALSE, changed_ms = excluded.changed_ms, "
                "reason = excluded.reason",
                (user_id, chat_id or 0, _now_ms(), reason),
            )

    def is_active(self, user_id: str) -> bool:
        """See :meth:`bot.channels.users.ChannelUsers.is_active`."""
        user = self.get(user_id)
        return user is None or user.active

    def get(self, user_id: str) -> ChannelUser | None:
        """See :meth:`bot.channels.users.ChannelUsers.get`."""
        with self._lock:
            row = self._conn.execute(
                "SELECT user_id, chat_id, active, changed_ms, reason FROM channel_users WHERE user_id = %s", (user_id,)
            ).fetchone()
        return None if row is None else ChannelUser(row[0], int(row[1]), bool(row[2]), int(row[3]), row[4])

    def inactive(self) -> tuple[str, ...]:
        """See :meth:`bot.channels.users.ChannelUsers.inactive`."""
        with self._lock:
            rows = self._conn.execute("SELECT user_id FROM channel_users WHERE NOT active ORDER BY user_id").fetchall()
        return tuple(r[0] for r in rows)
