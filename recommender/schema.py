"""Declarative domain schemas of the knowledge base: item classes, edge properties, detail fields.

One place says, for each domain (``movie``, ``book``, ``music``), which Wikidata entities are the
recommendable *items*, which properties become graph *edges* (with the user-facing role name used
when the bot asks "did you mean X the director or X the actor?"), and which *detail fields* are shown
to users. ``recommender.sparql`` turns a schema into SPARQL written for Wikidata's vocabulary
(``wdt:`` direct claims, ``rdfs:label``/``skos:altLabel``/``schema:description``), so the same schema
drives a build from query.wikidata.org, a local Oxigraph server or the embedded store.

Items are entities with ``wdt:P31`` in the subclass closure (``wdt:P279*``) of the domain's root
classes, minus the closure of its excluded classes (the offline dump makes ``song`` a subclass of
``literary work`` and ``mockumentary`` one of both ``film`` and ``literary work``: books exclude the
film and music classes, films exclude TV and music classes but not literary ones, so a film genre
class wins over a literary one; a domain's own roots always stay, with their subclasses); music artists are
typed by occupation instead (``wdt:P106`` in the closure of musician Q639669, as in Wikidata and in the
offline dump).

Music domain decision: both *works* (album, song, single, EP) and *artists* (musicians, musical
groups) are items. The released study's music users named artists, songs and albums; artists are
also values of works (``performer`` P175), so an artist is at once an item and a property value, and
PageRank can flow album -> performer -> other albums and artist -> genre -> other artists.

Example:
    >>> DOMAINS["movie"].role("P161")
    'actor'
    >>> role_name(PID("P57"))
    'director'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import NewType

from corsbot_errors import ConfigError


class Domain(StrEnum):
    """The three domains (a ``str``: ``Domain.MOVIE == "movie"``, usable as a key of ``DOMAINS``)."""

    MOVIE = "movie"
    BOOK = "book"
    MUSIC = "music"


QID = NewType("QID", str)
"""A Wikidata entity id such as ``"Q83495"``."""
PID = NewType("PID", str)
"""A Wikidata property id such as ``"P57"``."""

WD = "http://www.wikidata.org/entity/"
"""IRI prefix of Wikidata entities (``wd:``)."""
WDT = "http://www.wikidata.org/prop/direct/"
"""IRI prefix of Wikidata direct claims (``wdt:``)."""


@dataclass(frozen=True, slots=True)
class EdgeProperty:
    """A property whose (item, value) claims become graph edges.

    Attributes:
        pid: the Wikidata property, e.g. ``"P57"``.
        role: the user-facing role of a value, e.g. ``"director"`` ("X the director").
    """

    pid: PID
    role: str


@dataclass(frozen=True, slots=True)
class DetailField:
    """A property shown to users about an item (not an edge).

    Attributes:
        name: the ``ItemDetails`` attribute it fills (``year``, ``image``, ``imdb_id`` ...).
        pid: the Wikidata property (``P577`` publication date, ``P18`` image, ``P345`` IMDb id ...).
        kind: ``"date"`` (an ``xsd:dateTime``; the year is kept), ``"url"`` (an IRI, e.g. a Commons
            file) or ``"id"`` (a plain external-identifier string).
    """

    name: str
    pid: PID
    kind: str


@dataclass(frozen=True, slots=True)
class ValueType:
    """A kind of entity known to the domain as a property value even when no item links to it.

    Such entities (e.g. a writer whose books are not in the graph, a genre nobody is tagged with)
    are kept so the bot can recognise them by name and say it knows too little about them, rather
    than not recognising them at all.

    Attributes:
        via: ``"P31"`` (instance of a class) or ``"P106"`` (occupation of a person).
        roots: root classes / occupations; their ``wdt:P279*`` closure is used.
        role: the property whose values they are (``P136`` for genres, ``P50`` for writers ...).
    """

    via: PID
    roots: tuple[QID, ...]
    role: PID


@dataclass(frozen=True, slots=True)
class DomainSchema:
    """What the knowledge base of one domain contains.

    Attributes:
        name: ``"movie"``, ``"book"`` or ``"music"``.
        item_classes: roots of the item classes; items have ``wdt:P31`` in their ``wdt:P279*``
            closure.
        excluded_classes: roots whose closure is removed from the item classes (another domain's);
            the domain's own roots and their subclasses are kept if a root is itself under one.
        item_occupations: roots of occupations (``wdt:P106``) that make a person an item (music
            artists); empty for the other domains.
        edges: edge properties, most important first.
        details: detail fields shown to users.
        value_types: entities kept as values even without an edge (with their declared role).
    """

    name: str
    item_classes: tuple[QID, ...]
    excluded_classes: tuple[QID, ...]
    item_occupations: tuple[QID, ...]
    edges: tuple[EdgeProperty, ...]
    details: tuple[DetailField, ...]
    value_types: tuple[ValueType, ...] = ()

    @property
    def edge_pids(self) -> tuple[PID, ...]:
        """The edge properties' ids, in schema order."""
        return tuple(e.pid for e in self.edges)

    def role(self, pid: str) -> str:
        """The role name of ``pid`` in this domain, or the global :func:`role_name`."""
        for edge in self.edges:
            if edge.pid == pid:
                return edge.role
        return role_name(PID(pid))


def _q(*ids: str) -> tuple[QID, ...]:
    return tuple(QID(i) for i in ids)


def _e(*pairs: tuple[str, str]) -> tuple[EdgeProperty, ...]:
    return tuple(EdgeProperty(PID(p), r) for p, r in pairs)


FILM = QID("Q11424")
LITERARY_WORK = QID("Q7725634")
BOOK = QID("Q571")
NOVEL = QID("Q8261")
SONG = QID("Q7366")
ALBUM = QID("Q482994")
SINGLE = QID("Q134556")
EXTENDED_PLAY = QID("Q169930")
MUSICAL_WORK = QID("Q2188189")
MUSICAL_GROUP = QID("Q215380")
MUSICIAN = QID("Q639669")
TELEVISION_PROGRAM = QID("Q15416")
TELEVISION_SERIES = QID("Q5398426")

_COMMON_DETAILS: tuple[DetailField, ...] = (
    DetailField("year", PID("P577"), "date"),
    DetailField("image", PID("P18"), "url"),
)

_MOVIE_DETAILS = _COMMON_DETAILS + (
    DetailField("trailer", PID("P1651"), "id"),
    DetailField("imdb_id", PID("P345"), "id"),
    DetailField("tmdb_id", PID("P4947"), "id"),
)
_BOOK_DETAILS = _COMMON_DETAILS + (DetailField("year", PID("P571"), "date"),)
_MUSIC_DETAILS = _COMMON_DETAILS + (
    DetailField("year", PID("P571"), "date"),
    DetailField("spotify_track_id", PID("P2207"), "id"),
    DetailField("spotify_album_id", PID("P2205"), "id"),
    DetailField("spotify_artist_id", PID("P1902"), "id"),
    DetailField("lastfm_id", PID("P3192"), "id"),
    DetailField("discogs_id", PID("P1954"), "id"),
    DetailField("trailer", PID("P1651"), "id"),
)

DOMAINS: Mapping[str, DomainSchema] = MappingProxyType(
    {
        "movie": DomainSchema(
            name="movie",
            item_classes=(FILM,),
            excluded_classes=(TELEVISION_SERIES, MUSICAL_WORK, SONG, ALBUM),
            item_occupations=(),
            edges=_e(
                ("P57", "director"),
                ("P161", "actor"),
                ("P58", "screenwriter"),
                ("P162", "producer"),
                ("P1431", "executive producer"),
                ("P86", "composer"),
                ("P136", "genre"),
                ("P179", "series"),
                ("P8345", "franchise"),
                ("P144", "source work"),
                ("P921", "subject"),
                ("P272", "production company"),
                ("P1040", "film editor"),
                ("P344", "cinematographer"),
                ("P155", "prequel"),
                ("P156", "sequel"),
            ),
            details=_MOVIE_DETAILS,
            value_types=(
                ValueType(PID("P31"), _q("Q201658"), PID("P136")),  # film genre
                ValueType(PID("P106"), _q("Q2526255"), PID("P57")),  # film director
            ),
        ),
        "book": DomainSchema(
            name="book",
            item_classes=(LITERARY_WORK, BOOK, NOVEL),
            excluded_classes=(FILM, TELEVISION_PROGRAM, TELEVISION_SERIES, MUSICAL_WORK, SONG, ALBUM),
            item_occupations=(),
            edges=_e(
                ("P50", "author"),
                ("P136", "genre"),
                ("P179", "series"),
                ("P921", "subject"),
                ("P144", "source work"),
                ("P135", "literary movement"),
                ("P123", "publisher"),
                ("P155", "prequel"),
                ("P156", "sequel"),
            ),
            details=_BOOK_DETAILS,
            value_types=(
                ValueType(PID("P31"), _q("Q223393"), PID("P136")),  # literary genre
                ValueType(PID("P106"), _q("Q36180"), PID("P50")),  # writer (novelist, poet ...)
            ),
        ),
        "music": DomainSchema(
            name="music",
            item_classes=(SONG, ALBUM, SINGLE, EXTENDED_PLAY, MUSICAL_GROUP),
            excluded_classes=(FILM, LITERARY_WORK, TELEVISION_SERIES),
            item_occupations=(MUSICIAN,),
            edges=_e(
                ("P175", "performer"),
                ("P86", "composer"),
                ("P676", "lyricist"),
                ("P136", "genre"),
                ("P264", "record label"),
                ("P463", "band"),
                ("P1303", "instrument"),
                ("P361", "album"),
                ("P155", "previous release"),
                ("P156", "next release"),
            ),
            details=_MUSIC_DETAILS,
            value_types=(
                ValueType(PID("P31"), _q("Q188451"), PID("P136")),  # music genre
                ValueType(PID("P31"), _q("Q18127"), PID("P264")),  # record label
            ),
        ),
    }
)
"""The three domain schemas, by name."""

_ROLE_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "P57": "director",
        "P161": "actor",
        "P58": "screenwriter",
        "P162": "producer",
        "P1431": "executive producer",
        "P86": "composer",
        "P136": "genre",
        "P50": "author",
        "P175": "performer",
        "P264": "record label",
        "P463": "group",
        "P179": "series",
        "P8345": "franchise",
        "P144": "source work",
        "P921": "subject",
        "P272": "production company",
        "P1040": "film editor",
        "P344": "cinematographer",
        "P155": "prequel",
        "P156": "sequel",
        "P676": "lyricist",
        "P1303": "instrument",
        "P361": "collection",
        "P135": "movement",
        "P123": "publisher",
        "P170": "creator",
        "P737": "influence",
        "P31": "type",
    }
)


