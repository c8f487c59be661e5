"""The user's profile: show it, delete an entry (asking when the name is partial), reset it."""

from __future__ import annotations

import re

from bot import messages as msg
from bot.agent_spec import satisfied
from bot.dialog.acts import (
    PREFERENCE_QUESTIONS,
    CritiqueChoice,
    DeleteChoice,
    Outcome,
    PreferenceTask,
    ResetChoice,
    ResetConfirm,
    RoleQuestion,
)
from bot.dialog.context import TurnContext
from bot.dialog.preferences import NEW_PREFERENCE_EVENTS, process, shares_a_word, tasks
from bot.dialog.questions import MAX_CHOICES, ask_options, close_questions
from bot.dialog.render import display, has_name
from bot.turns import Choice
from logs.schema import Event, Intent
from nlu.textnorm import fold
from nlu.turn_cues import retracted_words, withdraws_last
from nlu.understand import RESET_INTENTS, Reading
from recommender.schema import role_name


def on_show_profile(ctx: TurnContext) -> Outcome:
    """The profile of the domain, one line per stored preference (with its role); a critique's or a deletion's
    "which one?" stays open and is shown again after it (a preference question follows its own lifecycle)."""
    shown = _profile_lines(ctx)
    pending = ctx.state.pending
    if isinstance(pending, CritiqueChoice | DeleteChoice):  # issue 22-R: it was dropped silently
        shown.text = "\n".join((shown.text, pending.question))
        shown.choices, shown.card = pending.choices, True
    return shown


def _profile_lines(ctx: TurnContext) -> Outcome:
    state = ctx.state
    pending = state.pending
    if isinstance(pending, RoleQuestion) and pending.task.polarity in ("+", "-"):
        # the ignored role question stores its person (without a role) in this turn: list it too
        state.profile()[pending.task.qid] = {"polarity": pending.task.polarity, "role": None}
    if not isinstance(pending, CritiqueChoice | DeleteChoice):
        state.pending = None
    profile = state.profile()
    nouns = msg.DOMAIN_NOUNS[state.domain]
    if not profile:
        return Outcome(msg.PROFILE_EMPTY.format(nouns=nouns))
    lines = []
    for qid, pref in profile.items():
        if not has_name(ctx.kb, qid):  # stored (a replayed study's QID) but nameless: never a bare QID
            continue
        role = f" ({role_name(pref['role'], state.domain)})" if pref.get("role") else ""
        sign = "👍" if pref["polarity"] == "+" else "👎"
        lines.append(msg.PROFILE_LINE.format(sign=sign, label=display(ctx, qid), role=role))
    if not lines:
        return Outcome(msg.PROFILE_EMPTY.format(nouns=nouns))
    return Outcome(msg.PROFILE.format(nouns=nouns, lines="\n".join(lines)))


def on_delete(ctx: TurnContext) -> Outcome:
    """'delete Top Gun': removed when named in full; asked about when named in part ("delete Top"); with a
    preference question open, "remove that" (or its subject named) drops what is asked about."""
    state, target = ctx.state, ctx.parse.delete_target
    matches, named = profile_matches(ctx, target)
    linked = [str(c.qid) for r in ctx.parse.readings for c in r.mention.candidates if str(c.qid) in state.profile()]
    if not named and len(set(linked)) == 1:  # "remove frankenstein, i never read it": a reading of the words held
        matches, named = linked[:1], True
    outcome = Outcome("", events=[Event.PREFERENCE])
    pending = state.pending
    if isinstance(pending, PREFERENCE_QUESTIONS) and (not matches or shares_a_word(target, pending.task.mention)):
        # "remove that" while "Which Heat do you mean?" is open: what is asked about is not stored (issue 22-D)
        state.pending = None
        outcome.text, outcome.settled = msg.NOT_STORED.format(label=pending.task.mention), True
        return outcome
    if not matches:
        outcome.text = msg.DELETE_NOT_FOUND
        return outcome
    if len(matches) == 1 and named:
        _delete(ctx, matches[0])
        outcome.text = msg.DELETED.format(label=display(ctx, matches[0]))
        return outcome
    question = msg.ITEM_QUESTION.format(mention=target or ctx.text)
    ask_options(ctx, DeleteChoice, question, matches[:MAX_CHOICES], outcome, origin="profile")
    return outcome


def _delete(ctx: TurnContext, qid: str) -> None:
    """Remove ``qid`` from the profile, kept for one turn so that an undo can put it back."""
    entry = ctx.state.profile().pop(qid, None)
    if entry is not None:
        ctx.state.last_deleted = {qid: entry}


