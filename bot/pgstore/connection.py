"""The connection every PostgreSQL store class opens (:class:`Connection`) and the helpers they share.

Each store takes the URL and opens its own connection (autocommit; transactions are explicit),
guarded by a lock, as the SQLite classes do; the schema is created or migrated on connecting
(:func:`bot.pgstore.schema.migrate`). The password of the URL is registered with :mod:`bot.redact`:
it never appears in a log line or an error.
"""

from __future__ import annotations

import contextlib
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psycopg

from bot.pgstore.schema import migrate
from bot.redact import redact, register_secret
from logs.store import StoreError

__all__ = ["Connection", "first_line", "is_url", "now_ms", "shown"]


def is_url(value: str | None) -> bool:
    """True for a PostgreSQL URL (``postgresql://`` or ``postgres://``)."""
    return bool(value) and str(value).startswith(("postgresql://", "postgres://"))


def now_ms() -> int:
    """The time in milliseconds since the epoch (the stores' timestamps)."""
    return int(time.time() * 1000)


def shown(url: str) -> str:
    """The database as messages name it: the URL without user and password."""
    parts = urlsplit(url)
    return f"postgresql://{parts.hostname or 'localhost'}:{parts.port or 5432}{parts.path}"


def first_line(exc: BaseException) -> str:
    """The first line of an error's message (psycopg's go on with details and hints)."""
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


class Connection:
    """One autocommit connection with a lock, the schema checked; base of the store classes.

    Raises:
        StoreError: the database cannot be reached or prepared (:class:`bot.pgstore.schema.SchemaError`:
            its schema is newer than the code).
    """

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
            raise StoreError(redact(f"cannot connect to the database {shown(url)} ({first_line(exc)})")) from None
        try:
            migrate(self._conn, shown(url))
        except psycopg.Error as exc:
            raise StoreError(redact(f"cannot prepare the database {shown(url)} ({first_line(exc)})")) from None

    def _tx(self) -> contextlib.AbstractContextManager[Any]:
        return self._conn.transaction()

    def _error(self, what: str, exc: BaseException) -> StoreError:
        return StoreError(redact(f"{shown(self.url)}: cannot {what} ({first_line(exc)})"))

    def close(self) -> None:
        """Close the connection (idempotent)."""
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
