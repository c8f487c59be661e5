"""The session log on PostgreSQL (issue 15): :class:`PgLogStore`, the methods of
:class:`logs.store.LogStore` the dialog and the export use (table ``log_records``)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

import psycopg

from bot.pgstore.connection import Connection, shown
from logs.record import LogRecord, RecordError
from logs.store import StoreError

__all__ = ["PgLogStore"]


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


class PgLogStore(Connection):
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
                raise StoreError(f"{shown(self.url)}: log row {row_id} is corrupt ({exc})") from None
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
