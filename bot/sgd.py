"""Dialogue acts of a turn, and whole dialogues in a schema-guided format (issue 26).

The dataset format logs one record per *user* message (intent, entities, the system's events); the
web channel also keeps the system's turns (``web_turns``: reply text, buttons, image). This module
turns both into dialogue acts in the style of the Schema-Guided Dialogue dataset (Rastogi et al.,
AAAI 2020: ``dialogue_id``, ``services``, ``turns`` with ``speaker`` ``USER`` / ``SYSTEM``,
``utterance`` and ``frames`` holding ``actions`` of ``act``, ``slot``, ``values``), so that logged
studies can train other dialogue systems, and gives the outside evaluator the acts and items of
each reply (:mod:`bot.channels.web.door`).

User acts, from the logged intent and ``recognizedObjects``: ``INFORM`` of the slots ``liked`` /
``disliked`` (the entity QIDs with + / -), ``INFORM_INTENT`` (``request_recommendation``, ``start``,
``show_profile``, ``reset_profile``, ...), ``REQUEST`` of ``reason`` / ``details`` / ``trailer``,
``REQUEST_ALTS`` (skip), ``SELECT`` (an option of a question), ``AFFIRM`` / ``NEGATE``, ``THANK_YOU``,
``GOODBYE``, and ``UNKNOWN`` for a fallback. The frame's ``state.active_intent`` is the logged intent.

System acts, from the events logged for the turn and the reply's buttons: ``OFFER`` of ``item`` (a
recommendation card), ``REQUEST`` of ``option`` (a which-one or which-role question, its options as
values) or ``rating`` (a suggested item to rate; items to rate offered with 👍 buttons), ``CONFIRM`` of
the stored ``liked`` / ``disliked`` entities (a preference stored), ``NOTIFY_SUCCESS`` of
``list_finished``, and ``INFORM`` for any other answer. Items are QIDs read from the buttons' payloads
(``like:Q1``, ``rate:+:Q1``, ``sugg:+:Q1@3``, ...).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from bot.turns import Choice, Reply
from logs.record import LogRecord
from logs.schema import Event, Intent, parse_objects, split_list

__all__ = ["Act", "items_of", "sgd_dialogues", "system_acts", "user_acts"]

_ITEM_PAYLOAD = re.compile(r"^(?:like|dislike|skip|why|details|trailer|rate:[+-]|sugg:(?:[+-]|skip)):(Q\d+)")

_INTENT_ACTS: Mapping[str, tuple[str, str]] = {
    Intent.RECOMMENDATION: ("INFORM_INTENT", "request_recommendation"),
    Intent.START: ("INFORM_INTENT", "start"),
    Intent.WELCOME: ("INFORM_INTENT", "start"),
    Intent.HELP: ("INFORM_INTENT", "help"),
    Intent.SHOW_PROFILE: ("INFORM_INTENT", "show_profile"),
    Intent.RESET_PROFILE: ("INFORM_INTENT", "reset_profile"),
    Intent.REC_WHY: ("REQUEST", "reason"),
    Intent.REC_DETAILS: ("REQUEST", "details"),
    Intent.REC_TRAILER: ("REQUEST", "trailer"),
    Intent.REC_SKIP: ("REQUEST_ALTS", ""),
    Intent.SKIP: ("REQUEST_ALTS", ""),
    Intent.REC_STOP: ("NEGATE_INTENT", "request_recommendation"),
    Intent.PREFERENCE_DISAMBIGUATION: ("SELECT", "option"),
    Intent.PREFERENCE_YES: ("AFFIRM", ""),
    Intent.PREFERENCE_NO: ("NEGATE", ""),
    "smalltalk.confirmation.yes": ("AFFIRM", ""),
    "smalltalk.confirmation.no": ("NEGATE", ""),
    "smalltalk.appraisal.thank_you": ("THANK_YOU", ""),
    "smalltalk.greetings.bye": ("GOODBYE", ""),
}


@dataclass(frozen=True, slots=True)
class Act:
    """One dialogue act: ``act`` (SGD's name), ``slot`` ("" for none) and its ``values``."""

    act: str
    slot: str = ""
    values: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """SGD's action object (``canonical_values`` = ``values``: QIDs are canonical already)."""
        return {"act": self.act, "slot": self.slot, "values": list(self.values), "canonical_values": list(self.values)}

    def to_dialoguekit(self) -> dict[str, Any]:
        """DialogueKit's ``DialogueAct`` as JSON: ``intent`` and ``annotations`` of slot / value pairs."""
        return {"intent": self.act, "annotations": [{"slot": self.slot, "value": v} for v in self.values]}


def items_of(choices: Iterable[Choice]) -> tuple[str, ...]:
    """The QIDs the reply's buttons are about, in order, without repeats."""
    seen: dict[str, None] = {}
    for choice in choices:
        match = _ITEM_PAYLOAD.match(choice.payload)
        if match:
            seen.setdefault(match.group(1))
    return tuple(seen)


def _opinions(objects: str) -> list[Act]:
    pairs = parse_objects(objects)
    liked = tuple(q for q, sign in pairs if sign == "+")
    disliked = tuple(q for q, sign in pairs if sign == "-")
    return [Act(kind, slot, values) for kind, slot, values in
            (("INFORM", "liked", liked), ("INFORM", "disliked", disliked)) if values]  # fmt: skip


def user_acts(intent: str, objects: str) -> list[Act]:
    """The user's acts of a logged turn (see the module docstring)."""
    acts = _opinions(objects)
    mapped = _INTENT_ACTS.get(intent)
    if mapped is not None:
        kind, value = mapped
        slot = "intent" if kind.endswith("_INTENT") else value
        acts.append(Act(kind, slot, (value,) if kind.endswith("_INTENT") else ()))
    elif intent in (Intent.FALLBACK, Intent.REC_FALLBACK) or intent.endswith(" - fallback"):
        acts.append(Act("UNKNOWN"))
    elif intent.startswith("smalltalk."):
        acts.append(Act("INFORM_INTENT", "intent", (intent,)))
    elif not acts:
        acts.append(Act("INFORM_INTENT", "intent", (intent,)) if intent else Act("UNKNOWN"))
    return acts


def system_acts(events: Sequence[str], reply: Reply, objects: str = "") -> list[Act]:
    """The system's acts of a reply, from the turn's logged events and the reply's buttons."""
    items = items_of(reply.choices)
    acts: list[Act] = []
    if Event.PREFERENCE in events and objects:
        acts.extend(Act("CONFIRM", a.slot, a.values) for a in _opinions(objects))
    if Event.RECOMMENDATION in events and items:
        acts.append(Act("OFFER", "item", items[:1]))
    if Event.SUGGESTION in events and items:
        acts.append(Act("REQUEST", "rating", items[-1:]))
    elif Event.DISAMBIGUATION in events or Event.QUESTION in events:
        labels = tuple(c.label for c in reply.choices)
        acts.append(Act("REQUEST", "option", labels))
    if Event.FINISHED_RECOMMENDATION in events:
        acts.append(Act("NOTIFY_SUCCESS", "list_finished"))
    if not acts and items and any(c.payload.startswith("rate:") for c in reply.choices):
        acts.append(Act("REQUEST", "rating", items))
    if not acts:
        acts.append(Act("INFORM"))
    return acts


def _service(domain: str) -> str:
    return f"corsbot_{domain or 'movie'}"


def sgd_dialogues(
    conversations: Mapping[str, Sequence[Any]],
    records: Mapping[str, LogRecord],
    *,
    corrected: AbstractSet[str] = frozenset(),
) -> list[dict[str, Any]]:
    """Whole dialogues in the schema-guided format.

    Args:
        conversations: dialogue id -> its turns in order (``bot.channels.web.store.StoredTurn``: the
            user's text and, once answered, the reply and what was logged).
        records: messageID -> the logged record (corrections applied when ``corrected``), whose intent
            and objects give the user's acts; a turn without one uses what the channel stored.
        corrected: the messageIDs a researcher relabelled (each such USER turn says ``"corrected": true``).

    Returns:
        One object per dialogue: ``dialogue_id``, ``services`` and ``turns`` (USER / SYSTEM alternating;
        each SYSTEM turn adds ``image`` and ``choices``, each USER turn ``message_id``, ``to_check``
        and ``interaction``).
    """
    out: list[dict[str, Any]] = []
    for dialogue_id, turns in conversations.items():
        rows: list[dict[str, Any]] = []
        services: dict[str, None] = {}
        domain = ""
        for turn in turns:
            annotation = turn.annotation
            message_id = annotation.message_id if annotation else ""
            record = records.get(message_id) if message_id else None
            intent = record.intent if record else (annotation.intent if annotation else "")
            objects = record.recognized_objects if record else (annotation.objects if annotation else "")
            domain = (annotation.domain if annotation and annotation.domain else domain) or "movie"
            service = _service(domain)
            services.setdefault(service)
            slot_values: dict[str, list[str]] = {}
            for act in _opinions(objects):
                slot_values.setdefault(act.slot, []).extend(act.values)
            rows.append({
                "turn_id": str(len(rows)), "speaker": "USER", "utterance": turn.text,
                "frames": [{"service": service, "slots": [], "actions": [a.to_json() for a in user_acts(intent, objects)],
                            "state": {"active_intent": intent, "requested_slots": [], "slot_values": slot_values}}],
                "message_id": message_id, "to_check": record.to_check if record else True,
                "interaction": turn.interaction, "corrected": message_id in corrected,
            })  # fmt: skip
            if turn.reply is None:
                continue
            events = split_list(record.events) if record else (annotation.events if annotation else ())
            acts = system_acts(events, turn.reply, objects)
            rows.append({
                "turn_id": str(len(rows)), "speaker": "SYSTEM", "utterance": turn.reply.text,
                "frames": [{"service": service, "slots": [], "actions": [a.to_json() for a in acts]}],
                "image": turn.reply.image, "choices": [{"label": c.label, "payload": c.payload} for c in turn.reply.choices],
            })  # fmt: skip
        if rows:
            out.append({"dialogue_id": dialogue_id, "services": list(services), "turns": rows})
    return out
