"""Security of the web channel (issue 26): the console closed without the secret on every route, CSRF
on every post, a participant's chat closed to other browsers, request size and rate limits, headers."""

from __future__ import annotations

import pytest
from starlette.routing import Route

from bot.channels.web import chat, console
from bot.channels.web.study import StudyConfig
from tests.web.conftest import TOKEN, csrf_of, login, open_chat, say


def _console_routes() -> list[tuple[str, str]]:
    out = []
    for route in console.routes():
        assert isinstance(route, Route)
        path = route.path.replace("{pid}", "P1").replace("{message_id}", "1-1").replace("{kind}", "dataset")
        for method in sorted(route.methods or ()):
            if method != "HEAD" and not path.startswith("/console/login"):
                out.append((method, path))
    return out


@pytest.mark.parametrize(("method", "path"), _console_routes())
def test_every_console_route_is_closed_without_the_secret(make_client, method, path):
    client = make_client()
    csrf = open_chat(client)  # a participant's session (with a CSRF token) is no console session
    answer = client.request(method, path, data={"csrf": csrf} if method == "POST" else None)
    if method == "GET" and not path.startswith(("/console/api", "/console/export")):
        assert answer.status_code == 303 and answer.headers["location"] == "/console/login"
    else:
        assert answer.status_code == 401
    assert "P1" not in answer.text and "Inception" not in answer.text


def test_every_export_kind_is_closed_without_the_secret(make_client):
    client = make_client()
    for kind in ("dataset", "dataset-corrected", "sgd"):
        assert client.get(f"/console/export/{kind}").status_code == 401
        assert client.get(f"/console/export/{kind}?evaluator=1").status_code == 401


def test_a_wrong_token_or_none_configured_never_opens_the_console(make_client):
    client = make_client()
    csrf = csrf_of(client.get("/console/login").text)
    wrong = client.post("/console/login", data={"csrf": csrf, "token": TOKEN + "x"})
    assert wrong.status_code == 401 and client.get("/console").status_code == 303
    closed = make_client(console_token=None)
    page = closed.get("/console/login").text
    assert "CORSBOT_CONSOLE_TOKEN" in page and 'name="token"' not in page
    csrf = csrf_of(page)
    assert closed.post("/console/login", data={"csrf": csrf, "token": ""}).status_code == 401
    assert closed.get("/console/api/figures").status_code == 401


def test_the_token_in_the_url_does_not_log_in(make_client):
    client = make_client()
    assert client.get(f"/console?token={TOKEN}").status_code == 303
    assert client.get(f"/console/login?token={TOKEN}").status_code == 200
    assert client.get("/console/api/figures").status_code == 401


def test_the_session_cookie_is_httponly_samesite_and_holds_no_token(make_client):
    client = make_client()
    csrf = csrf_of(client.get("/console/login").text)
    answer = client.post("/console/login", data={"csrf": csrf, "token": TOKEN})
    cookie = next(h for k, h in answer.headers.multi_items() if k == "set-cookie")
    assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()
    assert TOKEN not in cookie


def test_posts_without_the_csrf_token_are_refused(make_client):
    client = make_client()
    csrf = open_chat(client)
    for path in ("/chat/send", "/chat/feedback", "/chat/finish", "/chat/consent"):
        answer = client.post(path, data={"pid": "P1", "text": "hi", "value": "satisfied", "agree": "yes"})
        assert answer.status_code == 403, path
        assert client.post(path, data={"csrf": csrf + "x", "pid": "P1", "text": "hi"}).status_code == 403, path
    console_csrf = login(client)
    for path in ("/console/review/1-1", "/console/retrain", "/console/promote", "/console/logout"):
        assert client.post(path, data={"intent": "preference"}).status_code == 403, path
    assert client.post("/console/login", data={"token": TOKEN}).status_code == 403
    assert console_csrf


def test_a_participant_id_cannot_read_or_write_another_participants_chat(make_client):
    client = make_client()
    csrf = open_chat(client, "ALICE")
    say(client, csrf, "I like Inception secretly", pid="ALICE")
    other = make_client()  # another browser: no cookie
    page = other.get("/chat?pid=ALICE")
    assert page.status_code == 403 and "secretly" not in page.text
    other_csrf = csrf_of(page.text)
    assert say(other, other_csrf, "hijack", pid="ALICE").status_code == 403
    own_csrf = open_chat(other, "BOB")
    assert say(other, own_csrf, "hijack", pid="ALICE").status_code == 403
    assert all(t.text != "hijack" for t in client.app.state.web.store.turns("ALICE"))


def test_bad_participant_ids_are_refused(make_client):
    client = make_client()
    for pid in ("a" * 65, "x y", "<script>", "../etc"):
        assert client.get("/chat", params={"pid": pid}).status_code == 400


def test_request_bodies_over_the_limit_get_413(make_client):
    client = make_client(max_body_bytes=2048)
    csrf = open_chat(client)
    big = client.post("/chat/send", data={"csrf": csrf, "pid": "P1", "text": "x" * 5000})
    assert big.status_code == 413
    chunked = client.post(
        "/agent", content=(b"x" * 1000 for _ in range(5)), headers={"content-type": "application/json"}
    )
    assert chunked.status_code == 413


