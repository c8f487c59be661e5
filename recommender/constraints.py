"""Constraints from what the person said: which items a list leaves out, and why (issue 23).

One place decides what "I don't like horror films", "I like it, but not the director" and "no
Radiohead this time" mean for a list; the recommender (``Recommender.recommend``), the critique, the
elicitation suggestions and the audit (``recommender.audit``) all read it.

- **Constraints** (:class:`~recommender.values.Avoid`): every disliked property value of the profile
  (a genre, a person, a band, an author, a series), in the role the dislike was said about
  (``Profile.disliked_roles``: "not the director" is ``P57``) or in any role, plus the constraints of
  the session ("not X this time", never stored). A disliked *item* is never recommended (it is rated);
  as a constraint it also covers the items that have it as a value: its parts (the songs of a disliked
  album, the volumes of a disliked series) and the films that follow or precede it (``P155``/``P156``).
- **What carries a value** (:func:`carries`): an item's own claims; in music also its album's
  performer and genres (a song is by its album's band) and its performer's genres (an artist's genres
  are the genres of their songs, as the KB records them).
- **Parts of a liked series or album** (:func:`parts_of_liked`) are not recommended: whoever liked
  The Lord of the Rings knows its volumes.
- **Conflicts** (:func:`conflicts`): what an explanation must name when it still applies to an
  item ("it is a horror film, which you dislike, but ..."): a constraint it breaks (only when a list
  had to keep it: nothing else was left), or a creator it shares with a disliked item ("it is by Dan
  Brown, like The Da Vinci Code, which you dislike").

Example (``kb`` a movie knowledge base):
    >>> cons = Constraints(kb, profile_constraints(Profile(disliked=frozenset({"Q200092"}))))  # doctest: +SKIP
    >>> "Q679023" in cons.excluded()                                  # Grindhouse is a horror film  # doctest: +SKIP
    True
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from recommender.values import PID, QID, Avoid, KnowledgeBaseLike, Profile

CREATOR_PIDS: Mapping[str, tuple[PID, ...]] = {
    "movie": ("P57",),
    "book": ("P50",),
    "music": ("P175",),
}
"""The creator of an item per domain: a film's director, a book's author, a song's or album's
performer (the card always shows it when the KB knows it)."""

PART_PIDS: tuple[PID, ...] = ("P179", "P361")
"""Properties that make an item a part of another entity: a volume of a series, a song of an album."""

ALBUM_PIDS: tuple[PID, ...] = ("P175", "P136")
"""What a song carries of its album (music): the album's performer and genres."""


def profile_constraints(profile: Profile, kb: KnowledgeBaseLike | None = None) -> tuple[Avoid, ...]:
    """The constraints of a profile: one per disliked QID, in the role it was disliked in.

    Args:
        profile: the profile (its ``disliked`` and ``disliked_roles``).
        kb: when given, QIDs it does not know are left out (they cannot carry anything).

    Returns:
        Constraints in QID order (deterministic).
    """
    out = []
    for qid in sorted(profile.disliked):
        if kb is not None and not kb.has(qid):
            continue
        out.append(Avoid(qid, profile.role_of(qid)))
    return tuple(out)


def _canonical(kb: KnowledgeBaseLike, qid: QID) -> QID:
    canonical = getattr(kb, "canonical", None)
    return str(canonical(qid)) if callable(canonical) else qid


def carries(kb: KnowledgeBaseLike, item: QID) -> frozenset[tuple[PID, QID]]:
    """``(pid, value)`` pairs ``item`` carries for constraints (see the module docstring)."""
    own = kb.item_values(item)
    found = set(own)
    if getattr(kb, "domain", "") == "music":
        albums = [v for p, v in own if p == "P361"]
        for album in albums:
            found.update((p, v) for p, v in kb.item_values(album) if p in ALBUM_PIDS)
        performers = [v for p, v in found if p == "P175"]
        for performer in performers:
            found.update((p, v) for p, v in kb.item_values(performer) if p == "P136")
    return frozenset(found)


def breaks(kb: KnowledgeBaseLike, item: QID, avoid: Avoid) -> bool:
    """Whether ``item`` breaks ``avoid``: it is the avoided item, or carries its value in its role."""
    target = _canonical(kb, avoid.qid)
    if item == target:
        return True
    for pid, value in carries(kb, item):
        if value != target:
            continue
        if kb.is_item(target) or avoid.role is None or pid == avoid.role:
            return True  # (an item is avoided in any role: as the album, series or film it follows)
    return False


