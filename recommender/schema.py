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
    """A property whose (subject, value) claims become graph edges.

    Attributes:
        pid: the Wikidata property, e.g. ``"P57"``.
        role: the user-facing role of a value, e.g. ``"director"`` ("X the director").
        kinds: the :class:`Kind` names a value may have (empty: any); an edge whose value has
            another kind is dropped at build time (a record label is never a performer).
        default_kind: the kind of a value that no type rule classifies (an untyped performer is
            an ``"artist"``); None leaves it without a kind.
        forced_kind: the kind a value gets whatever its types say, after the person, group, label
            and genre rules (a book's series, ``P179``, is a series even when typed literary work).
        weak: a property that says little about taste (record label, publisher, production
            company, instrument): never the only reason given when a stronger one exists.
        on_items: read from items (False: only a value claim, see :attr:`Kind.claims`).
        role_by_kind: ``((kind, role), ...)``: the role word for values of that kind ("band" for a
            performer that is a band, "artist" for a solo one).
    """

    pid: PID
    role: str
    kinds: tuple[str, ...] = ()
    default_kind: str | None = None
    forced_kind: str | None = None
    weak: bool = False
    on_items: bool = True
    role_by_kind: tuple[tuple[str, str], ...] = ()

    def accepts(self, kind: str | None) -> bool:
        """Whether a value of ``kind`` (None: unknown) may be the value of this property."""
        return kind is None or not self.kinds or kind in self.kinds

    def role_for(self, kind: str | None) -> str:
        """The role word for a value of ``kind`` (:attr:`role_by_kind`, else :attr:`role`)."""
        for k, word in self.role_by_kind:
            if k == kind:
                return word
        return self.role


