"""Intent recognizer: API shapes, dialog state, bad input, persistence (issue 4)."""

from __future__ import annotations

import json
import time

import pytest

from nlu.errors import NluError
from nlu.intents import (
    DEFAULT_FALLBACK,
    REC_FALLBACK,
    IntentExample,
    IntentPrediction,
    IntentRecognizer,
    agent_examples,
    choose_threshold,
    fallback_intent,
    featurize,
    repair_text,
    smalltalk_examples,
)

REC = ("request_recommendation-followup",)
PREF = ("preference-followup",)


# ---------------------------------------------------------------- API shapes
def test_prediction_shape(inline_recognizer):
    pred = inline_recognizer.predict("i like tom cruise", ())
    assert isinstance(pred, IntentPrediction)
    assert pred.intent == "preference"
    assert 0.5 < pred.confidence <= 1.0
    assert 1 <= len(pred.alternatives) <= inline_recognizer.options["top_k"]
    names = [name for name, _ in pred.alternatives]
    probs = [p for _, p in pred.alternatives]
    assert names[0] == "preference"
    assert probs == sorted(probs, reverse=True)
    assert all(isinstance(n, str) and 0.0 <= p <= 1.0 for n, p in pred.alternatives)
    assert len(set(names)) == len(names)


def test_contexts_change_the_prediction(inline_recognizer):
    in_rec = inline_recognizer.predict("skip", REC)
    in_pref = inline_recognizer.predict("skip", PREF)
    assert in_rec.intent == "request_recommendation - skip"
    assert in_pref.intent == "skip"


def test_context_order_does_not_matter():
    a = featurize("I like it", ["b-followup", "a-followup"], ("question",))
    b = featurize("I like it", ("a-followup", "b-followup"), ["question"])
    assert a == b
    assert "ctx_a_followup" in a.split()
    assert "evt_question" in a.split()
    assert "ctx_none" in featurize("hi").split() and "evt_unknown" in featurize("hi").split()


def test_rare_words_are_marked():
    text = featurize("I like Zbigniew", (), (), known_words={"i", "like"})
    assert text.split().count("xxrare") == 1
    assert "ctx_none_xxrare" in text.split()


def test_rules_are_deterministic(inline_recognizer):
    assert inline_recognizer.predict("/start", REC) == IntentPrediction("start", 1.0, ())
    assert inline_recognizer.predict(" \\start ", ()).intent == "start"


def test_events_keyword_is_accepted(inline_recognizer):
    pred = inline_recognizer.predict(
        "actor", ("property_type_disambiguation", "preference-followup"), events=("question", "disambiguation")
    )
    assert pred.intent == "preference - disambiguation"


# ---------------------------------------------------------------- bad input (issue 4), one test each
def test_bad_input_negated_trailer(inline_recognizer):
    pred = inline_recognizer.predict("don't show me the trailer", REC)
    assert pred.intent in {"request_recommendation - trailer", "request_recommendation - skip", REC_FALLBACK}


def test_bad_input_not_in_the_mood(inline_recognizer):
    pred = inline_recognizer.predict("I'm not in the mood for horror", ())
    assert pred.intent in {"preference", DEFAULT_FALLBACK}


def test_bad_input_emoji_only(inline_recognizer):
    assert inline_recognizer.predict("👍", ()) == IntentPrediction(DEFAULT_FALLBACK, 1.0, ())
    assert inline_recognizer.predict("👍", REC).intent == REC_FALLBACK


def test_bad_input_gibberish(inline_recognizer):
    assert inline_recognizer.predict("asdfgh", ()).intent == DEFAULT_FALLBACK
    assert inline_recognizer.predict("asdfgh", REC).intent == REC_FALLBACK


def test_bad_input_whitespace_only(inline_recognizer):
    for text in ("", "   ", "\n\t ", None):
        assert inline_recognizer.predict(text, ()) == IntentPrediction(DEFAULT_FALLBACK, 1.0, ())


def test_bad_input_10000_characters(inline_recognizer):
    text = ("I like Tom Cruise and " * 500)[:10_000]
    started = time.perf_counter()
    pred = inline_recognizer.predict(text, ())
    elapsed = time.perf_counter() - started
    assert pred.intent == "preference"
    assert elapsed < 0.5


