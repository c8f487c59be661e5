"""Cards people can judge and the right kind of item (issue 23), with made-up items.

Cards: the creator always when known (a song's album's band too), the year, the image, the media
button data (trailer / listen / read) only where it exists, the cast by prominence, a producer's cameo
listed as producer, no cut genre name. Kinds: a television series typed film too is not a film, by
its classes or its description; the audit counts such an item (``audit_lists.wrong_class``).
"""

from __future__ import annotations

from recommender.audit_lists import wrong_class
from recommender.cards import MAX_CAST, card_coverage, item_card
from recommender.kinds import KindRules, TypeSets, described_kind
from recommender.schema import BROADCAST_DESCRIPTION, DOMAINS, Kind
from tests.issue23_fakes import book_kb, movie_kb, music_kb

# -- cards ----------------------------------------------------------------------------------------


def test_a_songs_card_names_its_albums_band_and_has_no_trailer():
    card = item_card(music_kb(), "S2")  # "Harbour Lights", on an album of The Tidewaters
    assert card.creators == ("The Tidewaters",) and card.creator_role == "band"
    assert card.trailer is None and card.listen is None  # nothing to listen to is known: no button


def test_a_song_with_a_spotify_id_has_a_listen_page():
    card = item_card(music_kb(), "S4")
    assert card.creators == ("Mira Stone",) and card.creator_role == "artist"
    assert card.listen == "https://open.spotify.com/track/4Z8W4fKeB5YxbusRsdQVPb"


def test_a_books_card_names_its_author_and_a_read_page_only_with_an_id():
    kb = book_kb()
    card = item_card(kb, "B6")
    assert card.creators == ("Jon Ware",) and card.creator_role == "author" and card.year == 1999
    assert card.read == "https://openlibrary.org/works/OL123W" and card.trailer is None
    plain = item_card(kb, "B7")
    assert plain.read is None  # a search link is offered among the links, never as "read"
    assert any(site == "Open Library" and "search" in url for site, url in plain.links)


def test_a_films_card_has_its_director_year_image_and_trailer():
    card = item_card(movie_kb(), "F1")
    assert card.creators == ("Ada Quill",) and card.creator_role == "director" and card.year == 2004
    assert card.image == "https://example.org/paper-moons.jpg"
    assert card.trailer == "https://www.youtube.com/watch?v=abcdefghijk"
    assert item_card(movie_kb(), "F5").trailer is None  # no trailer: no trailer button (tests/bot)


def test_the_cast_is_listed_by_prominence_and_a_producers_cameo_as_producer():
    card = item_card(movie_kb(), "F1")
    people = dict(card.people)
    assert people["cast"][0] == "Eli Fenn"  # the best-known actor first, whatever the KB order
    assert people["cast"] == ("Eli Fenn", "Ada Quill", "Fay Gould")
    assert "Dee Marsh" not in people["cast"] and people["producer"] == ("Dee Marsh",)
    assert len(people["cast"]) <= MAX_CAST


def test_a_cut_genre_name_is_never_shown():
    card = item_card(movie_kb(), "F1")
    assert card.genres == ("drama film",)  # "film based on" is left out


def test_card_coverage_counts_what_cards_can_show():
    counts = card_coverage(movie_kb())
    assert counts["items"] == 9 and counts["trailer"] == 2 and counts["image"] == 1
    assert counts["year"] == 3 and counts["creator"] == 9
    assert card_coverage(music_kb())["creator"] == 8  # 9 items (8 songs, an album); Northbound has no performer
    assert card_coverage(music_kb())["listen"] == 1 and card_coverage(book_kb())["read"] == 1


# -- kinds ----------------------------------------------------------------------------------------


def test_a_television_series_typed_film_too_is_not_a_film():
    schema = DOMAINS["movie"]
    closures = {k.name: set(k.classes) for k in schema.kinds}
    rules = KindRules(schema, closures, {})
    assert rules.by_type(TypeSets(p31=frozenset({"Q11424", "Q5398426"}))).name == "broadcast"
    assert rules.by_type(TypeSets(p31=frozenset({"Q11424"}))).name == "film"
    by_words = rules.by_type(TypeSets(p31=frozenset({"Q11424"})), "1977 American drama miniseries")
    assert by_words is not None and by_words.name == "broadcast" and not by_words.item
    pilot = rules.by_type(TypeSets(p31=frozenset({"Q11424"})), "pilot movie of the TV series Starfall")
    assert pilot is not None and pilot.name == "film"
    assert rules.class_kinds({"Q5398426", "Q11424", "Q5"}) == {
        "Q5398426": "broadcast",
        "Q11424": "film",
        "Q5": "person",
    }


def test_described_kind_reads_the_head_noun():
    tv = Kind("broadcast", "television series", described=BROADCAST_DESCRIPTION)
    assert described_kind(tv, "British crime television series by Ben Orr")
    assert described_kind(tv, "TV mini-series")
    assert not described_kind(tv, "2019 film based on the television series")
    assert not described_kind(tv, "1999 American television film")


def test_the_audit_counts_an_item_whose_classes_make_it_a_television_series():
    kb = movie_kb()
    assert wrong_class(kb, "F9") is not None and "broadcast" in wrong_class(kb, "F9")
    assert wrong_class(kb, "F1") is None
    described = movie_kb(classes={})  # no classes kept: the description still tells
    assert "television series" in (wrong_class(described, "F9") or "")
