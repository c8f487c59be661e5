"""Step 0 of linking: tokens and name keys (field cases F21, F26, F27).

Reads: the message as typed (or a KB name). Adds: :class:`Token` runs with character offsets and
folded keys, and the keys the name index is built on (:func:`name_key`, :func:`skeleton_key`,
:func:`block_keys`).

The message is split into alphanumeric runs (``&`` counts as ``and``); each token is folded with
:func:`nlu.textnorm.fold` (case, accents, NFKC). Apostrophes (straight, curly, mojibake "â€™") and
punctuation are token boundaries, so ``Schindler’s List`` and ``Schindler's List``, ``WALL-E.``,
``WALL·E`` and ``wall e``, ``Amelie`` and ``Amélie`` give the same keys, and a trailing ``.`` or a
possessive ``'s`` never blocks a match. Every KB name is tokenised the same way (:func:`name_key`).

Example:
    >>> [t.key for t in tokenize("I love Schindler’s List!")]
    ['i', 'love', 'schindler', 's', 'list']
    >>> name_key("Schindler's List"), skeleton_key(("the", "lord", "of", "the", "rings"))
    (('schindler', 's', 'list'), ('lord', 'rings'))
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from nlu.textnorm import fold

_TOKEN = re.compile(r"(?:[^\W_]|[\u0300-\u036f])+|&")
BRACKETED = re.compile(r"\s*[(\[][^)\]]*[)\]]\s*$")
"""A bracketed suffix of a label: "Havana (feat. Young Thug)", "Dune (1984 film)"."""
_MOJIBAKE = re.compile("\u00e2\u20ac[\u2122\u02dc\u0153\u009d\u201c\u201d]")
"""UTF-8 quotes read as cp1252 ("donâ€™t"), as found in the released messages."""
_ABBREVIATIONS = frozenset("sgt dr mr mrs ms st jr sr mt vs vol pt no".split())
SKELETON_DROP = frozenset({"the", "a", "an", "of", "and", "s"})
"""Words a title's skeleton leaves out (:func:`skeleton_key`)."""


@dataclass(frozen=True, slots=True)
class Token:
    """One alphanumeric run of the message.

    Attributes:
        key: the folded run (case, accents, NFKC; ``&`` -> ``and``).
        raw: the run as typed.
        start: character offset in the message.
        end: character offset after the run.
    """

    key: str
    raw: str
    start: int
    end: int


def tokenize(text: str) -> list[Token]:
    """Split ``text`` into alphanumeric tokens with character offsets; ``&`` becomes ``and``.

    Args:
        text: any string (not normalised; offsets refer to it).

    Returns:
        Tokens with ``key`` (folded), ``raw``, ``start`` and ``end`` offsets into ``text``.
    """
    out = []
    text = _MOJIBAKE.sub(lambda m: "'" * len(m.group(0)), text)  # same length: offsets stay valid
    for match in _TOKEN.finditer(text):
        raw = match.group(0)
        key = "and" if raw == "&" else fold(raw).replace(" ", "")
        if key:
            out.append(Token(key, raw, match.start(), match.end()))
    return out


def name_key(name: str) -> tuple[str, ...]:
    """The index key of a name: its folded tokens (``"Schindler's List"`` -> ``("schindler", "s", "list")``).

    Same tokens as :func:`tokenize` gives for the name, computed on the folded name at once (fast
    path for ASCII names: lower-casing is folding there).
    """
    folded = name.lower() if name.isascii() else fold(_MOJIBAKE.sub("'", name))
    tokens = _TOKEN.findall(folded)
    if "&" in tokens:
        tokens = ["and" if t == "&" else t for t in tokens]
    return tuple(tokens)


def plural(word: str) -> str:
    """The English plural of a noun ("comedy" -> "comedies", "horror" -> "horrors")."""
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    return word + "s"


def boundary(text: str, tokens: list[Token], j: int) -> bool:
    """True if punctuation ending a clause stands between token j-1 and token j (a period after
    an initial or an abbreviation is not one: "J. K. Rowling", "Samuel L. Jackson", "Sgt. Pepper")."""
    if j == 0:
        return False
    gap = text[tokens[j - 1].end : tokens[j].start]
    if gap.strip() == "." and (len(tokens[j - 1].raw) == 1 or tokens[j - 1].key in _ABBREVIATIONS):
        return False
    return any(c in ",;.!?()\n" for c in gap)


def bracketed_tokens(text: str, tokens: list[Token]) -> set[int]:
    """Indices of tokens inside (...) or [...]: qualifiers such as "(2012)", "(song)", "(rock band)"."""
    inside: set[int] = set()
    for match in re.finditer(r"[(\[][^)\]]*[)\]]?", text):
        inside.update(k for k, t in enumerate(tokens) if match.start() < t.start and t.end <= match.end())
    return inside


def skeleton_key(key: tuple[str, ...]) -> tuple[str, ...]:
    """A name key without articles, "of", "and" and the possessive "s" (the index's skeleton table)."""
    return tuple(t for t in key if t not in SKELETON_DROP)


def block_keys(joined: str, stop: frozenset[str]) -> set[str]:
    """Blocking keys of a folded name for the fuzzy search: first two and last two letters of each
    content word of 3+ letters (a typo rarely hits both ends of a word); of every word when the name has no
    content word."""
    keys = set()
    words = joined.split()
    if all(t in stop for t in words):
        stop = frozenset()  # a name of function words only ("Do I Wanna Know?") is blocked on them (issue 22-E)
    for t in words:
        n = len(t)
        if n >= 3 and t not in stop:
            keys.add("<" + t[:2])
            if n >= 4:
                keys.add(t[-2:] + ">")
    return keys
