"""The readings of one turn: the user's text linked at most once, each mention with its polarity (issue 24:
split from ``nlu.understand``), and what they say of the message: only names ("Pulp Fiction"), names put in
place of another ("sorry, I meant Heat"), names added ("Heat too"), an opinion about a name the KB lacks.

Reads the text, the :class:`nlu.turn_parse.View`, the linker and the sentiment recognizer; adds
:class:`nlu.turn_parse.Reading` values (mention, polarity, a role stated after it, inside a longer name).

Example (a linker that knows Memento)::

    readings = Readings("I loved Memento", View(domain="movie"), linker, sentiment)
    [(r.qid, r.polarity.value) for r in readings.readings(with_focus=False)]   # [('Q25188', '+')]
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Sequence
from typing import Any

from nlu.mention_context import in_longer_name
from nlu.role_reference import role_spans
from nlu.sentiment import Polarity
from nlu.textnorm import fold
from nlu.turn_cues import only_names_and, substituted
from nlu.turn_parse import Linker, PolarityModel, Reading, View
from nlu.turn_words import NOT_NAMES, REFERENCE_WORDS, is_stated_role, stated_role_after
from nlu.wording import family
from recommender.schema import QID

__all__ = ["MASKED_NAME_WORDS", "MAX_MENTIONS_PER_TURN", "Readings", "is_reference"]

MASKED_NAME_WORDS = 4
"""A linked name of this many words is a title whose words ask nothing ("why", "trailer"); a shorter one may
be the request itself ("I really like talking to you", "does it have a book trailer?")."""
MAX_MENTIONS_PER_TURN = 25
"""Mentions kept from one message; the rest is ignored (a 10,000-character message stays cheap)."""
YEAR_IN_PARENTHESES = re.compile(r"\((?:1[89]|20)\d\d\)")
"""A year after a title ("Bad Boys (1995)"): not a word of its own."""
# Capitalisation is the signal: a Title Cased run of words (with small joining words) opening the message.
UNKNOWN_SUBJECT = re.compile(
    r"^(?:[A-Z0-9][\w'!.:-]*)(?:\s+(?:(?:of|the|a|an|in|on|to|and|de|la)\s+)*[A-Z0-9][\w'!.:-]*)*"
)
"""A Title Cased run opening a message ("Kelly Reichardt", "Top Gun: Maverick"): the name of its subject."""
_SCOPE = family("opinion_scope")
ASPECT_PARTS = _SCOPE.word_set("aspect_parts")
"""Parts of a work ("the soundtrack", "prose", "the writing"; ``nlu/wording/opinion_scope.toml``): typed in lower
case beside the work they belong to, a dimension judged, never a title of their own (issue 22)."""
WORK_PARTS = ASPECT_PARTS - _SCOPE.word_set("people_parts")
"""Parts of a work that name none of its people ("the soundtrack", "the writing"): a role word among them judges
the work, no critique of a role ("the cast", "the acting" do name people)."""
_SET_OFF = frozenset(",.;:!-")
"""Signs that set a lead-in off from the content ("actually scratch that, it was dumb")."""
_OWNER = re.compile(r"\b(?:the|its|it's|their|his|her|this|that)\s*$")
"""A determiner or possessive right before a mention ("the writing", "its prose")."""


class Readings:
    """The linking of one turn, done at most once (with the item on screen as focus, if any), and what the
    readings say of the message.

    Args:
        text: the normalised message; view: what the dialog shows; linker, sentiment: the domain's entity
            linker and the polarity recognizer (``nlu.turn_parse.Linker``, ``PolarityModel``).
    """

    def __init__(self, text: str, view: View, linker: Linker, sentiment: PolarityModel) -> None:
        self.text, self.view, self.linker, self.sentiment = text, view, linker, sentiment
        self._all: tuple[Reading, ...] | None = None
        self.linked = 0
        self.start = 0  # where the content starts, after a lead-in ("hmm, ...")
        self.correction = False  # the lead-in is a self-correction ("no wait, ...")

    def _link(self) -> tuple[Reading, ...]:
        if self._all is None:
            self.linked += 1
            focus = QID(self.view.focus) if self.view.focus else None
            history = tuple(QID(q) for q in self.view.history)
            if history and _takes_history(self.linker):  # earlier names say which namesake is meant (issue 22-D)
                found = self.linker.link(self.text, focus=focus, history=history)
            else:
                found = self.linker.link(self.text, focus=focus) if focus else self.linker.link(self.text)
            mentions = [
                m
                for m in list(found)[:MAX_MENTIONS_PER_TURN]
                if m.candidates and not is_stated_role(self.text, m.start, m.text, self.view.domain)
            ]
            mentions = _without_aspects(self.text, mentions, card=self.view.focus is not None)
            mentions = _without_cues(self.text, mentions, self.sentiment, card=self.view.focus is not None)
            lead = self.text[: self.start].rstrip()
            if self.correction and lead[-1:] in _SET_OFF:
                # "scratch that, ...": a self-correction set off by a sign names nothing (the film "Scratch");
                # "nevermind is perfect" is no lead-in of its own
                mentions = [m for m in mentions if m.start >= self.start]
            elif self.correction:
                # "oh wait, actually i loved it": the words before a sign inside the lead-in name nothing either
                # (the film "The Wait")
                cut = max((i for i, ch in enumerate(lead) if ch in _SET_OFF), default=-1)
                mentions = [m for m in mentions if m.start > cut]
            spans = [(m.start, _named_end(m)) for m in mentions]  # ("by the killers": no cue)
            standards = getattr(self.sentiment, "comparison_standards", None)
            if standards is not None and mentions:
                # "Glass Onion wasn't as good as Knives Out": Knives Out is only the measure, nothing to store or ask
                kept = [m for m, standard in zip(mentions, standards(self.text, spans), strict=True) if not standard]
                mentions, spans = kept, [(m.start, _named_end(m)) for m in kept]
            polarities = self.sentiment.polarities(self.text, spans) if mentions else ()
            self._all = tuple(
                Reading(
                    m,
                    Polarity(getattr(p, "value", p)),
                    stated_role_after(self.text, m.end, self.view.domain),
                    in_longer_name(self.text, m.start, m.end),
                )
                for m, p in zip(mentions, polarities, strict=True)
            )
        return self._all

    def readings(self, *, with_focus: bool) -> tuple[Reading, ...]:
        """The linked mentions; without ``with_focus``, mere references to the item on screen ("it") are left out."""
        found = self._link()
        if self.view.focus is None:
            return found
        # with a card on screen, a lowercase "it" is the card even where the linker read a title ("Already read
        # it. Loved it!": not the book "It!"; issue 22-F): it is no name
        found = tuple(r for r in found if r.qid == self.view.focus or not _pronoun(r))
        # "the band behind it", "that writer's style": the words of a role reference to the card's people are no
        # titles (issue 22-C)
        people = role_spans(self.text.lower().replace("’", "'"), self.view.domain)
        found = tuple(r for r in found if not any(a <= r.mention.start < b for a, b, _p in people))
        if with_focus:
            return found
        return tuple(r for r in found if not is_reference(r, self.view.focus))

    def states_opinion(self, readings: Sequence[Reading]) -> bool:
        """The text says something about these mentions (a cue, a hedge, "I watched X")."""
        check = getattr(self.sentiment, "states_opinion", None)
        if check is None:
            return False
        return bool(check(self.text, [(r.mention.start, _named_end(r.mention)) for r in readings]))

    def opinion_about_unknown_name(self) -> bool:
        """The message opens with a capitalised name (no linked one) and says something about it."""
        match = UNKNOWN_SUBJECT.match(self.text)
        check = getattr(self.sentiment, "states_opinion", None)
        if match is None or check is None or fold(match.group(0)).strip() in NOT_NAMES:
            return False
        return bool(check(self.text, [(match.start(), match.end())]))

    def substitutes(self) -> tuple[str, ...]:
        """QIDs of the names put in place of another ("sorry, I meant Heat", "I was thinking of Ronin"), and of
        the names a self-correction says alone ("no wait, Heat")."""
        found = self.readings(with_focus=False)
        if self.correction and self.names_only():
            return tuple(r.qid for r in found)
        put = substituted(self.text, [(r.mention.start, r.mention.end) for r in found])
        return tuple(r.qid for r, meant in zip(found, put, strict=True) if meant)

    def added_names(self, *, additive: bool = True) -> bool:
        """The message is only names added to what was said ("Heat too", "also Ronin"); with ``additive=False``
        also names in a frame that says nothing of them ("how about Heat?": a bare mention)."""
        found = self.readings(with_focus=False)
        return only_names_and(self.text, [(r.mention.start, _named_end(r.mention)) for r in found], additive=additive)

    def unnamed(self, *, judged: bool = False) -> str:
        """The content (after the lead-in), folded, with the long linked names blanked: the words of a title ask
        nothing ("I Know Why the Caged Bird Sings"); a short one may be the request itself ("Talking to You").
        With ``judged``, also the names of any length the message states an opinion of: "begin again is one of my
        comfort movies" judges a film, it asks no reset."""
        chars = list(self.text)
        for r in self.readings(with_focus=False):
            opined = judged and r.polarity in (Polarity.POSITIVE, Polarity.NEGATIVE)
            if opined or len(r.mention.text.split()) >= MASKED_NAME_WORDS:
                chars[r.mention.start : r.mention.end] = " " * (r.mention.end - r.mention.start)
        return fold("".join(chars)[self.start :])

    def names_only(self) -> bool:
        """The message is (almost) nothing but names the linker knows ("Pulp Fiction", "Alien")."""
        found = self.readings(with_focus=False)
        content = " " * self.start + self.text[self.start :]  # a lead-in is no content ("no wait, Heat")
        letters = sum(ch.isalnum() for ch in YEAR_IN_PARENTHESES.sub(" ", content))  # "Bad Boys (1995)"
        named = sum(ch.isalnum() for r in found for ch in self.text[r.mention.start : _named_end(r.mention)])
        return bool(found) and letters > 0 and named >= 0.8 * letters


