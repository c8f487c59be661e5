"""Text normalisation shared by every NLU component (intent, entity linking, sentiment).

One normaliser, applied to user text and to knowledge-base labels alike (field cases F21, F26,
F27): Unicode NFKC; curly/prime apostrophes and quotes to straight ones; dashes to ``-``;
whitespace runs to one space; control characters dropped. :func:`fold` additionally casefolds and
strips accents for matching ("Amélie" -> "amelie").

Example:
    >>> normalize("I don’t  like “The Shining”")
    'I don\\'t like "The Shining"'
    >>> fold("Amélie")
    'amelie'
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_TRANSLATE = str.maketrans(
    {
        "\u2019": "'",
        "\u2018": "'",
        "\u02bc": "'",
        "\u2032": "'",
        "\u00b4": "'",
        "\u0060": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u2033": '"',
        "\u00ab": '"',
        "\u00bb": '"',
        "\u2013": "-",
        "\u2014": "-",
        "\u2212": "-",
        "\u2010": "-",
        "\u2011": "-",
    }
)
_SPACES = re.compile(r"\s+")
MAX_CHARS = 2000
"""Longer messages are cut to this many characters before any NLP (a 10,000-character message
costs no more than a long one)."""


@lru_cache(maxsize=16384)
def normalize(text: str | None, *, max_chars: int = MAX_CHARS) -> str:
    """Return ``text`` NFKC-normalised, with straight quotes, single spaces, stripped, cut at ``max_chars``
    (a pure function: results are cached, the same short texts come back many times per turn)."""
    if not text:
        return ""
    text = unicodedata.normalize("NFKC", text[: max_chars * 2]).translate(_TRANSLATE)
    text = "".join(ch for ch in text if ch in "\n\t" or unicodedata.category(ch)[0] != "C")
    return _SPACES.sub(" ", text).strip()[:max_chars]


_MOJIBAKE_APOSTROPHE = "\u00e2\u20ac[\u2122\u02dc]"
_BROKEN_NEGATION = (
    r"\b(?P<aux>do|does|did|is|was|are|were|could|would|should|have|has|had|ca|wo|ai|must|need)n"
    r"(?:\s+t\b|t't\b|'(?!t))"
)
_REPAIRS = re.compile(rf"(?P<mojibake>{_MOJIBAKE_APOSTROPHE})|{_BROKEN_NEGATION}", re.IGNORECASE)


def contraction_repairs(text: str) -> list[tuple[int, int, str]]:
    """Where typed apostrophes and negations are broken, and what to put there.

    Repairs: a UTF-8 apostrophe read as cp1252 ("donâ€™t" -> "don't", as in the released
    messages); negations typed with a space, a doubled or a missing ``t`` ("don t", "dont't",
    "don' like", "don'like" -> "don't ..."). Plain "dont" is left as it is (the sentiment
    recognizer reads it as a negation already).

    Args:
        text: any text (after :func:`normalize` or not).

    Returns:
        ``[(start, end, replacement), ...]`` in text order, non-overlapping; empty if nothing to repair.
    """
    repairs: list[tuple[int, int, str]] = []
    for match in _REPAIRS.finditer(text):
        if match.group("mojibake"):
            repairs.append((match.start(), match.end(), "'"))
            continue
        glued = match.end() < len(text) and text[match.end()].isalpha()
        repairs.append((match.start(), match.end(), match.group("aux") + "n't" + (" " if glued else "")))
    return repairs


def repair_contractions(text: str) -> str:
    """``text`` with :func:`contraction_repairs` applied ("I don t like it" -> "I don't like it")."""
    out, cursor = [], 0
    for start, end, replacement in contraction_repairs(text):
        out.append(text[cursor:start])
        out.append(replacement)
        cursor = end
    out.append(text[cursor:])
    return "".join(out)


def strip_accents(text: str) -> str:
    """Remove combining marks ("Amélie" -> "Amelie")."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@lru_cache(maxsize=16384)
def fold(text: str) -> str:
    """Matching key: :func:`normalize`, accents stripped, casefolded."""
    return strip_accents(normalize(text)).casefold()


def has_letters(text: str) -> bool:
    """True if ``text`` contains at least one letter or digit (emoji-only and punctuation-only are not)."""
    return any(ch.isalnum() for ch in text)
