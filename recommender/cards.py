"""Item cards: what the dialog shows of a recommended item, from the knowledge base only.

A card names the item's creator whenever the KB knows one (a film's director, a book's author, a
song's or album's band or artist, its album's when it has none of its own: ``recommender.constraints.
creators``), its year, its image (when the KB has one), the people by role with each role's names
by prominence (the KB has no billing order: a person's popularity, i.e. the works they are linked to,
stands for it; a producer's cameo is listed as producer, ``names.known_role``), its genres (never a
cut name such as "film based on"), links to pages about it, and what can be watched, heard or read:
the trailer (YouTube id, P1651) only where the item has one, a "listen" page (Spotify, Last.fm) or a
"read" page (Open Library, Goodreads) only where the KB has its id; search links are never presented
as the thing itself.

Example (``kb`` a movie knowledge base):
    >>> card = item_card(kb, "Q46551")                          # doctest: +SKIP
    >>> card.creators, card.people[1]                           # doctest: +SKIP
    (('Christopher Nolan',), ('cast', ('Michael Caine', 'Scarlett Johansson', 'Hugh Jackman', 'Christian Bale')))
"""

from __future__ import annotations

import logging
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from recommender.constraints import CREATOR_PIDS, creators
from recommender.kb import spotify_url
from recommender.names import item_year, known_role, unfinished_name
from recommender.schema import role_name
from recommender.values import PID, QID, KnowledgeBaseLike

logger = logging.getLogger(__name__)

MAX_PEOPLE = 3
"""Names shown per role on a card (the cast: :data:`MAX_CAST`)."""
MAX_CAST = 4
"""Cast members shown, by prominence."""

GENRE_PIDS = frozenset({"P136"})
PEOPLE_ROLE_ORDER: tuple[tuple[PID, str], ...] = (
    ("P57", "director"),
    ("P50", "author"),
    ("P175", "performer"),
    ("P161", "cast"),
    ("P58", "screenwriter"),
    ("P86", "composer"),
    ("P162", "producer"),
    ("P170", "creator"),
    ("P264", "record label"),
    ("P272", "production company"),
)
"""Roles shown on an item card, in display order (movies, and any domain without its own list)."""

CARD_ROLES: Mapping[str, tuple[tuple[PID, str], ...]] = {
    "book": (("P50", "author"), ("P179", "series"), ("P135", "movement"), ("P123", "publisher")),
    "music": (
        ("P175", "performer"),
        ("P361", "album"),
        ("P86", "composer"),
        ("P676", "lyricist"),
        ("P264", "record label"),
    ),
}
"""Roles on the card of a book (author, series) and of a song or album (performer, album), in display
order; a music performer is shown as "band" or "artist" by its kind (``schema.role_name``)."""


@dataclass(frozen=True, slots=True)
class ItemCard:
    """What the dialog shows for a card, "details", "trailer", "who is it by?" and "when is it from?".

    Attributes:
        qid, label: the item.
        year: release/publication year or None.
        description: short description or None.
        people: (role, (name, ...)) in :data:`PEOPLE_ROLE_ORDER` / :data:`CARD_ROLES` order, each
            role's names by prominence (at most :data:`MAX_PEOPLE`, the cast :data:`MAX_CAST`).
        genres: genre names.
        image: image URL or None.
        links: (site, URL) from KB identifiers (IMDb, Spotify, Last.fm, ...), may be empty.
        trailer: a trailer URL (only from the item's own video id), or None.
        preview_note: an honest sentence when no trailer/preview is known, with the search link.
        search_url: a web search for a trailer/preview (always set).
        creators: the creator's names (director / author / band or artist), empty when the KB has none.
        creator_role: the creator's role word ("director", "author", "band", "artist"), or None.
        listen: a page to listen to the item (Spotify, else Last.fm) when the KB has its id, else None.
        read: a page to read the book (Open Library, else Goodreads) when the KB has its id, else None.
    """

    qid: QID
    label: str
    year: int | None
    description: str | None
    people: tuple[tuple[str, tuple[str, ...]], ...]
    genres: tuple[str, ...]
    image: str | None
    links: tuple[tuple[str, str], ...]
    trailer: str | None
    preview_note: str | None
    search_url: str
    creators: tuple[str, ...] = ()
    creator_role: str | None = None
    listen: str | None = None
    read: str | None = None


