"""Picklable handler factories for the tests of :mod:`bot.dialog_pool` (imported by the spawned
worker processes, so this module stays light: no pytest, no models)."""

from __future__ import annotations

import os
import time

from bot.turns import Reply, Turn
from corsbot_errors import ConfigError, CorsbotError


class PidHandler:
    """Answers ``"<pid> <user> <text> #<n>"`` (n = turns this process saw for the user, from 0).

    Special texts: ``"boom"`` raises RuntimeError, ``"busy"`` a CorsbotError with a user-facing
    message, ``"die"`` kills the worker process, ``"slow"`` sleeps 0.3 s.
    """

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}

    def handle(self, turn: Turn) -> Reply:
        if turn.text == "boom":
            raise RuntimeError("a bug")
        if turn.text == "busy":
            raise CorsbotError("The knowledge base is busy, try again in a moment.")
        if turn.text == "die":
            os._exit(3)
        if turn.text == "slow":
            time.sleep(0.3)
        n = self.seen.get(turn.user_id, 0)
        self.seen[turn.user_id] = n + 1
        return Reply(f"{os.getpid()} {turn.user_id} {turn.text} #{n}")


def make_pid_handler() -> PidHandler:
    """Factory of :class:`PidHandler`."""
    return PidHandler()


def make_broken_handler() -> PidHandler:
    """A factory that fails like a missing model does."""
    raise ConfigError("no intent model: run `corsbot nlu train`")


def make_fake_dialog_manager(db: str) -> object:
    """The real :class:`bot.dialog.DialogManager` on the small fake KB and NLU of
    ``tests/bot/dialog_fakes.py``, with its state and log in the SQLite file ``db``."""
    from bot.dialog import DialogManager  # noqa: PLC0415 - only in the worker
    from bot.services import DomainServices, Services  # noqa: PLC0415
    from bot.store import StateStore  # noqa: PLC0415
    from logs.store import LogStore  # noqa: PLC0415
    from recommender.recommend import Recommender  # noqa: PLC0415
    from tests.bot.dialog_fakes import FakeIntents, FakeKB, FakeLinker, FakeSentiment  # noqa: PLC0415

    kb = FakeKB()
    domain = DomainServices(kb=kb, linker=FakeLinker(kb), recommender=Recommender(kb))
    services = Services(FakeIntents(), FakeSentiment(), lambda name: domain)
    return DialogManager(services, StateStore(db), LogStore(db), session="pool-test")


class _StoreFailing:
    def handle(self, turn: Turn) -> Reply:
        from logs.store import StoreError  # noqa: PLC0415

        raise StoreError("/srv/var/corsbot.sqlite3: cannot append to the log (database is locked)")


def make_store_failing_handler() -> object:
    """A handler whose every turn fails on a locked database."""
    return _StoreFailing()


class ReceiptHandler:
    """Applies each turn once per key, as the dialog manager does: the turn's row and its receipt in
    one SQLite transaction; a key with a receipt gets the stored reply. Answers ``"<pid> <text>"``.

    Special texts: ``"slow"`` sleeps 1 s before applying (time to kill the worker mid-turn),
    ``"commit-then-die"`` applies the turn, then kills its worker (the reply never leaves it),
    ``"die"`` kills its worker before applying anything.
    """

    def __init__(self, db: str) -> None:
        import sqlite3  # noqa: PLC0415

        self._conn = sqlite3.connect(db, timeout=30, isolation_level=None)
        # two workers start at once: switching to WAL takes a lock SQLite's busy timeout does not wait for,
        # so the loser retries (as logs.dbaccess does for the real stores) instead of failing its start
        deadline = time.monotonic() + 30
        while True:
            try:
                self._conn.execute("PRAGMA journal_mode=WAL")
                self._conn.execute("CREATE TABLE IF NOT EXISTS applied (key TEXT, text TEXT, pid INTEGER)")
                self._conn.execute("CREATE TABLE IF NOT EXISTS receipts (key TEXT PRIMARY KEY, reply TEXT)")
                break
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def handle(self, turn: Turn) -> Reply:
        if turn.text == "die":
            os._exit(9)
        if turn.text == "slow":
            time.sleep(1.0)
        row = self._conn.execute("SELECT reply FROM receipts WHERE key = ?", (turn.key,)).fetchone()
        if row is not None:
            return Reply(row[0])
        reply = f"{os.getpid()} {turn.text}"
        self._conn.execute("BEGIN IMMEDIATE")
        self._conn.execute("INSERT INTO applied VALUES (?, ?, ?)", (turn.key, turn.text, os.getpid()))
        if turn.key is not None:
            self._conn.execute("INSERT INTO receipts VALUES (?, ?)", (turn.key, reply))
        self._conn.execute("COMMIT")
        if turn.text == "commit-then-die":
            os._exit(9)
        return Reply(reply)


def make_receipt_handler(db: str) -> ReceiptHandler:
    """Factory of :class:`ReceiptHandler` on the SQLite file ``db``."""
    return ReceiptHandler(db)


def applied(db: str) -> list[tuple[str, str, int]]:
    """Every (key, text, pid) a :class:`ReceiptHandler` applied, in order."""
    import sqlite3  # noqa: PLC0415

    conn = sqlite3.connect(db)
    try:
        return [(k, t, p) for k, t, p in conn.execute("SELECT key, text, pid FROM applied ORDER BY rowid")]
    finally:
        conn.close()


class _SlowFirst:
    """Wraps a handler: each turn whose text ends with ``(slow)`` sleeps 1 s first (time to kill the worker)."""

    def __init__(self, inner: object) -> None:
        self.inner = inner

    def handle(self, turn: Turn) -> Reply:
        if turn.text.endswith("(slow)"):
            time.sleep(1.0)
        return self.inner.handle(turn)  # type: ignore[attr-defined]


def make_slow_fake_dialog_manager(db: str) -> object:
    """:func:`make_fake_dialog_manager`, slow on the turns whose text ends with ``(slow)``."""
    return _SlowFirst(make_fake_dialog_manager(db))


class _Niceness:
    def handle(self, turn: Turn) -> Reply:
        return Reply(str(os.getpriority(os.PRIO_PROCESS, 0)))


def make_niceness_handler() -> object:
    """A handler answering its process's niceness."""
    return _Niceness()
