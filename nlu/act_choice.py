"""Where the dialogue act decides (issue 22, fifth round): the learned act of :mod:`nlu.acts` takes over the intent
only where the rules (:func:`nlu.intent_choice.overrule`) and the spaCy classifier leave doubt, and only among the
acts the dialog's state admits.

Doubt: the rules left the classifier's intent as it was, nothing but the card is named, and that intent is a
fallback, small talk, a preference or a card intent with nothing to take (no name; no card on screen), or a
request/profile/help heard against a confident other act. A card act needs a card on screen and no open question;
an open question admits only leaving, the profile and a reset (it waits meanwhile). A card on screen weighs the
acts' prior toward its own questions, the next card and a farewell (:data:`_AT_A_CARD`); an intent the classifier
is sure of that fits the state stands (:data:`SURE_INTENT`); a message of one or two everyday words is an act when
a sure one says so, though the linker took it for a title ("reason?").

Example (a card on screen, the classifier heard a preference of nothing)::

    act_intent(acts, view, "preference", "ooh this one is sooo good", named=False)
    # ActDecision(intent='request_recommendation - preference', polarity=Polarity.POSITIVE)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from logs.schema import Intent, is_smalltalk
from nlu.acts import ACTS, CARD_ACTS, ActModel
from nlu.linking.words import is_everyday
from nlu.open_answer import NOT_UNDERSTOOD
from nlu.phrasings import BYE
from nlu.sentiment import Polarity
from nlu.turn_parse import View

__all__ = ["CONFIDENT", "OVERRIDE", "ActDecision", "act_intent"]

CONFIDENT = 0.6
"""An act this probable decides a doubtful turn: chosen by cross-validation on the training wordings, never on a set
(``corsbot nlu evaluate-acts``, folds split by written wording: at 0.6, 66% of the predictions, 94% of them right)."""
OVERRIDE = 0.85
"""An act this probable also overrides a command the classifier heard (a request heard for "what do you have on
file about me?"): at 0.85, 41% of the cross-validated predictions, 98% of them right."""

_DOUBTFUL = frozenset(
    {
        *NOT_UNDERSTOOD,
        Intent.PREFERENCE.value,
        Intent.PREFERENCE_DISAMBIGUATION.value,
        Intent.REC_PREFERENCE.value,
        Intent.REC_SKIP.value,
        Intent.SKIP.value,
        Intent.REC_DETAILS.value,
        Intent.REC_WHY.value,
        Intent.REC_TRAILER.value,
        Intent.DELETE_PREFERENCE.value,
    }
)
"""Intents that leave doubt when the message names nothing but the card: a preference of nothing, a card intent the
classifier learned from the study's few phrasings ("skip" heard in "haven't seen, play the trailer")."""
_COMMANDS = frozenset(
    {Intent.RECOMMENDATION.value, Intent.SHOW_PROFILE.value, Intent.HELP.value, Intent.REC_HELP.value}
)
"""Commands the classifier hears in many wordings of others (the profile heard as a request): overridden only by a
very confident act (:data:`OVERRIDE`)."""
_LEAD_INS = frozenset({"card_skip", "card_seen", "smalltalk", "statement"})
"""Acts of a clause that may only lead in to the message's act ("haven't seen it, who's in it?", "thanks, bye")."""
_CLOSING = frozenset({"why", "details", "trailer", "more", "request", "bye", "profile", "help"})
"""Acts a last clause carries over a lead-in: a question or a command said after it."""
_CLAUSE_BREAK = re.compile(r"\s*[,;.!?]+\s+|\s+-\s+")
_AT_A_CARD = {"more": 2.0, "why": 2.0, "details": 2.0, "trailer": 1.5, "bye": 2.0, "stop": 1.5}
"""A card on screen makes its own questions, the next one and a farewell likelier than with none (a list is what
a chat ends on): weights of the act's prior (:meth:`nlu.acts.ActClassifier.predict`), ratings left flat (an
opinion of a named thing is the preference path's)."""
SURE_INTENT = 0.9
"""The intent classifier's probability above which its card intent or command, fitting the state, stands against a
less probable act (it learned the study's wording well; the acts know the wordings it never saw)."""
_SHORT = 2
"""A message of at most this many everyday words may be an act though the linker found a title in it ("why?")."""
_AT_A_QUESTION = frozenset({"bye", "profile", "reset"})
_AT_A_SUGGESTION = _AT_A_QUESTION | {"request", "help"}
"""A suggested item to rate ("Do you like X?") is an invitation: a request or a plea for help passes it by; its
card-like questions (why, details) are the suggestion's own (``nlu.suggestion_answer``)."""


@dataclass(frozen=True, slots=True)
class ActDecision:
    """The intent an act stands for, and the card's rating it says (card_like, card_dislike), else None."""

    intent: str
    polarity: Polarity | None = None


def _allowed(view: View) -> frozenset[str]:
    """The acts the state admits: no card act without a card on screen; at an open question only leaving, the
    profile and a reset (and a request or help at a suggestion to rate)."""
    if view.question is not None:
        return (_AT_A_SUGGESTION if view.question == "suggestion" else _AT_A_QUESTION) | {"statement", "smalltalk"}
    acts = set(ACTS)
    if view.focus is None:
        acts -= CARD_ACTS | {"stop"}  # "more" with no list on screen asks for one (:func:`_intent_of`)
    return frozenset(acts)


def _intent_of(act: str, view: View) -> ActDecision | None:
    """The dialog's intent for an act in this state, None where the act leaves the intent as it is."""
    card = view.focus is not None
    simple = {
        "request": Intent.RECOMMENDATION.value,
        "more": Intent.REC_SKIP.value if card else Intent.RECOMMENDATION.value,  # the next card, or a list
        "profile": Intent.SHOW_PROFILE.value,
        "reset": Intent.RESET_PROFILE.value,
        "why": Intent.REC_WHY.value,
        "details": Intent.REC_DETAILS.value,
        "trailer": Intent.REC_TRAILER.value,
        "help": Intent.REC_HELP.value if card else Intent.HELP.value,
        "bye": BYE,
        "stop": Intent.REC_STOP.value,
        "card_skip": Intent.REC_SKIP.value,
    }
    if act in simple:
        return ActDecision(simple[act])
    if act == "card_like":
        return ActDecision(Intent.REC_PREFERENCE.value, Polarity.POSITIVE)
    if act == "card_dislike":
        return ActDecision(Intent.REC_PREFERENCE.value, Polarity.NEGATIVE)
    return None  # smalltalk, card_seen, card_hedge (the rating's handler asks), statement


def _everyday_only(text: str) -> bool:
    """The message is one or two everyday English words (``wordfreq``): a title of such words is a guess of the
    linker's that a confident act outweighs."""
    words = re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", text.lower())
    return 0 < len(words) <= _SHORT and all(is_everyday(w) for w in words)


def _fits(intent: str, view: View) -> bool:
    """The intent is a command, or a card intent with a card on screen: one the state admits as it is."""
    card_intent = intent.startswith("request_recommendation - ") and intent != Intent.REC_PREFERENCE.value
    return intent in _COMMANDS or (card_intent and view.focus is not None and view.question is None)


def act_intent(
    acts: ActModel | None, view: View, intent: str, text: str, *, named: bool, confidence: float | None = None
) -> ActDecision | None:
    """The intent a confident act gives a doubtful turn (see the module docstring; the same intent when the act
    agrees), or None to keep ``intent``.

    ``named``: the message names an item other than the card (the preference path's, never the acts'), unless it
    is one or two everyday words that a sure act (:data:`OVERRIDE`) reads otherwise. ``confidence``: the intent
    classifier's probability of ``intent``; a sure one (:data:`SURE_INTENT`) that fits the state stands.
    """
    if acts is None or (named and not _everyday_only(text)):
        return None
    doubtful = (
        intent in _DOUBTFUL
        or is_smalltalk(intent)
        or (view.focus is None and intent.startswith("request_recommendation - "))
    )
    if not (doubtful or intent in _COMMANDS):
        return None
    allowed = _allowed(view)
    prior = _AT_A_CARD if view.focus is not None and view.question is None else None
    guess = acts.predict(text, allowed=allowed, prior=prior)
    clauses = [c for c in _CLAUSE_BREAK.split(text.strip()) if c.strip()]
    if (guess.act in _LEAD_INS or guess.probability < CONFIDENT) and len(clauses) > 1:
        # the last clause's question or command is the message's: "never heard of it, what's it about?"
        last = acts.predict(clauses[-1], allowed=allowed, prior=prior)
        guess = last if last.act in _CLOSING and last.probability >= CONFIDENT else guess
    if named and (guess.act == "statement" or guess.probability < OVERRIDE):
        return None
    if confidence is not None and confidence >= max(SURE_INTENT, guess.probability) and _fits(intent, view):
        return None
    # a reset is asked about, but costs the most when wrong ("Everything Everywhere ..." is a title): a sure one only
    if guess.probability < (CONFIDENT if doubtful and guess.act != "reset" else OVERRIDE):
        return None
    decision = _intent_of(guess.act, view)
    if decision is None:
        return None
    if is_smalltalk(intent) and guess.act not in ("bye", "help", "request", "profile", "reset", "more"):
        return None  # small talk at a card ("thanks!") rates nothing on a guess
    return decision
