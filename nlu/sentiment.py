"""Polarity of each mentioned entity, not of the whole message (issue 5; field cases F21, F23, F24).

Method, per message:

1. **Apostrophes** ’ ‘ ʼ ′ ´ are mapped to ``'`` (length-preserving, so spans stay valid): F21.
2. **Masking.** Each entity span is replaced by a neutral placeholder before anything is scored,
   so the words of "Die Hard", "Bad Boys", "Happy Feet", "Good Will Hunting" carry no opinion (F24).
3. **Clauses.** The masked text is cut at sentence punctuation, commas, semicolons and the
   connectives "and", "or", "nor", "but", "however", "although", "though", "whereas", "while",
   "except" (F23). "but"/"however"/... are *contrast* boundaries, the others *plain* ones.
4. **Cues per clause.** Likes/dislikes phrases decide first: positive ("like", "love", "enjoy",
   "adore", "fan of", "favourite", "prefer", "into" ...), negative ("hate", "dislike",
   "can't stand", "detest", "sick of" ...); a negation ("not", "n't", "never", "no", "don't",
   "dont", "nor", "neither", "without" ...) within three words before the cue flips it ("I don't
   like", "not a fan of", "I don’t like"); a negation before the cue's subject does not count
   ("No, I dislike it", "No I like it"). A clause with a negation and no cue ("but not X") is
   negative, unless it only says the entity was not seen/read/heard ("I haven't seen it").
   Otherwise VADER's compound score of the masked clause decides (>= 0.05 positive, <= -0.05
   negative). A clause with none of these has *no cue*.
5. **Scope.** An entity takes the polarity of its own clause; a clause with no cue inherits from
   the nearest clause before it across plain boundaries ("I love X and Y"), else from the nearest
   clause after it across plain boundaries ("X and Y are great"); nothing is inherited across a
   contrast boundary, except that a short clause after a contrast takes the opposite of the clause
   before it ("I like everything except Titanic", "I like Titanic but Avatar"). Still nothing:
   ``Polarity.NEUTRAL`` ("I watched Inception"), which the
   dialog manager confirms with a yes/no question instead of guessing.

Whole messages about the item on screen ("I don't like it", "Dislike", "No"):
:meth:`SentimentRecognizer.message_polarity` (the first reference "it"/"this movie" is scored as
the entity; else the first clause with a cue; a bare yes/no answer counts).

VADER: Hutto & Gilbert, "VADER: A Parsimonious Rule-based Model for Sentiment Analysis of Social
Media Text", ICWSM 2014 (package ``vaderSentiment``).

Example:
    >>> s = SentimentRecognizer()
    >>> text = "I like Stephen King, but I don't like The Shining"
    >>> s.polarities(text, [(7, 19), (38, 49)])
    (<Polarity.POSITIVE: '+'>, <Polarity.NEGATIVE: '-'>)
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

from nlu.errors import NluError
from nlu.textnorm import contraction_repairs, repair_contractions

logger = logging.getLogger(__name__)

__all__ = ["Polarity", "SentimentRecognizer", "VADER_THRESHOLD"]

VADER_THRESHOLD = 0.05
"""|compound| at or above which VADER's score of a clause counts (Hutto & Gilbert's own cut-off)."""
NEGATION_WINDOW = 3
"""A negation this many words (or fewer) before a cue flips it."""

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u2032": "'", "\u00b4": "'", "`": "'"})
_PLACEHOLDER = "ENTITY"

_CONTRAST = r"but|however|although|though|whereas|while|except|yet"
_PLAIN = r"and|or|nor|plus|also"
_SPLIT = re.compile(
    rf"(?P<punct>[.;!?]+(?:\s|$)|,|\n)|\b(?P<contrast>{_CONTRAST})\b|\b(?P<plain>{_PLAIN})\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[a-z']+|" + _PLACEHOLDER.lower() + r"\d*")

_POSITIVE_PHRASES = (
    "like",
    "likes",
    "liked",
    "liking",
    "love",
    "loves",
    "loved",
    "loving",
    "enjoy",
    "enjoys",
    "enjoyed",
    "adore",
    "adored",
    "adores",
    "fan of",
    "fan",
    "fond of",
    "favourite",
    "favorite",
    "prefer",
    "preferred",
    "into",
    "appreciate",
    "appreciated",
    "dig",
    "great",
    "amazing",
    "awesome",
    "brilliant",
    "masterpiece",
    "the best",
    "good",
    "nice",
    "cool",
    "beautiful",
    "wonderful",
    "fantastic",
    "excellent",
    "lovely",
    "interested in",
    "passionate about",
    "mad about",
    "crazy about",
    "obsessed with",
    "recommend",
    "liek",
    "lik",
    "lyk",
    "luv",
    "loove",
    "looove",
    "lika",
    "lke",
    "likee",
    "lov",
    "don't mind",
    "dont mind",
    "do not mind",
)
_NEGATIVE_PHRASES = (
    "hate",
    "hates",
    "hated",
    "hating",
    "dislike",
    "dislikes",
    "disliked",
    "can't stand",
    "cannot stand",
    "cant stand",
    "couldn't stand",
    "detest",
    "detested",
    "loathe",
    "loathed",
    "sick of",
    "tired of",
    "bored by",
    "boring",
    "awful",
    "terrible",
    "horrible",
    "sucks",
    "suck",
    "sucked",
    "worst",
    "crap",
    "rubbish",
    "garbage",
    "overrated",
    "annoying",
    "annoys",
    "bad",
    "disgusting",
    "stupid",
    "hateful",
    "meh",
    "dont like",
    "do not like",
    "not like",
)
_NEGATIONS = frozenset(
    """not no never don't dont doesn't doesnt didn't didnt isn't isnt wasn't wasnt aren't arent
    weren't werent won't wont wouldn't wouldnt can't cant cannot couldn't couldnt nor neither
    without hardly barely n't haven't havent hasn't hasnt ain't aint nothing none""".split()
)
_REFERENCE = re.compile(
    r"\b(?:(?:this|that|the)\s+(?:movie|film|book|song|album|one|track|record|series|novel|show|band|artist)"
    r"|it|this|that)\b",
    re.IGNORECASE,
)
"""A reference to the item being discussed ("it", "this movie"), for :meth:`SentimentRecognizer.message_polarity`."""
_YES_ANSWERS = frozenset(
    {"yes", "yeah", "yep", "yup", "sure", "of course", "absolutely", "definitely", "yes i do", "i do"}
)
_NO_ANSWERS = frozenset(
    {"no", "nope", "nah", "not really", "no i don't", "no i dont", "i don't", "i dont", "not at all"}
)
_EXPERIENCE_VERBS = frozenset(
    "seen see saw watched watch read heard hear listened listen tried try played play finished know knew".split()
)
"""Not having seen/read/heard something is no opinion about it ("I haven't seen it")."""
_SUBJECTS = frozenset({"i", "we", "you", "he", "she", "they", "i'm", "im"})
"""A negation before the subject of the cue's clause does not negate the cue ("No I dislike it")."""
_INTENSIFIER_NEGATIONS = frozenset(
    {"really", "that", "so", "very", "too", "much", "a", "big", "huge", "the", "at", "all"}
)


