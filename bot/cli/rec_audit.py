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
   recommender gave (``Recommender.explain``, which ``on_why`` renders), and the profile as
   ``bot.dialog.profile.on_show_profile`` lists it.

Everything the handlers return (texts and button labels) is what a user of the chat or Telegram
channel sees.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict
from typing import Any

from bot import paths
from bot.dialog.acts import ItemQuestion, Outcome, RoleQuestion
from bot.dialog.context import DialogConfig, TurnContext
from bot.services import DomainServices, Services
from bot.state import DialogState
from bot.turns import Turn
from nlu.sentiment import Polarity
from nlu.understand import Reading, TurnParse
from recommender.audit import OptionList, Session, Shown
from recommender.recommend import Profile

logger = logging.getLogger(__name__)

MAX_NAMED = 6
"""Liked entities per session whose names are typed (linked and asked about)."""


class _NoModel:
    """Stands in for the intent and sentiment models: the handlers called here never use them."""

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f"the audit calls no NLU model ({name})")


def audit_services(domain: str, services: DomainServices) -> Services:
    """:class:`bot.services.Services` over one loaded domain (no intent or sentiment model)."""
    return Services(_NoModel(), _NoModel(), lambda name: services)  # type: ignore[arg-type]


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
    from bot.dialog.preferences import on_preference
    from bot.dialog.profile import on_show_profile
    from bot.dialog.recommendations import card, on_details, on_recommend, on_why
    from bot.dialog.suggest import profile_of

    dom = services.domain(domain)
    kb, linker, recommender = dom.kb, dom.linker, dom.recommender
    shown: list[Shown] = []
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
    state = _state(domain, profile)
    ctx = _ctx(services, state, TurnParse(text="recommend me something", intent="request_recommendation"))
    first = on_recommend(ctx)
    shown.extend(_shown("card", first))
    items = tuple(state.rec_list)
    reasons = {}
    for pos, item in enumerate(items):
        state.rec_pos = pos
        if pos:
            shown.extend(_shown("card", card(ctx, [])))
        reasons[item] = recommender.explain(profile_of(ctx), item)  # what on_why renders
        shown.extend(_shown("why", on_why(ctx)))
        shown.extend(_shown("details", on_details(ctx)))
    shown.extend(_shown("profile", on_show_profile(_ctx(services, state, TurnParse(text="profile", intent="profile")))))
    return Session(user=user, profile=profile, items=items, reasons=reasons, shown=tuple(shown), options=tuple(options))


def run_audit(args: Any) -> int:
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
        sessions = [simulate(domain, services, key, profile) for key, profile in profiles]
        result = audit(dom.recommender, sessions)  # type: ignore[arg-type]
        results[domain] = result
        print(
            f"{domain}: sessions={result.sessions} explanations={result.explanations} claims={result.claims} "
            + " ".join(f"{c}={n}" for c, n in result.counts.items())
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
