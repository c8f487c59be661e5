"""Issue 17.5: storage faults. Users get a short apology without paths (the detail goes to the log);
a database with damaged pages is refused at start with one line naming the file and what to do."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.dialog_pool import ProcessDialogHandler, WorkerStoreError
from bot.turns import Turn
from logs.store import DatabaseCorruptError, LogStore, StoreError, check_database
from tests.bot.fake_telegram import ScriptedHandler, wait_until

U = 7
LOCKED = "/srv/corsbot/var/corsbot.sqlite3: cannot append to the log (database is locked)"


def _damaged_db(path: Path) -> None:
    """A database whose header is intact and whose data pages are overwritten with junk."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x TEXT)")
    conn.executemany("INSERT INTO t VALUES (?)", [(f"row {i} " * 20,) for i in range(3000)])
    conn.commit()
    conn.close()
    size = path.stat().st_size
    with open(path, "r+b") as f:
        page = 4096
        for offset in range(2 * page, size, 3 * page):
            f.seek(offset + 100)
            f.write(os.urandom(600))


def test_quick_check_refuses_a_damaged_database_and_accepts_a_good_or_missing_one(tmp_path):
    good = tmp_path / "good.sqlite3"
    LogStore(good).close()
    check_database(good)
    check_database(tmp_path / "missing.sqlite3")
    bad = tmp_path / "bad.sqlite3"
    _damaged_db(bad)
    with pytest.raises(DatabaseCorruptError) as info:
        check_database(bad)
    assert str(bad) in str(info.value) and "backup" in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize("command", [["chat"], ["telegram", "--echo", "--processes", "0"]])
def test_the_bot_refuses_to_start_on_a_damaged_database_with_one_line(tmp_path, command):
    _damaged_db(tmp_path / "corsbot.sqlite3")
    env = dict(os.environ, CORSBOT_HOME=str(tmp_path), TELEGRAM_BOT_TOKEN="123456789:TEST-fake-token")
    done = subprocess.run([sys.executable, "-m", "bot.cli", *command], input="hello\n", capture_output=True,
                          text=True, env=env, timeout=120)  # fmt: skip
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "is damaged" in lines[0] and str(tmp_path / "corsbot.sqlite3") in lines[0], done.stderr
    assert "Traceback" not in done.stderr


async def test_a_locked_database_gets_a_short_apology_without_a_path(fake_tg, make_channel, caplog):
    def dm(turn):
        raise StoreError(LOCKED)

    await make_channel(ScriptedHandler(dm))
    fake_tg.push_text(U, "I like Dune")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 1)
    text = fake_tg.texts(U)[0]
    assert text == "Sorry, I could not save that just now. Please send it again in a moment."
    assert "sqlite3" not in text and "/" not in text
    assert LOCKED in caplog.text  # the operator gets the detail


def test_a_store_error_in_a_dialog_worker_stays_a_store_error():
    from tests.bot.pool_fakes import make_store_failing_handler

    with ProcessDialogHandler(make_store_failing_handler, processes=1) as pool:
        with pytest.raises(WorkerStoreError) as info:
            pool.handle(Turn("tg:1", "hello"))
    assert isinstance(info.value, StoreError)


# --------------------------------------------------------------------------- issue 25: locked, read-only


@pytest.fixture
def fake_home(tmp_path, monkeypatch):
    """``corsbot chat`` on the small fake KB and NLU, its database in ``tmp_path``."""
    import bot.compose
    from bot.services import DomainServices, Services
    from recommender.recommend import Recommender
    from tests.bot.dialog_fakes import FakeIntents, FakeKB, FakeLinker, FakeSentiment

    kb = FakeKB()
    domain = DomainServices(kb=kb, linker=FakeLinker(kb), recommender=Recommender(kb))
    monkeypatch.setenv("CORSBOT_HOME", str(tmp_path))
    monkeypatch.setattr(bot.compose, "load_services", lambda **kw: Services(FakeIntents(), FakeSentiment(),
                                                                            lambda name: domain))  # fmt: skip
    return tmp_path


def _chat(monkeypatch, capsys, *lines: str) -> tuple[int, str, str]:
    import io

    from bot.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = main(["chat", "--domain", "movie"])
    out, err = capsys.readouterr()
    return code, out, err


def _liked(db: Path) -> dict:
    from bot.store import StateStore

    return StateStore(db).load("cli:local").profile("movie")


def test_chat_waits_for_a_database_another_process_holds_and_keeps_the_like(fake_home, monkeypatch, capsys, caplog):
    """The issue's case: the database write-locked by another process for longer than SQLite's busy
    timeout. The chat waits with a message naming the holder, then stores the like."""
    import logs.dbaccess
    import logs.store
    from tests.logs.test_dbaccess import PYTHON, holding

    monkeypatch.setattr(logs.dbaccess, "LOCK_NOTICE_S", 0.3)  # the notice after 0.3 s instead of 5
    monkeypatch.setattr(logs.store, "BUSY_TIMEOUT_S", 0.3)
    db = fake_home / "corsbot.sqlite3"
    assert _chat(monkeypatch, capsys, "hi")[0] == 0  # the database exists, with a user
    with holding(db, 2.0) as holder:
        code, out, err = _chat(monkeypatch, capsys, "I love Christopher Nolan")
    assert code == 0 and "Traceback" not in err and "writable" not in err
    notices = [r.getMessage() for r in caplog.records if r.name == "logs.dbaccess"]
    assert notices and notices[0].startswith(f"another process holds the database {db} (pid {holder.pid}: {PYTHON} -c)")
    assert "waiting until it is released" in notices[0] and "is free again" in notices[-1]
    assert _liked(db)["Q100"]["polarity"] == "+"  # the turn was kept, not refused


def test_a_dialog_turn_waits_for_a_lock_taken_between_turns(fake_home, monkeypatch, caplog):
    import logs.dbaccess
    import logs.store
    from bot.compose import build_dialog_manager
    from tests.logs.test_dbaccess import holding

    monkeypatch.setattr(logs.dbaccess, "LOCK_NOTICE_S", 0.3)
    monkeypatch.setattr(logs.store, "BUSY_TIMEOUT_S", 0.3)
    db = fake_home / "corsbot.sqlite3"
    dm = build_dialog_manager(db=db, session="chat")
    dm.handle(Turn("cli:local", "hi"))
    with holding(db, 1.5):
        reply = dm.handle(Turn("cli:local", "I love Christopher Nolan"))
    assert "could not save" not in reply.text
    assert _liked(db)["Q100"]["polarity"] == "+"
    assert any("waiting until it is released" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("what", ["file", "folder"])
def test_chat_tells_a_read_only_database_file_from_a_read_only_folder(fake_home, monkeypatch, capsys, read_only, what):
    db = fake_home / "corsbot.sqlite3"
    if what == "file":
        assert _chat(monkeypatch, capsys, "hi")[0] == 0
        for side in fake_home.glob("corsbot.sqlite3-*"):
            side.unlink()  # as after a clean stop
        read_only(db)
    else:
        read_only(fake_home)
    code, _, err = _chat(monkeypatch, capsys, "I love Christopher Nolan")
    assert code == 2 and "Traceback" not in err and err.count("\n") == 1
    expected = {
        "file": f"(read-only file): make it writable (chmod u+w {db}) or set CORSBOT_HOME to another folder",
        "folder": "(read-only folder): set CORSBOT_HOME to a writable folder",
    }[what]
    assert err.strip() == f"corsbot: error: cannot open the database {db} {expected}"
