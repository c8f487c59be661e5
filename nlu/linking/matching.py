"""Step 1 of linking: span proposal and candidate generation by the name index.

Reads: the message's tokens and the name index (:mod:`nlu.name_index`, built by
:mod:`nlu.linking.index_build`). Adds: :class:`nlu.linking.values.Span` values, each a run of tokens
with the entities the index gives for it and their similarity.

- :meth:`SpanMatcher.exact_spans`: for every start token the longest n-gram found in the index is
  tried first; a weak one passes only the F29 guard (:mod:`nlu.linking.guard`), a short one that is
  the whole object of a like-verb is kept to be asked about ("I like sia"); titles are also found by
  their content words (the skeleton table: "the lord of rings"); the longest non-overlapping spans win
  (F28, like spaCy's ``filter_spans``); a genre word ending a longer name the guard refused is a word of
  that name ("the new star wars movie": no "war film").
- :meth:`SpanMatcher.reference_spans`: "this movie", "this one", "it", "that song" refer to the focus
  (the item on screen); with no focus they link nothing ("I liked it" -> no mention).
- :meth:`SpanMatcher.title_word_spans`: a lone distinctive word of titles that is the whole object of
  a like-verb ("I like lebowski"): its titles, always asked about.

The typo-tolerant fallback is :mod:`nlu.linking.fuzzy`.

Example:
    >>> [(s.start, s.end, s.kind) for s in SpanMatcher(kb, names).exact_spans(text, tokenize(text))]  # doctest: +SKIP
    [(2, 5, 'exact')]       # "I love Schindler’s List"
"""

from __future__ import annotations

from collections.abc import Iterable

from nlu.linking.guard import SpanGuard
from nlu.linking.lists import listed_titles
from nlu.linking.tokens import SKELETON_DROP, Token, boundary, skeleton_key
from nlu.linking.values import (
    DOMINANT_MIN_POPULARITY,
    MAX_SKELETON_SPAN,
    PERSON_ROLES,
    SIM_ALIAS,
    SIM_LABEL,
    SIM_TITLE_WORD,
    SIM_VARIANT,
    Span,
)
from nlu.linking.words import (
    CLAUSE_STOP,
    DEMONSTRATIVES,
    LIKE_VERBS,
    REFERENCE_NOUNS,
    SPAN_STOP,
    SUBJECT_PRONOUNS,
    is_everyday,
    stop_words,
)
from nlu.linking.works import number_words
from nlu.name_index import NameIndex


