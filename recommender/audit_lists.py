"""Checks of the lists a simulated session was shown (issue 23; used by ``recommender.audit``).

A session states dislikes (a critique of a card by role, "I don't like <genre>") and a constraint of
the session ("not X this time"), skips a card and a suggested item, and gets a second list. Each list
is handed over as a :class:`ShownList` with what stood when it was computed; these functions find:

- ``constraint_violations``: an item that breaks a constraint (``recommender.constraints``: the
  profile's dislikes in their roles, the session's constraints), unless the list said that nothing
  else was left (``ShownList.relaxed``) and the item's "why" names the conflict; an explanation that
  cites a disliked or avoided entity;
- ``repeats``: an item already rated, skipped or answered as a suggestion, a part of a liked series or
  album, or an item twice in one list;
- ``creator_missing``: a card that does not name the item's creator although the KB knows one
  (``recommender.constraints.creators``, labelled);
- ``wrong_kind`` by the item's classes: a class of the item (``KnowledgeBase.classes``) stands for a
  kind that is not an item kind of the domain (``KnowledgeBase.class_kinds``: a film also typed
  television series), or its description names such a kind before any item noun
  (``recommender.kinds.described_kind``).

Example:
    >>> creator_missing_in(("Christopher Nolan",), "1/5: Dunkirk (2017), by Christopher Nolan")
    False
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from recommender.constraints import Constraints, creators, parts_of_liked, profile_constraints
from recommender.explain import Reason
from recommender.kinds import described_kind
from recommender.schema import DOMAINS
from recommender.values import Avoid, Profile

CONFLICT_WORDS = ("which you don't like", "leave out")
"""What a "why" says when it names a conflict (``bot/messages.py`` ``CONFLICT_*``)."""


@dataclass(frozen=True, slots=True)
class ShownList:
    """One list of a session and what stood when it was computed.

    Attributes:
        items: the items, in order (the rest of a list after a critique is a list of its own).
        profile: the profile it was computed for (dislikes with their roles).
        avoid: the session's constraints then.
        answered: items answered before (skipped cards, skipped suggestions).
        cards: ``(item, card text)`` of each card shown.
        why: ``(item, "why" text)`` of each item explained.
        reasons: ``(item, reasons rendered)`` of each item explained.
        relaxed: the reply that showed the list said nothing else was left (its items may break a
            constraint, and their "why" must name the conflict).
    """

    items: tuple[str, ...]
    profile: Profile
    avoid: tuple[Avoid, ...] = ()
    answered: tuple[str, ...] = ()
    cards: tuple[tuple[str, str], ...] = ()
    why: tuple[tuple[str, str], ...] = ()
    reasons: tuple[tuple[str, tuple[Reason, ...]], ...] = ()
    relaxed: bool = False


def constraint_violations(kb: Any, shown: ShownList) -> list[str]:
    """The constraint violations of one list (see the module docstring)."""
    out: list[str] = []
    cons = Constraints(kb, (*profile_constraints(shown.profile, kb), *shown.avoid))
    excluded = cons.excluded()
    why = dict(shown.why)
    for item in shown.items:
        if item not in excluded:
            continue
        said = why.get(item, "")
        if not (shown.relaxed and any(word in said for word in CONFLICT_WORDS)):
            broken = ", ".join(f"{kb.label(a.qid)} ({a.role or 'any role'})" for a in cons.broken_by(item))
            kept = "with nothing else left, its why names no conflict" if shown.relaxed else "though others were left"
            out.append(f"{item} {kb.label(item)!r} breaks {broken}, {kept}")
    avoided = {*shown.profile.disliked, *(a.qid for a in shown.avoid)}
    for item, reasons in shown.reasons:
        for r in reasons:
            cited = {r.entity, *([r.via] if r.via else [])} & avoided
            if cited:
                out.append(
                    f"{item} {kb.label(item)!r}: the why cites {', '.join(sorted(cited))}, which the person rejected"
                )
    return out


def repeats(kb: Any, shown: ShownList) -> list[str]:
    """The repeats of one list (see the module docstring)."""
    out: list[str] = []
    rated = shown.profile.rated
    answered = set(shown.answered)
    parts = parts_of_liked(kb, shown.profile)
    seen: set[str] = set()
    for item in shown.items:
        name = f"{item} {kb.label(item)!r}"
        if item in seen:
            out.append(f"{name} twice in one list")
        seen.add(item)
        if item in rated:
            out.append(f"{name} was already rated")
        elif item in answered:
            out.append(f"{name} was already answered (skipped)")
        elif item in parts:
            out.append(f"{name} is a part of a liked series or album")
    return out


def creator_missing_in(names: Sequence[str], card: str) -> bool:
    """Whether a card that should name one of ``names`` names none of them."""
    return bool(names) and not any(name in card for name in names)


def known_creators(kb: Any, item: str) -> tuple[str, ...]:
    """The labelled creators of ``item`` as a card names them."""
    has_label = getattr(kb, "has_label", None)
    return tuple(kb.label(c) for c in creators(kb, item) if (has_label(c) if has_label else kb.label(c) != c))


def creator_cards(kb: Any, lists: Iterable[ShownList]) -> tuple[int, list[str]]:
    """(cards whose item has a known creator, those cards that do not name it)."""
    due = 0
    missing: list[str] = []
    for shown in lists:
        for item, card in shown.cards:
            names = known_creators(kb, item)
            if not names:
                continue
            due += 1
            if creator_missing_in(names, card):
                missing.append(f"{item} {kb.label(item)!r}: card without {', '.join(names)}: {card[:120]!r}")
    return due, missing


def wrong_class(kb: Any, item: str) -> str | None:
    """Why ``item`` is of a kind that is not an item kind by its classes or description, or None."""
    schema = DOMAINS.get(getattr(kb, "domain", ""))
    if schema is None:
        return None
    item_kinds = set(schema.item_kinds)
    class_kinds = getattr(kb, "class_kinds", None)
    if callable(class_kinds):
        other = [k for k in class_kinds(item) if k not in item_kinds]
        if other:
            return f"its classes {', '.join(kb.classes(item))} make it a {other[0]}"
    description = kb.description(item) or ""
    for kind in schema.kinds:
        if not kind.item and description and described_kind(kind, description):
            return f"its description {description!r} makes it a {kind.noun}"
    return None


__all__ = [
    "CONFLICT_WORDS",
    "ShownList",
    "constraint_violations",
    "creator_cards",
    "creator_missing_in",
    "known_creators",
    "repeats",
    "wrong_class",
]
