"""The successor study's suggestion protocol end to end (issue 13): suggestion -> like / dislike / skip /
new title / role words / recommend, in NL and mixed mode, logged as the study logs it; and the replay of
a small file in the successor study's format (no ``contexts``)."""

from __future__ import annotations

import json
import re

import pytest

from bot.dialog import DialogManager
from bot.services import DomainServices, Services
from bot.store import StateStore
from bot.turns import Turn
from logs.store import LogStore
from recommender.elicitation import Elicitor, RatingCounts
from recommender.recommend import Recommender
from tests.bot.dialog_fakes import FakeIntents, FakeKB, FakeLinker, FakeSentiment

INCEPTION, INTERSTELLAR, TOP_GUN, MISSION, DUNKIRK, MEMENTO = "Q1", "Q2", "Q3", "Q4", "Q7", "Q8"
NOLAN = "Q100"
# other users' logged likes: Dunkirk, then Memento, then Mission: Impossible are the most popular
RATINGS = RatingCounts.from_opinions([([DUNKIRK, MEMENTO, MISSION], []), ([DUNKIRK, MEMENTO], []), ([DUNKIRK], [])])


@pytest.fixture()
def services():
    kb = FakeKB()
    domain = DomainServices(kb=kb, linker=FakeLinker(kb), recommender=Recommender(kb))
    return Services(FakeIntents(), FakeSentiment(), lambda name: domain)


def _dm(tmp_path, services, strategy="popularity"):
    elicitors: dict[str, Elicitor] = {}

    def elicitation(domain: str):
        if strategy == "none":
            return None
        if domain not in elicitors:
            elicitors[domain] = Elicitor(services.domain(domain).recommender, RATINGS, strategy=strategy)
        return elicitors[domain]

    clock = iter(range(1_000_000, 10_000_000, 7))
    return DialogManager(
        services,
        StateStore(tmp_path / "db.sqlite3"),
        LogStore(tmp_path / "db.sqlite3"),
        session="test",
        clock=lambda: float(next(clock)),
        elicitation=elicitation,
    )


@pytest.fixture()
def dm(tmp_path, services):
    return _dm(tmp_path, services)


def _say(dm, text, payload=None, mixed=False, user="t:1"):
    return dm.handle(Turn(user, text, payload=payload, interaction_type="mixed" if mixed else "NL"))


def _last(dm, user="t:1"):
    return dm.last_records(user, 1)[0]


def _events(record):
    return set(filter(None, record.events.split(", ")))


def _three_preferences(dm, **kw):
    _say(dm, "I like Inception", **kw)
    _say(dm, "I like Interstellar", **kw)
    assert "suggestion" not in _events(_last(dm))  # the free-text phase: 3 preferences first
    return _say(dm, "I hate Top Gun", **kw)


def test_like_dislike_skip_new_title_and_recommend(dm):
    reply = _three_preferences(dm)
    rec = _last(dm)
    assert rec.intent == "preference" and _events(rec) == {"preference", "question", "suggestion"}
    assert "Do you like Dunkirk?" in reply.text and 'Say "I like it"' in reply.text and not reply.choices

    reply = _say(dm, "I like it")  # rates the suggested item, logged as the study logs it
    rec = _last(dm)
    assert (rec.intent, rec.recognized_objects) == ("preference", "Q7+")
    assert _events(rec) == {"preference", "question", "suggestion"} and "Do you like Memento?" in reply.text

    reply = _say(dm, "Skip")
    rec = _last(dm)
    assert (rec.intent, rec.recognized_objects) == ("skip", "")
    assert _events(rec) == {"question", "suggestion"} and "Do you like Mission: Impossible?" in reply.text

    _say(dm, "I don't like it")
    assert (_last(dm).intent, _last(dm).recognized_objects) == ("preference", "Q4-")

    # a new title is a new preference and ends the suggestion; a skipped item is never suggested again
    reply = _say(dm, "I love Memento")
    rec = _last(dm)
    assert (rec.intent, rec.recognized_objects) == ("preference", "Q8+")
    assert "Memento?" not in reply.text

    reply = _say(dm, "suggest me a movie")
    rec = _last(dm)
    assert rec.intent == "request_recommendation" and "recommendation" in _events(rec)
    assert "suggestion" not in _events(rec)
    _say(dm, "I like it")  # now about the card on screen, not a suggestion
    assert _last(dm).intent == "request_recommendation - preference"


