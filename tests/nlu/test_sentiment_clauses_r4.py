"""Issue 22, fourth round (22-O): each entity gets the opinion of its own clause, written with other items and
other wordings than the conversation sets'. A comparison sign ("A > B": the greater one is liked, the other only
the standard), emoji typed as punctuation end a clause, a refusal spreads over "or" ("please" is no liking), a
contrast said as "on the other hand", "X is the exception" (not the opinion before it), a concession without a
comma ("great even if ..."), someone else's opinion ("my wife loves X": not the user's), a reaction emoji never
negated ("ugh no 💩"), a shrug at a card (no dislike) and a hedge that yields to a stated opinion after it."""

from __future__ import annotations

import pytest

from nlu.sentiment import Polarity
from tests.nlu.spans import spans_of

POS, NEG, NEU = Polarity.POSITIVE, Polarity.NEGATIVE, Polarity.NEUTRAL


@pytest.mark.parametrize(
    ("text", "names", "expected"),
    [
        ("heat >> ronin, ronin dragged in the middle", ["heat", "ronin", "ronin"], (POS, NEU, NEG)),
        ("the godfather > scarface", ["the godfather", "scarface"], (POS, NEU)),
        ("Dune>Foundation imo", ["Dune", "Foundation"], (POS, NEU)),
        (
            "radiohead and muse are my faves 🥰 coldplay is a bit too soft for me",
            ["radiohead", "muse", "coldplay"],
            (POS, POS, NEG),
        ),
        ("no country or polka pls", ["country", "polka"], (NEG, NEG)),
        ("I don't care for horror films, Alien is the exception", ["horror films", "Alien"], (NEG, NEU)),
        ("Love Blur. Oasis on the other hand I could never stand.", ["Blur", "Oasis"], (POS, NEG)),
        ("Dune was great even though i hated the ending", ["Dune"], (POS,)),
        ("the soundtrack of Dune was stunning", ["Dune"], (NEU,)),  # a part judged: the whole asked about
        ("The cinematography in Drive is gorgeous, Nicolas Winding Refn is a genius", ["Drive", "Nicolas"], (NEU, POS)),
        ("Bird as a saxophonist is second to none", ["Bird"], (POS,)),
        ("my wife loves Titanic", ["Titanic"], (NEU,)),
        ("my brother adores Twilight but I found it dull", ["Twilight"], (NEG,)),
        ("my kids and I love Moana", ["Moana"], (POS,)),
    ],
)
def test_each_entity_takes_its_own_clause(sentiment, text, names, expected):
    assert sentiment.polarities(text, spans_of(text, names)) == expected


def test_the_standard_of_a_comparison_sign_has_no_opinion(sentiment):
    text = "the godfather > scarface"
    assert sentiment.comparison_standards(text, spans_of(text, ["the godfather", "scarface"])) == (False, True)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ugh no 💩", NEG),  # a reaction emoji is never negated by the "no" before it
        ("nah, way too cheesy for me", NEG),
        ("nailed it, right up my alley", POS),
        ("watched it ages ago, it was sweet", POS),
        ("saw it, meh", NEU),  # a shrug: no dislike said
        ("my sister loved that one, i thought it was meh", NEU),  # the user's own opinion is the hedge
        ("finished it, meh, not my cup of tea", NEG),  # a hedge yields to a stated opinion after it
        ("it was ok, the soundtrack was great", NEU),  # not to an aspect's
    ],
)
def test_the_answer_at_a_card(sentiment, text, expected):
    assert sentiment.message_polarity(text) is expected


def test_too_x_for_me_judges_the_card_and_a_lack_of_interest_does_not(sentiment):
    assert sentiment.has_cue("nope, far too sugary for me", strong=True)
    assert not sentiment.has_cue("nope, not for me", strong=True)


@pytest.mark.parametrize(
    ("text", "names", "expected"),
    [
        ("sorry, it was U2 I can't stand, not coldplay", ["U2", "coldplay"], (False, True)),
        ("oops, it was muse i loved, not the killers.", ["muse", "the killers"], (False, True)),
        ("I loved Heat, not Ronin or Tenet", ["Heat", "Ronin", "Tenet"], (False, False, False)),
        ("not Heat, Ronin", ["Heat", "Ronin"], (False, False)),
    ],
)
def test_a_name_set_aside_at_a_clause_end(text, names, expected):
    from nlu.turn_cues import disowned

    assert disowned(text, spans_of(text, names)) == expected
