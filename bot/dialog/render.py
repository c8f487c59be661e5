"""How entities, options and cards are shown: names with years, told-apart option names, card buttons.

User-facing texts and button labels live in ``bot/messages.py``; this module composes them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from bot import messages as msg
from bot.dialog.acts import PreferenceTask
from bot.dialog.context import TurnContext
from bot.state import DialogState
from bot.turns import Choice
from nlu.textnorm import fold
from recommender.schema import role_name, role_words

BARE_QID = re.compile(r"^Q\d+$")


def display(ctx: TurnContext, qid: str | None) -> str:
    """A user-facing name: label (else its first alias) and year; the QID only for an entity with
    no name at all (callers that list stored entities leave those out: :func:`has_name`)."""
    if qid is None:
        return ""
    kb = ctx.kb
    label = name_of(kb, qid) or qid
    year = details(kb, qid).get("year")
    return f"{label} ({year})" if year else label


def name_of(kb: Any, qid: str) -> str | None:
    """The entity's label, else its first alias, else None (it has no name a user could read)."""
    if not kb.has(qid):
        return None
    label = kb.label(qid)
    if label != qid:
        return str(label)
    aliases = getattr(kb, "aliases", None)
    found = aliases(qid) if callable(aliases) else ()
    return str(found[0]) if found else None


def has_name(kb: Any, qid: str) -> bool:
    """``qid`` has a label or an alias (:func:`name_of`)."""
    return name_of(kb, qid) is not None


def details(kb: Any, qid: str | None) -> dict[str, Any]:
    """The item's year, description and image (empty when unknown)."""
    if qid is None or not kb.has(qid):
        return {}
    found = kb.details(qid)
    return {name: getattr(found, name, None) for name in ("year", "description", "image")}


def option_names(ctx: TurnContext, qids: Sequence[str]) -> list[str]:
    """Names of the options of a question, each telling its entity apart from the others
    (year, "film by X", role, description, QID as a last resort: ``recommender.names``)."""
    from recommender.names import distinct_labels

    return distinct_labels(ctx.kb, qids)  # type: ignore[arg-type]


def option_words(ctx: TurnContext, qids: Sequence[str]) -> list[list[str]]:
    """Words a typed answer may use to pick each option: its label, its full option name, and the
    qualifiers only that option has ("1984", "David Lynch", "band")."""
    kb = ctx.kb
    names = option_names(ctx, qids)
    qualifiers = []
    for name in names:
        inner = name[name.rfind("(") + 1 : -1] if name.endswith(")") else ""
        parts = [p.strip() for p in inner.split(",") if p.strip()]
        qualifiers.append(
            parts
            + [re.sub(r"^(?:\w+ )?(?:by|from) ", "", p) for p in parts if " by " in f" {p}" or " from " in f" {p}"]
        )
    counts: dict[str, int] = {}
    for parts in qualifiers:
        for part in set(parts):
            counts[fold(part)] = counts.get(fold(part), 0) + 1
    return [
        [kb.label(q) if kb.has(q) else q, name] + [p for p in parts if counts[fold(p)] == 1]
        for q, name, parts in zip(qids, names, qualifiers, strict=True)
    ]


def option_labels(ctx: TurnContext, kind: str | None, task: PreferenceTask) -> list[list[str]]:
    """Words that name each option of a preference question (for typed answers; see
    ``nlu.disambiguation.parse_option``): a role question's options name the PID second."""
    if kind == "item":
        return option_words(ctx, task.candidates)
    if kind == "role":
        return [[role_name(pid, ctx.state.domain), pid, *role_words(pid)] for pid in task.roles]
    if kind == "confirm":
        return [["yes"], ["no"]]
    return []


def card_choices(qid: str | None = None) -> tuple[Choice, ...]:
    """The buttons of a recommendation card; payloads carry the item's QID (``like:Q42``) so that a tap
    on a card that is no longer current is answered "out of date" instead of rating another item."""
    suffix = f":{qid}" if qid else ""
    return tuple(Choice(label, payload + suffix) for label, payload in msg.CARD_BUTTONS)


def stamp(state: DialogState, choices: Sequence[Choice]) -> tuple[tuple[Choice, ...], int]:
    """Number a new question and append ``@<n>`` to its buttons' payloads ("pick:1@7"), so that a tap
    on the buttons of an older question (Telegram keeps them) is not taken as an answer to this one."""
    state.questions_asked += 1
    number = state.questions_asked
    return tuple(Choice(c.label, f"{c.payload}@{number}") for c in choices), number


def dedupe(values: Sequence[str]) -> list[str]:
    """``values`` without repeats, in order."""
    seen: list[str] = []
    for value in values:
        if value not in seen:
            seen.append(str(value))
    return seen


def join_text(*parts: str) -> str:
    """Non-empty parts, one per line."""
    return "\n".join(p for p in parts if p)