@dataclass(frozen=True, slots=True)
class Kind:
    """What an entity is in a domain: an item kind (film, book, song, album) or a property kind
    (person, band, artist, genre, record label, series ...).

    Attributes:
        name: ``"film"``, ``"book"``, ``"song"``, ``"album"``, ``"band"``, ``"artist"`` ...
        noun: the user's word for it ("film", "band", "record label").
        item: True for an item kind (recommended and suggested); property kinds are rated,
            critiqued and used in explanations, never recommended.
        classes: ``wdt:P31`` roots (their ``wdt:P279*`` closure) that give this kind.
        occupations: ``wdt:P106`` roots (closure) that give this kind (a musician without P31).
        claims: properties read from an entity of this kind when it is a property value (value
            claims: an artist's genres, record label, band); each must be one of the domain's edges.
        reverse_claims: properties ``p`` whose claims ``?x p this`` are read for such an entity
            (a band's members, ``?member wdt:P463 band``).
        roles: the roles users know such an entity by (a band: performer); empty = the roles seen
            on its edges.
        described: a regular expression of descriptions that give this kind when it matches before
            any item noun ("American murder mystery television series by Mark Frost": a television
            series, even when typed film too; "pilot movie of the TV series" stays a film), empty =
            no description rule (``recommender.kinds.described_kind``).
    """

    name: str
    noun: str
    item: bool = False
    classes: tuple[QID, ...] = ()
    occupations: tuple[QID, ...] = ()
    claims: tuple[PID, ...] = ()
    reverse_claims: tuple[PID, ...] = ()
    roles: tuple[PID, ...] = ()
    described: str = ""


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
        item_classes: roots of the item classes; item candidates have ``wdt:P31`` in their
            ``wdt:P279*`` closure (their kind, by :attr:`kinds`, decides whether they are items).
        excluded_classes: roots whose closure is removed from the item classes (another domain's);
            the domain's own roots and their subclasses are kept if a root is itself under one.
        item_occupations: roots of occupations (``wdt:P106``) that make a person an item
            candidate; empty in every domain since issue 16 (music artists are properties).
        edges: edge properties, most important first.
        details: detail fields shown to users.
        value_types: entities kept as values even without an edge (with their declared role).
        kinds: the kind rules, in priority order (the first kind whose classes or occupations
            match an entity's types wins; see :func:`kind_rules_text`).
    """

    name: str
    item_classes: tuple[QID, ...]
    excluded_classes: tuple[QID, ...]
    item_occupations: tuple[QID, ...]
    edges: tuple[EdgeProperty, ...]
    details: tuple[DetailField, ...]
    value_types: tuple[ValueType, ...] = ()
    kinds: tuple[Kind, ...] = ()

    @property
    def edge_pids(self) -> tuple[PID, ...]:
        """The edge properties' ids, in schema order."""
        return tuple(e.pid for e in self.edges)

    @property
    def item_edge_pids(self) -> tuple[PID, ...]:
        """The edge properties read from items (schema order)."""
        return tuple(e.pid for e in self.edges if e.on_items)

    @property
    def item_kinds(self) -> tuple[str, ...]:
        """Names of the item kinds."""
        return tuple(k.name for k in self.kinds if k.item)

    def edge(self, pid: str) -> EdgeProperty | None:
        """The edge property ``pid`` of this domain, or None."""
        for edge in self.edges:
            if edge.pid == pid:
                return edge
        return None

    def kind(self, name: str | None) -> Kind | None:
        """The kind called ``name``, or None."""
        for kind in self.kinds:
            if kind.name == name:
                return kind
        return None

    def role(self, pid: str) -> str:
        """The role name of ``pid`` in this domain, or the global :func:`role_name`."""
        for edge in self.edges:
            if edge.pid == pid:
                return edge.role
        return role_name(PID(pid))


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
        "P463": "band",
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
        "P495": "country",
        "P840": "setting",
        "P110": "illustrator",
        "P655": "translator",
        "P407": "language",
        "P364": "original language",
        "P166": "award",
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
        "actresses": "P161",
        "protagonist": "P161",
        "protagonists": "P161",
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
        # also understood by the linker ("the actor Tom Cruise"), answers and critiques
        "filmmaker": "P57",
        "regista": "P57",
        "starring": "P161",
        "stars": "P161",
        "cast member": "P161",
        "wrote": "P58",
        "writing": "P58",
        "novelist": "P50",
        "authors": "P50",
        "artist": "P175",
        "rapper": "P175",
        "musician": "P175",
        "group": "P175",
        "dj": "P175",
        "production company": "P272",
        "studio": "P272",
        "record label": "P264",
        "style": "P136",
        "country": "P495",
        "language": "P407",
        "topic": "P921",
        "setting": "P840",
        "location": "P840",
        "illustrator": "P110",
        "translator": "P655",
        # answers to "as actor or producer?" ("as a performance", "the directing one")
        "performance": "P161",
        "directing": "P57",
        "direction": "P57",
        "produced": "P162",
        "producing": "P162",
        "composed": "P86",
        "sings": "P175",
        "kind": "P136",
    }
)
"""Words a user says for a role ("Tom Cruise as a producer", "actor", "the director") -> its PID, in
every domain unless :data:`DOMAIN_ROLE_WORDS` says otherwise. The one role vocabulary of the project:
understanding (``nlu.understand``), the linker's role hints (``nlu.linker``), answers to role questions
(``nlu.disambiguation``) and critiques (``recommender.critique.role_values``) all read it through
:func:`role_words_for`."""

DOMAIN_ROLE_WORDS: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {
        "movie": MappingProxyType({"language": "P364"}),
        "book": MappingProxyType(
            {"writer": "P50", "writers": "P50", "wrote": "P50", "writing": "P50", "series": "P179"}
        ),
        "music": MappingProxyType(
            {"writer": "P676", "writers": "P676", "wrote": "P676", "songwriter": "P676", "music": "P86"}
        ),
    }
)
"""Words whose role differs by domain: a "writer" is the screenwriter of a film (P58), the author of a
book (P50), the lyricist of a song (P676)."""


def role_words_for(domain: str | None = None) -> Mapping[str, str]:
    """The role words of ``domain`` (word -> PID): :data:`ROLE_WORDS` with the domain's own
    (:data:`DOMAIN_ROLE_WORDS`); None (or an unknown domain) for the general ones."""
    own = DOMAIN_ROLE_WORDS.get(domain or "", {})
    return {**ROLE_WORDS, **own} if own else ROLE_WORDS


def role_pattern(domain: str | None = None) -> str:
    """A regular-expression alternation of every role word of ``domain`` (escaped, longest first)."""
    return "|".join(map(re.escape, sorted(role_words_for(domain), key=len, reverse=True)))


def role_words(pid: PID | str, domain: str | None = None) -> tuple[str, ...]:
    """The role words of ``domain`` that name ``pid``."""
    return tuple(word for word, p in role_words_for(domain).items() if p == str(pid))


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
    return _ROLE_NAMES.get(str(pid), f"related ({pid})")


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