def on_undo_delete(ctx: TurnContext) -> Outcome:
    """ "never mind, keep it", "put it back" right after a deletion: the deleted entries are back in the profile,
    with their opinion and role (issue 22-R2: "Sorry, I didn't get that", or a skip of the card)."""
    state = ctx.state
    state.profile().update(state.last_deleted)
    labels = ", ".join(display(ctx, q) for q in state.last_deleted)
    objects = [(q, str(entry.get("polarity"))) for q, entry in state.last_deleted.items()]
    state.last_deleted = {}
    return Outcome(msg.RESTORED.format(labels=labels), events=[Event.PREFERENCE], objects=objects)


def on_retract(ctx: TurnContext) -> Outcome:
    """ "i never said i liked X", "scratch what i said about X", "take back X" (``TurnParse.retracts``): the
    profile's entry of any reading of X's words goes, or the one its words name in part ("mockingbird" for To Kill
    a Mockingbird, issue 22); an open preference question about it is dropped. An opinion the message says of X
    ("..., it grew on me") is stored in its place, and other names with an opinion ("take back X, Y is so
    overrated") are preferences as usual (issue 22-F)."""
    state = ctx.state
    pending = state.pending
    named = [r for r in ctx.parse.readings if r.mention.candidates]
    asked = set(pending.task.candidates) if isinstance(pending, PREFERENCE_QUESTIONS) else set()
    profile = state.profile()
    removed: list[str] = []
    kept: list[str] = []
    said: list[Reading] = []
    for reading in named:
        readings = [str(c.qid) for c in reading.mention.candidates]
        held = [q for q in readings if q in profile]
        by_words = [] if held else _held_by_words(ctx, reading.mention.text)
        for qid in held or by_words:
            profile.pop(qid, None)
        if held or by_words:
            removed.append(display(ctx, (held or by_words)[0]))
        if asked & set(readings):
            state.pending = None
        if reading.polarity.value in ("+", "-") and not by_words:
            said.append(reading)  # "..., it's grown on me": the opinion said now replaces the one taken back
        elif not (held or by_words):
            kept.append(reading.mention.text)
    if not removed:  # "scratch what i said about totoro": words the linker did not find, named in the profile
        for qid in _held_by_words(ctx, retracted_words(ctx.parse.text)):
            profile.pop(qid, None)
            removed.append(display(ctx, qid))
    if not (removed or named) and withdraws_last(ctx.parse.text):  # "scratch that last one": the last turn's
        for task in ctx.refinable:
            if profile.pop(task.qid, None) is not None:
                removed.append(display(ctx, task.qid))
        if not removed and isinstance(pending, PREFERENCE_QUESTIONS):  # "scratch that" at "Which Heat?": not stored
            state.pending = None
            return Outcome(msg.NOT_STORED.format(label=pending.task.mention), events=[Event.PREFERENCE], settled=True)
    if not (removed or kept or said):  # nothing of it held nor found: said, never an empty reply
        kept.append(retracted_words(ctx.parse.text) or ctx.parse.text)
    outcome = Outcome("", events=[Event.PREFERENCE], settled=not state.pending)
    if said:
        process(ctx, tasks(ctx, said), outcome, NEW_PREFERENCE_EVENTS)
    lines = []
    if removed:
        lines.append(msg.RETRACTED.format(items=", ".join(removed)))
    if kept:
        lines.append(msg.RETRACTED_NOTHING.format(items=", ".join(kept)))
    outcome.text = "\n".join([*lines, outcome.text] if outcome.text else lines)
    outcome.settled = outcome.settled and not state.pending
    return outcome


def _held_by_words(ctx: TurnContext, mention: str) -> list[str]:
    """The one profile entry whose name holds the words of ``mention`` ("mockingbird": To Kill a Mockingbird),
    when the linker read the words as another work; none when several entries would fit."""
    words = fold(mention).split()
    if not words:
        return []
    pattern = re.compile(r"\b" + r"\s+".join(re.escape(w) for w in words) + r"\b")
    found = [q for q in ctx.state.profile() if pattern.search(fold(ctx.kb.label(q)))]
    return found if len(found) == 1 else []


def profile_matches(ctx: TurnContext, target: str) -> tuple[list[str], bool]:
    """Profile entries named in ``target``, best first, and whether they are named in full (a
    label contained in the text); near matches ("delete Top" for Top Gun) are to be confirmed."""
    from rapidfuzz import fuzz

    kb = ctx.kb
    folded = fold(target)
    scored = []
    for qid in ctx.state.profile():
        label = fold(kb.label(qid))
        if label and re.search(rf"\b{re.escape(label)}\b", folded):
            score = 101.0
        else:
            score = fuzz.token_set_ratio(label, folded)
        if score >= 85:
            scored.append((score, qid))
    scored.sort(reverse=True)
    if scored and scored[0][0] == 101.0:
        return [q for s, q in scored if s == 101.0], True
    return [q for _, q in scored], False


