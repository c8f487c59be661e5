"""Titles listed with titles (issue 22, 22-L2): "my comfort films are clueless, 10 things i hate about you and
legally blonde", "gladiator, titanic and the matrix", "red rising 👎 leviathan wakes 👍".

Reads: the message's tokens, the spans the name index matched and the guard took, and the index hits the guard
refused. Adds: refused hits that are items of a list holding a title the guard took. The guard reads a name
listed *after* a name it took (:func:`nlu.linking.syntax.name_slot`, ``list`` / ``comma`` / ``rated``); the first
item comes before any name is known, and an item after a refused one after none, so a list is read here, once its
titles are known: runs of full names joined by listing gaps (a comma, emoji) or "and", the first opening its
clause (the message, a sentence, or the object of a copula or a like-verb). An item's words must show a name:
a word that is no everyday English (``wordfreq``) and no stop word, or, for a name of everyday words ("one day",
"red rising"), the list's own form: an emoji rating each item, or three items or more; one everyday word that
is no word of the chat names a well-known work ("heat and inception").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from nlu.linking.syntax import listing_gap, rated_gap
from nlu.linking.tokens import Token, boundary
from nlu.linking.values import MIN_STRONG_CHARS, Span
from nlu.linking.words import COPULAS, LIKE_VERBS, common_words, is_everyday, stop_words

Hit = dict[str, float]


def listed_titles(
    text: str,
    tokens: list[Token],
    found: Sequence[Span],
    missed: Sequence[tuple[int, int, Hit]],
    is_title: Callable[[Span], bool],
    known: Callable[[Hit], bool],
) -> list[Span]:
    """The refused hits (``missed``: start, end, entities) listed with a title taken (module docstring).
    ``is_title``: a span taken names a work; ``known``: a hit holds a well-known work."""
    taken = {k for s in found for k in range(s.start, s.end)}
    items: dict[int, tuple[int, Hit | None]] = {s.start: (s.end, None if is_title(s) else {}) for s in found}
    for i, j, hit in missed:
        if not any(k in taken for k in range(i, j)):
            items.setdefault(i, (j, hit))
    out: list[Span] = []
    for chain, gaps in _chains(text, tokens, items):
        if len(chain) < 2 or not any(items[i][1] is None for i in chain) or not _opens(text, tokens, chain[0]):
            continue
        for i, gap in zip(chain, gaps, strict=True):
            j, listed = items[i]
            if listed and _named(tokens[i:j], rated_gap(gap), len(chain) >= 3, known(listed)):
                out.append(Span(i, j, dict(listed), "exact"))
    return out


def _chains(
    text: str, tokens: list[Token], items: dict[int, tuple[int, Hit | None]]
) -> list[tuple[list[int], list[str]]]:
    """Runs of items joined by listing gaps or "and", with the gap after each item (where its rating stands)."""
    out = []
    seen: set[int] = set()
    for start in sorted(items):
        if start in seen:
            continue
        chain, gaps, i = [start], [], start
        while True:
            nxt, gap = _next_item(text, tokens, items[i][0])
            gaps.append(gap)
            if nxt is None or nxt not in items or nxt in seen:
                break
            chain.append(nxt)
            seen.add(nxt)
            i = nxt
        out.append((chain, gaps))
    return out


def _named(words: Sequence[Token], rated: bool, long_list: bool, known: bool) -> bool:
    """The words of a listed item show a name (module docstring); ``known``: they name a well-known work."""
    keys = [t.key for t in words]
    content = keys[1:] if keys[0] == "the" and len(keys) > 1 else keys
    if sum(len(w) for w in content) < MIN_STRONG_CHARS or content[0] == "i":
        return False
    if any(not is_everyday(w) and w not in stop_words() and w.isalpha() for w in content):
        return True
    if len(keys) == 1 and known and keys[0] not in common_words():
        return True  # "heat and inception": a well-known film named by one everyday word, no word of the chat
    return rated or (long_list and len(content) > 1)  # (not "the king": an article and one everyday word)


def _opens(text: str, tokens: list[Token], i: int) -> bool:
    """Token ``i`` opens the message, a sentence or clause, what a colon announces, or the object of a copula or a
    like-verb."""
    if i == 0 or boundary(text, tokens, i) or ":" in text[tokens[i - 1].end : tokens[i].start]:
        return True
    return tokens[i - 1].key in COPULAS or tokens[i - 1].key in LIKE_VERBS


def _next_item(text: str, tokens: list[Token], j: int) -> tuple[int | None, str]:
    """Where the next list item starts after tokens ending at ``j`` (after a listing gap, or "and"), and the gap."""
    if j >= len(tokens):
        return None, text[tokens[-1].end :] if tokens else ""
    gap = text[tokens[j - 1].end : tokens[j].start]
    if tokens[j].key == "and" and not gap.strip():
        return (j + 1 if j + 1 < len(tokens) else None), gap
    return (j if listing_gap(gap) else None), gap
