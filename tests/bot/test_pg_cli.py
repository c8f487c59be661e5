"""Commands that read the session log work on PostgreSQL too (``CORSBOT_DATABASE_URL``, issue 15):
``corsbot export`` and ``corsbot logs sessions``; evaluation runs keep to their scratch SQLite file."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.state import DialogState
from bot.turns import Turn
from logs.record import LogRecord
from logs.store import LogStore
from tests.logs.logs_testkit import make_record


@pytest.fixture()
def pg_home(tmp_path, monkeypatch, pg_url):
    monkeypatch.setenv("CORSBOT_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("CORSBOT_SHARED", str(tmp_path / "no-shared-data"))
    monkeypatch.setenv("CORSBOT_DATABASE_URL", pg_url)
    return pg_url


def _logged(url: str) -> list[LogRecord]:
    """Two turns of one user through the turn commit (the second flips the first's toCheck), one of another session."""
    from bot.pgstore.store import PgLogStore, PgStateStore

    first, second = make_record(user=1, ts=1, message="I like Dune"), make_record(user=1, ts=2, message="why?")
    with PgStateStore(url) as states, PgLogStore(url) as log:
        row = states.commit_turn("tg:1", DialogState(), session="telegram", record=first)
        states.commit_turn("tg:1", DialogState(), session="telegram", record=second, to_check={row: True})
        log.append("chat", make_record(user=2, ts=3, message="hi"))
        return log.records("telegram")


def test_export_and_sessions_read_the_postgresql_log(pg_home, tmp_path, capsys):
    records = _logged(pg_home)
    assert [r.to_check for r in records] == [True, False]
    out = tmp_path / "telegram.json"
    assert main(["export", "--session", "telegram", "--out", str(out)]) == 0
    assert "exported 2 records" in capsys.readouterr().out
    assert json.loads(out.read_text()) == [r.to_json() for r in records]  # the dataset's objects, flags included
    assert main(["export", "--out", str(tmp_path / "all.json")]) == 0
    assert len(json.loads((tmp_path / "all.json").read_text())) == 3
    assert main(["logs", "sessions"]) == 0
    assert capsys.readouterr().out.splitlines()[-3:] == ["telegram\t2", "chat\t1", "sessions: 2"]


def test_export_of_an_unknown_session_names_the_sessions_not_the_password(tmp_path, capsys, monkeypatch, pg_cluster):
    import psycopg

    with psycopg.connect(pg_cluster.url, autocommit=True) as conn:
        conn.execute("CREATE ROLE exporter LOGIN PASSWORD 'Hunter2Secret'")
        conn.execute("CREATE DATABASE exports OWNER exporter")
    url = f"postgresql://exporter:Hunter2Secret@127.0.0.1:{pg_cluster.port}/exports"
    monkeypatch.setenv("CORSBOT_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("CORSBOT_DATABASE_URL", url)
    _logged(url)
    assert main(["export", "--session", "nope"]) != 0
    err = capsys.readouterr().err
    assert "no session 'nope'" in err and "telegram, chat" in err and "Hunter2Secret" not in err


def test_an_explicit_sqlite_db_wins_over_the_url(pg_home, tmp_path, capsys):
    db = tmp_path / "other.sqlite3"
    with LogStore(db) as store:
        store.append("live", make_record(user=1, ts=1))
    assert main(["export", "--db", str(db), "--out", str(tmp_path / "x.json")]) == 0
    assert "exported 1 records" in capsys.readouterr().out


def test_evaluation_runs_keep_to_their_scratch_file(tmp_path, monkeypatch):
    """replay and evaluate-realistic build the dialog on a throwaway SQLite file even with a server
    database configured (here one that cannot be reached: connecting would fail)."""
    from bot.compose import build_dialog_manager
    from bot.services import DomainServices, Services
    from recommender.recommend import Recommender
    from tests.bot.dialog_fakes import FakeIntents, FakeKB, FakeLinker, FakeSentiment

    monkeypatch.setenv("CORSBOT_DATABASE_URL", "postgresql://nobody@127.0.0.1:1/unreachable")
    kb = FakeKB()
    domain = DomainServices(kb=kb, linker=FakeLinker(kb), recommender=Recommender(kb))
    services = Services(FakeIntents(), FakeSentiment(), lambda name: domain)
    dm = build_dialog_manager(db=tmp_path / "replay.sqlite3", session="replay:x", services=services, scratch=True)
    dm.handle(Turn("u:1", "hi"))
    assert LogStore(tmp_path / "replay.sqlite3").count("replay:x") == 1
