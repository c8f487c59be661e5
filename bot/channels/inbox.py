"""The durable update inbox (issue 17, item 1): every update a channel receives is stored before it is
confirmed to the platform (the next ``getUpdates`` offset, or the webhook's ``200``), and marked
finished once it was handled, so that a killed process loses nothing: at the next start the
unfinished updates are handled again, in order (``update_id``, which Telegram increases per bot).

Exactly once: :meth:`UpdateInbox.add` stores an update only if its id is new (a redelivered or
replayed update is dropped here), and the dialog manager applies a turn at most once per key
(``Turn.key``, a receipt written in the same transaction as the turn's state and log), so an update
handled again after a crash returns the stored reply instead of applying twice.

Replies sent once (issue 25): right after a reply went out (the Bot API answered the last send of the
turn), the channel calls :meth:`UpdateInbox.record_sent` on its event loop, before anything else can
run; an update recorded sent is never handed out again by :meth:`UpdateInbox.unfinished`, so a restart
re-sends only the replies whose sending was not recorded. A reply can still go out twice when the
process is killed after Telegram accepted the message and before the record (the Bot API has no
idempotent send: nothing tells a resent message from a new one), and a reply in several messages
killed half-way is sent whole again.

Storage behind a small Protocol, :class:`UpdateInbox`; :class:`SqliteInbox` is the embedded one
(table ``channel_inbox`` in the bot's database, WAL: a committed row survives ``kill -9``; with
``synchronous=NORMAL`` a power cut may lose the last commits), the PostgreSQL store implements the
same methods. Finished rows are kept :data:`KEEP_FINISHED_S` (Telegram redelivers an unconfirmed
update for up to 24 h) and then pruned at start. :class:`SqliteInbox` records a sent reply by
appending its update id to a journal file next to the database (``<db>-sent-<source>``): one
``write`` to the page cache, microseconds on the event loop, kept by the kernel when the process is
killed, never waiting for the database's write lock (which the dialog workers' commits hold about
a third of the time under load); the ids are folded into the table when the inbox is opened, and
the journal is emptied whenever every id in it is finished in the table too.

Table ``channel_inbox``: ``source`` TEXT (``"telegram:<bot id>"``), ``update_id`` INTEGER,
``user_key`` TEXT or NULL (``"tg:42"``), ``payload`` TEXT (the update as received, JSON),
``received_ms`` INTEGER, ``finished_ms`` INTEGER or NULL; primary key ``(source, update_id)``.

Example:
    >>> import tempfile, pathlib
    >>> inbox = SqliteInbox(pathlib.Path(tempfile.mkdtemp()) / "db.sqlite3", "telegram:1")
    >>> [u.update_id for u in inbox.add([InboxUpdate(5, "tg:7", "{}"), InboxUpdate(5, "tg:7", "{}")])]
    [5]
    >>> inbox.finish(5); inbox.unfinished()
    []
"""

from __future__ import annotations

import logging
import os
import re
import sqlite3
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from logs.store import StoreError, connect_sqlite, open_error

logger = logging.getLogger(__name__)

KEEP_FINISHED_S = 48 * 3600
"""How long a finished update is kept to recognise a redelivery (Telegram keeps updates 24 h)."""
JOURNAL_COMPACT_BYTES = 64 * 1024
"""The sent-journal is emptied once it is this long and every id in it is finished in the table."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS channel_inbox (
    source TEXT NOT NULL,
    update_id INTEGER NOT NULL,
    user_key TEXT,
    payload TEXT NOT NULL,
    received_ms INTEGER NOT NULL,
    finished_ms INTEGER,
    PRIMARY KEY (source, update_id)
);
CREATE INDEX IF NOT EXISTS channel_inbox_open ON channel_inbox (source, finished_ms, update_id);
"""
_FINISH = "UPDATE channel_inbox SET finished_ms = ? WHERE source = ? AND update_id = ? AND finished_ms IS NULL"


@dataclass(frozen=True, slots=True)
class InboxUpdate:
    """One stored update.

    Attributes:
        update_id: the platform's id (Telegram: increasing per bot).
        user_key: the user it belongs to (``"tg:42"``), or None (channel posts, ...).
        payload: the update exactly as received (JSON text).
    """

    update_id: int
    user_key: str | None
    payload: str


