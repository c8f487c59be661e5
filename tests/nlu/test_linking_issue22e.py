"""Issue 22 (engineer E): what a person names gets the entity meant, and words that are no names link to
nothing. Sentences written for these tests (other items and wordings than the conversation sets), over
small in-memory KBs: emphasis in capitals, the user's own "i DON'T like", a pronoun with "!", English
spelled right that a fuzzy match would read as an obscure title, greetings and farewells at the edges,
"like" that compares, what a clause says of its subject, and a person's possessive before a common noun."""

from __future__ import annotations

import pytest

try:
    from conftest_entities import Entry, FakeKB
except ModuleNotFoundError:  # tests/nlu became a package
    from tests.nlu.conftest_entities import Entry, FakeKB

from nlu.linker import EntityLinker


class _KB(FakeKB):
    """FakeKB of one domain with its own credits: ``works`` = item -> ((pid, person), ...)."""

    def __init__(self, entries, domain="music", works=None):
        super().__init__(entries)
        self.domain = domain
        self._works = works or {}

    def item_values(self, item):
        return self._works.get(item, ())

    def value_items(self, value):
        return tuple((pid, item) for item, claims in self._works.items() for pid, v in claims if v == value)


MUSIC = (
    Entry("Q1", "Anthem", item=True, pop=1, description="song"),
    Entry("Q2", "ABBA", roles=("P175",), pop=40, description="Swedish pop group"),
    Entry("Q3", "I Don't Love", item=True, pop=2, description="song"),
    Entry("Q4", "The Weeknd", roles=("P175",), pop=50, description="Canadian singer"),
    Entry("Q5", "Hello", item=True, pop=1, description="song"),
    Entry("Q6", "Adele", roles=("P175",), pop=60, description="English singer"),
    Entry("Q7", "Good Night", item=True, pop=1, description="song"),
    Entry("Q8", "Like This", item=True, pop=1, description="song"),
    Entry("Q9", "Magnetic", item=True, pop=1, description="song"),
    Entry("Q10", "Standard", item=True, pop=1, description="song"),
    Entry("Q11", "Wonderwall", item=True, pop=30, description="song"),
    Entry("Q12", "Alright Tonight", item=True, pop=0, description="song"),
    Entry("Q13", "Oasis", roles=("P175",), pop=45, description="English rock band"),
    Entry("Q14", "Bohemian Rhapsody", item=True, pop=40, description="song"),
)
MUSIC_WORKS = {"Q11": (("P175", "Q13"),)}

BOOKS = (
    Entry("Q30", "It!", item=True, pop=0, description="novel"),
    Entry("Q31", "Last Autumn", item=True, pop=0, description="book"),
    Entry("Q32", "Dune", item=True, pop=30, description="novel"),
    Entry("Q33", "The Theme", item=True, pop=5, description="novel"),
    Entry("Q34", "John Williams", roles=("P50",), pop=40, description="American writer"),
    Entry("Q35", "House of Sand", item=True, pop=0, description="novel"),
    Entry("Q36", "house", roles=("P136",), pop=20, description="genre"),
    Entry("Q37", "House", item=True, pop=0, description="novel"),
)


@pytest.fixture(scope="module")
def music():
    return EntityLinker(_KB(MUSIC, works=MUSIC_WORKS))


@pytest.fixture(scope="module")
def books():
    return EntityLinker(_KB(BOOKS, domain="book"))


def labels(linker, text):
    return [m.candidates[0].label for m in linker.link(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("that chorus is an ANTHEM honestly", []),  # an English word in capitals is emphasis
        ("i LOVED abba as a kid, ABBA forever", ["ABBA", "ABBA"]),  # an acronym-like name still is one
        ("ok i DON'T love the weeknd, sorry", ["The Weeknd"]),  # the user's own clause, not "I Don't Love"
        ("Hello! i really like adele", ["Adele"]),  # a greeting before its sign
        ("cool, thanks, good night", []),  # the farewell closing the message
        ("Good Night is my favourite song", ["Good Night"]),  # typed as a title, it still is one
        ("give me something like this", []),  # "like" that compares
        ("play me a song like this please", []),
        ("that one is magnetic", []),  # what the clause says of its subject
        ("wonderwall is magnetic", ["Wonderwall"]),
        ("oasis forever, she's the standard", ["Oasis"]),
        ("it felt alright tonight", []),  # English spelled right, no typo of an obscure song
        ("i love bohemian rapsody", ["Bohemian Rhapsody"]),  # a typo of a known one still is
    ],
)
def test_music_words_that_are_no_titles(music, text, expected):
    assert labels(music, text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("finished it! what a ride", []),  # the sentence's "!", not the novel "It!"
        ("It! was a fun read", ["It!"]),  # typed as its title is spelled
        ("read it last autumn, loved it", []),  # English words, no typo of a title nobody knows
        ("I love John Williams's themes", ["John Williams"]),  # his works in general, not "The Theme"
    ],
)
def test_book_words_that_are_no_titles(books, text, expected):
    assert labels(books, text) == expected


def test_a_word_of_a_refused_name_is_no_name_of_its_own(books):
    """The guard reads "house of sand" as everyday words; its "house" is then no genre or title either."""
    assert "house" not in [label.casefold() for label in labels(books, "never made it through house of sand")]
