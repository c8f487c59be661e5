"""Opinion words typed with a slip of the keyboard (issue 22): "memento and heat were giid" -> "good".

People type fast in chat; a misspelt cue ("giid", "amazng", "brillant", "borin", "liek") is an opinion the
lexicon of ``nlu.sentiment`` would otherwise miss, and the preference is lost or asked about. A word is
respelt to a one-word cue of the lexicon when:

- it is no English word (``wordfreq``'s Zipf frequency below :data:`KNOWN_ZIPF`: "giid" 0.0, "awsome" 2.5;
  "goof" 3.0 and "food" 5.4 stay as typed), at least :data:`MIN_LENGTH` letters;
- one cue word is one slip away: a letter left out, doubled in, or two letters swapped ("amazng", "lovd",
  "liek"), or up to two letters replaced by a neighbouring key on a QWERTY keyboard ("giid": i for o);
- exactly one cue word is that close (two candidates: the word stays as typed), or, given the cues' signs, all
  those that close say the same ("lovd": "love" or "loved", a like; issue 22-F).

Method: Damerau's single-error classes (Damerau, "A technique for computer detection and correction of
spelling errors", CACM 1964) plus adjacent-key substitutions, as keyboard-aware spell checkers weigh them.

Example:
    >>> respeller = CueSpeller(["good", "great", "amazing", "boring", "like"])
    >>> respeller.respell("memento and heat were giid, amazng")
    'memento and heat were good, amazing'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache

__all__ = ["KNOWN_ZIPF", "MIN_LENGTH", "CueSpeller"]

KNOWN_ZIPF = 2.6
"""A word at least this frequent in English (``wordfreq`` Zipf scale) is a word of its own, never respelt
("goof" 3.0, "mood" 4.4); common misspellings sit below it ("awsome" 2.5, "brillant" 2.0)."""
MIN_LENGTH = 4
"""Shorter words are too ambiguous to respell ("hte", "gd")."""
_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
_WORD = re.compile(r"[a-z]+")
_EIGHT = re.compile(r"(?<![\w'])[a-z]+8[a-z]*(?![\w'])")
"""A word with the digit 8 standing for its sound ("gr8", "h8", "h8ed"), as chat spells "great", "hate"."""
_EIGHT_SOUNDS = ("ate", "eat")


def _neighbours() -> dict[str, frozenset[str]]:
    """Keys touching each letter on a QWERTY keyboard: either side in its row, and the two it sits between
    in the row above and below (each row is shifted half a key to the right of the one above it)."""
    where = {ch: (r, c) for r, row in enumerate(_ROWS) for c, ch in enumerate(row)}
    out: dict[str, frozenset[str]] = {}
    for ch, (r, c) in where.items():
        touching = {(r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1), (r + 1, c - 1), (r + 1, c)}
        out[ch] = frozenset(other for other, place in where.items() if place in touching)
    return out


_NEAR = _neighbours()


@lru_cache(maxsize=65536)
def _zipf(word: str) -> float:
    try:
        from wordfreq import zipf_frequency
    except ImportError:  # pragma: no cover - a declared dependency
        return 10.0  # nothing is respelt without the word list
    return float(zipf_frequency(word, "en"))


def one_slip(typed: str, cue: str) -> bool:
    """``typed`` is ``cue`` with one letter left out or added, two neighbours swapped, or up to two letters
    replaced by a neighbouring key."""
    if typed == cue:
        return False
    if len(typed) == len(cue):
        diff = [k for k, (a, b) in enumerate(zip(typed, cue, strict=True)) if a != b]
        if (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and typed[diff[0]] == cue[diff[1]]
            and typed[diff[1]] == cue[diff[0]]
        ):
            return True  # "liek"
        return len(diff) <= 2 and all(typed[k] in _NEAR.get(cue[k], ()) for k in diff)  # "giid"
    shorter, longer = (typed, cue) if len(typed) < len(cue) else (cue, typed)
    if len(longer) - len(shorter) != 1:
        return False
    return any(longer[:k] + longer[k + 1 :] == shorter for k in range(len(longer)))  # "amazng", "greeat"


class CueSpeller:
    """Respells misspelt one-word opinion cues (module docstring); built once from the lexicon's words."""

    def __init__(self, cues: Iterable[str], *, signs: Mapping[str, str] | None = None) -> None:
        """Args:
        cues: the lexicon's cue words (one-word ones of at least :data:`MIN_LENGTH` letters are respelt to).
        signs: cue word -> its sign ("+", "-"): several close cues of one sign respell to the longest.
        """
        self._signs = {w.lower(): s for w, s in (signs or {}).items()}
        words = {w.lower() for w in cues if w.isalpha() and len(w) >= MIN_LENGTH}
        self._cues = frozenset(words)
        self._by_length: dict[int, tuple[str, ...]] = {}
        for n in {len(w) for w in words}:
            self._by_length[n] = tuple(sorted(w for w in words if len(w) == n))
        self.respelt = lru_cache(maxsize=16384)(self._respelt)

    def respell(self, text: str) -> str:
        """``text`` (lower case) with its misspelt cue words respelt (lengths may change), and its cue words
        spelt with an 8 for their sound ("gr8" -> "great", "h8" -> "hate": chat's number homophones)."""
        return _WORD.sub(lambda m: self.respelt(m.group(0)), _EIGHT.sub(lambda m: self._sounded(m.group(0)), text))

    def _sounded(self, word: str) -> str:
        """``word`` with its 8 read as "ate" or "eat", if that makes a cue word ("gr8", "h8", "h8ed"), else as typed."""
        for sound in _EIGHT_SOUNDS:
            said = word.replace("8", sound, 1).replace("eed", "ed")  # "h8ed": "hated", not "hateed"
            if said in self._cues:
                return said
        return word

    def _respelt(self, word: str) -> str:
        if len(word) < MIN_LENGTH or word in self._cues:
            return word
        near = [
            cue
            for n in (len(word) - 1, len(word), len(word) + 1)
            for cue in self._by_length.get(n, ())
            if one_slip(word, cue)
        ]
        signs = {self._signs.get(cue) for cue in near}
        if len(near) > 1 and len(signs) == 1 and None not in signs:
            near = [max(near, key=len)]  # "lovd": "love" or "loved", a like either way
        # the word list is consulted last: most words are no slip of a cue, and it takes a second to load
        return near[0] if len(near) == 1 and _zipf(word) < KNOWN_ZIPF else word
