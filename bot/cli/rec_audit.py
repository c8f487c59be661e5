"""``corsbot rec audit``: simulated sessions rendered by the dialog's own handlers, audited by
:mod:`recommender.audit` (issue 16).

One session per sampled profile (``recommender.audit.sample_profiles``: a random study user's likes,
seeded), on a fresh :class:`bot.state.DialogState` of the domain with those likes stored as the
profile (and the user's dislikes):

1. the questions the bot would ask about the user's names: each liked entity's label is linked
   (``nlu.linker.EntityLinker``, the dialog's linker) and handed to
   ``bot.dialog.preferences.on_preference`` as a liked mention, on a scratch state: the reply and
   the options of the "which one?" or "as what?" question it asks are kept;
2. ``bot.dialog.recommendations.on_recommend`` (the list of 5 and the first card), then for each item
   of the list its card (``recommendations.card``), ``on_why`` and ``on_details``, the reasons the
   dialog gave (``recommendations.why_reasons``, which ``on_why`` renders), and the profile as
   ``bot.dialog.profile.on_show_profile`` lists it;
3. what a person says about the list (issue 23), through the same handlers: a critique of the first
   card by its creator's role ("I like it, but not the director": ``critique.on_yes_but``, and the
   first option of "which one?" when it has several), the rest of the list as it then stands; a skip
   of the next card; a dislike of a genre (or another value) of the list (``on_preference``); a
   constraint of the session on a value of another item ("not X this time":
   ``on_session_constraint``); a suggested item skipped (``suggestions.on_answer``); then the second
   list, its cards, whys and details. Each list goes to the audit with the profile, the session's
   constraints and the answered items that stood when it was computed
   (``recommender.audit_lists.ShownList``).

Everything the handlers return (texts and button labels) is what a user of the chat or Telegram
channel sees. The values a session dislikes are drawn with a generator seeded by ``--seed`` and the
session's number.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import asdict
from typing import Any

from bot import messages as msg
from bot import paths
from bot.dialog.acts import ItemQuestion, Outcome, RoleQuestion
from bot.dialog.context import DialogConfig, TurnContext
from bot.services import DomainServices, Services
from bot.state import DialogState
from bot.turns import Turn
from nlu.intents import IntentPrediction
from nlu.sentiment import Polarity
from nlu.understand import Reading, TurnParse
from recommender.audit import OptionList, Session, Shown
from recommender.audit_lists import ShownList
from recommender.kb import KnowledgeBase
from recommender.recommend import Recommender
from recommender.schema import QID
from recommender.values import Profile

logger = logging.getLogger(__name__)

NOTHING_ELSE_MARK = msg.NOTHING_ELSE.split("{")[0]
"""How a reply says a list had to keep items that break a constraint (``bot.messages.NOTHING_ELSE``)."""
MAX_NAMED = 6
"""Liked entities per session whose names are typed (linked and asked about)."""


class _NoModel:
    """Stands in for the intent and sentiment models: the handlers called here never use them.

    Raises:
        RuntimeError: on any call (a handler that started to use a model would be audited wrongly).
    """

    def predict(
        self, text: str, contexts: Sequence[str] = (), *, events: Sequence[str] | None = None, domain: str | None = None
    ) -> IntentPrediction:
        raise RuntimeError("the audit calls no intent model")

    def polarities(self, text: str, spans: Sequence[tuple[int, int]]) -> Sequence[Polarity]:
        raise RuntimeError("the audit calls no sentiment model")

    def message_polarity(self, text: str) -> Polarity:
        raise RuntimeError("the audit calls no sentiment model")


def audit_services(domain: str, services: DomainServices) -> Services:
    """:class:`bot.services.Services` over one loaded domain (no intent or sentiment model)."""
    return Services(_NoModel(), _NoModel(), lambda name: services)


def _loaded(services: DomainServices) -> tuple[KnowledgeBase, Recommender]:
    """The real knowledge base and recommender behind a domain :func:`bot.compose.load_domain` built (the
    audit reads more of them than the dialog's protocols name: descriptions, the recommender's graph)."""
    kb, recommender = services.kb, services.recommender
    if not isinstance(kb, KnowledgeBase) or not isinstance(recommender, Recommender):
        raise TypeError(f"the audit runs on a loaded snapshot, not on {type(kb).__name__}")
    return kb, recommender


def _ctx(services: Services, state: DialogState, parse: TurnParse) -> TurnContext:
    turn = Turn(user_id="audit", text=parse.text, interaction_type="mixed")
    return TurnContext(state=state, turn=turn, parse=parse, services=services, config=DialogConfig())


def _state(domain: str, profile: Profile) -> DialogState:
    from recommender.schema import Domain

    state = DialogState(domain=Domain(domain))
    stored = state.profile()
    for q in sorted(profile.liked):
        stored[q] = {"polarity": "+", "role": None}
    for q in sorted(profile.disliked):
        stored[q] = {"polarity": "-", "role": None}
    return state


def _shown(where: str, outcome: Outcome) -> list[Shown]:
    out = [Shown(where, outcome.text)] if outcome.text else []
    out.extend(Shown("option", c.label) for c in outcome.choices)
    return out


def simulate(domain: str, services: Services, user: str, profile: Profile, *, seed: int = 0) -> Session:
    """One audited session (see the module docstring) through the dialog's handlers."""
    from bot.dialog.profile import on_show_profile
    from bot.dialog.recommendations import on_recommend

    shown: list[Shown] = []
    options = _name_questions(domain, services, profile, shown)
    state = _state(domain, profile)
    ctx = _ctx(services, state, TurnParse(text="recommend me something", intent="request_recommendation"))
    first_list = _show_list(ctx, on_recommend(ctx), shown)
    rng = random.Random(f"{seed}:{user}")  # the values this session rejects
    later = _state_dislikes(services, ctx, rng, shown, options)
    second = _ctx(services, state, TurnParse(text="recommend me something", intent="request_recommendation"))
    second_list = _show_list(second, on_recommend(second), shown)
    shown.extend(_shown("profile", on_show_profile(_ctx(services, state, TurnParse(text="profile", intent="profile")))))
    return Session(
        user=user,
        profile=profile,
        items=first_list.items,
        reasons=dict(first_list.reasons),
        shown=tuple(shown),
        options=tuple(options),
        lists=(first_list, *later, second_list),
    )


