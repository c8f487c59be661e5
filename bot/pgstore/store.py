"""The PostgreSQL store (psycopg 3): the same interfaces as the SQLite one, for several bot processes
and hosts sharing one database (issue 15). This module gathers the names the rest of corsbot imports;
each concern lives in a module of its own.

Selected by ``CORSBOT_DATABASE_URL=postgresql://user:password@host:port/dbname`` (SQLite stays the
default; :func:`is_url`). Every class takes the URL and opens its own connection (autocommit;
transactions are explicit), guarded by a lock, as the SQLite classes do
(:class:`bot.pgstore.connection.Connection`):

- :class:`PgStateStore` (:mod:`bot.pgstore.state`): :class:`bot.store.TurnStore` (dialog states, the
  turn's one transaction of state + log record + receipt, numeric user ids) plus
  :meth:`PgStateStore.turn_lock`, a PostgreSQL advisory lock per user held from loading the state to
  committing the turn, so two processes never run turns of one user at once (the later waits);
- :class:`PgLogStore` (:mod:`bot.pgstore.log`): the session log (the methods of
  :class:`logs.store.LogStore` the dialog and the export use);
- :class:`PgInbox` (:mod:`bot.pgstore.inbox`): :class:`bot.channels.inbox.UpdateInbox`;
- :class:`PgChannelUsers` (:mod:`bot.pgstore.users`): :class:`bot.channels.users.ChannelUsers`.

Schema (:mod:`bot.pgstore.schema`): created or migrated on first connection, versioned in
``corsbot_schema(version)`` (:data:`SCHEMA_VERSION`); migrations run in one transaction under an
advisory lock, so processes starting together do not race; a database whose version is newer than the
code's is refused with a clear :class:`SchemaError`. The password of the URL is registered with
:mod:`bot.redact`: it never appears in a log line or an error.
"""

from __future__ import annotations

from bot.pgstore.connection import is_url
from bot.pgstore.inbox import PgInbox
from bot.pgstore.log import PgLogStore
from bot.pgstore.schema import SCHEMA_VERSION, SchemaError
from bot.pgstore.state import PgStateStore
from bot.pgstore.users import PgChannelUsers

__all__ = ["SCHEMA_VERSION", "PgChannelUsers", "PgInbox", "PgLogStore", "PgStateStore", "SchemaError", "is_url"]
