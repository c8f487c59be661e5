"""Options of a "which one do you mean?" question tell their entities apart (recommender.names)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from recommender.names import distinct_labels, distinguishable


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


def test_look_alike_titles_with_nothing_else_get_description_then_a_count():
    """ "Dune" and "The Dune" with no year or director look the same to a user: the description, else
    "1 of 2" (never the QID), tells them apart; a role tells a person apart from a film."""
    kb = TinyKB(
        "movie",
        {"Q1": "Dune", "Q3": "The Dune", "Q4": "Dune", "Q5": "Dune"},
        items={"Q1", "Q3", "Q4"},
        descriptions={"Q3": "2008 short film"},
        edges=[("Q9", "P144", "Q5")],
    )
    assert distinct_labels(kb, ["Q1", "Q3"]) == ["Dune (film)", "The Dune (2008 short film)"]
    assert distinct_labels(kb, ["Q1", "Q4", "Q5"]) == [
        "Dune (film, 1 of 2)",
        "Dune (film, 2 of 2)",
        "Dune (source work)",
    ]
    assert distinct_labels(kb, ["Q1", "Q1"]) == ["Dune (film, 1 of 2)", "Dune (film, 2 of 2)"]  # duplicates never crash
    # a question offers only one of the look-alikes (the first, the linker's best)
    assert distinguishable(kb, ["Q1", "Q4", "Q5", "Q3"]) == ["Q1", "Q5", "Q3"]
    assert distinguishable(kb, ["Q1", "Q1"]) == ["Q1"]


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


class KindKB(TinyKB):
    """TinyKB with kinds and labels checked (the real KB's ``kind`` and ``has_label``)."""

    def __init__(self, *args, kinds=None, **kwargs):
        super().__init__(*args, **kwargs)
        self._kinds = kinds or {}

    def kind(self, qid):
        return self._kinds.get(qid)

    def has_label(self, qid):
        return qid in self._labels


def test_music_options_name_song_or_album_and_the_album_of_a_song():
    kb = KindKB(
        "music",
        {
            "Q1": "Runaway",
            "Q2": "Runaway",
            "Q3": "Runaway",
            "Q10": "Hybrid Theory",
            "Q11": "Bon Jovi",
            "Q4": "Innuendo",
            "Q5": "Innuendo",
            "Q20": "Queen",
        },
        items={"Q1", "Q2", "Q3", "Q4", "Q5", "Q10", "Q11"},
        kinds={"Q1": "song", "Q2": "song", "Q3": "song", "Q4": "album", "Q5": "song", "Q10": "album", "Q11": "album"},
        edges=[
            ("Q1", "P361", "Q10"),
            ("Q2", "P361", "Q11"),
            ("Q3", "P361", "Q99"),
            ("Q5", "P361", "Q4"),
            ("Q4", "P175", "Q20"),
        ],
    )
    names = distinct_labels(kb, ["Q1", "Q2", "Q3"])
    assert names == ["Runaway (song from Hybrid Theory)", "Runaway (song from Bon Jovi)", "Runaway (song)"]
    assert distinct_labels(kb, ["Q4", "Q5"]) == ["Innuendo (album by Queen)", "Innuendo (song from Innuendo)"]
    assert not any("Q99" in n for n in names)  # an unlabelled album is never a qualifier


def test_same_name_people_differing_only_by_roles_are_not_told_apart_by_them():
    kb = KindKB(
        "music",
        {"Q1": "Pink", "Q2": "Pink", "Q7": "So What", "Q8": "Song"},
        items={"Q7", "Q8"},
        descriptions={"Q1": "American singer", "Q2": "Swedish singer"},
        edges=[("Q7", "P175", "Q1"), ("Q7", "P676", "Q1"), ("Q8", "P175", "Q2")],
    )
    names = distinct_labels(kb, ["Q1", "Q2"])
    assert names == ["Pink (artist, lyricist, American singer)", "Pink (artist, Swedish singer)"]
    assert distinguishable(kb, ["Q1", "Q2"]) == ["Q1", "Q2"]
    bare = KindKB(
        "music",
        {"Q1": "Pink", "Q2": "Pink", "Q8": "Song"},
        items={"Q8"},
        edges=[("Q8", "P175", "Q1"), ("Q8", "P676", "Q1"), ("Q8", "P175", "Q2")],
    )
    assert distinguishable(bare, ["Q1", "Q2"]) == ["Q1"]  # "Pink (artist)" adds nothing to "Pink (artist, lyricist)"


def test_long_labels_opening_alike_keep_what_tells_them_apart():
    labels = {
        "Q1": "A Series of Unfortunate Events: The Bad Beginning",
        "Q2": "A Series of Unfortunate Events: The Reptile Room",
        "Q3": "Dune",
    }
    kb = TinyKB("book", labels, items=labels, years={"Q1": 1999, "Q2": 1999})
    names = distinct_labels(kb, ["Q1", "Q2", "Q3"])
    assert names[0].startswith("…Bad Beginning") and names[1].startswith("…Reptile Room")
    assert names[2].startswith("Dune")
