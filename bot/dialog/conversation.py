"""Conversation acts outside the tasks: /start, domain switches, help, small talk, fallbacks, stale buttons."""

from __future__ import annotations

from bot import messages as msg
from bot.dialog.acts import PREFERENCE_QUESTIONS, Outcome, SuggestionQuestion
from bot.dialog.context import TurnContext
from bot.dialog.questions import QUESTION_LIFESPAN, close_questions, not_understood
from bot.dialog.recommendations import card, on_card_fallback
from bot.dialog.suggest import suggest
from bot.turns import Choice
from logs.schema import Event
from nlu.phrasings import BYE, THANKS
from nlu.understand import DOMAIN_WORDS
from recommender.schema import Domain


def _reset_dialog(ctx: TurnContext) -> None:
    """A new session: no open question, no list, no constraint of the session ("not X this time")."""
    from bot.dialog.constraints import drop_session_constraints

    ctx.state.pending = None
    ctx.state.rec_list, ctx.state.rec_pos = [], 0
    drop_session_constraints(ctx.state)


def on_switch_domain(ctx: TurnContext) -> Outcome:
    """'/book', 'let's talk about music', a domain button: the open question is settled aloud."""
    domain = Domain(ctx.parse.switch_to or ctx.state.domain)
    outcome = Outcome("", settled=True)
    notes = enter_domain(ctx, domain, outcome)
    outcome.text = "\n".join([*notes, msg.DOMAIN_SWITCHED.format(nouns=msg.DOMAIN_NOUNS[domain])])
    return outcome


def enter_domain(ctx: TurnContext, domain: str, outcome: Outcome) -> list[str]:
    """Move the conversation to ``domain``: an open question is settled (what it had stored is logged in
    ``outcome``), the list closed, the contexts cleared; returns the notes saying what was settled."""
    notes = close_questions(ctx, outcome)
    ctx.state.domain = Domain(domain)
    _reset_dialog(ctx)
    # the other domain's follow-up contexts would make the classifier hear the new domain's first words as
    # answers to its list ("no horror pls" heard as "stop the list"): a new domain starts as /start does
    ctx.state.contexts.clear()
    ctx.state.logged_contexts = ()
    return notes


def on_start(ctx: TurnContext) -> Outcome:
    """/start: the welcome, the domain buttons; open questions are settled aloud (with
    ``DialogConfig.start_keeps_dialog``, they stay open, and the list and contexts too)."""
    state = ctx.state
    outcome = Outcome("", settled=True)
    notes: list[str] = []
    if not ctx.config.start_keeps_dialog:
        notes = close_questions(ctx, outcome)
        _reset_dialog(ctx)
        state.contexts.clear()
    choices = tuple(Choice(msg.DOMAIN_NOUNS[d].capitalize(), f"dom:{d}") for d in DOMAIN_WORDS)
    ask, need = msg.WELCOME_ASK[state.domain], ctx.config.min_preferences
    ready = msg.WELCOME_READY_ONE if need <= 1 else msg.WELCOME_READY_MANY
    welcome = msg.WELCOME.format(
        nouns=msg.DOMAIN_NOUNS[state.domain],
        example=msg.WELCOME_EXAMPLES[state.domain],
        ready=ready.format(min_prefs=need, ask=ask),
    )
    outcome.text, outcome.choices = "\n".join([*notes, welcome]), choices
    return outcome


def on_help(ctx: TurnContext) -> Outcome:
    """Help (the open question again, or items to rate while the profile is small)."""
    state = ctx.state
    asks_what_to_rate = ctx.parse.what_to_rate
    outcome = Outcome("" if asks_what_to_rate else msg.HELP.format(domain=state.domain))
    if state.pending is not None:
        outcome.text += "\n" + state.pending.question
        outcome.choices = state.pending.choices
    elif asks_what_to_rate or len(state.profile()) < ctx.config.min_preferences:
        suggest(ctx, outcome)
    return outcome


