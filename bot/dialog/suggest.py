"""Items offered to rate when the profile is too small or the user asks what to rate."""

from __future__ import annotations

from typing import Any

from bot import messages as msg
from bot.dialog.acts import Outcome
from bot.dialog.context import TurnContext
from bot.dialog.render import option_names
from bot.turns import Choice
from recommender.recommend import Profile

SUGGESTIONS = 4
"""Items offered to rate when the user has too few preferences or asks what to rate."""


def profile_of(ctx: TurnContext) -> Profile:
    """The conversation's profile in its domain, as the recommender takes it."""
    stored = ctx.state.profile()
    return Profile(
        liked=frozenset(q for q, p in stored.items() if p["polarity"] == "+"),
        disliked=frozenset(q for q, p in stored.items() if p["polarity"] == "-"),
    )


def suggest(ctx: TurnContext, outcome: Outcome) -> None:
    """Offer a few items to rate (``recommender.recommend.elicitation_suggestions``: close to what
    the user likes, else popular): named in the text, and as 👍 buttons (``rate:+:<QID>``, logged
    as a ``preference`` turn) when the session shows buttons (interaction type ``mixed``)."""
    from recommender.recommend import elicitation_suggestions

    suggestions = elicitation_suggestions(ctx.domain.recommender, profile_of(ctx), k=SUGGESTIONS)  # type: ignore[arg-type]
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


def nameable_item(kb: Any, qid: str) -> bool:
    """``qid`` is a recommendable item of the domain with a label (what a suggestion button may carry):
    a forged payload naming an unknown, unlabelled or non-item QID is refused (issue 17.7)."""
    if not kb.has(qid) or not kb.is_item(qid):
        return False
    has_label = getattr(kb, "has_label", None)
    return bool(has_label(qid)) if has_label is not None else kb.label(qid) != qid
