"""Recommendation lists: PageRank with priors over the profile, one card at a time, and the card's
acts (like/dislike/skip, why, details, trailer, stop)."""

from __future__ import annotations

from bot import messages as msg
from bot.dialog.acts import Outcome
from bot.dialog.context import TurnContext
from bot.dialog.preferences import NEW_PREFERENCE_EVENTS, process, tasks
from bot.dialog.render import BARE_QID, card_choices, details, display
from bot.dialog.suggest import profile_of, suggest
from bot.turns import Choice
from logs.schema import Event

MAX_SKIPPED = 100
"""Skipped items remembered per domain and left out of the next lists (the oldest are forgotten)."""


def on_recommend(ctx: TurnContext) -> Outcome:
    """A new list (with enough preferences; else items to rate)."""
    state = ctx.state
    state.pending = None
    have = len(state.profile())
    if have < ctx.config.min_preferences:
        outcome = Outcome(
            msg.NEED_MORE.format(min_prefs=ctx.config.min_preferences, have=have), events=[Event.RECOMMENDATION]
        )
        suggest(ctx, outcome)
        return outcome
    result = ctx.domain.recommender.recommend(
        profile_of(ctx), k=ctx.config.list_size, exclude=state.skipped.get(state.domain, ())
    )
    state.pagerank_cycle += 1
    items = [scored.qid for scored in result.items]
    if not items:
        state.rec_list, state.rec_pos = [], 0
        return Outcome(msg.NO_RECOMMENDATION, events=[Event.RECOMMENDATION])
    state.number_recommendation_list += 1
    state.rec_list, state.rec_pos = items, 0
    outcome = card(ctx, [Event.QUESTION, Event.RECOMMENDATION])
    if result.fallback_reason:
        reason = msg.FALLBACK_REASONS.get(result.fallback_reason, msg.FALLBACK_REASON_DEFAULT)
        outcome.text = (
            msg.FALLBACK_POPULAR.format(reason=reason, nouns=msg.DOMAIN_NOUNS[state.domain]) + "\n" + outcome.text
        )
    return outcome


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


def _skip_current(ctx: TurnContext) -> Outcome:
    state = ctx.state
    outcome = Outcome("")
    if state.focus is not None:
        skipped = state.skipped.setdefault(state.domain, [])
        skipped[:] = [q for q in skipped if q != state.focus][-(MAX_SKIPPED - 1) :] + [state.focus]
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
