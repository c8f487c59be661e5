"""The researcher's console (issue 26): live figures, the conversation viewer, the review queue and its
corrections stored beside the log, the exports, retraining and promotion."""

from __future__ import annotations

import json
import time

from bot.channels.web.study import StudyConfig
from tests.web.conftest import login, open_chat, say


def _figures(client):
    return client.get("/console/api/figures").json()["figures"]


def test_the_figures_follow_the_study(make_client):
    client = make_client(StudyConfig(conditions={"a": "none", "b": "none"}, min_turns=0))
    login(client)
    before = _figures(client)
    assert before["participants"] == 0 and before["messages"] == 0
    csrf = open_chat(client, "P1")
    for text in ("I like Inception", "I like Dunkirk", "I like Memento", "recommend me a movie"):
        assert say(client, csrf, text).status_code == 200
    card = client.app.state.web.store.turns("P1")[-1].reply
    like = next(c.payload for c in card.choices if c.payload.startswith("like:"))
    client.post("/chat/send", data={"csrf": csrf, "pid": "P1", "payload": like}, headers={"Accept": "application/json"})
    client.post("/chat/send", data={"csrf": csrf, "pid": "P1", "text": "skip"}, headers={"Accept": "application/json"})
    client.post("/chat/feedback", data={"csrf": csrf, "pid": "P1", "value": "frustrated"})
    after = _figures(client)
    assert after["participants"] == 1 and after["sessions"] == 1
    assert after["messages"] == 7  # /start and the six turns
    assert after["preferences"] >= 4 and after["lists"] == 1
    assert after["like"] == 0.5 and after["skip"] == 0.5 and after["ratings"] == 2
    assert after["frustrated"] == 1 and after["conditions"]["a"] == {"participants": 1, "messages": 7}
    page = client.get("/console").text
    assert 'id="fig-messages">7<' in page and "/console/conversation/P1" in page


def test_the_conversation_viewer_shows_what_was_logged_for_each_turn(make_client):
    client = make_client()
    csrf = open_chat(client)
    say(client, csrf, "I like Inception")
    login(client)
    page = client.get("/console/conversation/P1").text
    assert "I like Inception" in page and "preference" in page and "Q1+" in page and "0.90" in page
    assert client.get("/console/conversation/NOPE").status_code == 404


def test_relabelling_stores_a_correction_beside_the_log_and_never_changes_it(make_client):
    client = make_client()
    csrf = open_chat(client)
    say(client, csrf, "I like Inception")
    say(client, csrf, "blah blah")
    console_csrf = login(client)
    queue = client.get("/console/review?only=all").text
    assert "blah blah" in queue
    data = client.app.state.web.data
    record = next(r for r in data.records() if r.message == "blah blah")
    fixed = client.post(f"/console/review/{record.message_id}",
                        data={"csrf": console_csrf, "intent": "preference", "objects": "q7+, Q8-"})  # fmt: skip
    assert fixed.status_code == 200 and fixed.json()["objects"] == "Q7+, Q8-"
    assert data.records()[-1] == record  # the log as it was
    correction = data.corrections.get(record.message_id)
    assert (correction.intent, correction.objects, correction.logged_intent) == (
        "preference",
        "Q7+, Q8-",
        record.intent,
    )
    assert "blah blah" not in client.get("/console/review?only=all").text  # done: out of the queue
    assert "blah blah" in client.get("/console/review?only=all&corrected=1").text
    corrected = client.get("/console/export/dataset-corrected").json()
    row = next(r for r in corrected if r["messageID"] == record.message_id)
    assert (row["intent"], row["recognizedObjects"], row["toCheck"]) == ("preference", "Q7+, Q8-", False)
    logged = client.get("/console/export/dataset").json()
    assert next(r for r in logged if r["messageID"] == record.message_id)["intent"] == record.intent
    bad = client.post(f"/console/review/{record.message_id}", data={"csrf": console_csrf, "intent": "nonsense"})
    assert bad.status_code == 400
    assert client.post("/console/review/9-9", data={"csrf": console_csrf, "intent": "preference"}).status_code == 404
    undone = client.post(f"/console/review/{record.message_id}", data={"csrf": console_csrf, "undo": "1"})
    assert undone.json()["undone"] is True and data.corrections.get(record.message_id) is None


