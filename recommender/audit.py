"""Audit of what users are shown about recommendations (issue 16; ``corsbot rec audit``).

A *session* is one simulated user: a released study user's likes (a seeded random subset of at
least three of them) as the profile, the list of 5 recommendations, and for each item its card,
its "why" and its details, plus the profile as the bot lists it and the questions the bot would ask
about the user's names (a disambiguation or role question for each liked entity's label). The texts
are rendered by the dialog's own handlers (``bot/cli/rec_audit.py`` drives them; this module never
imports the dialog) and handed over as :class:`Session` values, with the reasons the recommender
gave for each item. :func:`audit` counts five kinds of fault:

- ``wrong_kind``: a recommended entity that is not an item of the domain: not ``kb.is_item`` or its
  kind (``KnowledgeBase.kind``) not an item kind of the schema (``DomainSchema.item_kinds``: films;
  books; songs and albums);
- ``bare_ids``: a shown text (card, option, profile, explanation, details, reply) with a Wikidata id
  ``Q123`` outside a URL;
- ``false_explanations``: a reason one of whose claims (:func:`recommender.explain.reason_claims`:
  the facts its sentence states) is not a KB claim (``kb.item_values``), or is not an edge of the
  walked graph with a positive weight (the path must have carried PageRank mass), or names as liked
  something the profile does not like; a collaborative claim must be backed by another user of the
  graph who liked both;
- ``weak_only_explanations``: every reason given rests on a weak property (record label,
  publisher, production company, instrument; country, award, language:
  :func:`recommender.schema.weak_pids`) while a stronger one links the item to the profile (a liked
  value of the item, or a value it shares with a liked item, through a property that is not weak);
- ``duplicate_options``: a question whose options contain two that look the same (equal names once
  case, accents and punctuation are ignored), or two property values of one kind whose names are
  near-duplicates (``recommender.kinds.genre_key``: "crime" / "crime novel" / "crime fiction");
- ``constraint_violations``, ``repeats``, ``creator_missing`` (issue 23) over the session's lists
  (:class:`recommender.audit_lists.ShownList`: the first list, the rest of it after a critique, the
  list after the stated dislikes, a skip and a constraint of the session), and ``wrong_kind`` also by
  the items' classes and descriptions (``audit_lists.wrong_class``): see :mod:`recommender.audit_lists`.
  ``creator_missing`` is a share in the summary line: cards without their creator over the cards
  whose item has a known creator.

Each fault is also kept as a :class:`Finding` (session, counter, detail) for the report.

Example:
    >>> bare_ids("Genres: pop, Q253137 (https://www.wikidata.org/wiki/Q42)")
    ['Q253137']
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from recommender.audit_lists import ShownList, constraint_violations, creator_cards, repeats, wrong_class
from recommender.explain import Reason, ReasonKind, reason_claims
from recommender.kbgraph import LIKED_BY, USER_NODE_PREFIX
from recommender.kinds import genre_key
from recommender.schema import DOMAINS, weak_pids
from recommender.values import Profile

if TYPE_CHECKING:
    from recommender.recommend import Recommender

COUNTERS = (
    "wrong_kind",
    "bare_ids",
    "false_explanations",
    "weak_only_explanations",
    "duplicate_options",
    "constraint_violations",
    "repeats",
    "creator_missing",
)
"""The audit's counters, in the order of the summary line (``creator_missing`` printed as a share)."""

_URL = re.compile(r"https?://\S+")
_QID = re.compile(r"(?<![\w/#=:])Q\d+\b")


@dataclass(frozen=True, slots=True)
class Shown:
    """One text a user saw: ``where`` (``card``, ``why``, ``details``, ``profile``, ``option``,
    ``question``, ``reply``) and the text (a button's label for ``option``)."""

    where: str
    text: str


@dataclass(frozen=True, slots=True)
class OptionList:
    """The options of one question as shown (``labels``) and what each stands for (``qids``: a QID,
    or None for an option that is not an entity, e.g. a role)."""

    labels: tuple[str, ...]
    qids: tuple[str | None, ...] = ()


