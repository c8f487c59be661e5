"""The question lifecycle of preference tasks: asking (which item, which role, did you like it),
keeping an ignored question open for its lifespan, and closing questions aloud.

A preference question the user does not answer (they say something else) is handled by
:func:`keep_ignored_question`: what is unambiguous is stored, the rest stays open for
:data:`QUESTION_LIFESPAN` turns, and the user is told what happened; nothing goes silently.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot import messages as msg
from bot.dialog.acts import (
    PREFERENCE_QUESTIONS,
    AnyPreferenceQuestion,
    ConfirmQuestion,
    CritiqueChoice,
    DeleteChoice,
    ItemQuestion,
    Outcome,
    PreferenceTask,
    RoleQuestion,
)
from bot.dialog.context import TurnContext
from bot.dialog.render import dedupe, display, option_names, stamp
from bot.turns import Choice
from logs.schema import Event
from nlu.disambiguation import MAX_OPTIONS
from recommender.schema import role_name

MAX_CHOICES = MAX_OPTIONS
"""Candidates offered in one disambiguation question (plus "none of these"): ``nlu.disambiguation``'s."""
QUESTION_LIFESPAN = 2
"""Turns a preference question stays open while the user talks about something else: the lifespan
(2) the original agent's webhook gave ``property_type_disambiguation`` with a question."""

Process = Callable[[TurnContext, list[PreferenceTask], Outcome, Sequence[str]], None]
"""``preferences.process``: store what can be stored, ask about the first task that needs it."""


def ask_item(
    ctx: TurnContext, task: PreferenceTask, rest: list[PreferenceTask], outcome: Outcome, events: Sequence[str]
) -> None:
    """'Which "The Avengers" do you mean?' with the candidates told apart, and "none of these"."""
    choices = [Choice(name, f"pick:{i}") for i, name in enumerate(option_names(ctx, task.candidates))]
    choices.append(Choice(msg.NONE_OF_THESE, "none"))
    lines = "\n".join(f"{i + 1}. {c.label}" for i, c in enumerate(choices[:-1]))
    question = msg.ITEM_QUESTION.format(mention=task.mention) + "\n" + lines
    _set(ctx, ItemQuestion, question, choices, task, rest, outcome, events)


def ask_role(
    ctx: TurnContext,
    task: PreferenceTask,
    roles: list[str],
    rest: list[PreferenceTask],
    outcome: Outcome,
    events: Sequence[str],
) -> None:
    """'Tom Cruise: do you mean as actor or producer?'"""
    task.roles = roles
    names = [role_name(pid, ctx.state.domain) for pid in roles]
    choices = [Choice(name.capitalize(), f"role:{pid}") for name, pid in zip(names, roles, strict=True)]
    choices.append(Choice(msg.NONE_OF_THESE, "none"))
    question = msg.ROLE_QUESTION.format(label=display(ctx, task.qid), roles=" or ".join(names))
    _set(ctx, RoleQuestion, question, choices, task, rest, outcome, events)


def ask_confirm(ctx: TurnContext, task: PreferenceTask, rest: list[PreferenceTask], outcome: Outcome) -> None:
    """'Did you like Memento?' (the message said no opinion)."""
    question = msg.CONFIRM_QUESTION.format(label=display(ctx, task.qid))
    choices = [Choice(msg.YES, "yes"), Choice(msg.NO, "no")]
    _set(ctx, ConfirmQuestion, question, choices, task, rest, outcome, (Event.QUESTION,))


def _set(
    ctx: TurnContext,
    kind: type[ItemQuestion] | type[RoleQuestion] | type[ConfirmQuestion],
    question: str,
    choices: list[Choice],
    task: PreferenceTask,
    rest: list[PreferenceTask],
    outcome: Outcome,
    events: Sequence[str],
) -> None:
    pending = ctx.state.pending
    origin = pending.origin if pending is not None else "preference"
    stamped, number = stamp(ctx.state, choices)
    ctx.state.pending = kind(question=question, task=task, queue=rest, stamp=number, choices=stamped, origin=origin)
    outcome.text = question
    outcome.choices = stamped
    outcome.card = True
    # dataset order: "question, preference, disambiguation" for a new preference,
    # "preference, question, disambiguation" for a follow-up answer
    first = list(events) if Event.PREFERENCE in events else []
    outcome.events[:] = dedupe(first + outcome.events + list(events))
    outcome.webhook_contexts[kind.context] = 2