def _name_questions(domain: str, services: Services, profile: Profile, shown: list[Shown]) -> list[OptionList]:
    """The questions the bot asks about the user's names (step 1 of the module docstring)."""
    from bot.dialog.preferences import on_preference

    dom = services.domain(domain)
    kb, linker = dom.kb, dom.linker
    options: list[OptionList] = []
    for qid in sorted(profile.liked)[:MAX_NAMED]:
        if not kb.has(qid) or kb.label(qid) == qid:
            continue  # an unlabelled entity has no name a user could type
        text = kb.label(qid)
        mentions = linker.link(text)
        if not mentions:
            continue
        readings = tuple(Reading(m, Polarity.POSITIVE) for m in mentions)
        scratch = _state(domain, Profile())
        ctx = _ctx(services, scratch, TurnParse(text=text, intent="preference", readings=readings))
        outcome = on_preference(ctx)
        shown.extend(_shown("question" if scratch.pending else "reply", outcome))
        pending = scratch.pending
        labels = tuple(c.label for c in outcome.choices if not c.payload.startswith("none"))
        if isinstance(pending, ItemQuestion):
            options.append(OptionList(labels, tuple(pending.task.candidates[: len(labels)])))
        elif isinstance(pending, RoleQuestion):
            options.append(OptionList(labels, (None,) * len(labels)))
    return options


