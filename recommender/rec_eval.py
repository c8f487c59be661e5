"""Offline leave-one-out evaluation of the recommender on the released user study (issue 6).

Protocol (per domain):

- a user's profile is the set of QIDs they liked (``+`` in ``recognizedObjects`` of preference and
  recommendation-rating turns; the CLI glue extracts it, this module gets :class:`StudyUser`);
- for each liked QID that is a recommendable item present in the graph (a *case*): hide it,
  recommend from the rest of the liked QIDs (items and property values), and find the rank of the
  hidden item among all *unrated* items of the domain (every KB item minus the user's liked and
  disliked QIDs, plus the hidden one);
- metrics per case: HR@5, HR@10 (hit if rank <= k), NDCG@10 (``1/log2(rank+1)`` if rank <= 10,
  one relevant item), MRR (``1/rank``); averaged over cases (micro);
- baselines on the same cases and candidates: *popularity* = number of OTHER study users of the
  domain who liked the item (never the held-out user's own data) and *random* (seeded);
- ties are broken uniformly at random (seeded) for every method, so a flat score is not rewarded.

Nothing of the held-out item reaches the recommender: the graph comes from the knowledge base, the
prior from the user's other likes only.

Example:
    >>> rank_of(np.array([0.5, 0.9, 0.5]), 0, np.random.default_rng(0)) in (2, 3)
    True
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field

import numpy as np
from numpy.typing import NDArray

from recommender.recommend import Profile, Recommender

logger = logging.getLogger(__name__)

METHODS = ("pagerank", "popularity", "random")


@dataclass(frozen=True, slots=True)
class StudyUser:
    """One user of the released study (per domain file).

    Attributes:
        key: unique id within the domain, e.g. ``"messages_nl.json#12"``.
        liked: liked QIDs (items and property values), in first-mention order.
        disliked: disliked QIDs.
    """

    key: str
    liked: tuple[str, ...]
    disliked: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Metrics:
    """Averages over cases (each in [0, 1])."""

    hr5: float
    hr10: float
    ndcg10: float
    mrr: float

    @classmethod
    def from_ranks(cls, ranks: Sequence[int]) -> Metrics:
        """Metrics from 1-based ranks of the held-out item (empty -> zeros)."""
        if not ranks:
            return cls(0.0, 0.0, 0.0, 0.0)
        r = np.asarray(ranks, dtype=np.float64)
        return cls(hr5=float(np.mean(r <= 5)), hr10=float(np.mean(r <= 10)),
                   ndcg10=float(np.mean(np.where(r <= 10, 1.0 / np.log2(r + 1), 0.0))),
                   mrr=float(np.mean(1.0 / r)))


@dataclass(frozen=True, slots=True)
class DomainResult:
    """Leave-one-out result of one domain.

    Attributes:
        domain: domain name.
        users: users with at least one case.
        users_total: users in the study file(s) with at least one like.
        cases: held-out items evaluated.
        liked_not_item: liked QIDs skipped because they are not a recommendable item in the graph
            (property values, or items missing from the graph).
        candidates: number of items of the domain (candidate pool before removing rated ones).
        metrics: method name -> :class:`Metrics`.
        fallback_cases: cases where the recommender fell back to popularity (no other like in the
            graph).
        isolated_cases: cases whose held-out item has no edge in the graph (a node, but nothing
            can lead a walk to it: only teleport mass, ranked below every connected item).
        metrics_connected: the metrics over the other cases only (held-out item with an edge);
            reported as a breakdown, the headline metrics count every case.
        seconds: wall time of the evaluation.
        settings: recommender settings used.
    """

    domain: str
    users: int
    users_total: int
    cases: int
    liked_not_item: int
    candidates: int
    metrics: Mapping[str, Metrics]
    fallback_cases: int
    seconds: float
    settings: Mapping[str, object] = field(default_factory=dict)
    isolated_cases: int = 0
    metrics_connected: Mapping[str, Metrics] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        """A JSON-serialisable dict."""
        out = asdict(self)
        out["metrics"] = {m: asdict(v) for m, v in self.metrics.items()}
        out["metrics_connected"] = {m: asdict(v) for m, v in self.metrics_connected.items()}
        out["settings"] = dict(self.settings)
        return out


def rank_of(scores: NDArray[np.float64], target: int, rng: np.random.Generator) -> int:
    """1-based rank of ``scores[target]`` with ties broken uniformly at random.

    Args:
        scores: (c,) candidate scores (higher is better; -inf allowed).
        target: index of the held-out candidate.
        rng: random generator for the tie break.
    """
    s = scores[target]
    greater = int(np.count_nonzero(scores > s))
    ties = int(np.count_nonzero(scores == s)) - 1
    return 1 + greater + (int(rng.integers(0, ties + 1)) if ties > 0 else 0)


def study_popularity(users: Iterable[StudyUser]) -> Counter[str]:
    """How many users liked each QID (each user counted once per QID)."""
    counts: Counter[str] = Counter()
    for u in users:
        counts.update(set(u.liked))
    return counts


def evaluate_domain(recommender: Recommender, users: Sequence[StudyUser], *, seed: int = 0,
                    progress: Callable[[int, int], None] | None = None) -> DomainResult:
    """Leave-one-out over every liked item of every user (see module docstring).

    Args:
        recommender: the domain's recommender (its settings are recorded in the result).
        users: the study users of the domain.
        seed: seed of the random baseline and of tie breaking.
        progress: optional callback ``(done_users, total_users)``.

    Returns:
        :class:`DomainResult` with metrics for ``pagerank``, ``popularity`` and ``random``.
    """
    t0 = time.perf_counter()
    rng = np.random.default_rng(seed)
    kb_items = recommender.item_qids + recommender.missing_items
    pos = {q: i for i, q in enumerate(kb_items)}
    n_graph = len(recommender.item_qids)
    n = len(kb_items)
    counts = study_popularity(users)
    popularity_all = np.fromiter((counts.get(q, 0) for q in kb_items), dtype=np.float64, count=n)
    ranks: dict[str, list[int]] = {m: [] for m in METHODS}
    connected: list[bool] = []
    out_weight = recommender.graph.out_weight
    n_users = n_cases = skipped = fallbacks = 0
    users_total = 0
    for done, user in enumerate(users, 1):
        liked = tuple(dict.fromkeys(user.liked))
        if not liked:
            continue
        users_total += 1
        rated = set(liked) | set(user.disliked)
        rated_pos = [pos[q] for q in rated if q in pos]
        own = np.zeros(n)
        for q in set(liked):
            if q in pos:
                own[pos[q]] = 1.0
        user_cases = 0
        for held in liked:
            hp = pos.get(held)
            if hp is None or hp >= n_graph:
                skipped += 1
                continue
            user_cases += 1
            connected.append(bool(out_weight[recommender.item_index[hp]] > 0))
            candidates = np.ones(n, dtype=bool)
            candidates[rated_pos] = False
            candidates[hp] = True
            cand_idx = np.flatnonzero(candidates)
            target = int(np.searchsorted(cand_idx, hp))
            profile = Profile(liked=frozenset(q for q in liked if q != held))
            item_scores, reason = recommender.item_scores(profile)
            if item_scores is None:
                fallbacks += 1
                item_scores = recommender.item_popularity
            ppr = np.full(n, -np.inf)
            ppr[:n_graph] = item_scores
            pop = popularity_all - own  # other users only
            rnd = rng.random(n)
            for method, sc in (("pagerank", ppr), ("popularity", pop), ("random", rnd)):
                ranks[method].append(rank_of(sc[cand_idx], target, rng))
        if user_cases:
            n_users += 1
            n_cases += user_cases
        if progress is not None:
            progress(done, len(users))
    settings = {
        "damping": recommender.damping, "prior_mass": recommender.prior_mass,
        "hub_exponent": recommender.weighting.hub_exponent,
        "item_exponent": recommender.weighting.item_exponent,
        "method": recommender.method,
        "pid_weights": dict(recommender.weighting.pid_weights),
        "default_pid_weight": recommender.weighting.default_pid_weight,
        "seed": seed,
    }
    result = DomainResult(
        domain=getattr(recommender.kb, "domain", "?"), users=n_users, users_total=users_total, cases=n_cases,
        liked_not_item=skipped, candidates=n, metrics={m: Metrics.from_ranks(r) for m, r in ranks.items()},
        fallback_cases=fallbacks, seconds=time.perf_counter() - t0, settings=settings,
        isolated_cases=connected.count(False),
        metrics_connected={m: Metrics.from_ranks([x for x, c in zip(r, connected) if c]) for m, r in ranks.items()})
    logger.info("evaluated %s: %d users, %d cases in %.1f s", result.domain, n_users, n_cases, result.seconds)
    return result


def summary_line(results: Mapping[str, DomainResult]) -> str:
    """The machine-readable last line of ``corsbot rec evaluate`` (issue 6).

    ``rec: users=U cases=C hr10_movie=HM popularity_hr10_movie=PM random_hr10_movie=RM
    ndcg10_movie=NM hr10_book=HB hr10_music=HU`` (U and C over all domains; 3 decimals; a missing
    domain gives ``nan``).
    """
    def metric(domain: str, method: str, name: str) -> str:
        r = results.get(domain)
        if r is None or r.cases == 0:
            return "nan"
        return f"{getattr(r.metrics[method], name):.3f}"

    users = sum(r.users for r in results.values())
    cases = sum(r.cases for r in results.values())
    return (f"rec: users={users} cases={cases} hr10_movie={metric('movie', 'pagerank', 'hr10')} "
            f"popularity_hr10_movie={metric('movie', 'popularity', 'hr10')} "
            f"random_hr10_movie={metric('movie', 'random', 'hr10')} "
            f"ndcg10_movie={metric('movie', 'pagerank', 'ndcg10')} "
            f"hr10_book={metric('book', 'pagerank', 'hr10')} hr10_music={metric('music', 'pagerank', 'hr10')}")


def markdown_report(results: Mapping[str, DomainResult]) -> str:
    """A Markdown table of every domain and method."""
    lines = ["# Recommender leave-one-out evaluation (released ConveRSE study)", "",
             "| domain | users | cases | items | method | HR@5 | HR@10 | NDCG@10 | MRR |",
             "|---|---:|---:|---:|---|---:|---:|---:|---:|"]
    for r in results.values():
        for m, v in r.metrics.items():
            lines.append(f"| {r.domain} | {r.users} | {r.cases} | {r.candidates} | {m} | {v.hr5:.3f} | "
                         f"{v.hr10:.3f} | {v.ndcg10:.3f} | {v.mrr:.3f} |")
    lines.append("")
    lines.append("Breakdown: cases whose held-out item has at least one edge (isolated items are nodes of the "
                 "graph but unreachable by the walk):")
    lines.append("")
    lines.append("| domain | connected cases | isolated cases | method | HR@10 | NDCG@10 |")
    lines.append("|---|---:|---:|---|---:|---:|")
    for r in results.values():
        for m, v in r.metrics_connected.items():
            lines.append(f"| {r.domain} | {r.cases - r.isolated_cases} | {r.isolated_cases} | {m} | {v.hr10:.3f} | "
                         f"{v.ndcg10:.3f} |")
    lines.append("")
    for r in results.values():
        lines.append(f"- {r.domain}: {r.users_total} users with likes, {r.users} with a case; "
                     f"{r.liked_not_item} liked QIDs not a recommendable graph item (skipped); "
                     f"{r.fallback_cases} cases fell back to popularity; settings {dict(r.settings)}; "
                     f"{r.seconds:.1f} s")
    lines.append("")
    lines.append("Ties broken uniformly at random (seeded) for every method; popularity counts other users only.")
    return "\n".join(lines) + "\n"


__all__ = ["METHODS", "DomainResult", "Metrics", "StudyUser", "evaluate_domain", "markdown_report", "rank_of",
           "study_popularity", "summary_line"]
