"""The conversation's constraints on its lists (issue 23): what the person does not want to see.

What a constraint leaves out is decided by ``recommender.constraints`` (the profile's dislikes, in the
role they were said about, and the constraints of the session); this module keeps the dialog's side:

- the profile as the recommender takes it (:func:`profile_of`: a dislike said about one role is about
  that role only);
- the constraints of the session ("not Radiohead this time", "no horror for now":
  ``DialogState.session_constraints``), which hold until /start, a domain switch, "stop" or a reset,
  or until the person says the opposite about the same thing;
- the items already answered in the domain (skipped cards, suggestions rated or skipped): never
  recommended again (:func:`answered`);
- what the bot says about it, once per constraint ("I left out horror films, as you asked");
- a critique or a new constraint applied at once to the rest of the list on screen
  (:func:`apply_to_rest`).

User-facing texts are in ``bot/messages.py``.
"""

from __future__ import annotations

from typing import Any

from bot import messages as msg
from bot.dialog.context import TurnContext
from bot.dialog.render import name_of
from bot.state import DialogState
from recommender.constraints import Constraints, parts_of_liked, profile_constraints
from recommender.values import Avoid, Profile, Recommendations

MAX_SKIPPED = 100
"""Skipped items remembered per domain and left out of the next lists (the oldest are forgotten)."""

_PLURAL_NOUNS = frozenset({"film", "movie", "novel", "book", "song", "album", "series", "show"})
_MASS_NOUNS = frozenset({"music", "fiction", "literature", "poetry", "comedy", "drama"})


def profile_of(ctx: TurnContext) -> Profile:
    """The conversation's profile in its domain, as the recommender takes it: a dislike stored with
    a role ("not the director", "Tom Cruise as a producer") is a dislike of that role only."""
    stored = ctx.state.profile()
    return Profile(
        liked=frozenset(q for q, p in stored.items() if p["polarity"] == "+"),
        disliked=frozenset(q for q, p in stored.items() if p["polarity"] == "-"),
        disliked_roles=frozenset(
            (q, str(p["role"])) for q, p in stored.items() if p["polarity"] == "-" and p.get("role")
        ),
    )


def session_avoid(ctx: TurnContext) -> tuple[Avoid, ...]:
    """The constraints of the session in the conversation's domain."""
    return tuple(
        Avoid(str(c["qid"]), c.get("role"), session=True)
        for c in ctx.state.session_constraints.get(ctx.state.domain, ())
        if isinstance(c, dict) and c.get("qid")
    )


def add_session_constraint(ctx: TurnContext, qid: str, role: str | None = None) -> Avoid:
    """Keep ``qid`` (in ``role``) out of the lists of this session; returns the constraint."""
    kept = ctx.state.session_constraints.setdefault(ctx.state.domain, [])
    kept[:] = [c for c in kept if c.get("qid") != qid] + [{"qid": qid, "role": role}]
    return Avoid(qid, role, session=True)


def drop_session_constraints(state: DialogState, qids: Any = None, *, domain: str | None = None) -> None:
    """End constraints of the session: those on ``qids`` (an opinion said otherwise), else all of
    the domain (every domain with ``domain`` None and ``qids`` None: /start)."""
    if qids is None and domain is None:
        state.session_constraints.clear()
        state.announced.clear()
        return
    name = domain or state.domain
    if qids is None:
        state.session_constraints.pop(name, None)
        state.announced.pop(name, None)
        return
    gone = set(qids)
    kept = state.session_constraints.get(name)
    if kept:
        kept[:] = [c for c in kept if c.get("qid") not in gone]


def remember_skipped(state: DialogState, qid: str) -> None:
    """Keep ``qid`` (a skipped card or suggestion) out of the next lists (the newest
    :data:`MAX_SKIPPED` are kept)."""
    skipped = state.skipped.setdefault(state.domain, [])
    skipped[:] = [q for q in skipped if q != qid][-(MAX_SKIPPED - 1) :] + [qid]


def answered(ctx: TurnContext) -> tuple[str, ...]:
    """Items already answered in the domain and not in the profile (skipped cards and skipped
    suggestions, ``DialogState.skipped``): not recommended again (rated ones are in the profile)."""
    state = ctx.state
    return tuple(state.skipped.get(state.domain, ()))


def _key(avoid: Avoid) -> str:
    return f"{avoid.qid}:{avoid.role or '*'}"