def items_breaking(kb: KnowledgeBaseLike, avoid: Avoid) -> frozenset[QID]:
    """Every item that breaks ``avoid`` (the reverse of :func:`breaks`, from the value's claims)."""
    target = _canonical(kb, avoid.qid)
    out: set[QID] = set()
    if kb.is_item(target):  # the item, and the items that have it as a value (parts, sequels)
        out.add(target)
        out.update(s for _p, s in kb.value_items(target) if kb.is_item(s))
        return frozenset(out)
    music = getattr(kb, "domain", "") == "music"
    performers: set[QID] = set()
    for pid, subject in kb.value_items(target):
        if kb.is_item(subject):
            if avoid.role is None or pid == avoid.role:
                out.add(subject)
                if music and pid in ALBUM_PIDS:  # the songs of an album by the avoided band
                    out.update(s for p, s in kb.value_items(subject) if p == "P361" and kb.is_item(s))
        elif music and pid == "P136" and avoid.role in (None, "P136"):
            performers.add(subject)  # an artist of the avoided genre: their songs are of it
    for performer in performers:
        for pid, work in kb.value_items(performer):
            if pid == "P175" and kb.is_item(work):
                out.add(work)
                out.update(s for p, s in kb.value_items(work) if p == "P361" and kb.is_item(s))
    return frozenset(out)


class Constraints:
    """The constraints of one request and the items they leave out.

    Args:
        kb: the domain's knowledge base.
        avoid: the constraints (:func:`profile_constraints` plus the session's).
    """

    def __init__(self, kb: KnowledgeBaseLike, avoid: Iterable[Avoid]) -> None:
        self.kb = kb
        self.avoid: tuple[Avoid, ...] = tuple(dict.fromkeys(avoid))

    def __bool__(self) -> bool:
        return bool(self.avoid)

    @functools.cached_property
    def _by_constraint(self) -> dict[Avoid, frozenset[QID]]:
        return {a: items_breaking(self.kb, a) for a in self.avoid}

    def excluded(self) -> frozenset[QID]:
        """Every item some constraint leaves out."""
        return frozenset().union(*self._by_constraint.values()) if self.avoid else frozenset()

    def broken_by(self, item: QID) -> tuple[Avoid, ...]:
        """The constraints ``item`` breaks, in constraint order."""
        return tuple(a for a, items in self._by_constraint.items() if item in items)


def parts_of_liked(kb: KnowledgeBaseLike, profile: Profile) -> frozenset[QID]:
    """Items that are parts (:data:`PART_PIDS`) of a liked series or album: not recommended again."""
    out: set[QID] = set()
    for qid in profile.liked:
        for pid, subject in kb.value_items(_canonical(kb, qid)):
            if pid in PART_PIDS and kb.is_item(subject):
                out.add(subject)
    return frozenset(out)


SEQUEL_PIDS: tuple[PID, ...] = ("P155", "P156")
"""Follows and followed by: a work's prequel and sequel."""


def kin_of_disliked(kb: KnowledgeBaseLike, profile: Profile) -> frozenset[QID]:
    """Items of a disliked item's series or sequel chain (its prequel, its sequel, the other parts of its
    series), not liked themselves: not offered for rating ("Do you like The Matrix Reloaded?" right after
    a dislike of The Matrix, fresh6)."""
    out: set[QID] = set()
    for qid in profile.disliked:
        item = _canonical(kb, qid)
        if not kb.is_item(item):
            continue
        for pid, value in kb.item_values(item):
            if pid in SEQUEL_PIDS:
                out.add(value)
            elif pid == "P179":
                out.update(part for p, part in kb.value_items(value) if p == "P179")
        out.update(other for pid, other in kb.value_items(item) if pid in SEQUEL_PIDS)
    return frozenset(q for q in out if kb.is_item(q)) - profile.liked - profile.disliked


def creators(kb: KnowledgeBaseLike, item: QID) -> tuple[QID, ...]:
    """The item's creators (:data:`CREATOR_PIDS` of its domain; a song's album's performer when it
    has none of its own), in KB order."""
    pids = CREATOR_PIDS.get(getattr(kb, "domain", ""), ())
    own = [v for p, v in kb.item_values(item) if p in pids]
    if own or getattr(kb, "domain", "") != "music":
        return tuple(dict.fromkeys(own))
    albums = [v for p, v in kb.item_values(item) if p == "P361"]
    return tuple(dict.fromkeys(v for a in albums for p, v in kb.item_values(a) if p in pids))


