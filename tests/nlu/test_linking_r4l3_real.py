"""Issue 22, round 4, third linking pass (engineer 22-L3): a famous person's lone surname inside a chat phrase, on
the real snapshots, with names and wordings of its own (none of the conversation sets'). Skipped when a snapshot has
not been built."""

from __future__ import annotations

import pytest

from tests.nlu.real_linkers import real_linker


@pytest.fixture(scope="module")
def linkers():
    return {}


def _top(linkers, domain, text):
    if domain not in linkers:
        linkers[domain] = real_linker(domain)
    return [m.candidates[0].qid for m in linkers[domain].link(text)]


@pytest.mark.parametrize(
    ("domain", "text", "qid"),
    [
        ("movie", "i want a kubrick movie", "Q2001"),  # a kind noun after a request's object
        ("movie", "honestly i adore nolan films", "Q25191"),  # after a like-verb's object
        ("movie", "i don't like kubrick himself at all", "Q2001"),  # a reflexive
        ("book", "i want an austen novel", "Q36322"),
        ("book", "recommend me a gaiman novel please", "Q210059"),  # no typo'd title of "gaiman novel"
        ("music", "i love beyonce herself", "Q36153"),
        ("music", "i want some eminem stuff", "Q5608"),
        ("music", "no more adele please", "Q23215"),  # "no more X" and a politeness word
        ("music", "no more rihanna pls", "Q36844"),
    ],
)
def test_a_surname_before_a_kind_noun_reflexive_or_please_is_the_person(linkers, domain, text, qid):
    assert qid in _top(linkers, domain, text)


@pytest.mark.parametrize(
    ("domain", "text"), [("movie", "i love korean films"), ("movie", "i want a good movie"), ("book", "i want a book")]
)
def test_a_word_before_a_kind_noun_names_no_person_it_is_not_the_name_of(linkers, domain, text):
    """Only the persons of that name: "korean films" is no Korean War."""
    assert _top(linkers, domain, text) == []


def test_a_typod_genre_before_its_noun_is_still_the_genre(linkers):
    assert _top(linkers, "book", "i love ramance novels") == ["Q858330"]


@pytest.mark.parametrize(
    ("text", "qid"),
    [
        ("metallica master of puppets is a classic", "Q187507"),
        ("pink floyd the wall is overrated", "Q151114"),
    ],
)
def test_a_band_before_its_album_as_a_subject_is_no_fragment_of_an_unknown_title(linkers, text, qid):
    """A band before its album ("BAND ALBUM is ..."): the band's words say which album, no longer title the KB lacks."""
    assert qid in _top(linkers, "music", text)


def test_a_subject_of_unknown_words_still_is_a_title_the_kb_lacks(linkers):
    assert _top(linkers, "music", "salad days is a vibe") == []
