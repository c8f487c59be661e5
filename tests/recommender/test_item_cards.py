"""Item cards per domain (issue 16): books (author, series, year, genres, Wikipedia / Open Library /
Goodreads), music (band or artist, album, year, genres, Spotify / Last.fm / Discogs / MusicBrainz)."""

from __future__ import annotations

from types import SimpleNamespace

from recommender.cards import item_card, preview_links
from recommender.kb import ItemDetails


def test_book_card_has_author_series_genre_and_an_open_library_search(tiny_kbs):
    book = tiny_kbs["book"]
    card = item_card(book, "Q11678")  # The Hunger Games
    assert dict(card.people) == {"author": ("Suzanne Collins",), "series": ("The Hunger Games trilogy",)}
    assert [role for role, _ in card.people] == ["author", "series"]
    assert card.genres == ("dystopian novel",)
    links = dict(card.links)
    assert (
        links["Open Library"] == "https://openlibrary.org/search?q=The+Hunger+Games+Suzanne+Collins"
    )  # no id: a search
    assert "Wikipedia" not in links
    assert dict(item_card(book, "Q8337").links)["Wikipedia"].startswith("https://en.wikipedia.org/wiki/Harry_Potter")


def test_book_and_music_ids_link_to_their_pages():
    book = ItemDetails(qid="Q1", label="Dune", openlibrary_id="OL893415W", goodreads_id="3634639")
    links = dict(preview_links(book))
    assert links["Open Library"] == "https://openlibrary.org/works/OL893415W"
    assert links["Goodreads"] == "https://www.goodreads.com/work/show/3634639"
    song = ItemDetails(
        qid="Q2",
        label="Teen Spirit",
        spotify_id="5ghIJDpPoe3CfHMGu71E6T",
        spotify_kind="track",
        musicbrainz_id="7f2b0b8e-0d8a-4f3e-8e3f-2b6a1f2a9c01",
        musicbrainz_kind="recording",
        discogs_id="42",
        lastfm_id="Nirvana/_/Smells+Like+Teen+Spirit",
    )
    links = dict(preview_links(song))
    assert links["Spotify"] == "https://open.spotify.com/track/5ghIJDpPoe3CfHMGu71E6T"
    assert links["MusicBrainz"] == "https://musicbrainz.org/recording/7f2b0b8e-0d8a-4f3e-8e3f-2b6a1f2a9c01"
    assert links["Discogs"] == "https://www.discogs.com/master/42"
    assert links["Last.fm"] == "https://www.last.fm/music/Nirvana/_/Smells+Like+Teen+Spirit"
    album = ItemDetails(qid="Q3", label="Nevermind", musicbrainz_id="1b022e01", musicbrainz_kind="release-group")
    assert dict(preview_links(album))["MusicBrainz"] == "https://musicbrainz.org/release-group/1b022e01"


def test_music_card_names_the_band_and_the_album(tiny_kbs):
    music = tiny_kbs["music"]
    card = item_card(music, "Q900022")  # Sample Song, by Nirvana, on Nevermind
    assert card.people[:2] == (("band", ("Nirvana",)), ("album", ("Nevermind",)))
    album = item_card(music, "Q17444")
    assert album.people[0] == ("band", ("Nirvana",))
    assert dict(album.links)["Spotify"] == "https://open.spotify.com/album/2UJcKiJxNryhL050F5Z1Fk"


class SongKB:
    """A song whose performer and genres are only on its album (the shared dump's usual shape)."""

    domain = "music"
    labels = {"S": "Smells Like Teen Spirit", "A": "Nevermind", "N": "Nirvana", "G": "grunge", "X": "X"}
    claims = {"S": (("P361", "A"),), "A": (("P175", "N"), ("P136", "G")), "N": ()}

    def label(self, q):
        return self.labels.get(q, q)

    def has_label(self, q):
        return q in self.labels and q != "X"

    def kind(self, q):
        return {"S": "song", "A": "album", "N": "band", "G": "genre"}.get(q)

    def item_values(self, q):
        return self.claims.get(q, ())

    def description(self, q):
        return "1991 single by Nirvana" if q == "S" else None

    def details(self, q):
        return SimpleNamespace(year=None, description=self.description(q), image=None, trailer=None)


def test_a_song_shows_its_albums_band_and_genres_and_a_year_from_its_description():
    card = item_card(SongKB(), "S")  # type: ignore[arg-type]
    assert card.people == (("band", ("Nirvana",)), ("album", ("Nevermind",)))
    assert card.genres == ("grunge",)
    assert card.year == 1991
    assert dict(card.links)["Spotify"] == "https://open.spotify.com/search/Smells%20Like%20Teen%20Spirit"