class Polarity(Enum):
    """Opinion about one entity, as the dataset writes it (``"+"``, ``"-"``; ``"0"`` = no opinion)."""

    POSITIVE = "+"
    NEGATIVE = "-"
    NEUTRAL = "0"


@dataclass(frozen=True, slots=True)
class _Clause:
    start: int  # offsets in the masked text
    end: int
    boundary_before: str  # "start" | "plain" | "contrast"
    polarity: Polarity | None  # None = no cue
    short: bool = False  # at most one word besides the entity: "but Avatar", "except Titanic"


class SentimentRecognizer:
    """Per-entity polarity with clause scoping, entity masking, negation and likes/dislikes cues.

    Stateless after construction (the VADER analyser is built once); thread-safe for reading.
    """

    def __init__(self) -> None:
        self._vader = SentimentIntensityAnalyzer()
        self._positive = _compile_phrases(_POSITIVE_PHRASES)
        self._negative = _compile_phrases(_NEGATIVE_PHRASES)

    def polarities(self, text: str, spans: Sequence[tuple[int, int]]) -> tuple[Polarity, ...]:
        """Polarity of each entity span of ``text``.

        Args:
            text: the message as typed (the spans' offsets refer to it).
            spans: ``(start, end)`` character offsets of the mentioned entities (e.g. from
                ``Mention.start``/``Mention.end``); overlapping or out-of-range spans are clipped.

        Returns:
            One :class:`Polarity` per span, in the order given.

        Raises:
            NluError: if a span is malformed (start > end or negative).
        """
        text, spans = _fix_mojibake((text or "").translate(_APOSTROPHES), spans)
        for start, end in spans:
            if start < 0 or end < start:
                raise NluError(f"bad entity span ({start}, {end}) for a text of {len(text)} characters")
        masked, positions = _mask(text, spans)
        clauses = self._clauses(masked)
        out = []
        for pos in positions:
            index = next((k for k, c in enumerate(clauses) if c.start <= pos < c.end), len(clauses) - 1)
            out.append(_resolve(clauses, index) if clauses else Polarity.NEUTRAL)
        return tuple(out)

    def message_polarity(self, text: str) -> Polarity:
        """Polarity of a whole message about the item being discussed (the one on screen).

        For messages that name no entity and refer to the focus item: "I don't like it", "I love this
        movie", "Dislike", "not for me", "I like it but I don't like the actors".

        Method: the first reference to the item ("it", "this", "that", "this/the movie|film|book|
        song|album|one|track|record|series|novel") is taken as the entity span and scored with
        :meth:`polarities` (so "I like it but I don't like the actors" is positive about *it*). With
        no reference, the first clause that has a cue decides ("Dislike", "I like but the ending
        is bad"); a bare "yes"/"no"-style answer ("Yes", "No", "nope", "not really") to "did you
        like it?" counts as positive/negative. Otherwise ``Polarity.NEUTRAL``.

        Args:
            text: the message as typed.

        Returns:
            The message's :class:`Polarity` about the focus item.
        """
        text = repair_contractions((text or "").translate(_APOSTROPHES))
        match = _REFERENCE.search(text)
        if match is not None:
            return self.polarities(text, [(match.start(), match.end())])[0]
        for clause in self._clauses(text):
            if clause.polarity is not None:
                return clause.polarity
        answer = " ".join(_WORD.findall(text.lower()))
        if answer in _YES_ANSWERS:
            return Polarity.POSITIVE
        if answer in _NO_ANSWERS:
            return Polarity.NEGATIVE
        return Polarity.NEUTRAL

    def clause_polarity(self, clause: str) -> Polarity | None:
        """Polarity of one (already masked) clause, or None when it has no cue (see module docstring)."""
        low = clause.lower().translate(_APOSTROPHES)
        words = _WORD.findall(low)
        if not words:
            return None
        cue = self._cue(low, words)
        if cue is not None:
            return cue
        if (
            any(w in _NEGATIONS for w in words)
            and any(w.startswith(_PLACEHOLDER.lower()) for w in words)
            and not any(w in _EXPERIENCE_VERBS for w in words)
        ):
            return Polarity.NEGATIVE  # "but not The Shining", "neither X" (not "I haven't seen X")
        compound = self._vader.polarity_scores(clause)["compound"]
        if compound >= VADER_THRESHOLD:
            return Polarity.POSITIVE
        if compound <= -VADER_THRESHOLD:
            return Polarity.NEGATIVE
        return None

    # ------------------------------------------------------------------ internals
    def _cue(self, low: str, words: list[str]) -> Polarity | None:
        """The last likes/dislikes cue of the clause, flipped by a preceding negation."""
        found = [
            (match.start(), polarity)
            for pattern, polarity in ((self._negative, Polarity.NEGATIVE), (self._positive, Polarity.POSITIVE))
            for match in pattern.finditer(low)
        ]
        if not found:
            return None
        best = max(found, key=lambda f: f[0])
        start, polarity = best
        before = _WORD.findall(low[:start])
        if polarity is Polarity.NEGATIVE and re.match(r"(?:do\s+)?not\s+like|dont\s+like", low[start:]):
            return Polarity.NEGATIVE  # already a negated phrase
        subject = max((k for k, w in enumerate(before) if w in _SUBJECTS), default=-1)
        before = before[subject + 1 :]  # "No, I dislike it": an answer's "no" does not negate the verb
        window = [w for w in before[-(NEGATION_WINDOW + 2) :] if w not in _INTENSIFIER_NEGATIONS][-NEGATION_WINDOW:]
        negated = any(w in _NEGATIONS or w.endswith("n't") for w in window)
        if negated:
            return Polarity.NEGATIVE if polarity is Polarity.POSITIVE else Polarity.POSITIVE
        return polarity

    def _clauses(self, masked: str) -> list[_Clause]:
        clauses: list[_Clause] = []
        start, boundary = 0, "start"
        for match in _SPLIT.finditer(masked):
            clauses.append(_Clause(start, match.start(), boundary, None))
            boundary = "contrast" if match.group("contrast") else "plain"
            start = match.end()
        clauses.append(_Clause(start, len(masked) + 1, boundary, None))
        return [
            _Clause(
                c.start,
                c.end,
                c.boundary_before,
                self.clause_polarity(masked[c.start : c.end]),
                len(
                    [
                        w
                        for w in _WORD.findall(masked[c.start : c.end].lower())
                        if not w.startswith(_PLACEHOLDER.lower())
                    ]
                )
                <= 1,
            )
            for c in clauses
        ]


