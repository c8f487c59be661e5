"""Channel users: who can still be written to (active) and who blocked the bot (inactive).

One SQLite table, ``channel_users``, in the given database file (by default the bot's database,
``var/corsbot.sqlite3``, next to the dialog state; WAL journal). A user becomes inactive when the
platform refuses to deliver to them (Telegram 403 "bot was blocked by the user", field case F09) and
active again as soon as they write to the bot. Scheduled or delayed sends check :meth:`is_active`.

Table ``channel_users``: ``user_id`` TEXT primary key (``"tg:42"``), ``chat_id`` INTEGER,
``active`` INTEGER 0/1, ``changed_ms`` INTEGER (ms since epoch of the last status change),
``reason`` TEXT (why the user became inactive, or NULL).

Thread-safe: one connection guarded by a lock; calls are short (one upsert). Writes happen only on
status changes (an in-memory set remembers who is known to be active), so a busy bot does not write
on every message. Callers on an event loop should still call it from a worker thread.

Example:
    >>> import tempfile, pathlib
    >>> users = ChannelUsers(pathlib.Path(tempfile.mkdtemp()) / "db.sqlite3")
    >>> users.seen("tg:1", 1); users.mark_inactive("tg:1", "blocked"); users.is_active("tg:1")
    False
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from logs.store import connect_sqlite

logger = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS channel_users (
    user_id TEXT PRIMARY KEY,
    chat_id INTEGER NOT NULL,
    active INTEGER NOT NULL,
    changed_ms INTEGER NOT NULL,
    reason TEXT
)
"""


@dataclass(frozen=True, slots=True)
class ChannelUser:
    """One row of ``channel_users``.

    Attributes:
        user_id: channel-prefixed user key (``"tg:42"``).
        chat_id: the platform chat to write to.
        active: False once the platform refused delivery (blocked), until the user writes again.
        changed_ms: ms since epoch of the last status change.
        reason: why the user became inactive (``"Forbidden: bot was blocked by the user"``), or None.
    """

    user_id: str
    chat_id: int
    active: bool
    changed_ms: int
    reason: str | None


class ChannelUsers:
    """The ``channel_users`` table of one SQLite database (see the module docstring)."""

    def __init__(self, path: Path) -> None:
        """Open (and create if needed) the table.

        Args:
            path: SQLite database file; its folder is created if missing.

        Raises:
            logs.store.DatabaseOpenError: the file cannot be created or opened (read-only folder)
                or is not a usable SQLite database.
        """
        path = Path(path)
        self._lock = threading.Lock()
        self._conn = connect_sqlite(path, _SCHEMA)
        self._known_active: set[str] = set()

    def seen(self, user_id: str, chat_id: int) -> None:
        """Record that the user wrote to the bot: they are active (a write only on a status change)."""
        if user_id in self._known_active:
            return
        with self._lock:
            row = self._conn.execute(
                "SELECT active, chat_id FROM channel_users WHERE user_id = ?", (user_id,)
            ).fetchone()
            if row is None or not row[0] or row[1] != chat_id:
                self._conn.execute(
                    "INSERT INTO channel_users (user_id, chat_id, active, changed_ms, reason) "
                    "VALUES (?, ?, 1, ?, NULL) ON CONFLICT(user_id) DO UPDATE SET "
                    "chat_id = excluded.chat_id, active = 1, changed_ms = excluded.changed_ms, reason = NULL",
                    (user_id, chat_id, _now_ms()),
                )
                if row is not None and not row[0]:
                    logger.info("user %s is active again", user_id)
            self._known_active.add(user_id)

    def known_active(self, user_id: str) -> bool:
        """True if this object already knows the user is active (no database access)."""
        return user_id in self._known_active

    def mark_inactive(self, user_id: str, reason: str, *, chat_id: int | None = None) -> None:
        """Mark the user inactive (e.g. they blocked the bot); unknown users are added as inactive.

        Args:
            user_id: channel-prefixed user key.
            reason: short cause, stored as is.
            chat_id: the chat, needed only when the user is not in the table yet (default 0).
        """
        with self._lock:
            self._known_active.discard(user_id)
            self._conn.execute(
                "INSERT INTO channel_users (user_id, chat_id, active, changed_ms, reason) "
                "VALUES (?, ?, 0, ?, ?) ON CONFLICT(user_id) DO UPDATE SET "
                "active = 0, changed_ms = excluded.changed_ms, reason = excluded.reason",
                (user_id, chat_id or 0, _now_ms(), reason),
            )
        logger.info("user %s marked inactive: %s", user_id, reason)

    def is_active(self, user_id: str) -> bool:
        """False only for a user marked inactive; unknown users count as active."""
        user = self.get(user_id)
        return user is None or user.active

    def get(self, user_id: str) -> ChannelUser | None:
        """The user's row, or None if unknown."""
        with self._lock:
            row = self._conn.execute(
                "SELECT user_id, chat_id, active, changed_ms, reason FROM channel_users WHERE user_id = ?",
                (user_id,),
            ).fetchone()
        return None if row is None else ChannelUser(row[0], row[1], bool(row[2]), row[3], row[4])

    def inactive(self) -> tuple[str, ...]:
        """User keys currently marked inactive, sorted."""
        with self._lock:
            rows = self._conn.execute("SELECT user_id FROM channel_users WHERE active = 0 ORDER BY user_id").fetchall()
        return tuple(r[0] for r in rows)

    def close(self) -> None:
        """Close the connection (idempotent)."""
        with self._lock:
            self._conn.close()


def _now_ms() -> int:
    return int(time.time() * 1000)
