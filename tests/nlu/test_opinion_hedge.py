"""The learned hedge reader (issue 22, fifth round, 22-O): a like said with doubt, a lost memory, a work not yet
read or a question of its worth is asked about, not stored. Measured on the held-back part of its own data, and
tried on wordings of this test (other items and wordings than the conversation sets')."""

from __future__ import annotations

import pytest

from nlu.opinion_hedge import HEDGE_THRESHOLD, HedgeModel, examples
from nlu.sentiment import Polarity
from tests.nlu.spans import spans_of

POS, NEG, NEU = Polarity.POSITIVE, Polarity.NEGATIVE, Polarity.NEUTRAL


def test_held_back_sentences_are_read_with_few_false_hedges():
    model = HedgeModel.trained()
    texts, labels = examples(heldout=True)
    said = [model.hedged(t) for t in texts]
    true_hedges = sum(1 for s, y in zip(said, labels, strict=True) if s and y)
    false_hedges = sum(1 for s, y in zip(said, labels, strict=True) if s and not y)
    assert len(texts) >= 60 and 0 < HEDGE_THRESHOLD < 1
    assert true_hedges / max(1, true_hedges + false_hedges) >= 0.9  # 1.0 (10 of 10) when written
    assert true_hedges / sum(labels) >= 0.3  # 0.36 when written: it only needs to catch the clear ones


@pytest.mark.parametrize(
    ("text", "names", "expected"),
    [
        ("I also read Moby Dick ages ago but honestly I barely remember it", ["Moby Dick"], (NEU,)),
        ("Ulysses is next on my to-read pile, is it worth it?", ["Ulysses"], (NEU,)),
        ("I think I enjoyed Dracula, not completely sure though", ["Dracula"], (NEU,)),
        ("Stephen King as a writer I'm ambivalent about", ["Stephen King"], (NEU,)),
        ("i loved Rebecca, i think? honestly cant remember much", ["Rebecca"], (NEU,)),
        # verdicts stay verdicts
        ("I loved Rebecca, what else have you got?", ["Rebecca"], (POS,)),
        ("I think Persuasion is wonderful", ["Persuasion"], (POS,)),
        ("read Emma last year and still think about it, amazing", ["Emma"], (POS,)),
        ("Heat is brilliant, no doubt about it", ["Heat"], (POS,)),
        ("Dracula is overrated", ["Dracula"], (NEG,)),
    ],
)
def test_a_like_said_with_doubt_is_asked_about(sentiment, text, names, expected):
    assert sentiment.polarities(text, spans_of(text, names)) == expected


@pytest.mark.parametrize(
    ("text", "withdraws"),
    [
        ("scratch that", True),
        ("hmm actually scratch that last one, wrong album", True),
        ("undo my last answer", True),
        ("take that back", True),
        ("scratch what i said about heat", False),  # names its object: a retraction of that
        ("forget it", False),  # a dismissal, not a take-back
        ("forget everything about me", False),
        ("delete my profile", False),
    ],
)
def test_a_take_back_naming_nothing(text, withdraws):
    from nlu.turn_cues import withdraws_last

    assert withdraws_last(text) is withdraws


@pytest.mark.parametrize(
    ("text", "reversed_"),
    [
        ("oops, other way round", True),
        ("it's the reverse, sorry", True),
        ("i got them backwards", True),
        ("I swapped them around", True),
        ("something the opposite of that", False),
        ("i mixed up the dates in my head", False),
    ],
)
def test_opinions_the_wrong_way_round(text, reversed_):
    from nlu.turn_cues import reverses

    assert reverses(text) is reversed_
