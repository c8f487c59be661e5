"""The participant's chat (issue 26): registration from the URL's pid, consent, conditions, the dialog
through the durable turn table, buttons, escaping, completion code, the one feedback click."""

from __future__ import annotations

import pytest

from bot.channels.web.study import StudyConfig
from bot.messages import STALE_QUESTION
from tests.web.conftest import csrf_of, open_chat, say


def test_a_participant_chats_and_the_page_shows_the_whole_conversation(make_client):
    client = make_client()
    csrf = open_chat(client, "P1")
    answer = say(client, csrf, "I like Inception")
    assert answer.status_code == 200
    body = answer.json()
    assert body["user"] == "I like Inception" and "Inception" in body["reply"]["text"]
    assert body["typed"] == 1 and body["can_finish"] is False
    page = client.get("/chat?pid=P1").text
    assert "I like Inception" in page and "Welcome" in page or "Hi" in page
    store = client.app.state.web.store
    turns = store.turns("P1")
    assert [t.auto for t in turns] == [True, False]  # the automatic /start, then the participant's message
    assert turns[1].annotation.intent == "preference" and turns[1].annotation.objects == "Q1+"
    assert turns[1].annotation.message_id and turns[1].annotation.domain == "movie"
    assert turns[1].annotation.confidence == pytest.approx(0.9)


def test_buttons_are_pressed_by_payload_and_logged_with_their_label(make_client):
    client = make_client()
    csrf = open_chat(client)
    asked = say(client, csrf, "I like Tom Cruise").json()["reply"]
    payloads = [c["payload"] for c in asked["choices"]]
    assert any(p.startswith("role:P161") for p in payloads)
    pressed = client.post("/chat/send", data={"csrf": csrf, "pid": "P1", "payload": payloads[0]},
                          headers={"Accept": "application/json"})  # fmt: skip
    assert pressed.status_code == 200
    turns = client.app.state.web.store.turns("P1")
    assert turns[-1].text == asked["choices"][0]["label"] and turns[-1].payload == payloads[0]
    assert turns[-1].annotation.intent == "preference - disambiguation"


def test_without_javascript_a_post_redirects_back_to_the_chat(make_client):
    client = make_client()
    csrf = open_chat(client)
    answer = client.post("/chat/send", data={"csrf": csrf, "pid": "P1", "text": "hello"})
    assert answer.status_code == 303 and answer.headers["location"].startswith("/chat?pid=P1")


def test_script_tags_and_html_a_participant_typed_are_escaped_everywhere(make_client):
    from tests.web.conftest import login

    client = make_client()
    csrf = open_chat(client)
    evil = '<script>alert("x")</script><b onmouseover="x()">bold</b> I like Inception'
    assert say(client, csrf, evil).status_code == 200
    page = client.get("/chat?pid=P1").text
    assert "<script>alert" not in page and "<b onmouseover" not in page
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in page
    login(client)
    for url in ("/console/conversation/P1", "/console/review?only=all"):
        shown = client.get(url).text
        assert "<script>alert" not in shown and "<b onmouseover" not in shown, url
        assert "&lt;script&gt;" in shown, url


def test_the_consent_comes_first_and_refusing_it_starts_nothing(make_client):
    client = make_client(StudyConfig(consent="You agree to <b>everything</b>.", min_turns=0))
    page = client.get("/chat?pid=C1")
    assert "You agree to &lt;b&gt;everything&lt;/b&gt;." in page.text and "/chat/consent" in page.text
    csrf = csrf_of(page.text)
    assert say(client, csrf, "hello", pid="C1").status_code == 409  # no chat before consent
    refused = client.post("/chat/consent", data={"csrf": csrf, "pid": "C1", "agree": "no"})
    assert refused.status_code == 200 and client.app.state.web.store.turns("C1") == []
    agreed = client.post("/chat/consent", data={"csrf": csrf, "pid": "C1", "agree": "yes"})
    assert agreed.status_code == 303
    assert client.app.state.web.store.participant("C1").consented_ms is not None
    assert "Send" in client.get("/chat?pid=C1").text


def test_conditions_are_assigned_balanced_and_each_runs_its_own_dialog_manager(make_client):
    study = StudyConfig(conditions={"pop": "movie=popularity", "none": "none"})
    client = make_client(study)
    for pid in ("A", "B", "C", "D"):
        client.cookies.clear()
        open_chat(client, pid)
    store = client.app.state.web.store
    assert [store.participant(p).condition for p in "ABCD"] == ["pop", "none", "pop", "none"]
    assert store.condition_counts(study.name) == {"pop": 2, "none": 2}


