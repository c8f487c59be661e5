"""``corsbot nlu evaluate-conversations`` end to end (bot/cli/conversations.py): conversations played through the
dialog manager of ``corsbot chat`` on the fake services of the dialog tests, the oracle's answers, the presses,
the report and the last line; and the sample set on the real snapshots when they are built."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

import pytest

from bot.services import DomainServices, Services
from nlu.conversation_set import load_conversations
from recommender.recommend import Recommender
from tests.bot.dialog_fakes import FakeIntents, FakeKB, FakeLinker, FakeSentiment

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "conversations" / "sample.jsonl"
LAST_LINE = re.compile(
    r"conversations: n=\d+ turn_accuracy=\d\.\d{3} conversation_success=\d\.\d{3} polarity_errors=\d\.\d{3}"
    r" lost_preferences=\d\.\d{3} spurious=\d\.\d{3} recommendation_violations=\d+ questions_per_turn=\d\.\d{3}"
)
# the fake KB: Tom Cruise (Q200) actor and producer; The Avengers 2012 (Q5) and 1998 (Q6); Inception (Q1)
TALK = {
    "id": "movie-t1",
    "domain": "movie",
    "tags": ["person-role", "namesake", "hedge"],
    "turns": [
        {"text": "I love Tom Cruise", "expect": {"stored": [{"label": "Tom Cruise", "qid": "Q200", "role": "producer", "polarity": "+"}]}},
        {"text": "I like The Avengers", "expect": {"stored": [{"label": "The Avengers", "qid": "Q6", "polarity": "+"}]}},
        {"text": "I watched Inception", "expect": {"stored": [{"label": "Inception", "qid": "Q1", "polarity": "ask", "answer": "-"}]}},
        {"text": "recommend something", "expect": {"list": True}},
        {"press": "like", "expect": {"stored": [{"ref": "card", "polarity": "+"}], "list": True}},
        {"press": "why", "expect": {"intent": "request_recommendation - why"}},
        {"text": "reset", "expect": {"empty": ["movie"]}},
        {"press": "like"},
    ],
}  # fmt: skip
ASKED = {
    "id": "movie-t2",
    "domain": "movie",
    "tags": ["namesake"],
    "turns": [
        {"text": "I like The Avengers", "expect": {"asks": "item"}},  # the script answers, not the oracle
        {"text": "I love Christopher Nolan", "expect": {"stored": [{"label": "Christopher Nolan", "qid": "Q100", "polarity": "+"}]}},
        {"text": "I hate Top Gun", "expect": {"stored": [{"label": "Top Gun", "qid": "Q3", "polarity": "-"}], "asks": False}},
    ],
}  # fmt: skip


@pytest.fixture()
def services():
    kb = FakeKB()
    domain = DomainServices(kb=kb, linker=FakeLinker(kb), recommender=Recommender(kb))
    return Services(FakeIntents(), FakeSentiment(), lambda name: domain)


@pytest.fixture()
def fake_home(tmp_path, monkeypatch, services):
    import bot.compose

    monkeypatch.setenv("CORSBOT_HOME", str(tmp_path))
    monkeypatch.delenv("CORSBOT_ELICITATION", raising=False)
    monkeypatch.setattr(bot.compose, "load_services", lambda **kw: services)
    return tmp_path


def _file(tmp_path: Path, *conversations: object, name: str = "convs.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(c) + "\n" for c in conversations), encoding="utf-8")
    return path


def _play(services, path: Path, elicitation: str = ""):
    from bot.cli.conversations import Player, _lookup
    from bot.compose import build_dialog_manager
    from bot.store import StateStore
    from nlu.conversation_eval import check_conversation

    db = Path(tempfile.mkdtemp()) / "c.sqlite3"
    dm = build_dialog_manager(db=db, session="t", services=services, elicitation=elicitation, scratch=True)
    player = Player(dm, StateStore(db), services, prefix="t")
    return [(c, check_conversation(c, player.play(c), _lookup(services))) for c in load_conversations(path)]


def test_the_oracle_answers_the_questions_about_what_the_turn_expects(tmp_path, services):
    [(_c, result)] = _play(services, _file(tmp_path, TALK))
    role, item, confirm, listed, like, why, reset, stale = result.outcomes
    # which role: the entity's; which one: the option the bot names the 1998 film by; did you like it: no (answer -)
    assert [(a.kind, a.by, a.answer) for a in role.asked] == [("role", "oracle", "Producer")]
    assert role.after["movie"]["Q200"] == ("+", "P162")
    assert [(a.kind, a.answer) for a in item.asked] == [("item", "The Avengers (1998, science fiction film)")]
    assert confirm.asked[0].answer == "No" and confirm.after["movie"]["Q1"] == ("-", None)
    # the chat's default elicitation (highest for movies) asks about an item to rate: left open
    assert [(a.kind, a.by) for a in confirm.asked[1:]] == [("suggestion", "open")]
    assert [s.qid for s in listed.shown] == ["Q4"] and like.refs["card"] == ("Q4",)
    assert like.after["movie"]["Q4"] == ("+", None) and [s.qid for s in like.shown] == ["Q3"]
    assert why.intent == "request_recommendation - why" and why.shown == ()
    # a reset expected empty: the menu (everything) and its confirmation (yes)
    assert [(a.kind, a.answer) for a in reset.asked] == [("item", "Everything"), ("confirm", "Yes")]
    assert reset.after["movie"] == {}
    assert stale.problem == "no like button on screen"
    assert [t.ok for t in result.turns] == [True] * 7 + [False]


def test_a_question_the_script_answers_or_that_concerns_nothing_expected_is_left_open(tmp_path, services):
    [(_c, result)] = _play(services, _file(tmp_path, ASKED), elicitation="none")
    asked, named, hated = result.outcomes
    assert asked.asks == "item" and [(a.kind, a.by) for a in asked.asked] == [("item", "script")]
    assert "Q5" not in asked.after["movie"] and "Q6" not in asked.after["movie"]
    assert named.after["movie"]["Q100"] == ("+", "P57") and result.turns[1].ok  # the question is dropped aloud
    assert hated.asks is None and result.turns[2].ok
    assert result.ok


def test_next_taps_recommend_more_at_the_end_of_a_list_else_skip():
    from bot.cli.conversations import _button
    from bot.state import DialogState
    from bot.turns import Choice, Reply

    on_card = DialogState(rec_list=["Q1", "Q2"], rec_pos=0)
    assert _button("next", on_card, Reply("1/2")).payload == "skip:Q1"
    assert _button("details", on_card, Reply("1/2")).payload == "details:Q1"
    over = Reply("That was the last one", (Choice("Recommend more", "more"),))
    assert _button("next", DialogState(), over).payload == "more"
    assert _button("like", DialogState(), over) is None


def test_the_command_prints_breakdowns_failed_turns_the_report_and_the_last_line(fake_home, tmp_path, capsys):
    from bot.cli import main

    path = _file(tmp_path, TALK, ASKED)
    assert main(["nlu", "evaluate-conversations", str(path), "--errors", "5"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "dialog: as corsbot chat (elicitation movie=highest book=none music=none, role questions)"
    assert "convs.jsonl domain movie: conversations=2 turns=11 turn_accuracy=0.909 conversation_success=0.500" in out
    assert any(line.startswith("convs.jsonl tag namesake: conversations=2") for line in out)
    assert "  fail movie-t1 turn 8: '[press like]' -> no like button on screen" in out
    assert LAST_LINE.fullmatch(out[-1]) and out[-1].startswith("conversations: n=2 turn_accuracy=0.909")
    assert out[-2] == "convs.jsonl: " + out[-1]
    report = fake_home / "reports" / "nlu" / "conversations_convs.jsonl"
    rows = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    assert [(r["file"], r["id"], r["turn"], r["problems"]) for r in rows] == [
        ("convs.jsonl", "movie-t1", 8, ["no like button on screen"])
    ]


def test_several_files_a_line_each_and_one_report_at_report(fake_home, tmp_path, capsys):
    from bot.cli import main

    first, second = _file(tmp_path, TALK, name="a.jsonl"), _file(tmp_path, ASKED, name="b.jsonl")
    report = tmp_path / "out" / "failed.jsonl"
    report.parent.mkdir()
    args = ["nlu", "evaluate-conversations", str(first), str(second), "--report", str(report), "--elicitation", "none"]
    assert main(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "dialog: as corsbot chat (elicitation movie=none book=none music=none, role questions)"
    assert out[-3].startswith("a.jsonl: conversations: n=1 turn_accuracy=0.875")
    assert out[-2].startswith("b.jsonl: conversations: n=1 turn_accuracy=1.000")
    assert out[-1] == out[-2].removeprefix("b.jsonl: ")
    assert [json.loads(line)["file"] for line in report.read_text(encoding="utf-8").splitlines()] == ["a.jsonl"]
    assert not (fake_home / "reports" / "nlu").exists()


@pytest.mark.parametrize(
    ("files", "message"),
    [
        (["missing.jsonl"], "no conversation file at"),
        (["bad.jsonl"], r"bad\.jsonl:1: movie-t1 turn 1: unknown expectation 'stord'"),
        (["good.jsonl", "same.jsonl"], r"same\.jsonl:1: id 'movie-t1' is also in"),
    ],
)
def test_bad_input_is_one_error_line_and_exit_2(fake_home, tmp_path, capsys, files, message):
    from bot.cli import main

    _file(
        tmp_path,
        {"id": "movie-t1", "domain": "movie", "turns": [{"text": "a", "expect": {"stord": []}}]},
        name="bad.jsonl",
    )
    _file(tmp_path, TALK, name="good.jsonl")
    _file(tmp_path, TALK, name="same.jsonl")
    assert main(["nlu", "evaluate-conversations", *(str(tmp_path / f) for f in files)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("corsbot: error: ") and re.search(message, err[0])


def test_the_sample_set_on_the_real_snapshots(tmp_path, monkeypatch, capsys):
    """The sample conversations through the real models and snapshots of ``$CORSBOT_HOME`` (skipped when
    they are not built): the command runs them all and ends with the line."""
    from bot import paths
    from bot.cli import main

    needed = [paths.intent_model(), *(paths.kb_snapshot(d) / "kb.pack" for d in ("movie", "book", "music"))]
    missing = [p for p in needed if not p.exists()]
    if missing:
        pytest.skip(f"not built: {missing[0]} (make kb model)")
    monkeypatch.delenv("CORSBOT_ELICITATION", raising=False)
    assert main(["nlu", "evaluate-conversations", str(SAMPLE), "--report", str(tmp_path / "r.jsonl")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert LAST_LINE.fullmatch(out[-1]) and out[-1].startswith("conversations: n=3 ")


def test_a_report_in_a_missing_folder_is_refused_before_anything_runs(fake_home, tmp_path, capsys):
    from bot.cli import main

    path = _file(tmp_path, TALK)
    assert main(["nlu", "evaluate-conversations", str(path), "--report", str(tmp_path / "no" / "r.jsonl")]) == 2
    captured = capsys.readouterr()
    assert "give a file in an existing folder" in captured.err and captured.out == ""


def test_the_oracle_picks_the_person_a_critique_of_the_card_names(tmp_path, monkeypatch):
    """'I like it, but not the actors' on a card with two actors: "Which one do you mean?" is answered with
    one of the card's actors (a ``ref`` with a role), and the turn holds."""
    import tests.bot.dialog_fakes as fakes

    monkeypatch.setattr(fakes, "EDGES", [*fakes.EDGES, ("Q3", "P161", "Q100")])  # Nolan acts in Top Gun too
    kb = FakeKB()
    domain = DomainServices(kb=kb, linker=FakeLinker(kb), recommender=Recommender(kb))
    services = Services(FakeIntents(), FakeSentiment(), lambda name: domain)
    critique = {
        "id": "movie-t4",
        "domain": "movie",
        "turns": [
            {"text": "I love Tom Cruise", "expect": {"stored": [{"label": "Tom Cruise", "qid": "Q200", "role": "actor", "polarity": "+"}]}},
            {"text": "I like Mission: Impossible", "expect": {"stored": [{"label": "Mission: Impossible", "qid": "Q4", "polarity": "+"}]}},
            {"text": "I hate Dunkirk", "expect": {"stored": [{"label": "Dunkirk", "qid": "Q7", "polarity": "-"}]}},
            {"text": "recommend", "expect": {"list": True}},
            {"text": "I like it, but not the actors", "expect": {"stored": [{"ref": "card", "polarity": "+"}, {"ref": "card", "role": "actor", "polarity": "-"}]}},
        ],
    }  # fmt: skip
    [(_c, result)] = _play(services, _file(tmp_path, critique))
    listed, critiqued = result.outcomes[3:]
    assert [s.qid for s in listed.shown] == ["Q3"] and critiqued.refs["card:actor"] == ("Q200", "Q100")
    assert [(a.kind, a.by, a.answer) for a in critiqued.asked] == [("item", "oracle", "Tom Cruise (actor, producer)")]
    assert critiqued.after["movie"]["Q200"][0] == "-" and critiqued.after["movie"]["Q3"] == ("+", None)
    assert result.ok
