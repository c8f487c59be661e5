"""Hedges with a connective inside (issue 22-H): "hit or miss", "take it or leave it" are one judgement, neither
split into two clauses nor read as a dislike from their last word; other clauses still split."""

from __future__ import annotations

import pytest

from nlu.sentiment import Polarity, SentimentRecognizer


@pytest.fixture(scope="module")
def sentiment() -> SentimentRecognizer:
    return SentimentRecognizer()


def _polarity(sentiment: SentimentRecognizer, text: str, name: str) -> Polarity:
    start = text.index(name)
    return sentiment.polarities(text, [(start, start + len(name))])[0]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Tarantino is hit and miss for me", "Tarantino"),
        ("honestly i could take or leave Coldplay", "Coldplay"),
        ("Blue Train, take it or leave it", "Blue Train"),
        ("im indifferent to Stephen King", "Stephen King"),
    ],
)
def test_a_hedge_with_a_connective_inside_is_neutral(sentiment, text, name):
    assert _polarity(sentiment, text, name) is Polarity.NEUTRAL


def test_other_connectives_still_split(sentiment):
    assert _polarity(sentiment, "i love Heat or at least i did, and i hate Ronin", "Ronin") is Polarity.NEGATIVE
