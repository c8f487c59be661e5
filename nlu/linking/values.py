"""The values passed between the linking steps, the similarity scale of the name index, and the KB
facts several steps read.

Values (frozen; sequences are tuples):

- :class:`Span`: tokens ``start:end`` of the message that a step proposes as a name, with the
  entities the name index (or a rule) gives for it and their similarity, and the kind of match.
- :class:`Candidate`: one ranked KB entity of a mention (:mod:`nlu.linking.scoring` builds them).
- :class:`Mention`: what :meth:`nlu.linker.EntityLinker.link` returns: a span of the message, its
  ranked candidates and whether to ask (:mod:`nlu.linking.decision`).

Similarity (in [0, 1], how well the typed words name an entity, before popularity and context) is set
when the index is built (:mod:`nlu.linking.index_build`) and by the matching steps: 1.0 for a label,
:data:`SIM_ALIAS` for an alias, :data:`SIM_VARIANT` for a derived form, ``FUZZY_SIM_FACTOR * ratio /
100`` times that for a typo; the scorer weighs it with popularity and the context.

Example:
    >>> Span(2, 4, {"Q483941": 1.0}, "exact").kind
    'exact'
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from recommender.names import item_year
from recommender.schema import PID, QID

__all__ = [
    "AMBIGUITY_MARGIN",
    "PID",
    "QID",
    "Candidate",
    "LinkContext",
    "Mention",
    "Span",
    "SpanKind",
    "entity_year",
    "is_kind",
]

# ---------------------------------------------------------------------------------------------- thresholds
AMBIGUITY_MARGIN = 0.08
"""Score gap under which the top two candidates are "close" (``Mention.ambiguous``)."""
FUZZY_CUTOFF = 88.0
"""Minimum ``fuzz.ratio`` (0-100) for a typo-tolerant match of one word or of 4-5 letters
("avatr" -> "avatar": 91; "bohemian" -> "bohemija": 87.5, rejected)."""
FUZZY_MIN_CHARS = 4
"""Spans with fewer letters are never fuzzy-matched."""
MIN_STRONG_CHARS = 4
"""Exact spans with fewer letters need a strong signal (F29)."""
MAX_CANDIDATES = 8
"""Candidates kept per mention (the disambiguation question shows at most 5)."""
MAX_SKELETON_SPAN = 10
"""Longest message span (tokens) compared with titles by their content words only."""
MAX_LIST_ITEMS = 25
"""Comma-separated objects of one like-verb that are read as name-like spans."""
DOMINANT_RATIO = 3.0
"""The popularity prior picks the top candidate without a question when it is this many times as
popular as every close rival (and carries the typed name itself)."""
DOMINANT_MIN_POPULARITY = 25.0
"""... and at least this popular (``kb.popularity``: degree + 2 for an English Wikipedia article)."""

# ---------------------------------------------------------------------------------------------- similarity
SIM_LABEL, SIM_ALIAS, SIM_VARIANT, SIM_FOREIGN_ALIAS, SIM_TYPED = 1.0, 0.95, 0.94, 0.7, 0.96
"""A label; an alias; a form derived from a name ("the" dropped, a bracketed suffix, a genre
variant); an alias whose words are another entity's label; a genre label plus a type noun."""
SIM_SKELETON = 0.9
"""A title matched by its content words only ("fast and furious")."""
SIM_MAIN_TITLE = 0.9
"""The main title of one item, before its subtitle: "Batman v Superman", "Mistborn"."""
SIM_SUBTITLE = 0.92
"""An item's subtitle of two words or more: "Fury Road"."""
SIM_TITLE_WORD = 0.6
"""One distinctive word of a title ("lebowski"): always asked about."""
SIM_NAMESAKE = 0.72
"""A person's first or last name (as the fuzzy first/last-name look-up: 0.9 * 0.8)."""
FUZZY_SIM_FACTOR = 0.9
"""A fuzzy match scores ``FUZZY_SIM_FACTOR * ratio / 100`` times the similarity of the name it hit."""