def test_buttons_in_mixed_mode_and_stale_ones(dm):
    reply = _three_preferences(dm, mixed=True)
    payloads = [c.payload for c in reply.choices]
    assert [c.label for c in reply.choices] == ["👍 I like it", "👎 I don't like it", "⏭ Skip"]
    assert all(re.fullmatch(r"sugg:(\+|-|skip):Q7@\d+", p) for p in payloads)
    reply = _say(dm, "👎 I don't like it", payload=payloads[1], mixed=True)
    assert (_last(dm).intent, _last(dm).recognized_objects) == ("preference", "Q7-")
    assert "Do you like Memento?" in reply.text
    _say(dm, "👍 I like it", payload=payloads[0], mixed=True)  # the button of the older suggestion
    rec = _last(dm)
    assert rec.recognized_objects == "" and rec.intent == "Default Fallback Intent"
    skip = [c.payload for c in reply.choices][2]
    _say(dm, "⏭ Skip", payload=skip, mixed=True)
    assert _last(dm).intent == "skip"


def test_role_words_about_the_suggested_item_are_confirmed(dm):
    _three_preferences(dm)
    reply = _say(dm, "I like it and I like the director")
    rec = _last(dm)
    assert rec.recognized_objects == "Q7+" and {"question", "disambiguation"} <= _events(rec)
    assert "Christopher Nolan" in reply.text
    reply = _say(dm, "yes")
    assert _last(dm).recognized_objects == f"{NOLAN}+"
    assert "Do you like Memento?" in reply.text  # the next suggestion after the answer


def test_unrelated_turns_keep_the_suggestion_open_and_five_ratings_end_it(dm):
    _three_preferences(dm)
    reply = _say(dm, "blah blah")
    assert "Dunkirk" in reply.text and "suggestion" not in _events(_last(dm))
    _say(dm, "I like it")
    assert _last(dm).recognized_objects == "Q7+"
    seen = []
    for _ in range(6):
        reply = _say(dm, "I like it")
        seen.append(_last(dm).recognized_objects)
    # five rated suggestions, then no more (the original's numSuggestedItems)
    assert "suggestion" not in _events(_last(dm))
    assert len([s for s in seen if s]) == 4


def test_none_keeps_todays_behaviour(tmp_path, services):
    dm = _dm(tmp_path, services, strategy="none")
    reply = _three_preferences(dm)
    assert "suggestion" not in _events(_last(dm)) and "Do you like" not in reply.text
    _say(dm, "I like it")
    assert _last(dm).recognized_objects == ""


def test_no_role_questions_when_configured(tmp_path, services):
    dm = DialogManager(services, StateStore(tmp_path / "a.db"), LogStore(tmp_path / "a.db"), role_questions=False)
    dm.handle(Turn("u", "I like Tom Cruise"))
    rec = dm.last_records("u", 1)[0]
    assert rec.recognized_objects == "Q200+" and "disambiguation" not in rec.events


# ---------------------------------------------------------------------------------------- replay


def _record(mid, user, message, intent, objects="", events="", to_check=False):
    return {
        "messageID": str(mid),
        "userID": user,
        "message": message,
        "timestampStart": 1_600_000_000_000 + mid * 1000,
        "timestampEnd": 1_600_000_000_000 + mid * 1000,
        "intent": intent,
        "toCheck": to_check,
        "recognizedObjects": objects,
        "events": events,
        "pagerankCycle": 0,
        "numberRecommendationList": 0,
        "interactionType": "mixed",
    }


