"""Issue 12's linking rules: everyday and opinion words are no titles on their own, "TITLE by
PERSON", a popularity prior for well-known homonyms, type nouns ("my favourite band"), and parts of a
longer unknown title are not linked."""

from __future__ import annotations

import pytest

try:
    from conftest_entities import ENTRIES, Entry, FakeKB
except ModuleNotFoundError:  # tests/nlu became a package
    from tests.nlu.conftest_entities import ENTRIES, Entry, FakeKB

from nlu.linker import EntityLinker

EXTRA = (
    Entry("Q646426", "Kids", item=True, pop=13, year=1995, description="1995 film by Larry Clark"),
    Entry("Q130237839", "Favourite", item=True, pop=1, description="song"),
    Entry("Q22001133", "The Favourite", item=True, pop=5, year=2018, description="2018 film"),
    Entry("Q484442", "Spider-Man", item=True, pop=48, year=2002, description="2002 film by Sam Raimi"),
    Entry("Q495562", "The Way Home", item=True, pop=0, year=2002, description="2002 film"),
    Entry("Q27044293", "The Lion King", item=True, pop=1, year=2019, description="2019 film"),
    Entry("Q208460", "Nineteen Eighty-Four", item=True, pop=2, aliases=("Nineteen Eighty - Four",)),
    Entry("Q30602434", "1984", item=True, pop=0),
    Entry("Q3335", "George Orwell", roles=("P50",), pop=7, description="English author"),
    Entry("Q596874", "Misery", item=True, pop=0),
    Entry("Q214700", "Frozen", item=True, pop=40, year=2013, description="2013 animated film"),
)
WORKS = {"Q3335": (("P50", "Q208460"),)}


class _KB(FakeKB):
    def __init__(self, entries, domain="movie", works=None):
        super().__init__(entries)
        self.domain = domain
        self._works = works or {}

    def value_items(self, value):
        return self._works.get(value, ())


@pytest.fixture(scope="module")
def movies():
    return EntityLinker(_KB(ENTRIES + EXTRA, works=WORKS))


def labels(linker, text):
    return [(m.candidates[0].label, m.ambiguous) for m in linker.link(text)]


def test_everyday_words_are_no_titles_on_their_own(movies):
    assert labels(movies, "My kids and I love The Lion King") == [("The Lion King", False)]
    assert labels(movies, "Inception is my favourite movie") == [("Inception", False)]
    assert labels(movies, "Kids") == [("Kids", False)]  # the whole message names it
    assert labels(movies, 'I watched "Kids" last night') == [("Kids", False)]  # quoted
    assert labels(movies, "I loved Kids, the Larry Clark film") == [("Kids", False)]  # capitalised mid-sentence
    assert labels(movies, "i liked kids") == [("Kids", True)]  # the whole object of a like-verb: asked
    assert labels(movies, "Frozen was great") == [("Frozen", False)]  # subject of an opinion


def test_opinion_words_are_never_linked_alone(movies):
    assert labels(movies, "Pulp Fiction is my Favourite") == [("Pulp Fiction", False)]
    assert labels(movies, "the movie Favourite was odd")[0][0] in ("Favourite", "The Favourite")  # typed


def test_title_by_person_links_the_work(movies):
    assert labels(movies, "1984 by Orwell is brilliant") == [("Nineteen Eighty-Four", False)]
    assert labels(movies, "Misery by George Orwell is great") == [("Misery", False)]  # an item so named
    assert labels(movies, "I love George Orwell") == [("George Orwell", False)]  # the person alone is rated


def test_popularity_prior_picks_a_classic_without_a_question(movies):
    assert labels(movies, "I love The Lion King") == [("The Lion King", False)]
    (m,) = movies.link("I love The Lion King")
    assert m.candidates[0].qid == "Q11621"


def test_parts_of_a_longer_unknown_title_are_not_linked(movies):
    assert labels(movies, "I watched Spider-Man: No Way Home and Inception") == [("Inception", False)]
    assert labels(movies, "I watched Spider-Man and Inception") == [("Spider-Man", False), ("Inception", False)]


def test_a_type_noun_picks_the_kind():
    entries = (
        Entry("Q15862", "Queen", item=True, roles=("P175", "P361"), pop=21, description="British rock band"),
        Entry("Q193490", "Queen", item=True, roles=("P361",), pop=12),
        Entry("Q26876", "Taylor Swift", item=True, roles=("P175",), pop=60, description="singer"),
        Entry("Q845783", "Taylor Swift", item=True, roles=("P361",), pop=12),
        Entry("Q187745", "Bohemian Rhapsody", item=True, pop=4),
        Entry("Q2", "Rhapsody of Fire", item=True, roles=("P175",), pop=10),
    )
    music = EntityLinker(_KB(entries, domain="music"))
    assert labels(music, "Queen is my favourite band") == [("Queen", False)]
    assert music.link("Queen is my favourite band")[0].candidates[0].qid == "Q15862"
    # no hint: the band, not its album of the same name (an artist before works named after it)
    assert labels(music, "I love Queen") == [("Queen", False)]
    assert music.link("I love Queen")[0].candidates[0].qid == "Q15862"
    (m,) = music.link("I love the album Queen")  # unless the user says the album
    assert m.candidates[0].qid == "Q193490" and not m.ambiguous
    assert labels(music, "I love Taylor Swift") == [("Taylor Swift", False)]  # the star, no question
    assert labels(music, "I love Bohemian Rhapsody") == [("Bohemian Rhapsody", False)]  # the longer title
