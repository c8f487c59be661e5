"""The context gate of the intent recognizer (issue 22): an intent is a candidate only in the dialog states it
was ever said in, as DialogFlow matched a follow-up intent only while its input contexts were active.

The required contexts of an intent are learned from its training examples (:func:`required_contexts`): the
contexts active in *every* one of them (the study's messages, the agent's training phrases with the intent's
input contexts, our generated phrases). The agent's follow-ups that the study's logs always show in their
context keep it ("Yes" is ``reset - reset_properties - yes`` only while ``show_profile-reset-reset_properties-
followup`` is active); an intent the logs also show without its input contexts (``preference - disambiguation``:
the logged contexts often miss an open question) requires nothing, so a noisy log only makes the gate looser.
:func:`gate` drops the scores of the intents whose required contexts are not all active and renormalises the
rest: the softmax over the candidates DialogFlow would have considered.

Example:
    >>> gate({"a": 0.6, "b": 0.2, "c": 0.2}, ("x",), {"a": ("y",)})
    {'b': 0.5, 'c': 0.5}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

__all__ = ["gate", "required_contexts"]


class _Labelled(Protocol):
    @property
    def intent(self) -> str: ...

    @property
    def contexts(self) -> tuple[str, ...]: ...


def required_contexts(examples: Iterable[_Labelled]) -> dict[str, list[str]]:
    """``{intent: sorted contexts active in every example of it}`` for the intents that require any
    (JSON-ready: it is stored with the model's options)."""
    common: dict[str, frozenset[str]] = {}
    for e in examples:
        here = frozenset(e.contexts)
        common[e.intent] = common[e.intent] & here if e.intent in common else here
    return {intent: sorted(ctx) for intent, ctx in sorted(common.items()) if ctx}


def gate(
    scores: Mapping[str, float],
    contexts: Sequence[str],
    required: Mapping[str, Sequence[str]],
    *,
    boost: float = 1.0,
) -> dict[str, float]:
    """The scores of the intents whose required contexts are all in ``contexts``, renormalised to sum 1
    (probabilities in [0, 1]); ``scores`` unchanged (a copy) when no intent is dropped or every one would be.

    ``boost`` multiplies, before the renormalisation, the score of every intent that requires contexts (all active,
    then): DialogFlow ranks an intent whose input contexts are active above a context-free one ("Yes" at the reset
    question is the reset's "yes", not small talk)."""
    active = set(contexts)
    kept = {k: v for k, v in scores.items() if active.issuperset(required.get(k, ()))}
    if boost != 1.0:
        kept = {k: v * boost if required.get(k) else v for k, v in kept.items()}
    total = sum(kept.values())
    if kept == scores or not kept or total <= 0.0:
        return dict(scores)
    return {k: v / total for k, v in kept.items()}
