"""The intent recognizer's context gate (issue 22): a follow-up intent is a candidate only in the dialog
states its training examples were all said in."""

from __future__ import annotations

import json

import pytest

from nlu.intent_gate import gate, required_contexts
from nlu.intents import IntentExample, IntentRecognizer

RESET = "show_profile-reset-reset_properties-followup"


def _ex(text: str, intent: str, contexts: tuple[str, ...] = (), group: str = "g") -> IntentExample:
    return IntentExample(text, contexts, intent, group, "movie", True, ())


def test_required_contexts_are_the_ones_every_example_had():
    examples = [
        _ex("yes", "reset - reset_properties - yes", (RESET, "reset_profile-followup")),
        _ex("sure", "reset - reset_properties - yes", (RESET,)),
        _ex("yes", "smalltalk.confirmation.yes"),
        _ex("the first", "preference - disambiguation", ("preference-followup",)),
        _ex("the second", "preference - disambiguation"),  # a log that missed the open question
    ]
    assert required_contexts(examples) == {"reset - reset_properties - yes": [RESET]}


def test_gate_drops_the_intents_of_other_states_and_renormalises():
    scores = {"reset - reset_properties - yes": 0.5, "smalltalk.confirmation.yes": 0.3, "preference": 0.2}
    required = {"reset - reset_properties - yes": [RESET]}
    gated = gate(scores, (), required)
    assert set(gated) == {"smalltalk.confirmation.yes", "preference"}
    assert sum(gated.values()) == pytest.approx(1.0)
    assert gated["smalltalk.confirmation.yes"] == pytest.approx(0.6)
    assert gate(scores, (RESET,), required) == scores  # all admitted: unchanged


def test_boost_ranks_the_active_follow_up_first():
    scores = {"reset - reset_properties - yes": 0.3, "smalltalk.confirmation.yes": 0.5, "preference": 0.2}
    boosted = gate(scores, (RESET,), {"reset - reset_properties - yes": [RESET]}, boost=3.0)
    assert max(boosted, key=boosted.__getitem__) == "reset - reset_properties - yes"
    assert sum(boosted.values()) == pytest.approx(1.0)


def test_gate_keeps_the_scores_when_nothing_would_be_left():
    scores = {"a": 0.7, "b": 0.3}
    assert gate(scores, (), {"a": ["x"], "b": ["y"]}) == scores
    assert gate({}, (), {"a": ["x"]}) == {}


def _reset_examples() -> list[IntentExample]:
    out = []
    for i in range(6):
        out.append(_ex("yes", "reset - reset_properties - yes", (RESET,), f"r{i}"))
        out.append(_ex("yes", "smalltalk.confirmation.yes", (), f"s{i}"))
        out.append(_ex("yes please", "smalltalk.confirmation.yes", ("request_recommendation-followup",), f"c{i}"))
        out.append(_ex("i like heat", "preference", (), f"p{i}"))
    return out


def test_the_recognizer_never_answers_a_follow_up_outside_its_state(tmp_path):
    rec = IntentRecognizer.train(_reset_examples(), epochs=5, context_gate=True, fallback_threshold=0.0)
    assert rec.options["required_contexts"] == {"reset - reset_properties - yes": [RESET]}
    assert rec.predict("yes").intent == "smalltalk.confirmation.yes"
    assert all(name != "reset - reset_properties - yes" for name, _ in rec.predict("yes").alternatives)
    assert rec.predict("yes", (RESET,)).intent == "reset - reset_properties - yes"
    rec.save(tmp_path / "m")
    meta = json.loads((tmp_path / "m" / "recognizer.json").read_text(encoding="utf-8"))
    assert meta["options"]["required_contexts"] == {"reset - reset_properties - yes": [RESET]}
    loaded = IntentRecognizer.load(tmp_path / "m")
    assert loaded.predict("yes").intent == "smalltalk.confirmation.yes"


def test_without_the_gate_nothing_is_required():
    rec = IntentRecognizer.train(_reset_examples(), epochs=2, context_gate=False)
    assert rec.options["required_contexts"] == {}
