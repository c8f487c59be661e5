"""Why an SQLite database of corsbot cannot be written right now, and waiting when that will pass.

Two faults look alike to SQLite's messages and need different answers (issue 25):

- **Locked**: another process holds the database's write lock (another corsbot, a long ``corsbot
  replay`` batch, an ``sqlite3`` shell in a transaction). That passes: :class:`WaitingConnection`
  waits for it, says so once in the log (``another corsbot process holds the database ...; waiting
  ...``, naming the holder where it can: :func:`lock_holder`), and goes on with the same statement
  when the lock is released, so a turn is kept rather than refused. Each attempt waits
  :data:`LOCK_NOTICE_S` inside SQLite (its busy timeout); after :data:`LOCK_WAIT_S` in all the
  statement fails with :class:`LockWaitExpired` (an ``sqlite3.OperationalError`` naming the holder).
- **Not writable**: a read-only database file, a read-only folder (SQLite creates ``-wal`` and
  ``-shm`` files next to the database), or a read-only file system. That does not pass by waiting:
  :func:`not_writable` tells them apart for the one-line error (``logs.store.open_error``,
  ``bot.errors.describe_error``).

The holder of the write lock is read from ``/proc/locks`` (Linux): SQLite takes POSIX record locks,
in WAL mode a write lock on byte 120 of the ``-shm`` file (``WAL_WRITE_LOCK``), in rollback-journal
mode on bytes from 2^30 of the database file (``PENDING_BYTE``); failing that, the processes that
have the file open (a ``fuser``-like scan of ``/proc/*/fd``). Only the program name and its first
plain argument are shown (``pid 1234: corsbot telegram``): other arguments may hold secrets.

Example:
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "db.sqlite3"
    >>> conn = sqlite3.connect(path, factory=WaitingConnection, isolation_level=None)
    >>> conn.execute("SELECT 1").fetchone()
    (1,)
    >>> not_writable(path) is None
    True
"""

from __future__ import annotations

import logging
import os
import re
import sqlite3
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

__all__ = [
    "LOCK_NOTICE_S",
    "LOCK_WAIT_S",
    "LockWaitExpired",
    "WaitingConnection",
    "describe_process",
    "is_busy",
    "lock_holder",
    "not_writable",
]

logger = logging.getLogger(__name__)
T = TypeVar("T")

LOCK_NOTICE_S = 5.0
"""SQLite's busy timeout per attempt: a lock held longer than this is announced in the log."""
LOCK_WAIT_S = 600.0
"""How long a statement waits in all for a locked database before it fails."""
_WAL_WRITE_LOCK = 120
"""Offset of the WAL write lock in the ``-shm`` file (SQLite's ``WALINDEX_LOCK_OFFSET``)."""
_PENDING_BYTE = 0x40000000
"""Start of the lock bytes of a rollback-journal database file (SQLite's ``PENDING_BYTE``)."""
_PLAIN_WORD = re.compile(r"[a-z][a-z-]{0,30}")


class LockWaitExpired(sqlite3.OperationalError):
    """A statement waited :data:`LOCK_WAIT_S` for a locked database (the message names the holder)."""


def is_busy(exc: BaseException) -> bool:
    """True for SQLite's "database is locked" / "database table is locked" (``SQLITE_BUSY``, ``SQLITE_LOCKED``)."""
    if not isinstance(exc, sqlite3.OperationalError) or isinstance(exc, LockWaitExpired):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return "is locked" in str(exc)


class WaitingConnection(sqlite3.Connection):
    """An ``sqlite3.Connection`` whose statements wait for a database another process holds locked
    (see the module docstring); pass it as ``factory=`` to :func:`sqlite3.connect`.

    A statement is run again only where that is safe: outside a transaction, or a ``BEGIN`` (which
    starts none when it fails). A statement inside a transaction that finds the database locked
    fails as before (the caller rolls back; with ``BEGIN IMMEDIATE`` that does not happen).

    Attributes:
        lock_wait_s: the total wait (default :data:`LOCK_WAIT_S`).
        notify: called once per wait with the notice (default: a warning in the log).
    """

    def __init__(self, database: str | os.PathLike[str], *args: Any, **kwargs: Any) -> None:
        super().__init__(database, *args, **kwargs)
        self.database = os.fspath(database)
        self.lock_wait_s = LOCK_WAIT_S
        self.notify: Callable[[str], None] = logger.warning

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        """``sqlite3.Connection.execute``, waiting for a locked database."""
        return self._waiting(sql, lambda: super(WaitingConnection, self).execute(sql, parameters))

    def executemany(self, sql: str, parameters: Iterable[Any], /) -> sqlite3.Cursor:
        """``sqlite3.Connection.executemany``, waiting for a locked database (``parameters`` is read
        into a list first, so that it can be given again)."""
        rows = list(parameters)
        return self._waiting(sql, lambda: super(WaitingConnection, self).executemany(sql, rows))

    def executescript(self, sql_script: str, /) -> sqlite3.Cursor:
        """``sqlite3.Connection.executescript`` (which commits first), waiting for a locked database;
        run again whole (corsbot's scripts are ``CREATE ... IF NOT EXISTS``)."""
        return self._waiting("", lambda: super(WaitingConnection, self).executescript(sql_script))

    def _waiting(self, sql: str, run: Callable[[], T]) -> T:
        retry = not self.in_transaction or sql.lstrip()[:5].upper() == "BEGIN"
        try:
            return run()
        except sqlite3.OperationalError as exc:
            if not retry or not is_busy(exc):
                raise
        started = time.monotonic() - LOCK_NOTICE_S  # the first attempt waited that long inside SQLite
        holder = lock_holder(self.database)
        self.notify(
            f"{'another corsbot process' if _is_corsbot(holder) else 'another process'} holds the database "
            f"{self.database}{f' ({holder})' if holder else ''}; waiting until it is released "
            f"(at most {self.lock_wait_s:.0f} s) ..."
        )
        while True:
            try:
                result = run()
            except sqlite3.OperationalError as exc:
                if not is_busy(exc):
                    raise
                waited = time.monotonic() - started
                if waited >= self.lock_wait_s:
                    who = lock_holder(self.database) or holder
                    raise LockWaitExpired(
                        f"database is locked{f' by {who}' if who else ' by another process'} (waited {waited:.0f} s)"
                    ) from exc
                continue
            self.notify(f"the database {self.database} is free again ({time.monotonic() - started:.0f} s): going on")
            return result


