"""Critiquing the item on screen: "I like it, but not Mel Gibson" (yes_but), "no, but I like the
director" (no_but). The profile change and the re-ranking of the list go through the recommender's
one critique path, :func:`recommender.critique.apply_critique`.

A value named by a role word ("not the director") is disliked in that role only, and stored so
(profile entry ``role``); a value the item has in several roles ("the director" of a film its director
also wrote and acted in) is found by every role it has. "..., but not X this time" keeps X out of the
lists of the session without storing anything. The critique applies at once to the rest of the list
on screen (``bot.dialog.constraints.apply_to_rest``) and to the next lists.
"""

from __future__ import annotations

from bot import messages as msg
from bot.dialog import constraints
from bot.dialog.acts import CritiqueChoice, Outcome
from bot.dialog.context import TurnContext
from bot.dialog.preferences import process, tasks
from bot.dialog.questions import MAX_CHOICES, ask_options
from bot.dialog.recommendations import advance
from bot.dialog.render import display, has_name, option_names
from bot.dialog.suggest import profile_of
from logs.schema import Event
from recommender.critique import Critique, apply_critique
from recommender.schema import role_name


def on_yes_but(ctx: TurnContext) -> Outcome:
    """'I like it, but not Mel Gibson': the item liked, the named values disliked (unless the words say otherwise)."""
    return _critique(ctx, item_polarity="+")


def on_no_but(ctx: TurnContext) -> Outcome:
    """'No, but I like the director': the item disliked, the named values liked."""
    return _critique(ctx, item_polarity="-")


def on_people_only(ctx: TurnContext) -> Outcome:
    """'nope, can't stand that author' at a card: the card's people in the role named get the message's opinion,
    the card itself is not rated (issue 22-H); with no opinion in the words, a critique as "I like it, but ..."."""
    said = ctx.parse.message_polarity.value if ctx.parse.message_polarity else "0"
    if said not in ("+", "-"):
        return _critique(ctx, item_polarity="+")
    return _critique(ctx, item_polarity=None, value_polarity=said)


def _critique(ctx: TurnContext, *, item_polarity: str | None, value_polarity: str | None = None) -> Outcome:
    """The critiqued property values of the item on screen (named, or by role word: "the director")
    get the opposite polarity of the item (or ``value_polarity``, the item unrated: ``item_polarity`` None);
    several values for a role give a question."""
    state, parse, kb = ctx.state, ctx.parse, ctx.kb
    focus = state.focus
    assert focus is not None  # the policy routes critiques only with a card on screen
    if item_polarity is not None:
        said = parse.message_polarity.value if parse.message_polarity else "0"  # the words decide
        item_polarity = said if said in ("+", "-") else item_polarity
        value_polarity = "-" if item_polarity == "+" else "+"
    assert value_polarity is not None
    outcome = Outcome("", events=[Event.PREFERENCE, Event.RECOMMENDATION])
    roles_of: dict[str, list[str]] = {}  # every role a value has on the item
    for pid, value in kb.item_values(focus):
        roles_of.setdefault(value, []).append(pid)
    named_tasks = [t for t in tasks(ctx, parse.readings) if t.qid != focus]
    named = [t for t in named_tasks if t.qid in roles_of]
    targets = [t.qid for t in named]
    if named and named[0].polarity in ("+", "-"):
        value_polarity = named[0].polarity
    if parse.this_time and value_polarity == "-" and (named_tasks or parse.roles):
        return _for_this_time(ctx, outcome, item_polarity, [t.qid for t in named_tasks], roles_of)
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
    role_said: dict[str, str] = {}
    if not targets:  # "but not the director": the item's values in that role, whatever else they are
        named_roles = [p for p in parse.roles]
        targets = [v for v, pids in roles_of.items() if any(p in pids for p in named_roles)]
        role_said = {v: next(p for p in named_roles if p in roles_of[v]) for v in targets}
    if len(targets) > 1:
        if item_polarity is not None:
            state.profile()[focus] = {"polarity": item_polarity, "role": None}  # the item's rating is kept at once
            outcome.objects.append((focus, item_polarity))
        options = targets[:MAX_CHOICES]
        question = msg.CRITIQUE_ROLE.format(options=", ".join(option_names(ctx, options)))
        extra = {"role": role_said[options[0]]} if len(set(role_said.values())) == 1 else {}
        ask_options(
            ctx, CritiqueChoice, question, options, outcome, origin="recommendation", polarity=value_polarity, **extra
        )
        return outcome
    _apply(ctx, outcome, item_polarity, [(q, value_polarity) for q in targets], role_said)
    _rerank_shown(ctx, outcome)
    return outcome


