"""The answer to the open question (issue 24: split from ``nlu.understand``): how a typed message relates to
the open suggestion ("I like it", "skip", "why this one?"), an opinion about what the open question asks ("I
like it" at "Did you like Green Street?"), which intents such an opinion overrules, a short bare answer.

Reads the text (after its lead-in), the :class:`nlu.turn_parse.View` and the turn's readings; adds the answer
(``nlu.suggestion_answer.Answer``, a polarity ``"+"``/``"-"``, a card intent).

Example (a sentiment recognizer)::

    opinion_of_open("I don't like it", (), sentiment)   # '-'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from logs.schema import Intent, is_smalltalk
from nlu.disambiguation import Choice as AnswerChoice
from nlu.phrasings import asks_details, card_fact
from nlu.suggestion_answer import Answer as SuggestionAnswer
from nlu.suggestion_answer import read_answer
from nlu.textnorm import fold
from nlu.turn_parse import PolarityModel, Reading, View
from nlu.turn_words import (
    CARD_COMMANDS,
    CARD_QUESTION,
    CARD_QUESTION_WORDS,
    CARD_WORD,
    NONE,
    OPINION_VERB,
    REFUSAL_LEAD,
)

__all__ = [
    "ABOUT_THE_CARD",
    "NOT_UNDERSTOOD",
    "card_question",
    "is_bare_answer",
    "listed",
    "opinion_of_open",
    "overrulable",
    "refuses_reading",
    "suggestion_answer",
]

ABOUT_THE_CARD = frozenset({Intent.REC_WHY.value, Intent.REC_DETAILS.value, Intent.REC_TRAILER.value})
"""The card's questions (why / details / trailer)."""

NOT_UNDERSTOOD = frozenset(
    {
        Intent.FALLBACK.value,
        Intent.REC_FALLBACK.value,
        Intent.REC_CRITIQUING_FALLBACK.value,
        Intent.PREFERENCE_HELP.value,
        Intent.REC_CRITIQUING_HELP.value,
    }
)
"""Intents that mean the classifier did not understand the turn (or heard a plea for help)."""


def suggestion_answer(
    text: str, view: View, readings: Sequence[Reading], sentiment: PolarityModel
) -> SuggestionAnswer | None:
    """How a typed message relates to the open suggestion (``nlu.suggestion_answer.read_answer``); naming
    the suggested item itself with an opinion ("I like Scarface" at "Do you like Scarface?") rates it, also when
    its words have other readings ("yeah solaris is great" at "Do you like Solaris (1972)?": the one asked about;
    issue 22-D, which asked "Which Solaris?" after storing it)."""

    def asked(reading: Reading) -> bool:
        return any(str(c.qid) == view.suggested for c in reading.mention.candidates)

    own = [r for r in readings if asked(r)]
    others = [r for r in readings if not asked(r)]
    answer = read_answer(
        text,
        named=[(r.mention.start, r.mention.end) for r in others],
        polarity=lambda said: sentiment.message_polarity(said).value,
    )
    if own and own[0].polarity.value in ("+", "-") and (answer is None or answer.kind == "new"):
        return SuggestionAnswer("rate", own[0].polarity.value, others=answer.others if answer else ())
    return answer


def card_question(predicted: str, folded: str) -> str | None:
    """The card intent a message asks (why / details / trailer), by the classifier or the card's words."""
    if predicted in ABOUT_THE_CARD:
        return predicted
    if CARD_WORD.match(folded):
        return CARD_COMMANDS.get(folded.strip(" .!?").split()[-1], Intent.REC_DETAILS.value)
    asked = CARD_QUESTION.search(folded)
    if asked is None and (
        card_fact(folded) is not None or asks_details(folded)
    ):  # "who is it by?", "whats that about?"
        return Intent.REC_DETAILS.value
    return CARD_QUESTION_WORDS[asked.group(1) or asked.group(2)] if asked else None


def overrulable(intent: str, answer: AnswerChoice = None) -> bool:
    """Intents an opinion about the open question's subject overrules: small talk ("I like it" heard as
    liking the bot), not understood, a preference with nothing named, or an answer that chose nothing
    ("already seen it, loved it" heard as an answer to "Which Drive do you mean?")."""
    if intent.startswith("smalltalk.confirmation"):
        return False
    if intent == Intent.PREFERENCE_DISAMBIGUATION:
        return answer is None
    return is_smalltalk(intent) or intent in NOT_UNDERSTOOD or intent == Intent.PREFERENCE


def opinion_of_open(text: str, readings: Sequence[Reading], sentiment: PolarityModel) -> str | None:
    """``"+"``/``"-"`` when the message only says an opinion about "it" ("I like it", "I don't like this
    movie", "I love it"): read as at a suggestion (``nlu.suggestion_answer.read_answer``), nothing else
    named and no role words; else None."""
    answer = read_answer(
        text,
        named=[(r.mention.start, r.mention.end) for r in readings],
        polarity=lambda said: sentiment.message_polarity(said).value,
    )
    if answer is None or answer.kind != "rate" or answer.others or answer.roles:
        return None
    return answer.polarity if answer.polarity in ("+", "-") else None


def is_bare_answer(folded: str) -> bool:
    """A short answer with no opinion verb ("actor", "the 1998 one", "Walt Disney"), not a new opinion."""
    return len(folded.split()) <= 4 and not OPINION_VERB.search(folded)


def refuses_reading(text: str) -> bool:
    """A follow-up that refuses the reading just stored: its refusal ("none", "wrong one", "i didn't mean")
    leads the message, after lead-in words only (``answers.toml`` ``refusal_lead``). A "none" inside other words
    ("and then there were none", a title the linker missed) refuses nothing (fresh7: it deleted the last like)."""
    folded = fold(text)
    found = NONE.search(folded)
    if found is None:
        return bool(folded.strip(" .!")) and all(w in REFUSAL_LEAD for w in re.findall(r"[\w']+", folded))
    return all(w in REFUSAL_LEAD for w in re.findall(r"[\w']+", folded[: found.start()]))


def listed(view: View) -> bool:
    """The options of ``view`` are those of the open question, shown to the user (not the other
    readings of a preference just stored, which a follow-up may refine but nobody saw)."""
    return view.question is not None and view.question != "suggestion"
