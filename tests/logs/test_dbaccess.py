"""A database another process holds locked is waited for, with a notice naming the holder, and the
statement goes on once it is free; a read-only file, folder and file system are told apart (issue 25;
read-only places: the ``read_only`` fixture of tests/fsfaults.py)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import logs.dbaccess as dbaccess
import logs.store as store
from logs.dbaccess import LockWaitExpired, WaitingConnection, describe_process, lock_holder, not_writable
from logs.store import DatabaseOpenError, LogStore, connect_sqlite, open_error

HOLD = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA journal_mode=WAL")
conn.execute("CREATE TABLE IF NOT EXISTS t (x)")
conn.execute("BEGIN IMMEDIATE")
conn.execute("INSERT INTO t VALUES (1)")
print("held", flush=True)
time.sleep(float(sys.argv[2]))
conn.execute("COMMIT")
"""


PYTHON = Path(sys.executable).name
"""The holder's program as the lock notice names it: ``python`` or ``python3``, as the test runner was started."""


@contextmanager
def holding(db: Path, seconds: float) -> Iterator[subprocess.Popen[str]]:
    """Another process holds ``db``'s write lock for ``seconds`` (from when this yields)."""
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(db), str(seconds)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        yield proc
    finally:
        proc.kill()
        proc.wait()


@pytest.fixture
def short_waits(monkeypatch):
    """A notice after 0.3 s of waiting instead of 5 s (both SQLite's busy timeout and the notice)."""
    monkeypatch.setattr(dbaccess, "LOCK_NOTICE_S", 0.3)
    monkeypatch.setattr(store, "BUSY_TIMEOUT_S", 0.3)


def test_a_locked_database_is_waited_for_with_a_notice_naming_the_holder(tmp_path, short_waits, caplog):
    db = tmp_path / "db.sqlite3"
    log = LogStore(db)
    with holding(db, 1.5) as holder:
        assert lock_holder(db) == f"pid {holder.pid}: {PYTHON} -c"  # its write lock, from /proc/locks
        started = time.monotonic()
        log.append("live", _record())  # waits for the holder, then goes on
        waited = time.monotonic() - started
    assert 0.5 < waited < 30 and log.count("live") == 1
    notices = [r.getMessage() for r in caplog.records if r.name == "logs.dbaccess"]
    assert notices[0] == (
        f"another process holds the database {db} (pid {holder.pid}: {PYTHON} -c); waiting until it is released "
        "(at most 600 s) ..."
    )
    assert notices[1].startswith(f"the database {db} is free again") and len(notices) == 2


def test_a_lock_held_past_the_wait_is_one_line_naming_the_holder_not_a_folder(tmp_path, short_waits, monkeypatch):
    monkeypatch.setattr(dbaccess, "LOCK_WAIT_S", 1.0)
    db = tmp_path / "db.sqlite3"
    LogStore(db).close()
    with holding(db, 30) as holder:
        conn = connect_sqlite(db, "")
        with pytest.raises(
            LockWaitExpired, match=rf"database is locked by pid {holder.pid}: {PYTHON} -c \(waited 1 s\)"
        ):
            conn.execute("DELETE FROM log_records")
        error = open_error(db, LockWaitExpired("database is locked"))
    assert isinstance(error, DatabaseOpenError) and "writable" not in str(error)
    assert str(error).startswith(f"cannot open the database {db} (locked by pid {holder.pid}: {PYTHON} -c): stop that")


def test_a_statement_inside_a_transaction_is_not_run_again(tmp_path, short_waits):
    db = tmp_path / "db.sqlite3"
    conn = sqlite3.connect(db, factory=WaitingConnection, isolation_level=None, timeout=0.3)
    conn.execute("CREATE TABLE t (x)")
    with holding(db, 5):
        conn.execute("BEGIN")  # deferred: the write below finds the lock taken, mid-transaction
        started = time.monotonic()
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            conn.execute("INSERT INTO t VALUES (2)")
        assert time.monotonic() - started < 3
        conn.execute("ROLLBACK")


def test_the_holder_is_named_by_its_program_and_subcommand_only():
    proc = subprocess.Popen([sys.executable, "-m", "bot.cli", "chat", "--user", "secret-token-123"],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        time.sleep(0.2)
        assert describe_process(proc.pid) == f"pid {proc.pid}: corsbot chat"
    finally:
        proc.kill()
        proc.wait()
    assert describe_process(proc.pid) == f"pid {proc.pid}"  # gone: nothing more to say


# --------------------------------------------------------------------------- read-only file vs folder


def test_a_read_only_database_file_and_a_read_only_folder_are_told_apart(tmp_path, read_only):
    ro_file = tmp_path / "a" / "corsbot.sqlite3"
    LogStore(ro_file).close()
    for side in ro_file.parent.glob("corsbot.sqlite3-*"):
        side.unlink()
    read_only(ro_file)
    assert not_writable(ro_file) == "read-only file"
    with pytest.raises(DatabaseOpenError) as file_error:
        connect_sqlite(ro_file, "CREATE TABLE IF NOT EXISTS other (x)")  # the first write at opening fails
    assert str(file_error.value) == (
        f"cannot open the database {ro_file} (read-only file): make it writable (chmod u+w {ro_file}) or set "
        "CORSBOT_HOME to another folder"
    )

    ro_folder = tmp_path / "b"
    ro_folder.mkdir()
    read_only(ro_folder)
    assert not_writable(ro_folder / "corsbot.sqlite3") == "read-only folder"
    assert not_writable(ro_folder / "var" / "corsbot.sqlite3") == f"read-only folder {ro_folder}"
    with pytest.raises(DatabaseOpenError) as folder_error:
        LogStore(ro_folder / "corsbot.sqlite3")
    assert str(folder_error.value) == (
        f"cannot open the database {ro_folder / 'corsbot.sqlite3'} (read-only folder): set CORSBOT_HOME to a "
        "writable folder"
    )


def test_a_failure_to_open_that_is_neither_does_not_blame_the_folder(tmp_path):
    db = tmp_path / "corsbot.sqlite3"
    error = open_error(db, sqlite3.OperationalError("unable to open database file"))
    assert "read-only" not in str(error)
    assert str(error) == (
        f"cannot open the database {db} (unable to open database file): check that its folder exists, is writable "
        "and has space, or set CORSBOT_HOME to another folder"
    )


def _record():
    from tests.logs.logs_testkit import make_record

    return make_record(user=1, ts=1)
