"""A pressed button or a slash command (issue 24: split from ``nlu.understand``): the intent each stands for
in the state shown.

Reads the button's payload (``kind:value@stamp``: ``pick:1@7``, ``like:Q42``, ``sugg:+:Q42@3``, ``reset:items``)
or the command (``/start``), and the :class:`nlu.turn_parse.View`; adds the :class:`nlu.turn_parse.TurnParse` of
the turn (a stale button of an older question or card is a fallback with ``stale``).

Example::

    understand_payload(Readings("Not that one", View(refinable=True), linker, sentiment), Payload.parse("none:Q1"))
    # TurnParse(intent='preference - disambiguation', answer='none', negative=True, ...)
"""

from __future__ import annotations

import re

from logs.schema import Intent
from nlu.disambiguation import parse_option
from nlu.readings import Readings
from nlu.suggestion_answer import Answer as SuggestionAnswer
from nlu.switching import DOMAIN_WORDS
from nlu.turn_parse import Payload, TurnParse

__all__ = ["ANSWER_INTENTS", "REC_PAYLOADS", "REC_PAYLOAD_TEXT", "RESET_INTENTS", "command_of", "understand_payload"]

REC_PAYLOAD_TEXT = {"like": "I like it", "dislike": "I don't like it"}
"""What a card's like/dislike button says, read as a message about the item on screen."""
REC_PAYLOADS = {
    "like": Intent.REC_PREFERENCE.value,
    "dislike": Intent.REC_PREFERENCE.value,
    "skip": Intent.REC_SKIP.value,
    "why": Intent.REC_WHY.value,
    "details": Intent.REC_DETAILS.value,
    "trailer": Intent.REC_TRAILER.value,
    "stop": Intent.REC_STOP.value,
}
"""A card's buttons (``like:Q42``) and the intents they stand for."""
RESET_INTENTS = {
    "everything": Intent.RESET_EVERYTHING.value,
    "items": Intent.RESET_ITEMS.value,
    "properties": Intent.RESET_PROPERTIES.value,
}
ANSWER_INTENTS: dict[str, dict[str, str]] = {
    "item": {"pick": Intent.PREFERENCE_DISAMBIGUATION.value},
    "role": {"pick": Intent.PREFERENCE_DISAMBIGUATION.value},
    "confirm": {
        "pick": Intent.PREFERENCE_YES.value,
        "yes": Intent.PREFERENCE_YES.value,
        "no": Intent.PREFERENCE_NO.value,
    },
    "critique": {
        "pick": Intent.REC_CRITIQUING_DISAMBIGUATION.value,
        "yes": Intent.REC_CRITIQUING_YES.value,
        "no": Intent.REC_CRITIQUING_NO.value,
    },
    "delete": {"pick": Intent.DELETE_PREFERENCE_DISAMBIGUATION.value},
    "reset": {
        "pick": Intent.RESET_EVERYTHING_YES.value,
        "yes": Intent.RESET_EVERYTHING_YES.value,
        "no": Intent.RESET_EVERYTHING_NO.value,
    },
}
"""The intent logged for an answer, by open-question kind and the answer's button."""


def command_of(text: str) -> str | None:
    """The slash command opening ``text`` without its ``/`` (``"/start@corsbot"`` -> ``"start"``), or None."""
    match = re.match(r"^/([a-z_]+)(@\w+)?\b", text.strip().lower())
    return match.group(1) if match else None


def understand_payload(session: Readings, payload: Payload) -> TurnParse:
    """A pressed button: the intent it stands for in the state shown (:class:`View`)."""
    view, text = session.view, session.text
    stale = payload.stamp is not None and payload.stamp != view.stamp
    kind, value = payload.kind, payload.value
    if stale:
        return TurnParse(text, Intent.FALLBACK.value, payload=payload, stale=True)
    if kind == "dom" and value in DOMAIN_WORDS:
        return TurnParse(text, Intent.START.value, payload=payload, switch_to=value)
    if kind in ("pick", "role", "none", "yes", "no") and view.question:
        intents = ANSWER_INTENTS.get(view.question, {})
        intent = intents.get(kind, intents.get("pick", Intent.PREFERENCE_DISAMBIGUATION.value))
        raw = f"{kind}:{value}" if value else kind
        answer = parse_option(view.answer_kind, text, raw, view.options)
        readings = (
            session.readings(with_focus=False)
            if answer is None and view.question in ("item", "role", "confirm")
            else ()
        )
        return TurnParse(text, intent, payload=payload, answer=answer, readings=readings, linked=session.linked)
    if kind in REC_PAYLOADS and view.focus is not None and value in ("", view.focus):
        said = REC_PAYLOAD_TEXT.get(kind, text)
        if kind not in REC_PAYLOAD_TEXT:
            return TurnParse(said, REC_PAYLOADS[kind], payload=payload)
        card = Readings(said, view, session.linker, session.sentiment)
        return TurnParse(
            said,
            REC_PAYLOADS[kind],
            payload=payload,
            readings=card.readings(with_focus=True),
            message_polarity=session.sentiment.message_polarity(said),
            yes_no=None,
            linked=card.linked,
        )
    if kind == "none" and view.refinable:  # "Not that one" under a reading the bot took (no question)
        return TurnParse(text, Intent.PREFERENCE_DISAMBIGUATION.value, payload=payload, answer="none", negative=True)
    if kind == "more":
        return TurnParse(text, Intent.RECOMMENDATION.value, payload=payload)
    if kind == "rate":
        return TurnParse(text, Intent.PREFERENCE.value, payload=payload)
    said, _, qid = value.partition(":")
    if kind == "sugg" and view.question == "suggestion" and qid == view.suggested and said in ("+", "-", "skip"):
        tapped = SuggestionAnswer("skip") if said == "skip" else SuggestionAnswer("rate", said)
        intent = Intent.SKIP.value if said == "skip" else Intent.PREFERENCE.value
        return TurnParse(text, intent, payload=payload, suggestion=tapped)
    if kind == "reset" and value in RESET_INTENTS:
        return TurnParse(text, RESET_INTENTS[value], payload=payload)
    return TurnParse(text, Intent.FALLBACK.value, payload=payload, stale=True)