ROLE_WORDS: Mapping[str, str] = MappingProxyType(
    {
        "director": "P57",
        "directed": "P57",
        "directors": "P57",
        "actor": "P161",
        "actors": "P161",
        "actress": "P161",
        "cast": "P161",
        "acting": "P161",
        "star": "P161",
        "screenwriter": "P58",
        "writer": "P58",
        "script": "P58",
        "screenplay": "P58",
        "producer": "P162",
        "producers": "P162",
        "composer": "P86",
        "soundtrack": "P86",
        "music": "P86",
        "genre": "P136",
        "genres": "P136",
        "theme": "P921",
        "subject": "P921",
        "author": "P50",
        "writers": "P50",
        "performer": "P175",
        "singer": "P175",
        "band": "P175",
        "label": "P264",
        "series": "P179",
        "saga": "P179",
        "album": "P361",
        "lyricist": "P676",
        "lyrics": "P676",
        "instrument": "P1303",
        "publisher": "P123",
        "movement": "P135",
        "franchise": "P8345",
        "cinematographer": "P344",
        "editor": "P1040",
    }
)
"""Words a user says for a role ("Tom Cruise as a producer", "actor", "the director") -> its PID."""


def role_pattern() -> str:
    """A regular-expression alternation of every word of :data:`ROLE_WORDS` (escaped)."""
    return "|".join(map(re.escape, ROLE_WORDS))


