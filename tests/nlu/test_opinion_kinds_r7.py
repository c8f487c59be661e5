"""Issue 22, seventh round: each entity gets the opinion of its own clause, by kind, with other items than the
conversation sets'. Colon verdicts ("X: loved it. Y: didn't do much for me"), a work that left no effect said with
the negation inside ("didn't do much for me", "can't say it did anything for me", "not feeling it", "never grabbed
me"), refusal verbs ("spare me X", "leave out X", "zero X"), aspects that do not flip the whole ("lovely but slow",
"great song but I'm sick of hearing it"), a hedge of the middle ("somewhere in between") and plural favourites."""

from __future__ import annotations

import pytest

from nlu.sentiment import SentimentRecognizer


@pytest.fixture(scope="module")
def sentiment() -> SentimentRecognizer:
    return SentimentRecognizer()


def _said(sentiment: SentimentRecognizer, text: str, *names: str) -> list[str]:
    """The polarity of each name of ``text`` (found by its first occurrence)."""
    spans = []
    for name in names:
        start = text.index(name)
        spans.append((start, start + len(name)))
    return [p.value for p in sentiment.polarities(text, spans)]


def test_a_list_of_colon_verdicts_is_read_name_by_name(sentiment):
    text = "Quick rundown. Jaws: loved it. Alien: didn't do much for me. Heat: haven't seen it yet."
    assert _said(sentiment, text, "Jaws", "Alien", "Heat") == ["+", "-", "0"]


def test_a_colon_before_names_is_no_verdict(sentiment):
    assert _said(sentiment, "my faves: Dune and Emma", "Dune", "Emma") == ["+", "+"]


@pytest.mark.parametrize(
    "text",
    [
        "watched it, didn't really do much for me",
        "can't say this one did much for me",
        "wasn't feeling it tbh",
        "it never really grabbed me",
        "that record gives me a headache",
        "I've never been able to stand it",
    ],
)
def test_a_work_that_left_no_effect_is_a_dislike(sentiment, text):
    assert sentiment.message_polarity(text).value == "-"


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("please spare me any Opera stuff", "Opera"),
        ("leave out anything Country, thanks", "Country"),
        ("zero Jazz pls", "Jazz"),
    ],
)
def test_a_refusal_verb_dislikes_what_it_names(sentiment, text, name):
    assert _said(sentiment, text, name) == ["-"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Vertigo, lovely but slow", "Vertigo"),
        ("Hey Jude, great tune but I'm so sick of hearing it", "Hey Jude"),
    ],
)
def test_an_aspect_does_not_flip_the_whole(sentiment, text, name):
    assert _said(sentiment, text, name) == ["+"]


def test_an_aspect_alone_still_counts(sentiment):
    assert sentiment.message_polarity("honestly it was slow").value == "-"


def test_a_work_in_between_is_a_hedge(sentiment):
    text = "adored Rebecca, hated Emma, and Persuasion was somewhere in between"
    assert _said(sentiment, text, "Rebecca", "Emma", "Persuasion") == ["+", "-", "0"]


def test_plural_favourites_like_each_name(sentiment):
    text = "Bach and Handel are favorites; Wagner I find tedious"
    assert _said(sentiment, text, "Bach", "Handel", "Wagner") == ["+", "+", "-"]