def _fix_mojibake(text: str, spans: Sequence[tuple[int, int]]) -> tuple[str, list[tuple[int, int]]]:
    """Apply :func:`nlu.textnorm.contraction_repairs` ("donâ€™t", "don t" -> "don't") and shift the spans."""
    repairs = contraction_repairs(text)
    if not repairs:
        return text, list(spans)

    def shift(pos: int) -> int:
        return pos + sum(len(new) - (end - start) for start, end, new in repairs if end <= pos)

    return repair_contractions(text), [(shift(a), shift(b)) for a, b in spans]


def _compile_phrases(phrases: Sequence[str]) -> re.Pattern[str]:
    alternatives = sorted({re.escape(p).replace(r"\ ", r"\s+") for p in phrases}, key=len, reverse=True)
    return re.compile(r"(?<![a-z'])(?:" + "|".join(alternatives) + r")(?![a-z'])")


def _mask(text: str, spans: Sequence[tuple[int, int]]) -> tuple[str, list[int]]:
    """Replace spans by ``ENTITYn``; return the masked text and each span's position in it."""
    order = sorted(range(len(spans)), key=lambda k: spans[k][0])
    pieces: list[str] = []
    positions = [0] * len(spans)
    cursor, length = 0, 0
    for k in order:
        start, end = max(spans[k][0], cursor), min(max(spans[k][1], cursor), len(text))
        start = min(start, len(text))
        chunk = text[cursor:start]
        pieces.append(chunk)
        length += len(chunk)
        token = f" {_PLACEHOLDER}{k} "
        positions[k] = length + 1
        pieces.append(token)
        length += len(token)
        cursor = max(cursor, end)
    pieces.append(text[cursor:])
    return "".join(pieces), positions


def _resolve(clauses: list[_Clause], index: int) -> Polarity:
    own = clauses[index].polarity
    if own is not None:
        return own
    k = index  # backwards across plain boundaries
    while clauses[k].boundary_before == "plain" and k > 0:
        k -= 1
        if (found := clauses[k].polarity) is not None:
            return found
    k = index  # forwards across plain boundaries
    while k + 1 < len(clauses) and clauses[k + 1].boundary_before == "plain":
        k += 1
        if (found := clauses[k].polarity) is not None:
            return found
    clause = clauses[index]
    if clause.boundary_before == "contrast" and index > 0 and clause.short:
        previous = clauses[index - 1].polarity  # "I like everything except Titanic", "... but Avatar"
        if previous is Polarity.POSITIVE:
            return Polarity.NEGATIVE
        if previous is Polarity.NEGATIVE:
            return Polarity.POSITIVE
    return Polarity.NEUTRAL