def role_words(pid: PID | str) -> tuple[str, ...]:
    """The words of :data:`ROLE_WORDS` that name ``pid``."""
    return tuple(word for word, p in ROLE_WORDS.items() if p == str(pid))


def role_name(pid: PID | str, domain: str | None = None) -> str:
    """The user-facing role name of a property's values: what the value *is* to the item, as a noun.

    Args:
        pid: a property id such as ``"P57"``.
        domain: ``"movie"``, ``"book"`` or ``"music"`` to use that domain's name (``P361`` "part of"
            is an ``"album"`` in music, ``P463`` "member of" a ``"band"``); None (or an unknown
            domain) for the domain-free name.

    Returns:
        The role name (``"director"`` for P57, ``"actor"`` for P161 ...); for a property no schema
        names, the generic ``"related (P123)"`` so a user never sees a bare PID alone.
    """
    schema = DOMAINS.get(domain) if domain else None
    if schema is not None:
        for edge in schema.edges:
            if edge.pid == str(pid):
                return edge.role
    return _ROLE_NAMES.get(str(pid), f"related ({pid})")


def all_detail_pids() -> tuple[PID, ...]:
    """Every detail property of every domain, without repeats (schema order)."""
    seen: dict[PID, None] = {}
    for schema in DOMAINS.values():
        for field in schema.details:
            seen.setdefault(field.pid, None)
    return tuple(seen)


def get_domain(name: str) -> DomainSchema:
    """The schema of domain ``name``.

    Raises:
        ConfigError: naming the known domains, if ``name`` is not one.
    """
    try:
        return DOMAINS[name]
    except KeyError:
        raise ConfigError(f"unknown domain {name!r}; known: {', '.join(DOMAINS)}") from None


__all__ = [
    "DOMAINS",
    "Domain",
    "PID",
    "QID",
    "WD",
    "WDT",
    "DetailField",
    "DomainSchema",
    "EdgeProperty",
    "ValueType",
    "all_detail_pids",
    "get_domain",
    "ROLE_WORDS",
    "role_name",
    "role_pattern",
    "role_words",
]