_LINK_TEMPLATES: tuple[tuple[tuple[str, ...], str, str], ...] = (
    # (ItemDetails attributes tried, site name, URL template)
    (("imdb_id", "imdb"), "IMDb", "https://www.imdb.com/title/{}/"),
    (("tmdb_id", "tmdb"), "TMDB", "https://www.themoviedb.org/movie/{}"),
    (("lastfm_id", "lastfm"), "Last.fm", "https://www.last.fm/music/{}"),
    (("discogs_id", "discogs"), "Discogs", "https://www.discogs.com/master/{}"),
    (("wikipedia",), "Wikipedia", "{}"),
)
_PREVIEW_SITES = (
    "IMDb",
    "Spotify",
    "Last.fm",
    "TMDB",
    "Discogs",
    "MusicBrainz",
    "Open Library",
    "Goodreads",
    "Wikipedia",
)


# what a card lacks when the KB has no trailer, in the domain's words (a song has no "trailer": fresh tester)
_MISSING_PREVIEW = {"movie": "a trailer or preview", "book": "a preview", "music": "a recording to listen to"}


def preview_links(details: Any) -> tuple[tuple[str, str], ...]:
    """(site, URL) links from the identifiers of an ``ItemDetails`` (missing ones skipped).

    Uses ``ItemDetails.links()`` when the object has it (minus its trailer and Wikidata entries),
    else the attributes ``imdb_id``, ``tmdb_id``, ``spotify_id``, ``lastfm_id``, ``discogs_id``,
    ``wikipedia``. An IMDb id starting with ``nm`` links to a person page.
    """
    links: list[tuple[str, str]] = []
    if callable(getattr(details, "links", None)):
        links = [(site, url) for site, url in details.links() if site in _PREVIEW_SITES]
    else:
        spotify = _first_attr(details, "spotify_id", "spotify")
        if spotify:
            label = str(_first_attr(details, "label") or spotify)
            links.append(("Spotify", spotify_url(str(spotify), _first_attr(details, "spotify_kind"), label)))
        for attrs, site, template in _LINK_TEMPLATES:
            raw = _first_attr(details, *attrs)
            if not raw:
                continue
            ident = str(raw).strip()
            url = ident if template == "{}" else template.format(urllib.parse.quote(ident, safe="/+"))
            links.append((site, url))
    out: list[tuple[str, str]] = []
    for site, url in links:
        if site == "IMDb" and "/title/nm" in url:
            url = url.replace("/title/", "/name/")
        if (site, url) not in out:
            out.append((site, url))
    return tuple(out)


def _first_attr(obj: Any, *names: str) -> Any:
    for name in names:
        value = obj.get(name) if isinstance(obj, Mapping) else getattr(obj, name, None)
        if value:
            return value
    return None


def trailer_url(raw: str | None) -> str | None:
    """A YouTube URL from a Wikidata P1651 video id (or the URL itself); None if absent."""
    if not raw:
        return None
    raw = raw.strip()
    if raw.startswith(("http://", "https://")):
        return raw
    return "https://www.youtube.com/watch?v=" + urllib.parse.quote(raw, safe="")


