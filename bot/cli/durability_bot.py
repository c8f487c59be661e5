"""The bot that ``corsbot bench durability`` kills: ``python -m bot.cli.durability_bot --port P --db D``.

The production channel (durable inbox in ``D``) against the fake Bot API on ``127.0.0.1:P``, with the
real dialog manager (session ``durability``) or, with ``--trivial``, :class:`AppliedTurns`, a stand-in
that applies a turn the way the dialog manager does (one transaction: the applied record and the turn's
receipt); either in ``--processes`` dialog worker processes (:class:`bot.dialog_pool.ProcessDialogHandler`,
which the bench kills one at a time too), or in the bot process with ``--processes 0`` (the default of
``--trivial``). Every reply gets a last line
``[re <user> #<k>]`` (``k`` from the text's ``#k``), added outside the handler. ``--handler MODULE:FUNCTION``
builds another handler (the tests' small-KB dialog manager). Prints ``serving``
once the bot is up (for the bench to start its burst).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import logging
import os
import re
import sqlite3
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.cli.telegram_common import DURABILITY_SESSION, FAKE_TOKEN, real_dialog_manager
from bot.turns import Reply, Turn

_K = re.compile(r"#(\d+)\s*$")


class AppliedTurns:
    """A storing echo handler: each turn appended to ``durability_applied`` once, with its receipt.

    A turn whose key has a receipt is not applied again: the stored reply is returned (what the
    dialog manager does with ``Turn.key``).
    """

    def __init__(self, db: Path | str) -> None:
        self._conn = sqlite3.connect(db, timeout=30, check_same_thread=False, isolation_level=None)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.executescript(
            "CREATE TABLE IF NOT EXISTS durability_applied (id INTEGER PRIMARY KEY, user_key TEXT, text TEXT);"
            "CREATE TABLE IF NOT EXISTS durability_receipts (key TEXT PRIMARY KEY, reply TEXT);"
        )
        self._lock = threading.Lock()

    def handle(self, turn: Turn) -> Reply:
        """Apply the turn once per key; reply ``you said <text>``."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                row = None
                if turn.key is not None:
                    row = self._conn.execute(
                        "SELECT reply FROM durability_receipts WHERE key = ?", (turn.key,)
                    ).fetchone()
                if row is not None:
                    self._conn.execute("COMMIT")
                    return Reply(json.loads(row[0]))
                reply = Reply(f"you said {turn.text}")
                self._conn.execute(
                    "INSERT INTO durability_applied (user_key, text) VALUES (?, ?)", (turn.user_id, turn.text)
                )
                if turn.key is not None:
                    self._conn.execute(
                        "INSERT INTO durability_receipts VALUES (?, ?)", (turn.key, json.dumps(reply.text))
                    )
                self._conn.execute("COMMIT")
                return reply
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise


class PgAppliedTurns:
    """:class:`AppliedTurns` on PostgreSQL (several bot processes share it; the receipt's primary key
    makes a second application of one key roll back)."""

    def __init__(self, url: str) -> None:
        import psycopg  # noqa: PLC0415

        self._psycopg = psycopg
        self._conn = psycopg.connect(url, autocommit=True)
        with self._conn.transaction():
            self._conn.execute("SELECT pg_advisory_xact_lock(4242)")
            self._conn.execute(
                "CREATE TABLE IF NOT EXISTS durability_applied (id BIGSERIAL PRIMARY KEY, user_key TEXT, text TEXT);"
                "CREATE TABLE IF NOT EXISTS durability_receipts (key TEXT PRIMARY KEY, reply TEXT)"
            )
        self._lock = threading.Lock()

    def handle(self, turn: Turn) -> Reply:
        """Apply the turn once per key; reply ``you said <text>``."""
        with self._lock:
            if turn.key is not None:
                row = self._conn.execute("SELECT reply FROM durability_receipts WHERE key = %s", (turn.key,)).fetchone()
                if row is not None:
                    return Reply(json.loads(row[0]))
            reply = Reply(f"you said {turn.text}")
            try:
                with self._conn.transaction():
                    self._conn.execute(
                        "INSERT INTO durability_applied (user_key, text) VALUES (%s, %s)", (turn.user_id, turn.text)
                    )
                    if turn.key is not None:
                        self._conn.execute(
                            "INSERT INTO durability_receipts VALUES (%s, %s)", (turn.key, json.dumps(reply.text))
                        )
            except self._psycopg.errors.UniqueViolation:
                return reply  # applied meanwhile by another worker: rolled back here
            return reply


def pg_applied_turns(url: str) -> list[tuple[str, str]]:
    """Every (user key, text) :class:`PgAppliedTurns` applied, in order."""
    import psycopg  # noqa: PLC0415

    with psycopg.connect(url) as conn:
        return [(u, t) for u, t in conn.execute("SELECT user_key, text FROM durability_applied ORDER BY id")]