def test_finishing_needs_the_minimum_of_turns_then_shows_the_completion_code(make_client):
    client = make_client(StudyConfig(min_turns=2, completion_code="CODE1234",
                                     completion_url="https://example.org/done?cc={code}"))  # fmt: skip
    csrf = open_chat(client)
    assert client.post("/chat/finish", data={"csrf": csrf, "pid": "P1"}).status_code == 409
    say(client, csrf, "I like Inception")
    second = say(client, csrf, "I like Dunkirk").json()
    assert second["can_finish"] is True
    assert client.post("/chat/finish", data={"csrf": csrf, "pid": "P1"}).status_code == 303
    done = client.get("/chat?pid=P1").text
    assert "CODE1234" in done and "https://example.org/done?cc=CODE1234" in done
    assert say(client, csrf, "more").status_code == 409  # the conversation is closed


def test_a_random_completion_code_is_one_per_participant(make_client):
    client = make_client(StudyConfig(min_turns=0))
    codes = set()
    for pid in ("R1", "R2"):
        client.cookies.clear()
        csrf = open_chat(client, pid)
        client.post("/chat/finish", data={"csrf": csrf, "pid": pid})
        codes.add(client.app.state.web.store.participant(pid).completion_code)
    assert len(codes) == 2 and all(len(c) == 8 for c in codes)


def test_one_feedback_click_per_conversation(make_client):
    client = make_client()
    csrf = open_chat(client)
    first = client.post("/chat/feedback", data={"csrf": csrf, "pid": "P1", "value": "satisfied"},
                        headers={"Accept": "application/json"})  # fmt: skip
    second = client.post("/chat/feedback", data={"csrf": csrf, "pid": "P1", "value": "frustrated"},
                         headers={"Accept": "application/json"})  # fmt: skip
    assert first.json() == {"stored": True} and second.json() == {"stored": False}
    assert client.app.state.web.store.participant("P1").feedback == "satisfied"
    bad = client.post("/chat/feedback", data={"csrf": csrf, "pid": "P1", "value": "meh"})
    assert bad.status_code == 400


def test_a_url_without_pid_gets_a_new_participant_and_keeps_it(make_client):
    client = make_client()
    first = client.get("/chat")
    assert first.status_code == 200
    pid = client.app.state.web.store.participants("default")[0].pid
    assert pid.startswith("anon-")
    client.get("/chat")
    assert len(client.app.state.web.store.participants("default")) == 1


def test_a_turn_left_unanswered_by_a_killed_process_is_answered_at_the_next_start(make_client):
    client = make_client()
    csrf = open_chat(client)
    say(client, csrf, "I like Inception")
    store = client.app.state.web.store
    participant = store.participant("P1")
    turn_id = store.add_turn("P1", "I like Dunkirk", None, interaction="mixed")  # stored, then the process died
    assert [t.id for t in store.unfinished()] == [turn_id]
    restarted = make_client()  # same database: the lifespan resumes it
    turns = restarted.app.state.web.store.turns("P1")
    assert turns[-1].id == turn_id and turns[-1].reply is not None and "Dunkirk" in turns[-1].reply.text
    assert participant.user_key == "web:P1" and restarted.app.state.web.store.unfinished() == []


def test_button_presses_do_not_count_toward_min_turns(make_client):
    """Found by a fresh user: presses counted as messages, so a participant could finish by tapping."""
    client = make_client(StudyConfig(min_turns=2))
    csrf = open_chat(client)
    asked = say(client, csrf, "I like Tom Cruise").json()  # actor or producer?
    assert asked["typed"] == 1 and asked["can_finish"] is False
    pressed = client.post("/chat/send", data={"csrf": csrf, "pid": "P1", "payload": asked["reply"]["choices"][0]["payload"]},
                          headers={"Accept": "application/json"}).json()  # fmt: skip
    assert pressed["typed"] == 1 and pressed["can_finish"] is False
    assert "1 / 2 messages" in client.get("/chat?pid=P1").text
    assert client.post("/chat/finish", data={"csrf": csrf, "pid": "P1"}).status_code == 409
    assert say(client, csrf, "I like Dunkirk").json()["can_finish"] is True


def test_a_reset_button_never_shown_is_refused_on_the_web(make_client):
    client = make_client()
    csrf = open_chat(client)
    say(client, csrf, "I love Christopher Nolan")
    refused = client.post("/chat/send", data={"csrf": csrf, "pid": "P1", "payload": "reset:everything"},
                          headers={"Accept": "application/json"}).json()  # fmt: skip
    assert refused["reply"]["text"] == STALE_QUESTION and refused["reply"]["choices"] == []
    annotation = client.app.state.web.store.turns("P1")[-1].annotation
    assert annotation is not None and annotation.intent == "Default Fallback Intent"