def item_card(kb: KnowledgeBaseLike, qid: QID, *, max_people: int = MAX_PEOPLE) -> ItemCard:
    """Details and preview of one item, from the KB only (no network; see the module docstring).

    Per domain (issue 16): a film's director, cast, screenwriter ... (:data:`PEOPLE_ROLE_ORDER`); a
    book's author, series, movement, publisher; a song's or album's band or artist, album, composer,
    lyricist, record label (:data:`CARD_ROLES`; a song without a performer of its own shows its
    album's, and without genres of its own its album's genres). The year is
    ``ItemDetails.year``, else the one in its description or Wikipedia title (``names.item_year``).
    Links come from the identifiers the KB has (``ItemDetails.links``: IMDb, TMDB, Spotify by the
    id's kind, Last.fm, Discogs, MusicBrainz recording / release group, Open Library, Goodreads,
    Wikipedia); a song or album without a Spotify id gets a Spotify search by name, a book without an
    Open Library id an Open Library search by title and author (never a guessed id).

    Args:
        kb: knowledge base.
        qid: the item.
        max_people: names shown per role (the cast: :data:`MAX_CAST`).

    Returns:
        :class:`ItemCard`. When the KB has no trailer (Wikidata P1651), ``trailer`` is None and
        ``preview_note`` says so honestly, pointing to the item's IMDb/Spotify/Last.fm page when known
        and to a search link (never an invented URL).
    """
    label = kb.label(qid)
    try:
        details = kb.details(qid)
    except Exception as exc:  # noqa: BLE001 - a card without details is still a card
        logger.info("no details for %s: %s", qid, exc)
        details = None
    domain = getattr(kb, "domain", "")
    claims = _card_claims(kb, qid, domain)
    people, genres = _people_and_genres(kb, claims, domain, max_people)
    creator_names, creator_role = _creators(kb, qid, domain)
    year = _first_attr(details, "year") if details is not None else None
    if not year:
        year = item_year(kb, qid)
    description = (_first_attr(details, "description") if details is not None else None) or kb.description(qid)
    image = _first_attr(details, "image") if details is not None else None
    trailer = trailer_url(_first_attr(details, "trailer") if details is not None else None)
    links = preview_links(details) if details is not None else ()
    listen = next((url for site, url in links if site in ("Spotify", "Last.fm")), None) if domain == "music" else None
    read = (
        next((url for site, url in links if site in ("Open Library", "Goodreads")), None) if domain == "book" else None
    )
    if domain == "music" and not any(site == "Spotify" for site, _ in links):
        links = (*links, ("Spotify", spotify_url(None, None, label)))  # a search by name, never a guessed id
    if domain == "book" and not any(site == "Open Library" for site, _ in links):
        query = f"{label} {creator_names[0]}" if creator_names else label
        links = (*links, ("Open Library", "https://openlibrary.org/search?q=" + urllib.parse.quote_plus(query)))
    kind = {"movie": "trailer", "book": "book preview", "music": "listen"}.get(domain, "trailer")
    query = f"{label} {year} {kind}" if year else f"{label} {kind}"
    host = (
        "https://www.google.com/search?tbm=bks&q="
        if kind == "book preview"
        else "https://www.youtube.com/results?search_query="
    )
    search_url = host + urllib.parse.quote_plus(query)
    note = None
    if not trailer:
        where = f" Its {links[0][0]} page: {links[0][1]}." if links else ""
        note = (
            f"I don't have {_MISSING_PREVIEW.get(domain, 'a trailer or preview')} for {label} in my knowledge base.{where} "
            f"You can search for one: {search_url}"
        )
    year_int = int(year) if isinstance(year, int) or (isinstance(year, str) and year.isdigit()) else None
    return ItemCard(
        qid=qid,
        label=label,
        year=year_int,
        description=description,
        people=people,
        genres=genres,
        image=image or None,
        links=links,
        trailer=trailer,
        preview_note=note,
        search_url=search_url,
        creators=creator_names,
        creator_role=creator_role,
        listen=listen,
        read=read,
    )


CARD_FIELDS = ("items", "trailer", "image", "year", "creator", "listen", "read")
"""What :func:`card_coverage` counts."""


def card_coverage(kb: KnowledgeBaseLike) -> dict[str, int]:
    """How many of the domain's items a card can show each of: a trailer, an image, a year (as
    :func:`item_card` finds it), a creator (labelled), a page to listen to it (music) or to read it
    (books). Keys: :data:`CARD_FIELDS` (``items``: how many items there are)."""
    domain = getattr(kb, "domain", "")
    counts = dict.fromkeys(CARD_FIELDS, 0)
    for qid in kb.items:
        counts["items"] += 1
        details = kb.details(qid)
        counts["trailer"] += bool(getattr(details, "trailer", None))
        counts["image"] += bool(getattr(details, "image", None))
        counts["year"] += item_year(kb, qid) is not None
        counts["creator"] += any(_named(kb, c) for c in creators(kb, qid))
        if domain == "music":
            counts["listen"] += bool(getattr(details, "spotify_id", None) or getattr(details, "lastfm_id", None))
        if domain == "book":
            counts["read"] += bool(getattr(details, "openlibrary_id", None) or getattr(details, "goodreads_id", None))
    return counts


