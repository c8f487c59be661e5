"""``corsbot chat --jsonl``: the scripted interface (README), on the fake services of the dialog tests."""

from __future__ import annotations

import io
import json

import pytest

from bot.services import DomainServices, Services
from recommender.recommend import Recommender
from tests.bot.dialog_fakes import FakeIntents, FakeKB, FakeLinker, FakeSentiment


@pytest.fixture()
def fake_home(tmp_path, monkeypatch):
    import bot.compose

    kb = FakeKB()
    domain = DomainServices(kb=kb, linker=FakeLinker(kb), recommender=Recommender(kb))
    services = Services(FakeIntents(), FakeSentiment(), lambda name: domain)
    monkeypatch.setenv("CORSBOT_HOME", str(tmp_path))
    monkeypatch.setattr(bot.compose, "load_services", lambda **kw: services)
    return tmp_path


def _run(monkeypatch, capsys, lines):
    from bot.cli import main

    monkeypatch.setattr(
        "sys.stdin", io.StringIO("".join(json.dumps(x) + "\n" if not isinstance(x, str) else x for x in lines))
    )
    code = main(["chat", "--jsonl"])
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return code, out


def test_one_object_per_reply_with_the_logged_fields(fake_home, monkeypatch, capsys):
    code, out = _run(
        monkeypatch,
        capsys,
        [
            {"user": "a", "text": "I love Christopher Nolan"},
            {"user": "a", "text": "I like Tom Cruise"},
        ],
    )
    assert code == 0 and len(out) == 2
    assert out[0]["intent"] == "preference" and out[0]["recognizedObjects"] == "Q100+"
    assert out[0]["events"] == ["preference"] and out[0]["image"] is None
    assert set(out[0]) == {"user", "text", "choices", "image", "intent", "events", "recognizedObjects"}
    assert [c["payload"].split("@")[0] for c in out[1]["choices"]] == ["role:P161", "role:P162", "none"]


def test_a_press_answers_with_the_button_payload_and_bad_lines_get_an_error(fake_home, monkeypatch, capsys):
    from bot.cli.jsonl import chat_jsonl
    from bot.compose import build_dialog_manager

    dm = build_dialog_manager(db=fake_home / "db.sqlite3", session="t")
    lines = [
        json.dumps({"user": "a", "text": "I like Tom Cruise"}),  # question 1: actor or producer?
        json.dumps({"user": "a", "press": "role:P162@1"}),
        "not json",
        json.dumps({"user": "a"}),
        json.dumps({"user": "b", "text": "hello", "domain": "book"}),
    ]
    out = io.StringIO()
    assert chat_jsonl(dm, user="cli:local", domain="movie", stdin=io.StringIO("\n".join(lines)), stdout=out) == 0
    asked, pressed, bad, missing, switched = (json.loads(line) for line in out.getvalue().splitlines())
    assert "role:P162@1" in [c["payload"] for c in asked["choices"]]
    assert pressed["intent"] == "preference - disambiguation" and pressed["recognizedObjects"] == "Q200+"
    assert dm.last_records("a", 1)[0].message == "Producer" and dm.last_records("a", 1)[0].interaction_type == "mixed"
    assert bad == {"error": "line 3: not JSON"} and missing["error"].startswith("line 4: give exactly one of")
    assert dm.current_domain("b") == "book" and switched["user"] == "b"


def test_a_superscript_digit_is_text_not_a_button(fake_home, monkeypatch, capsys):
    """Field case (issue 17.6): '²' is a digit to str.isdigit but not to int()."""
    from bot.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("I love The Avengers\n²\n"))
    assert main(["chat"]) == 0
    assert capsys.readouterr().out.count("bot> ") == 3