def _named_end(mention: Any) -> int:
    """Where the words naming ``mention`` end: after the person who says which work it is ("chandelier by sia")."""
    return getattr(mention, "credit_end", None) or mention.end


def _without_aspects(text: str, mentions: list[Any], *, card: bool) -> list[Any]:
    """``mentions`` less the parts of a work typed in lower case (:data:`ASPECT_PARTS`: "the soundtrack was
    great but the film itself was boring" at a card, "The Goldfinch, beautiful prose but ..."): with a card on
    screen, another name in the message, or a determiner before it ("the writing"). A part typed alone
    ("soundtrack music", a genre) or capitalised ("The Story", a song) stays a name."""

    def aspect(m: Any) -> bool:
        if m.text != m.text.lower():
            return False
        words = fold(m.text).split()
        owned = bool(words) and words[0] in ("the", "its", "their", "his", "her")
        if " ".join(words[1:] if owned else words) not in ASPECT_PARTS:
            return False
        return owned or card or len(mentions) > 1 or bool(_OWNER.search(text[: m.start].lower()))

    return [m for m in mentions if not aspect(m)]


def _without_cues(text: str, mentions: list[Any], sentiment: PolarityModel, *, card: bool) -> list[Any]:
    """``mentions`` less those inside an opinion cue of the lexicon, typed in lower case or capitals ("espresso by
    sabrina carpenter is a BANGER": no song "The Banger"; "read it, meh, not my cup of tea": no "A Cup of Tea"),
    with a card on screen or another name in the message. A cue typed alone ("my jam") or in Title Case stays a
    name. A stand-in sentiment without ``cue_spans`` keeps every mention."""
    spans = getattr(sentiment, "cue_spans", None)
    if spans is None or not (card or len(mentions) > 1):
        return mentions
    cues = spans(text)
    if not cues:
        return mentions

    def judged(m: Any) -> bool:
        typed = m.text.lower() == m.text or m.text.upper() == m.text
        return typed and any(a <= m.start and m.end <= b for a, b in cues)

    return [m for m in mentions if not judged(m)]


def is_reference(reading: Reading, focus: str) -> bool:
    """A mention that only refers to the item on screen ("it", "this movie"), not a name of it."""
    return reading.qid == focus and set(fold(reading.mention.text).split()) <= REFERENCE_WORDS


def _pronoun(reading: Reading) -> bool:
    """A mention typed in lower case of reference words only ("it", "this one")."""
    text = reading.mention.text
    return text == text.lower() and set(fold(text).split()) <= REFERENCE_WORDS


def _takes_history(linker: Linker) -> bool:
    """The linker's ``link`` takes ``history`` (``nlu.linker.EntityLinker`` does; a stand-in may not)."""
    try:
        parameters = inspect.signature(linker.link).parameters
    except (TypeError, ValueError):
        return False
    return "history" in parameters or any(p.kind is p.VAR_KEYWORD for p in parameters.values())