@dataclass(frozen=True, slots=True)
class Session:
    """What one simulated user was shown.

    Attributes:
        user: the study user key the likes came from.
        profile: the profile the recommendations and explanations were computed for.
        items: the recommended items, in order.
        reasons: item -> the reasons the recommender gave (``Recommender.explain``), for each item
            whose "why" was shown.
        shown: every text shown.
        options: every question's options.
        lists: every list shown with what stood then (issue 23); the first is ``items``; the reasons
            of the later ones are checked like ``reasons``, against their own profile.
    """

    user: str
    profile: Profile
    items: tuple[str, ...] = ()
    reasons: Mapping[str, tuple[Reason, ...]] = field(default_factory=dict)
    shown: tuple[Shown, ...] = ()
    options: tuple[OptionList, ...] = ()
    lists: tuple[ShownList, ...] = ()


@dataclass(frozen=True, slots=True)
class Finding:
    """One fault: the counter it adds to, the session's user and what was wrong."""

    counter: str
    user: str
    detail: str


@dataclass(frozen=True, slots=True)
class AuditResult:
    """Counts per counter (:data:`COUNTERS`) over ``sessions`` sessions, the findings, and how many
    explanations and claims were checked."""

    sessions: int
    counts: Mapping[str, int]
    findings: tuple[Finding, ...]
    explanations: int = 0
    claims: int = 0
    creator_cards: int = 0

    @property
    def creator_missing_share(self) -> float:
        """Cards without their known creator over the cards whose item has one (0 when none)."""
        return self.counts.get("creator_missing", 0) / self.creator_cards if self.creator_cards else 0.0

    def value(self, counter: str) -> str:
        """A counter as the summary line prints it (``creator_missing``: the share, ``0`` when none)."""
        if counter == "creator_missing":
            return f"{self.creator_missing_share:.3g}"
        return str(self.counts.get(counter, 0))

    def summary_line(self) -> str:
        """``audit: sessions=N wrong_kind=A bare_ids=B false_explanations=C weak_only_explanations=D
        duplicate_options=E constraint_violations=F repeats=G creator_missing=H`` (H a share)."""
        return f"audit: sessions={self.sessions} " + " ".join(f"{c}={self.value(c)}" for c in COUNTERS)


# -- sampling --------------------------------------------------------------------------------


def sample_profiles(
    users: Sequence[tuple[str, Sequence[str], Sequence[str]]],
    n: int,
    *,
    known: Callable[[str], bool],
    seed: int = 0,
    min_likes: int = 3,
) -> list[tuple[str, Profile]]:
    """``n`` simulated users: each a random study user (with at least ``min_likes`` liked QIDs the
    KB knows) and a random subset of ``min_likes`` or more of their likes (seeded; dislikes kept).

    Args:
        users: ``(key, liked, disliked)`` per study user.
        n: number of profiles (>= 0).
        known: QID -> the KB knows it.
        seed: random seed.
        min_likes: smallest profile.

    Returns:
        ``[(user key, Profile)]``, empty if no user has enough likes.
    """
    rng = np.random.default_rng(seed)
    pool = []
    for key, liked, disliked in users:
        likes = [q for q in dict.fromkeys(liked) if known(q)]
        if len(likes) >= min_likes:
            pool.append((key, likes, [q for q in dict.fromkeys(disliked) if known(q) and q not in likes]))
    out: list[tuple[str, Profile]] = []
    if not pool:
        return out
    for _ in range(n):
        key, likes, dislikes = pool[int(rng.integers(len(pool)))]
        size = int(rng.integers(min_likes, len(likes) + 1))
        chosen = [likes[i] for i in sorted(rng.choice(len(likes), size=size, replace=False))]
        out.append((key, Profile(liked=frozenset(chosen), disliked=frozenset(dislikes))))
    return out


