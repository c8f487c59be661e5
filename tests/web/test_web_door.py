"""The outside evaluator's door (issue 26): the HTTP interface of UserSimCRS / DialogueKit / SimLab."""

from __future__ import annotations

from tests.web.conftest import login


def test_get_answers_200_as_usersimcrs_checks(make_client):
    client = make_client()
    answer = client.get("/agent")
    assert answer.status_code == 200 and answer.json()["status"] == "ok"


def test_a_conversation_held_by_context_continues_and_has_acts_and_items(make_client):
    client = make_client()
    first = client.post("/agent", json={"context": [], "message": "I like Tom Cruise"}).json()
    assert first["response"] == first["message"] and "Tom Cruise" in first["response"]
    assert first["dialogue_acts"][0]["intent"] == "REQUEST"
    conversation = first["metadata"]["conversation_id"]
    assert first["metadata"]["user_intent"] == "preference"
    # UserSimCRS's wrapper sends the context with the current message at its end (and no user id)
    context = ["I like Tom Cruise", first["response"], "actor"]
    second = client.post("/agent", json={"context": context, "message": "actor"}).json()
    assert second["metadata"]["conversation_id"] == conversation
    assert second["metadata"]["recognizedObjects"] == "Q200+"
    context = [*context[:-1], "actor", second["response"]]
    for text in ("I like Inception", "I like Dunkirk", "recommend me a movie"):
        reply = client.post(
            "/agent/receive_utterance", json={"context": context, "message": text, "user_id": "US1"}
        ).json()
        assert reply["metadata"]["conversation_id"] == conversation
        context += [text, reply["response"]]
    assert reply["annotations"] and reply["annotations"][0]["key"] == "item"
    assert any(a["intent"] == "OFFER" for a in reply["dialogue_acts"])
    assert reply["metadata"]["items"] and reply["metadata"]["events"]


def test_an_empty_context_starts_a_new_conversation_kept_out_of_the_study(make_client):
    client = make_client()
    a = client.post("/agent", json={"context": [], "message": "hello"}).json()["metadata"]["conversation_id"]
    b = client.post("/agent", json={"message": "hello"}).json()["metadata"]["conversation_id"]
    assert a != b
    login(client)
    figures = client.get("/console/api/figures").json()["figures"]
    assert figures["evaluator_conversations"] == 2 and figures["messages"] == 0 and figures["participants"] == 0
    assert client.get("/console/export/dataset?evaluator=1").json()[0]["message"] == "hello"


def test_one_feedback_click_per_evaluator_conversation(make_client):
    client = make_client()
    conversation = client.post("/agent", json={"message": "hello"}).json()["metadata"]["conversation_id"]
    first = client.post("/agent/feedback", json={"conversation_id": conversation, "feedback": "satisfied"})
    second = client.post("/agent/feedback", json={"conversation_id": conversation, "feedback": "frustrated"})
    assert first.json()["stored"] is True and second.json()["stored"] is False
    assert client.post("/agent/feedback", json={"conversation_id": "nope", "feedback": "satisfied"}).status_code == 404
    assert client.post("/agent/feedback", json={"conversation_id": conversation, "feedback": "x"}).status_code == 400
    login(client)
    figures = client.get("/console/api/figures").json()["figures"]
    assert figures["evaluator_satisfied"] == 1 and figures["satisfied"] == 0  # simulated users apart from people


def test_bad_requests_get_a_clear_json_error(make_client):
    client = make_client()
    for body in (
        [],
        {"message": ""},
        {"message": 3},
        {"message": "hi", "context": "x"},
        {"message": "hi", "context": [1]},
    ):
        answer = client.post("/agent", json=body)
        assert answer.status_code == 400 and "error" in answer.json(), body
    broken = client.post("/agent", content=b"{not json", headers={"content-type": "application/json"})
    assert broken.status_code == 400


def test_a_participant_conversation_cannot_be_reached_through_the_door(make_client):
    from tests.web.conftest import open_chat, say

    client = make_client()
    csrf = open_chat(client, "P1")
    reply = say(client, csrf, "I like Inception").json()["reply"]["text"]
    answer = client.post("/agent", json={"context": ["I like Inception", reply], "message": "recommend me a movie"})
    assert answer.json()["metadata"]["conversation_id"].startswith("sim-")
    assert all(t.text != "recommend me a movie" for t in client.app.state.web.store.turns("P1"))
