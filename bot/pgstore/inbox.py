"""The update inbox on PostgreSQL (issue 15): :class:`PgInbox`, a
:class:`bot.channels.inbox.UpdateInbox` (table ``channel_inbox``) with the cross-process user lock
webhook workers on one database need."""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import psycopg

from bot.channels.inbox import KEEP_FINISHED_S, InboxUpdate
from bot.pgstore.connection import Connection, now_ms

__all__ = ["PgInbox"]

logger = logging.getLogger(__name__)


class PgInbox(Connection):
    """:class:`bot.channels.inbox.UpdateInbox` on PostgreSQL (table ``channel_inbox``)."""

    def __init__(self, url: str, source: str) -> None:
        super().__init__(url)
        self.source = source
        self._waiting: set[int] = set()  # finished update ids not written yet (see finish)
        self._waiting_guard = threading.Lock()
        self._sender: ThreadPoolExecutor | None = None  # record_sent's writer, started at its first call
        with self._lock:
            self._conn.execute(
                "DELETE FROM channel_inbox WHERE source = %s AND finished_ms < %s",
                (source, now_ms() - KEEP_FINISHED_S * 1000),
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
                    (self.source, now_ms(), [u.update_id for u in updates], [u.user_key for u in updates],
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
        self.finish_many((update_id,))

    def finish_many(self, update_ids: Sequence[int]) -> None:
        """See :meth:`bot.channels.inbox.UpdateInbox.finish_many` (with the ids other threads are
        finishing meanwhile, in one statement: see :meth:`finish`).

        Raises:
            StoreError: the database cannot be written (the ids stay waiting for the next call).
        """
        with self._waiting_guard:
            self._waiting.update(update_ids)
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
                        (now_ms(), self.source, batch),
                    )
            except psycopg.Error as exc:
                with self._waiting_guard:
                    self._waiting.update(batch)
                raise self._error(f"mark {len(batch)} updates handled", exc) from None

    def record_sent(self, update_id: int) -> None:
        """See :meth:`bot.channels.inbox.UpdateInbox.record_sent`: handed to a writer thread of its own
        (a round trip to the server does not belong on the event loop), which finishes the update;
        ids recorded meanwhile share its next statement (see :meth:`finish`). Other workers see the
        mark once it is written, which their sweep (older than a few seconds) always waits for."""
        with self._waiting_guard:
            if self._sender is None:
                self._sender = ThreadPoolExecutor(1, thread_name_prefix="corsbot-sent")
            sender = self._sender
        try:
            sender.submit(self.finish, update_id).add_done_callback(_log_failure)
        except RuntimeError as exc:  # closed meanwhile: finish() after the turn marks it
            logger.warning("could not record a sent reply: %s", exc)

    def close(self) -> None:
        """Write the sent replies still waiting, then close the connection (idempotent)."""
        with self._waiting_guard:
            sender, self._sender = self._sender, None
        if sender is not None:
            sender.shutdown(wait=True)
        super().close()

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
                (self.source, now_ms() - int(age_ms)),
            ).fetchall()
        return [InboxUpdate(int(r[0]), r[1], r[2]) for r in rows]


def _log_failure(future: Future[None]) -> None:
    if not future.cancelled() and future.exception() is not None:
        logger.warning("could not record a sent reply: %s", future.exception())
