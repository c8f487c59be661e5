"""Misspelt opinion words (issue 22, real people's "X and Y were giid"): one slip of the keyboard from a
one-word cue of the lexicon is read as that cue; English words and ambiguous slips stay as typed."""

from __future__ import annotations

import pytest

from nlu.cue_spelling import CueSpeller, one_slip
from nlu.sentiment import Polarity, SentimentRecognizer


@pytest.mark.parametrize(
    ("typed", "cue", "slip"),
    [
        ("giid", "good", True),  # two neighbouring keys
        ("amazng", "amazing", True),  # a letter left out
        ("greeat", "great", True),  # a letter doubled in
        ("liek", "like", True),  # two letters swapped
        ("gpod", "good", True),
        ("gaad", "good", False),  # "a" is no neighbour of "o"
        ("boringly", "boring", False),  # two letters more
    ],
)
def test_one_slip(typed, cue, slip):
    assert one_slip(typed, cue) is slip


def test_only_unknown_words_with_one_close_cue_are_respelt():
    speller = CueSpeller(["good", "great", "gold", "boring", "like", "love"])
    assert speller.respell("heat and ronin were giid") == "heat and ronin were good"
    assert speller.respell("heat was a goof") == "heat was a goof"  # an English word
    assert speller.respell("the food was good") == "the food was good"


@pytest.fixture(scope="module")
def sentiment() -> SentimentRecognizer:
    return SentimentRecognizer()


@pytest.mark.parametrize(
    ("text", "names", "expected"),
    [
        ("Ronin and Collateral were giid", ("Ronin", "Collateral"), (Polarity.POSITIVE, Polarity.POSITIVE)),
        ("Heat was amazng", ("Heat",), (Polarity.POSITIVE,)),
        ("Insomnia was so borin", ("Insomnia",), (Polarity.NEGATIVE,)),
    ],
)
def test_a_misspelt_cue_is_an_opinion(sentiment, text, names, expected):
    spans = [(text.index(n), text.index(n) + len(n)) for n in names]
    assert sentiment.polarities(text, spans) == expected


def test_an_eight_spoken_for_its_sound_is_read_as_the_cue():
    speller = CueSpeller(["great", "hate", "hated", "good"])
    assert speller.respell("that album was gr8") == "that album was great"
    assert speller.respell("i h8 it, h8ed every page") == "i hate it, hated every page"
    assert speller.respell("k8 and m8 were there, 8/10") == "k8 and m8 were there, 8/10"  # no cue: as typed


def test_an_eight_cue_judges_the_card(sentiment):
    assert sentiment.has_cue("listened to it, gr8 record") and sentiment.has_cue("ugh i h8 this one")