class UpdateInbox(Protocol):
    """Where a channel stores updates before confirming them (SQLite or PostgreSQL)."""

    def add(self, updates: Sequence[InboxUpdate]) -> list[InboxUpdate]:
        """Store the updates not stored before, in one transaction; returns those (in the given order).

        Raises:
            StoreError: the database cannot be written (nothing was stored: do not confirm them).
        """
        ...

    def finish(self, update_id: int) -> None:
        """Mark an update handled (idempotent)."""
        ...

    def finish_many(self, update_ids: Sequence[int]) -> None:
        """Mark several updates handled at once (one transaction; idempotent)."""
        ...

    def record_sent(self, update_id: int) -> None:
        """Record that the update's reply went out, so that :meth:`unfinished` never lists it again.

        Called on the channel's event loop right after the Bot API accepted the reply's last
        message: must not block (no database round trip on the loop; a journal append, or a
        hand-off to a thread) and must survive a kill of the process once it returned. Never raises:
        a failure is logged (the update is then finished by :meth:`finish` as before).
        """
        ...

    def unfinished(self) -> list[InboxUpdate]:
        """Stored updates not finished (nor recorded sent) yet, by ``update_id``."""
        ...

    def close(self) -> None:
        """Release the connection."""
        ...


class SqliteInbox:
    """:class:`UpdateInbox` in an SQLite file (see the module docstring).

    Args:
        path: the database file (the bot's, normally).
        source: which bot's updates (``"telegram:<bot id>"``): bots sharing a file never mix.

    Raises:
        logs.store.DatabaseOpenError: the file cannot be opened or created.
    """

    def __init__(self, path: Path | str, source: str) -> None:
        self.path = Path(path)
        self.source = source
        self._lock = threading.Lock()
        self._conn = connect_sqlite(self.path, _SCHEMA)
        in_memory = str(path) == ":memory:"
        self.journal_path: Path | None = None if in_memory else journal_path(self.path, source)
        self._journal_lock = threading.Lock()  # never held across a database call (the loop takes it)
        self._journal_fd: int | None = None
        self._journaled: set[int] = set()  # recorded sent, not finished in the table yet
        try:
            self._conn.execute(
                "DELETE FROM channel_inbox WHERE source = ? AND finished_ms < ?",
                (source, _now_ms() - KEEP_FINISHED_S * 1000),
            )
            self._fold_journal()
        except (sqlite3.Error, OSError) as exc:
            raise open_error(self.path, exc) from exc

    def _fold_journal(self) -> None:
        """Finish in the table the updates a previous run recorded sent, then empty the journal."""
        if self.journal_path is None or not self.journal_path.exists():
            return
        ids = sorted({int(x) for x in self.journal_path.read_text(encoding="ascii", errors="replace").split()
                      if x.isdigit()})  # fmt: skip
        if ids:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                now = _now_ms()
                self._conn.executemany(_FINISH, [(now, self.source, i) for i in ids])
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            logger.info("%d replies recorded sent by the previous run were not marked finished: done now", len(ids))
        self.journal_path.unlink()

    def add(self, updates: Sequence[InboxUpdate]) -> list[InboxUpdate]:
        """See :meth:`UpdateInbox.add`."""
        new: list[InboxUpdate] = []
        now = _now_ms()
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                try:
                    for update in updates:
                        cursor = self._conn.execute(
                            "INSERT INTO channel_inbox (source, update_id, user_key, payload, received_ms) "
                            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (source, update_id) DO NOTHING",
                            (self.source, update.update_id, update.user_key, update.payload, now),
                        )
                        if cursor.rowcount == 1:
                            new.append(update)
                    self._conn.execute("COMMIT")
                except BaseException:
                    self._conn.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:
                raise StoreError(f"cannot store incoming updates ({exc})") from exc
        return new

    def finish(self, update_id: int) -> None:
        """See :meth:`UpdateInbox.finish`."""
        self.finish_many((update_id,))

    def finish_many(self, update_ids: Sequence[int]) -> None:
        """See :meth:`UpdateInbox.finish_many`.

        Raises:
            StoreError: the database cannot be written (none of them is marked).
        """
        if not update_ids:
            return
        now = _now_ms()
        rows = [(now, self.source, update_id) for update_id in update_ids]
        with self._lock:
            try:
                if len(rows) == 1:
                    self._conn.execute(_FINISH, rows[0])
                else:
                    self._conn.execute("BEGIN IMMEDIATE")
                    try:
                        self._conn.executemany(_FINISH, rows)
                        self._conn.execute("COMMIT")
                    except BaseException:
                        self._conn.execute("ROLLBACK")
                        raise
            except sqlite3.Error as exc:
                raise StoreError(f"cannot mark {len(rows)} updates handled ({exc})") from exc
        with self._journal_lock:
            self._journaled.difference_update(update_ids)
            if not self._journaled and self._journal_fd is not None:
                if os.fstat(self._journal_fd).st_size >= JOURNAL_COMPACT_BYTES:
                    os.ftruncate(self._journal_fd, 0)  # every id in it is finished in the table

    def record_sent(self, update_id: int) -> None:
        """See :meth:`UpdateInbox.record_sent`: one append to the journal (``O_APPEND``, no fsync: a
        killed process loses nothing the kernel has; a power cut may, as with ``synchronous=NORMAL``)."""
        if self.journal_path is None:
            try:
                self.finish(update_id)
            except StoreError as exc:
                logger.warning("could not record a sent reply: %s", exc)
            return
        with self._journal_lock:
            try:
                if self._journal_fd is None:
                    self._journal_fd = os.open(self.journal_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
                os.write(self._journal_fd, b"%d\n" % update_id)
                self._journaled.add(update_id)
            except OSError as exc:
                logger.warning("could not record a sent reply in %s: %s", self.journal_path, exc)

    def unfinished(self) -> list[InboxUpdate]:
        """See :meth:`UpdateInbox.unfinished`."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT update_id, user_key, payload FROM channel_inbox "
                "WHERE source = ? AND finished_ms IS NULL ORDER BY update_id",
                (self.source,),
            ).fetchall()
        return [InboxUpdate(int(r[0]), r[1], r[2]) for r in rows]

    def close(self) -> None:
        """See :meth:`UpdateInbox.close` (the journal file stays until the next open folds it)."""
        with self._lock:
            self._conn.close()
        with self._journal_lock:
            if self._journal_fd is not None:
                os.close(self._journal_fd)
                self._journal_fd = None


def journal_path(database: Path, source: str) -> Path:
    """The sent-journal of ``source``'s inbox in ``database``: ``<database>-sent-<source>`` (characters
    other than letters, digits, ``.``, ``_`` and ``-`` of the source become ``_``)."""
    return database.with_name(f"{database.name}-sent-{re.sub(r'[^A-Za-z0-9._-]', '_', source)}")


def _now_ms() -> int:
    return int(time.time() * 1000)


class MemoryInbox:
    """:class:`UpdateInbox` in memory: de-duplicates within one process, survives nothing (tests,
    library use without a database)."""

    def __init__(self) -> None:
        self._rows: dict[int, tuple[InboxUpdate, bool]] = {}
        self._lock = threading.Lock()

    def add(self, updates: Sequence[InboxUpdate]) -> list[InboxUpdate]:
        """See :meth:`UpdateInbox.add`."""
        with self._lock:
            new = [u for u in updates if u.update_id not in self._rows]
            for update in new:
                self._rows[update.update_id] = (update, False)
        return new

    def finish(self, update_id: int) -> None:
        """See :meth:`UpdateInbox.finish`."""
        with self._lock:
            if update_id in self._rows:
                self._rows[update_id] = (self._rows[update_id][0], True)

    def finish_many(self, update_ids: Sequence[int]) -> None:
        """See :meth:`UpdateInbox.finish_many`."""
        for update_id in update_ids:
            self.finish(update_id)

    def record_sent(self, update_id: int) -> None:
        """See :meth:`UpdateInbox.record_sent` (the same as :meth:`finish` in memory)."""
        self.finish(update_id)

    def unfinished(self) -> list[InboxUpdate]:
        """See :meth:`UpdateInbox.unfinished`."""
        with self._lock:
            return [u for i, (u, done) in sorted(self._rows.items()) if not done]

    def close(self) -> None:
        """Nothing to release."""


__all__ = ["KEEP_FINISHED_S", "InboxUpdate", "MemoryInbox", "SqliteInbox", "UpdateInbox", "journal_path"]
