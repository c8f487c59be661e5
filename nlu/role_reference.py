"""References to the people of the card on screen by their role, and the clauses they stand in (issue 22-C).

A critique of a card names its people by role in many words: "that writer", "the band behind it", "the singer
herself", "whoever directed it", "the guy who wrote it". The roles are a closed class per domain (the people
edges of ``recommender.schema``); the words around them are structure (a determiner before, a pronoun of the
card or a reflexive after, a relative clause with the role's verb), not a list of wordings. :func:`role_spans`
finds such references (their words are never titles: "behind" is no song), :func:`split_critique` reads the
message clause by clause: the clauses before the first role reference judge the work, the rest the role.

Example:
    >>> [pid for _s, _e, pid in role_spans("decent book but that author is so smug", "book")]
    ['P50']
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from nlu.wording import family
from recommender.schema import DOMAINS, role_words_for

__all__ = ["Critique", "card_contrast", "role_spans", "split_critique"]

_SCOPE = family("opinion_scope")
_DETERMINER = r"(?:the|that|this|those|these|its|their|his|her)"
_OF_THE_CARD = r"(?:\s+(?:behind|of|on|in|from|for)\s+(?:it|this|that)(?:\s+one)?|\s+(?:it|him|her|them)?sel(?:f|ves))?"
"""What may follow a role word and still be about the card's people: "the band behind it", "the singer herself"."""
_PERSON = r"(?:whoever|(?:the|some|that)\s+(?:guy|guys|person|people|man|woman|lady|dude|folks?|one)\s+(?:who|that))"
"""The head of a relative clause that names a person by what they did ("whoever directed it", "the guy who...")."""
_CLAUSE_END = re.compile(r"\s*(?:[,;.!?()]|\s[-–—]\s|\b(?:but|though|although|yet|whereas|while|except)\b)\s*")


@dataclass(frozen=True, slots=True)
class Critique:
    """A message read clause by clause: ``card`` the words before the first role reference (about the work),
    ``role`` the words from it on, ``roles`` the role PIDs referred to, in order."""

    card: str
    role: str
    roles: tuple[str, ...]


@functools.cache
def _people_words(domain: str | None) -> dict[str, str]:
    """Role words of ``domain`` whose values are people ("director", "band", "wrote"), word -> PID."""
    people = frozenset(
        str(e.pid) for d in DOMAINS.values() for e in d.edges if {"person", "artist", "band"} & set(e.kinds)
    )
    parts = _SCOPE.word_set("aspect_parts") - _SCOPE.word_set("people_parts")  # "the music", "the script"
    return {w: p for w, p in role_words_for(domain).items() if p in people and w not in parts}


@functools.cache
def _reference(domain: str | None) -> re.Pattern[str]:
    words = "|".join(sorted((re.escape(w) for w in _people_words(domain)), key=len, reverse=True))
    return re.compile(
        rf"\b{_DETERMINER}\s+(?P<noun>{words})(?:'s)?\b{_OF_THE_CARD}"
        rf"|\b{_PERSON}\s+(?:\w+\s+)?(?P<verb>{words})(?:\s+(?:it|this|that)(?:\s+one)?)?\b"
    )


def role_spans(folded: str, domain: str | None) -> list[tuple[int, int, str]]:
    """References to the card's people by role in ``folded`` (lower case): ``(start, end, PID)`` each."""
    words = _people_words(domain)
    return [
        (m.start(), m.end(), words[m.group("noun") or m.group("verb")]) for m in _reference(domain).finditer(folded)
    ]


def split_critique(folded: str, domain: str | None) -> Critique | None:
    """The message (lower case) as a critique: the clauses before the first role reference judge the work, the
    rest its people ("decent plot, but I can't stand that writer"); a message that opens with the role reference
    judges the people first ("the director is awful, but the film itself is fine"). None without a reference."""
    spans = role_spans(folded, domain)
    if not spans:
        return None
    start = spans[0][0]
    bounds = [m for m in _CLAUSE_END.finditer(folded) if m.end() <= start]
    roles = tuple(dict.fromkeys(pid for _s, _e, pid in spans))
    if bounds:  # the clause holding the first reference starts after the last boundary before it
        cut = bounds[-1]
        return Critique(folded[: cut.start()], folded[cut.start() :], roles)
    after = _CLAUSE_END.search(folded, spans[-1][1])
    if after is None:
        return Critique("", folded, roles)
    return Critique(folded[after.end() :], folded[: after.start()], roles)


_IMPRESSION = re.compile(r"\b(?:looks?|looked|sounds?|sounded|seems?|seemed|appears?)\b")
"""Verbs of an impression ("looks fun", "sounds cool"): the user judges how the card seems, not the work."""
_CONTRAST = re.compile(r"^\W*(?:but|though|although|yet|whereas|while|except|just)\b")


def card_contrast(folded: str, domain: str | None, polarity: Callable[[str], str]) -> str | None:
    """The card's polarity (``"+"``/``"-"``) when the message judges the work and, in a clause of its own, the card's
    people the other way ("good flick, but whoever directed it, nope"; a contrast word with no opinion of its own
    also opposes: "lovely song, but not the singer herself"); else None (a question, one opinion of both, none)."""
    if "?" in folded:
        return None
    critique = split_critique(folded, domain)
    if critique is None:
        return None
    if _IMPRESSION.search(critique.card):
        return None  # "looks fun, but I didn't like that director's films": an impression rates no unseen work
    card, role = polarity(critique.card), polarity(critique.role)
    if card not in ("+", "-"):
        return None
    if role == ("-" if card == "+" else "+") or (role == "0" and _CONTRAST.match(critique.role)):
        return card
    return None