def _show_list(ctx: TurnContext, first: Outcome, shown: list[Shown], *, start: int | None = None) -> ShownList:
    """Every card of the list on screen from ``start`` (default: its beginning; ``first`` is the reply
    that showed it), with its why, details and reasons, as a :class:`ShownList`."""
    from bot.dialog.constraints import answered, profile_of, session_avoid
    from bot.dialog.recommendations import card, on_details, on_why, why_reasons

    state = ctx.state
    begin = state.rec_pos if start is None else start
    items = tuple(state.rec_list[begin:])
    profile, avoid, done = profile_of(ctx), session_avoid(ctx), answered(ctx)
    cards, whys, reasons = [], [], []
    for pos in range(begin, begin + len(items)):
        state.rec_pos = pos
        item = state.rec_list[pos]
        outcome = first if pos == begin and first.card else card(ctx, [])
        shown.extend(_shown("card", outcome))
        cards.append((item, outcome.text))
        reasons.append((item, why_reasons(ctx, item)))
        why = on_why(ctx)
        whys.append((item, why.text))
        shown.extend(_shown("why", why))
        shown.extend(_shown("details", on_details(ctx)))
    state.rec_pos = begin
    relaxed = NOTHING_ELSE_MARK in first.text
    return ShownList(items, profile, avoid, done, tuple(cards), tuple(whys), tuple(reasons), relaxed)


def _state_dislikes(
    services: Services, ctx: TurnContext, rng: random.Random, shown: list[Shown], options: list[OptionList]
) -> list[ShownList]:
    """Step 3 of the module docstring, up to the second list: the lists shown meanwhile."""
    from bot.dialog.critique import on_critique_answer, on_yes_but
    from bot.dialog.preferences import on_preference
    from bot.dialog.recommendations import on_session_constraint, on_skip_item
    from recommender.constraints import CREATOR_PIDS

    state, (kb, _recommender) = ctx.state, _loaded(ctx.domain)
    items = list(state.rec_list)
    lists: list[ShownList] = []
    if not items:
        return lists
    state.rec_pos = 0
    creator = CREATOR_PIDS[state.domain][0]
    if any(p == creator for p, _v in kb.item_values(items[0])):
        words = "the author" if state.domain == "book" else "the band" if state.domain == "music" else "the director"
        said = f"I like it, but not {words}"
        parse = TurnParse(text=said, intent="request_recommendation - yes_but", roles=(creator,))
        parse = _with(parse, message_polarity=Polarity.POSITIVE)
        critique_ctx = _ctx(services, state, parse)
        outcome = _turn(on_yes_but, critique_ctx)
        shown.extend(_shown("question" if state.pending else "reply", outcome))
        if state.pending is not None:
            labels = tuple(c.label for c in outcome.choices if not c.payload.startswith("none"))
            options.append(OptionList(labels, tuple(getattr(state.pending, "options", ()))[: len(labels)]))
            pick = _ctx(services, state, _with(TurnParse(text="1", intent="answer"), answer=0))
            outcome = _turn(on_critique_answer, pick)
            shown.extend(_shown("card", outcome))
        if state.focus is not None:
            lists.append(_show_list(ctx, outcome, shown))
    if state.focus is not None:
        shown.extend(_shown("card", _turn(on_skip_item, _ctx(services, state, TurnParse(text="skip", intent="skip")))))
    values = _values_of(kb, items, rng)
    if values:
        disliked = values.pop(0)
        parse = TurnParse(
            text=f"I don't like {kb.label(disliked)}", intent="preference", readings=(_reading(kb, disliked),)
        )
        shown.extend(_shown("reply", _turn(on_preference, _ctx(services, state, parse))))
    if values:
        avoided = values.pop(0)
        text = f"not {kb.label(avoided)} this time"
        parse = TurnParse(text=text, intent="preference", readings=(_reading(kb, avoided),))
        outcome = _turn(on_session_constraint, _ctx(services, state, _with(parse, this_time=True)))
        shown.extend(_shown("reply", outcome))
        if state.focus is not None and outcome.card:
            lists.append(_show_list(ctx, outcome, shown))
    _skip_a_suggestion(services, ctx, shown)
    state.rec_list, state.rec_pos = [], 0
    return lists


def _values_of(kb: KnowledgeBase, items: list[str], rng: random.Random) -> list[str]:
    """Labelled property values of the list's items (genres first), shuffled: what a person may reject."""
    genres: list[str] = []
    others: list[str] = []
    for item in items[1:] or items:
        for pid, value in kb.item_values(item):
            if kb.is_item(value) or kb.label(value) == value:
                continue
            (genres if pid == "P136" else others).append(value)
    genres, others = list(dict.fromkeys(genres)), list(dict.fromkeys(others))
    rng.shuffle(genres)
    rng.shuffle(others)
    return list(dict.fromkeys([*genres[:1], *others[:1], *genres[1:2], *others[1:]]))


