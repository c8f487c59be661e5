"""What a turn revises of what was said before (issue 22): names added to the last opinion, a name put in
place of another, a self-correction that replaces a namesake.

``nlu.understand`` reads the words (``TurnParse.also``, ``substitutes``, ``correction``; data in
``nlu/turn_cues.py``); :func:`revise` applies them to the preference tasks of the turn before they are
stored, and to the profile:

- **additions** ("Heat too", "also Ronin", "how about Heat?"): a name said with no opinion of its own
  takes the opinion of what the previous turn stored, when that was one opinion;
- **substitutions** ("sorry, I meant Heat", "I don't like Ronin, I was thinking of Heat"): the name takes
  the opinion it replaces: that of an entity the same message turns around (Ronin was liked, now
  disliked: Heat is the liked one), else that of what the previous turn stored; what the previous
  turn stored and the message does not name again is removed (it was not the one meant);
- **self-corrections** ("no wait", "oops", "I got that wrong, it's the album"): a namesake of a named
  entity in the profile, another reading of the same words, is replaced by the one named now; a short
  name of an entity in the profile means that entity ("no wait, I didn't finish the priory" after "I
  loved The Priory of the Orange Tree": the stored book, not another one called "The Priory");
- **withdrawals**: a self-correction that names a stored entity with no opinion ("actually scratch that, X was
  fine") withdraws the opinion stored of it, and asks again; one that sets a name aside ("sorry, it was A I
  couldn't finish, not B") removes what was stored of B.

Example (the previous turn stored "👎 Ronin")::

    "sorry, I meant Heat"  ->  👎 Heat; Ronin removed
"""

from __future__ import annotations

import re
from collections.abc import Collection

from bot import messages as msg
from bot.dialog.acts import Outcome, PreferenceTask
from bot.dialog.context import TurnContext
from bot.dialog.render import display
from logs.schema import Event
from nlu.textnorm import fold
from nlu.turn_cues import restates, reverses

__all__ = ["on_reverse", "revise", "revise_previous", "unstore_for_session"]


def revise(ctx: TurnContext, queue: list[PreferenceTask], *, asked: PreferenceTask | None = None) -> list[str]:
    """Apply the turn's additions, substitutions and self-corrections (module docstring) to ``queue``
    (its tasks' polarities) and to the profile (entries replaced).

    Args:
        ctx: the turn (its parse and the preferences the previous turn stored, ``ctx.refinable``).
        queue: the turn's preference tasks, in order; changed in place.
        asked: the task of the preference question open before the turn ("Which Heat do you mean?" after "I
            love Heat"): its opinion is the last one said, for an addition ("collateral too").

    Returns:
        Notes for the reply, one per profile entry removed ("Removed X from your profile.").
    """
    parse, profile = ctx.parse, ctx.state.profile()
    if parse.correction:  # "no wait, ... the priory": the stored "The Priory of the Orange Tree"
        for task in queue:
            stored = [q for q in profile if q != task.qid and _short_for(task.mention, ctx.kb.label(q))]
            if len(stored) == 1 and task.qid not in profile:
                task.candidates, task.readings, task.ambiguous = [stored[0]], [stored[0]], False
    before = {t.qid: t.polarity for t in ctx.refinable if t.polarity in ("+", "-")}
    if reverses(parse.text):  # "oops other way round, i LIKED A, B was the one i dropped": the reversal is the
        # opinion, whatever the clause's own words sound like; each name stored just now turns around
        for task in queue:
            if task.qid in before:
                task.polarity = "-" if before[task.qid] == "+" else "+"
    last = set(before.values()) or ({asked.polarity} if asked is not None and asked.polarity in ("+", "-") else set())
    if parse.also and len(last) == 1:  # "Heat too" after "I love Ronin"
        for task in queue:
            if task.polarity not in ("+", "-"):
                task.polarity = next(iter(last))
    removed: list[str] = []
    if parse.substitutes:
        turned = [t for t in queue if t.polarity in ("+", "-") and profile.get(t.qid, {}).get("polarity") == _other(t)]
        meant = profile[turned[0].qid]["polarity"] if turned else (next(iter(last)) if len(last) == 1 else None)
        for task in queue:  # "I was thinking of Heat": the opinion it replaces, unless one is said of it
            # its own when it is the one turned around ("i meant i LIKED X") or a restated clause says one
            own = task in turned or (task.polarity in ("+", "-") and not turned and restates(parse.text))
            if not own:
                take_replaced_opinion(task, parse.substitutes, meant)
        if not turned:  # "sorry, I meant Heat": what the previous turn stored was not the one meant
            named = {t.qid for t in queue}
            removed.extend(q for q in before if q not in named and q in profile)
    notes = []
    if parse.correction:
        for task in queue:  # "actually scratch that, X was fine": the opinion stored of X is withdrawn, asked again
            if task.polarity not in ("+", "-") and not task.ambiguous and task.qid not in parse.substitutes:
                if profile.pop(task.qid, None) is not None:
                    notes.append(msg.DELETED.format(label=display(ctx, task.qid)))
    restated = {t.qid for t in queue if t.polarity in ("+", "-")}  # "..., not B. B bored me": B's new opinion
    for qid in parse.set_aside:  # "sorry, it was A I couldn't finish, not B": B's opinion was not meant
        if qid not in restated and profile.pop(qid, None) is not None:
            notes.append(msg.DELETED.format(label=display(ctx, qid)))
    if parse.correction or parse.substitutes:
        for task in queue:  # "oops, the album, not the song": another reading of the same words goes
            if not task.ambiguous:  # (a "which one?" question decides first)
                removed.extend(q for q in task.readings if q != task.qid and q in profile and q not in removed)
    for qid in dict.fromkeys(removed):
        if qid not in {t.qid for t in queue} and profile.pop(qid, None) is not None:
            notes.append(msg.DELETED.format(label=display(ctx, qid)))
    return notes


