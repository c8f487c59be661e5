"""A self-correction's opinion of what was just stored, said by reference (issue 22-H): "scratch that, it was dumb"
revises the previous turn; an opinion of a name ("actually i loved X") or no reference revises nothing."""

from __future__ import annotations

import pytest

from nlu.sentiment import SentimentRecognizer
from nlu.turn_cues import revised_opinion


@pytest.fixture(scope="module")
def polarity():
    sentiment = SentimentRecognizer()
    return lambda text: sentiment.message_polarity(text).value


@pytest.mark.parametrize(
    ("content", "first_name", "expected"),
    [
        ("it was boring honestly. Ronin is better", 24, "-"),
        ("that one was actually great", None, "+"),
        ("i loved Ronin", 8, None),  # the opinion is of the name
        ("the weather is terrible", None, None),  # no reference to what was stored
        ("I AM a fan. Vogue is a classic", 12, "+"),  # the speaker's stance, before any name: what was stored
        ("i do like them honestly", None, "+"),
        ("I was thinking of the band. Muse is great", 28, None),  # no opinion in the first sentence
    ],
)
def test_a_revision_by_reference(polarity, content, first_name, expected):
    assert revised_opinion(content, first_name, polarity) == expected