def applied_turns(db: Path) -> list[tuple[str, str]]:
    """Every (user key, text) :class:`AppliedTurns` applied, in order."""
    conn = sqlite3.connect(db)
    try:
        return [(u, t) for u, t in conn.execute("SELECT user_key, text FROM durability_applied ORDER BY id")]
    finally:
        conn.close()


class _Marking:
    """Adds ``[re <user> #<k>]`` to each reply (outside the handler, so a stored reply gets it too)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        if hasattr(inner, "ahandle"):
            self.ahandle = self._ahandle

    @staticmethod
    def _mark(turn: Turn, reply: Reply) -> Reply:
        found = _K.search(turn.text)
        user = turn.user_id.split(":", 1)[-1]
        return replace(reply, text=f"{reply.text}\n[re {user} #{found.group(1) if found else '?'}]")

    def handle(self, turn: Turn) -> Reply:
        """The inner handler's reply, marked."""
        return self._mark(turn, self.inner.handle(turn))

    async def _ahandle(self, turn: Turn) -> Reply:
        return self._mark(turn, await self.inner.ahandle(turn))


def _stand_in(args: argparse.Namespace) -> Any:
    """The ``--trivial`` stand-in: in ``--processes`` worker processes, or in this process with 0."""
    if args.processes > 0:
        from bot.dialog_pool import ProcessDialogHandler  # noqa: PLC0415

        factory: Any = (
            functools.partial(PgAppliedTurns, args.database)
            if args.database
            else functools.partial(AppliedTurns, args.db)
        )
        pool = ProcessDialogHandler(factory, processes=args.processes)
        pool.start()
        return pool
    return PgAppliedTurns(args.database) if args.database else AppliedTurns(args.db)


def main() -> None:
    """Run the bot until SIGTERM (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m bot.cli.durability_bot")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--processes", type=int, default=None,
                        help="dialog worker processes (default 2; with --trivial 0: the stand-in in the bot process)")  # fmt: skip
    parser.add_argument("--trivial", action="store_true")
    parser.add_argument(
        "--handler",
        metavar="MODULE:FUNCTION",
        help="build the dialog handler by calling FUNCTION(session) of MODULE (tests: the real dialog manager on "
        "a small knowledge base; its stores follow --database)",
    )
    parser.add_argument("--database", help="a PostgreSQL URL (default: SQLite in --db)")
    parser.add_argument("--webhook-port", type=int, help="serve a webhook on 127.0.0.1:PORT (default: polling)")
    parser.add_argument("--webhook-url", help="the URL Telegram posts to (default: http://127.0.0.1:PORT/telegram)")
    parser.add_argument("--secret", default="durability-secret", help="the webhook's secret token")
    args = parser.parse_args()
    if args.processes is None:
        args.processes = 0 if args.trivial else 2
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from bot import redact  # noqa: PLC0415
    from bot.channels.inbox import SqliteInbox  # noqa: PLC0415
    from bot.channels.telegram import TelegramChannel, TelegramConfig  # noqa: PLC0415

    redact.install()
    inbox: Any
    if args.database:
        from bot.pgstore.store import PgInbox  # noqa: PLC0415

        os.environ["CORSBOT_DATABASE_URL"] = args.database  # the dialog workers build their stores from it
        inbox = PgInbox(args.database, "telegram:durability")
    else:
        inbox = SqliteInbox(args.db, "telegram:durability")
    inner: Any
    if args.handler:
        module, _, function = args.handler.partition(":")
        inner = getattr(importlib.import_module(module), function)(DURABILITY_SESSION)
    elif args.trivial:
        inner = _stand_in(args)
    else:
        inner = real_dialog_manager(args.db, DURABILITY_SESSION, args.processes)
    base = f"http://127.0.0.1:{args.port}"
    webhook: dict[str, Any] = {}
    if args.webhook_port:
        webhook = {"webhook_url": args.webhook_url or f"http://127.0.0.1:{args.webhook_port}/telegram",
                   "listen": "127.0.0.1", "port": args.webhook_port, "secret_token": args.secret}  # fmt: skip
    config = TelegramConfig(token=FAKE_TOKEN, base_url=f"{base}/bot", base_file_url=f"{base}/file/bot",
                            overall_rate_per_s=0, poll_timeout_s=1.0, typing_delay_s=5.0, slow_notice_s=30.0,
                            deadline_s=60.0, workers=max(8, args.processes), **webhook)  # fmt: skip
    channel = TelegramChannel(_Marking(inner), config, inbox=inbox)
    try:
        channel.run(on_started=lambda: print("serving", flush=True))  # noqa: T201 - read by the bench
    finally:
        if hasattr(inner, "close"):
            inner.close()


if __name__ == "__main__":
    main()
