"""Typo'd opinion verbs read as the verbs they stand for (issue 22, 22-L2: "i realy luved back to teh future").

Reads: the message's tokens. Adds: tokens whose key is a like-verb (:data:`nlu.linking.words.LIKE_VERBS`) where
the word was typed one letter off it (an edit of Optimal String Alignment distance 1: a letter substituted,
dropped, added or two swapped) and is no English word itself (``wordfreq`` Zipf below :data:`MAX_TYPO_ZIPF`:
"luved", "enjoued", "adord", "wacthed"; not "lived", "rated", "lover"), or, from :data:`MIN_SHUFFLED_CHARS` letters,
with the verb's letters in another order after the first ("wachted"). The later steps then find the verb's
object where a name is expected, as they do after a verb spelled right. Only words typed in lowercase (a
capitalised word may be a name: "Jove") of :data:`MIN_TYPO_CHARS` letters or more, and only verbs that are
English words themselves, so one typo never leads to another.

Example:
    >>> [t.key for t in verb_typos(tokenize("i luved it"))]  # doctest: +SKIP
    ['i', 'loved', 'it']
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from rapidfuzz.distance import OSA

from nlu.linking.tokens import Token
from nlu.linking.words import COMMON_ZIPF, LIKE_VERBS, zipf

MAX_TYPO_ZIPF = 3.0
"""A word at least this frequent in English (about one per million words) is typed as meant ("lived", "rated")."""
MIN_TYPO_CHARS = 4
"""Shorter words are too close to too many others ("saw" / "say", "luv" is listed as it is)."""
MIN_SHUFFLED_CHARS = 6
"""From this many letters, a word with a verb's letters typed out of order, the first one right, is that verb
("wachted", "enjoeyd"): two letters swapped apart, no English word."""


@lru_cache(maxsize=1)
def _verbs() -> tuple[str, ...]:
    """The like-verbs that are English words (not the listed spellings such as "lovd"), sorted by length."""
    return tuple(sorted((w for w in LIKE_VERBS if len(w) >= MIN_TYPO_CHARS and zipf(w) >= COMMON_ZIPF - 1), key=len))


@lru_cache(maxsize=4096)
def typo_verb(word: str) -> str | None:
    """The like-verb ``word`` (folded) is a typo of, or None (module docstring)."""
    if len(word) < MIN_TYPO_CHARS or not word.isalpha() or word in LIKE_VERBS or zipf(word) >= MAX_TYPO_ZIPF:
        return None
    near = next((v for v in _verbs() if abs(len(v) - len(word)) <= 1 and OSA.distance(word, v) <= 1), None)
    if near is None and len(word) >= MIN_SHUFFLED_CHARS:  # "wachted": its letters typed out of order
        letters = sorted(word)
        near = next((v for v in _verbs() if v[0] == word[0] and sorted(v) == letters), None)
    return near


def verb_typos(tokens: list[Token]) -> list[Token]:
    """``tokens`` with the key of each lowercase typo'd like-verb replaced by the verb (module docstring)."""
    out = []
    for t in tokens:
        verb = typo_verb(t.key) if t.raw.islower() else None
        out.append(replace(t, key=verb) if verb else t)
    return out
