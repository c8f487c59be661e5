"""A domain named in a sentence (issue 22): "what about movies? I loved the film Trainspotting".

People change the subject in words and go on in the same message: "what about books? the novel is even
better", "back to music please", "switching to books: I read Scar Tissue and loved it", "let's switch to
movies, I loved 8 Mile", "ok back to films". A request for another domain's items switches too:
"recommend me a book" while talking about films, "what should I listen to?" while talking about books.
:func:`domain_switch` finds the switch and the rest of the message, which the dialog then understands in
the new domain (``bot.dialog.manager``); a message that is only a switch ("let's talk about books")
leaves nothing.

A switch is read from its structure, not its wording (issue 22-D): a switch phrase opens the message or a
clause after a few words of talk ("ok forget books for a sec, what about movies? ..."; :data:`_MAX_HEAD_WORDS`), in
a topic frame ("as for books, ..."), after any subject before a verb of motion ("I would now like to turn to
literature"), or as a short header naming the domain ("quick music detour: ..."); a request for another domain's
items names a domain noun in a request frame ("any book suggestions?", "which films would you suggest?", "got a
movie for me?").

Domain nouns inside a statement do not switch: "sunflower from the spiderverse movie is a bop" stays in
music, "the Jurassic Park novel is even better" alone stays where it is (the linker reads "novel" as a
hint). A switch phrase opens the message (after "ok", "actually", "and"...), or is the whole of a short
request ("can we talk about books now?").

The phrases are data (``nlu/wording/domains.toml``, issue 24): a new wording is a new phrase there, never a
rule for one sentence; this module keeps the structure of a switch (its openers, the words closing it).

Example:
    >>> domain_switch("what about movies? i loved the film trainspotting")
    Switch(domain='movie', rest='i loved the film trainspotting')
    >>> domain_switch("sunflower from the spiderverse movie is a bop") is None
    True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from nlu.cue_spelling import CueSpeller
from nlu.textnorm import fold
from nlu.wording import family

__all__ = ["DOMAIN_WORDS", "Switch", "domain_switch"]

_WORDING = family("domains")
DOMAIN_WORDS: dict[str, tuple[str, ...]] = {d: _WORDING.words(f"{d}_words") for d in ("movie", "book", "music")}
"""Words naming a domain in a switch ("let's talk about books")."""
_DOMAIN_SPELLER = CueSpeller(sorted({w for words in DOMAIN_WORDS.values() for w in words if " " not in w}))
"""Domain words typed with a slip ("muzic", "moveis", "bokks"): respelt when no English word (``nlu.cue_spelling``)."""
_CONSUME_DOMAIN: dict[str, str] = dict(_WORDING.table("consume"))
"""What one does with a domain's items, in "what should I watch?"."""
# A switch phrase opens the message after any number of openers, each after any signs and before any
# punctuation ("ok, so what about books?"), and ends at a sign, the end or "and"/"then"/"so" after any
# closing words ("back to films now please, ..."): repetitions and the end group, which templates do not say.
_OPENER = rf"^(?:\W*{_WORDING.alternation('openers')}\b[\s,!.:;-]*)*"
_SWITCH_END = rf"(?:\s+{_WORDING.alternation('switch_after')})*" + r"(?P<end>\s*(?:[?!.,:;-]+|$|\s(?:and|then|so)\b))"
_SWITCH_PHRASE = re.compile(_OPENER + f"(?:{_WORDING.source('switch', after_lead=True)})" + _SWITCH_END)
"""A switch phrase opening the message ("what about books?", "ok back to films", "switching to books:")."""
_BARE_SWITCH = re.compile(_OPENER + f"(?:{_WORDING.source('bare_switch', after_lead=True)})" + _SWITCH_END)
"""A domain word alone opening the message before a sign or a closing word ("music time!", "change of topic:
books. I loved Dune"; issue 22-G)."""
_HEADER = re.compile(_WORDING.source("header_switch") + r"\s*(?P<end>[:\u2013\u2014]|\s-)\s")
"""A short header naming a domain before a colon or a dash ("quick music detour: Doolittle is on repeat")."""
_CLAUSE_START = re.compile(r"[.!?;:,\u2013\u2014]+\s+|\s-\s")
"""Where a later clause starts: a switch may follow a few words of talk ("this is fun. what about films?")."""
_MAX_HEAD_WORDS = 8
"""Words of talk a switch may follow; a longer head is a statement of its own, not a lead-in."""
_DOMAIN_REQUEST = _WORDING.pattern("domain_request")
"""A request for a domain's items ("recommend me a book", "any good movies?", "what should I read?")."""
_DOMAIN_WORD = re.compile(rf"\b{_WORDING.alternation('domain_word')}\b")


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
    respelt = _DOMAIN_SPELLER.respell(folded)
    if len(respelt) == len(folded):  # a slip that keeps the length keeps the offsets of the rest ("muzic now. ...")
        folded = respelt
    for start in _clause_starts(folded):
        said = _switch_at(folded[start:], current)
        if said is not None:
            named, end = said
            return Switch(named, text[start + end :].lstrip(" ,.:;!?-").rstrip())
    asked = _DOMAIN_REQUEST.search(folded)
    if asked is not None:
        words = _DOMAIN_WORD.findall(asked.group(0))  # the domain word is the last one the request names
        verb = next((v for v in _CONSUME_DOMAIN if asked.group(0).endswith(v)), "")  # "what should i watch"
        domain = _domain_of(words[-1]) if words else _CONSUME_DOMAIN.get(verb)
        if domain is not None and domain != current:
            return Switch(domain, text.strip(), by_request=True)
    return None


def _clause_starts(folded: str) -> list[int]:
    """Where a switch may open: the message's start and each clause start after at most a few words of talk
    ("ok forget books for a sec, what about movies?"); a switch later than that is inside a statement."""
    starts = [0]
    for sign in _CLAUSE_START.finditer(folded):
        if len(folded[: sign.start()].split()) > _MAX_HEAD_WORDS:
            break
        starts.append(sign.end())
    return starts


def _switch_at(clause: str, current: str | None) -> tuple[str, int] | None:
    """The domain a switch phrase opening ``clause`` names and where the phrase ends, or None. A domain word
    alone or in a short header ("music time!", "quick book detour:") is a switch only to another domain."""
    phrase = _SWITCH_PHRASE.match(clause)
    if phrase is None:
        for shape in (_BARE_SWITCH, _HEADER):
            found = shape.match(clause)
            if found is not None and _domain_of(found.group("word")) != current:
                phrase = found
                break
    if phrase is None:
        return None
    domain = _domain_of(phrase.group("word"))
    if phrase.groupdict().get("ask") and domain == current:  # "do you like the book?" said in books: no switch
        return None
    return (domain, phrase.end("end")) if domain is not None else None
