"""The building blocks of a domain schema: ids, the domains, and what a schema is made of.

``recommender.schema`` declares the three domains' schemas with these types (:data:`~recommender.schema.DOMAINS`);
the build (``recommender.kbbuild``, ``recommender.kinds``) and the knowledge base read them. A schema says which
entities are items (:attr:`DomainSchema.item_classes`, :class:`Kind` rules), which properties become graph edges
(:class:`EdgeProperty`, with the role word users know a value by) and what is shown about an item
(:class:`DetailField`); :class:`ValueType` keeps named values no item links to.

Example:
    >>> EdgeProperty(PID("P175"), "artist", role_by_kind=(("band", "band"),)).role_for("band")
    'band'
    >>> Domain("music") == "music"
    True
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NewType

from recommender.roles import generic_role_name


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
        """The role name of ``pid`` in this domain, or the domain-free one
        (:func:`recommender.roles.generic_role_name`, as :func:`recommender.schema.role_name` without a domain)."""
        for edge in self.edges:
            if edge.pid == pid:
                return edge.role
        return generic_role_name(pid)


__all__ = [
    "PID",
    "QID",
    "WD",
    "WDT",
    "DetailField",
    "Domain",
    "DomainSchema",
    "EdgeProperty",
    "Kind",
    "ValueType",
]