# -- checks ----------------------------------------------------------------------------------


def bare_ids(text: str) -> list[str]:
    """Wikidata ids shown as text in ``text`` (URLs left out)."""
    return _QID.findall(_URL.sub(" ", text))


def wrong_kind(kb: Any, qid: str) -> str | None:
    """Why ``qid`` is not an item of ``kb``'s domain (None when it is one)."""
    if not kb.is_item(qid):
        return "not an item of the KB"
    schema = DOMAINS.get(getattr(kb, "domain", ""))
    if not callable(getattr(kb, "kind", None)):
        return None  # a KB without kinds (a test fake): items are what it says
    kind = kb.kind(qid)
    if schema is not None and schema.kinds and kind not in schema.item_kinds:
        return f"kind {kind!r} is not an item kind of {schema.name} ({', '.join(schema.item_kinds)})"
    return None


def _has_claim(kb: Any, subject: str, pid: str, value: str) -> bool:
    return (pid, value) in set(kb.item_values(subject))


def _edge_weight(recommender: Recommender, a: str, b: str) -> float:
    g = recommender.graph
    i, j = g.index.get(a), g.index.get(b)
    if i is None or j is None:
        return 0.0
    wt = g.weights_t
    start, end = wt.indptr[i], wt.indptr[i + 1]
    hit = np.flatnonzero(wt.indices[start:end] == j)
    return float(wt.data[start + hit[0]]) if hit.size else 0.0


def reason_problems(recommender: Recommender, profile: Profile, item: str, reason: Reason) -> list[str]:
    """What is false in ``reason`` for ``item`` (empty: every claim holds; see the module docstring).

    Checks the facts the sentence states against the KB's claims, that each is an edge of the
    walked graph with a positive weight, that what it calls liked is liked, and that the reason
    carried mass (weight > 0).
    """
    kb = recommender.kb
    profile = recommender.canonical_profile(profile)
    problems: list[str] = []
    if not reason.weight > 0:
        problems.append(f"{reason.kind} {reason.entity} carried no mass")
    liked_entity = reason.kind in (ReasonKind.LIKED_VALUE, ReasonKind.SHARED_VALUE, ReasonKind.CO_LIKED)
    if liked_entity and reason.entity not in profile.liked:
        problems.append(f"{reason.kind}: {reason.entity} is not liked")
    if reason.kind == ReasonKind.RELATED_VALUE and reason.entity in profile.liked:
        problems.append(f"related value {reason.entity} is liked (should be said so)")
    claims = reason_claims(kb, item, reason)
    if not claims:
        problems.append(f"{reason.kind} {reason.entity}: no checkable claim")
    for c in claims:
        if c.pid == LIKED_BY:
            if not _co_liked(recommender, c.subject, c.value):
                problems.append(f"no other user liked both {c.subject} and {c.value}")
            continue
        if not _has_claim(kb, c.subject, c.pid, c.value):
            problems.append(f"not in the KB: {c.subject} -{c.pid}-> {c.value}")
        elif _edge_weight(recommender, c.subject, c.value) <= 0:
            problems.append(f"not a weighted graph edge: {c.subject} -{c.pid}-> {c.value}")
    return problems


def _co_liked(recommender: Recommender, a: str, b: str) -> bool:
    g = recommender.graph
    i, j = g.index.get(a), g.index.get(b)
    if i is None or j is None:
        return False
    wt = g.weights_t
    nodes = g.nodes

    def users(k: int) -> set[int]:
        cols = wt.indices[wt.indptr[k] : wt.indptr[k + 1]]
        return {int(c) for c in cols if str(nodes[int(c)]).startswith(USER_NODE_PREFIX)}

    return bool(users(i) & users(j))