def _is_corsbot(holder: str | None) -> bool:
    return holder is not None and ("corsbot" in holder or "bot.cli" in holder)


def lock_holder(database: str | os.PathLike[str]) -> str | None:
    """Who holds the write lock of ``database``: ``"pid 1234: corsbot telegram"``, ``"pid 1234"``
    (unreadable command line), a list of the processes that have it open when no lock says more,
    or None (not found: not Linux, or the holder is invisible to this process)."""
    path = Path(database)
    holders = _write_lockers(path)
    if holders:
        return ", ".join(describe_process(pid) for pid in holders)
    users = _processes_with_open(path)
    if users:
        return "open in " + ", ".join(describe_process(pid) for pid in users)
    return None


def _write_lockers(path: Path) -> list[int]:
    """Pids holding a write lock of SQLite on ``path`` (from ``/proc/locks``), not this process."""
    targets: dict[tuple[int, int, int], bool] = {}  # (major, minor, inode) -> is the -shm file
    for candidate, is_shm in ((path, False), (path.with_name(path.name + "-shm"), True)):
        try:
            st = os.stat(candidate)
        except OSError:
            continue
        targets[(os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)] = is_shm
    if not targets:
        return []
    try:
        lines = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return []
    found: list[int] = []
    for line in lines:
        fields = line.split()
        if len(fields) < 8 or fields[1] == "->" or fields[3] != "WRITE":
            continue  # "->": a waiter, not a holder
        try:
            pid, start = int(fields[4]), int(fields[6])
            major, minor, inode = fields[5].split(":")
            key = (int(major, 16), int(minor, 16), int(inode))
        except ValueError:
            continue
        if key not in targets or pid <= 0 or pid == os.getpid():
            continue
        if (start == _WAL_WRITE_LOCK) if targets[key] else (start >= _PENDING_BYTE):
            if pid not in found:
                found.append(pid)
    return found


def _processes_with_open(path: Path) -> list[int]:
    """Pids (not this one) with ``path`` open, by a scan of ``/proc/*/fd`` (at most 20 named)."""
    try:
        target = os.path.realpath(path)
        entries = [e for e in os.listdir("/proc") if e.isdigit() and int(e) != os.getpid()]
    except OSError:
        return []
    found: list[int] = []
    for entry in entries:
        try:
            fds = os.listdir(f"/proc/{entry}/fd")
        except OSError:
            continue  # gone, or not ours to read
        for fd in fds:
            try:
                if os.readlink(f"/proc/{entry}/fd/{fd}") == target:
                    found.append(int(entry))
                    break
            except OSError:
                continue
        if len(found) >= 20:
            break
    return found


def describe_process(pid: int) -> str:
    """``"pid 1234: corsbot telegram"``: the program and its first plain argument (a subcommand),
    never the other arguments (they may hold secrets); ``"pid 1234"`` when unreadable."""
    try:
        argv = [a.decode(errors="replace") for a in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0") if a]
    except OSError:
        return f"pid {pid}"
    if not argv:
        return f"pid {pid}"
    words = [Path(argv[0]).name]
    rest = argv[1:]
    if words[0].startswith("python") and rest:
        if rest[0] == "-m" and len(rest) > 1:
            words, rest = ["corsbot" if rest[1] == "bot.cli" else f"python -m {rest[1]}"], rest[2:]
        elif rest[0].startswith("-"):
            words, rest = [f"{words[0]} {rest[0]}"], []
        else:
            words, rest = [Path(rest[0]).name], rest[1:]
    if rest and _PLAIN_WORD.fullmatch(rest[0]):
        words.append(rest[0])
    return f"pid {pid}: {' '.join(words)}"


def not_writable(path: str | os.PathLike[str]) -> str | None:
    """Why SQLite cannot write the database at ``path``, or None if nothing here says so.

    Returns:
        ``"read-only file system"``, ``"read-only file"`` (the database), ``"read-only file
        <name>-wal"`` (or ``-shm``, ``-journal``: SQLite's files next to it), ``"read-only folder"``
        (the database's folder, or the first existing one above it, where it would be created).
        Checked with ``os.access`` for this process (root ignores permission bits, not an
        immutable file or a read-only mount).
    """
    target = Path(path)
    folder = target.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return "read-only file system"
    except OSError:
        pass
    if target.exists() and not os.access(target, os.W_OK):
        return "read-only file"
    for suffix in ("-wal", "-shm", "-journal"):
        side = target.with_name(target.name + suffix)
        if side.exists() and not os.access(side, os.W_OK):
            return f"read-only file {side.name}"
    if not os.access(folder, os.W_OK | os.X_OK):
        return "read-only folder" if folder == target.parent else f"read-only folder {folder}"
    return None
