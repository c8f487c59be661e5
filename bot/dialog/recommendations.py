"""Recommendation lists: PageRank with priors over the profile, one card at a time, and the card's
acts (like/dislike/skip, why, details, trailer, stop).

A list respects what the person said (issue 23): the profile's dislikes and the session's constraints
leave items out (said once: "I left out horror films, as you asked"), items already answered never come
back, and a "why" never cites a contradicted reason and names a conflict that remains
(``bot/dialog/constraints.py``, ``recommender.constraints``). Cards are rendered by ``bot/dialog/cards.py``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot import messages as msg
from bot.dialog import constraints, questions, render
from bot.dialog.acts import ConfirmQuestion, ItemQuestion, Outcome, PreferenceTask
from bot.dialog.cards import card_buttons, card_more, card_of, card_title, details_reply, fact_reply, trailer_reply
from bot.dialog.constraints import MAX_SKIPPED  # noqa: F401 (re-exported)
from bot.dialog.context import TurnContext
from bot.dialog.preferences import NEW_PREFERENCE_EVENTS, process, tasks
from bot.dialog.questions import RoleQuestion, close_questions
from bot.dialog.render import display, has_name, name_of
from bot.dialog.requests import asked_kinds, required_seeds, store_request
from bot.dialog.revisions import unstore_for_session
from bot.dialog.suggest import profile_of, suggest
from bot.turns import Choice
from logs.schema import Event
from nlu.requests import asks_next
from nlu.textnorm import fold
from nlu.turn_words import REFERENCE_WORDS
from nlu.understand import Reading, TurnParse
from recommender.constraints import CREATOR_PIDS, PART_PIDS
from recommender.explain import Reason


def on_recommend(ctx: TurnContext) -> Outcome:
    """A list from whatever the profile holds (one preference is enough in chat and Telegram; a study's
    replay needs its minimum). A request that names items or people ("more like X", "songs from Y", "I
    liked X, recommend some more?") stores them as likes first and the list is based on them
    (``bot/dialog/requests.py``). A list asked for over a card ("more", "recommend me something") leaves
    that card out, so "more" shows more. An open which-one or did-you-like question stays open beside the
    list, said once; a role question is settled first (its person stored without a role)."""
    state, request = ctx.state, ctx.parse.request
    question = state.pending
    outcome = Outcome("", events=[Event.RECOMMENDATION])
    if isinstance(question, RoleQuestion) and question.task.polarity in ("+", "-"):
        # the person whose role was asked is stored (without a role) before the list, which it is evidence
        # for: "i love X" -> "as artist or lyricist?" -> "recommend me something" recommends from X (fresh5)
        outcome.text = "\n".join(close_questions(ctx, outcome))
        outcome.settled, question = True, None
    if isinstance(question, ItemQuestion | ConfirmQuestion) and _answer_first(ctx, question):
        # "i loved heat" -> "Which heat?" -> "recommend me something" with nothing else liked: the question's answer
        # is what to recommend from, so it is asked again, not "Tell me one thing you like first" (fresh3 F3-14)
        question.asked_first = True  # once: a second request goes on as without it, never a loop
        text = msg.ANSWER_FIRST.format(mention=question.task.mention, question=question.question)
        return Outcome(text, choices=question.choices, card=True, settled=True)
    state.pending = None
    _remember_skipped(ctx)  # a new list asked for over a card: that card was seen, the new list has others
    seeds = store_request(ctx, outcome) if request is not None else []
    if not seeds and (request is None or not (request.seeds or request.refers_back)):
        seeds = asked_kinds(ctx)  # "recommend me some pop", "anything cozy?": the genre is what the list is
    new_list(ctx, outcome, seeds=seeds, require=required_seeds(ctx, seeds))
    # an open which-one or did-you-like question is not settled by the list: it stays open for its lifespan,
    # said once after the card (bot.dialog.questions.keep_ignored_question), so "hated X" -> "Which X?" ->
    # "recommend me something" loses no opinion (fresh6 fault 7)
    return outcome


def _answer_first(ctx: TurnContext, question: ItemQuestion | ConfirmQuestion) -> bool:
    """A request with nothing liked and nothing named while a question about a like is open: its answer is the one
    thing to recommend from (a chat's minimum of one preference; a study's protocol asks for more)."""
    request = ctx.parse.request
    named = request is not None and (request.seeds or request.refers_back)
    unanswered = not question.asked_first and question.task.polarity == "+" and not named
    return unanswered and ctx.config.min_preferences <= 1 and not ctx.state.profile()


def new_list(ctx: TurnContext, outcome: Outcome, *, seeds: Sequence[str] = (), require: Sequence[str] = ()) -> None:
    """A new recommendation list into ``outcome``, its first card shown, saying what it is based on.

    With fewer preferences than the configuration's minimum, no list: what to tell, and items to rate.

    Args:
        ctx: the turn.
        outcome: the reply so far (a request's "Got it" line, notes): the list is added after it.
        seeds: the items or people a request named ("more like X"), first named first: the list says it
            is based on them. This is the one place where a request's seeds meet the recommender: they go
            to ``Recommender.recommend(..., seeds=...)`` (issue 23: priors beside the profile's likes,
            never returned), and the list leaves out what the profile's dislikes and the session's
            constraints leave out (said once: ``constraints.left_out_note``).
        require: the seeds every item of the list must have (``requests.required_seeds``: "a comedy",
            "songs by Adele"), while some item has them.
    """
    state = ctx.state
    have, need = len(state.profile()) + sum(q not in state.profile() for q in seeds), ctx.config.min_preferences
    # with nothing liked in chat (a minimum of one): popular items of the domain, said so, rather than no list (issue
    # 22: a request always shows something); a study's minimum (3) is its protocol and stays
    if have < need and need > 1:  # a genre asked for ("an action movie") counts: a seed the profile does not keep
        outcome.text = _lines(outcome.text, msg.NEED_MORE.format(min_prefs=need, have=have))
        state.wants_list = True  # a name alone next is what to recommend from (nlu View.wants_list)
        suggest(ctx, outcome)
        return
    result = ctx.domain.recommender.recommend(
        profile_of(ctx),
        k=ctx.config.list_size,
        exclude=constraints.list_exclusions(ctx),
        seeds=tuple(seeds),
        avoid=constraints.session_avoid(ctx),
        require=tuple(require),
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
    if result.unmet:  # "anything else by X?" with nothing else by X: said, not a silent other list (fresh5)
        names = " and ".join(display(ctx, q) for q in result.unmet if has_name(ctx.kb, q))
        nouns = msg.DOMAIN_NOUNS[state.domain]
        basis = _lines(msg.REQUIRE_UNMET.format(names=names, nouns=nouns) if names else "", basis)
    outcome.text = _lines(outcome.text, constraints.left_out_note(ctx, result), basis, shown.text)
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
    """The card of the item on screen ("2/5: Dunkirk (2017), by Christopher Nolan - ... Do you like
    it?") with its buttons and image."""
    state = ctx.state
    qid = state.focus
    assert qid is not None
    found = card_of(ctx, qid)
    extra = f" - {found.description}" if found.description else ""
    text = msg.REC_CARD.format(
        position=state.rec_pos + 1,
        total=len(state.rec_list),
        title=card_title(ctx, qid, found),
        extra=extra,
        more=card_more(found),
    )
    return Outcome(text, choices=card_buttons(ctx, qid, found), image=found.image, card=True, events=events)


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
    state.moved_on = True  # "oops no, i didn't like it" next turn is about the card before
    shown = card(ctx, [])
    outcome.events.extend(events_next)
    outcome.text = (outcome.text + "\n" if outcome.text else "") + shown.text
    outcome.choices, outcome.image, outcome.card = shown.choices, shown.image, True


def _remember_skipped(ctx: TurnContext) -> None:
    """The item on screen is passed over: left out of the next lists (the oldest are forgotten)."""
    state = ctx.state
    if state.focus is not None:
        constraints.remember_skipped(state, state.focus)


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
    if parse.previous_card is not None and focus is not None and state.rec_pos > 0:
        return _revise_previous_card(ctx, parse.previous_card)
    state.pending = None  # an open question about another entity is dropped: the user moved on
    outcome = Outcome("")
    named = tasks(ctx, parse.readings)
    others = [t for t in named if t.qid != focus]
    own = [t for t in named if t.qid == focus]
    if own or not others:
        said = parse.message_polarity.value if parse.message_polarity else "0"
        # its own reading's opinion first; without one, the message's answer to "Do you like it?" ("not bad, i've
        # seen it", "read it, meh": the lean of a hedge, issue 22-F)
        referred = not own or set(fold(own[0].mention).split()) <= REFERENCE_WORDS  # "it", not "You" of its title
        polarity = own[0].polarity if own and (own[0].polarity in ("+", "-") or not referred) else said
        if parse.yes_no is not None:  # the answer to "Do you like it?"
            polarity = "-" if parse.yes_no == "no" else "+"
        if (
            polarity not in ("+", "-")
            and not others
            and parse.hedged
            and focus is not None
            and ctx.config.hedge_questions
        ):
            # a hedge ("meh", "read it, it was ok"): asked, not guessed (issue 22); the card stays on screen
            questions.ask_confirm(ctx, PreferenceTask(display(ctx, focus), [focus]), [], outcome)
            return outcome
        if polarity not in ("+", "-") and not others:
            # no opinion ("I haven't seen it"): nothing is stored, the list goes on as for a skip
            skipped = _skip_current(ctx)
            skipped.text = msg.NO_OPINION_SKIPPED.format(title=display(ctx, focus)) + "\n" + skipped.text
            return skipped
        if polarity in ("+", "-") and focus is not None:
            state.profile()[focus] = {"polarity": polarity, "role": None}
            outcome.objects.append((focus, polarity))
            constraints.drop_session_constraints(state, [focus])
    if others:
        process(ctx, others, outcome, NEW_PREFERENCE_EVENTS)
        constraints.drop_session_constraints(state, [q for q, _p in outcome.objects])
    if any(p == "-" for _q, p in outcome.objects):
        constraints.apply_to_rest(ctx)  # a new dislike leaves out the rest of the list's items it covers
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


def _revise_previous_card(ctx: TurnContext, polarity: str) -> Outcome:
    """The card shown before the one on screen takes ``polarity`` ("oops no, i meant i didn't like the previous
    one"); the card on screen stays, unrated (fresh tester, faults 1 and 8)."""
    state = ctx.state
    previous = state.rec_list[state.rec_pos - 1]
    state.profile()[previous] = {"polarity": polarity, "role": None}
    constraints.drop_session_constraints(state, [previous])
    if polarity == "-":
        constraints.apply_to_rest(ctx)  # the rest of the list loses what the new dislike covers
    revised = msg.REVISED.format(items=f"{msg.POLARITY_MARKS[polarity]} {display(ctx, previous)}")
    if state.focus is None:  # the list ran out of what is left
        outcome = Outcome(revised, events=[Event.PREFERENCE])
    else:
        outcome = card(ctx, [Event.RECOMMENDATION, Event.QUESTION, Event.PREFERENCE])
        outcome.text = revised + "\n" + outcome.text
    outcome.objects = [(previous, polarity)]
    return outcome


def on_skip_item(ctx: TurnContext) -> Outcome:
    """'skip' on a card: the next one (skipped items are left out of the next lists); a skip said in words
    ("meh", "nah not my thing", "... lol. skip") says so, nothing being stored (issue 22-D)."""
    focus = ctx.state.focus
    skipped = _skip_current(ctx)
    typed = ctx.parse.payload is None and fold(ctx.parse.text).strip(" .!") not in _BARE_SKIPS
    if typed and focus is not None:
        skipped.text = _lines(msg.CARD_SKIPPED.format(title=display(ctx, focus)), skipped.text)
    if typed and ctx.state.focus is None and asks_next(ctx.parse.text) is not None:
        # "what else have you got" at the last card asks for more, not for the end: a new list (issue 22-R)
        more = Outcome(msg.CARD_SKIPPED.format(title=display(ctx, focus)) if focus is not None else "")
        more.events.append(Event.RECOMMENDATION)
        new_list(ctx, more)
        return more
    return skipped


_BARE_SKIPS = frozenset({"skip", "next", "/skip", "skip it", "next one", "pass"})
"""The skip typed as the button says it: no note."""


def on_details(ctx: TurnContext) -> Outcome:
    """The card's details, or those of an item named outside a list ("details of Inception", no
    buttons, nothing stored); "who is it by?" / "when is it from?" get that fact of the card's item."""
    named = ctx.parse.details_of
    qid = named or ctx.state.focus
    assert qid is not None
    fact = fact_reply(ctx, qid, ctx.parse.card_fact) if ctx.parse.card_fact and named is None else None
    if fact is not None:
        reply, image = fact, None
    else:
        reply, image = details_reply(ctx, qid)
    if named is not None:
        return Outcome(reply, image=image)
    return Outcome(
        reply,
        choices=card_buttons(ctx, ctx.state.focus),
        image=image,
        events=[Event.RECOMMENDATION, Event.QUESTION],
    )


def on_trailer(ctx: TurnContext) -> Outcome:
    """The trailer (or a page to listen to or read it, else a search link) of the item on screen."""
    reply = trailer_reply(ctx, ctx.state.focus)  # type: ignore[arg-type]
    return Outcome(reply, choices=card_buttons(ctx, ctx.state.focus), events=[Event.QUESTION, Event.RECOMMENDATION])


def on_why(ctx: TurnContext) -> Outcome:
    """Why the item on screen is recommended (the paths from what the user likes), never citing a
    reason the person contradicted, and naming what still speaks against it."""
    qid = ctx.state.focus
    assert qid is not None
    return Outcome(why_text(ctx, qid), choices=card_buttons(ctx, qid), events=[Event.RECOMMENDATION, Event.QUESTION])


def why_text(ctx: TurnContext, qid: str) -> str:
    """The "why?" of ``qid``: its reasons (``Recommender.explain``, minus contradicted ones) and its
    conflicts (``recommender.constraints.conflicts``) as one reply."""
    from recommender.constraints import conflicts
    from recommender.explain import explain_text

    recommender = ctx.domain.recommender
    profile = profile_of(ctx)
    avoid = constraints.session_avoid(ctx)
    reasons = why_reasons(ctx, qid)
    title = display(ctx, qid)
    sentence = explain_text(recommender, reasons, item=qid) if reasons else ""  # type: ignore[arg-type]
    against = conflict_text(ctx, conflicts(ctx.kb, profile, qid, avoid))  # type: ignore[arg-type]
    if against:
        body = sentence[:1].lower() + sentence[1:] if sentence else msg.WHY_NONE.format(title=title)
        if not sentence:
            body = body[:1].lower() + body[1:]
        return msg.WHY.format(title=title, reasons=msg.WHY_CONFLICT.format(conflicts=against, reasons=body))
    return msg.WHY.format(title=title, reasons=sentence) if sentence else msg.WHY_NONE.format(title=title)


def why_reasons(ctx: TurnContext, qid: str) -> tuple[Reason, ...]:
    """The reasons a "why" of ``qid`` gives: ``Recommender.explain`` minus those citing something the
    person rejected (a disliked value or item, a constraint of the session)."""
    from recommender.explain import uncontradicted

    profile = profile_of(ctx)
    avoided = {*profile.disliked, *(a.qid for a in constraints.session_avoid(ctx))}
    return uncontradicted(ctx.domain.recommender.explain(profile, qid), avoided)


def conflict_text(ctx: TurnContext, found: tuple[object, ...]) -> str:
    """The conflicts of an item in words ("It is a horror film, which you don't like"), or ""."""
    from recommender.constraints import Conflict
    from recommender.explain import claim_text

    parts = []
    for c in found:
        assert isinstance(c, Conflict)
        name = name_of(ctx.kb, c.value)
        if name is None:
            continue
        claim = claim_text(c.pid, name, ctx.state.domain)
        if c.disliked is not None:
            other = name_of(ctx.kb, c.disliked) or ""
            parts.append(msg.CONFLICT_CREATOR.format(claim=claim, other=other))
        elif c.avoid is not None and c.avoid.session:
            parts.append(msg.CONFLICT_SESSION.format(claim=claim))
        else:
            parts.append(msg.CONFLICT_DISLIKED.format(claim=claim))
    text = " and ".join(parts)
    return text[:1].upper() + text[1:]


def on_stop(ctx: TurnContext) -> Outcome:
    """'stop': the list is closed (and with it the constraints of the session)."""
    state = ctx.state
    state.rec_list, state.rec_pos, state.pending = [], 0, None
    constraints.drop_session_constraints(state, domain=state.domain)
    return Outcome(msg.REC_STOPPED, events=[Event.RECOMMENDATION])


def on_card_fallback(ctx: TurnContext) -> Outcome:
    """Not understood while a card is on screen: say so and show its buttons again."""
    template = msg.OFF_TOPIC_AT_CARD if ctx.parse.off_topic else msg.FALLBACK_IN_RECOMMENDATION
    return Outcome(
        template.format(title=display(ctx, ctx.state.focus)),
        choices=card_buttons(ctx, ctx.state.focus),
        events=[Event.RECOMMENDATION, Event.QUESTION],
    )


_NEGATION = re.compile(r"\b(?:no|not|without|nothing (?:with|by|from)|none of|except|no more)\b", re.IGNORECASE)
_BUT = re.compile(r"\bbut\b", re.IGNORECASE)


def negated_readings(parse: TurnParse) -> list[Reading]:
    """The names a negation governs ("no horror for now", "nothing by X for now": after "no" / "not" /
    "without" and before a "but"), whatever polarity the sentiment gave them."""
    text = parse.text
    out = []
    for reading in parse.readings:
        before = text[: reading.mention.start]
        negations = list(_NEGATION.finditer(before))
        if negations and not _BUT.search(before[negations[-1].end() :]):
            out.append(reading)
    return out


def _card_people(ctx: TurnContext, focus: str) -> list[tuple[str, str | None]]:
    """The people of the card a reference names ("that director": in that role), else its creators."""
    kb, roles = ctx.kb, ctx.parse.roles
    pid = roles[0] if roles else CREATOR_PIDS[ctx.state.domain][0]
    own = [v for p, v in kb.item_values(focus) if p == pid]
    albums = [v for p, v in kb.item_values(focus) if p in PART_PIDS] if not own and not roles else []
    return [(qid, pid) for qid in dict.fromkeys(own or [v for a in albums for p, v in kb.item_values(a) if p == pid])]


def on_session_constraint(ctx: TurnContext) -> Outcome:
    """ "no horror for now", "not Radiohead this time" (``TurnParse.this_time``): the named things are
    kept out of this session's lists, never stored; the rest of the list on screen follows at once
    (the card on screen too, when it breaks the constraint), else a new list comes when the profile
    is large enough. Other names said with a liking are preferences as usual."""
    state, parse = ctx.state, ctx.parse
    negated = negated_readings(parse)
    avoid = [r for r in parse.readings if r.polarity.value == "-" or r in negated]
    liked = [r for r in parse.readings if r not in avoid]
    added = [
        constraints.add_session_constraint(ctx, r.qid, r.stated_role if not ctx.kb.is_item(r.qid) else None)
        for r in avoid
    ]
    if not parse.readings and state.focus is not None:  # "no more of that guy please": the card's people
        added = [constraints.add_session_constraint(ctx, qid, role) for qid, role in _card_people(ctx, state.focus)]
    if not added:
        return Outcome(msg.SESSION_CONSTRAINT_NONE)
    said = msg.SESSION_CONSTRAINT.format(what=", ".join(constraints.describe(ctx, a) for a in added))
    said = "\n".join([said, *unstore_for_session(ctx, [a.qid for a in added])])  # "i meant no X this time"
    state.announced.setdefault(state.domain, []).extend(f"{a.qid}:{a.role or '*'}" for a in added)
    stored = Outcome("")
    if liked:
        process(ctx, tasks(ctx, liked), stored, NEW_PREFERENCE_EVENTS)
    head = "\n".join(t for t in (said, stored.text) if t)
    focus = state.focus
    if focus is not None:
        constraints.apply_to_rest(ctx)
        outcome = Outcome(head, objects=stored.objects)
        if constraints.breaks_any(ctx, focus):  # the card on screen goes too
            advance(ctx, outcome, [Event.RECOMMENDATION, Event.QUESTION], [Event.FINISHED_RECOMMENDATION])
        else:
            shown = card(ctx, [Event.RECOMMENDATION, Event.QUESTION])
            outcome.text = head + "\n" + shown.text
            outcome.choices, outcome.image, outcome.card, outcome.events = (
                shown.choices,
                shown.image,
                True,
                shown.events,
            )
        return outcome
    if state.pending is None and len(state.profile()) >= ctx.config.min_preferences:
        outcome = on_recommend(ctx)
        outcome.text = head + "\n" + outcome.text
        outcome.objects = stored.objects + outcome.objects
        return outcome
    return Outcome(head, choices=stored.choices, objects=stored.objects, events=stored.events)


def after_turn(ctx: TurnContext, outcome: Outcome, *, shown: str | None = None) -> None:
    """After any handler (``DialogManager._run``): a dislike stored while a list is on screen ("I don't like
    George R. R. Martin" at a card) applies at once to the rest of that list; and the list goes on (issue 22):
    when the turn rated the card on screen by its name ("yesss love the matrix 😍", heard as a preference),
    the next card comes, as after its like button; when it stored a dislike the card on screen has, the next card
    comes too; when it stored other things or said it found nothing, the card is shown again (it is still what the
    bot asks about), unless the reply asks a question of its own.

    Args:
        shown: the item of the card on screen when the turn came (None: no list was open).
    """
    state = ctx.state
    if state.focus is not None and any(p == "-" for _q, p in outcome.objects):
        constraints.apply_to_rest(ctx)
    if shown is None or state.focus != shown or outcome.card or outcome.choices or state.pending is not None:
        return  # no list, the list moved or closed, or the reply shows its own card or question
    if dict(outcome.objects).get(shown) in ("+", "-"):
        advance(
            ctx,
            outcome,
            [Event.RECOMMENDATION, Event.QUESTION, Event.PREFERENCE],
            [Event.FINISHED_RECOMMENDATION, Event.PREFERENCE, Event.RECOMMENDATION],
        )
    elif any(p == "-" for _q, p in outcome.objects) and constraints.breaks_any(ctx, shown):
        # the card on screen has what the turn just disliked ("i don't like <its actor>", answered "actor"):
        # it goes, as the rest of the list did, instead of being shown again (issue 22-G)
        advance(ctx, outcome, [Event.RECOMMENDATION, Event.QUESTION], [Event.FINISHED_RECOMMENDATION])
    elif outcome.objects or outcome.text == msg.NOTHING_FOUND:
        again = card(ctx, [])
        outcome.text = _lines(outcome.text, again.text)
        outcome.choices, outcome.image, outcome.card = again.choices, again.image, True
