"""Options of a "which one do you mean?" question tell their entities apart (recommender.names)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from recommender.names import distinct_labels


class TinyKB:
    """Just what ``distinct_labels`` reads: labels, years, descriptions, claims."""

    def __init__(self, domain, labels, *, items, years=None, descriptions=None, edges=()):
        self.domain, self._labels, self._items = domain, labels, set(items)
        self._years, self._descriptions, self._edges = years or {}, descriptions or {}, list(edges)

    def has(self, qid):
        return qid in self._labels

    def is_item(self, qid):
        return qid in self._items

    def label(self, qid):
        return self._labels.get(qid, qid)

    def description(self, qid):
        return self._descriptions.get(qid)

    def details(self, qid):
        return SimpleNamespace(year=self._years.get(qid), description=self._descriptions.get(qid))

    def item_values(self, qid):
        return tuple((p, v) for i, p, v in self._edges if i == qid)

    def value_items(self, qid):
        return tuple((p, i) for i, p, v in self._edges if v == qid)

    def roles(self, qid):
        return tuple(dict.fromkeys(p for _, p, v in self._edges if v == qid))


def test_same_title_films_are_told_apart_by_director_and_year():
    kb = TinyKB(
        "movie",
        {"Q1": "Dune", "Q2": "Dune", "Q3": "The Dune", "Q10": "David Lynch", "Q20": "Denis Villeneuve"},
        items={"Q1", "Q2", "Q3"},
        years={"Q1": 1984},
        edges=[("Q1", "P57", "Q10"), ("Q2", "P57", "Q20")],
    )
    assert distinct_labels(kb, ["Q1", "Q2"]) == ["Dune (1984, film by David Lynch)", "Dune (film by Denis Villeneuve)"]


def test_look_alike_titles_with_nothing_else_get_description_then_qid():
    """ "Dune" and "The Dune" with no year or director look the same to a user: the description, else
    the QID, tells them apart; a role tells a person apart from a film."""
    kb = TinyKB(
        "movie",
        {"Q1": "Dune", "Q3": "The Dune", "Q4": "Dune", "Q5": "Dune"},
        items={"Q1", "Q3", "Q4"},
        descriptions={"Q3": "2008 short film"},
        edges=[("Q9", "P144", "Q5")],
    )
    assert distinct_labels(kb, ["Q1", "Q3"]) == ["Dune (film)", "The Dune (2008 short film)"]
    assert distinct_labels(kb, ["Q1", "Q4", "Q5"]) == ["Dune (film, Q1)", "Dune (film, Q4)", "Dune (source work)"]
    assert distinct_labels(kb, ["Q1", "Q1"]) == ["Dune (film, Q1)", "Dune (film, Q1)"]  # duplicates never crash


@pytest.mark.parametrize(("qid", "name"), [("Q1", "Blur (band)"), ("Q2", "Blur (by Blur)"), ("Q3", "Blur (artist)")])
def test_music_options_say_band_artist_or_performer(qid, name):
    kb = TinyKB(
        "music",
        {"Q1": "Blur", "Q2": "Blur", "Q3": "Blur", "Q4": "Damon Albarn"},
        items={"Q1", "Q2", "Q3", "Q4"},
        edges=[("Q2", "P175", "Q1"), ("Q4", "P463", "Q1"), ("Q9", "P175", "Q3")],
    )
    assert distinct_labels(kb, ["Q1", "Q2", "Q3"])[["Q1", "Q2", "Q3"].index(qid)] == name


def test_long_labels_keep_their_qualifiers_visible():
    kb = TinyKB(
        "book",
        {"Q1": "A Very Long Title That Goes On And On Forever", "Q2": "Ann"},
        items={"Q1"},
        edges=[("Q1", "P50", "Q2")],
    )
    assert distinct_labels(kb, ["Q1"]) == ["A Very Long Title That Goes On… (book by Ann)"]


def test_items_without_a_key_person_are_told_apart_by_genre():
    kb = TinyKB(
        "movie",
        {"Q1": "Titanic", "Q2": "Titanic", "Q3": "James Cameron", "Q4": "drama film", "Q5": "disaster film"},
        items={"Q1", "Q2"},
        edges=[("Q1", "P57", "Q3"), ("Q1", "P136", "Q4"), ("Q2", "P136", "Q5")],
    )
    assert distinct_labels(kb, ["Q1", "Q2"]) == ["Titanic (film by James Cameron)", "Titanic (disaster film)"]


def test_the_year_of_an_item_comes_from_its_description_when_the_kb_has_no_date():
    from recommender.names import item_year

    kb = TinyKB(
        "movie",
        {"Q5": "The Avengers", "Q6": "The Avengers", "Q7": "Tom Cruise", "Q10": "Joss Whedon"},
        items={"Q5", "Q6"},
        descriptions={"Q5": "2012 superhero film", "Q7": "American actor (born 1962)"},
        edges=[("Q5", "P57", "Q10"), ("Q6", "P161", "Q7")],
    )
    assert (item_year(kb, "Q5"), item_year(kb, "Q6")) == (2012, None)
    assert distinct_labels(kb, ["Q5", "Q6"]) == ["The Avengers (2012, film by Joss Whedon)", "The Avengers (film)"]
    assert distinct_labels(kb, ["Q7"]) == ["Tom Cruise (actor)"]  # a person's birth year is no year of a work
