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
