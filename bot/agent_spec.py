"""The original agent's context state machine: input and output contexts of every intent.

Source: the DialogFlow ES export of the original system (``../shared/data/dialogflow-agent/intents``,
``contexts`` = input contexts, ``responses[0].affectedContexts`` = output contexts with lifespans),
copied here as names only so that the bot runs without the shared data.

DialogFlow semantics (as the released logs show them): an intent matches only when all its input
contexts are active; after the match every active context's lifespan drops by one, then the
intent's output contexts are set (lifespan 0 removes one). The logged ``contexts`` are the contexts
active after that. Contexts that the fulfilment webhook sets (e.g. ``confirmation`` after a yes/no
question) become visible from the next turn on.

Example:
    >>> SPEC["preference"].outputs
    (('preference-followup', 2),)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class IntentSpec:
    """Input contexts (all required) and output contexts ``(name, lifespan)`` of one intent."""

    inputs: tuple[str, ...]
    outputs: tuple[tuple[str, int], ...]


_PTD = "property_type_disambiguation"
_PF = "preference-followup"
_RF = "request_recommendation-followup"
_RCF = "request_recommendation-critiquing-followup"

SPEC: dict[str, IntentSpec] = {
    "Default Fallback Intent": IntentSpec((), ()),
    "Default Welcome Intent": IntentSpec((), ()),
    "help": IntentSpec((), ()),
    "start": IntentSpec((), ()),
    "skip": IntentSpec((), ()),
    "preference": IntentSpec((), ((_PF, 2),)),
    "preference - disambiguation": IntentSpec((_PF, _PTD), ((_PTD, 5), (_PF, 2))),
    "preference - help": IntentSpec((_PF, _PTD), ((_PTD, 1), (_PF, 1))),
    "preference - no": IntentSpec((_PF, "confirmation"), ((_PF, 1),)),
    "preference - yes": IntentSpec((_PF, "confirmation"), ((_PF, 1),)),
    "request_recommendation": IntentSpec((), ((_RF, 1),)),
    "request_recommendation - critiquing - disambiguation": IntentSpec((_PTD, _RF, _RCF), ((_RF, 1), (_RCF, 5))),
    "request_recommendation - critiquing - fallback": IntentSpec((_PTD, _RCF), ((_PTD, 2), (_RCF, 2))),
    "request_recommendation - critiquing - help": IntentSpec((_RF, _PTD, _RCF), ((_RF, 1), (_PTD, 1), (_RCF, 1))),
    "request_recommendation - critiquing - no": IntentSpec((_RF, "confirmation"), ((_RF, 1),)),
    "request_recommendation - critiquing - yes": IntentSpec((_RF, "confirmation"), ((_RF, 1),)),
    "request_recommendation - details": IntentSpec((_RF,), ((_RF, 1),)),
    "request_recommendation - fallback": IntentSpec((_RF,), ((_RF, 1),)),
    "request_recommendation - help": IntentSpec((_RF,), ((_RF, 1),)),
    "request_recommendation - no_but": IntentSpec((_RF,), ((_RF, 1), (_RCF, 2))),
    "request_recommendation - preference": IntentSpec(
        (_RF,), ((_RF, 1), ("request_recommendation-preference-followup", 2))
    ),
    "request_recommendation - skip": IntentSpec((_RF,), ((_RF, 1),)),
    "request_recommendation - stop": IntentSpec((_RF,), ((_RF, 0), ("request_recommendation-preference-followup", 0))),
    "request_recommendation - trailer": IntentSpec((_RF,), ((_RF, 1),)),
    "request_recommendation - why": IntentSpec((_RF,), ((_RF, 1),)),
    "request_recommendation - yes_but": IntentSpec((_RF,), ((_RF, 1), (_RCF, 2))),
    "reset - reset_everything": IntentSpec(
        ("show_profile-reset-followup",), (("show_profile-reset-reset_everything-followup", 1),)
    ),
    "reset - reset_everything - no": IntentSpec(("show_profile-reset-reset_everything-followup",), ()),
    "reset - reset_everything - yes": IntentSpec(("show_profile-reset-reset_everything-followup",), ()),
    "reset - reset_movies": IntentSpec(
        ("show_profile-reset-followup",), (("show_profile-reset-reset_movies-followup", 1),)
    ),
    "reset - reset_movies - no": IntentSpec(("show_profile-reset-reset_movies-followup",), ()),
    "reset - reset_movies - yes": IntentSpec(("show_profile-reset-reset_movies-followup",), ()),
    "reset - reset_properties": IntentSpec(
        ("show_profile-reset-followup",), (("show_profile-reset-reset_properties-followup", 1),)
    ),
    "reset - reset_properties - no": IntentSpec(("show_profile-reset-reset_properties-followup",), ()),
    "reset - reset_properties - yes": IntentSpec(("show_profile-reset-reset_properties-followup",), ()),
    "reset_profile": IntentSpec((), (("show_profile-reset-followup", 2), ("reset_profile-followup", 2))),
    "reset_profile - cancel": IntentSpec(("reset_profile-followup",), (("reset_profile-followup", 0),)),
    "show_profile": IntentSpec((), (("show_profile-followup", 2),)),
    "show_profile - help": IntentSpec(("show_profile-followup",), (("show_profile-followup", 1),)),
    "show_profile - delete_preference": IntentSpec(
        ("show_profile-followup",), (("show_profile-delete_preference-followup", 2),)
    ),
    "show_profile - delete_preference - disambiguation": IntentSpec(
        ("show_profile-delete_preference-followup", _PTD), ((_PTD, 5),)
    ),
    "show_profile - delete_preference - help": IntentSpec(
        ("show_profile-delete_preference-followup", _PTD), ((_PTD, 1), ("show_profile-delete_preference-followup", 1))
    ),
}

NO_CONTEXT = IntentSpec((), ())
"""Spec of intents absent from the export (smalltalk): no inputs, no outputs."""


def spec(intent: str) -> IntentSpec:
    """The spec of ``intent``; smalltalk and unknown intents have no contexts."""
    return SPEC.get(intent, NO_CONTEXT)


def advance_contexts(active: dict[str, int], intent: str) -> dict[str, int]:
    """Apply one matched turn: decrement every lifespan, drop the expired, set the intent's outputs.

    Args:
        active: context name -> remaining lifespan (turns), before the turn.
        intent: the matched intent name.

    Returns:
        A new dict of the contexts active after the turn (insertion order = display order).
    """
    after = {name: life - 1 for name, life in active.items() if life - 1 > 0}
    for name, life in spec(intent).outputs:
        after.pop(name, None)
        if life > 0:
            after[name] = life
    # the dataset lists the intent's own outputs first, then the carried-over ones
    own = [name for name, life in spec(intent).outputs if life > 0]
    return {**{n: after[n] for n in own}, **{n: v for n, v in after.items() if n not in own}}


def satisfied(intent: str, active: dict[str, int]) -> bool:
    """True when every input context of ``intent`` is active."""
    return all(name in active for name in spec(intent).inputs)
