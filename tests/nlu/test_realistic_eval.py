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
