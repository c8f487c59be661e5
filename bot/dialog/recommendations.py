"""Recommendation lists: PageRank with priors over the profile, one card at a time, and the card's
acts (like/dislike/skip, why, details, trailer, stop)."""

from __future__ import annotations

from collections.abc import Sequence

from bot import messages as msg
from bot.dialog import render
from bot.dialog.acts import Outcome
from bot.dialog.context import TurnContext
from bot.dialog.preferences import NEW_PREFERENCE_EVENTS, process, tasks
from bot.dialog.questions import close_questions
from bot.dialog.render import BARE_QID, card_choices, details, display, has_name
from bot.dialog.requests import store_request
from bot.dialog.suggest import profile_of, suggest
from bot.turns import Choice
from logs.schema import Event

MAX_SKIPPED = 100
"""Skipped items remembered per domain and left out of the next lists (the oldest are forgotten)."""


def on_recommend(ctx: TurnContext) -> Outcome:
    """A list from whatever the profile holds (one preference is enough in chat and Telegram; a study's
    replay needs its minimum). A request that names items or people ("more like X", "songs from Y", "I
    liked X, recommend some more?") stores them as likes first and the list is based on them
    (``bot/dialog/requests.py``). A list asked for over a card ("more", "recommend me something") leaves
    that card out, so "more" shows more. When a list is shown, an open preference question is settled
    aloud (the user moved on to the list)."""
    state, request = ctx.state, ctx.parse.request
    question = state.pending
    state.pending = None
    outcome = Outcome("", events=[Event.RECOMMENDATION])
    _remember_skipped(ctx)  # a new list asked for over a card: that card was seen, the new list has others
    seeds = store_request(ctx, outcome) if request is not None else []
    new_list(ctx, outcome, seeds=seeds)
    if outcome.card and question is not None:
        state.pending = question
        notes = close_questions(ctx, outcome)
        state.pending = None
        outcome.settled = True
        outcome.text = "\n".join([*notes, outcome.text])
    return outcome


def new_list(ctx: TurnContext, outcome: Outcome, *, seeds: Sequence[str] = ()) -> None:
    """A new recommendation list into ``outcome``, its first card shown, saying what it is based on.

    With fewer preferences than the configuration's minimum, no list: what to tell, and items to rate.

    Args:
        ctx: the turn.
        outcome: the reply so far (a request's "Got it" line, notes): the list is added after it.
        seeds: the items or people a request named ("more like X"), first named first: the list says it
            is based on them. This is the one place where a request's seeds meet the recommender: issue
            23's ``Recommender.recommend(..., seeds=...)`` takes them (pass ``seeds=tuple(seeds)`` to the
            call below), to focus the list on them rather than on the whole profile.
    """
    state = ctx.state
    have, need = len(state.profile()) + sum(q not in state.profile() for q in seeds), ctx.config.min_preferences
    if have < need:  # a genre asked for ("an action movie") counts: a seed the profile does not keep
        said = msg.NEED_ONE if need <= 1 else msg.NEED_MORE.format(min_prefs=need, have=have)
        outcome.text = _lines(outcome.text, said)
        suggest(ctx, outcome)
        return
    result = ctx.domain.recommender.recommend(
        profile_of(ctx), k=ctx.config.list_size, exclude=state.skipped.get(state.domain, ())
    )
    state.pagerank_cycle += 1
    items = [scored.qid for scored in result.items]
    if not items:
        state.rec_list, state.rec_pos = [], 0
        outcome.text = _lines(outcome.text, msg.NO_RECOMMENDATION)
        return
    state.number_recommendation_list += 1
    state.rec_list, state.rec_pos = items, 0
    shown = card(ctx, [Event.QUESTION, Event.RECOMMENDATION])
    if result.fallback_reason:
        reason = msg.FALLBACK_REASONS.get(result.fallback_reason, msg.FALLBACK_REASON_DEFAULT)
        basis = msg.FALLBACK_POPULAR.format(reason=reason, nouns=msg.DOMAIN_NOUNS[state.domain])
    else:
        basis = based_on(ctx, seeds)
    outcome.text = _lines(outcome.text, basis, shown.text)
    outcome.events = render.dedupe([*shown.events, *(e for e in outcome.events if e != Event.RECOMMENDATION)])
    outcome.choices, outcome.image, outcome.card = shown.choices, shown.image, True


BASIS_NAMES = 3
"""Names a list's basis shows ("Based on Alien (1979), Heat (1995), Ripley and 4 more:")."""


