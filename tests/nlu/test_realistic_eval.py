"""Scoring of ``corsbot nlu evaluate-realistic`` (nlu/realistic_eval.py) and the test set's format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nlu.errors import NluError
from nlu.realistic_eval import GoldEntity, RealisticSentence, TurnOutcome, load_sentences, score

DEV = Path(__file__).resolve().parents[1] / "data" / "realistic" / "dev.jsonl"


def sentence(kind="preference", intent="preference", entities=(), **kw):
    return RealisticSentence(kw.get("id", "x"), "movie", "start", kind, intent, kw.get("text", "t"), entities, ())


def gold(label, qid, polarity="+"):
    return GoldEntity(label, "item", polarity, qid, label)


def test_the_line_and_each_metric():
    in_kb = lambda domain, qid: qid in {"Q1", "Q2", "Q3"}  # noqa: E731
    pairs = [
        (sentence(entities=(gold("A", "Q1"),)), TurnOutcome("preference", [("Q1", "+", False)])),
        # stored after a yes/no question: a gold "ask" is right only so
        (sentence(entities=(gold("B", "Q2", "ask"),)), TurnOutcome("preference", [("Q2", "+", True)], 1, True)),
        # a wrong entity stored for an intended one, and a stray question
        (sentence(entities=(gold("C", "Q3"),)), TurnOutcome("preference", [("Q9", "+", False)], 1, True, 1)),
        (sentence("other", "request_recommendation - why"), TurnOutcome("request_recommendation - why")),
        (sentence("other", "smalltalk.agent.bad"), TurnOutcome("smalltalk.appraisal.bad")),
        (sentence("other", "help"), TurnOutcome("preference", [("Q2", "+", False)])),
    ]
    s = score(pairs, in_kb)
    assert s.line() == (
        "sentences=6 preference_recall=1.000 linked_in_kb=0.667 wrong_links=0.333 polarity=1.000"
        " other_intents=0.667 spurious_mentions=0.333 questions_per_turn=0.333"
    )
    assert len(s.errors) == 2


def test_the_dev_half_loads_and_a_bad_line_is_named(tmp_path):
    sentences = load_sentences(DEV)
    assert len(sentences) >= 400 and {s.domain for s in sentences} == {"movie", "book", "music"}
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"id": "x"}) + "\n", encoding="utf-8")
    with pytest.raises(NluError, match="bad.jsonl:1"):
        load_sentences(bad)


def test_the_simulated_user_picks_the_option_that_describes_what_they_mean():
    """The options show no QIDs: the user of ``evaluate-realistic`` picks the one option that reads as the
    bot names the gold entity on its own (its year, director ...), else the first with its whole name."""
    from bot.cli.realistic import _answer
    from bot.turns import Choice, Reply

    options = ("Halloween (2007, film by Rob Zombie)", "Halloween (1978, film by John Carpenter)", "Halloween (series)")
    reply = Reply("Which?", tuple(Choice(o, f"pick:{k}@1") for k, o in enumerate(options)))
    meant = sentence(entities=(gold("Halloween", "Q221103"),))
    own = {"Q221103": "Halloween (1978, film by John Carpenter)"}.get
    assert _answer(reply, meant, set(), own) == (options[1], "pick:1@1")
    assert _answer(reply, meant, set(), None) == (options[0], "pick:0@1")  # no description: the first by name
    stubs = ("Moonlight (film, 1 of 2)", "Moonlight (film, 2 of 2)")  # nothing tells them apart: the first
    reply = Reply("Which?", tuple(Choice(o, f"pick:{k}@1") for k, o in enumerate(stubs)))
    assert (
        _answer(reply, sentence(entities=(gold("Moonlight", "Q2"),)), set(), lambda q: "Moonlight (film)")[0]
        == stubs[0]
    )
    # a longer name opening with the same word is not the entity's name ("Roma Maffia" for "Roma")
    reply = Reply("Which?", (Choice("Roma Maffia (actor)", "pick:0@1"), Choice("Roma (film)", "pick:1@1")))
    assert _answer(reply, sentence(entities=(gold("Roma", "Q27959455"),)), set(), None) == ("Roma (film)", "pick:1@1")


def test_a_merged_genre_of_the_gold_matches_the_genre_stored():
    """The KB merges near-duplicate genres (``KnowledgeBase.canonical``): the gold "crime fiction" QID
    is stored as the genre it became."""
    in_kb = lambda domain, qid: True  # noqa: E731
    merged = {"Q5937792": "Q208505"}
    pairs = [
        (sentence(entities=(gold("crime fiction", "Q5937792"),)), TurnOutcome("preference", [("Q208505", "+", False)]))
    ]
    assert score(pairs, in_kb).line().split()[2] == "linked_in_kb=0.000"
    assert score(pairs, in_kb, lambda d, q: merged.get(q, q)).line().split()[2] == "linked_in_kb=1.000"
