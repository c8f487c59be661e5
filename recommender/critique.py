"""Critiquing the item on screen: "I like it, but not Mel Gibson", "no, but I like the director".

A critique rates the item and, with the opposite (or the said) polarity, some of its property
values: named ones, or those of a role ("the director" is every director of the item). A value
disliked through a role word is disliked *in that role* (``Profile.disliked_roles``): "not the
director" at a film Tarantino directed and acted in leaves his acting alone. The new profile's
constraints (``recommender.constraints``) apply at once to the re-ranked list.

Example:
    >>> Critique("+", (("Q42229", "-"),))     # "I like it, but not Mel Gibson"
    Critique(item_polarity='+', values=(('Q42229', '-'),))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from corsbot_errors import ConfigError
from recommender.recommend import Recommender
from recommender.schema import role_name, role_words_for
from recommender.values import PID, QID, Avoid, KnowledgeBaseLike, Profile, Recommendations

_ARTICLES = ("the ", "its ", "his ", "her ", "their ")


@dataclass(frozen=True, slots=True)
class Critique:
    """A user's critique of an item on screen.

    Attributes:
        item_polarity: "+" (I like it), "-" (I don't) or None (no opinion on the item itself).
        values: (QID or role name, "+"/"-") pairs: "but not Mel Gibson" -> ("Q42229", "-"),
            "but I like the director" -> ("director", "+"). Role names resolve to the item's
            values for that role (and their opinion is about that role).
        roles: (QID, PID): the role a QID of ``values`` is critiqued in (a value the dialog already
            resolved from a role word, e.g. after "which one do you mean?").
    """

    item_polarity: str | None = None
    values: tuple[tuple[str, str], ...] = ()
    roles: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class CritiqueResult:
    """Outcome of :func:`apply_critique`.

    Attributes:
        profile: the updated profile.
        recommendations: the re-ranked remaining suggestions.
        applied: (QID, polarity) actually added to the profile, in order.
        unresolved: critique targets that matched nothing on the item (role it lacks, bad QID).
        roles: (QID, PID) for the values resolved from a role word: the role their opinion is about.
    """

    profile: Profile
    recommendations: Recommendations
    applied: tuple[tuple[QID, str], ...]
    unresolved: tuple[str, ...]
    roles: tuple[tuple[QID, PID], ...] = ()


def role_pids(kb: KnowledgeBaseLike, item: QID, role: str) -> frozenset[PID]:
    """The properties a role named in words stands for at ``item`` ("director" -> P57, "the
    actors" -> P161; a PID stands for itself; else the item's properties of that role name)."""
    word = " ".join(role.lower().split())
    for article in _ARTICLES:
        if word.startswith(article):
            word = word[len(article) :]
    if word.upper().startswith("P") and word[1:].isdigit():
        return frozenset({word.upper()})
    words = role_words_for(getattr(kb, "domain", None))  # the project's one role vocabulary
    for form in (word, word.rstrip("s")):
        if form in words:
            return frozenset({words[form]})
    domain = getattr(kb, "domain", None)
    return frozenset(p for p, _ in kb.item_values(item) if role_name(p, domain).lower() in (word, word.rstrip("s")))


def role_values(kb: KnowledgeBaseLike, item: QID, role: str) -> tuple[QID, ...]:
    """The item's values for a role named in words ("director", "the actors", "genre").

    Args:
        kb: knowledge base.
        item: the item QID.
        role: a role word (case-insensitive, leading "the"/"its" ignored) or a PID ("P57").

    Returns:
        QIDs in the KB's order (empty if the item has no value for that role).
    """
    pids = role_pids(kb, item, role)
    return tuple(dict.fromkeys(v for p, v in kb.item_values(item) if p in pids))


def apply_critique(
    recommender: Recommender,
    profile: Profile,
    item: QID,
    critique: Critique,
    *,
    k: int = 5,
    exclude: Iterable[QID] = (),
    avoid: Iterable[Avoid] = (),
) -> CritiqueResult:
    """Update the profile from a critique of ``item`` and re-rank the remaining suggestions.

    Examples: "I like it, but not Mel Gibson" = ``Critique("+", (("Q42229", "-"),))``;
    "no, but I like the director" = ``Critique("-", (("director", "+"),))``.

    Args:
        recommender: the domain's recommender.
        profile: the current profile.
        item: the item on screen.
        critique: what the user said.
        k: number of suggestions to return.
        exclude: items not to suggest again (e.g. already shown); ``item`` is always excluded.
        avoid: the session's constraints (``Recommender.recommend``).

    Returns:
        :class:`CritiqueResult`.

    Raises:
        ConfigError: on a polarity other than "+"/"-".
    """
    applied: list[tuple[QID, str]] = []
    roles: list[tuple[QID, PID]] = []
    unresolved: list[str] = []
    new = profile
    if critique.item_polarity is not None:
        new = _apply(new, item, critique.item_polarity, None)
        applied.append((item, critique.item_polarity))
    kb = recommender.kb
    item_values = {v for _p, v in kb.item_values(item)}
    said_role = dict(critique.roles)
    for target, polarity in critique.values:
        if target in item_values or (target.startswith("Q") and target[1:].isdigit()):
            found: tuple[tuple[QID, PID | None], ...] = ((target, said_role.get(target)),)
        else:
            pids = role_pids(kb, item, target)
            found = tuple(dict.fromkeys((v, p) for p, v in kb.item_values(item) if p in pids))
        if not found:
            unresolved.append(target)
            continue
        for qid, pid in found:
            new = _apply(new, qid, polarity, pid)
            applied.append((qid, polarity))
            if pid is not None:
                roles.append((qid, pid))
    recs = recommender.recommend(new, k=k, exclude=(*exclude, item), avoid=avoid)
    return CritiqueResult(new, recs, tuple(applied), tuple(unresolved), tuple(dict.fromkeys(roles)))


def _apply(profile: Profile, qid: QID, polarity: str, role: PID | None) -> Profile:
    if polarity == "+":
        return profile.like(qid)
    if polarity == "-":
        return profile.dislike(qid, role=role)
    raise ConfigError(f"polarity must be '+' or '-', got {polarity!r}")


__all__ = ["Critique", "CritiqueResult", "apply_critique", "role_pids", "role_values"]
