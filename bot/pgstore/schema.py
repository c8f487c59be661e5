"""The PostgreSQL schema of corsbot (issue 15): its tables, versioned in ``corsbot_schema(version)``
(:data:`SCHEMA_VERSION`), and :func:`migrate`, run by every store class on connecting
(:class:`bot.pgstore.connection.Connection`).

Migrations run in one transaction under an advisory lock, so processes starting together do not
race; a database whose version is newer than the code's is refused with a clear :class:`SchemaError`.
"""

from __future__ import annotations

from typing import Any

import psycopg

from logs.store import StoreError

__all__ = ["SCHEMA_VERSION", "SchemaError", "migrate"]

SCHEMA_VERSION = 3
_MIGRATIONS: dict[int, str] = {
    1: """
CREATE TABLE users (
    id BIGSERIAL UNIQUE, user_id TEXT PRIMARY KEY, state TEXT NOT NULL,
    active BOOLEAN NOT NULL DEFAULT TRUE, updated_ms BIGINT NOT NULL
);
CREATE TABLE log_records (
    id BIGSERIAL PRIMARY KEY, session TEXT NOT NULL, user_id BIGINT NOT NULL, message_id TEXT NOT NULL,
    timestamp_start BIGINT NOT NULL, intent TEXT NOT NULL, to_check BOOLEAN NOT NULL, record TEXT NOT NULL
);
CREATE INDEX log_records_session_user ON log_records (session, user_id, id);
CREATE TABLE turn_receipts (
    key TEXT PRIMARY KEY, user_id TEXT NOT NULL, reply TEXT NOT NULL, created_ms BIGINT NOT NULL
);
CREATE INDEX turn_receipts_age ON turn_receipts (created_ms);
CREATE TABLE channel_inbox (
    source TEXT NOT NULL, update_id BIGINT NOT NULL, user_key TEXT, payload TEXT NOT NULL,
    received_ms BIGINT NOT NULL, finished_ms BIGINT, PRIMARY KEY (source, update_id)
);
CREATE INDEX channel_inbox_open ON channel_inbox (source, user_key, update_id) WHERE finished_ms IS NULL;
CREATE TABLE channel_users (
    user_id TEXT PRIMARY KEY, chat_id BIGINT NOT NULL, active BOOLEAN NOT NULL, changed_ms BIGINT NOT NULL,
    reason TEXT
);
""",
    # the id of a user's last log row, read with every turn's lock (PgStateStore.log_head)
    2: "CREATE INDEX log_records_user ON log_records (user_id, id);",
    # issue 26: the researcher's corrections beside the log (bot/corrections.py) and the web channel's
    # participants, turns (stored before they are answered) and evaluator conversations
    # (bot/channels/web/store.py); the same tables as on SQLite
    3: """
CREATE TABLE log_corrections (
    message_id TEXT PRIMARY KEY, session TEXT NOT NULL, user_id BIGINT NOT NULL, intent TEXT NOT NULL,
    objects TEXT NOT NULL, logged_intent TEXT NOT NULL DEFAULT '', logged_objects TEXT NOT NULL DEFAULT '',
    note TEXT NOT NULL DEFAULT '', corrected_ms BIGINT NOT NULL
);
CREATE TABLE web_participants (
    pid TEXT PRIMARY KEY, study TEXT NOT NULL, user_key TEXT NOT NULL UNIQUE, secret_hash TEXT NOT NULL,
    kind TEXT NOT NULL, condition TEXT NOT NULL, created_ms BIGINT NOT NULL, consented_ms BIGINT,
    completed_ms BIGINT, completion_code TEXT, feedback TEXT, feedback_ms BIGINT
);
CREATE INDEX web_participants_study ON web_participants (study, kind, condition);
CREATE TABLE web_turns (
    id BIGSERIAL PRIMARY KEY, pid TEXT NOT NULL, auto BOOLEAN NOT NULL, text TEXT NOT NULL, payload TEXT,
    interaction TEXT NOT NULL, received_ms BIGINT NOT NULL, answered_ms BIGINT, reply TEXT, message_id TEXT,
    intent TEXT, confidence DOUBLE PRECISION, events TEXT, objects TEXT, domain TEXT
);
CREATE INDEX web_turns_pid ON web_turns (pid, id);
CREATE INDEX web_turns_open ON web_turns (id) WHERE answered_ms IS NULL;
CREATE INDEX web_turns_message ON web_turns (message_id);
CREATE TABLE web_contexts (digest TEXT PRIMARY KEY, pid TEXT NOT NULL, created_ms BIGINT NOT NULL);
""",
}
_MIGRATION_LOCK = 0x636F7273  # advisory lock id for schema changes ("cors")


class SchemaError(StoreError):
    """The database's schema is newer than this corsbot (or not corsbot's)."""


def migrate(conn: psycopg.Connection[Any], shown: str) -> None:
    """Create or migrate the schema to :data:`SCHEMA_VERSION` (see the module docstring).

    Args:
        conn: an autocommit connection.
        shown: the database as errors name it (the URL without its password).

    Raises:
        SchemaError: the database is newer than the code.
        psycopg.Error: the database cannot be read or changed (nothing of the migration is kept).
    """
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
        conn.execute("CREATE TABLE IF NOT EXISTS corsbot_schema (version INTEGER NOT NULL)")
        row = conn.execute("SELECT max(version) FROM corsbot_schema").fetchone()
        version = int(row[0]) if row and row[0] is not None else 0
        if version > SCHEMA_VERSION:
            raise SchemaError(
                f"the database {shown} has schema version {version}, newer than this corsbot "
                f"understands ({SCHEMA_VERSION}): upgrade corsbot, or use another database"
            )
        for step in range(version + 1, SCHEMA_VERSION + 1):
            conn.execute(_MIGRATIONS[step])
            conn.execute("INSERT INTO corsbot_schema (version) VALUES (%s)", (step,))
