"""Issue 22, fifth round (22-O): opinions in free wording, written with other items and other wordings than the
conversation sets'. "like" after a verb of perception compares ("it felt like homework": no liking), review
words judge ("filler", "a rip-off", "phoned in"), and "did it for me" / "left me rather cold" are stated."""

from __future__ import annotations

import pytest

from nlu.sentiment import Polarity
from tests.nlu.spans import spans_of

POS, NEG, NEU = Polarity.POSITIVE, Polarity.NEGATIVE, Polarity.NEUTRAL


@pytest.mark.parametrize(
    ("text", "names", "expected"),
    [
        (
            "the hobbit was wonderful, whereas the silmarillion felt like a tedious slog",
            ["the hobbit", "the silmarillion"],
            (POS, NEG),
        ),
        ("Jaws looked like a cheap rip-off to me", ["Jaws"], (NEG,)),
        ("heroes on the other hand sounds like filler to me", ["heroes"], (NEG,)),
        ("i like Arrival, it feels like home", ["Arrival"], (POS,)),
        ("Heat really did it for me", ["Heat"], (POS,)),
        ("Ronin didn't really do it for me", ["Ronin"], (NEG,)),
        ("I am rather fond of Persuasion, though Emma leaves me a bit cold", ["Persuasion", "Emma"], (POS, NEG)),
        ("Tenet felt overlong and bloated", ["Tenet"], (NEG,)),
    ],
)
def test_like_after_a_verb_of_perception_and_review_words(sentiment, text, names, expected):
    assert sentiment.polarities(text, spans_of(text, names)) == expected


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("westerns like Shane bore me to tears", ["Shane"]),
        ("Ulysses bored me stiff", ["Ulysses"]),
        ("honestly Kid A was boring me to death", ["Kid A"]),
    ],
)
def test_idioms_of_boredom_are_dislikes(sentiment, text, names):
    assert sentiment.polarities(text, spans_of(text, names)) == (NEG,)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("not terrible, but not great", NEU),
        ("not awful, not the best either", NEU),
        ("nothing special, not bad though", NEU),
        ("not bad", POS),  # a litotes alone still leans to a like (issue 22-F)
        ("not that great tbh", NEG),
    ],
)
def test_an_answer_leaning_both_ways_is_the_middle(sentiment, text, expected):
    assert sentiment.message_polarity(text) is expected