def take_replaced_opinion(task: PreferenceTask, substitutes: Collection[str], meant: str | None) -> None:
    """A name said in place of another ("sorry, I meant Heat", "I was thinking of Heat") takes the opinion stored of
    the one it replaces (``meant``, ``"+"``/``"-"``), whatever "sorry" or "meant" sound like; no change when the task
    is no substitute or nothing was meant. The one rule of both the follow-up of a stored preference
    (``bot.dialog.preferences``) and a new turn's revisions (:func:`revise`)."""
    if task.qid in substitutes and meant in ("+", "-"):
        task.polarity = meant


def revise_previous(ctx: TurnContext, role_asked: PreferenceTask | None = None) -> list[tuple[str, str]]:
    """A self-correction's opinion of what the previous turn stored, said by reference ("actually scratch that, it
    was dumb": ``TurnParse.revised``; issue 22-H): those entries of the profile take it. Returns the (QID, polarity)
    pairs changed.

    Args:
        role_asked: the rated person of a role question open before the turn ("Shakira: as artist or
            lyricist?"): "sorry, i DON'T like her" revises that opinion, stored without a role.
    """
    said, profile = ctx.parse.revised, ctx.state.profile()
    if said not in ("+", "-"):
        return []
    named = {r.qid for r in ctx.parse.readings}
    if role_asked is not None and role_asked.qid not in named and role_asked.polarity in ("+", "-"):
        role_asked.polarity = said
        profile[role_asked.qid] = {"polarity": said, "role": None}
        return [(role_asked.qid, said)]  # the latest rated: not what the previous turn stored besides
    changed = []
    for task in ctx.refinable:
        entry = profile.get(task.qid)
        if entry is not None and task.qid not in named and entry.get("polarity") != said:
            entry["polarity"] = said
            changed.append((task.qid, said))
    return changed


def on_reverse(ctx: TurnContext) -> Outcome:
    """ "Oops, other way round" after "I loved A but hated B": each opinion the previous turn stored is turned
    around (A disliked, B liked); the policy routes here only a message that names nothing (one naming the items
    again says their new opinions itself)."""
    profile, changed = ctx.state.profile(), []
    for task in ctx.refinable:
        entry = profile.get(task.qid)
        if entry is not None and entry.get("polarity") in ("+", "-"):
            entry["polarity"] = "-" if entry["polarity"] == "+" else "+"
            changed.append((task.qid, str(entry["polarity"])))
    if not changed:  # nothing was just stored: no opinion to turn around
        return Outcome(msg.NOT_UNDERSTOOD)
    items = ", ".join(f"{msg.POLARITY_MARKS[p]} {display(ctx, q)}" for q, p in changed)
    return Outcome(msg.REVISED.format(items=items), events=[Event.PREFERENCE], objects=changed)


def unstore_for_session(ctx: TurnContext, qids: list[str]) -> list[str]:
    """A self-correction that makes a session constraint of what the previous turn stored ("no country please" /
    "hmm i meant no country this time"), or puts one in its place ("i meant no musicals this time"): the stored
    opinion was not meant and goes. Returns notes for the reply."""
    if not ctx.parse.correction:
        return []
    profile, notes = ctx.state.profile(), []
    replaced = bool(ctx.parse.substitutes)  # "no westerns" / "my bad i meant no musicals this time": westerns go too
    for task in ctx.refinable:
        if (task.qid in qids or replaced) and profile.pop(task.qid, None) is not None:
            notes.append(msg.DELETED.format(label=display(ctx, task.qid)))
    return notes


def _short_for(mention: str, label: str) -> bool:
    """``mention`` is a shortened ``label``: its words open the label's, articles aside ("the priory" of "The
    Priory of the Orange Tree"), and the label has more."""
    said, full = _words(mention), _words(label)
    return 0 < len(said) < len(full) and full[: len(said)] == said


def _words(text: str) -> list[str]:
    return [w for w in re.findall(r"\w+", fold(text)) if w not in ("the", "a", "an")]


def _other(task: PreferenceTask) -> str:
    return "-" if task.polarity == "+" else "+"