def describe(ctx: TurnContext, avoid: Avoid) -> str:
    """What a constraint leaves out, in words: "horror films", "films directed by Quentin Tarantino",
    "songs by Radiohead", "The Lord of the Rings"."""
    kb, domain = ctx.kb, ctx.state.domain
    name = name_of(kb, avoid.qid) or avoid.qid
    nouns = msg.CONSTRAINT_NOUNS[domain]
    kind_of = getattr(kb, "kind", None)
    kind = kind_of(avoid.qid) if callable(kind_of) else None
    if kb.is_item(avoid.qid):
        return name
    if kind == "genre" or avoid.role == "P136":
        last = name.split()[-1].lower() if name.split() else ""
        if last in _PLURAL_NOUNS:
            return name + ("" if name.endswith("s") else "s")
        return name if last in _MASS_NOUNS else f"{name} {nouns}"
    template = msg.CONSTRAINT_ROLE.get(avoid.role or "") or msg.CONSTRAINT_ANY[domain]
    return template.format(nouns=nouns, x=name)


def left_out_note(ctx: TurnContext, recs: Recommendations) -> str:
    """ "I left out horror films, as you asked." for the constraints that removed an item of this list
    and were not named before (once per constraint); the conflict when nothing else was left."""
    state = ctx.state
    said = state.announced.setdefault(state.domain, [])
    # a disliked title leaves out its sequels and parts too, but saying "I left out Aliens" of a title
    # the person only rated would sound like a request they never made: values and session constraints only
    fresh = [a for a in recs.left_out if _key(a) not in said and (a.session or not ctx.kb.is_item(a.qid))]
    notes = []
    if fresh:
        said.extend(_key(a) for a in fresh)
        notes.append(msg.LEFT_OUT.format(what=_join([describe(ctx, a) for a in fresh])))
    if recs.relaxed:
        notes.append(msg.NOTHING_ELSE.format(what=_join([describe(ctx, a) for a in recs.relaxed])))
    return " ".join(notes)


def _join(parts: list[str]) -> str:
    parts = list(dict.fromkeys(parts))
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def list_exclusions(ctx: TurnContext) -> tuple[str, ...]:
    """What a new list must not show besides the profile's ratings: the answered items."""
    return answered(ctx)


def breaks_any(ctx: TurnContext, qid: str) -> bool:
    """Whether ``qid`` breaks a constraint of the profile or the session."""
    kb: Any = ctx.kb
    return bool(Constraints(kb, (*profile_constraints(profile_of(ctx), kb), *session_avoid(ctx))).broken_by(qid))


def apply_to_rest(ctx: TurnContext, *, avoid: tuple[Avoid, ...] = ()) -> list[Avoid]:
    """Apply the constraints at once to the rest of the list on screen (after the card shown): items
    that break one (of the profile's or the session's, ``avoid`` included) or were rated meanwhile
    are dropped and the list is filled up with the best items that break none. Returns the
    constraints that dropped an item."""
    state = ctx.state
    rest = state.rec_list[state.rec_pos + 1 :]
    if not rest:
        return []
    profile = profile_of(ctx)
    kb: Any = ctx.kb  # the dialog's view of recommender.kb.KnowledgeBase
    cons = Constraints(kb, (*profile_constraints(profile, kb), *session_avoid(ctx), *avoid))
    gone_parts = parts_of_liked(kb, profile)  # type: ignore[arg-type]
    broken: list[Avoid] = []
    kept = []
    for qid in rest:
        hit = cons.broken_by(qid)
        if hit or qid in profile.rated or qid in gone_parts:
            broken.extend(a for a in hit if a not in broken)
            continue
        kept.append(qid)
    if len(kept) < len(rest):
        shown = state.rec_list[: state.rec_pos + 1]
        fresh = ctx.domain.recommender.recommend(
            profile,
            k=len(rest) - len(kept),
            exclude=(*shown, *kept, *answered(ctx)),
            avoid=(*session_avoid(ctx), *avoid),
        )
        kept += [s.qid for s in fresh.items]
        state.rec_list = shown + kept
    return broken


__all__ = [
    "MAX_SKIPPED",
    "add_session_constraint",
    "answered",
    "apply_to_rest",
    "breaks_any",
    "describe",
    "drop_session_constraints",
    "left_out_note",
    "list_exclusions",
    "profile_of",
    "remember_skipped",
    "session_avoid",
]
