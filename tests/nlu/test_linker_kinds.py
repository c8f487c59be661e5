"""Kinds of linking faults found with the realistic dev half (issue 12), each on a small fake KB:
artists are property values of the music KB (issue 16), so the popularity prior and "an artist
before works of the same name" must hold for values too; the pronoun "I" is no title signal; an
everyday word next to a name is no part of an unknown name."""

from __future__ import annotations

import pytest

try:
    from conftest_entities import Entry, FakeKB
except ModuleNotFoundError:  # tests/nlu became a package
    from tests.nlu.conftest_entities import Entry, FakeKB

from nlu.linker import EntityLinker


class _KB(FakeKB):
    def __init__(self, entries, domain="music", values=None, works=None):
        super().__init__(entries)
        self.domain = domain
        self._values = values or {}
        self._works = works or {}

    def item_values(self, item):
        return self._values.get(item, ())

    def value_items(self, value):
        return self._works.get(value, ())


MUSIC = (
    # artists and bands are values (roles P175), not items, as in the music KB since issue 16
    Entry("Q26876", "Taylor Swift", roles=("P175", "P676"), pop=50, description="singer"),
    Entry("Q845783", "Taylor Swift", item=True, roles=("P361",), pop=12),  # her album, no P175 in the KB
    Entry("Q3445057", "Future", roles=("P175",), pop=3),
    Entry("Q63928602", "Future", item=True, pop=1),  # a song by someone else
    Entry("Q552254", "The Future", item=True, roles=("P361",), pop=2),
    Entry("Q254", "Wolfgang Amadeus Mozart", roles=("P175",), pop=9, aliases=("Mozart",)),
    Entry("Q116923367", "Mozart", item=True, pop=1),
    Entry("Q255", "Ludwig van Beethoven", roles=("P175",), pop=7, aliases=("Beethoven",)),
    Entry("Q65088211", "Beethoven (I Love to Listen To)", item=True, pop=1),
    Entry("Q160009", "Pink", roles=("P676", "P175"), pop=27),
    Entry("Q2293999", "Pink", item=True, pop=1),
    Entry("Q13561976", "Pink", roles=("P175",), pop=0),
    Entry("Q23761694", "Mitski", roles=("P175",), pop=5),
    Entry("Q100876028", "I Love It", item=True, pop=1),
    Entry("Q3790306", "I Love Her", item=True, pop=1),
    Entry("Q17444", "Nevermind", item=True, roles=("P361",), pop=14),
    Entry("Q11649", "Nirvana", roles=("P175",), pop=21),
)


@pytest.fixture(scope="module")
def music():
    return EntityLinker(_KB(MUSIC, values={"Q17444": (("P175", "Q11649"),)}))


def top(linker, text):
    return [(m.candidates[0].qid, m.ambiguous) for m in linker.link(text)]


@pytest.mark.parametrize(
    ("text", "qid"),
    [
        ("I love Taylor Swift", "Q26876"),  # the star, not her album of the same name
        ("I don't like Future at all", "Q3445057"),  # the rapper, not a less-known song "Future"
        ("I love Mozart", "Q254"),  # a far better-known person's alias beats a song's label
        ("Bach and Beethoven, that's all I need", "Q255"),  # a song "Beethoven (...)" only by its bare title
        ("Pink is kind of meh", "Q160009"),  # the star among a song and a little-known namesake artist
    ],
)
def test_artists_as_values_come_before_works_of_their_name(music, text, qid):
    found = [m for m in music.link(text) if m.candidates[0].qid == qid]
    assert found, top(music, text)
    assert not found[0].ambiguous


def test_the_pronoun_i_is_no_title_signal(music):
    assert top(music, "Nevermind is raw but I love it") == [("Q17444", False)]  # not the song "I Love It"
    assert top(music, "Mitski breaks my heart, I love her") == [("Q23761694", False)]
    assert top(music, "My favourite song is I Love It") == [("Q100876028", False)]  # Title Cased: the song


def test_an_everyday_word_next_to_a_name_is_no_part_of_an_unknown_name(music):
    # "breaks" glued to "Mitski" is a verb, not the rest of a name the KB lacks ("Laura Prepon")
    assert top(music, "Mitski breaks my heart") == [("Q23761694", False)]