def test_the_queue_filters_by_intent_and_confidence(make_client):
    client = make_client()
    csrf = open_chat(client)
    say(client, csrf, "I like Inception")
    say(client, csrf, "qwerty")
    login(client)
    low = client.get("/console/review?only=all&max_confidence=0.5").text
    assert "qwerty" in low and "I like Inception" not in low
    by_intent = client.get("/console/review?only=all&intent=preference").text
    assert "I like Inception" in by_intent and "qwerty" not in by_intent


def test_the_sgd_export_has_the_system_turns_with_acts_and_images(make_client):
    client = make_client()
    csrf = open_chat(client)
    for text in ("I like Inception", "I like Dunkirk", "I like Memento", "recommend me a movie"):
        say(client, csrf, text)
    login(client)
    answer = client.get("/console/export/sgd")
    assert answer.headers["content-disposition"].startswith("attachment")
    (dialogue,) = json.loads(answer.text)
    assert dialogue["dialogue_id"] == "default/P1" and dialogue["services"] == ["corsbot_movie"]
    speakers = [t["speaker"] for t in dialogue["turns"]]
    assert speakers[:4] == ["USER", "SYSTEM", "USER", "SYSTEM"]
    user = dialogue["turns"][2]
    assert user["utterance"] == "I like Inception"
    assert {"act": "INFORM", "slot": "liked", "values": ["Q1"], "canonical_values": ["Q1"]} in user["frames"][0][
        "actions"
    ]
    assert user["frames"][0]["state"]["active_intent"] == "preference"
    offer = dialogue["turns"][-1]
    assert offer["speaker"] == "SYSTEM" and "image" in offer
    assert any(a["act"] == "OFFER" and a["slot"] == "item" for a in offer["frames"][0]["actions"])


def test_retraining_runs_in_the_background_and_promotion_shows_both_figures(make_client, tmp_path, monkeypatch):
    from bot import paths
    from bot.channels.web.retrain import RetrainJob

    client = make_client(reloadable=True)
    csrf = login(client)
    state = client.app.state.web
    first_handler = state.intake.handler
    script = tmp_path / "fake_train.py"
    candidate = paths.intent_candidate()
    script.write_text(
        "import json, pathlib, sys\n"
        f"p = pathlib.Path({str(candidate)!r}); p.mkdir(parents=True)\n"
        "(p / 'recognizer.json').write_text('{}')\n"
        "(p / 'card.json').write_text(json.dumps({'cv': {'accuracy': 0.5, 'folds': 2}, 'counts': {'examples': 3}}))\n"
        "print('trained')\n"
    )
    monkeypatch.setattr(RetrainJob, "command", lambda self: ["python3", str(script)])
    started = client.post("/console/retrain", data={"csrf": csrf})
    assert started.status_code == 202
    assert state.retrain.wait(30) == 0
    status = client.get("/console/api/retrain").json()
    assert status["state"] == "done" and "trained" in status["tail"]
    assert status["models"]["candidate"].startswith("accuracy=0.500 (2-fold CV, 3 examples)")
    assert status["models"]["live"] == "no model"
    promoted = client.post("/console/promote", data={"csrf": csrf})
    assert promoted.status_code == 200 and promoted.json()["live"].startswith("accuracy=0.500")
    assert (paths.intent_model() / "recognizer.json").exists() and not candidate.exists()
    for _ in range(100):  # the dialog restarts on the new live model in the background
        if state.intake.handler is not first_handler and not client.get("/console/api/retrain").json()["reloading"]:
            break
        time.sleep(0.05)
    assert state.intake.handler is not first_handler
    csrf_chat = open_chat(client, "AFTER")
    assert say(client, csrf_chat, "I like Inception", pid="AFTER").status_code == 200
    again = client.post("/console/promote", data={"csrf": csrf})
    assert again.status_code == 409 and "no candidate" in again.json()["error"]


def test_the_retrain_command_uses_the_corrected_log_of_the_study(make_client, tmp_path):
    from bot.channels.web.retrain import RetrainJob
    from bot.channels.web.study import RetrainSettings

    study = StudyConfig(name="s1", retrain=RetrainSettings(data=(tmp_path / "a.json",), extra=False, folds=2))
    command = RetrainJob(study, tmp_path / "log").command()
    assert command[1:] == ["-m", "bot.cli", "nlu", "train", "--logs", "--session", "web:s1", "--folds", "2",
                           "--data", str(tmp_path / "a.json"), "--no-extra"]  # fmt: skip
