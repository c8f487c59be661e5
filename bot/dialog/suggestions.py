"""Active preference elicitation (issue 13): the successor study's suggestion protocol in the dialog.

Once the user has given :data:`bot.suggestion.FREE_TEXT_PREFERENCES` preferences (stored, or stated in
that many messages), every turn that stores a preference, answers a suggestion or skips a question
ends with one more item to rate, chosen by the domain's elicitation strategy
(``recommender.elicitation.Elicitor``): "Do you like Scarface?", with like / dislike / skip buttons
in mixed mode (``sugg:+|-|skip:<QID>@<stamp>``) and the same words in NL mode. The open question is a
:class:`~bot.dialog.acts.SuggestionQuestion`; the turn's answer was read by
``nlu.understand`` (``TurnParse.suggestion``, ``nlu.suggestion_answer``):

- like / dislike ("I like it", "Yes, I love it", "I don't like this movie"): the item is stored, logged
  as the study logs it (intent ``preference``, the QID in ``recognizedObjects``); other things named in
  the same message are new preferences; role words about the item ("and I like the actors",
  "I don't like the director") ask "Do you like all of them: A, B?" (a yes is ``preference - yes``);
- skip ("Skip", "I don't know it", "I haven't seen it"): intent ``skip``, the next item comes;
- a bare name right after a rating ("I love this film", then "Crime Film") is that rating's follow-up: stored
  with its polarity (``preference - disambiguation``; the rated item is the turn's ``last_stored``,
  ``View.rated``), as after a typed preference;
- a new title ("I like Toy Story") is a new preference (``preferences.on_preference``) and ends the
  suggestion; "suggest me a movie" starts recommendations and ends it; anything else leaves it open
  (a fallback shows it again).

An item once suggested is never suggested again (whatever the answer). The bot stops after
:data:`bot.suggestion.MAX_RATED_SUGGESTIONS` rated suggestions. The turn that asks logs the events
``question, suggestion``. Without an elicitor for the domain (strategy ``none``) nothing here runs.
"""

from __future__ import annotations

import dataclasses

from bot import messages as msg
from bot.dialog.acts import Outcome, PreferenceTask, SuggestionQuestion
from bot.dialog.context import TurnContext
from bot.dialog.questions import QUESTION_LIFESPAN
from bot.dialog.render import details, display, stamp
from bot.dialog.role_values import ask_role_values
from bot.turns import Choice
from logs.schema import Event, Intent
from recommender.elicitation import ElicitationRequest

MAX_SUGGESTED = 200
"""Suggested items remembered per domain (the oldest are forgotten)."""


def on_answer(ctx: TurnContext) -> Outcome:
    """The answer to the open suggestion: a rating (with additions), role words, or a skip."""
    state, parse = ctx.state, ctx.parse
    question = state.pending
    if not isinstance(question, SuggestionQuestion):
        return Outcome(msg.SKIPPED)
    state.pending = None
    answer = parse.suggestion
    if answer is None or answer.kind == "skip":  # "/skip", the skip button, "I haven't seen it"
        from bot.dialog.constraints import remember_skipped

        remember_skipped(state, question.qid)  # an answered suggestion never comes back as a recommendation
        outcome = Outcome(msg.SUGGESTION_SKIPPED.format(title=display(ctx, question.qid)), settled=True)
        ask_next(ctx, outcome)
        return outcome
    outcome = Outcome("", events=[Event.PREFERENCE], settled=True)
    stored = []
    if answer.polarity in ("+", "-"):
        state.profile()[question.qid] = {"polarity": answer.polarity, "role": None}
        ratings = state.suggestion_ratings
        ratings[state.domain] = ratings.get(state.domain, 0) + 1
        outcome.objects.append((question.qid, answer.polarity))
        # the rated item is what the next turn may refine: "Family Film" after "I love this film" is what about it
        state.last_stored.append(
            PreferenceTask(mention=display(ctx, question.qid), candidates=[question.qid], polarity=answer.polarity)
        )
        stored.append(f"{msg.POLARITY_MARKS[answer.polarity]} {display(ctx, question.qid)}")
    if stored:
        outcome.text = msg.STORED.format(items=", ".join(stored))
    if answer.others:  # "I don't like it, but I like Jason Statham": the other names are preferences
        from bot.dialog.preferences import FOLLOW_UP_EVENTS, process, tasks

        spans = set(answer.others)
        named = [r for r in parse.readings if (r.mention.start, r.mention.end) in spans]
        queue = [t for t in tasks(ctx, named) if t.qid != question.qid]
        extra = Outcome("")
        process(ctx, queue, extra, FOLLOW_UP_EVENTS)
        outcome.objects.extend(extra.objects)
        outcome.text = "\n".join(t for t in (outcome.text, extra.text) if t)
        if state.pending is not None:
            outcome.choices, outcome.card = extra.choices, True
            outcome.events.extend(e for e in extra.events if e not in outcome.events)
            outcome.webhook_contexts.update(extra.webhook_contexts)
    if state.pending is None:
        ask_role_values(ctx, question.qid, answer.roles, outcome)
    if not outcome.text:
        outcome.text = msg.SKIPPED
    ask_next(ctx, outcome)
    return outcome