def _for_this_time(
    ctx: TurnContext, outcome: Outcome, item_polarity: str | None, named: list[str], roles_of: dict[str, list[str]]
) -> Outcome:
    """ "I like it, but not Radiohead this time": the item rated, the values kept out of this session's
    lists (never stored)."""
    state = ctx.state
    focus = state.focus
    assert focus is not None
    values: list[tuple[str, str | None]] = [(q, None) for q in named]
    values = values or [(v, p) for v, pids in roles_of.items() for p in ctx.parse.roles if p in pids]
    for qid, role in values:
        constraints.add_session_constraint(ctx, qid, role)
    _apply(ctx, outcome, item_polarity, [], {})
    _rerank_shown(ctx, outcome)
    return outcome


def on_critique_answer(ctx: TurnContext) -> Outcome:
    """The answer to "Which one do you mean: A, B?"."""
    state = ctx.state
    question = state.pending
    outcome = Outcome("", events=[Event.PREFERENCE, Event.RECOMMENDATION])
    state.pending = None
    choice = ctx.parse.answer
    if isinstance(question, CritiqueChoice) and (isinstance(choice, int) or choice == "all"):
        chosen = [question.options[choice]] if isinstance(choice, int) else question.options  # "all": "both"
        roles = {qid: question.role for qid in chosen} if question.role else {}
        _apply(ctx, outcome, None, [(qid, question.polarity) for qid in chosen], roles)
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
    turn's recognized objects follow what it applied; the rest of the list is re-ranked, and the
    items that now break a constraint leave it at once."""
    state = ctx.state
    focus = state.focus
    assert focus is not None
    said = tuple((q, roles[q]) for q, _p in targets if roles.get(q))
    result = apply_critique(
        ctx.domain.recommender,  # type: ignore[arg-type]
        profile_of(ctx),
        focus,
        Critique(item_polarity, tuple(targets), said),
        k=len(state.profile()) + len(state.rec_list) + 50,
        exclude=constraints.answered(ctx),
        avoid=constraints.session_avoid(ctx),
    )
    role_of = dict(result.roles)
    for qid, polarity in result.applied:
        role = None if qid == focus else role_of.get(qid)
        state.profile()[qid] = {"polarity": polarity, "role": role}
        outcome.objects.append((qid, polarity))
        constraints.drop_session_constraints(state, [qid])
    remaining = state.rec_list[state.rec_pos + 1 :]
    if remaining:
        order = {s.qid: i for i, s in enumerate(result.recommendations.items)}
        remaining.sort(key=lambda q: order.get(q, len(order)))
        state.pagerank_cycle += 1
        state.rec_list = state.rec_list[: state.rec_pos + 1] + remaining
        constraints.apply_to_rest(ctx)


def _rerank_shown(ctx: TurnContext, outcome: Outcome) -> None:
    """Say what the critique stored (a value in one role with its role) and show the next card."""
    stored = ctx.state.profile()
    labels = []
    for q, p in outcome.objects:
        if not has_name(ctx.kb, q):
            continue  # stored, but a value the KB has no name for is not shown as a bare id (render.display)
        role = (stored.get(q) or {}).get("role") if q != ctx.state.focus else None
        name = display(ctx, q)
        if role:
            name = msg.CRITIQUE_ROLE_DONE.format(name=name, role=role_name(role, ctx.state.domain))
        labels.append(f"{name} ({p})")
    said = [constraints.describe(ctx, a) for a in constraints.session_avoid(ctx) if a.qid not in dict(outcome.objects)]
    text = msg.CRITIQUE_DONE.format(items=", ".join(labels) or "-")
    if said and ctx.parse.this_time:
        text = msg.SESSION_CONSTRAINT.format(what=", ".join(said)) + " " + text
    outcome.text = text
    advance(ctx, outcome, [Event.QUESTION], [Event.FINISHED_RECOMMENDATION])
