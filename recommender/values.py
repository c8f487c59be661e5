"""Values that cross the recommender's boundary: the profile it reads, the lists it returns.

A :class:`Profile` is what a person said they like and dislike (items and property values, with the
role of a dislike when one was said: "not the director"); :class:`Recommendations` is a ranked list
with what the dialog must say about it (a fallback, the constraints that left items out, the ones
that could not be kept). :class:`KnowledgeBaseLike` is the part of ``recommender.kb.KnowledgeBase``
the recommender modules use (tests give fakes with the same methods).

Example:
    >>> p = Profile().like("Q25191").dislike("Q200092")
    >>> sorted(p.rated), p.role_of("Q200092")
    (['Q200092', 'Q25191'], None)
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import networkx as nx

QID = str
PID = str


class KnowledgeBaseLike(Protocol):
    """The part of ``recommender.kb.KnowledgeBase`` (DESIGN.md) the recommender uses."""

    @property
    def domain(self) -> str: ...
    @property
    def items(self) -> AbstractSet[QID]: ...  # read-only: a frozenset, or the KB's lazy ItemSet

    def has(self, qid: str) -> bool: ...
    def is_item(self, qid: str) -> bool: ...
    def label(self, qid: str) -> str: ...
    def description(self, qid: str) -> str | None: ...
    def item_values(self, item: str) -> tuple[tuple[PID, QID], ...]: ...
    def value_items(self, value: str) -> tuple[tuple[PID, QID], ...]: ...
    def popularity(self, qid: str) -> float: ...
    def details(self, qid: str) -> Any: ...
    def graph(self) -> nx.Graph: ...


@dataclass(frozen=True, slots=True)
class Profile:
    """What a user said they like and dislike: items and property values (QIDs).

    A QID is never in both sets when built through :meth:`like` / :meth:`dislike` (the later
    opinion wins).

    Attributes:
        liked: liked items and values.
        disliked: disliked items and values.
        disliked_roles: ``(qid, pid)`` for a dislike said about one role of a person ("I like it,
            but not the director": the director only, ``P57``); a disliked QID without a pair here is
            disliked in any role (``recommender.constraints``).
    """

    liked: frozenset[QID] = frozenset()
    disliked: frozenset[QID] = frozenset()
    disliked_roles: frozenset[tuple[QID, PID]] = frozenset()

    def like(self, *qids: QID) -> Profile:
        """A copy with ``qids`` liked (and no longer disliked)."""
        new = frozenset(qids)
        return Profile(self.liked | new, self.disliked - new, self._roles_without(new))

    def dislike(self, *qids: QID, role: PID | None = None) -> Profile:
        """A copy with ``qids`` disliked (and no longer liked); ``role``: the one role disliked."""
        new = frozenset(qids)
        roles = self._roles_without(new)
        if role is not None:
            roles |= {(q, role) for q in new}
        return Profile(self.liked - new, self.disliked | new, roles)

    def forget(self, *qids: QID) -> Profile:
        """A copy without any opinion on ``qids``."""
        gone = frozenset(qids)
        return Profile(self.liked - gone, self.disliked - gone, self._roles_without(gone))

    def role_of(self, qid: QID) -> PID | None:
        """The role a dislike of ``qid`` is about, None for any role (or no dislike)."""
        for q, pid in self.disliked_roles:
            if q == qid:
                return pid
        return None

    def _roles_without(self, qids: Iterable[QID]) -> frozenset[tuple[QID, PID]]:
        gone = set(qids)
        return frozenset(pair for pair in self.disliked_roles if pair[0] not in gone)

    @property
    def rated(self) -> frozenset[QID]:
        """Every QID with an opinion."""
        return self.liked | self.disliked


@dataclass(frozen=True, slots=True)
class Avoid:
    """A constraint on lists: items carrying ``qid`` (in ``role``) are left out while it stands.

    Built from a profile's dislikes (``recommender.constraints.profile_constraints``) and from what
    the person says for the session only ("not Radiohead this time", "no horror please": ``session``
    True, never stored in the profile).

    Attributes:
        qid: a property value (genre, person, band, author, series, ...) or an item.
        role: the property the dislike is about (``"P57"``: as director); None for any role.
        session: a constraint of the session ("this time"), not a stored dislike.
    """

    qid: QID
    role: PID | None = None
    session: bool = False


@dataclass(frozen=True, slots=True)
class ScoredItem:
    """One recommended item; ``score`` is PageRank probability mass (or popularity on fallback)."""

    qid: QID
    score: float


@dataclass(frozen=True, slots=True)
class Recommendations:
    """Ranked suggestions, best first.

    Attributes:
        items: at most k items.
        fallback_reason: None for a personalized ranking, else one of the ``FALLBACK_*`` codes
            (the ranking is then by popularity and the dialog should ask for a liked item).
        unknown: liked QIDs absent from the graph (the dialog can say "I don't know X well
            enough yet", F33).
        left_out: the constraints (:class:`Avoid`) that removed an item this list
            would otherwise have shown ("I left out horror films, as you asked").
        relaxed: constraints that could not be kept because nothing else was left: the items that
            break them are in the list, and their explanation must name the conflict.
        unmet: the required values (``recommend(require=...)``) that no item left to show has: the
            list is then ranked without the requirement, and the dialog says so ("nothing else by X").
    """

    items: tuple[ScoredItem, ...]
    fallback_reason: str | None = None
    unknown: tuple[QID, ...] = ()
    left_out: tuple[Avoid, ...] = ()
    relaxed: tuple[Avoid, ...] = ()
    unmet: tuple[QID, ...] = ()


__all__ = ["PID", "QID", "Avoid", "KnowledgeBaseLike", "Profile", "Recommendations", "ScoredItem"]