def test_mojibake_is_repaired():
    assert repair_text("I donâ€™t like it") == "I don’t like it"
    assert repair_text("plain text") == "plain text"
    assert featurize("I donâ€™t like it") == featurize("I don't like it")


# ---------------------------------------------------------------- fallback threshold
def test_low_confidence_goes_to_the_state_fallback(inline_recognizer):
    saved = inline_recognizer.options["fallback_threshold"]
    try:
        inline_recognizer.options["fallback_threshold"] = 1.01
        assert inline_recognizer.predict("i like tom cruise", ()).intent == DEFAULT_FALLBACK
        low = inline_recognizer.predict("i like it", REC)
        assert low.intent == REC_FALLBACK
        assert low.alternatives[0][0] == "request_recommendation - preference"
    finally:
        inline_recognizer.options["fallback_threshold"] = saved


def test_choose_threshold_maximises_accuracy():
    gold = ["a", "a", "F", "F"]
    pred = ["a", "a", "a", "a"]
    conf = [0.9, 0.8, 0.3, 0.2]
    assert choose_threshold(gold, pred, conf, ["F"] * 4) == pytest.approx(0.32)
    assert choose_threshold([], [], [], []) == 0.0


def test_fallback_intent_depends_on_state():
    assert fallback_intent(REC) == REC_FALLBACK
    assert fallback_intent(PREF) == DEFAULT_FALLBACK


# ---------------------------------------------------------------- training errors and extra data
def test_training_needs_two_intents():
    ex = [IntentExample("hi", (), "smalltalk.greetings.hello", "u", "movie", True)]
    with pytest.raises(NluError, match="two intents"):
        IntentRecognizer.train(ex)


def test_unknown_option_is_refused():
    ex = [IntentExample("hi", (), "a", "u", "movie", True), IntentExample("yo", (), "b", "u", "movie", True)]
    with pytest.raises(NluError, match="unknown intent-recognizer options: bogus"):
        IntentRecognizer.train(ex, bogus=1)


def test_smalltalk_phrases_load():
    phrases = smalltalk_examples()
    intents = {e.intent for e in phrases}
    assert {
        "smalltalk.greetings.hello",
        "smalltalk.greetings.bye",
        "smalltalk.appraisal.thank_you",
        "smalltalk.greetings.how_are_you",
        "smalltalk.agent.acquaintance",
        "smalltalk.agent.bad",
    } <= intents
    assert all(e.contexts == () and e.events is None for e in phrases)


def test_agent_phrases_carry_input_contexts(tmp_path):
    folder = tmp_path / "intents"
    folder.mkdir()
    (folder / "request_recommendation - skip.json").write_text(
        json.dumps({"name": "request_recommendation - skip", "contexts": ["request_recommendation-followup"]})
    )
    (folder / "request_recommendation - skip_usersays_en.json").write_text(
        json.dumps([{"data": [{"text": "skip "}, {"text": "this", "meta": "@x"}]}, {"data": [{"text": "  "}]}])
    )
    (ex,) = agent_examples(tmp_path)
    assert (ex.text, ex.contexts, ex.intent, ex.events) == (
        "skip this",
        ("request_recommendation-followup",),
        "request_recommendation - skip",
        None,
    )
    with pytest.raises(NluError, match="no DialogFlow intents folder"):
        agent_examples(tmp_path / "missing")


# ---------------------------------------------------------------- persistence
def test_save_load_round_trip(inline_recognizer, tmp_path):
    inline_recognizer.save(tmp_path / "model")
    loaded = IntentRecognizer.load(tmp_path / "model")
    assert loaded.labels == inline_recognizer.labels
    assert loaded.options == inline_recognizer.options
    for text, ctx in [("skip", REC), ("skip", PREF), ("i like tom cruise", ()), ("asdfgh", ()), ("why", REC)]:
        a, b = inline_recognizer.predict(text, ctx), loaded.predict(text, ctx)
        assert a.intent == b.intent
        assert a.confidence == pytest.approx(b.confidence, abs=1e-6)


