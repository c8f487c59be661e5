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

_TRANSLATE = str.maketrans(
    {
        "\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u2032": "'", "\u00b4": "'", "\u0060": "'",
        "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2033": '"', "\u00ab": '"', "\u00bb": '"',
        "\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2010": "-", "\u2011": "-",
    }
)
_SPACES = re.compile(r"\s+")
MAX_CHARS = 2000
"""Longer messages are cut to this many characters before any NLP (a 10,000-character message
costs no more than a long one)."""


def normalize(text: str | None, *, max_chars: int = MAX_CHARS) -> str:
    """Return ``text`` NFKC-normalised, with straight quotes, single spaces, stripped, cut at ``max_chars``."""
    if not text:
        return ""
    text = unicodedata.normalize("NFKC", text[: max_chars * 2]).translate(_TRANSLATE)
    text = "".join(ch for ch in text if ch in "\n\t" or unicodedata.category(ch)[0] != "C")
    return _SPACES.sub(" ", text).strip()[:max_chars]


def strip_accents(text: str) -> str:
    """Remove combining marks ("Amélie" -> "Amelie")."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def fold(text: str) -> str:
    """Matching key: :func:`normalize`, accents stripped, casefolded."""
    return strip_accents(normalize(text)).casefold()


def has_letters(text: str) -> bool:
    """True if ``text`` contains at least one letter or digit (emoji-only and punctuation-only are not)."""
    return any(ch.isalnum() for ch in text)
