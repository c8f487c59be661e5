"""How a message sits in the conversation: a self-correction, a name put in place of another, names
added to what was just said (issue 22; read by ``nlu.understand``, acted on by the dialog).

People revise and continue what they said a turn before; the words that do it are data
(``nlu/wording/turn_cues.toml``, issue 24), this module keeps where they stand (opening the message, right
before a name):

- **lead-ins** open a message without being its content: fillers ("hmm,", "ok so", "oh and") and
  self-corrections ("no wait", "actually", "sorry", "oops", "I got that wrong"). A message is read
  after its lead-in: the "no" of "no wait, I liked X" answers no question, "hmm, remove X" is a
  deletion. A self-correction also tells the dialog that the turn revises what was stored before.
- **substitutions** ("I meant X", "I was thinking of X", "I mixed it up with X"): X is what an earlier
  opinion was about; it takes that opinion unless the message gives it one of its own.
- **additions** ("X too", "X as well", "also X", "and X", "same for X"): the message is only names and
  these words; the names get the opinion of what the previous turn stored. A name in a frame that says
  nothing of it ("how about X?") is a bare mention, asked about.

Example:
    >>> lead_in("no wait, i LIKED django unchained")
    LeadIn(end=9, correction=True)
    >>> substituted("sorry, I meant Heat", [(15, 19)])
    (True,)
    >>> only_names_and("lady bird too", [(0, 9)])
    True
    >>> only_names_and("how about Heat?", [(10, 14)]), only_names_and("how about Heat?", [(10, 14)], additive=False)
    (False, True)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from nlu.textnorm import fold
from nlu.wording import family

__all__ = [
    "LeadIn",
    "adds",
    "describes_a_reading",
    "disowned",
    "lead_in",
    "names_a_reading",
    "only_names_and",
    "previous_card_opinion",
    "restates",
    "retracts",
    "retracted_words",
    "retraction_words",
    "reverses",
    "withdraws_last",
    "substituted",
    "within_correction",
]

_WORDING = family("turn_cues")
_FILLERS = _WORDING.alternation("fillers")
"""Words that open a message without being its content ("hmm, remove X", "oh and X")."""
_CORRECTIONS = _WORDING.alternation("corrections")
"""Self-corrections: the turn revises what was said before ("no wait, ...", "actually, ...", "sorry, I meant ...")."""
# A lead-in is a run of fillers and corrections, each after any signs and before any punctuation, the first
# correction named (the turn revises), or a run of fillers before a word: a structure of repetitions.
_LEAD_IN = re.compile(
    rf"^(?P<lead>(?:\W*{_FILLERS}\b[\s,.!:;-]*)*?(?:\W*(?P<correction>{_CORRECTIONS})\b[\s,.!:;-]*)"
    rf"(?:\W*(?:{_FILLERS}|{_CORRECTIONS})\b[\s,.!:;-]+)*"
    rf"|(?:\W*{_FILLERS}\b[\s,.!:;-]+)+(?=\w))",
    re.IGNORECASE,
)
_ANSWER_ONLY = _WORDING.pattern("answer_only")
"""A lead-in of only a yes or no is the answer itself ("no, I didn't like it"), never stripped."""
# The words right before the name, up to the end of the text before it (offsets: a name follows), or "not X,"
# before it: what comes before a name, which templates do not say.
_SUBSTITUTION = re.compile(
    rf"\b{_WORDING.alternation('substituting')}\s+(?:actually\s+|really\s+)?{_WORDING.alternation('substitution')}"
    r"\s+(?:the\s+one\s+called\s+)?$"
    r"|\bmeant\s+to\s+say\s+$|\bnot\s+[^,.;!?]{1,60},\s*(?:i\s+meant\s+)?$"
    r"|\bi\s+meant\s+(?:that\s+)?(?:i\s+|no\s+)[^,.;!?]{0,40}$",  # "i meant i don't like X", "i meant no X"
    re.IGNORECASE,
)
"""The words right before a name put in place of another ("I meant X", "I was thinking of X", "not X, Y"; a clause
restated: "I meant I don't like X", "I meant no X")."""

_ADDITIVE = _WORDING.pattern("additive")
"""The words of an addition ("X too", "also X", "same for X")."""
_FRAME = re.compile(_WORDING.source("frame") + r"|[^\w\s]", re.IGNORECASE)
"""Words and signs around names that say nothing of them ("oh and Heat too!", "how about Ronin?"): a message of
names and these is a bare mention, asked about ("Did you like Ronin?")."""


@dataclass(frozen=True, slots=True)
class LeadIn:
    """The opening words of a message that are not its content.

    Attributes:
        end: characters of the lead-in (0: none); the content is ``text[end:]``.
        correction: the lead-in is a self-correction ("no wait", "actually", "sorry").
    """

    end: int = 0
    correction: bool = False


def lead_in(text: str) -> LeadIn:
    """The lead-in of ``text`` (see the module docstring); a bare yes/no opening is none: it is the answer.

    Args:
        text: the normalised message (``nlu.textnorm.normalize``), any case.
    """
    match = _LEAD_IN.match(text)
    if match is None or not match.group(0).strip():
        return LeadIn()
    if match.group("correction") is None and _ANSWER_ONLY.match(text):
        return LeadIn()  # "no, I didn't like it", "yes, loved it": an answer, not a filler
    return LeadIn(match.end(), match.group("correction") is not None)


_RETRACTION = _WORDING.pattern("retraction")


def retracts(text: str) -> bool:
    """The message takes back an opinion ("i never said i liked X", "who said i like X?"): what it names is no
    preference of the turn, and the dialog removes one the profile holds (issue 22-D: it was stored as a like)."""
    return bool(_RETRACTION.search(text))


_CLAUSE_END = re.compile(r"[,.;!?]|\s(?:but|because|cause|cuz|since|as|it|it's|its|they|they're|i|i'm|i've)\s", re.I)


def retracted_words(text: str) -> str:
    """The words a take-back is about, up to the end of its clause ("totoro" of "scratch what i said about totoro,
    i've never seen it"), for the dialog to find in the profile when the linker found no name there; "" when the
    take-back names no object ("i never said i liked it")."""
    match = _RETRACTION.search(text)  # a withdrawal ("scratch that last one") names no object
    span = None if match is None else match.span()
    if span is None:
        return ""
    rest = text[span[1] :]
    end = _CLAUSE_END.search(" " + rest, 2)  # its first word may be "it" ("take back it ends with us")
    words = (rest if end is None else rest[: max(0, end.start() - 1)]).strip(" '\"")
    return "" if fold(words) in _PRONOUNS else words


_PRONOUNS = frozenset({"", "it", "this", "that", "them", "him", "her", "this one", "that one", "those", "these"})


def retraction_words(text: str) -> tuple[int, int] | None:
    """Where the words of a take-back are in ``text`` ("scratch what i said about" of "scratch what i said about
    X", "scratch that last one"): they name nothing (issue 22-F: no film "Scratch"), or None."""
    match = _RETRACTION.search(text) or _WITHDRAWAL.match(text) or _REVERSAL.search(text)
    return None if match is None else match.span("words") if match.re is _WITHDRAWAL else match.span()


_REVERSAL = _WORDING.pattern("reversal")


def reverses(text: str) -> bool:
    """The message says the opinions just given were the wrong way round ("oops, other way round", "vice versa",
    "i mixed them up"; issue 22, fifth round): the dialog turns around what the previous turn stored."""
    return _REVERSAL.search(text) is not None


# After any lead-in words (lazily: "actually scratch that" opens with a correction word, "scratch that" is one), the
# take-back and its reference end a clause: what follows is a reason or a new message, never the object taken back
_WITHDRAWAL = re.compile(
    rf"^(?:\W*(?:{_FILLERS}|{_CORRECTIONS})\b[\s,.!:;-]*)*?(?P<words>{_WORDING.source('withdrawal', after_lead=True)})"
    r"(?=\W*$|\s*[,.;:!?-]|\s+(?:i|i'm|i've|i\s+was|it\s+was)\b)",
    re.IGNORECASE,
)


def withdraws_last(text: str) -> bool:
    """The message takes back what was just said, naming nothing ("scratch that", "forget that last one, wrong
    song"; issue 22, fifth round): the dialog removes what the previous turn stored, when nothing else is named."""
    return _WITHDRAWAL.match(text) is not None


def substituted(text: str, spans: Sequence[tuple[int, int]]) -> tuple[bool, ...]:
    """Per span: the name is put in place of another ("sorry, I meant Heat", "I was thinking of Ronin").

    Args:
        text: the message; spans: ``(start, end)`` of the linked names, offsets into ``text``.
    """
    out = []
    for start, _end in spans:
        before = text[max(0, start - 80) : start]
        out.append(bool(_SUBSTITUTION.search(before)))
    return tuple(out)


_WITHIN = re.compile(
    rf"(?:[,.;!?-]+\s*|\s+)(?:(?:no|oh|um+|uh+|hmm+)[\s,]+)?(?:{_WORDING.alternation('corrections_within')})\b[\s,.!:;-]*"
    r"(?:(?:no|actually|i\s+meant|i\s+mean)\b[\s,.!:;-]*)*",
    re.IGNORECASE,
)
"""A self-correction inside a message, after what it corrects ("i loved X, no wait i meant Y", "X... oops, Y")."""


def within_correction(text: str, spans: Sequence[tuple[int, int]], start: int = 0) -> tuple[int, int] | None:
    """Where a self-correction inside the message stands (its ``(start, end)``) when names come both before and
    after it and what follows adds nothing ("i loved X, no wait i meant Y": Y is put in place of X; not "X, wait,
    Y too"); None otherwise. The message's own earlier clause is what it revises, not the previous turn (issue 22).

    Args:
        text: the message; spans: ``(start, end)`` of the linked names; start: where the content begins (after
            any lead-in, which revises the previous turn).
    """
    for match in _WITHIN.finditer(text, start):
        if match.start() <= start:
            continue
        before = [s for s in spans if s[1] <= match.start()]
        after = [s for s in spans if s[0] >= match.end()]
        rest = text[match.end() :]
        if before and after and not adds(rest) and ("?" not in rest or "meant" in fold(text[match.start() :])):
            return match.span()
    return None


_RESTATED = re.compile(r"\bi\s+meant\s+(?:that\s+)?(?:i|no)\b", re.IGNORECASE)


def restates(text: str) -> bool:
    """The message restates a clause in place of the last one ("sorry, i meant i love sci fi", "i meant no comedy"):
    its names put in place of another say their own opinion, unlike a bare "sorry, i meant X" (whose "sorry" is no
    opinion of X)."""
    return bool(_RESTATED.search(text))


_SET_ASIDE = re.compile(r"[,;]\s*(?:and\s+|but\s+)?not\s+(?:the\s+)?$", re.IGNORECASE)
_CLAUSE_CLOSES = re.compile(r"\s*(?:[,.;!?)]|$)")


def disowned(text: str, spans: Sequence[tuple[int, int]]) -> tuple[bool, ...]:
    """Per span: the name is set aside at the end of a clause ("it was A I couldn't finish, not B"): in a
    self-correction, B is not the one the opinion was about, A is (issue 22).

    Args:
        text: the message; spans: ``(start, end)`` of the linked names, offsets into ``text``.
    """
    return tuple(
        bool(_SET_ASIDE.search(text[max(0, start - 40) : start]) and _CLAUSE_CLOSES.match(text[end:]))
        for start, end in spans
    )


_A_READING = re.compile(_WORDING.source("a_reading") + r"|\b(?:1[89]|20)\d\d\b", re.IGNORECASE)
"""Words naming one reading of a title among namesakes ("the 1933 one", "the Cronenberg one", "the original")."""


_DESCRIBED_BEFORE = re.compile(r"\bthe\s+$", re.IGNORECASE)
_DESCRIBED_AFTER = re.compile(rf"\s*(?:'s\s+)?{_WORDING.alternation('reading_nouns')}\b", re.IGNORECASE)


def describes_a_reading(text: str, start: int, end: int) -> bool:
    """The name at ``start:end`` only says which reading of a title is meant ("the Cronenberg one", "the Peter
    Jackson version"): no opinion of that person is said."""
    return bool(_DESCRIBED_BEFORE.search(text[:start]) and _DESCRIBED_AFTER.match(text[end:]))


def names_a_reading(text: str) -> bool:
    """The message names one reading of a title among namesakes ("the 1933 one is a classic too")."""
    return bool(_A_READING.search(text))


def adds(text: str) -> bool:
    """The message has an additive word ("too", "also", "as well"): it adds to what was said, replaces nothing."""
    return bool(_ADDITIVE.search(text))


def only_names_and(text: str, spans: Sequence[tuple[int, int]], *, additive: bool = True) -> bool:
    """The message is only names plus the words of an addition ("lady bird too", "and Heat?", "also Tenet
    and Dune"): at least one name, at least one additive word, no other word. A bare name ("Heat?") is no
    addition. With ``additive=False``: only names in a frame that says nothing of them, additive words or
    not ("how about Ronin?", "Heat too"), i.e. a bare mention.

    Args:
        text: the message; spans: ``(start, end)`` of the linked names, offsets into ``text``.
    """
    if not spans:
        return False
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    blanked = "".join(chars)
    if additive and not _ADDITIVE.search(blanked):
        return False
    return not _FRAME.sub(" ", _ADDITIVE.sub(" ", blanked)).strip()


_BACK_REFERENCE = family("opinion_scope").pattern("back_reference")
_FIRST_SENTENCE = re.compile(r"^[^.;!?]*")
_STANCE = re.compile(r"^\W*(?:i|i'?m|i am)\b", re.IGNORECASE)
"""The speaker's own stance opens the sentence (a closed class: the first person)."""


def revised_opinion(content: str, first_name: int | None, polarity: Callable[[str], str]) -> str | None:
    """The opinion a self-correction says, by reference, of what was just stored ("scratch that, it was dumb. X is
    more my thing": "-" for what the previous turn stored; issue 22-H), or None.

    Args:
        content: the message after its correction lead-in; first_name: where the first linked name starts in
            ``content`` (None: no name), the reference must come before it ("actually i loved X" revises nothing).
        polarity: ``text -> "+" | "-" | "0"``, the sentiment recognizer's message polarity.
    """
    head = _FIRST_SENTENCE.match(content)
    said = head.group(0) if head is not None else ""
    # a whole first sentence that names nothing and says the speaker's own stance ("I meant I AM a fan. Toxic is
    # iconic") can only be about what was just stored; one cut short by a name must point back ("it was dumb, X is
    # better"), else the opinion is X's; one about something else ("the weather is terrible") revises nothing
    whole = (first_name is None or first_name >= len(said)) and _STANCE.search(said) is not None
    if first_name is not None:
        said = said[:first_name]
    if not whole and not _BACK_REFERENCE.search(said):
        return None
    value = polarity(said)
    return value if value in ("+", "-") else None


_PREVIOUS_CARD = _WORDING.pattern("previous_card")


def previous_card_opinion(
    content: str, *, correction: bool, moved_on: bool, polarity: Callable[[str], str]
) -> str | None:
    """The opinion a message says of the card shown before the one on screen, or None (fresh tester, faults 1
    and 8: "oops no, i meant i didn't like the previous one" rated the card just shown).

    It is that card's when the message refers to it ("the previous one", "the last one you showed me": wording
    ``turn_cues.previous_card``), or when a self-correction ("no wait", "oops") with no name right after the
    list moved on says an opinion: the person has not looked at the new card yet.

    Args:
        content: the message after its lead-in; correction: the lead-in is a self-correction; moved_on: the
            previous turn rated or skipped a card and showed the one on screen; polarity: ``text -> "+"|"-"|"0"``.
    """
    if not _PREVIOUS_CARD.search(content) and not (correction and moved_on):
        return None
    said = polarity(content)
    return said if said in ("+", "-") else None