class SpanMatcher:
    """Proposes the spans the name index matches (module docstring).

    Args:
        names: the domain's name index.
        guard: the F29 guard over the same KB.
    """

    def __init__(self, names: NameIndex, guard: SpanGuard) -> None:
        self._names = names
        self._guard = guard

    def exact_spans(self, text: str, tokens: list[Token]) -> list[Span]:
        """The longest non-overlapping index matches that pass the guard (``exact``), short objects
        of a like-verb (``ask``) and skeleton matches, in no particular order."""
        found: list[Span] = []
        refused: list[tuple[int, int]] = []  # names of several words the guard refused
        missed: list[tuple[int, int, dict[str, float]]] = []  # the longest hit at a start the guard refused
        keys = [t.key for t in tokens]
        for i, tok in enumerate(tokens):
            longest = self._names.max_len(tok.key)
            for n in range(max(min(longest, len(tokens) - i), 1 if tok.key.isdigit() else 0), 0, -1):
                hit = self._names.exact(tuple(keys[i : i + n]))
                if n == 1 and tok.key.isdigit():
                    hit = self._number_title(tok.key, hit)  # "1984": "Nineteen Eighty-Four" too (issue 22-E)
                elif n > 1 and keys[i] == "the" and hit is not None:
                    hit = self._with_the_band(tuple(keys[i + 1 : i + n]), hit)
                if hit is None or self._verb_before_name(tokens, keys, i, i + n):
                    continue
                ends = {f[1] for f in found}
                titles = {f[1] for f in found if any(self._guard.kb.is_item(q) for q in f[2])}
                if self._guard.strong_enough(text, tokens, i, i + n, hit, ends, titles):
                    found.append(Span(i, i + n, dict(hit), "exact"))
                    break
                if self._guard.short_object(text, tokens, i, i + n):
                    found.append(Span(i, i + n, dict(hit), "ask"))  # F29: "I like sia" -> ask
                    break
                if n > 1 and not (n == 2 and keys[i] in ("a", "an")):  # "a thriller": an article, then the word
                    refused.append((i, i + n))
                if not missed or missed[-1][0] != i:
                    missed.append((i, i + n, dict(hit)))
        # a genre word ending a longer name typed in everyday words is a word of that name, not a genre
        # opinion ("the new star wars movie": no "war film"; issue 22)
        found = [s for s in found if not (self._genre_only(s) and any(a < s[0] and s[1] <= b for a, b in refused))]
        # a lowercase everyday word inside a longer name the guard refused is a word of those words, not a
        # name of its own ("couldnt get through house of leaves": no "house" music either)
        found = [s for s in found if not (self._inside_refused(tokens, s, refused) and s[3] == "exact")]
        found += listed_titles(text, tokens, found, missed, self._is_title, self._known)
        found = self._skeleton_spans(text, tokens, found)
        return longest_first(found)

    def _verb_before_name(self, tokens: list[Token], keys: list[str], i: int, j: int) -> bool:
        """Tokens ``i:j`` open with the user's like-verb in lowercase after "i" / "we", and a name starting after
        the verb runs past them: "i love arcade fire" likes Arcade Fire, no title "Love Arcade" (issue 22)."""
        if j - i < 2 or i == 0 or keys[i] not in LIKE_VERBS or keys[i - 1] not in SUBJECT_PRONOUNS:
            return False
        if not tokens[i].raw.islower():
            return False
        longest = min(self._names.max_len(keys[i + 1]), len(keys) - i - 1)
        return any(self._names.exact(tuple(keys[i + 1 : i + 1 + m])) is not None for m in range(longest, j - i - 1, -1))

    def _is_title(self, span: Span) -> bool:
        """The span may name a work (an item of the KB)."""
        return any(self._guard.kb.is_item(q) for q in span.scored)

    def _known(self, hit: dict[str, float]) -> bool:
        """The hit holds a well-known work (:data:`DOMINANT_MIN_POPULARITY`)."""
        kb = self._guard.kb
        return any(kb.is_item(q) and kb.popularity(q) >= DOMINANT_MIN_POPULARITY for q in hit)

    @staticmethod
    def _inside_refused(tokens: list[Token], span: Span, refused: list[tuple[int, int]]) -> bool:
        """A one-word span, an everyday word in lowercase, inside a refused name of three words or more."""
        i, j = span[0], span[1]
        if j - i != 1 or not tokens[i].raw.islower() or not is_everyday(tokens[i].key):
            return False
        return any(a <= i and j <= b and b - a >= 3 for a, b in refused)

    def _with_the_band(self, rest: tuple[str, ...], hit: dict[str, float]) -> dict[str, float]:
        """A name typed with "the" before a band's or artist's own name ("the Red Hot Chili Peppers"): the
        band too (similarity ``SIM_ALIAS``), beside the work so titled (their eponymous album; issue 22-E)."""
        kb = self._guard.kb
        bands = {q: v for q, v in (self._names.exact(rest) or {}).items() if PERSON_ROLES.intersection(kb.roles(q))}
        if not bands:
            return hit
        merged = dict(hit)
        for qid, sim in bands.items():  # (as their own name: "the Chili Peppers" is what people call them)
            merged[qid] = max(merged.get(qid, 0.0), min(sim, SIM_ALIAS))
        return merged

    def _number_title(self, digits: str, hit: dict[str, float] | None) -> dict[str, float] | None:
        """The entities named by a number typed in digits, with those whose name spells it in words
        ("1984" -> "Nineteen Eighty-Four", similarity ``SIM_VARIANT``)."""
        words = number_words(digits) if digits == str(int(digits)) else None  # "007" is no "Seven"
        spelled = self._names.exact(words) if words else None
        if not spelled:
            return hit
        merged = dict(hit or {})
        for qid, sim in spelled.items():
            merged[qid] = max(merged.get(qid, 0.0), min(sim, SIM_VARIANT))
        return merged

    def _genre_only(self, span: Span) -> bool:
        kb = self._guard.kb
        return all("P136" in kb.roles(q) and not kb.is_item(q) for q in span[2])

    def _skeleton_spans(self, text: str, tokens: list[Token], found: list[Span]) -> list[Span]:
        """Add title matches that differ only in articles, "of", "and" or a possessive "s" (the
        index's skeleton table); a skeleton hit on a span found exactly joins its candidates."""
        if not self._names.has_skeletons():
            return found
        keys = [t.key for t in tokens]
        by_range = {(f[0], f[1]): f for f in found}
        out = list(found)
        stop = stop_words()
        for i, tok in enumerate(tokens):
            if tok.key in SKELETON_DROP or tok.key in LIKE_VERBS or tok.key in stop:
                continue
            for n in range(min(MAX_SKELETON_SPAN, len(tokens) - i), 1, -1):
                j = i + n
                if keys[j - 1] in SKELETON_DROP or any(boundary(text, tokens, k) for k in range(i + 1, j)):
                    continue
                hit = self._names.skeleton(skeleton_key(tuple(keys[i:j])))
                if hit is None:
                    continue
                same = by_range.get((i, j))
                if same is not None:
                    for qid, sim in hit.items():
                        same.scored.setdefault(qid, sim)
                elif self._guard.strong_enough(text, tokens, i, j, hit) and not any(
                    f[0] < j and i < f[1] and f[1] - f[0] >= n for f in found
                ):  # an exact match at least as long wins
                    out.append(Span(i, j, dict(hit), "exact"))
                break
        return out

    @staticmethod
    def reference_spans(tokens: list[Token], taken: list[Span], focus: str | None) -> list[Span]:
        """ "this movie", "that one", "it" -> the focus item (nothing without a focus)."""
        if focus is None:
            return []
        used = {k for i, j, _, _ in taken for k in range(i, j)}
        out: list[Span] = []
        for i, tok in enumerate(tokens):
            if i in used:
                continue
            if tok.key in DEMONSTRATIVES and i + 1 < len(tokens) and tokens[i + 1].key in REFERENCE_NOUNS:
                if i + 1 not in used:
                    out.append(Span(i, i + 2, {focus: SIM_LABEL}, "ref"))
                    used.update((i, i + 1))
            elif tok.key in ("it", "this", "that") and not out and not taken:
                # a bare pronoun refers to the focus only when nothing is named ("I watched
                # Inception and loved it" is about Inception); "that" only at the end ("I like that")
                if tok.key == "that" and i + 1 < len(tokens):
                    continue
                out.append(Span(i, i + 1, {focus: SIM_LABEL}, "ref"))
                used.add(i)
        return out

    def title_word_spans(self, text: str, tokens: list[Token], taken: list[Span]) -> list[Span]:
        """A lone distinctive word that is the whole object of a like-verb and matched nothing else
        ("I like lebowski"): the titles that contain it, always asked about ("ask")."""
        covered = {k for s in taken for k in range(s[0], s[1])}
        out: list[Span] = []
        for i in range(1, len(tokens)):
            if i in covered or tokens[i - 1].key not in LIKE_VERBS:
                continue
            if not (
                i + 1 == len(tokens) or boundary(text, tokens, i + 1) or tokens[i + 1].key in SPAN_STOP | CLAUSE_STOP
            ):
                continue
            items = self._names.title_items(tokens[i].key)
            if items:
                out.append(Span(i, i + 1, {q: SIM_TITLE_WORD for q in items}, "ask"))
        return out


def longest_first(found: Iterable[Span]) -> list[Span]:
    """Keep the longest non-overlapping spans (ties: leftmost), as spaCy's ``filter_spans``."""
    chosen: list[Span] = []
    used: set[int] = set()
    for span in sorted(found, key=lambda s: (-(s[1] - s[0]), s[0])):
        if not any(k in used for k in range(span[0], span[1])):
            chosen.append(span)
            used.update(range(span[0], span[1]))
    return chosen