def test_each_user_is_switched_to_the_domain_option_at_their_first_line(fake_home):
    from bot.cli.jsonl import chat_jsonl
    from bot.compose import build_dialog_manager

    dm = build_dialog_manager(db=fake_home / "db.sqlite3", session="t")
    earlier = [json.dumps({"user": "a", "text": "hello", "domain": "book"})]  # an earlier run left "a" in books
    chat_jsonl(dm, user="cli:local", domain="book", stdin=io.StringIO("\n".join(earlier)), stdout=io.StringIO())
    assert dm.current_domain("a") == "book"
    lines = [
        json.dumps({"user": "a", "text": "hello"}),  # first line of this run: switched to --domain movie
        json.dumps({"user": "b", "text": "hello", "domain": "music"}),  # the line's own domain wins
        json.dumps({"user": "a", "text": "hello", "domain": "book"}),
        json.dumps({"user": "a", "text": "hello"}),  # not the first line any more: stays in books
    ]
    out = io.StringIO()
    seen: list[str] = []
    real_handle = dm.handle

    def handle(turn):
        reply = real_handle(turn)
        seen.append(dm.current_domain(turn.user_id))
        return reply

    dm.handle = handle
    assert chat_jsonl(dm, user="cli:local", domain="movie", stdin=io.StringIO("\n".join(lines)), stdout=out) == 0
    assert len(out.getvalue().splitlines()) == 4  # the switches' replies are not written
    assert seen == ["movie", "movie", "music", "music", "book", "book", "book"]  # /movie a /music b /book a a
    assert dm.current_domain("a") == "book" and dm.current_domain("b") == "music"


def test_user_keys_blank_lines_and_presses_of_no_button_are_answered_in_line(fake_home):
    """Found by a fresh user: a blank line got no answer (the outputs no longer matched the inputs), a
    30,000-character user key was taken, and a reset button that was never shown was acted on."""
    from bot.cli.args import MAX_USER_KEY
    from bot.cli.jsonl import chat_jsonl
    from bot.compose import build_dialog_manager
    from bot.messages import STALE_QUESTION

    dm = build_dialog_manager(db=fake_home / "db.sqlite3", session="t")
    lines = [
        json.dumps({"text": "I love Christopher Nolan"}),  # no "user": the --user user's line
        "",
        "   ",
        json.dumps({"user": "x" * 30_000, "text": "hello"}),
        json.dumps({"user": "", "text": "hello"}),
        json.dumps({"user": "y" * MAX_USER_KEY, "text": "hello"}),
        json.dumps({"press": "reset:everything"}),  # no reset question on screen
        json.dumps({"text": "yes"}),
    ]
    out = io.StringIO()
    assert chat_jsonl(dm, user="cli:me", domain="movie", stdin=io.StringIO("\n".join(lines)), stdout=out) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == len(lines)  # one answer per input line, in order
    assert answers[0]["user"] == "cli:me" and answers[0]["recognizedObjects"] == "Q100+"
    assert answers[1] == {"error": "line 2: empty line (one JSON object per line)"}
    assert answers[2]["error"].startswith("line 3: empty line")
    assert answers[3] == {"error": "line 4: 'user': the user key is too long (30000 characters, at most 128)"}
    assert answers[4]["error"] == "line 5: 'user': the user key must not be empty"
    assert answers[5]["user"] == "y" * MAX_USER_KEY and "error" not in answers[5]
    assert answers[6]["text"] == STALE_QUESTION and answers[6]["intent"] == "Default Fallback Intent"
    assert "Q100" in dm._states.load("cli:me").profile()  # nothing was reset


def test_a_button_number_the_reply_does_not_have_is_said(fake_home, monkeypatch, capsys):
    """Found by a fresh user: '9' with 6 buttons was sent as a message ("Sorry, I didn't get that")."""
    from bot.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("I like Tom Cruise\n9\n0\n1\n"))
    assert main(["chat", "--user", "u"]) == 0
    out = capsys.readouterr().out.split("bot> ")[1:]
    assert out[1].count("[") == 3  # actor, producer, none of them
    assert out[2].startswith("There is no button 9: the last answer has buttons 1 to 3.")
    assert out[3].startswith("There is no button 0:")
    assert out[4].startswith("Got it: 👍 Tom Cruise")  # "1" still presses the first button (the question is open)


def test_the_user_key_option_is_bounded(fake_home, capsys):
    from bot.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["chat", "--user", "z" * 200])
    assert exc.value.code == 2
    assert "the user key is too long (200 characters, at most 128)" in capsys.readouterr().err
