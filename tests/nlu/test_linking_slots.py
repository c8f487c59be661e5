"""Lowercase names where a name is expected (issue 22): "a big fan of X", "X is a masterpiece" after a
comma, "X too", a title opening the message, lists, "similar to X", "more X" (``nlu.linking.syntax.name_slot``
and the guard's ``_fits_slot``), and the chat's own words that stay no names there (F29). Sentences and
a small in-memory KB written for these tests (no item of the issue's examples)."""

from __future__ import annotations

import pytest

try:
    from conftest_entities import Entry, FakeKB
except ModuleNotFoundError:  # tests/nlu became a package
    from tests.nlu.conftest_entities import Entry, FakeKB

from nlu.linker import EntityLinker
from nlu.linking.syntax import name_slot
from nlu.linking.tokens import tokenize

ENTRIES = (
    Entry("Q1", "Grace Jones", roles=("P50",), pop=20, description="novelist"),
    Entry("Q2", "Big Fish", item=True, pop=20, year=2003),
    Entry("Q3", "Torment", item=True, pop=2),
    Entry("Q4", "Out of Time", item=True, pop=2),
    Entry("Q5", "Under the Sea", item=True, pop=2),
    Entry("Q6", "For the Record", item=True, pop=2),
    Entry("Q7", "By the Way", item=True, pop=2),
    Entry("Q8", "Muse", roles=("P175",), pop=20, description="English rock band"),
    Entry("Q9", "poetry", roles=("P136",), pop=50, description="literary genre"),
    Entry("Q10", "I've Got You", item=True, pop=2),
    Entry("Q11", "Fingersmith", item=True, pop=5),
    Entry("Q12", "Over the Rainbow", item=True, pop=2),
    Entry("Q13", "Mercy Street", item=True, pop=2),
)


@pytest.fixture(scope="module")
def linker():
    return EntityLinker(FakeKB(ENTRIES))


def linked(linker, text):
    """The top QID of each mention."""
    return [m.candidates[0].qid for m in linker.link(text)]


@pytest.mark.parametrize(
    ("text", "qids"),
    [
        ("i'm a big fan of grace jones", ["Q1"]),  # after "fan of" (two everyday words)
        ("anything similar to big fish?", ["Q2"]),  # after "similar to"
        ("i loved torment", ["Q3"]),  # a lexicon word as the whole object of a like-verb
        ("big fish too", ["Q2"]),  # alone but for "too"
        ("fingersmith was great, big fish too", ["Q11", "Q2"]),  # a clause of its own with "too"
        ("the torment i loved though", ["Q3"]),  # a title opening the message, "i loved" after it
        ("torment and out of time are still perfect songs", ["Q3", "Q4"]),  # a listed subject, function words
        ("my fave songs are torment and under the sea", ["Q3", "Q5"]),  # listed after a name
        ("fingersmith is my favourite, especially over the rainbow", ["Q11", "Q12"]),  # after "especially"
        ("more muse", ["Q8"]),  # "more X"
        ("got a novel by grace jones?", ["Q1"]),  # the maker of works asked for (fresh3)
        ("any songs from muse", ["Q8"]),  # "songs from X"
        ("anything by grace jones", ["Q1"]),  # "anything by X"
        ("how about fingersmith", ["Q11"]),  # "how about X"
        ("not a fan of poetry tbh", ["Q9"]),  # an opinion word that is a genre, liked or not
        ("mercy street is a masterpiece", ["Q13"]),  # a subject before its verb
        ("i think big fish is overrated", ["Q2"]),  # a clause opening after "i think"
    ],
)
def test_a_lowercase_name_where_a_name_is_expected_is_linked(linker, text, qids):
    assert linked(linker, text) == qids


@pytest.mark.parametrize(
    "text",
    [
        "I didn't like Fingersmith, for the record",  # a phrase of its own after a comma
        "By the way, Fingersmith gives me chills",  # an idiom opening the message
        "I've had Fingersmith on my mind all week",  # the pronoun is always capitalised
    ],
)
def test_the_chats_own_phrases_stay_no_names(linker, text):
    assert linked(linker, text) == ["Q11"]


def test_name_slots():
    def slot(text, i, j, ends=()):
        return name_slot(text, tokenize(text), i, j, ends)

    assert slot("i'm a big fan of grace jones", 6, 8) == "object"
    assert slot("big fish too", 0, 2) == "alone"
    assert slot("the torment i loved though", 0, 2) == "topic"
    assert slot("torment and out of time are still great", 2, 5) == "subject"
    assert slot("i like torment and under the sea", 4, 7, ends={3}) == "list"
    assert slot("i like the way he acts", 3, 4) is None  # the object goes on: no name there


def test_an_adverb_opening_a_typod_name_is_no_part_of_it(linker):
    (mention,) = linker.link("my favourite film is probably big fsh")
    assert (mention.text, mention.candidates[0].qid) == ("big fsh", "Q2")