def test_replay_of_a_successor_study_file(tmp_path, monkeypatch, capsys, services):
    import bot.compose
    from bot import cli

    shared = tmp_path / "shared"
    folder = shared / "jiis" / "popularity"
    folder.mkdir(parents=True)
    other = shared / "jiis" / "item2item"
    other.mkdir(parents=True)
    # the other condition's users make Dunkirk, then Memento the popular films
    (other / "messages.json").write_text(
        json.dumps([_record(1, 9, "x", "preference", "Q7+, Q8+"), _record(2, 8, "x", "preference", "Q7+")])
    )
    study = folder / "messages.json"
    study.write_text(  # no "contexts" field, as released
        json.dumps(
            [
                _record(1, 1, "I like Inception", "preference", "Q1+", "preference"),
                _record(2, 1, "I like Interstellar", "preference", "Q2+", "preference"),
                _record(3, 1, "I hate Top Gun", "preference", "Q3-", "preference, question, suggestion"),
                _record(4, 1, "I like it", "preference", "Q7+", "preference, question, suggestion"),
                _record(5, 1, "Skip", "skip", "", "question, suggestion", to_check=True),
                _record(6, 1, "I like it", "preference", "Q4+", "preference, question, suggestion"),
            ]
        )
    )
    monkeypatch.setenv("CORSBOT_SHARED", str(shared))
    monkeypatch.setenv("CORSBOT_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(bot.compose, "load_services", lambda **kw: services)
    code = cli.main(["replay", str(study), "--report", str(tmp_path / "report")])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "elicitation=popularity events_agreement_without_suggestion=" in out
    # Dunkirk, then (Memento skipped) Mission: Impossible: the popularity order of the other condition's
    # users and the KB degree, as the logged answers rated them
    assert "suggestion_turns=4 ours=4 same_turn=4 suggestion_answers=2 same_item=2 suggestion_overlap=1.000" in out
    assert re.search(
        r"^replay: messages=6 exceptions=0 intent_agreement=1\.000 intent_agreement_validated=1\.000 "
        r"events_agreement=1\.000",
        out,
        re.M,
    ), out
    report = json.loads((tmp_path / "report" / "report.json").read_text())
    assert report["extra"]["suggestions"]["suggestion_answers"] == 2


def test_a_bad_elicitation_setting_is_one_clear_error(tmp_path, monkeypatch, capsys):
    from bot import cli

    monkeypatch.setenv("CORSBOT_HOME", str(tmp_path))
    assert cli.main(["chat", "--elicitation", "often"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("corsbot: error: unknown elicitation strategy 'often'") and "\n" not in err
    monkeypatch.setenv("CORSBOT_ELICITATION", "films=popularity")
    assert cli.main(["chat"]) == 2
    assert "domain among movie, book, music" in capsys.readouterr().err


# ------------------------------------------------------------------- what is on screen decides


def test_a_bare_name_right_after_the_preference_refines_it_and_the_suggestion_stays(dm):
    _say(dm, "I like Inception")
    _say(dm, "I hate Top Gun")
    assert "Do you like Dunkirk?" in _say(dm, "I like Interstellar").text
    reply = _say(dm, "Interstellar")  # the name of what was just said: a refinement, not a new question
    rec = _last(dm)
    assert (rec.intent, rec.recognized_objects) == ("preference - disambiguation", "Q2+")
    assert "Do you like Dunkirk?" in reply.text and "Did you like" not in reply.text
    _say(dm, "I like it")
    assert (_last(dm).intent, _last(dm).recognized_objects) == ("preference", "Q7+")


def test_card_questions_about_the_suggested_item_are_answered_and_it_is_asked_again(dm):
    _three_preferences(dm)
    reply = _say(dm, "Can I watch the trailer?")
    rec = _last(dm)
    assert rec.intent == "Default Fallback Intent" and "recommendation" not in _events(rec)
    assert "Dunkirk" in reply.text.split("\n")[0] and reply.text.endswith("Do you like Dunkirk?")
    reply = _say(dm, "give me some details")
    assert "war film" in reply.text and reply.text.endswith("Do you like Dunkirk?")
    # the same details as the card of a list: the people by role too, not a reduced copy
    assert "Christopher Nolan" in reply.text
    _say(dm, "I don't like it")
    assert _last(dm).recognized_objects == "Q7-"


def test_i_like_it_answers_the_open_preference_question(tmp_path, services):
    dm = _dm(tmp_path, services, strategy="none")
    assert "Did you like Memento?" in _say(dm, "I watched Memento").text
    reply = _say(dm, "I like it")
    rec = _last(dm)
    assert (rec.intent, rec.recognized_objects) == ("preference", "Q8+") and "Memento" in reply.text
    _say(dm, "I like The Avengers")  # "Which The Avengers do you mean?"
    reply = _say(dm, "I love it")  # which one is "it"? asked again, nothing stored, no small talk
    rec = _last(dm)
    assert (rec.intent, rec.recognized_objects) == ("preference", "")
    assert "which one you mean" in reply.text and "Still open" in reply.text
    _say(dm, "the 1998 one")
    assert (_last(dm).intent, _last(dm).recognized_objects) == ("preference - disambiguation", "Q6+")
