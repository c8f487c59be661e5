"""Critiquing the item on screen: "I like it, but not Mel Gibson" (yes_but), "no, but I like the
director" (no_but). The profile change and the re-ranking of the list go through the recommender's
one critique path, :func:`recommender.recommend.apply_critique`."""

from __future__ import annotations

from bot import messages as msg
from bot.dialog.acts import CritiqueChoice, Outcome
from bot.dialog.context import TurnContext
from bot.dialog.preferences import process, tasks
from bot.dialog.questions import MAX_CHOICES, ask_options
from bot.dialog.recommendations import advance
from bot.dialog.render import display, option_names
from bot.dialog.suggest import profile_of
from logs.schema import Event
from recommender.recommend import Critique, apply_critique


def on_yes_but(ctx: TurnContext) -> Outcome:
    """'I like it, but not Mel Gibson': the item liked, the named values disliked (unless the words say otherwise)."""
    return _critique(ctx, item_polarity="+")


def on_no_but(ctx: TurnContext) -> Outcome:
    """'No, but I like the director': the item disliked, the named values liked."""
    return _critique(ctx, item_polarity="-")


def _critique(ctx: TurnContext, *, item_polarity: str) -> Outcome:
    """The critiqued property values of the item on screen (named, or by role word: "the director")
    get the opposite polarity of the item; several values for a role give a question."""
    state, parse, kb = ctx.state, ctx.parse, ctx.kb
    focus = state.focus
    assert focus is not None  # the policy routes critiques only with a card on screen
    said = parse.message_polarity.value if parse.message_polarity else "0"  # the words decide
    item_polarity = said if said in ("+", "-") else item_polarity
    value_polarity = "-" if item_polarity == "+" else "+"
    outcome = Outcome("", events=[Event.PREFERENCE, Event.RECOMMENDATION])
    values = {v: p for p, v in kb.item_values(focus)}
    named_tasks = [t for t in tasks(ctx, parse.readings) if t.qid != focus]
    named = [t for t in named_tasks if t.qid in values]
    targets = [t.qid for t in named]
    if named and named[0].polarity in ("+", "-"):
        value_polarity = named[0].polarity
    if not targets and named_tasks:  # "I like it, but not Keanu Reeves" where the KB lacks the link
        for task in named_tasks:  # stored at once: a role question would be lost when the list moves on
            task.polarity = task.polarity if task.polarity in ("+", "-") else value_polarity
            if task.role is None and not kb.is_item(task.qid):
                roles = list(task.roles_hint or kb.roles(task.qid))
                task.role = roles[0] if roles else None
        process(ctx, [t for t in named_tasks if not t.ambiguous], outcome, ())
        state.pending = None
        stored, outcome.objects = outcome.objects, []
        _apply(ctx, outcome, item_polarity, [], {})  # re-ranked with what was just stored
        outcome.objects.extend(stored)
        _rerank_shown(ctx, outcome)
        return outcome
    if not targets:
        named_roles = set(parse.roles)
        targets = [v for v, p in values.items() if p in named_roles]
    if len(targets) > 1:
        state.profile()[focus] = {"polarity": item_polarity, "role": None}  # the item's rating is kept at once
        outcome.objects.append((focus, item_polarity))
        options = targets[:MAX_CHOICES]
        question = msg.CRITIQUE_ROLE.format(options=", ".join(option_names(ctx, options)))
        ask_options(ctx, CritiqueChoice, question, options, outcome, origin="recommendation", polarity=value_polarity)
        return outcome
    _apply(ctx, outcome, item_polarity, [(q, value_polarity) for q in targets], values)
    _rerank_shown(ctx, outcome)
    return outcome


def on_critique_answer(ctx: TurnContext) -> Outcome:
    """The answer to "Which one do you mean: A, B?"."""
    state = ctx.state
    question = state.pending
    outcome = Outcome("", events=[Event.PREFERENCE, Event.RECOMMENDATION])
    state.pending = None
    choice = ctx.parse.answer
    if isinstance(question, CritiqueChoice) and isinstance(choice, int):
        _apply(ctx, outcome, None, [(question.options[choice], question.polarity)], {})
    else:
        _apply(ctx, outcome, None, [], {})
    _rerank_shown(ctx, outcome)
    return outcome


def _apply(
    ctx: TurnContext,
    outcome: Outcome,
    item_polarity: str | None,
    targets: list[tuple[str, str]],
    roles: dict[str, str],
) -> None:
    """The critique through the recommender (profile change + new scores); the stored profile and the
    turn's recognized objects follow what it applied; the rest of the list is re-ranked."""
    state = ctx.state
    focus = state.focus
    assert focus is not None
    result = apply_critique(
        ctx.domain.recommender,  # type: ignore[arg-type]
        profile_of(ctx),
        focus,
        Critique(item_polarity, tuple(targets)),
        k=len(state.profile()) + len(state.rec_list) + 50,
    )
    for qid, polarity in result.applied:
        state.profile()[qid] = {"polarity": polarity, "role": None if qid == focus else roles.get(qid)}
        outcome.objects.append((qid, polarity))
    remaining = state.rec_list[state.rec_pos + 1 :]
    if remaining:
        order = {s.qid: i for i, s in enumerate(result.recommendations.items)}
        remaining.sort(key=lambda q: order.get(q, len(order)))
        state.pagerank_cycle += 1
        state.rec_list = state.rec_list[: state.rec_pos + 1] + remaining


def _rerank_shown(ctx: TurnContext, outcome: Outcome) -> None:
    """Say what the critique stored and show the next card."""
    labels = ", ".join(f"{display(ctx, q)} ({p})" for q, p in outcome.objects)
    outcome.text = msg.CRITIQUE_DONE.format(items=labels or "-")
    advance(ctx, outcome, [Event.QUESTION], [Event.FINISHED_RECOMMENDATION])
