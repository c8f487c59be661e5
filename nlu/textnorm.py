"""Text normalisation shared by every NLU component (intent, entity linking, sentiment).

One normaliser, applied to user text and to knowledge-base labels alike (field cases F21, F26,
F27): mojibake repaired (UTF-8 read as Windows-1252, "donâ€™t" -> "don't", by ftfy's
``fix_encoding``); Unicode NFKC; curly/prime apostrophes and quotes to straight ones; dashes to ``-``;
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


_MOJIBAKE_HINT = re.compile("[\u00c2\u00c3\u00e2][\u0080-\u00bf\u0152-\u0178\u02c6-\u02dc\u2013-\u2122]")
"""The two-character start of a UTF-8 sequence read as Windows-1252 ("â€", "Ã©", "Â¡"): only such
texts are handed to ftfy (whose import costs about 80 ms, paid by no clean text)."""


def repair_mojibake(text: str) -> str:
    """``text`` with UTF-8-read-as-Windows-1252 mojibake undone ("I donâ€™t like it" -> "I don’t like
    it", "Ã‰dith Piaf" -> "Édith Piaf"), by ``ftfy.fix_encoding`` (Speer, ftfy, 2012-); clean text
    and legitimate accents ("São Paulo", "Motörhead") are returned unchanged. It must run before
    NFKC, which turns the "™" of "â€™" into "TM" (a 'TMt' then looked like a title)."""
    if not _MOJIBAKE_HINT.search(text):
        return text
    from ftfy import fix_encoding  # noqa: PLC0415 - rarely needed; keeps start-up light

    return fix_encoding(text)


@lru_cache(maxsize=16384)
def normalize(text: str | None, *, max_chars: int = MAX_CHARS) -> str:
    """Return ``text`` NFKC-normalised, with straight quotes, single spaces, stripped, cut at ``max_chars``
    (a pure function: results are cached, the same short texts come back many times per turn)."""
    if not text:
        return ""
    text = unicodedata.normalize("NFKC", repair_mojibake(text[: max_chars * 2])).translate(_TRANSLATE)
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


CHAT_SPELLINGS: dict[str, str] = {
    # shortenings of chat English
    "u": "you",
    "ur": "your",
    "urs": "yours",
    "r": "are",
    "pls": "please",
    "plz": "please",
    "plez": "please",
    "pleas": "please",
    "pleez": "please",
    "thx": "thanks",
    "thnx": "thanks",
    "thanx": "thanks",
    "thanku": "thank you",
    "thankyou": "thank you",
    "tnx": "thanks",
    "tx": "thanks",
    "ty": "thank you",
    "tysm": "thank you so much",
    "idk": "i don't know",
    "dunno": "don't know",
    "im": "i'm",
    "ive": "i've",
    "lemme": "let me",
    "gimme": "give me",
    "gimmie": "give me",
    "wanna": "want to",
    "gonna": "going to",
    "gotta": "got to",
    "abt": "about",
    "bc": "because",
    "bcs": "because",
    "bcoz": "because",
    "becuz": "because",
    "becoz": "because",
    "cuz": "because",
    "coz": "because",
    "cos": "because",
    "rn": "right now",
    "nxt": "next",
    "sth": "something",
    "smth": "something",
    "somethin": "something",
    "somthing": "something",
    "sumthing": "something",
    "anythin": "anything",
    "anythng": "anything",
    "ppl": "people",
    "pic": "picture",
    "recs": "recommendations",
    "rec": "recommendation",
    # question words typed short or doubled
    "wy": "why",
    "whyy": "why",
    "whyyy": "why",
    "whyyyy": "why",
    "wai": "why",
    "wat": "what",
    "wut": "what",
    "wht": "what",
    "whut": "what",
    "wot": "what",
    "whta": "what",
    "waht": "what",
    "wats": "what's",
    "whats": "what's",
    "wuts": "what's",
    "whos": "who's",
    "hows": "how's",
    "wheres": "where's",
    "whens": "when's",
    "thats": "that's",
    "wich": "which",
    "whih": "which",
    "wher": "where",
    "wen": "when",
    "hw": "how",
    "hou": "how",
    # auxiliaries typed by ear
    "dose": "does",
    "shoud": "should",
    "shud": "should",
    "shld": "should",
    "shuld": "should",
    "sould": "should",
    "woud": "would",
    "wud": "would",
    "wld": "would",
    "coud": "could",
    "cud": "could",
    "culd": "could",
    "cn": "can",
    "cant": "can't",
    "dont": "don't",
    "doesnt": "doesn't",
    "didnt": "didn't",
    "isnt": "isn't",
    "wont": "won't",
    "wasnt": "wasn't",
    # words of the bot's trade, misspelt
    "directer": "director",
    "diretor": "director",
    "dirctor": "director",
    "drector": "director",
    "auther": "author",
    "autor": "author",
    "aurthor": "author",
    "singr": "singer",
    "trailor": "trailer",
    "trailar": "trailer",
    "trialer": "trailer",
    "traler": "trailer",
    "recomend": "recommend",
    "reccomend": "recommend",
    "reccommend": "recommend",
    "recommed": "recommend",
    "recommand": "recommend",
    "recomended": "recommended",
    "reccomended": "recommended",
    "recomendation": "recommendation",
    "reccomendation": "recommendation",
    "recomendations": "recommendations",
    "reccomendations": "recommendations",
    "sugest": "suggest",
    "suggets": "suggest",
    "sugested": "suggested",
    "moive": "movie",
    "movei": "movie",
    "mvie": "movie",
    "flim": "film",
    "diffrent": "different",
    "differnt": "different",
    "anotehr": "another",
    "anothr": "another",
    "abuot": "about",
    "aboot": "about",
    "teh": "the",
    "hte": "the",
    "thsi": "this",
    "tihs": "this",
    "dis": "this",
    "dat": "that",
    "knw": "know",
    "kno": "know",
    "wrk": "work",
    "werk": "work",
    "hlep": "help",
    "halp": "help",
    "plase": "please",
    "thnks": "thanks",
}
"""Common chat spellings and abbreviations of English and their standard forms (from general
knowledge of how people type in a chat: "u" for "you", "wat" for "what", "dose" for "does"). Words
that are also ordinary English in their own right ("dose", "cos", "dis") are listed
because a request to a bot almost never means the other word; the intent recognizer and the
request phrasings read the respelt text, the linker and the sentiment recognizer the typed one."""
_CHAT_WORD = re.compile(r"(?<![\w'&-])[a-z]+(?![\w'&-])")
_WHY_LETTER = re.compile(r"^y(?=\s+[a-z])")
"""A lone "y" opening a message before another word is "why" ("y this one"); on its own it is often
a "yes", left as it is."""


@lru_cache(maxsize=16384)
def chat_spelling(text: str) -> str:
    """``text`` (lowercased, e.g. :func:`fold`) with :data:`CHAT_SPELLINGS` respelt to standard English
    and a lone opening "y" before another word read as "why" ("y this movie" -> "why this movie",
    "wat shoud i read" -> "what should i read", "how dose this work" -> "how does this work").

    Whole words only (not inside "you're", "r&b", "x-men"); other text is returned as it is. The
    result is for reading requests (intent), never for finding names in it: "U2" or "Dis" as titles
    are the linker's, which reads the typed text.
    """
    text = _WHY_LETTER.sub("why", text)
    return _CHAT_WORD.sub(lambda m: CHAT_SPELLINGS.get(m.group(0), m.group(0)), text)