def weak_only(recommender: Recommender, profile: Profile, item: str, reasons: Sequence[Reason]) -> str | None:
    """Why the reasons of ``item`` are weak-only (None when they are not): each rests on a weak
    property while a liked value of the item, or a value it shares with a liked item, is linked to
    it by a property that is not weak."""
    kb = recommender.kb
    weak = weak_pids(getattr(kb, "domain", None))
    if not reasons or any(r.kind == ReasonKind.CO_LIKED or (r.pid or "").lstrip("~") not in weak for r in reasons):
        return None
    profile = recommender.canonical_profile(profile)
    liked = profile.liked - profile.disliked
    values = [(p, v) for p, v in kb.item_values(item)] + [(p, s) for p, s in kb.value_items(item)]
    for pid, value in values:
        if pid in weak or value in profile.disliked:
            continue
        if value in liked:
            return f"only weak reasons, but {value} (liked) is its {pid}"
        for p2, other in [*kb.value_items(value), *kb.item_values(value)]:
            if other in liked and other != item and p2 not in weak:
                return f"only weak reasons, but it shares {value} ({pid}) with the liked {other}"
    return None


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(re.sub(r"[^\w]+", " ", text).split())


_CONCEPT_KINDS = frozenset({"genre", "series", "movement", "label"})
"""Kinds whose entities are their names: two of them with near-duplicate names are one thing twice."""


def _split_option(text: str) -> tuple[str, frozenset[str]]:
    """``"Dune (1984, film by David Lynch)"`` -> (folded label, folded qualifiers)."""
    label, qualifiers = text, ""
    if text.endswith(")") and " (" in text:
        label, _, qualifiers = text[:-1].rpartition(" (")
    parts = frozenset(_fold(p) for p in qualifiers.split(",") if _fold(p))
    return _fold(re.sub(r"^(the|a|an) ", "", label.casefold())), parts


def duplicate_options(kb: Any, options: OptionList) -> list[str]:
    """Pairs of options of one question that look the same (see the module docstring): equal names;
    the same label with one's qualifiers among the other's ("Pink (artist)" / "Pink (artist,
    lyricist)": nothing tells them apart); genres, series, movements or labels whose names are
    near-duplicates (``genre_key``)."""
    out: list[str] = []
    labels, qids = options.labels, options.qids or (None,) * len(options.labels)
    split = [_split_option(label) for label in labels]
    for a in range(len(labels)):
        for b in range(a + 1, len(labels)):
            (la, qa), (lb, qb) = split[a], split[b]
            if _fold(labels[a]) == _fold(labels[b]):
                out.append(f"same option twice: {labels[a]!r} / {labels[b]!r}")
            elif la == lb and (qa <= qb or qb <= qa):
                out.append(f"not told apart: {labels[a]!r} / {labels[b]!r}")
    keyed: dict[tuple[str, str], str] = {}
    for label, qid in zip(labels, qids, strict=False):
        if qid is None or not kb.has(qid) or kb.is_item(qid):
            continue
        kind = kb.kind(qid) if callable(getattr(kb, "kind", None)) else None
        if kind not in _CONCEPT_KINDS:
            continue
        key = (str(kind), genre_key(kb.label(qid)))
        if key[1] and key in keyed:
            out.append(f"near-duplicate {kind}s: {keyed[key]!r} / {label!r}")
        keyed.setdefault(key, label)
    return out


# -- the audit -------------------------------------------------------------------------------


