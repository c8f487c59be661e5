"""The session log: every turn's :class:`~logs.record.LogRecord` appended to SQLite as it happens.

A **session** is a free-form name for one source of turns, chosen by the caller, e.g.:

- ``"live"`` (or ``"telegram"``, ``"chat"``): the running bot, all users together;
- ``"replay-<utc timestamp>"``: one ``corsbot replay`` run, so that runs do not mix.

User ids are only unique inside a session (a replay reuses the dataset's per-file ids).

Storage: table ``log_records`` in the SQLite file given (normally ``var/corsbot.sqlite3``, shared
with the dialog state of :mod:`bot`, which keeps its own tables), journal mode WAL, one row per
record in insertion order (``id`` autoincrement). Each row keeps the record's dataset JSON
(:meth:`LogRecord.to_json`, so extra fields and exact types survive) plus a few indexed columns.
Every append is its own committed transaction: a killed process loses at most the turn it was
writing.

Threads: one connection guarded by a lock (``check_same_thread=False``), so worker threads of a
channel may share one :class:`LogStore`; several processes may open the same file (WAL). A database
another process holds locked is waited for, with a notice in the log naming the holder
(:mod:`logs.dbaccess`); a read-only file, folder or file system is told apart in the error.

Example:
    >>> import tempfile, pathlib
    >>> store = LogStore(pathlib.Path(tempfile.mkdtemp()) / "log.sqlite3")
    >>> store.sessions()
    []
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from types import TracebackType

from corsbot_errors import CorsbotError
from logs.dbaccess import LOCK_NOTICE_S, LockWaitExpired, WaitingConnection, is_busy, lock_holder, not_writable
from logs.record import LogRecord, RecordError

__all__ = [
    "DatabaseOpenError",
    "LogStore",
    "StoreError",
    "create_log_table",
    "insert_record",
    "open_error",
    "update_to_check",
]

logger = logging.getLogger(__name__)

BUSY_TIMEOUT_S = LOCK_NOTICE_S
"""SQLite's busy timeout of each statement; statements that may be run again keep waiting after it
(``logs.dbaccess.WaitingConnection``, at most ``LOCK_WAIT_S``)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS log_records (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    message_id TEXT NOT NULL,
    timestamp_start INTEGER NOT NULL,
    intent TEXT NOT NULL,
    to_check INTEGER NOT NULL,
    record TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS log_records_session_user ON log_records (session, user_id, id);
"""


def create_log_table(conn: sqlite3.Connection) -> None:
    """Create the ``log_records`` table (and index) on ``conn`` if missing."""
    conn.executescript(_SCHEMA)


def insert_record(conn: sqlite3.Connection, session: str, record: LogRecord) -> int:
    """Insert one record into ``log_records`` on ``conn`` (inside the caller's transaction, if any).

    The one place that writes a log row: :meth:`LogStore.append` and the dialog's one-transaction
    turn commit (``bot.store.StateStore.commit_turn``: state and log row together) both use it.

    Returns:
        The row id.

    Raises:
        sqlite3.Error: the caller turns it into its own error.
    """
    cursor = conn.execute(
        "INSERT INTO log_records (session, user_id, message_id, timestamp_start,"
        " intent, to_check, record) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            session,
            record.user_id,
            record.message_id,
            record.timestamp_start,
            record.intent,
            int(record.to_check),
            json.dumps(record.to_json(), ensure_ascii=False),
        ),
    )
    return int(cursor.lastrowid or 0)


def update_to_check(conn: sqlite3.Connection, flags: Mapping[int, bool]) -> int:
    """Overwrite ``toCheck`` of stored rows (``{row id: flag}``) on ``conn``, inside the caller's
    transaction: :meth:`LogStore.set_to_check` and the dialog's turn commit (the flags a turn changes
    are written with it) both use it.

    Returns:
        The number of rows whose flag changed.

    Raises:
        sqlite3.Error: the caller turns it into its own error.
    """
    changed = 0
    for row_id, flag in flags.items():
        found = conn.execute("SELECT record, to_check FROM log_records WHERE id = ?", (row_id,)).fetchone()
        if found is None or bool(found[1]) == bool(flag):
            continue
        obj = json.loads(found[0])
        obj["toCheck"] = bool(flag)
        conn.execute(
            "UPDATE log_records SET to_check = ?, record = ? WHERE id = ?",
            (int(bool(flag)), json.dumps(obj, ensure_ascii=False), row_id),
        )
        changed += 1
    return changed


class StoreError(CorsbotError):
    """The log database cannot be opened, read or written (message names the file)."""


class DatabaseOpenError(StoreError):
    """An SQLite database of corsbot (log, dialog state) cannot be opened or created.

    The message names the file, the reason and what to do, e.g. ``cannot open the database
    /x/corsbot.sqlite3 (read-only folder): set CORSBOT_HOME to a writable folder``.

    Attributes:
        path: the database file.
        reason: the short reason shown in parentheses.
        advice: what to do.
    """

    def __init__(
        self, path: str | os.PathLike[str], reason: str, advice: str = "set CORSBOT_HOME to a writable folder"
    ) -> None:
        self.path = Path(path)
        self.reason = reason
        self.advice = advice
        super().__init__(f"cannot open the database {self.path} ({reason}): {advice}")


class DatabaseCorruptError(StoreError):
    """An SQLite database of corsbot has damaged pages (``PRAGMA quick_check`` failed): refused at start,
    before any user is answered from it.

    Attributes:
        path: the database file.
        detail: the first problem SQLite reported.
    """

    def __init__(self, path: str | os.PathLike[str], detail: str) -> None:
        self.path = Path(path)
        self.detail = detail = " ".join(detail.replace("*** in database main ***", "").split())  # one line
        super().__init__(
            f"the database {self.path} is damaged ({detail}): stop the bot, restore the file from a backup "
            f"(or save what is readable with `sqlite3 {self.path.name} .recover`), or move it away to start "
            "with an empty one"
        )


def check_database(path: str | os.PathLike[str]) -> None:
    """Check an existing SQLite database for damaged pages with ``PRAGMA quick_check`` (reads every
    page; about 1 s per few hundred MB). A missing file is fine (it will be created).

    Raises:
        DatabaseCorruptError: the check found a problem (or SQLite calls the file malformed).
        DatabaseOpenError: the file cannot be opened, or is not an SQLite database.
    """
    path = Path(path)
    if not path.exists():
        return
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_S)
        try:
            rows = conn.execute("PRAGMA quick_check(3)").fetchall()
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        text = str(exc)
        if "malformed" in text.lower() or "corrupt" in text.lower():
            raise DatabaseCorruptError(path, text) from None
        raise open_error(path, exc) from None
    problems = [str(row[0]) for row in rows if str(row[0]) != "ok"]
    if problems:
        raise DatabaseCorruptError(path, f"PRAGMA quick_check: {problems[0][:160]}")


_NOT_WRITABLE_HINTS = ("unable to open", "readonly", "read-only", "permission", "disk i/o error")


def open_error(path: str | os.PathLike[str], exc: BaseException) -> DatabaseOpenError:
    """The :class:`DatabaseOpenError` for a failure ``exc`` while opening ``path``.

    Args:
        path: the database file.
        exc: the ``sqlite3.Error`` or ``OSError`` raised by ``mkdir``, ``connect`` or the first
            statements (``PRAGMA journal_mode=WAL`` writes, so a read-only file fails there).

    Returns:
        The error to raise (``from exc``). The reason says what is wrong, checked on the file system
        (:func:`logs.dbaccess.not_writable`): "read-only file", "read-only folder", "read-only file
        system"; "locked by pid N: corsbot telegram" when another process kept the database locked
        past the wait; "not an SQLite database" for a foreign file; else the library's message
        (then the advice names both likely causes instead of guessing one).
    """
    text = str(exc).lower()
    if isinstance(exc, LockWaitExpired) or is_busy(exc):
        holder = lock_holder(path)
        return DatabaseOpenError(
            path,
            f"locked by {holder}" if holder else str(exc),
            "stop that process, or start again once it is done (another corsbot on the same database "
            "must not hold it this long)",
        )
    if "not a database" in text or "malformed" in text:
        return DatabaseOpenError(
            path, "not an SQLite database", "move the file away or set CORSBOT_HOME to another folder"
        )
    if isinstance(exc, NotADirectoryError | FileExistsError):
        return DatabaseOpenError(path, "a file stands where a folder should be")
    if isinstance(exc, PermissionError) or any(hint in text for hint in _NOT_WRITABLE_HINTS):
        why = not_writable(path)
        if why is not None and why.startswith("read-only file") and why != "read-only file system":
            name = Path(path).with_name(why.split()[-1]) if why != "read-only file" else Path(path)
            return DatabaseOpenError(
                path, why, f"make it writable (chmod u+w {name}) or set CORSBOT_HOME to another folder"
            )
        if why == "read-only file system":
            return DatabaseOpenError(path, why, "set CORSBOT_HOME to a folder on a writable disk")
        if why is not None:
            return DatabaseOpenError(path, why)
        reason = getattr(exc, "strerror", None) or str(exc) or exc.__class__.__name__
        return DatabaseOpenError(
            path,
            reason,
            "check that its folder exists, is writable and has space, or set CORSBOT_HOME to another folder",
        )
    return DatabaseOpenError(path, getattr(exc, "strerror", None) or str(exc) or exc.__class__.__name__)


def connect_sqlite(path: str | os.PathLike[str], schema: str) -> sqlite3.Connection:
    """Open (or create) the SQLite database at ``path`` the way every corsbot store does.

    Autocommit mode (``isolation_level=None``: transactions are explicit), usable from any thread
    (callers hold their own lock), WAL with ``synchronous=NORMAL`` (readers never wait for the
    writer; a power cut can lose the last transactions, never corrupt the file), a busy timeout
    of :data:`BUSY_TIMEOUT_S`, after which statements that can be run again keep waiting for a
    database another process holds locked (:class:`logs.dbaccess.WaitingConnection`: a notice in
    the log naming the holder, at most ``LOCK_WAIT_S``), then ``schema`` (SQL statements) executed.
    ``":memory:"`` opens an in-memory database.

    Raises:
        DatabaseOpenError: the file or its folder cannot be created or opened (read-only file,
            folder or file system; still locked after the wait), or is not an SQLite database; the
            message names the file (see :func:`open_error`).
    """
    try:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(
            str(path), timeout=BUSY_TIMEOUT_S, check_same_thread=False, isolation_level=None, factory=WaitingConnection
        )
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.executescript(schema)
    except (sqlite3.Error, OSError) as exc:
        raise open_error(path, exc) from exc
    return conn


class LogStore:
    """Append-only SQLite log of dataset records, grouped in sessions.

    Args:
        path: the SQLite file; created (with its parent folder) if missing.
        create: if False, a missing file raises :class:`StoreError` instead of being created
            (used by ``corsbot export``).

    Raises:
        StoreError: missing file with ``create=False``; :class:`DatabaseOpenError` when the file
            cannot be opened or created (read-only folder) or is not an SQLite database.
    """

    def __init__(self, path: str | os.PathLike[str], *, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.is_file():
            raise StoreError(f"{self.path}: no log database (nothing was logged yet?)")
        self._lock = threading.RLock()
        self._conn = connect_sqlite(self.path, _SCHEMA)

    # --- writing ---------------------------------------------------------------------------------

    def append(self, session: str, record: LogRecord) -> int:
        """Append one record to ``session`` and commit.

        Returns:
            The row id (increasing with insertion order).

        Raises:
            StoreError: the database cannot be written.
        """
        # One autocommitted statement (atomic by itself): the write lock is held only inside SQLite,
        # not across Python code between BEGIN and COMMIT, which matters when several processes
        # (the Telegram bot's dialog workers) append to one file.
        with self._lock:
            try:
                return insert_record(self._conn, session, record)
            except sqlite3.Error as exc:
                raise StoreError(f"{self.path}: cannot append to the log ({exc})") from exc

    def append_many(self, session: str, records: Iterable[LogRecord]) -> list[int]:
        """Append several records to ``session`` in one transaction (e.g. a replay batch).

        Returns:
            Their row ids, in order.
        """
        rows = [
            (
                session,
                r.user_id,
                r.message_id,
                r.timestamp_start,
                r.intent,
                int(r.to_check),
                json.dumps(r.to_json(), ensure_ascii=False),
            )
            for r in records
        ]
        ids: list[int] = []
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                try:
                    for row in rows:
                        cursor = self._conn.execute(
                            "INSERT INTO log_records (session, user_id, message_id, timestamp_start,"
                            " intent, to_check, record) VALUES (?, ?, ?, ?, ?, ?, ?)",
                            row,
                        )
                        ids.append(int(cursor.lastrowid or 0))
                    self._conn.execute("COMMIT")
                except BaseException:
                    self._conn.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:
                raise StoreError(f"{self.path}: cannot append to the log ({exc})") from exc
        return ids

    def set_to_check(self, flags: Mapping[int, bool]) -> int:
        """Overwrite ``toCheck`` of stored rows (``{row id: flag}``), in one transaction.

        Returns:
            The number of rows whose flag changed.
        """
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                try:
                    changed = update_to_check(self._conn, flags)
                    self._conn.execute("COMMIT")
                except BaseException:
                    self._conn.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:
                raise StoreError(f"{self.path}: cannot update the log ({exc})") from exc
        return changed

    def recheck_user(
        self,
        session: str,
        user_id: int,
        compute: Callable[[Sequence[LogRecord]], list[bool]] | None = None,
    ) -> int:
        """Recompute ``toCheck`` of one user's records of a session (after each logged turn).

        Args:
            session: the session.
            user_id: the user.
            compute: the heuristic, default :func:`logs.tocheck.compute_to_check`.

        Returns:
            The number of rows whose flag changed.
        """
        if compute is None:
            from logs.tocheck import compute_to_check

            compute = compute_to_check
        rows = self.rows(session, user_id=user_id)
        flags = compute([record for _, record in rows])
        return self.set_to_check(
            {row_id: flag for (row_id, record), flag in zip(rows, flags, strict=True) if record.to_check != flag}
        )

    # --- reading ---------------------------------------------------------------------------------

    def rows(self, session: str | None = None, *, user_id: int | None = None) -> list[tuple[int, LogRecord]]:
        """``(row id, record)`` pairs in insertion order, optionally of one session and/or user.

        Raises:
            StoreError: the database cannot be read or holds a corrupt record.
        """
        query = "SELECT id, record FROM log_records"
        clauses: list[str] = []
        params: list[object] = []
        if session is not None:
            clauses.append("session = ?")
            params.append(session)
        if user_id is not None:
            clauses.append("user_id = ?")
            params.append(user_id)
        if clauses:
            query += " WHERE " + " AND ".join(clauses)
        query += " ORDER BY id"
        with self._lock:
            try:
                found = self._conn.execute(query, params).fetchall()
            except sqlite3.Error as exc:
                raise StoreError(f"{self.path}: cannot read the log ({exc})") from exc
        out = []
        for row_id, text in found:
            try:
                out.append((int(row_id), LogRecord.from_json(json.loads(text))))
            except (ValueError, RecordError) as exc:
                raise StoreError(f"{self.path}: log row {row_id} is corrupt ({exc})") from exc
        return out

    def records(self, session: str | None = None) -> list[LogRecord]:
        """The records of ``session`` (all sessions if None), in insertion order."""
        return [record for _, record in self.rows(session)]

    def sessions(self) -> list[str]:
        """Session names, in order of their first record."""
        with self._lock:
            try:
                found = self._conn.execute(
                    "SELECT session FROM log_records GROUP BY session ORDER BY MIN(id)"
                ).fetchall()
            except sqlite3.Error as exc:
                raise StoreError(f"{self.path}: cannot read the log ({exc})") from exc
        return [name for (name,) in found]

    def count(self, session: str | None = None) -> int:
        """Number of records of ``session`` (all if None)."""
        query = "SELECT COUNT(*) FROM log_records"
        params: tuple[str, ...] = ()
        if session is not None:
            query, params = query + " WHERE session = ?", (session,)
        with self._lock:
            try:
                return int(self._conn.execute(query, params).fetchone()[0])
            except sqlite3.Error as exc:
                raise StoreError(f"{self.path}: cannot read the log ({exc})") from exc

    # --- lifetime --------------------------------------------------------------------------------

    def close(self) -> None:
        """Close the connection (idempotent)."""
        with self._lock:
            self._conn.close()

    def __enter__(self) -> LogStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