def ask_options(
    ctx: TurnContext,
    kind: type[CritiqueChoice] | type[DeleteChoice],
    question: str,
    options: list[str],
    outcome: Outcome,
    **extra: str,
) -> None:
    """Ask to pick one of ``options`` (QIDs) or none: the open question of a critique or a deletion,
    answered by ``pick:<i>`` / ``none`` or typed text."""
    labels = option_names(ctx, options)
    choices = [Choice(label, f"pick:{i}") for i, label in enumerate(labels)]
    choices.append(Choice(msg.NONE_OF_THESE, "none"))
    stamped, number = stamp(ctx.state, choices)
    ctx.state.pending = kind(question=question, options=options, stamp=number, choices=stamped, **extra)
    outcome.text, outcome.choices, outcome.card = question, stamped, True
    outcome.events.extend((Event.QUESTION, Event.DISAMBIGUATION))
    outcome.webhook_contexts["property_type_disambiguation"] = 2


def store_without_role(ctx: TurnContext, task: PreferenceTask) -> str:
    """Store the rated person of an unanswered role question without a role; the note saying so."""
    ctx.state.profile()[task.qid] = {"polarity": task.polarity, "role": None}
    roles = ", ".join(role_name(pid, ctx.state.domain) for pid in task.roles)
    return msg.STORED_WITHOUT_ROLE.format(
        label=display(ctx, task.qid), polarity=msg.POLARITY_MARKS[task.polarity], roles=roles or msg.ITS_ROLES
    )


def close_questions(ctx: TurnContext, outcome: Outcome) -> list[str]:
    """Before /start, a domain switch or a reset: store a rated person whose role was asked (without
    a role; logged in ``outcome.objects``, as any turn logs what it stored), and say which questions
    are dropped, so that nothing goes silently."""
    pending = ctx.state.pending
    if not isinstance(pending, PREFERENCE_QUESTIONS):
        return []
    notes = []
    task = pending.task
    dropped = []
    if isinstance(pending, RoleQuestion) and task.polarity in ("+", "-"):
        notes.append(store_without_role(ctx, task))
        outcome.objects.append((task.qid, task.polarity))
    elif task.mention:
        dropped.append(task)
    dropped.extend(pending.queue)
    return [n for n in (*notes, dropped_note(ctx, dropped)) if n]


def not_understood(ctx: TurnContext, question: AnyPreferenceQuestion, said: str) -> Outcome:
    """A message at the open preference question that answers nothing and names nothing the KB knows ("ok what
    now", "the origenal robocop is a classic"): ``said`` once, with the question still open (not counted as
    ignored: the released studies' agent kept it so); a second such message drops it aloud (a rated person of a
    role question stored without a role), so a chat never loops on "Sorry, I didn't get that. <question>"."""
    if question.not_understood:
        outcome = Outcome("", settled=True)
        notes = close_questions(ctx, outcome)
        ctx.state.pending = None
        outcome.text = "\n".join([said, *notes])
        return outcome
    question.not_understood = True
    still = msg.QUESTION_STILL_OPEN_YES_NO if isinstance(question, ConfirmQuestion) else msg.QUESTION_STILL_OPEN
    outcome = Outcome("\n".join((said, still.format(question=question.question))), choices=question.choices, card=True)
    outcome.webhook_contexts[question.context] = QUESTION_LIFESPAN
    return outcome


def dropped_note(ctx: TurnContext, dropped: Sequence[PreferenceTask]) -> str:
    """One note for the questions dropped in a turn ("I dropped my questions about "heat", "solaris": ..."),
    never one line each; tasks whose subject the profile now holds are no loss and go unsaid; "" if none."""
    profile = ctx.state.profile()
    mentions = list(dict.fromkeys(t.mention for t in dropped if t.mention and not _settled(t, profile)))
    if not mentions:
        return ""
    if len(mentions) == 1:
        return msg.QUESTION_DROPPED.format(mention=mentions[0])
    return msg.QUESTIONS_DROPPED.format(mentions=", ".join(f'"{m}"' for m in mentions))


def _settled(task: PreferenceTask, profile: dict[str, dict[str, str | None]]) -> bool:
    """The question's subject is in the profile with an opinion (stored meanwhile: nothing is asked)."""
    return len(task.candidates) == 1 and task.candidates[0] in profile


def settled_by(task: PreferenceTask, outcome: Outcome) -> bool:
    """The turn rated what the question asks about ("YES i like jazz" at "Did you like jazz?", "i love kind of
    blue" at "Which kind of blue?"): the question is settled, never "still open" (issue 22)."""
    rated = {q for q, p in outcome.objects if p in ("+", "-")}
    return bool(rated & set(task.candidates))