def on_refine(ctx: TurnContext) -> Outcome:
    """A bare name refining the preference stored just before the suggestion was asked ("Horror Film"
    after "I don't like horror films"): the preference is refined (``preferences.refine``) and the
    suggestion asked again, unless the refinement asks a question of its own."""
    from bot.dialog.preferences import refine

    state = ctx.state
    question = state.pending
    if not isinstance(question, SuggestionQuestion) or not ctx.refinable:
        return _ask_again(ctx, Outcome(msg.FALLBACK_IN_QUESTION.format(question=getattr(question, "question", ""))))
    outcome = refine(ctx)
    if state.pending is None:
        state.pending = question
    if state.pending is question:
        _ask_again(ctx, outcome)
    return outcome


def on_card_question(ctx: TurnContext) -> Outcome:
    """Why / details / trailer about the suggested item: answered, then the suggestion asked again."""
    from bot.dialog.cards import details_reply, fact_reply, trailer_reply

    question = ctx.state.pending
    if not isinstance(question, SuggestionQuestion):
        return Outcome(msg.NO_ITEM_ON_SCREEN)
    title = display(ctx, question.qid)
    about = ctx.parse.about_suggested
    if about == Intent.REC_WHY:
        text = msg.SUGGESTION_WHY.format(title=title, nouns=msg.SUGGEST_NOUNS[ctx.state.domain])
    elif about == Intent.REC_TRAILER:
        text = trailer_reply(ctx, question.qid)
    else:
        fact = fact_reply(ctx, question.qid, ctx.parse.card_fact) if ctx.parse.card_fact else None
        if fact is not None:  # "who is it by?" about the suggested item
            return _ask_again(ctx, Outcome(fact))
        text, image = details_reply(ctx, question.qid)
        return _ask_again(ctx, Outcome(text, image=image))
    return _ask_again(ctx, Outcome(text))


def _ask_again(ctx: TurnContext, outcome: Outcome) -> Outcome:
    """The open suggestion's question (and buttons) after the reply."""
    question = ctx.state.pending
    if isinstance(question, SuggestionQuestion):
        outcome.text = "\n".join(t for t in (outcome.text, question.question) if t)
        outcome.choices = outcome.choices or question.choices
        outcome.events.extend(e for e in (Event.QUESTION, Event.SUGGESTION) if e not in outcome.events)
    return outcome


