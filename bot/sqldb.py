"""One small SQL door for the tables of the web channel and the researcher's corrections, on either
database corsbot runs on: the SQLite file of ``$CORSBOT_HOME`` or the PostgreSQL database of
``CORSBOT_DATABASE_URL`` (:func:`bot.compose.database_url`).

:class:`SqlDatabase` takes SQL written with ``?`` placeholders and portable types, runs it on SQLite
(:func:`logs.store.connect_sqlite`: WAL, busy timeout, one connection guarded by a lock) or, for a
``postgresql://`` URL, on psycopg with ``%s`` placeholders (the schema is then the versioned one of
:mod:`bot.pgstore.schema`, created or migrated on connecting). Errors come out as
:class:`logs.store.StoreError` naming the database, never a bare driver error.

Example:
    >>> import tempfile, pathlib
    >>> db = SqlDatabase(pathlib.Path(tempfile.mkdtemp()) / "x.sqlite3", "CREATE TABLE IF NOT EXISTS t (a INTEGER);")
    >>> db.execute("INSERT INTO t (a) VALUES (?)", (1,)); db.query("SELECT a FROM t")
    [(1,)]
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from logs.store import StoreError, connect_sqlite

__all__ = ["SqlDatabase"]


class SqlDatabase:
    """An SQLite file or a PostgreSQL URL behind one lock (see the module docstring).

    Args:
        target: the SQLite file, or a ``postgresql://`` URL.
        sqlite_schema: statements run on an SQLite file at opening (``CREATE TABLE IF NOT EXISTS``...);
            PostgreSQL gets its tables from :mod:`bot.pgstore.schema`.

    Raises:
        StoreError: the database cannot be opened (:class:`logs.store.DatabaseOpenError` for a file).
    """

    def __init__(self, target: Path | str, sqlite_schema: str) -> None:
        self._lock = threading.RLock()
        self.postgres = isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))
        self._pg: Any = None
        if self.postgres:
            from bot.pgstore.connection import Connection

            self._pg = Connection(str(target))
            self._conn: Any = self._pg._conn
            self.shown = str(self._pg.path)
        else:
            self._conn = connect_sqlite(Path(target), sqlite_schema)
            self.shown = str(target)

    def _sql(self, sql: str) -> str:
        return sql.replace("?", "%s") if self.postgres else sql

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement (autocommitted unless inside :meth:`transaction`); returns the rows changed.

        Raises:
            StoreError: the statement failed.
        """
        with self._lock:
            try:
                return int(self._conn.execute(self._sql(sql), tuple(params)).rowcount)
            except Exception as exc:  # noqa: BLE001 - sqlite3.Error or psycopg.Error: one StoreError
                raise self._error(exc) from None

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of one query.

        Raises:
            StoreError: the query failed.
        """
        with self._lock:
            try:
                return [tuple(row) for row in self._conn.execute(self._sql(sql), tuple(params)).fetchall()]
            except Exception as exc:  # noqa: BLE001
                raise self._error(exc) from None

    def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run an ``INSERT`` into a table with an integer ``id`` and return the new row's id.

        Raises:
            StoreError: the statement failed.
        """
        with self._lock:
            try:
                if self.postgres:
                    row = self._conn.execute(self._sql(sql) + " RETURNING id", tuple(params)).fetchone()
                    return int(row[0])
                return int(self._conn.execute(sql, tuple(params)).lastrowid or 0)
            except Exception as exc:  # noqa: BLE001
                raise self._error(exc) from None

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """Statements run inside it commit together (or not at all); the lock is held throughout.

        Raises:
            StoreError: the transaction could not be opened or committed.
        """
        with self._lock:
            if self.postgres:
                with self._pg._tx():
                    yield
                return
            try:
                self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise self._error(exc) from None
            try:
                yield
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            try:
                self._conn.execute("COMMIT")
            except sqlite3.Error as exc:
                raise self._error(exc) from None

    def _error(self, exc: BaseException) -> StoreError:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        from bot.redact import redact

        return StoreError(redact(f"{self.shown}: database error ({first})"))

    def close(self) -> None:
        """Close the connection (idempotent)."""
        with self._lock:
            with contextlib.suppress(Exception):
                self._conn.close()