def without_creator(
    kb: KnowledgeBaseLike, item_index: NDArray[np.int64], item_qid: Callable[[int], QID]
) -> NDArray[np.bool_] | None:
    """(n_items,) music items without a named performer of their own or of their album (songs that
    come after all the others in a list); None in the other domains (their cards say so, the order
    does not change).

    Args:
        kb: the domain's knowledge base (a mapped ``KnowledgeBase`` is read through its claim arrays).
        item_index: (n_items,) the graph node (= entity index) of each item position.
        item_qid: item position -> QID (used when the KB has no claim arrays, e.g. a test fake).
    """
    if getattr(kb, "domain", "") != "music":
        return None
    has_label = getattr(kb, "has_label", None)
    pids = tuple(getattr(kb, "pids", ()))
    arrays: Any = getattr(kb, "edge_arrays", None)
    if not callable(arrays) or "P175" not in pids or has_label is None:
        named = [
            [c for c in creators(kb, item_qid(pos)) if has_label is None or has_label(c)]
            for pos in range(len(item_index))
        ]
        return np.array([not found for found in named], dtype=bool)
    mapped: Any = kb  # a mapped recommender.kb.KnowledgeBase: claim arrays, entity indexes
    ei, ep, ev = (np.asarray(a, dtype=np.int64) for a in arrays())
    n = int(mapped.n_entities)
    perf = ep == pids.index("P175")
    values = np.unique(ev[perf])
    labelled = np.zeros(n, dtype=bool)
    labelled[values] = [bool(has_label(mapped.qid_at(int(v)))) for v in values]
    has = np.zeros(n, dtype=bool)
    has[ei[perf][labelled[ev[perf]]]] = True
    if "P361" in pids:  # a song of an album with a performer
        on = ep == pids.index("P361")
        has[ei[on][has[ev[on]]]] = True
    return ~has[item_index]


@dataclass(frozen=True, slots=True)
class Conflict:
    """Something an explanation of ``item`` must name: it breaks ``avoid`` (``value`` in role
    ``pid``), or it shares the creator ``value`` with the disliked item ``disliked``."""

    value: QID
    pid: PID | None
    avoid: Avoid | None = None
    disliked: QID | None = None


def conflicts(kb: KnowledgeBaseLike, profile: Profile, item: QID, avoid: Iterable[Avoid] = ()) -> tuple[Conflict, ...]:
    """What still speaks against ``item`` for this profile (see the module docstring).

    Args:
        kb: the domain's knowledge base.
        profile: the profile (its dislikes are constraints; its disliked items give creator conflicts).
        item: a recommended item.
        avoid: the session's constraints.

    Returns:
        Constraint conflicts first (the value in the role the item has it), then shared creators.
    """
    out: list[Conflict] = []
    cons = Constraints(kb, (*profile_constraints(profile, kb), *avoid))
    have = carries(kb, item)
    for a in cons.broken_by(item):
        target = _canonical(kb, a.qid)
        pids = [p for p, v in have if v == target and (a.role is None or p == a.role)]
        out.append(Conflict(target, pids[0] if pids else a.role, avoid=a))
    named = {c.value for c in out}
    mine = set(creators(kb, item))
    for disliked in sorted(profile.disliked):
        if disliked == item or not kb.is_item(disliked):
            continue
        for creator in creators(kb, disliked):
            if creator in mine and creator not in named and creator not in profile.liked:
                pid = CREATOR_PIDS.get(getattr(kb, "domain", ""), (None,))[0]
                out.append(Conflict(creator, pid, disliked=disliked))
                named.add(creator)
    return tuple(out)


def disliked_creators(kb: KnowledgeBaseLike, profile: Profile) -> frozenset[QID]:
    """Creators of disliked items the profile likes nothing else of: their other items come after
    the rest of a list (a soft signal, never an exclusion)."""
    liked_items = [q for q in profile.liked if kb.is_item(q)]
    liked_creators = set(profile.liked) | {c for q in liked_items for c in creators(kb, q)}
    out = {c for q in profile.disliked if kb.is_item(q) for c in creators(kb, q)}
    return frozenset(out - liked_creators)


__all__ = [
    "ALBUM_PIDS",
    "CREATOR_PIDS",
    "PART_PIDS",
    "Conflict",
    "Constraints",
    "breaks",
    "carries",
    "conflicts",
    "creators",
    "disliked_creators",
    "items_breaking",
    "parts_of_liked",
    "profile_constraints",
    "without_creator",
]
