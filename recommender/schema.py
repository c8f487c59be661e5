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
class wins over a literary one; a domain's own roots always stay, with their subclasses).

Items and properties per domain (issue 16), as in the original ConveRSE system: a movie's items are
films; a book's items are literary works (a series is a property); music's items are songs and albums,
and performers (bands, solo artists), composers, genres and record labels are properties that users
rate, critique and that explain. Every entity gets one :class:`Kind` by the domain's rules
(:attr:`DomainSchema.kinds`, first match wins, see :func:`kind_rules_text`): the builder
(``recommender.sparql``) reads the types (``wdt:P31``/``wdt:P106``) of items and values, keeps an
entity as an item only when its kind is an item kind, drops an edge whose value has a kind the
property does not accept (a record label as a performer, a band as an album), and reads the
*value claims* of property values (an artist's genres, record label and band), so a song reaches other
songs through its album, its performer and the performer's genres.

This module holds the three schemas (:data:`DOMAINS`) and what is read from them (:func:`role_name`,
:func:`weak_pids`, :func:`kind_rules_text`, :func:`schema_fingerprint`); the types they are made of
(:class:`DomainSchema`, :class:`EdgeProperty`, :class:`Kind` ...) live in ``recommender.schema_types``
and the role vocabulary (:data:`ROLE_WORDS`, :func:`role_words_for`) in ``recommender.roles``, both
importable from here as well.

Example:
    >>> DOMAINS["movie"].role("P161")
    'actor'
    >>> role_name(PID("P57"))
    'director'
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from corsbot_errors import ConfigError
from recommender.roles import (
    DOMAIN_ROLE_WORDS,
    ROLE_WORDS,
    generic_role_name,
    role_pattern,
    role_words,
    role_words_for,
)
from recommender.schema_types import (
    PID,
    QID,
    WD,
    WDT,
    DetailField,
    Domain,
    DomainSchema,
    EdgeProperty,
    Kind,
    ValueType,
)


def _q(*ids: str) -> tuple[QID, ...]:
    return tuple(QID(i) for i in ids)


def _p(*ids: str) -> tuple[PID, ...]:
    return tuple(PID(i) for i in ids)


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
HUMAN = QID("Q5")
WRITER = QID("Q36180")
RECORD_LABEL = QID("Q18127")
MUSIC_GENRE = QID("Q188451")
LITERARY_GENRE = QID("Q223393")
FILM_GENRE = QID("Q201658")
GENRE = QID("Q483394")
BOOK_SERIES = QID("Q277759")
BAND_CLASSES = _q(
    MUSICAL_GROUP,
    "Q5741069",  # rock band
    "Q216337",  # boy band
    "Q641066",  # girl group
    "Q9212979",  # musical duo
    "Q16979650",  # sibling group
    "Q2088357",  # musical ensemble
)
"""Group classes: the musical group closure of live Wikidata holds them all; the offline dump types
most groups musical group and some only with these."""
LABEL_CLASSES = _q(RECORD_LABEL, "Q2442401")  # record label, independent record label
GENRE_CLASSES = _q(GENRE, MUSIC_GENRE, LITERARY_GENRE, FILM_GENRE)
SERIES_CLASSES = _q(BOOK_SERIES, "Q1667921", "Q7725310")  # book series, novel series, series of creative works
BROADCAST_CLASSES = _q(
    TELEVISION_SERIES,  # with its subclasses: miniseries, sitcom, children's series ...
    "Q526877",  # web series
    "Q21191019",  # Japanese television drama series
    "Q63952888",  # anime television series
    "Q1555508",  # radio programme
)
"""Serial broadcasts: never a film or a book, whatever else they are typed as (Twin Peaks is typed both
film and television series in the offline dump)."""
BROADCAST_DESCRIPTION = (
    r"\b(?:television|tv|web|anime|radio|streaming)[ -](?:mini-?series|series|serial|show|programme|program"
    r"|sitcom|drama series)\b|\bmini-?series\b|\bsitcom\b|\bsoap opera\b|\btalk show\b|\breality show\b"
)
"""A description whose head noun is a serial broadcast ("American television series", "1977 miniseries",
"TV mini-series"); a film or book noun before it keeps the item ("pilot movie of the TV series")."""
_BROADCAST = ("broadcast", "television series")

_COMMON_DETAILS: tuple[DetailField, ...] = (
    DetailField("year", PID("P577"), "date"),
    DetailField("image", PID("P18"), "url"),
)

_MOVIE_DETAILS = _COMMON_DETAILS + (
    DetailField("trailer", PID("P1651"), "id"),
    DetailField("imdb_id", PID("P345"), "id"),
    DetailField("tmdb_id", PID("P4947"), "id"),
)
_BOOK_DETAILS = _COMMON_DETAILS + (
    DetailField("year", PID("P571"), "date"),
    DetailField("openlibrary_id", PID("P648"), "id"),
    DetailField("goodreads_id", PID("P8383"), "id"),
    DetailField("goodreads_id", PID("P2969"), "id"),
)
_MUSIC_DETAILS = _COMMON_DETAILS + (
    DetailField("year", PID("P571"), "date"),
    DetailField("spotify_track_id", PID("P2207"), "id"),
    DetailField("spotify_album_id", PID("P2205"), "id"),
    DetailField("spotify_artist_id", PID("P1902"), "id"),
    DetailField("lastfm_id", PID("P3192"), "id"),
    DetailField("discogs_id", PID("P1954"), "id"),
    DetailField("musicbrainz_recording_id", PID("P4404"), "id"),
    DetailField("musicbrainz_release_group_id", PID("P436"), "id"),
    DetailField("trailer", PID("P1651"), "id"),
)

_PERSON = ("person",)

DOMAINS: Mapping[str, DomainSchema] = MappingProxyType(
    {
        "movie": DomainSchema(
            name="movie",
            item_classes=(FILM,),
            excluded_classes=(TELEVISION_SERIES, MUSICAL_WORK, SONG, ALBUM),
            item_occupations=(),
            edges=(
                EdgeProperty(PID("P57"), "director", _PERSON, "person"),
                EdgeProperty(PID("P161"), "actor", _PERSON, "person"),
                EdgeProperty(PID("P58"), "screenwriter", _PERSON, "person"),
                EdgeProperty(PID("P162"), "producer", (), "person"),
                EdgeProperty(PID("P1431"), "executive producer", (), "person"),
                EdgeProperty(PID("P86"), "composer", (), "person"),
                EdgeProperty(PID("P136"), "genre", ("genre",), "genre"),
                EdgeProperty(PID("P179"), "series", (), "series"),
                EdgeProperty(PID("P8345"), "franchise", (), "franchise"),
                EdgeProperty(PID("P144"), "source work"),
                EdgeProperty(PID("P921"), "subject"),
                EdgeProperty(PID("P272"), "production company", (), "company", weak=True),
                EdgeProperty(PID("P1040"), "film editor", _PERSON, "person"),
                EdgeProperty(PID("P344"), "cinematographer", _PERSON, "person"),
                EdgeProperty(PID("P155"), "prequel", ("film",)),
                EdgeProperty(PID("P156"), "sequel", ("film",)),
            ),
            details=_MOVIE_DETAILS,
            value_types=(
                ValueType(PID("P31"), _q("Q201658"), PID("P136")),  # film genre
                ValueType(PID("P106"), _q("Q2526255"), PID("P57")),  # film director
            ),
            kinds=(
                Kind("person", "person", classes=(HUMAN,)),
                Kind("genre", "genre", classes=GENRE_CLASSES, roles=_p("P136")),
                Kind(*_BROADCAST, classes=BROADCAST_CLASSES, described=BROADCAST_DESCRIPTION),
                Kind("film", "film", item=True, classes=(FILM,)),
            ),
        ),
        "book": DomainSchema(
            name="book",
            item_classes=(LITERARY_WORK, BOOK, NOVEL),
            excluded_classes=(FILM, TELEVISION_PROGRAM, TELEVISION_SERIES, MUSICAL_WORK, SONG, ALBUM),
            item_occupations=(),
            edges=(
                EdgeProperty(PID("P50"), "author", _PERSON, "person"),
                EdgeProperty(PID("P136"), "genre", ("genre",), "genre"),
                EdgeProperty(PID("P179"), "series", (), "series", forced_kind="series"),
                EdgeProperty(PID("P921"), "subject"),
                EdgeProperty(PID("P144"), "source work"),
                EdgeProperty(PID("P135"), "literary movement", (), "movement"),
                EdgeProperty(PID("P123"), "publisher", (), "publisher", weak=True),
                EdgeProperty(PID("P155"), "prequel", ("book",)),
                EdgeProperty(PID("P156"), "sequel", ("book",)),
                EdgeProperty(PID("P737"), "influence", _PERSON, "person", on_items=False),
            ),
            details=_BOOK_DETAILS,
            value_types=(
                ValueType(PID("P31"), _q("Q223393"), PID("P136")),  # literary genre
                ValueType(PID("P106"), _q("Q36180"), PID("P50")),  # writer (novelist, poet ...)
            ),
            kinds=(
                Kind(
                    "person",
                    "author",
                    classes=(HUMAN,),
                    occupations=(WRITER,),
                    claims=_p("P136", "P135", "P737"),
                    roles=_p("P50", "P921"),
                ),
                Kind("genre", "genre", classes=GENRE_CLASSES, roles=_p("P136")),
                Kind("series", "series", classes=SERIES_CLASSES, roles=_p("P179")),
                Kind(*_BROADCAST, classes=BROADCAST_CLASSES, described=BROADCAST_DESCRIPTION),
                Kind("book", "book", item=True, classes=(LITERARY_WORK, BOOK, NOVEL)),
            ),
        ),
        "music": DomainSchema(
            name="music",
            item_classes=(SONG, ALBUM, SINGLE, EXTENDED_PLAY),
            excluded_classes=(FILM, LITERARY_WORK, TELEVISION_SERIES),
            item_occupations=(),
            edges=(
                EdgeProperty(
                    PID("P175"),
                    "artist",
                    ("band", "artist"),
                    "artist",
                    role_by_kind=(("band", "band"), ("artist", "artist")),
                ),
                EdgeProperty(PID("P86"), "composer", ("artist", "band"), "artist"),
                EdgeProperty(PID("P676"), "lyricist", ("artist",), "artist"),
                EdgeProperty(PID("P136"), "genre", ("genre",), "genre"),
                EdgeProperty(PID("P264"), "record label", ("label",), "label", weak=True),
                EdgeProperty(PID("P463"), "band", ("band",), "band", on_items=False),
                EdgeProperty(PID("P1303"), "instrument", ("instrument",), "instrument", weak=True),
                EdgeProperty(PID("P361"), "album", ("album",), "album"),
                EdgeProperty(PID("P155"), "previous release", ("song", "album")),
                EdgeProperty(PID("P156"), "next release", ("song", "album")),
            ),
            details=_MUSIC_DETAILS,
            value_types=(
                ValueType(PID("P31"), _q("Q188451"), PID("P136")),  # music genre
                ValueType(PID("P31"), _q("Q18127"), PID("P264")),  # record label
                ValueType(PID("P31"), BAND_CLASSES, PID("P175")),  # bands no song names yet
                ValueType(PID("P106"), (MUSICIAN,), PID("P175")),  # musicians no song names yet
            ),
            kinds=(
                Kind("label", "record label", classes=LABEL_CLASSES, roles=_p("P264")),
                Kind(
                    "band",
                    "band",
                    classes=BAND_CLASSES,
                    claims=_p("P136", "P264"),
                    reverse_claims=_p("P463"),
                    roles=_p("P175"),
                ),
                Kind(
                    "artist",
                    "artist",
                    classes=(HUMAN,),
                    occupations=(MUSICIAN,),
                    claims=_p("P136", "P264", "P463"),
                    roles=_p("P175", "P86", "P676"),
                ),
                Kind("genre", "genre", classes=GENRE_CLASSES, roles=_p("P136")),
                Kind(
                    "album",
                    "album",
                    item=True,
                    classes=(ALBUM, EXTENDED_PLAY),
                    claims=_p("P175", "P136", "P264"),
                    roles=_p("P361"),
                ),
                Kind("song", "song", item=True, classes=(SONG, SINGLE)),
            ),
        ),
    }
)
"""The three domain schemas, by name."""


def role_name(pid: PID | str, domain: str | None = None, kind: str | None = None) -> str:
    """The user-facing role name of a property's values: what the value *is* to the item, as a noun.

    Args:
        pid: a property id such as ``"P57"``.
        domain: ``"movie"``, ``"book"`` or ``"music"`` to use that domain's name (``P361`` "part of"
            is an ``"album"`` in music, ``P463`` "member of" a ``"band"``); None (or an unknown
            domain) for the domain-free name.
        kind: the value's kind (``KnowledgeBase.kind``), for the word that depends on it: a music
            performer is a ``"band"`` or an ``"artist"``.

    Returns:
        The role name (``"director"`` for P57, ``"actor"`` for P161 ...); for a property no schema
        names, the generic ``"related (P123)"`` so a user never sees a bare PID alone.
    """
    schema = DOMAINS.get(domain) if domain else None
    if schema is not None:
        edge = schema.edge(str(pid))
        if edge is not None:
            return edge.role_for(kind)
    return generic_role_name(pid)


WEAK_CLAIM_PIDS: frozenset[str] = frozenset({"P495", "P27", "P17", "P166", "P1411", "P364", "P407", "P37"})
"""Country, award and language properties: weak reasons wherever they appear (issue 16), with the
edges a domain marks :attr:`EdgeProperty.weak`."""


def weak_pids(domain: str | None = None) -> frozenset[str]:
    """Properties that say little about taste in ``domain``: its edges marked weak (record label,
    publisher, production company, instrument) and :data:`WEAK_CLAIM_PIDS` (None: every domain's)."""
    schemas = [DOMAINS[domain]] if domain is not None and domain in DOMAINS else list(DOMAINS.values())
    return WEAK_CLAIM_PIDS | {e.pid for s in schemas for e in s.edges if e.weak}


def kind_rules_text(domain: str) -> str:
    """The kind rules of ``domain`` in words (documentation and ``corsbot kb stats``).

    Raises:
        ConfigError: unknown domain.
    """
    schema = get_domain(domain)
    lines = [f"{domain}: the first rule that matches an entity's types gives its kind"]
    for n, kind in enumerate(schema.kinds, 1):
        via = []
        if kind.classes:
            via.append("P31 in the closure of " + ", ".join(kind.classes))
        if kind.occupations:
            via.append("P106 in the closure of " + ", ".join(kind.occupations))
        if kind.described:
            via.append("a description naming it before any item noun")
        what = "item" if kind.item else "property value"
        lines.append(f"  {n}. {kind.name} ({what}, '{kind.noun}'): {' or '.join(via) or 'no type rule'}")
    forced = [e for e in schema.edges if e.forced_kind]
    for e in forced:
        lines.append(f"  then: a value of {e.pid} ({e.role}) is a {e.forced_kind}, whatever its item types")
    lines.append("  untyped values take the default kind of their property; an edge whose value kind the property")
    lines.append("  does not accept is dropped; only item kinds are recommended")
    return "\n".join(lines)


def schema_fingerprint(domain: str) -> str:
    """A short hash of a domain's schema: snapshots record it, so a rebuild knows whether the
    previous snapshot was built with the same item definitions (its size is then a yardstick).

    Raises:
        ConfigError: unknown domain.
    """
    import hashlib

    return hashlib.sha1(repr(get_domain(domain)).encode("utf-8")).hexdigest()[:12]


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
    "Kind",
    "ValueType",
    "all_detail_pids",
    "kind_rules_text",
    "schema_fingerprint",
    "get_domain",
    "ROLE_WORDS",
    "role_name",
    "role_pattern",
    "role_words",
    "role_words_for",
    "DOMAIN_ROLE_WORDS",
    "WEAK_CLAIM_PIDS",
    "weak_pids",
]