def keep_ignored_question(
    ctx: TurnContext, question: AnyPreferenceQuestion, outcome: Outcome, process: Process
) -> None:
    """The user answered a preference question with something else: keep what was understood.

    - a role question ("Tom Cruise: as actor or producer?") about a rated person: the person is
      stored without a role (the recommender does not use roles), and the user is told so;
    - an item or yes/no question: it stays open for :data:`QUESTION_LIFESPAN` turns (the
      original agent's context lifespan), re-shown after the reply; if the new turn asked its
      own preference question, it is queued after it; when the lifespan is over, or another
      kind of question (critique, deletion, reset) took its place, it is dropped and the user is
      told.
    Tasks queued behind the question (other mentions of the same message) follow it.
    """
    state = ctx.state
    task, queue = question.task.copy(), [t.copy() for t in question.queue]
    queue = [t for t in queue if not settled_by(t, outcome)]
    if settled_by(task, outcome) and not (isinstance(question, RoleQuestion) and task.qid not in state.profile()):
        if queue and state.pending is None:  # the ones queued behind it come next
            text = _continue(ctx, queue, outcome, process)
            outcome.text = "\n".join(t for t in (outcome.text, text) if t)
        return
    notes: list[str] = []
    if isinstance(question, RoleQuestion) and task.polarity in ("+", "-"):
        before = store_without_role(ctx, task)
        state.last_stored.append(task.copy(role=None))  # "actor" next turn still refines it
        outcome.objects.append((task.qid, task.polarity))
        outcome.text = f"{before}\n{outcome.text}" if outcome.text else before
        kept: list[PreferenceTask] = queue
    else:
        kept = [task, *queue]
    ignored = question.ignored + 1
    if kept and state.pending is None and ignored < QUESTION_LIFESPAN and kept[0] is task:
        question.ignored = ignored
        question.behind_card = state.focus is not None and any(c.payload.startswith("like:") for c in outcome.choices)
        state.pending = question
        still = msg.QUESTION_STILL_OPEN_YES_NO if isinstance(question, ConfirmQuestion) else msg.QUESTION_STILL_OPEN
        if question.behind_card and isinstance(question, ConfirmQuestion):  # a bare yes or no rates the card
            still = msg.QUESTION_STILL_OPEN_AT_CARD
        notes.append(still.format(question=question.question, mention=display(ctx, task.qid)))
        if not outcome.choices:
            outcome.choices = question.choices
            outcome.card = True
        outcome.webhook_contexts.setdefault(question.context, QUESTION_LIFESPAN)
    elif kept and state.pending is None and kept[0] is not task:  # the role was settled: go on
        notes.append(_continue(ctx, kept, outcome, process))
    elif kept and isinstance(state.pending, PREFERENCE_QUESTIONS) and ignored < QUESTION_LIFESPAN:
        # what the new question asks about again ("Interstellar less so" at "Did you like Interstellar?")
        # is not queued a second time: it is being asked now
        asked = state.pending.task.candidates
        kept = [t for t in kept if t.candidates != asked]
        if kept:
            state.pending.queue = [*state.pending.queue, *kept]
            notes.append(msg.QUESTION_LATER.format(mention=kept[0].mention))
    elif kept:
        if len(kept) > 1 and state.pending is None:  # the ones queued behind it come next, not lost
            notes.append(dropped_note(ctx, kept[:1]))
            notes.append(_continue(ctx, kept[1:], outcome, process))
        else:
            notes.append(dropped_note(ctx, kept))
    notes = [n for n in notes if n]
    if notes:
        outcome.text = "\n".join([outcome.text, *notes]) if outcome.text else "\n".join(notes)


def _continue(ctx: TurnContext, tasks: list[PreferenceTask], outcome: Outcome, process: Process) -> str:
    extra = Outcome("")
    process(ctx, tasks, extra, ())
    outcome.objects.extend(extra.objects)
    if ctx.state.pending is not None and not outcome.choices:
        outcome.choices, outcome.card = extra.choices, True
    return extra.text


__all__ = [
    "MAX_CHOICES",
    "QUESTION_LIFESPAN",
    "CritiqueChoice",
    "DeleteChoice",
    "ask_confirm",
    "ask_item",
    "ask_options",
    "ask_role",
    "close_questions",
    "keep_ignored_question",
    "not_understood",
    "store_without_role",
]
