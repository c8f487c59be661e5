"""References to the card's people by role, and a critique read clause by clause (issue 22-C)."""

from __future__ import annotations

import pytest

from nlu.role_reference import card_contrast, role_spans, split_critique
from nlu.sentiment import SentimentRecognizer


@pytest.fixture(scope="module")
def polarity():
    sentiment = SentimentRecognizer()
    return lambda text: sentiment.message_polarity(text).value


@pytest.mark.parametrize(
    ("text", "domain", "pid", "words"),
    [
        ("the tune is fine but i can't stand the group behind it", "music", "P175", "the group behind it"),
        ("the drummer's fine, the singer herself grates", "music", "P175", "the singer herself"),
        ("solid film but the guy who directed it is awful", "movie", "P57", "the guy who directed it"),
        ("whoever wrote it needs an editor", "book", "P50", "whoever wrote it"),
        ("that novelist's prose is clunky", "book", "P50", "that novelist's"),
    ],
)
def test_role_spans(text, domain, pid, words):
    spans = role_spans(text, domain)
    assert spans and spans[0][2] == pid and text[spans[0][0] : spans[0][1]] == words


def test_parts_of_the_work_are_no_people():
    assert role_spans("the music was lovely but the film itself was dull", "movie") == []


@pytest.mark.parametrize(
    ("text", "domain", "card"),
    [
        ("the track itself is nice, i just can't get into the group behind it", "music", "+"),
        ("gorgeous tune, though i never warmed to that composer", "music", "+"),
        ("nice movie, but whoever wrote it, no thanks, can't stand that stuff", "movie", "+"),
        ("finished it. gripping plot, though that novelist's prose is clunky", "book", "+"),
        ("dull book, but i do love the author", "book", "-"),
    ],
)
def test_the_work_and_its_people_judged_apart(polarity, text, domain, card):
    assert card_contrast(text, domain, polarity) == card


@pytest.mark.parametrize(
    "text",
    [
        "looks fun but i've never liked that director",  # an impression of an unseen work
        "great film, who is the director?",  # a question
        "i love it and the director too",  # one opinion of both
        "i like the actors",
    ],
)
def test_no_contrast(polarity, text):
    assert card_contrast(text, "movie", polarity) is None


def test_a_message_opening_with_the_people():
    split = split_critique("the director is awful, but the film itself is fine", "movie")
    assert split is not None and split.role.startswith("the director") and "fine" in split.card