def test_load_predicts_with_the_numpy_copy_of_the_weights(inline_recognizer, tmp_path):
    """The first load stores the textcat's weights as numpy arrays; the next one predicts with them,
    without the spaCy pipeline, exactly as spaCy does (same intent, confidence and alternatives)."""
    inline_recognizer.save(tmp_path / "model")
    first = IntentRecognizer.load(tmp_path / "model")
    assert (tmp_path / "model" / "textcat_bow.npz").is_file()
    second = IntentRecognizer.load(tmp_path / "model")
    assert second._scorer is not None and second._pipeline is None
    texts = ["skip", "i like tom cruise", "asdfgh", "why", "mark my words", "no", "I don't like it", "show me more"]
    for text in texts:
        for ctx, events in [(REC, ("recommendation",)), (PREF, ("question",)), ((), None), ((), ())]:
            a = inline_recognizer.predict(text, ctx, events=events, domain="movie")
            assert first.predict(text, ctx, events=events, domain="movie") == a
            assert second.predict(text, ctx, events=events, domain="movie") == a
    assert second._pipeline is None  # predicting never loaded spaCy's pipeline


def test_stale_or_broken_numpy_copy_is_ignored(inline_recognizer, tmp_path):
    inline_recognizer.save(tmp_path / "m")
    IntentRecognizer.load(tmp_path / "m")
    copy = tmp_path / "m" / "textcat_bow.npz"
    copy.write_bytes(b"garbage")
    loaded = IntentRecognizer.load(tmp_path / "m")  # spaCy again, and the copy made again
    assert loaded.predict("skip", REC) == inline_recognizer.predict("skip", REC)
    assert IntentRecognizer.load(tmp_path / "m")._pipeline is None
    inline_recognizer.save(tmp_path / "m")  # new weights: the old copy goes
    assert not copy.exists()


def test_load_missing_model(tmp_path):
    with pytest.raises(NluError, match="no intent model at .*corsbot nlu train"):
        IntentRecognizer.load(tmp_path / "nothing")


def test_load_corrupt_metadata(inline_recognizer, tmp_path):
    inline_recognizer.save(tmp_path / "m")
    (tmp_path / "m" / "recognizer.json").write_text("{not json")
    with pytest.raises(NluError, match="corrupt intent model"):
        IntentRecognizer.load(tmp_path / "m")


def test_load_corrupt_weights(inline_recognizer, tmp_path):
    inline_recognizer.save(tmp_path / "m")
    weights = tmp_path / "m" / "spacy" / "textcat" / "model"
    assert weights.is_file()
    weights.write_bytes(b"garbage")
    with pytest.raises(NluError, match="corrupt intent model"):
        IntentRecognizer.load(tmp_path / "m")


def test_load_other_format(inline_recognizer, tmp_path):
    inline_recognizer.save(tmp_path / "m")
    meta = json.loads((tmp_path / "m" / "recognizer.json").read_text())
    meta["format"] = "something-else"
    (tmp_path / "m" / "recognizer.json").write_text(json.dumps(meta))
    with pytest.raises(NluError, match="unknown format"):
        IntentRecognizer.load(tmp_path / "m")


def test_every_component_reads_the_repaired_text():
    """The shared normaliser repairs mojibake before NFKC, which would turn the "™" of "â€™" into
    "TM" (the linker then took "TMt" for a title); accents that are no mojibake stay."""
    from nlu.textnorm import normalize

    assert normalize("I donâ€™t like it") == "I don't like it"
    assert normalize("Ã‰dith Piaf and CafÃ© Society") == "Édith Piaf and Café Society"
    assert normalize("São Paulo, Motörhead, naïve") == "São Paulo, Motörhead, naïve"


def test_steadiness_is_the_share_every_retrain_answers_alike():
    """nlu evaluate's steadiness (issue 24): each fold's model is a retrain; agreement counts the probes
    every retrain answered alike, accuracy is the mean share answered with the gold intent."""
    from nlu.intent_eval import EvalResult

    probes = [
        IntentExample(t, (), intent, "probe", "movie", False) for t, intent in (("why?", "help"), ("hi", "start"))
    ]
    result = EvalResult([], [], [], [], [], [], [], [], probes=probes, probe_answers=[["help", "start"], ["help", "x"]])
    assert result.steadiness() == {"probes": 2, "probe_accuracy": 0.75, "probe_agreement": 0.5}
    assert EvalResult([], [], [], [], [], [], [], []).steadiness()["probes"] == 0
