"""Preference acquisition: linked mentions become preference tasks, stored or asked about in order.

"I love Christopher Nolan but not Top Gun" gives two tasks; each is stored when it is unambiguous
(one candidate, a role for a person, an opinion), else the first that needs it gets a question
(``bot/dialog/questions.py``) and the rest wait in its queue. Answers to those questions, a follow-up
that refines what the previous turn stored ("actor", "the 1998 one"), a tapped suggestion and a
skip are handled here too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot import messages as msg
from bot.dialog import questions
from bot.dialog.acts import PREFERENCE_QUESTIONS, ConfirmQuestion, ItemQuestion, Outcome, PreferenceTask, RoleQuestion
from bot.dialog.context import TurnContext
from bot.dialog.render import display
from bot.dialog.revisions import revise, revise_previous, take_replaced_opinion
from bot.dialog.role_values import ask_role_values, store_all_values
from bot.dialog.suggest import nameable_item, suggest
from bot.turns import Choice
from logs.schema import Event
from nlu.open_answer import refuses_reading
from nlu.textnorm import fold
from nlu.understand import Reading
from recommender.schema import role_name

NEW_PREFERENCE_EVENTS = (Event.QUESTION, Event.PREFERENCE, Event.DISAMBIGUATION)
"""Events of a turn that asks about a new preference (dataset order)."""
FOLLOW_UP_EVENTS = (Event.QUESTION, Event.DISAMBIGUATION)
"""Events of a follow-up answer that asks again."""


def tasks(ctx: TurnContext, readings: Sequence[Reading]) -> list[PreferenceTask]:
    """The queue of preference tasks: each linked mention with its polarity and role hint; the
    candidates offered are those a user can tell apart (``recommender.names.distinguishable``: of two
    that would read the same, the linker's better one)."""
    from recommender.names import distinguishable

    kb = ctx.kb
    out = []
    for reading in readings:
        mention = reading.mention
        roles_hint = list(getattr(mention.candidates[0], "roles", ()) or ())
        if reading.stated_role and reading.stated_role in kb.roles(mention.candidates[0].qid):
            roles_hint = [reading.stated_role]  # "Brad Pitt as an actor"
        offered = distinguishable(kb, [c.qid for c in mention.candidates]) if len(mention.candidates) > 1 else None
        out.append(
            PreferenceTask(
                mention=mention.text,
                candidates=(offered or [c.qid for c in mention.candidates])[: questions.MAX_CHOICES],
                readings=[c.qid for c in mention.candidates],  # every reading of the words
                roles_hint=roles_hint,
                ambiguous=bool(mention.ambiguous),  # one unsure candidate of part of a name is confirmed too
                polarity=reading.polarity.value,
                partial=bool(getattr(mention, "partial", False)) or reading.embedded,
                taken=bool(getattr(mention, "taken", False)),
            )
        )
    return out


def process(ctx: TurnContext, queue: list[PreferenceTask], outcome: Outcome, events: Sequence[str]) -> None:
    """Store what can be stored, in order; stop at the first task that needs a question."""
    state, kb = ctx.state, ctx.kb
    stored: list[str] = []
    took: list[tuple[str, str]] = []
    while queue:
        task = queue[0]
        if (task.ambiguous and len(task.candidates) == 1 and not task.partial) or (task.taken and not task.ambiguous):
            # no question with one option (issue 22): a full name is taken, said, and "not that one" offered;
            # so is the namesake the linker took by popularity or recency ("Joker": the 2019 film)
            task.ambiguous, task.taken = False, False
            took.append((task.qid, msg.TOOK_ONLY.format(name=display(ctx, task.qid), mention=task.mention)))
        if task.ambiguous:
            questions.ask_item(ctx, task, queue[1:], outcome, events)
            break
        qid = task.qid
        if task.role is None and not kb.is_item(qid):
            hint = task.roles_hint if len(task.candidates) == 1 else None
            roles = list(hint or kb.roles(qid))
            if len(roles) > 1 and ctx.config.role_questions:
                questions.ask_role(ctx, task, roles, queue[1:], outcome, events)
                break
            task.role = roles[0] if len(roles) == 1 else None
        if task.polarity not in ("+", "-") and qid in state.profile():
            task.polarity = state.profile()[qid]["polarity"]  # "Tom Cruise as an actor": kept opinion
        if task.polarity not in ("+", "-"):
            questions.ask_confirm(ctx, task, queue[1:], outcome)
            break
        state.profile()[qid] = {"polarity": task.polarity, "role": task.role}
        state.last_stored.append(task)
        outcome.objects.append((qid, task.polarity))
        shown = f"{msg.POLARITY_MARKS[task.polarity]} {display(ctx, qid)}"
        if shown not in stored:  # "I like Alien Alien Alien": said once
            stored.append(shown)
        queue = queue[1:]
    if not queue:
        ctx.state.pending = None
    if stored:
        left = ctx.config.min_preferences - len(state.profile())
        template = msg.STORED_NEED_MORE if left > 0 else msg.STORED_READY
        if state.focus is not None:  # a list is on screen: it goes on (no "you can ask for recommendations")
            template = msg.STORED
        prefix = template.format(items=", ".join(stored), left=left, things=msg.THING if left == 1 else msg.THINGS)
        outcome.text = prefix + ("\n" + outcome.text if outcome.text else "")
    _say_taken(ctx, [(qid, note) for qid, note in took if qid in state.profile()], outcome)


def _say_taken(ctx: TurnContext, taken: list[tuple[str, str]], outcome: Outcome) -> None:
    """Say which readings were taken without a question, and offer to refuse each: a "Not that one"
    button naming its QID (``none:<QID>``, refused once another turn came: ``refine``)."""
    if not taken:
        return
    notes = [note for _, note in taken]
    outcome.text = "\n".join([outcome.text, *notes]) if outcome.text else "\n".join(notes)
    if not outcome.choices:
        outcome.choices = tuple(
            Choice(msg.NOT_THAT_ONE if len(taken) == 1 else msg.NOT_THIS.format(name=display(ctx, qid)), f"none:{qid}")
            for qid, _ in taken
        )


def on_preference(ctx: TurnContext) -> Outcome:
    """'I love Stephen King, but not The Shining': store or ask about each mention."""
    outcome = Outcome("", events=[Event.PREFERENCE])
    pending = ctx.state.pending
    asked = pending.task if isinstance(pending, PREFERENCE_QUESTIONS) else None
    ctx.state.pending = None
    queue = tasks(ctx, ctx.parse.readings)
    # "actually scratch that, it was dumb": what was just stored (issue 22-H), or the person a role question asks about
    changed = revise_previous(ctx, asked if isinstance(pending, RoleQuestion) else None)
    outcome.objects.extend(changed)
    revised = [msg.REVISED.format(items=", ".join(f"{msg.POLARITY_MARKS[p]} {display(ctx, q)}" for q, p in changed))]
    if not queue:
        outcome.text = revised[0] if changed else msg.NOTHING_FOUND
        return outcome
    notes = revise(ctx, queue, asked=asked)  # "Heat too", "sorry, I meant Heat", "oops, the album" (issue 22)
    process(ctx, queue, outcome, NEW_PREFERENCE_EVENTS)
    notes = revised + notes if changed else notes
    outcome.text = "\n".join([outcome.text, *notes]) if notes else outcome.text
    if ctx.config.elicitation is not None and ctx.state.pending is None and ctx.parse.role_opinions:
        # the successor study's protocol: "I like Pulp Fiction for the director" -> its director, confirmed
        items = [t.qid for t in ctx.state.last_stored if ctx.kb.is_item(t.qid)]
        if items and ctx.config.elicitation(ctx.state.domain) is not None:
            ask_role_values(ctx, items[-1], ctx.parse.role_opinions, outcome)
    return outcome


def on_rate_suggestion(ctx: TurnContext) -> Outcome:
    """A tapped suggestion (payload ``rate:<polarity>:<QID>``): stored like a typed preference."""
    payload = ctx.parse.payload
    polarity, _, qid = (payload.value if payload else "").partition(":")
    kb = ctx.kb
    if polarity not in ("+", "-") or not nameable_item(kb, qid):  # a forged or outdated payload (issue 17.7)
        return Outcome(msg.STALE_SUGGESTION)
    ctx.state.pending = None
    outcome = Outcome("", events=[Event.PREFERENCE])
    task = PreferenceTask(mention=kb.label(qid), candidates=[qid], polarity=polarity)
    process(ctx, [task], outcome, NEW_PREFERENCE_EVENTS)
    if len(ctx.state.profile()) < ctx.config.min_preferences and ctx.state.pending is None:
        suggest(ctx, outcome)
    return outcome


def on_answer(ctx: TurnContext) -> Outcome:
    """The answer to the open preference question (button or typed: ``parse.answer``), or, when the
    turn does not answer it, a new preference it names (the question is then dropped)."""
    state, parse = ctx.state, ctx.parse
    question = state.pending
    if not isinstance(question, PREFERENCE_QUESTIONS):
        return on_follow_up(ctx)
    outcome = Outcome("", events=[Event.PREFERENCE])
    task = question.task.copy()
    queue = [t.copy() for t in question.queue]
    choice = parse.answer
    if choice is None and parse.opinion_of_open:
        # "I like it" at "Which Titanic do you mean?": which one first (the question is kept open as an
        # ignored one: bot.dialog.questions.keep_ignored_question re-shows it, or stores a person without role)
        state.pending = None
        kept = isinstance(question, ItemQuestion) and question.ignored + 1 < questions.QUESTION_LIFESPAN
        return Outcome(msg.WHICH_ONE_FIRST if kept else "", events=[Event.PREFERENCE])
    if choice is None:
        # at "did you like X?", only a bare new name is a new preference
        new = tasks(ctx, parse.readings) if not isinstance(question, ConfirmQuestion) or parse.names_only else []
        readings = set(task.readings or task.candidates)
        for other in new:  # "Arnold Schwarzenegger" answering a question keeps its opinion
            if (
                other.polarity not in ("+", "-")
                and task.polarity in ("+", "-")
                and (other.qid in readings or shares_a_word(other.mention, task.mention))
            ):
                # a fuller name of the same thing ("Titanic 1997"), not "Pulp Fiction" after "I hate Titanic"
                other.polarity = task.polarity
        if new:  # the user moved on to another preference: drop the question
            notes = revise(ctx, new, asked=task)  # "The Insider too" at "Which Heat do you mean?"
            process(ctx, new, outcome, FOLLOW_UP_EVENTS)
            if parse.correction or parse.substitutes:  # "sorry, i meant Collateral": put in its place, not asked
                outcome.settled = True
            outcome.text = "\n".join([outcome.text, *notes]) if notes else outcome.text
            return outcome
        # no answer and nothing found ("the origenal robocop is a classic" at "Which Little Women?"): said as such,
        # the question still open once, then dropped aloud; never asked again word for word in a loop
        said = questions.not_understood(ctx, question, msg.NOT_UNDERSTOOD if parse.bare_answer else msg.NOTHING_FOUND)
        said.events[:0] = [*outcome.events, *FOLLOW_UP_EVENTS]
        return said
    outcome.settled = True
    if choice == "none":
        outcome.text = msg.NOT_STORED.format(label=task.mention)
    elif isinstance(question, ItemQuestion) and choice == "all":  # "both": each candidate, with the opinion said
        for qid in reversed(task.candidates):
            queue.insert(0, task.copy(candidates=[qid], ambiguous=False))
    elif isinstance(question, ItemQuestion) and isinstance(choice, int):
        task.candidates = [task.candidates[choice]]
        task.ambiguous = False
        task.polarity = parse.opinion_of_open or task.polarity  # "I like it" about the one candidate
        queue.insert(0, task)
    elif isinstance(question, RoleQuestion) and isinstance(choice, int):
        task.role = task.roles[choice]
        queue.insert(0, task)
    elif isinstance(question, ConfirmQuestion) and task.all_values:  # "Do you like all of them: A, B?"
        # "I don't like them" at "You don't like these of X: A, B. Right?" is a yes
        agrees = parse.opinion_of_open == task.polarity if parse.opinion_of_open else choice == 0
        store_all_values(ctx, task, agrees, outcome)
    elif isinstance(question, ConfirmQuestion):
        task.polarity = "+" if choice == 0 else "-"
        task.answered = True
        queue.insert(0, task)
    state.pending = None
    process(ctx, queue, outcome, FOLLOW_UP_EVENTS)
    if not outcome.text:
        outcome.text = msg.SKIPPED
    return outcome


def on_follow_up(ctx: TurnContext) -> Outcome:
    """A disambiguation answer with no question open: it refines the preference the previous turn
    stored ("actor", "the 1998 one"), else it is a preference of its own."""
    if ctx.refinable:
        return refine(ctx)
    return on_preference(ctx)


def refine(ctx: TurnContext) -> Outcome:
    """A follow-up that corrects the preference stored by the previous turn.

    "actor" / "producer" sets the role of a stored person; "none of them" removes the stored
    entity (it was not the one meant); a name or title replaces it, with the same polarity; a
    year or another candidate's label picks that candidate. Anything else re-asks.
    """
    state, parse, kb = ctx.state, ctx.parse, ctx.kb
    last = ctx.refinable[-1]
    if parse.payload is not None and parse.payload.kind == "none" and parse.payload.value:
        # "Not that one" under a reading the bot took: that reading, if the previous turn stored it
        refused = [t for t in ctx.refinable if t.qid == parse.payload.value]
        if not refused:
            return Outcome(msg.STALE_QUESTION)
        last = refused[0]
    task = last.copy()
    qid, polarity = task.qid, task.polarity
    outcome = Outcome("", events=[Event.PREFERENCE])
    roles = parse.roles
    # "actor" names a role; "kind of blue" is a title that has a role word in it (a name of more words)
    titled = any(len(r.mention.text.split()) > 1 for r in parse.readings)
    if roles and not kb.is_item(qid) and len(fold(parse.text).split()) <= 3 and not titled:
        task.role = roles[0]
        state.profile()[qid] = {"polarity": polarity, "role": roles[0]}
        state.last_stored = [task]
        outcome.objects.append((qid, polarity))
        named = f"{msg.POLARITY_MARKS[polarity]} {display(ctx, qid)} ({role_name(roles[0], state.domain)})"
        outcome.text = msg.STORED.format(items=named)
        return outcome
    if parse.negative and (parse.payload is not None or refuses_reading(parse.text)):  # a pressed 'none' too
        state.profile().pop(qid, None)
        outcome.text = msg.NOT_STORED.format(label=display(ctx, qid))
        return outcome
    choice = parse.answer
    pool = refinable_readings(last)  # the options the view offered for a follow-up
    readings = set(pool)
    if isinstance(choice, int) and choice < len(pool) and pool[choice] != qid:
        said = parse.opinion_of_open or polarity  # "the 1933 one is a classic too": its own opinion
        new = [task.copy(candidates=[pool[choice]], ambiguous=False, role=None, polarity=said)]
    else:
        new = tasks(ctx, parse.readings)
        for other in new:
            # a bare name goes on with the opinion the user just stated ("I like Heat" -> "Ronin", as the
            # original agent stored it), as does a fuller name, another reading of the same words ("Titanic
            # 1997") or a name said as a correction ("no wait, Heat"); after a yes / no to "Did you like X?" it
            # is a new topic, asked about ("kid a" after "not really" is no dislike of Kid A; issue 22)
            same = other.qid in readings or shares_a_word(other.mention, last.mention)
            carried = not last.answered or same or parse.correction or other.qid in parse.substitutes
            if other.polarity not in ("+", "-") and carried:
                other.polarity = polarity
            elif other.qid != qid or other.qid in parse.substitutes:
                # "sorry, I meant Alien" ("sorry" is none); the same title respelt ("the dark night was great", "sorry,
                # I meant the dark knight") keeps its opinion too (fresh10, fault 3)
                take_replaced_opinion(other, parse.substitutes, polarity)
    if new:
        # another reading named alone ("the 1998 one", "I meant the 1953 one") replaces the one stored; one
        # said with an opinion of its own ("the 1953 one was boring") or added ("... too") is a preference more
        own = parse.also or (parse.opinion_of_open is not None and not parse.correction)
        replaced = all(t.qid != qid for t in new) and any(t.qid in readings for t in new) and not own
        meant = (
            bool(parse.substitutes) and all(t.qid != qid for t in new) and any(t.qid in parse.substitutes for t in new)
        )
        if replaced or meant or (parse.correction and all(t.polarity == polarity and t.qid != qid for t in new)):
            state.profile().pop(qid, None)  # another reading of the same words, or a correction
        process(ctx, new, outcome, FOLLOW_UP_EVENTS)
        return outcome
    outcome.text = msg.FALLBACK.format(item=msg.ITEM_NOUNS[state.domain])
    outcome.events.extend(FOLLOW_UP_EVENTS)
    state.last_stored = list(ctx.refinable)
    return outcome


def refinable_readings(task: PreferenceTask) -> list[str]:
    """The readings a follow-up may pick among for a stored task ("the 1998 one"): every candidate of its
    words, the one stored first, also when a "which one?" question narrowed them to it."""
    pool = [task.qid, *(q for q in task.readings or task.candidates if q != task.qid)]
    return pool[: questions.MAX_CHOICES]


def on_skip(ctx: TurnContext) -> Outcome:
    """'skip' at a question: it is dropped, the tasks queued behind it come next."""
    state = ctx.state
    question = state.pending
    if question is None:
        return Outcome(msg.SKIPPED)
    events: list[str] = [Event.PREFERENCE] if question.origin == "preference" else []
    queue = list(question.queue) if isinstance(question, PREFERENCE_QUESTIONS) else []
    state.pending = None
    outcome = Outcome(msg.SKIPPED, events=events, settled=True)
    if queue:
        process(ctx, queue, outcome, FOLLOW_UP_EVENTS)
    return outcome


def shares_a_word(a: str, b: str) -> bool:
    """Two mentions share a word other than an article ("The Avengers 2012" / "the avengers")."""

    def words(text: str) -> set[str]:
        return set(re.findall(r"\w+", fold(text))) - {"the", "a", "an", "of"}

    return bool(words(a) & words(b))
