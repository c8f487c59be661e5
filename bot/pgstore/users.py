"""Channel users on PostgreSQL (issue 15): :class:`PgChannelUsers`, a
:class:`bot.channels.users.ChannelUsers` (table ``channel_users``: active / inactive after a 403)."""

from __future__ import annotations

from bot.channels.users import ChannelUser
from bot.pgstore.connection import Connection, now_ms

__all__ = ["PgChannelUsers"]


class PgChannelUsers(Connection):
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
                (user_id, chat_id, now_ms()),
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
                (user_id, chat_id or 0, now_ms(), reason),
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