def _reading(kb: KnowledgeBase, qid: str) -> Reading:
    """A disliked mention of ``qid`` (linked already: the audit checks the lists, not the linker)."""
    from nlu.linker import Candidate, Mention

    label = kb.label(qid)
    candidate = Candidate(QID(qid), label, 1.0, kb.is_item(qid), tuple(kb.roles(qid))[:1], kb.description(qid))
    return Reading(Mention(label, 0, len(label), (candidate,), False), Polarity.NEGATIVE)


def _skip_a_suggestion(services: Services, ctx: TurnContext, shown: list[Shown]) -> None:
    """A suggested item to rate, skipped ("I don't know it"): it must not come back in a list."""
    from bot.dialog.acts import SuggestionQuestion
    from bot.dialog.constraints import answered, profile_of, session_avoid
    from bot.dialog.suggestions import on_answer
    from recommender.elicitation import elicitation_suggestions

    state = ctx.state
    offered = elicitation_suggestions(
        _loaded(ctx.domain)[1],
        profile_of(ctx),
        k=1,
        exclude=(*state.rec_list, *answered(ctx)),
        avoid=session_avoid(ctx),
    )
    if not offered:
        return
    qid = offered[0].qid
    state.pending = SuggestionQuestion(qid=qid, question=f"Do you like {ctx.kb.label(qid)}?")
    shown.extend(_shown("reply", on_answer(_ctx(services, state, TurnParse(text="skip", intent="skip")))))
    state.pending = None


def _turn(handler: Callable[[TurnContext], Outcome], ctx: TurnContext) -> Outcome:
    """A handler's outcome with the step the dialog manager runs after every handler
    (``recommendations.after_turn``: a dislike applies at once to the rest of the list)."""
    from bot.dialog.recommendations import after_turn

    outcome = handler(ctx)
    after_turn(ctx, outcome)
    return outcome


def _with(parse: TurnParse, **changes: Any) -> TurnParse:
    from dataclasses import replace

    return replace(parse, **changes)


def run_audit(args: argparse.Namespace) -> int:
    """Handler of ``corsbot rec audit``."""
    from bot.cli.rec_data import study_users
    from bot.compose import load_domain
    from bot.likes import interactions_for
    from recommender.audit import audit, markdown_report, merge, sample_profiles

    results = {}
    for domain in args.domains:
        users = study_users(domain)
        dom = load_domain(paths.kb_snapshot(domain), interactions=interactions_for(domain))
        services = audit_services(domain, dom)
        profiles = sample_profiles(
            [(u.key, u.liked, u.disliked) for u in users], args.sessions, known=dom.kb.has, seed=args.seed
        )
        sessions = [
            simulate(domain, services, key, profile, seed=args.seed * 1_000_003 + n)
            for n, (key, profile) in enumerate(profiles)
        ]
        result = audit(_loaded(dom)[1], sessions)
        results[domain] = result
        print(
            f"{domain}: sessions={result.sessions} explanations={result.explanations} claims={result.claims} "
            + " ".join(f"{c}={result.value(c)}" for c in result.counts)
            + f" (cards with a known creator: {result.creator_cards})"
        )
        for finding in result.findings[: args.examples]:
            print(f"  {finding.counter}: {finding.user}: {finding.detail}")
    out = args.out or paths.reports_dir() / "rec"
    out.mkdir(parents=True, exist_ok=True)
    (out / "audit.md").write_text(markdown_report(results))
    (out / "audit.json").write_text(
        json.dumps(
            {
                d: {"sessions": r.sessions, "counts": dict(r.counts), "findings": [asdict(f) for f in r.findings]}
                for d, r in results.items()
            },
            indent=2,
        )
        + "\n"
    )
    print(f"report: {out / 'audit.md'}")
    print(merge(results.values()).summary_line())
    return 0
