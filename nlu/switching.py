"""A domain named in a sentence (issue 22): "what about movies? I loved the film Trainspotting".

People change the subject in words and go on in the same message: "what about books? the novel is even
better", "back to music please", "switching to books: I read Scar Tissue and loved it", "let's switch to
movies, I loved 8 Mile", "ok back to films". A request for another domain's items switches too:
"recommend me a book" while talking about films, "what should I listen to?" while talking about books.
:func:`domain_switch` finds the switch and the rest of the message, which the dialog then understands in
the new domain (``bot.dialog.manager``); a message that is only a switch ("let's talk about books")
leaves nothing.

Domain nouns inside a statement do not switch: "sunflower from the spiderverse movie is a bop" stays in
music, "the Jurassic Park novel is even better" alone stays where it is (the linker reads "novel" as a
hint). A switch phrase opens the message (after "ok", "actually", "and"...), or is the whole of a short
request ("can we talk about books now?").

The phrases are data: a new wording is a new alternative, never a rule for one sentence.

Example:
    >>> domain_switch("what about movies? i loved the film trainspotting")
    Switch(domain='movie', rest='i loved the film trainspotting')
    >>> domain_switch("sunflower from the spiderverse movie is a bop") is None
    True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from nlu.textnorm import fold

__all__ = ["DOMAIN_WORDS", "Switch", "domain_switch"]

DOMAIN_WORDS: dict[str, tuple[str, ...]] = {
    "movie": ("movie", "movies", "film", "films", "cinema", "flicks"),
    "book": ("book", "books", "novel", "novels", "literature", "reading"),
    "music": ("music", "song", "songs", "album", "albums", "band", "bands", "artist", "artists", "tunes"),
}
"""Words naming a domain in a switch ("let's talk about books")."""
_CONSUME_DOMAIN = {"watch": "movie", "see": "movie", "read": "book", "listen to": "music", "hear": "music"}
"""What one does with a domain's items, in "what should I watch?"."""

_WORD = "|".join(sorted((w for words in DOMAIN_WORDS.values() for w in words), key=len, reverse=True))
_OPENER = (
    r"^(?:\W*(?:ok|okay|so|and|also|hey|hmm+|well|now|alright|actually|anyway|btw|oh|right|cool|great|thanks|"
    r"thank you|enough (?:of|about) (?:that|this|\w+)|nice)\b[\s,!.:;-]*)*"
)
_SWITCH_PHRASE = re.compile(
    _OPENER + r"(?:(?:let'?s|can we|could we|i want to|i'd like to|we can|time to|please)\s+)?"
    r"(?:(?:switch|switching|change|changing|move|moving|go|going|get|getting|jump|turn|head|come)(?: back)?"
    r"(?: over)? to|(?:talk|chat|talking|chatting) about|do|try|(?:what|how) about|back to|on to|onto|now(?: for)?"
    r"|and now)\s+(?:the |some |a |my )?(?P<word>" + _WORD + r")\b"
    r"(?:\s+(?:now|please|pls|instead|then|again|for a (?:bit|while|change)|for now|too|as well))*"
    r"(?P<end>\s*(?:[?!.,:;-]+|$|\s(?:and|then|so)\b))"
)
"""A switch phrase opening the message ("what about books?", "ok back to films", "switching to books:")."""
_DOMAIN_REQUEST = re.compile(
    r"\b(?:recommend|suggest|find|give|show|get)(?: me| us)?(?: (?:a|an|some|any|another|other|more|good|new|great"
    r"|nice|few|couple of))* (?P<word>" + _WORD + r")\b"
    r"|\b(?:any|some|more|other)(?: (?:good|new|great|nice))? (?P<word2>" + _WORD + r")(?: to (?:recommend|suggest))?"
    r"\s*(?:\?|please|pls|$)"
    r"|\bwhat (?:should|can|could|do you think) (?:i|we) (?P<verb>watch|see|read|listen to|hear)\b"
)
"""A request for a domain's items ("recommend me a book", "any good movies?", "what should I read?")."""


@dataclass(frozen=True, slots=True)
class Switch:
    """A switch of domain said in words.

    Attributes:
        domain: ``"movie"``, ``"book"`` or ``"music"``.
        rest: what the message says after the switch phrase (to understand in the new domain); the
            whole message for a request of the domain's items; ``""`` for a bare switch.
        by_request: the switch is a request for the domain's items ("recommend me a book"), not a
            switch phrase.
    """

    domain: str
    rest: str
    by_request: bool = False


def _domain_of(word: str) -> str | None:
    return next((domain for domain, words in DOMAIN_WORDS.items() if word in words), None)


def domain_switch(text: str, current: str | None = None) -> Switch | None:
    """The domain ``text`` switches to and the rest of it, or None.

    Args:
        text: the typed message (normalised).
        current: the conversation's domain: a request for its own items is no switch.

    Returns:
        :class:`Switch` (its ``domain`` may equal ``current`` for a switch phrase, "back to books" said
        in books: the dialog says where it is), or None.
    """
    folded = fold(text)
    if len(folded) > len(text):  # folding changed offsets (rare ligatures): read the typed text
        folded = text.lower()
    phrase = _SWITCH_PHRASE.match(folded)
    if phrase is not None:
        domain = _domain_of(phrase.group("word"))
        if domain is not None:
            rest = text[phrase.end("end") :].lstrip(" ,.:;!?-").rstrip()
            return Switch(domain, rest)
    asked = _DOMAIN_REQUEST.search(folded)
    if asked is not None:
        word = asked.group("word") or asked.group("word2")
        domain = _domain_of(word) if word else _CONSUME_DOMAIN.get(asked.group("verb") or "")
        if domain is not None and domain != current:
            return Switch(domain, text.strip(), by_request=True)
    return None
