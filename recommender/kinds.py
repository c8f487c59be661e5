"""Kind rules of the knowledge-base build: what each entity is, which edges stay, near-duplicate genres.

``recommender.sparql`` extracts the facts; this module decides, from the domain schema
(:attr:`recommender.schema.DomainSchema.kinds`), what they mean (issue 16):

1. **Kinds** (:class:`KindRules`): an entity's kind is the first kind of the schema whose classes
   (``wdt:P31`` closure) or occupations (``wdt:P106`` closure) match its types, or whose description
   rule (:attr:`~recommender.schema.Kind.described`, :func:`described_kind`) matches its description
   before any item noun (a television series typed film too is a television series). The order is the
   conflict rule: in music a record label beats everything (a label with a Spotify artist id or a
   musician occupation is still a label, never an artist), then a band (a group typed album too,
   as AC/DC in the offline dump, is a band), then a person (a human typed as a song is an artist),
   then a genre, then the item kinds. After the type rules, a property with a
   :attr:`~recommender.schema.EdgeProperty.forced_kind` decides (the value of a book's ``series``
   P179 is a series, even when it is typed literary work); an untyped value takes its property's
   default kind (the most frequent one if it is the value of several).
2. **Items**: typed candidates whose kind is an item kind (films; literary works; songs and albums).
3. **Edges**: an edge whose value has a kind the property does not accept is dropped (a record
   label as a performer, a band as the album of a song); edges not connected to any item are dropped.
4. **Near-duplicate genres** (:func:`merge_near_duplicates`): genres whose names differ only by a
   domain word, punctuation or an ending ("crime", "crime novel", "crime fiction", "crime
   literature"; "animation", "animated film") become one node: the most used one (preferring a name
   without another domain's word), with the others' names as its aliases and their QIDs recorded as
   merged into it (``KnowledgeBase.canonical``).

Example:
    >>> genre_key("Crime fiction"), genre_key("crime novel"), genre_key("animated film"), genre_key("Animation")
    ('crime', 'crime', 'animat', 'animat')
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from recommender.schema import DomainSchema, Kind

_DOMAIN_WORDS: Mapping[str, frozenset[str]] = {
    "movie": frozenset({"film", "films", "movie", "movies", "cinema"}),
    "book": frozenset({"novel", "novels", "fiction", "literature", "book", "books", "story", "stories", "writing"}),
    "music": frozenset({"music", "song", "songs"}),
}
"""Words that only say which medium a genre is of ("crime *novel*", "drama *film*", "pop *music*")."""
_ANY_DOMAIN_WORDS = frozenset().union(*_DOMAIN_WORDS.values()) | {"genre"}
_COMPOUNDS = (("science fiction", "scifi"), ("sci fi", "scifi"), ("non fiction", "nonfiction"))
"""Word pairs that are one genre name: "science fiction" must not lose "fiction"."""


def fold_name(text: str) -> str:
    """Casefolded, accent-free, punctuation as spaces: the key of names that look the same."""
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = text.replace("&", " and ").replace("'", "")
    return " ".join(re.sub(r"[^\w]+", " ", text).split())


def _stem(word: str) -> str:
    """A light ending strip so that "animated"/"animation" and "thrillers"/"thriller" meet."""
    for ending, keep in (("ation", 5), ("ated", 5), ("ion", 5), ("ed", 4), ("ic", 5), ("s", 4)):
        if word.endswith(ending) and len(word) - len(ending) >= keep - 1 and not word.endswith("ss"):
            return word[: -len(ending)] if ending not in ("ation", "ated") else word[: -len(ending)] + "at"
    return word


def genre_key(label: str) -> str:
    """The key under which near-duplicate genre names meet (see the module docstring).

    Medium words at the end are dropped ("horror novel" -> "horror"), never the whole name;
    "science fiction" and "non-fiction" stay one word; endings are lightly stripped.
    """
    text = fold_name(label)
    for pair, joined in _COMPOUNDS:
        text = re.sub(rf"\b{pair}\b", joined, text)
    words = text.split()
    while len(words) > 1 and words[-1] in _ANY_DOMAIN_WORDS:
        words.pop()
    return " ".join(_stem(w) for w in words)


def foreign_word(label: str, domain: str) -> bool:
    """True if a genre name ends with another domain's medium word ("romance film" in books)."""
    words = fold_name(label).split()
    if not words:
        return False
    own = _DOMAIN_WORDS.get(domain, frozenset())
    return words[-1] in (_ANY_DOMAIN_WORDS - own - {"genre"}) and len(words) > 1


def plain_genre_name(label: str, domain: str) -> str:
    """``label`` without another domain's medium word at the end ("romance film" -> "romance" in
    books); unchanged otherwise."""
    if not foreign_word(label, domain):
        return label
    words = label.split()
    return " ".join(words[:-1]) if len(words) > 1 else label


@dataclass(frozen=True, slots=True)
class TypeSets:
    """The ``wdt:P31`` and ``wdt:P106`` values of one entity."""

    p31: frozenset[str] = frozenset()
    p106: frozenset[str] = frozenset()