PERSON_ROLES = frozenset({"P50", "P57", "P58", "P161", "P162", "P175", "P86", "P170", "P676", "P110"})
"""Properties whose values are persons (or bands): author, director, screenwriter, cast, producer,
performer, composer, creator, lyricist, publisher."""
SOLE_CREATORS = frozenset({"P50", "P57"})
"""Author, director: one work has its own (a song has many performers)."""

# ---------------------------------------------------------------------------------------------- values
SpanKind = Literal["exact", "ask", "ref", "fuzzy", "says-which"]
"""How a span was found: ``exact`` (the name index, or a rule naming a work), ``ask`` (a short or
partial name: always asked about, F29), ``ref`` (a reference to the focus item: "this movie"),
``fuzzy`` (a typo-tolerant match), ``says-which`` (a person who only says which work is meant)."""
SAYS_WHICH: SpanKind = "says-which"
"""Kind of a person's span that only says which work is meant ("Spielberg's Hook"): no mention, but its
words are explained (no part of an unknown title)."""


class Span(NamedTuple):
    """A run of tokens proposed as a name, with the entities it may name.

    A named tuple, not a dataclass: the steps compare spans by value and unpack them
    (``for i, j, scored, kind in spans``). ``scored`` is the one mutable part: a step that finds the
    same tokens again by another key adds its entities there (``nlu.linking.matching``).

    Attributes:
        start: index of the first token (``nlu.linking.tokens.tokenize``).
        end: index after the last token.
        scored: QID -> similarity in [0, 1] (module docstring); for ``says-which``, the persons the
            span may name (they say which work is meant, :mod:`nlu.linking.namesakes`).
        kind: how it was found (:data:`SpanKind`).
    """

    start: int
    end: int
    scored: dict[str, float]
    kind: SpanKind


@dataclass(frozen=True, slots=True)
class Candidate:
    """One KB entity a mention may refer to.

    Attributes:
        qid: Wikidata QID.
        label: display label (``kb.label``).
        score: ranking score in about [0, 1.4] (:mod:`nlu.linking.scoring`); higher is better.
        is_item: a recommendable item of the KB's domain (else a property value: person, genre ...).
        roles: properties for which the entity is a value, most frequent first (narrowed to the
            role the user named, e.g. "the actor X" -> ``("P161",)``); empty for pure items.
        description: KB description, if any.
    """

    qid: QID
    label: str
    score: float
    is_item: bool
    roles: tuple[PID, ...]
    description: str | None


@dataclass(frozen=True, slots=True)
class Mention:
    """A span of the message that names (or refers to) KB entities.

    Attributes:
        text: the span as typed (``text[start:end]`` of the message given to :meth:`EntityLinker.link`).
        start: character offset of the span in the message.
        end: character offset after the span.
        candidates: ranked candidates, best first (at most :data:`MAX_CANDIDATES`).
        ambiguous: ask the user: the top two candidates are within :data:`AMBIGUITY_MARGIN`, or the
            mention is a short word that needs a confirmation ("I like sia", F29).
        partial: the span is one word of the candidates' titles, not a whole name ("I like
            lebowski"): confirm even a single candidate before storing it.
        taken: not ambiguous, but the top candidate was taken among works of the same name by the KB's
            priors (popularity, recency: :mod:`nlu.linking.namesakes`), not by the message or the
            dialog: the dialog says which it took and offers "not that one" (issue 22).
        credit_end: character offset after the person who said which work it is ("chandelier by sia": the
            end of "sia"), a part of how it was named, not of the text's other content; else ``end``.
    """

    text: str
    start: int
    end: int
    candidates: tuple[Candidate, ...]
    ambiguous: bool
    partial: bool = False
    taken: bool = False
    credit_end: int | None = None

    @property
    def best(self) -> Candidate | None:
        """The top candidate, or None."""
        return self.candidates[0] if self.candidates else None


