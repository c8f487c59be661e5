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


MOVIES = (
    Entry("Q14772351", "Batman v Superman: Dawn of Justice", item=True, pop=49),
    Entry("Q16562813", "Harry Potter: Page to Screen", item=True, pop=0),
    Entry("Q107626030", "Harry Potter: A Magical Year", item=True, pop=0),
    Entry("Q462", "Star Wars", roles=("P179",), pop=12),
    Entry("Q17738", "Star Wars: Episode IV – A New Hope", item=True, pop=40),
    Entry("Q3325145", "Mother", item=True, pop=13, description="film by Albert Brooks"),
    Entry("Q25339558", "Mother!", item=True, pop=0),
    Entry("Q108745", "Ghostbusters", item=True, pop=31, description="1984 US comedy film"),
    Entry("Q20120108", "Ghostbusters", item=True, pop=26),  # Paul Feig's, no year in the KB
    Entry("Q174811", "Up", item=True, pop=19, year=2009),
    Entry("Q788822", "Her", item=True, pop=24, year=2013),
    Entry("Q25136484", "It", item=True, pop=20, year=2017),
    Entry("Q20657314", "Me Before You", item=True, pop=0),
    Entry("Q42198", "Heat", item=True, pop=41, year=1995),
    Entry("Q110203", "Collateral", item=True, pop=38, year=2004),
    Entry("Q210364", "Shutter Island", item=True, pop=33),
    Entry("Q864930", "Bound", item=True, pop=17),
    Entry("Q1", "This Book", item=True, pop=1),
)


@pytest.fixture(scope="module")
def movies():
    return EntityLinker(_KB(MOVIES, domain="movie"))


def test_a_main_title_names_the_one_item_so_titled(movies):
    assert top(movies, "Batman v Superman was a mess") == [("Q14772351", False)]
    assert top(movies, "I love Harry Potter") == []  # two companion books are no "Harry Potter"
    assert top(movies, "I love Star Wars")[0][0] == "Q462"  # a name of its own stays that entity's


def test_a_title_typed_with_its_punctuation_or_its_year(movies):
    assert top(movies, "Mother! was bizarre and I kind of hated it") == [("Q25339558", False)]
    assert top(movies, "Mother was touching") == [("Q3325145", True)]  # both readings: asked
    assert top(movies, "Ghostbusters 2016 was pretty bad") == [("Q20120108", False)]  # not the 1984 film


def test_a_word_that_cannot_be_a_subject_opening_an_opinion_is_a_title(movies):
    assert top(movies, "Her is such a beautiful film") == [("Q788822", False)]
    assert top(movies, "Up made me cry in the first ten minutes") == [("Q174811", False)]
    assert top(movies, "It was terrifying") == []  # "It" can be the subject pronoun
    assert top(movies, "I love her") == []
    assert top(movies, "Me Before You made me cry so much") == [("Q20657314", False)]  # capitalised
    assert top(movies, "this book was great") == []  # a determiner opens it: no title


def test_lists_acronyms_and_typos(movies, music):
    assert top(movies, "Heat and Collateral, Michael Mann at his best")[:2] == [("Q42198", False), ("Q110203", False)]
    assert top(movies, "shutter iland 🔥🔥") == [("Q210364", False)]  # a short message that is a typo'd title
    assert top(movies, "No Time to Die was a great Bond") == []  # a word spelled right is no typo of "Bound"
    entries = MUSIC + (
        Entry("Q13580495", "BTS", roles=("P175",), pop=18),
        Entry("Q36153", "Beyoncé", roles=("P175",), pop=31),
    )
    linker = EntityLinker(_KB(entries))
    assert top(linker, "BTS and Mitski are both amazing") == [("Q13580495", False), ("Q23761694", False)]
    assert top(linker, "beyonse 🔥🔥🔥") == [("Q36153", False)]  # one letter typed wrong
    assert top(linker, "come as you are is my favourite song") == []  # not in this KB: nothing
