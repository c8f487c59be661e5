"""SQLite (WAL) storage of dialog states, shared by every channel.

One row per user: ``users(user_id TEXT PRIMARY KEY, state TEXT, active INTEGER, updated_ms INTEGER)``;
the row id doubles as the user's numeric ``userID`` in the dataset-format log. A turn is committed by
:meth:`StateStore.commit_turn` in one transaction: the turn's log record (table ``log_records`` of
:class:`logs.store.LogStore`, same file) and the user's new state are written together or not at all,
so a crash or a storage error never leaves a logged turn without its state change (or the reverse).
A turn with a key (``Turn.key``, set by the Telegram channel from the update id) also stores its
receipt ``turn_receipts(key, user_id, reply, created_ms)`` in that transaction: a turn handed over
again (after a crash, or by another worker) is not applied twice, its stored reply is returned.
When the log lives in another file (``build_dialog_manager(log_db=...)``) the two writes are separate:
the log row first, then the state, and a crash between them loses that one turn's state change.

Thread safety: one connection guarded by a lock; the dialog manager additionally serialises each
user's turns, so the later message of a user always wins (field case F11).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

from bot.state import DialogState
from bot.turns import Choice, Reply
from logs.record import LogRecord
from logs.store import StoreError, connect_sqlite, create_log_table, insert_record, open_error, update_to_check

_SCHEMA = """
CREATE TABLE IF NOT EXISTS users (
    user_id TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    active INTEGER NOT NULL DEFAULT 1,
    updated_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS turn_receipts (
    key TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    reply TEXT NOT NULL,
    created_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS turn_receipts_age ON turn_receipts (created_ms);
"""

KEEP_RECEIPTS_S = 7 * 24 * 3600
"""How long a turn's receipt is kept (a channel hands an update over again within hours: a restart after
a crash, or Telegram's redelivery within 24 h)."""


class DuplicateTurn(StoreError):
    """The turn's key was applied meanwhile (another process or a killed run): nothing was written.

    Attributes:
        reply: the reply stored when the key was first applied.
    """

    def __init__(self, key: str, reply: Reply) -> None:
        super().__init__(f"turn {key} was already applied")
        self.key = key
        self.reply = reply


def reply_to_json(reply: Reply) -> str:
    """A reply as the JSON text kept in a receipt."""
    return json.dumps(
        {"text": reply.text, "choices": [[c.label, c.payload] for c in reply.choices], "image": reply.image,
         "card": reply.card},
        ensure_ascii=False,
    )  # fmt: skip


def reply_from_json(raw: str) -> Reply:
    """Inverse of :func:`reply_to_json`."""
    data = json.loads(raw)
    choices = tuple(Choice(str(label), str(payload)) for label, payload in data.get("choices", ()))
    return Reply(str(data["text"]), choices, data.get("image"), bool(data.get("card")))


_IDS_CACHED = 100_000
"""Row ids remembered by :meth:`StateStore.numeric_id` before the memo is cleared (bounded memory)."""


class TurnStore(Protocol):
    """What the dialog manager needs of a state store (SQLite here; another database may implement it)."""

    path: Path | None

    def load_saved(self, user_id: str) -> DialogState | None: ...
    def save(self, user_id: str, state: DialogState) -> None: ...
    def commit_turn(
        self,
        user_id: str,
        state: DialogState,
        *,
        session: str,
        record: LogRecord,
        receipt: tuple[str, Reply] | None = None,
        to_check: Mapping[int, bool] | None = None,
    ) -> int: ...
    def receipt(self, key: str) -> Reply | None: ...
    def save_receipt(self, user_id: str, key: str, reply: Reply) -> None: ...
    def turn_lock(self, user_id: str, key: str | None = None) -> contextlib.AbstractContextManager[None]: ...
    def log_head(self, user_id: str) -> int | None: ...
    def numeric_id(self, user_id: str) -> int: ...
    def set_active(self, user_id: str, active: bool) -> None: ...


class StateStore:
    """Dialog states in SQLite (WAL mode), one row per user.

    Args:
        path: database file (created with its folder), or ``":memory:"``.

    Raises:
        logs.store.DatabaseOpenError: the file or its folder cannot be created or opened (read-only
            folder), or is not an SQLite database; the message names the file and what to do.
    """

    def __init__(self, path: Path | str) -> None:
        self.path: Path | None = None if str(path) == ":memory:" else Path(path)
        self._conn = connect_sqlite(path, _SCHEMA)
        try:
            self._conn.execute(
                "DELETE FROM turn_receipts WHERE created_ms < ?", (int((time.time() - KEEP_RECEIPTS_S) * 1000),)
            )
        except (sqlite3.Error, OSError) as exc:
            raise open_error(path, exc) from exc
        self._lock = threading.RLock()
        self._log_table = False  # log_records created on this file (by LogStore or commit_turn)
        self._ids: dict[str, int] = {}  # user_id -> row id, see numeric_id

    def load(self, user_id: str) -> DialogState:
        """The saved state of ``user_id``, or a fresh one."""
        saved = self.load_saved(user_id)
        return saved if saved is not None else DialogState.from_json(None)

    def load_saved(self, user_id: str) -> DialogState | None:
        """The saved state of ``user_id``, or None if none was saved (one query for load + exists).

        Raises:
            StoreError: the database cannot be read.
        """
        with self._lock:
            try:
                row = self._conn.execute("SELECT state FROM users WHERE user_id = ?", (user_id,)).fetchone()
            except sqlite3.Error as exc:
                raise StoreError(f"{self.path or ':memory:'}: cannot read the dialog state ({exc})") from exc
        return DialogState.from_json(row[0]) if row else None

    def exists(self, user_id: str) -> bool:
        """True when a state was saved for ``user_id``."""
        with self._lock:
            return self._conn.execute("SELECT 1 FROM users WHERE user_id = ?", (user_id,)).fetchone() is not None

    def save(self, user_id: str, state: DialogState) -> None:
        """Insert or replace the state of ``user_id`` (one statement, atomic).

        Raises:
            StoreError: the database cannot be written.
        """
        with self._lock:
            try:
                self._upsert(user_id, state)
            except sqlite3.Error as exc:
                raise StoreError(f"{self.path or ':memory:'}: cannot save the dialog state ({exc})") from exc

    def _upsert(self, user_id: str, state: DialogState) -> None:
        self._conn.execute(
            "INSERT INTO users(user_id, state, active, updated_ms) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(user_id) DO UPDATE SET state = excluded.state, active = excluded.active, "
            "updated_ms = excluded.updated_ms",
            (user_id, state.to_json(), int(state.active), int(time.time() * 1000)),
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
        """Append the turn's log record, save the user's state, (with ``receipt``) the turn's
        ``(key, reply)`` and (with ``to_check``, ``{row id: flag}``) the toCheck flags the turn
        changes on the user's earlier rows, in one transaction.

        Returns:
            The log row id.

        Raises:
            DuplicateTurn: the receipt's key was applied meanwhile; nothing was written.
            StoreError: the database cannot be written (locked longer than the busy timeout, full,
                read-only, corrupt); nothing of the turn was written.
        """
        with self._lock:
            try:
                if not self._log_table:  # executescript commits: before the transaction
                    create_log_table(self._conn)
                    self._log_table = True
                self._conn.execute("BEGIN IMMEDIATE")
                try:
                    if receipt is not None:
                        stored = self._receipt(receipt[0])
                        if stored is not None:
                            raise DuplicateTurn(receipt[0], stored)
                    row_id = insert_record(self._conn, session, record)
                    self._upsert(user_id, state)
                    if receipt is not None:
                        self._insert_receipt(user_id, *receipt)
                    if to_check:
                        update_to_check(self._conn, to_check)
                    self._conn.execute("COMMIT")
                except BaseException:
                    self._conn.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:
                raise StoreError(f"{self.path or ':memory:'}: cannot save the turn ({exc})") from exc
        return row_id

    def turn_lock(self, user_id: str, key: str | None = None) -> contextlib.AbstractContextManager[None]:
        """Across processes, nothing to hold: one process serves an SQLite database (the Telegram bot
        takes an instance lock; its dialog workers each serve a fixed set of users). ``key``: the
        turn's key (a server store reads its receipt with the lock; unused here)."""
        return contextlib.nullcontext()

    def log_head(self, user_id: str) -> int | None:
        """None: the caller's in-memory copy of the user's log rows is complete, since only this
        process writes this user's turns (see :meth:`turn_lock`). A store shared by several
        processes returns the id of the user's last log row, to check such a copy against."""
        return None

    def save_receipt(self, user_id: str, key: str, reply: Reply) -> None:
        """Store a turn's receipt on its own (when the log lives in another file; see the module docstring).

        Raises:
            StoreError: the database cannot be written.
        """
        with self._lock:
            try:
                self._insert_receipt(user_id, key, reply)
            except sqlite3.Error as exc:
                raise StoreError(f"{self.path or ':memory:'}: cannot save the turn's receipt ({exc})") from exc

    def receipt(self, key: str) -> Reply | None:
        """The reply stored when the turn ``key`` was applied, or None if it never was.

        Raises:
            StoreError: the database cannot be read.
        """
        with self._lock:
            try:
                return self._receipt(key)
            except sqlite3.Error as exc:
                raise StoreError(f"{self.path or ':memory:'}: cannot read a turn receipt ({exc})") from exc

    def _receipt(self, key: str) -> Reply | None:
        row = self._conn.execute("SELECT reply FROM turn_receipts WHERE key = ?", (key,)).fetchone()
        return reply_from_json(row[0]) if row else None

    def _insert_receipt(self, user_id: str, key: str, reply: Reply) -> None:
        self._conn.execute(
            "INSERT OR IGNORE INTO turn_receipts (key, user_id, reply, created_ms) VALUES (?, ?, ?, ?)",
            (key, user_id, reply_to_json(reply), int(time.time() * 1000)),
        )

    def numeric_id(self, user_id: str) -> int:
        """The user's stable integer id (the row id; created with a fresh state if needed).

        Remembered once known (rows are never deleted and the upsert keeps the row id), so a turn
        does not query it again.
        """
        with self._lock:
            known = self._ids.get(user_id)
            if known is not None:
                return known
            row = self._conn.execute("SELECT rowid FROM users WHERE user_id = ?", (user_id,)).fetchone()
            if row is None:
                self.save(user_id, DialogState())
                row = self._conn.execute("SELECT rowid FROM users WHERE user_id = ?", (user_id,)).fetchone()
            if len(self._ids) >= _IDS_CACHED:
                self._ids.clear()
            self._ids[user_id] = int(row[0])
        return int(row[0])

    def set_active(self, user_id: str, active: bool) -> None:
        """Mark a user active/inactive (e.g. after Telegram answers 403 "bot was blocked")."""
        state = self.load(user_id)
        state.active = active
        self.save(user_id, state)

    def users(self, *, active_only: bool = False) -> list[str]:
        """User ids, optionally only the active ones."""
        query = "SELECT user_id FROM users" + (" WHERE active = 1" if active_only else "")
        with self._lock:
            return [row[0] for row in self._conn.execute(query)]

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._conn.close()
