"""Session log in SQLite, export, and the ``corsbot export`` / ``logs sessions`` commands."""

from __future__ import annotations

import json
import sqlite3
import threading

import pytest

from bot.cli import main
from logs.export import export
from logs.record import LogRecord, read_records
from logs.store import LogStore, StoreError
from tests.logs.logs_testkit import make_record


def test_append_and_read_back_in_insertion_order(tmp_path):
    db = tmp_path / "log.sqlite3"
    with LogStore(db) as store:
        a = make_record(user=2, ts=5, intent="start")
        b = make_record(user=1, ts=1, intent="preference", events="preference", objects="Q1+")
        c = LogRecord.from_json(dict(make_record(user=1, ts=2).to_json(), extraField={"k": [1]}))
        ids = [store.append("live", a), store.append("replay-1", b), store.append("live", c)]
        assert ids == sorted(ids)
        assert store.records() == [a, b, c]
        assert store.records("live") == [a, c]
        assert store.records("replay-1") == [b]
        assert store.records("nope") == []
        assert store.sessions() == ["live", "replay-1"]
        assert store.count() == 3 and store.count("live") == 2
        assert store.records("live")[1].extra == {"extraField": {"k": [1]}}
    # persisted, WAL mode
    with LogStore(db) as store:
        assert store.records() == [a, b, c]
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_concurrent_appends_from_threads_lose_nothing(tmp_path):
    store = LogStore(tmp_path / "log.sqlite3")

    def worker(user: int) -> None:
        for ts in range(50):
            store.append("live", make_record(user=user, ts=ts))

    threads = [threading.Thread(target=worker, args=(u,)) for u in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    records = store.records("live")
    assert len(records) == 400
    for user in range(8):
        assert [r.timestamp_start for r in records if r.user_id == user] == [ts * 1000 for ts in range(50)]
    store.close()


def test_set_to_check_and_rows_by_user(tmp_path):
    with LogStore(tmp_path / "log.sqlite3") as store:
        ids = store.append_many("s", [make_record(user=1, ts=1, to_check=True), make_record(user=2, ts=1)])
        assert store.set_to_check({ids[0]: False, ids[1]: False}) == 1
        assert [r.to_check for r in store.records("s")] == [False, False]
        assert [rid for rid, _ in store.rows("s", user_id=2)] == [ids[1]]


def test_missing_or_corrupt_database_is_a_clear_error(tmp_path):
    with pytest.raises(StoreError, match="no log database"):
        LogStore(tmp_path / "none.sqlite3", create=False)
    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="cannot open"):
        LogStore(bad)


def test_export_writes_dataset_json(tmp_path):
    with LogStore(tmp_path / "log.sqlite3") as store:
        records = [make_record(user=1, ts=t, intent="preference", objects="Q1+") for t in range(3)]
        store.append_many("live", records)
        store.append("other", make_record(user=9, ts=0))
        out = tmp_path / "out" / "live.json"
        assert export(store, out, session="live") == 3
        assert read_records(out).records == tuple(records)
        data = json.loads(out.read_text(encoding="utf-8"))
        assert data[0] == records[0].to_json()
        assert export(store, tmp_path / "all.json") == 4


def test_cli_export_and_sessions(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CORSBOT_HOME", str(tmp_path / "home"))
    assert main(["export"]) == 2
    assert "no log database" in capsys.readouterr().err
    db = tmp_path / "home" / "corsbot.sqlite3"
    with LogStore(db) as store:
        store.append("replay 1/x", make_record(user=1, ts=1))
        store.append("live", make_record(user=2, ts=1))
    assert main(["export", "--session", "replay 1/x"]) == 0
    out = tmp_path / "home" / "exports" / "replay_1_x.json"
    assert out.is_file() and len(json.loads(out.read_text())) == 1
    assert f"exported 1 records to {out}" in capsys.readouterr().out
    assert main(["export", "--out", str(tmp_path / "x.json")]) == 0
    assert len(json.loads((tmp_path / "x.json").read_text())) == 2
    assert main(["export", "--session", "nope"]) == 2
    assert "no session 'nope'" in capsys.readouterr().err
    assert main(["logs", "sessions"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "sessions: 2"


def test_recheck_user_applies_the_heuristic_to_one_users_records(tmp_path):
    with LogStore(tmp_path / "log.sqlite3") as store:
        ask = make_record(
            user=1, ts=1, intent="preference", events="question, preference, disambiguation", to_check=True
        )
        other = make_record(user=2, ts=1, intent="preference", events="preference", to_check=True)
        store.append_many("live", [ask, other])
        # still asking: the task is not complete
        assert store.recheck_user("live", 1) == 0
        store.append(
            "live",
            make_record(
                user=1, ts=2, intent="preference - disambiguation", events="preference", objects="Q1+", to_check=True
            ),
        )
        assert store.recheck_user("live", 1) == 2
        assert [r.to_check for r in store.records("live")] == [False, True, False]
        assert store.recheck_user("live", 1) == 0