def _named(kb: KnowledgeBaseLike, value: QID) -> bool:
    """The value has a label a user can read (an unlabelled one would show as a bare QID)."""
    has_label = getattr(kb, "has_label", None)
    return bool(has_label(value)) if has_label is not None else kb.label(value) != value


def _card_claims(kb: KnowledgeBaseLike, qid: QID, domain: str) -> list[tuple[PID, QID]]:
    """The item's claims; a song without a performer or genres of its own gets its album's."""
    claims = list(kb.item_values(qid))
    if domain == "music":
        albums = [v for p, v in claims if p == "P361"]
        for wanted in ("P175", "P136"):
            if not any(p == wanted for p, _ in claims):
                claims += [(p, v) for album in albums for p, v in kb.item_values(album) if p == wanted]
    return claims


def _people_and_genres(
    kb: KnowledgeBaseLike, claims: list[tuple[PID, QID]], domain: str, max_people: int
) -> tuple[tuple[tuple[str, tuple[str, ...]], ...], tuple[str, ...]]:
    """(role, names by prominence) in the domain's card order, and the genre names."""
    order = CARD_ROLES.get(domain, PEOPLE_ROLE_ORDER)
    role_of = dict(order)
    kind_of = getattr(kb, "kind", None)
    pids_of: dict[QID, list[PID]] = {}
    for pid, value in claims:
        pids_of.setdefault(value, []).append(pid)
    by_role: dict[str, list[QID]] = {}
    genres: list[str] = []
    for pid, value in claims:
        if not _named(kb, value):
            continue
        name = kb.label(value)
        if pid in GENRE_PIDS:
            if name not in genres and not unfinished_name(name):
                genres.append(name)
            continue
        if pid not in role_of:
            continue
        known = known_role(kb, value, [p for p in pids_of[value] if p in role_of])
        if known is not None and known != pid:
            continue  # a producer's cameo is listed as producer only
        role = role_of[pid]
        if pid == "P175" and domain == "music" and callable(kind_of):
            role = role_name(pid, domain, kind_of(value))  # "band" or "artist"
        values = by_role.setdefault(role, [])
        if value not in values:
            values.append(value)
    rank = {role: i for i, (_p, role) in enumerate(order)}
    roles = sorted(by_role, key=lambda role: rank.get(role, rank.get("performer", len(rank))))
    people = []
    for role in roles:
        limit = MAX_CAST if role == "cast" and max_people == MAX_PEOPLE else max_people
        ranked = sorted(by_role[role], key=lambda v: -_prominence(kb, v))  # stable: KB order breaks ties
        names = list(dict.fromkeys(kb.label(v) for v in ranked))[:limit]
        people.append((role, tuple(names)))
    return tuple(people), tuple(genres)


def _prominence(kb: KnowledgeBaseLike, value: QID) -> float:
    """How well known a person is: the KB's popularity (linked works, an article), 0 if unknown."""
    popularity = getattr(kb, "popularity", None)
    return float(popularity(value)) if callable(popularity) else 0.0


def _creators(kb: KnowledgeBaseLike, qid: QID, domain: str) -> tuple[tuple[str, ...], str | None]:
    """The creator's names (labelled ones, by prominence) and role word."""
    found = [c for c in creators(kb, qid) if _named(kb, c)]
    if not found:
        return (), None
    found.sort(key=lambda c: -_prominence(kb, c))
    pid = CREATOR_PIDS.get(domain, ("P57",))[0]
    kind_of = getattr(kb, "kind", None)
    kind = kind_of(found[0]) if callable(kind_of) else None
    role = role_name(pid, domain, kind) if domain == "music" else dict(PEOPLE_ROLE_ORDER).get(pid, role_name(pid))
    return tuple(dict.fromkeys(kb.label(c) for c in found))[:MAX_PEOPLE], role


__all__ = [
    "CARD_FIELDS",
    "CARD_ROLES",
    "card_coverage",
    "GENRE_PIDS",
    "MAX_CAST",
    "MAX_PEOPLE",
    "PEOPLE_ROLE_ORDER",
    "ItemCard",
    "item_card",
    "preview_links",
    "trailer_url",
]
