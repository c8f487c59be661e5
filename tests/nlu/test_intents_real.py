"""Intent recognizer trained on the released movie NL messages (skipped without the shared data)."""

from __future__ import annotations

import pytest

from nlu.intents import DEFAULT_FALLBACK, REC_FALLBACK

REC = ("request_recommendation-followup",)
PREF = ("preference-followup",)
REC_EVENTS = ("question", "recommendation")


def test_skip_depends_on_the_state(movie_recognizer):
    assert (
        movie_recognizer.predict("skip", REC, events=REC_EVENTS, domain="movie").intent
        == "request_recommendation - skip"
    )
    assert movie_recognizer.predict("Skip this", PREF, events=("preference",), domain="movie").intent == "skip"


def test_disambiguation_answer_needs_the_open_question(movie_recognizer):
    state = ("property_type_disambiguation", "preference-followup")
    pred = movie_recognizer.predict("actor", state, events=("question", "preference", "disambiguation"), domain="movie")
    assert pred.intent == "preference - disambiguation"


def test_frequent_intents(movie_recognizer):
    assert movie_recognizer.predict("I like Tom Cruise", (), events=(), domain="movie").intent == "preference"
    assert (
        movie_recognizer.predict("why did you suggest this movie?", REC, events=REC_EVENTS, domain="movie").intent
        == "request_recommendation - why"
    )
    assert (
        movie_recognizer.predict("show my profile", PREF, events=("preference",), domain="movie").intent
        == "show_profile"
    )


def test_real_model_bad_inputs(movie_recognizer):
    assert movie_recognizer.predict("asdfgh", (), events=(), domain="movie").intent == DEFAULT_FALLBACK
    # with the movie NL file only, misspellings such as "Halp" make help a close second: both are
    # sensible answers to gibberish (the full model of `corsbot nlu train` gives the fallback)
    assert movie_recognizer.predict("asdfgh", REC, events=REC_EVENTS, domain="movie").intent in {
        REC_FALLBACK,
        "request_recommendation - help",
    }
    trailer = movie_recognizer.predict("don't show me the trailer", REC, events=REC_EVENTS, domain="movie")
    assert trailer.intent in {"request_recommendation - trailer", REC_FALLBACK, "request_recommendation - skip"}
    mood = movie_recognizer.predict("I'm not in the mood for horror", (), events=(), domain="movie")
    assert mood.intent in {"preference", DEFAULT_FALLBACK}
    assert movie_recognizer.predict("👍", REC).intent == REC_FALLBACK


@pytest.mark.parametrize("contexts", [(), REC])
def test_without_events_it_still_works(movie_recognizer, contexts):
    pred = movie_recognizer.predict("I like Tom Cruise" if not contexts else "I like it", contexts)
    assert pred.intent == ("preference" if not contexts else "request_recommendation - preference")