def test_long_messages_are_refused_with_a_message(make_client):
    client = make_client(max_text_chars=50)
    csrf = open_chat(client)
    assert say(client, csrf, "y" * 51).status_code == 413
    assert client.post("/agent", json={"context": [], "message": "y" * 51}).status_code == 413


def test_rates_are_bounded_per_participant_per_address_and_for_logins(make_client):
    client = make_client(turn_rate=0.001, turn_burst=2)
    csrf = open_chat(client)
    codes = [say(client, csrf, f"I like Inception {i}").status_code for i in range(4)]
    assert codes[:2] == [200, 200] and codes[2:] == [429, 429]
    busy = make_client(ip_rate=0.001, ip_burst=3)
    assert [busy.get("/healthz").status_code for _ in range(5)] == [200, 200, 200, 429, 429]
    logins = make_client(login_rate=0.001, login_burst=2)
    csrf = csrf_of(logins.get("/console/login").text)
    tries = [logins.post("/console/login", data={"csrf": csrf, "token": "nope-nope"}).status_code for _ in range(4)]
    assert tries == [401, 401, 429, 429]
    new = make_client(new_rate=0.001, new_burst=1)
    new.get("/chat?pid=N1")
    new.cookies.clear()
    assert new.get("/chat?pid=N2").status_code == 429


def test_security_headers_are_on_every_response(make_client):
    client = make_client()
    for path in ("/chat?pid=H1", "/console/login", "/healthz", "/agent"):
        headers = client.get(path).headers
        assert "script-src 'self'" in headers["content-security-policy"], path
        assert headers["x-frame-options"] == "DENY" and headers["x-content-type-options"] == "nosniff"


def test_the_evaluator_door_wants_json_and_is_off_when_the_study_says_so(make_client):
    client = make_client()
    form = client.post("/agent", data={"message": "hi"})
    assert form.status_code == 415
    off = make_client(StudyConfig(evaluator=False))
    assert off.get("/agent").status_code == 404 and off.post("/agent", json={"message": "hi"}).status_code in (404, 405)


def test_the_chat_routes_are_the_documented_ones():
    assert {r.path for r in chat.routes()} == {"/chat", "/chat/consent", "/chat/send", "/chat/feedback", "/chat/finish"}


def test_errors_to_the_pages_script_are_json_with_a_readable_message(make_client):
    """Found by a fresh user: with ``Accept: application/json`` (the page's script) the errors were HTML
    pages, so the script could only say "That did not work (403)"."""
    client = make_client(max_body_bytes=2048, max_text_chars=50)
    csrf = open_chat(client)
    json_ = {"Accept": "application/json"}
    expired = client.post("/chat/send", data={"csrf": "wrong", "pid": "P1", "text": "hi"}, headers=json_)
    assert expired.status_code == 403 and expired.headers["content-type"] == "application/json"
    assert expired.json()["error"] == "This page expired; reload it and try again."
    long = say(client, csrf, "y" * 51)
    assert long.status_code == 413 and long.json()["error"] == "Messages are limited to 50 characters."
    big = client.post("/chat/send", data={"csrf": csrf, "pid": "P1", "text": "x" * 5000}, headers=json_)
    assert big.status_code == 413 and big.json() == {"error": "That was too much to send at once."}
    page = client.post("/chat/send", data={"csrf": "wrong", "pid": "P1", "text": "hi"})  # a form post: a page
    assert page.status_code == 403 and page.headers["content-type"].startswith("text/html")


def test_a_rate_limited_post_of_the_script_gets_a_json_429(make_client):
    client = make_client()
    csrf = open_chat(client)
    client.app.state.web.limits["turn"].allow = lambda key: False
    slow_down = say(client, csrf, "hello")
    assert slow_down.status_code == 429 and "Retry-After" in slow_down.headers
    assert slow_down.json()["error"] == "You are going a bit fast: wait a moment and send it again."


def test_a_20_mb_post_over_a_socket_gets_413_not_a_reset(tmp_path, monkeypatch):
    """Found by a fresh user: answered before its body was read, a 20 MB post saw the connection reset
    (the client was still sending) instead of the 413."""
    import urllib.error
    import urllib.request

    from bot.channels.web.app import WebConfig, build_app
    from bot.channels.web.dialogs import StudyDialogs
    from bot.channels.web.server import start_in_thread
    from bot.channels.web.study import StudyConfig
    from tests.web.conftest import fake_services

    monkeypatch.setenv("CORSBOT_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CORSBOT_DATABASE_URL", raising=False)
    study, db = StudyConfig(), tmp_path / "corsbot.sqlite3"
    config = WebConfig(study=study, database=db, signing_key=b"k" * 48, home=tmp_path / "home")
    server = start_in_thread(build_app(config, StudyDialogs(db=db, study=study, services=fake_services())))
    try:
        for accept, expected in (("application/json", b'{"error": "That was too much to send at once."}'),
                                 ("text/html", b"request too large")):  # fmt: skip
            request = urllib.request.Request(server.url + "/chat/send", data=b"x" * (20 * 1024 * 1024),
                                             headers={"Accept": accept})  # fmt: skip
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=30)  # noqa: S310 - 127.0.0.1
            assert refused.value.code == 413 and refused.value.read() == expected
    finally:
        server.stop()
