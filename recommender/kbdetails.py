"""What the bot shows about an entity beyond its name: :class:`ItemDetails` and its links.

A snapshot stores the detail fields of each entity (``DomainSchema.details``: year, image, trailer, the
ids of IMDb, TMDB, Spotify, Last.fm, Discogs, MusicBrainz, Open Library, Goodreads) as a small mapping;
:func:`stored_details` turns one into :class:`ItemDetails` (``KnowledgeBase.details``), whose
:meth:`ItemDetails.links` gives the external pages, built from Wikidata's formatter URLs.

Example:
    >>> d = stored_details(QID("Q83495"), "The Matrix", {"year": 1999, "imdb_id": "tt0133093"},
    ...                    description=None, wikipedia=None, is_work=lambda: False)
    >>> d.year, d.links()[0]
    (1999, ('IMDb', 'https://www.imdb.com/title/tt0133093/'))
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from recommender.schema import QID


@dataclass(frozen=True, slots=True)
class ItemDetails:
    """What the bot can show about an entity beyond its name.

    Attributes:
        qid: the entity.
        label: its display name (en > mul > any; the QID only if it has no label at all).
        description: short description (en > mul) or None.
        year: publication year (P577, else inception P571) or None.
        image: Commons image URL (P18) or None.
        trailer: YouTube video id (P1651) or None.
        imdb_id: IMDb id (P345), e.g. ``"tt0133093"``, or None.
        tmdb_id: TMDB movie id (P4947) or None.
        spotify_id: Spotify track (P2207), album (P2205) or artist (P1902) id, or None.
        spotify_kind: ``"track"``, ``"album"`` or ``"artist"`` (the open.spotify.com page kind of
            ``spotify_id``), or None when unknown (then only a search link is built).
        lastfm_id: Last.fm id (P3192) or None.
        discogs_id: Discogs master id (P1954) or None.
        wikipedia: English Wikipedia article URL or None.
        openlibrary_id: Open Library id (P648, ``OL…W`` work or ``OL…M`` edition) or None.
        goodreads_id: Goodreads work id (P8383, else the version id P2969) or None.
        musicbrainz_id: MusicBrainz recording (P4404) or release-group (P436) id, or None.
        musicbrainz_kind: ``"recording"`` or ``"release-group"`` (the page kind of ``musicbrainz_id``).
    """

    qid: QID
    label: str
    description: str | None = None
    year: int | None = None
    image: str | None = None
    trailer: str | None = None
    imdb_id: str | None = None
    tmdb_id: str | None = None
    spotify_id: str | None = None
    lastfm_id: str | None = None
    discogs_id: str | None = None
    wikipedia: str | None = None
    spotify_kind: str | None = None
    openlibrary_id: str | None = None
    goodreads_id: str | None = None
    musicbrainz_id: str | None = None
    musicbrainz_kind: str | None = None

    def links(self) -> tuple[tuple[str, str], ...]:
        """External pages about the entity as ``((site name, URL), ...)``, most useful first.

        URLs follow the Wikidata formatter URLs of the identifiers (P1651 YouTube video, P345 IMDb
        title ``tt…`` or name ``nm…``, P4947 TMDB movie, P2207/P2205/P1902 Spotify
        track/album/artist, P3192 Last.fm, P1954 Discogs master, P4404/P436 MusicBrainz recording /
        release group, P648 Open Library, P8383 Goodreads work), with each id URL-quoted. A Spotify
        id of unknown kind or malformed gives a Spotify search for the label instead.
        """
        out: list[tuple[str, str]] = []
        if self.trailer:
            out.append(("trailer", "https://www.youtube.com/watch?v=" + quote(self.trailer.strip(), safe="")))
        if self.imdb_id:
            kind = "name" if self.imdb_id.startswith("nm") else "title"
            out.append(("IMDb", f"https://www.imdb.com/{kind}/{quote(self.imdb_id.strip(), safe='')}/"))
        if self.tmdb_id:
            out.append(("TMDB", f"https://www.themoviedb.org/movie/{quote(self.tmdb_id.strip(), safe='')}"))
        if self.spotify_id:
            out.append(("Spotify", spotify_url(self.spotify_id, self.spotify_kind, self.label)))
        if self.lastfm_id:  # Wikidata stores it URL-ready ("Pink+Floyd", "%EB%B0%95"): only spaces are fixed
            out.append(
                (
                    "Last.fm",
                    "https://www.last.fm/music/"
                    + quote(self.lastfm_id.strip().replace(" ", "+"), safe="/+%_-.~!*'(),:@&=;$"),
                )
            )
        if self.discogs_id:
            out.append(("Discogs", f"https://www.discogs.com/master/{quote(self.discogs_id.strip(), safe='')}"))
        if self.musicbrainz_id and self.musicbrainz_kind in ("recording", "release-group"):
            mbid = quote(self.musicbrainz_id.strip(), safe="")
            out.append(("MusicBrainz", f"https://musicbrainz.org/{self.musicbrainz_kind}/{mbid}"))
        if self.openlibrary_id:
            olid = self.openlibrary_id.strip()
            kind = "works" if olid.endswith("W") else "authors" if olid.endswith("A") else "books"
            out.append(("Open Library", f"https://openlibrary.org/{kind}/{quote(olid, safe='')}"))
        if self.goodreads_id:
            out.append(
                ("Goodreads", f"https://www.goodreads.com/work/show/{quote(self.goodreads_id.strip(), safe='')}")
            )
        if self.wikipedia:
            out.append(("Wikipedia", self.wikipedia))
        out.append(("Wikidata", f"https://www.wikidata.org/wiki/{self.qid}"))
        return tuple(out)


SPOTIFY_KINDS = ("track", "album", "artist")
"""open.spotify.com page kinds, by the Wikidata property of the id (P2207, P2205, P1902)."""
_SPOTIFY_ID = re.compile(r"^[0-9A-Za-z]{22}$")


def detail_group(name: str) -> str:
    """The ``ItemDetails`` field a stored detail fills (``spotify_album_id`` -> ``spotify_id``)."""
    for prefix in ("spotify_", "musicbrainz_"):
        if name.startswith(prefix):
            return prefix + "id"
    return name


def spotify_url(spotify_id: str | None, kind: str | None, label: str) -> str:
    """The open.spotify.com page of an id of a known ``kind``, else a Spotify search for ``label``.

    Args:
        spotify_id: a Spotify base-62 id (22 characters) or None.
        kind: ``"track"``, ``"album"``, ``"artist"`` or None (unknown).
        label: the entity's name, used for the search URL.

    Returns:
        ``https://open.spotify.com/<kind>/<id>`` when both are valid, else
        ``https://open.spotify.com/search/<label, URL-quoted>``.

    Example:
        >>> spotify_url("4Z8W4fKeB5YxbusRsdQVPb", "artist", "Radiohead")
        'https://open.spotify.com/artist/4Z8W4fKeB5YxbusRsdQVPb'
        >>> spotify_url(None, None, "AC/DC & friends")
        'https://open.spotify.com/search/AC%2FDC%20%26%20friends'
    """
    if spotify_id and kind in SPOTIFY_KINDS and _SPOTIFY_ID.match(spotify_id.strip()):
        return f"https://open.spotify.com/{kind}/{spotify_id.strip()}"
    return "https://open.spotify.com/search/" + quote(label, safe="")


DETAIL_NAMES: tuple[str, ...] = (
    "year",
    "image",
    "trailer",
    "imdb_id",
    "tmdb_id",
    "spotify_id",
    "lastfm_id",
    "discogs_id",
    "openlibrary_id",
    "goodreads_id",
    "musicbrainz_id",
)
"""The ``ItemDetails`` fields filled from detail properties (see ``DomainSchema.details``); the snapshot
stores the Spotify id under ``spotify_<kind>_id`` (kinds: :data:`SPOTIFY_KINDS`), older ones under
``spotify_id``, and the MusicBrainz id under ``musicbrainz_<kind>_id`` (recording, release_group)."""


def stored_details(
    qid: QID,
    label: str,
    stored: Mapping[str, Any],
    *,
    description: str | None,
    wikipedia: str | None,
    is_work: Callable[[], bool],
) -> ItemDetails:
    """The :class:`ItemDetails` of an entity from its stored detail fields.

    Args:
        qid: the entity.
        label: its display name.
        stored: its snapshot ``details`` entry (field name -> value; see :data:`DETAIL_NAMES`).
        description: its description, or None.
        wikipedia: its English Wikipedia article URL, or None.
        is_work: whether it has a performer (P175); asked only for a Spotify id stored without its
            kind (an older snapshot), which is then an album's for a work and an artist's otherwise.
    """
    d = stored
    year = d.get("year")
    spotify_id, spotify_kind = _spotify(d, is_work)
    return ItemDetails(
        qid=qid,
        label=label,
        description=description,
        year=int(year) if isinstance(year, int) else None,
        image=d.get("image"),
        trailer=d.get("trailer"),
        imdb_id=d.get("imdb_id"),
        tmdb_id=d.get("tmdb_id"),
        spotify_id=spotify_id,
        spotify_kind=spotify_kind,
        lastfm_id=d.get("lastfm_id"),
        discogs_id=d.get("discogs_id"),
        wikipedia=wikipedia,
        openlibrary_id=d.get("openlibrary_id"),
        goodreads_id=d.get("goodreads_id"),
        musicbrainz_id=d.get("musicbrainz_recording_id") or d.get("musicbrainz_release_group_id"),
        musicbrainz_kind="recording"
        if d.get("musicbrainz_recording_id")
        else "release-group"
        if d.get("musicbrainz_release_group_id")
        else None,
    )


def _spotify(d: Mapping[str, Any], is_work: Callable[[], bool]) -> tuple[str | None, str | None]:
    """(Spotify id, page kind) of an entity's details; snapshots written before the kinds were
    kept (one ``spotify_id`` field, album id preferred over artist id) give ``album`` for a work
    (it has a performer) and ``artist`` otherwise."""
    for kind in SPOTIFY_KINDS:
        if d.get(f"spotify_{kind}_id"):
            return d[f"spotify_{kind}_id"], kind
    legacy = d.get("spotify_id")
    if not legacy:
        return None, None
    return legacy, "album" if is_work() else "artist"


def count_detail_fields(stored: Iterable[Mapping[str, Any]]) -> Counter[str]:
    """How many of the ``stored`` detail mappings fill each :class:`ItemDetails` field (one count per
    entity and field: a Spotify track id and album id count once, as ``spotify_id``)."""
    counts: Counter[str] = Counter()
    for d in stored:
        counts.update({detail_group(k) for k, v in d.items() if v is not None})
    return counts


__all__ = [
    "DETAIL_NAMES",
    "SPOTIFY_KINDS",
    "ItemDetails",
    "count_detail_fields",
    "detail_group",
    "spotify_url",
    "stored_details",
]