def based_on(ctx: TurnContext, seeds: Sequence[str] = ()) -> str:
    """What a list is based on: the request's seeds first, then the user's other likes, most recent first."""
    liked = [q for q, p in ctx.state.profile().items() if p["polarity"] == "+"]
    named = [*seeds, *(q for q in liked[::-1] if q not in seeds)]
    names = [display(ctx, q) for q in named if has_name(ctx.kb, q)]
    if not names:
        return ""
    shown = ", ".join(names[:BASIS_NAMES])
    if len(names) > BASIS_NAMES:
        shown = msg.BASED_ON_MORE.format(names=shown, n=len(names) - BASIS_NAMES)
    return msg.BASED_ON.format(names=shown)


def _lines(*parts: str) -> str:
    return "\n".join(part for part in parts if part)


def card(ctx: TurnContext, events: list[str]) -> Outcome:
    """The card of the item on screen ("2/5: Dunkirk (2017) - ... Do you like it?") with its buttons."""
    state = ctx.state
    qid = state.focus
    found = details(ctx.kb, qid)
    description = found.get("description")
    extra = f" - {description}" if description else ""
    text = msg.REC_CARD.format(
        position=state.rec_pos + 1, total=len(state.rec_list), title=display(ctx, qid), extra=extra
    )
    return Outcome(text, choices=card_choices(qid), image=found.get("image"), card=True, events=events)


def advance(ctx: TurnContext, outcome: Outcome, events_next: list[str], events_done: list[str]) -> None:
    """Show the next card of the list, or say the list is over."""
    state = ctx.state
    state.rec_pos += 1
    if state.focus is None:
        state.rec_list, state.rec_pos = [], 0
        outcome.events.extend(events_done)
        outcome.text = (outcome.text + "\n" if outcome.text else "") + msg.REC_FINISHED
        outcome.choices = (Choice(msg.RECOMMEND_MORE, "more"),)
        return
    shown = card(ctx, [])
    outcome.events.extend(events_next)
    outcome.text = (outcome.text + "\n" if outcome.text else "") + shown.text
    outcome.choices, outcome.image, outcome.card = shown.choices, shown.image, True


def _remember_skipped(ctx: TurnContext) -> None:
    """The item on screen is passed over: left out of the next lists (the oldest are forgotten)."""
    state = ctx.state
    if state.focus is not None:
        skipped = state.skipped.setdefault(state.domain, [])
        skipped[:] = [q for q in skipped if q != state.focus][-(MAX_SKIPPED - 1) :] + [state.focus]


def _skip_current(ctx: TurnContext) -> Outcome:
    outcome = Outcome("")
    _remember_skipped(ctx)
    advance(ctx, outcome, [Event.RECOMMENDATION, Event.QUESTION], [Event.RECOMMENDATION, Event.FINISHED_RECOMMENDATION])
    return outcome


def on_rate(ctx: TurnContext) -> Outcome:
    """'I like it', 'no', the like/dislike buttons: the item on screen is rated and the next one shown;
    other titles named in the same message are preferences of their own."""
    state, parse = ctx.state, ctx.parse
    focus = state.focus
    state.pending = None  # an open question about another entity is dropped: the user moved on
    outcome = Outcome("")
    named = tasks(ctx, parse.readings)
    others = [t for t in named if t.qid != focus]
    own = [t for t in named if t.qid == focus]
    if own or not others:
        polarity = own[0].polarity if own else (parse.message_polarity.value if parse.message_polarity else "0")
        if parse.yes_no is not None:  # the answer to "Do you like it?"
            polarity = "-" if parse.yes_no == "no" else "+"
        if polarity not in ("+", "-") and not others:
            # no opinion ("I haven't seen it"): nothing is stored, the list goes on as for a skip
            skipped = _skip_current(ctx)
            skipped.text = msg.NO_OPINION_SKIPPED.format(title=display(ctx, focus)) + "\n" + skipped.text
            return skipped
        if polarity in ("+", "-") and focus is not None:
            state.profile()[focus] = {"polarity": polarity, "role": None}
            outcome.objects.append((focus, polarity))
    if others:
        process(ctx, others, outcome, NEW_PREFERENCE_EVENTS)
    if not outcome.objects or state.pending or focus not in dict(outcome.objects):
        # only other things were named ("I love the Avengers"): the item stays on screen
        if not state.pending:
            shown = card(ctx, [Event.RECOMMENDATION, Event.QUESTION, Event.PREFERENCE])
            shown.text = (outcome.text + "\n" if outcome.text else "") + shown.text
            shown.objects = outcome.objects
            return shown
        return outcome
    advance(
        ctx,
        outcome,
        [Event.RECOMMENDATION, Event.QUESTION, Event.PREFERENCE],
        [Event.FINISHED_RECOMMENDATION, Event.PREFERENCE, Event.RECOMMENDATION],
    )
    return outcome