def on_delete_answer(ctx: TurnContext) -> Outcome:
    """The answer to 'Which "Top" do you mean?' before a deletion."""
    state = ctx.state
    question = state.pending
    choice = ctx.parse.answer
    state.pending = None
    if not isinstance(question, DeleteChoice) or not isinstance(choice, int):
        return Outcome(msg.SKIPPED, events=[Event.PREFERENCE])
    _delete(ctx, question.options[choice])
    return Outcome(msg.DELETED.format(label=display(ctx, question.options[choice])), events=[Event.PREFERENCE])


def on_reset_profile(ctx: TurnContext) -> Outcome:
    """'reset my profile': what to reset (everything: every domain's profile; only this domain's items or
    only its properties; words that say it, "forget everything", go straight to "Are you sure?"), an open
    question of its own (:class:`~bot.dialog.acts.ResetChoice`: a "yes" or
    the scope typed answers it, never the card on screen); an open question is dropped aloud."""
    state = ctx.state
    items = msg.DOMAIN_NOUNS[state.domain]
    choices = (
        Choice(msg.RESET_EVERYTHING_BUTTON, "reset:everything"),
        Choice(msg.RESET_ITEMS_BUTTON.format(items=items), "reset:items"),
        Choice(msg.RESET_PROPERTIES_BUTTON, "reset:properties"),
    )
    # "ok fresh start: i'm a big X fan": the opinions said after the reset's words are kept for after its question
    after = tasks(ctx, [r for r in ctx.parse.readings if r.polarity.value in ("+", "-")])
    if after and not any(state.profiles.values()):  # nothing to reset: the message's opinions are what it says
        outcome = Outcome("", events=[Event.PREFERENCE], intent=Intent.PREFERENCE.value)
        process(ctx, after, outcome, NEW_PREFERENCE_EVENTS)
        return outcome
    outcome = Outcome("", choices=choices, events=[Event.QUESTION], settled=True)
    notes = close_questions(ctx, outcome)  # the reset question replaces an open one, aloud
    if ctx.parse.reset_scope is not None:  # "forget everything": only "Are you sure?" (issue 22-D)
        confirm = _confirm(ctx, ctx.parse.reset_scope, after)
        outcome.text, outcome.choices = "\n".join([*notes, confirm.text]), confirm.choices
        return outcome
    question = msg.RESET_WHAT.format(items=items)
    state.pending = ResetChoice(question=question, choices=choices, after=after)
    outcome.text = "\n".join([*notes, question])
    return outcome


def scope_words(domain: str) -> list[list[str]]:
    """Words naming each option of the reset question, in :attr:`ResetChoice.scopes` order (for typed
    answers: "everything", "only the movies", "the properties")."""
    return [
        ["everything", "all", "whole profile", "all of it", "both"],
        [msg.DOMAIN_NOUNS[domain], msg.ITEM_NOUNS[domain], "items", "titles"],
        ["properties", "people", "genres", "persons"],
    ]


def on_reset_scope_answer(ctx: TurnContext) -> Outcome:
    """The answer to "What should I reset ...?": a scope (then "Are you sure?"), a no (nothing is reset),
    anything else the question again (a "yes" says no scope)."""
    state, parse = ctx.state, ctx.parse
    question = state.pending
    assert isinstance(question, ResetChoice)
    choice = parse.answer
    if isinstance(choice, int) and choice < len(question.scopes):
        return _confirm(ctx, question.scopes[choice], question.after)
    if choice == "none" or parse.negative or parse.confirmation == "no":
        state.pending = None
        return _store_after(ctx, Outcome(msg.RESET_CANCELLED), question.after)
    return Outcome(msg.RESET_WHICH.format(question=question.question), choices=question.choices)


_SCOPES = {intent: scope for scope, intent in RESET_INTENTS.items()}