def audit_session(recommender: Recommender, session: Session) -> tuple[list[Finding], int, int]:
    """The findings of one session, and how many explanations and claims were checked."""
    kb = recommender.kb
    user = session.user
    found: list[Finding] = []
    listed = dict.fromkeys([*session.items, *(q for shown in session.lists for q in shown.items)])
    for qid in listed:
        why = wrong_kind(kb, qid) or wrong_class(kb, qid)
        if why:
            found.append(Finding("wrong_kind", user, f"{qid} {kb.label(qid)!r}: {why}"))
    for shown_list in session.lists:
        found.extend(Finding("constraint_violations", user, d) for d in constraint_violations(kb, shown_list))
        found.extend(Finding("repeats", user, d) for d in repeats(kb, shown_list))
    _due, missing = creator_cards(kb, session.lists)
    found.extend(Finding("creator_missing", user, d) for d in missing)
    for shown in session.shown:
        ids = bare_ids(shown.text)
        if ids:
            found.append(Finding("bare_ids", user, f"{shown.where}: {', '.join(ids)} in {shown.text[:160]!r}"))
    n_claims = 0
    explained = [(session.profile, item, reasons) for item, reasons in session.reasons.items()]
    explained += [(s.profile, item, reasons) for s in session.lists[1:] for item, reasons in s.reasons]
    for profile, item, reasons in explained:
        for reason in reasons:
            n_claims += len(reason_claims(kb, item, reason))
            problems = reason_problems(recommender, profile, item, reason)
            if problems:
                said = f"{reason.kind} entity={reason.entity} pid={reason.pid} via={reason.via}"
                found.append(
                    Finding("false_explanations", user, f"{item} {kb.label(item)!r} ({said}): {'; '.join(problems)}")
                )
        weak = weak_only(recommender, profile, item, reasons)
        if weak:
            found.append(Finding("weak_only_explanations", user, f"{item} {kb.label(item)!r}: {weak}"))
    for options in session.options:
        for dup in duplicate_options(kb, options):
            found.append(Finding("duplicate_options", user, dup))
    return found, len(explained), n_claims


def audit(recommender: Recommender, sessions: Iterable[Session]) -> AuditResult:
    """Audit every session (see the module docstring).

    Returns:
        :class:`AuditResult`: ``counts[c]`` = number of findings of counter ``c`` (a text with two
        bare ids is one finding; a false explanation counts once per false reason).
    """
    findings: list[Finding] = []
    n = explanations = claims = due = 0
    for session in sessions:
        n += 1
        found, e, c = audit_session(recommender, session)
        findings.extend(found)
        explanations += e
        claims += c
        due += creator_cards(recommender.kb, session.lists)[0]
    counts = {c: sum(1 for f in findings if f.counter == c) for c in COUNTERS}
    return AuditResult(n, counts, tuple(findings), explanations, claims, due)


def markdown_report(results: Mapping[str, AuditResult], *, examples: int = 10) -> str:
    """A Markdown report: counts per domain and up to ``examples`` findings per counter."""
    lines = ["# Recommendation audit (`corsbot rec audit`)", ""]
    lines.append("| domain | sessions | explanations | claims | " + " | ".join(COUNTERS) + " |")
    lines.append("|---|---:|---:|---:|" + "---:|" * len(COUNTERS))
    for domain, r in results.items():
        lines.append(
            f"| {domain} | {r.sessions} | {r.explanations} | {r.claims} | "
            + " | ".join(r.value(c) for c in COUNTERS)
            + " |"
        )
    for domain, r in results.items():
        for c in COUNTERS:
            some = [f for f in r.findings if f.counter == c][:examples]
            if some:
                lines += ["", f"## {domain}: {c}", ""]
                lines += [f"- {f.user}: {f.detail}" for f in some]
    return "\n".join(lines) + "\n"


def merge(results: Iterable[AuditResult]) -> AuditResult:
    """The results of several domains as one (sums)."""
    results = list(results)
    counts = {c: sum(r.counts.get(c, 0) for r in results) for c in COUNTERS}
    return AuditResult(
        sum(r.sessions for r in results),
        counts,
        tuple(f for r in results for f in r.findings),
        sum(r.explanations for r in results),
        sum(r.claims for r in results),
        sum(r.creator_cards for r in results),
    )


__all__ = [
    "COUNTERS",
    "AuditResult",
    "Finding",
    "OptionList",
    "Session",
    "Shown",
    "audit",
    "audit_session",
    "bare_ids",
    "duplicate_options",
    "markdown_report",
    "merge",
    "reason_problems",
    "sample_profiles",
    "weak_only",
    "wrong_kind",
]