class KindRules:
    """The kind rules of one domain with their class closures (computed once by the builder).

    Args:
        schema: the domain schema.
        class_closures: kind name -> the classes (closure) that give it.
        occupation_closures: kind name -> the occupations (closure) that give it.
    """

    def __init__(
        self,
        schema: DomainSchema,
        class_closures: Mapping[str, Iterable[str]],
        occupation_closures: Mapping[str, Iterable[str]],
    ) -> None:
        self.schema = schema
        self._rules: list[tuple[Kind, frozenset[str], frozenset[str]]] = [
            (k, frozenset(class_closures.get(k.name, ())), frozenset(occupation_closures.get(k.name, ())))
            for k in schema.kinds
        ]

    def by_type(self, types: TypeSets | None, description: str | None = None) -> Kind | None:
        """The first kind whose classes or occupations match ``types``, or whose description rule
        matches ``description`` (None: no rule matches)."""
        for kind, classes, occupations in self._rules:
            if types is not None and ((types.p31 & classes) or (types.p106 & occupations)):
                return kind
            if description and kind.described and described_kind(kind, description):
                return kind
        return None

    def class_kinds(self, classes: Iterable[str]) -> dict[str, str]:
        """``class -> kind name`` for each of ``classes`` in the closure of some kind's classes (the
        first such kind), so that a snapshot can say what each class of its items stands for."""
        out: dict[str, str] = {}
        for c in classes:
            for kind, closure, _occupations in self._rules:
                if c in closure:
                    out[c] = kind.name
                    break
        return out

    def of_value(self, types: TypeSets | None, in_pids: Iterable[str], out_pids: Iterable[str] = ()) -> str | None:
        """The kind of a property value: a type rule of a property kind, else the forced kind of a
        property it is the value of, else a type rule of an item kind, else the most frequent
        default kind of its properties (``in_pids``: one per incoming edge), else the kind whose
        value claims include one of ``out_pids`` (a band member is an artist)."""
        kind = self.by_type(types)
        if kind is not None and not kind.item:
            return kind.name
        pids = list(in_pids)
        for pid in pids:
            edge = self.schema.edge(pid)
            if edge is not None and edge.forced_kind:
                return edge.forced_kind
        if kind is not None:
            return kind.name
        defaults = Counter(e.default_kind for p in pids if (e := self.schema.edge(p)) is not None and e.default_kind)
        if defaults:
            return sorted(defaults.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
        for pid in out_pids:
            for k in self.schema.kinds:
                if pid in k.claims:
                    return k.name
        return None


ITEM_NOUNS = re.compile(r"\b(?:film|movie|novel|book|song|single|album)s?\b", re.IGNORECASE)
"""Nouns of item kinds: a description that names one before a kind's description rule is about an item
("pilot movie of the TV series Babylon 5")."""


def described_kind(kind: Kind, description: str) -> bool:
    """Whether ``description`` names ``kind`` by its description rule before any item noun.

    Example:
        >>> from recommender.schema import BROADCAST_DESCRIPTION
        >>> tv = Kind("broadcast", "television series", described=BROADCAST_DESCRIPTION)
        >>> described_kind(tv, "American television series"), described_kind(tv, "pilot movie of the TV series")
        (True, False)
    """
    if not kind.described:
        return False
    found = re.search(kind.described, description, re.IGNORECASE)
    return found is not None and not ITEM_NOUNS.search(description[: found.start()])


def connected_edges(items: Iterable[str], edges: Iterable[tuple[str, str, str]]) -> set[tuple[str, str, str]]:
    """The edges in the connected components of ``items`` (claims about nothing shown are dropped)."""
    edges = set(edges)
    adjacent: dict[str, list[str]] = defaultdict(list)
    for s, _p, v in edges:
        adjacent[s].append(v)
        adjacent[v].append(s)
    seen = set(items)
    stack = list(seen)
    while stack:
        node = stack.pop()
        for other in adjacent.get(node, ()):
            if other not in seen:
                seen.add(other)
                stack.append(other)
    return {e for e in edges if e[0] in seen}


def merge_near_duplicates(
    domain: str,
    genres: Iterable[str],
    labels: Mapping[str, str],
    uses: Mapping[str, int],
) -> dict[str, str]:
    """Which genres merge into which (see the module docstring).

    Args:
        domain: the domain (medium words of other domains make a name less preferred).
        genres: QIDs of the entities of kind genre.
        labels: QID -> label (unlabeled genres are never merged: they have no name to compare).
        uses: QID -> number of edges it is the value of.

    Returns:
        merged QID -> canonical QID (canonical ones are not keys).
    """
    groups: dict[str, list[str]] = defaultdict(list)
    for q in genres:
        label = labels.get(q)
        if label:
            key = genre_key(label)
            if key:
                groups[key].append(q)
    out: dict[str, str] = {}
    for members in groups.values():
        if len(members) < 2:
            continue
        members.sort(key=lambda q: (foreign_word(labels[q], domain), -uses.get(q, 0), _qnum(q)))
        for q in members[1:]:
            out[q] = members[0]
    return out


def _qnum(qid: str) -> int:
    return int(qid[1:]) if qid[1:].isdigit() else 1 << 62


__all__ = [
    "ITEM_NOUNS",
    "KindRules",
    "described_kind",
    "TypeSets",
    "connected_edges",
    "fold_name",
    "foreign_word",
    "genre_key",
    "merge_near_duplicates",
    "plain_genre_name",
]