def on_reset_choice(ctx: TurnContext) -> Outcome:
    """What to reset was chosen (button ``reset:<scope>`` or words): confirm it first.

    A press is taken only while the buttons of "What should I reset?" are current (its follow-up context is
    active, as for the typed words): a ``reset:`` payload sent with no such buttons on screen (a script, an
    old message) is refused like a stale button, and logged as a fallback."""
    payload = ctx.parse.payload
    if payload is not None and payload.kind == "reset" and not satisfied(ctx.parse.intent, ctx.state.contexts):
        return Outcome(msg.STALE_QUESTION, intent=Intent.FALLBACK.value)
    what = payload.value if payload is not None and payload.kind == "reset" else _SCOPES[ctx.parse.intent]
    pending = ctx.state.pending
    if isinstance(pending, ResetConfirm) and pending.what == what:
        # "start over" -> "Are you sure ... your whole profile?" -> "everything": the scope asked about, said again, is
        # the yes (a second "Are you sure?" would be the same question twice)
        return _reset(ctx, yes=True)
    after = pending.after if isinstance(pending, ResetChoice | ResetConfirm) else []
    return _confirm(ctx, what, after)


def _confirm(ctx: TurnContext, what: str, after: list[PreferenceTask]) -> Outcome:
    """ "Are you sure you want to reset ...?" about ``what`` (the one confirmation a reset needs); ``after``: the
    opinions to store once it is answered."""
    question = msg.RESET_CONFIRM.format(what=msg.RESET_LABELS[what])
    ctx.state.pending = ResetConfirm(what=what, question=question, after=after)
    return Outcome(question, choices=_YES_NO)


def _store_after(ctx: TurnContext, outcome: Outcome, after: list[PreferenceTask]) -> Outcome:
    """``outcome`` with the opinions said after a reset stored ("fresh start: I'm a big X fan"), after its answer,
    whatever the answer: a "no" to the reset takes back no opinion."""
    if after:
        said = outcome.text
        outcome.text = ""
        outcome.events.append(Event.PREFERENCE)
        process(ctx, list(after), outcome, NEW_PREFERENCE_EVENTS)
        outcome.text = "\n".join(line for line in (said, outcome.text) if line)
    return outcome


_YES_NO = (Choice(msg.YES, "yes"), Choice(msg.NO, "no"))
"""The buttons of the reset confirmation."""


def _said_yes(ctx: TurnContext) -> bool:
    """The turn is an explicit yes: the yes button, a small-talk "sure", or words opening with a yes,
    and no no-word ("yes no", "sure... no wait" is no yes)."""
    parse = ctx.parse
    if parse.payload is not None:
        return parse.payload.kind == "yes" and not parse.payload.value
    if parse.said_no or parse.negative:
        return False
    if parse.confirmation is not None:
        return parse.confirmation == "yes"
    return parse.affirmative


def on_reset_answer(ctx: TurnContext) -> Outcome:
    """Yes or no to "Delete ...?" (a button, "sure", "yes please", "cancel")."""
    return _reset(ctx, yes=_said_yes(ctx))


def on_reset_yes(ctx: TurnContext) -> Outcome:
    """The classifier heard a yes to "Are you sure you want to reset ...?". Deleting the profile
    also needs the words to be a yes ("yes", "sure", a yes button): "nope", "nah" or "dont" were
    heard as yes and wiped profiles. A no-word cancels; anything else asks again."""
    question, yes = ctx.state.pending, _said_yes(ctx)
    if yes or not isinstance(question, ResetConfirm):
        return _reset(ctx, yes=yes)
    if ctx.parse.negative and not ctx.parse.affirmative:
        outcome = _reset(ctx, yes=False)
        intent = ctx.parse.intent
        outcome.intent = intent.removesuffix(" - yes") + " - no" if intent.endswith(" - yes") else None
        return outcome
    return Outcome(msg.RESET_YES_OR_NO.format(question=question.question), choices=_YES_NO)


def on_reset_no(ctx: TurnContext) -> Outcome:
    return _reset(ctx, yes=False)


def _reset(ctx: TurnContext, *, yes: bool) -> Outcome:
    state = ctx.state
    question = state.pending
    state.pending = None
    if not isinstance(question, ResetConfirm) or not yes:
        after = question.after if isinstance(question, ResetChoice | ResetConfirm) else []
        return _store_after(ctx, Outcome(msg.RESET_CANCELLED), after)
    what = question.what
    if what == "everything":  # the whole profile: every domain (the user sees one profile, not three)
        from bot.dialog.constraints import drop_session_constraints

        for profile in state.profiles.values():
            profile.clear()
        state.skipped.clear()
        drop_session_constraints(state)  # a fresh start: the constraints of the session go too
    profile, kb = state.profile(), ctx.kb
    for qid in list(profile):
        is_item = kb.is_item(qid) if kb.has(qid) else profile[qid].get("role") is None
        if (what == "items") == is_item:
            del profile[qid]
    state.rec_list, state.rec_pos = [], 0
    return _store_after(ctx, Outcome(msg.RESET_DONE.format(what=msg.RESET_LABELS[what])), question.after)