def after_turn(ctx: TurnContext, outcome: Outcome, *, waiting: SuggestionQuestion | None = None) -> None:
    """The protocol's step after every handler: count preference messages, end the open suggestion
    when recommendations start, ask the next one after a stored preference or a settled skip.

    Args:
        waiting: the suggestion open when the turn came. When the turn said something else (another title)
            and left it unanswered, it waits and is asked again, never replaced by another item (issue 22-D:
            a fresh user's "Do you like X?" changed to Y, then Z, before any answer)."""
    state, parse = ctx.state, ctx.parse
    if ctx.config.elicitation is None:
        return
    # the domain's elicitor is built (it reads the released studies) only once a suggestion can be
    # asked (ask_next): the first preference turns of a start do not pay for it
    if parse.intent == Intent.PREFERENCE and (parse.suggestion is None or parse.suggestion.kind == "new"):
        counts = state.preference_messages
        counts[state.domain] = counts.get(state.domain, 0) + 1
    if isinstance(state.pending, SuggestionQuestion) and (
        state.focus is not None or parse.intent.startswith("request_recommendation")
    ):
        state.pending = None  # recommendations started: the suggestion ends
        return
    if state.pending is not None or state.focus is not None or Event.SUGGESTION in outcome.events:
        return
    stored = bool(outcome.objects) and not parse.intent.startswith("request_recommendation")
    unanswered = (
        waiting is not None
        and waiting.ignored + 1 < QUESTION_LIFESPAN
        and waiting.qid not in state.profile()
        and (parse.suggestion is None or parse.suggestion.kind == "new")
    )
    if unanswered and (stored or parse.intent == Intent.PREFERENCE) and waiting is not None:
        ctx.state.pending = dataclasses.replace(waiting, ignored=waiting.ignored + 1)  # the same question waits
        _ask_again(ctx, outcome)
        outcome.card = True
    elif stored or parse.intent == Intent.PREFERENCE or (parse.intent == Intent.SKIP and outcome.settled):
        ask_next(ctx, outcome)  # after a preference (stored, or stated: it counts), an answer or a skip


def ask_next(ctx: TurnContext, outcome: Outcome) -> bool:
    """Ask about the next suggested item, if the protocol calls for one now; True if asked."""
    from bot.suggestion import FREE_TEXT_PREFERENCES, MAX_RATED_SUGGESTIONS

    state = ctx.state
    if ctx.config.elicitation is None or state.pending is not None or state.focus is not None:
        return False
    domain = state.domain
    profile = state.profile()
    if len(profile) < FREE_TEXT_PREFERENCES and state.preference_messages.get(domain, 0) < FREE_TEXT_PREFERENCES:
        return False
    if state.suggestion_ratings.get(domain, 0) >= MAX_RATED_SUGGESTIONS:
        return False
    elicitor = ctx.config.elicitation(domain)
    if elicitor is None:
        return False
    suggested = state.suggested.setdefault(domain, [])
    request = ElicitationRequest(
        liked=tuple(q for q, p in profile.items() if p["polarity"] == "+"),
        disliked=tuple(q for q, p in profile.items() if p["polarity"] == "-"),
        exclude=frozenset(suggested) | frozenset(state.skipped.get(domain, ())),
        user=ctx.turn.user_id,
        step=len(suggested),
    )
    qid = elicitor.suggest(request)
    if qid is None:
        return False
    first = not suggested
    suggested.append(qid)
    del suggested[:-MAX_SUGGESTED]
    title = display(ctx, qid)
    question = msg.SUGGESTION_ASK.format(title=title)
    lines = [msg.SUGGESTION_START.format(nouns=msg.SUGGEST_NOUNS[domain])] if first else []
    lines.append(question)
    choices: tuple[Choice, ...] = ()
    number = None
    if ctx.turn.interaction_type == "mixed":
        choices, number = stamp(state, [Choice(label, f"sugg:{said}:{qid}") for label, said in msg.SUGGESTION_BUTTONS])
    else:
        lines.append(msg.SUGGESTION_HINT)
    state.pending = SuggestionQuestion(qid=qid, question=question, stamp=number, choices=choices)
    outcome.text = "\n".join(t for t in (outcome.text, *lines) if t)
    if choices:
        outcome.choices = choices
    outcome.image = outcome.image or details(ctx.kb, qid).get("image")
    outcome.card = True
    outcome.events.extend(e for e in (Event.QUESTION, Event.SUGGESTION) if e not in outcome.events)
    return True


__all__ = [
    "after_turn",
    "ask_next",
    "on_answer",
    "on_card_question",
    "on_refine",
]