def on_fallback(ctx: TurnContext) -> Outcome:
    """Not understood: said once, the open question kept for its lifespan (never asked again word for word
    in a loop), the rate menu's suggestions, or an invitation."""
    state = ctx.state
    pending = state.pending
    if isinstance(pending, PREFERENCE_QUESTIONS):  # said once, the question still open, then dropped aloud
        return not_understood(ctx, pending, msg.NOT_UNDERSTOOD)
    if isinstance(pending, SuggestionQuestion) and pending.ignored + 1 >= QUESTION_LIFESPAN:
        state.pending = None  # the bot's own suggestion, ignored twice: dropped, the chat goes on
        return Outcome(msg.FALLBACK.format(item=msg.ITEM_NOUNS[state.domain]))
    if isinstance(pending, SuggestionQuestion):
        pending.ignored += 1
    if pending is not None and pending.question:
        return Outcome(msg.FALLBACK_IN_QUESTION.format(question=pending.question), choices=pending.choices)
    if ctx.parse.rate_menu and state.focus is None:
        outcome = Outcome("")
        suggest(ctx, outcome)
        return outcome
    if state.focus is not None:  # a list is open: what the card takes, and its buttons (the list goes on)
        return on_card_fallback(ctx)
    template = msg.OFF_TOPIC if ctx.parse.off_topic else msg.FALLBACK  # "what's the weather like?": what it talks about
    return Outcome(template.format(item=msg.ITEM_NOUNS[state.domain]))


def on_smalltalk(ctx: TurnContext) -> Outcome:
    """Small talk gets its canned answer; with a card on screen, the card is shown again, except after a
    goodbye, which closes the list (its items stay available: "more" later starts a new one) and drops the
    open question (issue 22-G)."""
    state = ctx.state
    template = msg.SMALLTALK.get(ctx.parse.intent, msg.SMALLTALK_DEFAULT)
    outcome = Outcome(template.format(item=msg.ITEM_NOUNS[state.domain], nouns=msg.DOMAIN_NOUNS[state.domain]))
    if ctx.parse.intent == BYE:
        state.rec_list, state.rec_pos = [], 0
        if state.pending is not None:  # the user leaves: the open question is dropped aloud, nothing stored
            notes = close_questions(ctx, outcome)
            state.pending = None
            outcome.settled = True
            outcome.text = "\n".join([*notes, outcome.text])
        return outcome
    if state.focus is not None and ctx.parse.intent == THANKS:
        # "thanks!", "cheers mate" at a card ends a chat more often than it asks for the card again: a human
        # recommender says "you're welcome" and does not push the item again; the list stays open, so a rating
        # or "more" next goes on with it (issue 22-R)
        outcome.text = "\n".join((outcome.text, msg.LIST_KEPT))
        return outcome
    if state.focus is not None:  # a list is open: answer, then show the card again
        shown = card(ctx, [Event.RECOMMENDATION, Event.QUESTION])
        shown.text = outcome.text + "\n" + shown.text
        return shown
    return outcome


def on_empty(ctx: TurnContext) -> Outcome:
    """A message without letters ("?!?", "👍👍")."""
    return Outcome(msg.EMPTY_INPUT)


def on_no_item_on_screen(ctx: TurnContext) -> Outcome:
    """'why?' or 'details' with no recommendation on screen."""
    return Outcome(msg.NO_ITEM_ON_SCREEN)


def on_stale(ctx: TurnContext) -> Outcome:
    """A button of an older question (the open one is shown again) or of a card no longer current."""
    payload, pending = ctx.parse.payload, ctx.state.pending
    if payload is not None and payload.stamp is not None and payload.stamp != str(getattr(pending, "stamp", None)):
        outcome = Outcome(msg.STALE_QUESTION)
        if pending is not None and pending.question:
            outcome.text += "\n" + pending.question
            outcome.choices = pending.choices
        return outcome
    return Outcome(msg.STALE_LIST, choices=(Choice(msg.RECOMMEND_AGAIN, "more"),))
