"""The web channel and the corrections on PostgreSQL (issue 26; ``CORSBOT_DATABASE_URL``): the same
tables (migration 3 of ``bot/pgstore/schema.py``), a participant's chat, a correction and the exports."""

from __future__ import annotations

from bot.channels.web.app import WebConfig, build_app
from bot.channels.web.dialogs import StudyDialogs
from bot.channels.web.store import PARTICIPANT, WebStore, new_secret
from bot.channels.web.study import StudyConfig
from bot.corrections import Correction, CorrectionStore
from bot.turns import Reply
from tests.web.conftest import TOKEN, fake_services, login, open_chat, say


def test_the_web_tables_on_postgresql(pg_url):
    store = WebStore(pg_url)
    secret = new_secret()
    assert store.create_participant("P1", study="s", kind=PARTICIPANT, condition="a", secret=secret) is not None
    assert store.create_participant("P1", study="s", kind=PARTICIPANT, condition="a", secret=secret) is None
    assert store.participant("P1").owns(secret) and store.condition_counts("s") == {"a": 1}
    first = store.add_turn("P1", "hi", None, interaction="mixed", auto=True)
    second = store.add_turn("P1", "I like Dune", None, interaction="mixed")
    assert second > first and [t.id for t in store.unfinished()] == [first, second]
    store.finish_turn(first, Reply("hello"), None)
    assert [t.id for t in store.unfinished()] == [second] and store.typed_turns("P1") == 1
    assert store.give_feedback("P1", "satisfied") and not store.give_feedback("P1", "frustrated")
    store.remember_context("abc", "P1")
    assert store.context_owner("abc") == "P1"
    store.close()
    corrections = CorrectionStore(pg_url)
    corrections.save(Correction("m1", "web", 3, "preference", "Q1+"))
    assert corrections.get("m1").objects == "Q1+" and list(corrections.all("web")) == ["m1"]
    corrections.close()


def test_a_study_on_postgresql(pg_url, tmp_path, monkeypatch):
    from starlette.testclient import TestClient

    monkeypatch.setenv("CORSBOT_DATABASE_URL", pg_url)
    monkeypatch.setenv("CORSBOT_HOME", str(tmp_path / "home"))
    study = StudyConfig(min_turns=1)
    handler = StudyDialogs(db=tmp_path / "unused.sqlite3", study=study, services=fake_services())
    config = WebConfig(study=study, database=pg_url, signing_key=b"k" * 48, console_token=TOKEN, home=tmp_path / "home")
    with TestClient(build_app(config, handler), follow_redirects=False) as client:
        csrf = open_chat(client)
        assert "Inception" in say(client, csrf, "I like Inception").json()["reply"]["text"]
        console_csrf = login(client)
        figures = client.get("/console/api/figures").json()["figures"]
        assert figures["messages"] == 2 and figures["participants"] == 1
        record = client.app.state.web.data.records()[-1]
        fixed = client.post(f"/console/review/{record.message_id}",
                            data={"csrf": console_csrf, "intent": "preference", "objects": "Q2+"})  # fmt: skip
        assert fixed.status_code == 200
        rows = client.get("/console/export/dataset-corrected").json()
        assert rows[-1]["recognizedObjects"] == "Q2+" and rows[-1]["toCheck"] is False
        assert client.get("/console/export/sgd").json()[0]["dialogue_id"] == "default/P1"
