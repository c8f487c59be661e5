"""Items offered to rate when the profile is too small or the user asks what to rate.

``profile_of`` (the conversation's profile as the recommender takes it) lives in
``bot.dialog.constraints`` and is re-exported here for the handlers that import it from this module.
"""

from __future__ import annotations

from typing import Any

from bot import messages as msg
from bot.dialog.acts import Outcome
from bot.dialog.constraints import answered, profile_of, session_avoid
from bot.dialog.context import TurnContext
from bot.dialog.render import option_names
from bot.turns import Choice

SUGGESTIONS = 4
"""Items offered to rate when the user has too few preferences or asks what to rate."""


def suggest(ctx: TurnContext, outcome: Outcome) -> None:
    """Offer a few items to rate (``recommender.elicitation.elicitation_suggestions``: close to what
    the user likes, else popular): named in the text, and as 👍 buttons (``rate:+:<QID>``, logged
    as a ``preference`` turn) when the session shows buttons (interaction type ``mixed``)."""
    from recommender.elicitation import elicitation_suggestions

    suggestions = elicitation_suggestions(
        ctx.domain.recommender,  # type: ignore[arg-type]
        profile_of(ctx),
        k=SUGGESTIONS,
        exclude=answered(ctx),
        avoid=session_avoid(ctx),
    )
    qids = [s.qid for s in suggestions]
    if not qids:
        return
    names = option_names(ctx, qids)
    mixed = ctx.turn.interaction_type == "mixed"
    template = msg.SUGGEST_BUTTONS if mixed else msg.SUGGEST_TEXT
    text = template.format(
        nouns=msg.SUGGEST_NOUNS[ctx.state.domain], items="; ".join(names), first=ctx.kb.label(qids[0])
    )
    outcome.text = f"{outcome.text}\n{text}" if outcome.text else text
    if mixed and not outcome.choices:
        outcome.choices = tuple(
            Choice(msg.RATE_BUTTON.format(name=name), f"rate:+:{qid}") for name, qid in zip(names, qids, strict=True)
        )


__all__ = ["SUGGESTIONS", "nameable_item", "profile_of", "suggest"]


def nameable_item(kb: Any, qid: str) -> bool:
    """``qid`` is a recommendable item of the domain with a label (what a suggestion button may carry):
    a forged payload naming an unknown, unlabelled or non-item QID is refused (issue 17.7)."""
    if not kb.has(qid) or not kb.is_item(qid):
        return False
    has_label = getattr(kb, "has_label", None)
    return bool(has_label(qid)) if has_label is not None else kb.label(qid) != qid
