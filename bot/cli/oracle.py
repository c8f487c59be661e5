"""The simulated user's choices at the bot's questions, shared by the evaluations that play text through
the real dialog (``corsbot nlu evaluate-realistic``, ``corsbot nlu evaluate-conversations``).

A user who said "I loved Halloween" and is asked 'Which "Halloween" do you mean?' knows which film they
meant: they pick the option that reads as the bot names that film on its own (its year, director,
author, performer: ``recommender.names.distinct_labels`` of the one QID), else the first option whose
name opens with the name they used. The options never show QIDs (a bare QID is a label only when the KB
has no name at all).

Example::

    options = [("Halloween (2007, film by Rob Zombie)", "pick:0@1"), ("Halloween (1978, film by John Carpenter)", "pick:1@1")]
    pick_option(options, qids=["Q221103"], names=["halloween"], describe=lambda q: "Halloween (1978, film by John Carpenter)")
    # ('Halloween (1978, film by John Carpenter)', 'pick:1@1')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from bot.turns import Reply

Option = tuple[str, str]
"""A button as ``(label, payload)``."""

__all__ = ["Option", "described", "own_name", "pick_option", "question_of", "starts_with_name"]


def question_of(reply: Reply) -> tuple[str | None, list[Option]]:
    """The kind of preference question a reply asks (``item``, ``role``, ``confirm`` or None) and its
    options ``(label, payload)`` (without "none of these"), read from its buttons."""
    options = [(c.label, c.payload) for c in reply.choices]
    kinds = {p.partition("@")[0].partition(":")[0] for _l, p in options}
    if "pick" in kinds:
        return "item", [(lab, p) for lab, p in options if p.startswith("pick:")]
    if "role" in kinds:
        return "role", [(lab, p) for lab, p in options if p.startswith("role:")]
    if {"yes", "no"} <= kinds:
        return "confirm", options
    return None, []


def starts_with_name(label: str, name: str) -> bool:
    """``label`` (folded) opens with the whole ``name``: "Roma (film)" and "Mistborn: The Final Empire"
    do for "roma" and "mistborn", "Roma Maffia (actor)" does not for "roma"."""
    if not name or not label.startswith(name):
        return False
    rest = label[len(name) :]
    return not rest or not (rest[0].isalnum() or (rest[0] == " " and rest[1:2].isalnum()))


def described(options: Sequence[Option], own: str | None) -> list[Option]:
    """The options a user who means the entity named ``own`` by the bot ("Halloween (1978, film by
    John Carpenter)") recognises: that name, or it with more qualifiers added ("..., 1 of 2")."""
    if not own or not own.endswith(")"):
        return []
    return [o for o in options if o[0] == own or o[0].startswith(own[:-1] + ", ")]


def own_name(kb: Any, qid: str) -> str:
    """The bot's option name of one entity on its own (``recommender.names.distinct_labels``); "" when
    the KB lacks it."""
    from recommender.names import distinct_labels

    return distinct_labels(kb, [qid])[0] if kb.has(qid) else ""


def pick_option(
    options: Sequence[Option],
    *,
    qids: Iterable[str],
    names: Iterable[str],
    describe: Callable[[str], str] | None = None,
) -> Option | None:
    """The option a user who means one of ``qids`` (or, without a QID, something called one of
    ``names``) picks; None if no option fits.

    Args:
        options: the question's item options ``(label, payload)``, in display order (no "none").
        qids: the QIDs the user may mean (one for a title; the people of a role for "the director").
        names: folded names the user knows it by (its label, the words they typed).
        describe: ``describe(qid)``, the bot's option name of the entity on its own
            (:func:`own_name`); None to match by name only.

    Returns:
        The one option that carries the QID (a nameless entity) or reads as ``describe(qid)``, else
        the first option whose folded name opens with one of ``names``, else None.
    """
    from nlu.textnorm import fold

    for qid in qids:
        exact = [o for o in options if qid in o[0]]
        if not exact and describe is not None:
            exact = described(options, describe(qid))
        if len(exact) == 1:
            return exact[0]
    wanted = [n for n in names if n]
    for label, payload in options:
        if any(starts_with_name(fold(label), name) for name in wanted):
            return label, payload
    return None