@dataclass(frozen=True, slots=True)
class LinkContext:
    """What the whole message and the dialog tell about each span: read by scoring and decision
    (built once per message, read only: its sets are not copied into frozensets).

    Attributes:
        focus: the item on screen, or None.
        history: QIDs mentioned earlier in the dialog.
        years: four-digit years typed in the message (1880-2100).
        spans: every span kept for ranking, in text order.
        explained: tokens of persons who only say which work is meant ("Spielberg's Hook").
        credited: end tokens of works named by their person ("Flowers by Miley Cyrus"): no namesake
            persons of the title's word.
        covered: tokens covered by a span or explained.
        people: persons (and bands) the message names: the ones who only say which work is meant
            ("Spielberg's Hook") and the ones matched by their own name (issue 22: they say which of a
            title's namesakes is meant, :mod:`nlu.linking.namesakes`).
        ages: the cue of age a title takes from a reference to its other reading elsewhere in the
            message (its first token -> ``newer`` / ``older``: "Oldboy ..., the remake ...").
    """

    focus: QID | None
    history: frozenset[QID]
    years: AbstractSet[int]
    spans: Sequence[Span]
    explained: AbstractSet[int]
    credited: AbstractSet[int]
    covered: AbstractSet[int]
    people: AbstractSet[str] = frozenset()
    ages: Mapping[int, str] = field(default_factory=dict)


# ---------------------------------------------------------------------------------------------- KB facts
def qid_order(qid: str) -> tuple[int, str]:
    """Tie-break of equal scores: the lower Wikidata number first (older entities are usually the
    better-known ones: Q44578 "Titanic" 1997 before Q1197729), numerically, not as text."""
    digits = qid[1:]
    return (int(digits), qid) if digits.isdigit() else (sys.maxsize, qid)


def entity_year(kb: Any, qid: str) -> int | None:
    """Year of an entity (:func:`recommender.names.item_year`: details, else description or
    Wikipedia title). Returns None when unknown."""
    return item_year(kb, qid)


YEAR_SLACK = 1
"""A release year typed may differ by this much from the KB's (a festival premiere, a release elsewhere)."""


def span_years(kb: Any, qids: Iterable[str], years: AbstractSet[int]) -> frozenset[int]:
    """The years typed in the message that may single out one of ``qids``: as typed when one of them has
    such a year, else :data:`YEAR_SLACK` either way ("Suspiria (the 2018 one)": the KB's film of 2017)."""
    if not years:
        return frozenset()
    qids = tuple(qids)
    if any(entity_year(kb, q) in years for q in qids):
        return frozenset(years)
    return frozenset(y + d for y in years for d in range(-YEAR_SLACK, YEAR_SLACK + 1))


def creators(kb: Any, qid: str) -> set[str]:
    """The persons the item is credited to by :data:`SOLE_CREATORS` (author, director)."""
    item_values = getattr(kb, "item_values", None)
    return set() if item_values is None else {v for pid, v in item_values(qid) if pid in SOLE_CREATORS}


def credited(kb: Any, qid: str, roles: frozenset[str] = PERSON_ROLES) -> bool:
    """The item has a creator in the KB (author, director, performer, composer ...; or one of ``roles``)."""
    item_values = getattr(kb, "item_values", None)
    return item_values is not None and any(pid in roles for pid, _v in item_values(qid))


def is_kind(kb: Any, cand: Candidate, kind: str) -> bool:
    """The candidate is of the kind a type noun names: ``performer``, ``album``, ``song``, ``work``
    (an item that is no person) or ``person``."""
    roles = set(cand.roles) | set(kb.roles(cand.qid))
    if kind == "performer":
        return "P175" in roles
    if kind == "album":
        return "P361" in roles and "P175" not in roles
    if kind == "song":
        values = getattr(kb, "item_values", None)
        return bool(cand.is_item and values is not None and any(p == "P361" for p, _ in values(cand.qid)))
    if kind == "work":
        return cand.is_item and not roles.intersection(PERSON_ROLES)
    if kind == "person":
        return bool(roles.intersection(PERSON_ROLES))
    return False
