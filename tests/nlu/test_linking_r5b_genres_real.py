"""Issue 22, round 5, genres in free wording (engineer 22-G): compound genres named by their head's abbreviation,
"films of X", "the X music", "care for X", on the real snapshots, with genres and wordings of its own (none of the
conversation sets'). Skipped when a snapshot has not been built."""

from __future__ import annotations

import pytest

from nlu.linking.index_build import _abbreviates, _head_aliases
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
        ("book", "honestly military sf is what i read most", "Q904447"),  # a compound genre, its head abbreviated
        ("book", "feminist scifi has been great lately", "Q2435402"),
        ("music", "anything neo prog please", "Q1051843"),
        ("movie", "i really enjoy movies of horror", "Q200092"),  # "films of X": non-native English
        ("book", "i am loving books of fantasy", "Q132311"),
        ("music", "the hip hop music leaves me cold", "Q11401"),  # "the X music": the genre, no part of a work
        ("music", "i never cared for jazz", "Q8341"),  # "care for": a verb's object, no audience
    ],
)
def test_genre_in_free_wording(linkers, domain, text, qid):
    assert qid in _top(linkers, domain, text)


@pytest.mark.parametrize(
    ("domain", "text", "qid"),
    [
        ("movie", "a silly comedy for teens", "Q1146335"),  # an audience after "for" stays no opinion
    ],
)
def test_audience_after_for_is_no_genre(linkers, domain, text, qid):
    assert qid not in _top(linkers, domain, text)


def test_abbreviations_of_a_genre_name():
    assert _abbreviates("scifi", ("science", "fiction"))
    assert _abbreviates("sf", ("science", "fiction"))
    assert _abbreviates("dandb", ("drum", "and", "bass"))
    assert not _abbreviates("classicalrock", ("progressive", "rock"))
    heads = {("science", "fiction"): {("sci", "fi"), ("sf",)}}
    assert _head_aliases(("military", "science", "fiction"), heads) == {("military", "sci", "fi"), ("military", "sf")}


@pytest.mark.parametrize(
    ("domain", "text", "qid"),
    [
        ("book", "i have read Kipling since i was a child", "Q7569"),  # a genre no item has: a topic word
        ("book", "the animal parts of that novel bored me", "Q729"),
    ],
)
def test_genre_of_no_item_is_no_reading(linkers, domain, text, qid):
    assert qid not in _top(linkers, domain, text)