def on_skip_item(ctx: TurnContext) -> Outcome:
    """'skip' on a card: the next one (skipped items are left out of the next lists)."""
    return _skip_current(ctx)


def on_details(ctx: TurnContext) -> Outcome:
    """The card's details, or those of an item named outside a list ("details of Inception", no
    buttons, nothing stored)."""
    named = ctx.parse.details_of
    reply, image = details_reply(ctx, named or ctx.state.focus)  # type: ignore[arg-type]
    if named is not None:
        return Outcome(reply, image=image)
    return Outcome(
        reply, choices=card_choices(ctx.state.focus), image=image, events=[Event.RECOMMENDATION, Event.QUESTION]
    )


def details_reply(ctx: TurnContext, qid: str) -> tuple[str, str | None]:
    """The details of an item (title, description, people by role, genres, links) and its image
    URL, for the card on screen, an item named outside a list and a suggested item alike."""
    from recommender.recommend import item_card

    found = item_card(ctx.kb, qid)  # type: ignore[arg-type]
    lines = [display(ctx, found.qid)]
    if found.description:
        lines.append(found.description)
    for role, names in found.people:
        shown = [name for name in names if not BARE_QID.match(name)]  # never a bare QID to a user
        if shown:
            lines.append(msg.DETAILS_PEOPLE.format(role=role.capitalize(), names=", ".join(shown)))
    if found.genres:
        lines.append(msg.DETAILS_GENRES.format(names=", ".join(found.genres)))
    lines.extend(msg.DETAILS_LINK.format(site=site, url=url) for site, url in found.links)
    reply = "\n".join(lines) if len(lines) > 1 else msg.DETAILS_NONE.format(title=lines[0])
    return reply, found.image


def on_trailer(ctx: TurnContext) -> Outcome:
    """The trailer (or a preview / search link) of the item on screen."""
    reply = trailer_reply(ctx, ctx.state.focus)  # type: ignore[arg-type]
    return Outcome(reply, choices=card_choices(ctx.state.focus), events=[Event.QUESTION, Event.RECOMMENDATION])


def trailer_reply(ctx: TurnContext, qid: str) -> str:
    """The trailer of ``qid`` (a card's item or a suggested one), else a preview or search link."""
    from recommender.recommend import item_card

    found = item_card(ctx.kb, qid)  # type: ignore[arg-type]
    title = display(ctx, found.qid)
    if found.trailer:
        return msg.TRAILER.format(title=title, url=found.trailer)
    return found.preview_note or msg.TRAILER_NONE.format(title=title, url=found.search_url)


def on_why(ctx: TurnContext) -> Outcome:
    """Why the item on screen is recommended (the paths from what the user likes)."""
    from recommender.explain import explain_text

    qid = ctx.state.focus
    recommender = ctx.domain.recommender
    reasons = recommender.explain(profile_of(ctx), qid)  # type: ignore[arg-type]
    title = display(ctx, qid)
    sentence = explain_text(recommender, reasons, item=qid) if reasons else ""  # type: ignore[arg-type]
    reply = msg.WHY.format(title=title, reasons=sentence) if sentence else msg.WHY_NONE.format(title=title)
    return Outcome(reply, choices=card_choices(qid), events=[Event.RECOMMENDATION, Event.QUESTION])


def on_stop(ctx: TurnContext) -> Outcome:
    """'stop': the list is closed."""
    state = ctx.state
    state.rec_list, state.rec_pos, state.pending = [], 0, None
    return Outcome(msg.REC_STOPPED, events=[Event.RECOMMENDATION])


def on_card_fallback(ctx: TurnContext) -> Outcome:
    """Not understood while a card is on screen: say so and show its buttons again."""
    return Outcome(
        msg.FALLBACK_IN_RECOMMENDATION.format(title=display(ctx, ctx.state.focus)),
        choices=card_choices(ctx.state.focus),
        events=[Event.RECOMMENDATION, Event.QUESTION],
    )
