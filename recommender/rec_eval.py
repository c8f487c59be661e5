"""Offline leave-one-out evaluation of the recommender on the released user study (issue 6).

Protocol (per domain):

- a user's profile is the set of QIDs they liked (``+`` in ``recognizedObjects`` of preference and
  recommendation-rating turns; the CLI glue extracts it, this module gets :class:`StudyUser`);
- **cases**: the issue says "leave-one-out over each liked item present in the graph". The graph
  is the item-property graph built from the knowledge base's triples, i.e. from its *edges*: a
  liked item with at least one property edge in the KB is in the graph and is a case. A liked KB
  item without any property edge (the KB lists it, but it has no director, cast, genre, ...) is
  *not reachable*: it is not part of the graph in that sense, so it is not a headline case; it is
  counted as ``unreachable_cases`` and scored separately (``metrics_unreachable``), and the
  figures over both kinds together are kept too (``metrics_all_items``), so nobody is misled.
  The case set depends on the KB only, never on the method (user edges of the collaborative
  graph do not make an item "in the graph" for this definition);
- each case: hide the item, recommend from the rest of the user's liked QIDs (items and property
  values), and find the rank of the hidden item among all *unrated* items of the domain (every KB
  item, connected or not, minus the user's liked and disliked QIDs, plus the hidden one);
- metrics per case: HR@5, HR@10 (hit if rank <= k), NDCG@10 (``1/log2(rank+1)`` if rank <= 10,
  one relevant item), MRR (``1/rank``); averaged over cases (micro); also per user group (the
  study file: ``messages_nl.json`` / ``messages_mixed.json``), used to choose settings on one
  group and confirm them on the other;
- baselines on the same cases and candidates: *popularity* = number of OTHER study users of the
  domain who liked the item (never the held-out user's own data), *knn* = collaborative item-kNN
  over the same likes (:class:`ItemKnn`: cosine similarity of two QIDs' sets of OTHER users who
  liked them, each liked QID of the profile voting for its :data:`KNN_NEIGHBOURS` most similar
  items, Deshpande & Karypis, ACM TOIS 2004) and *random* (seeded);
- ties are broken uniformly at random (seeded) for every method, so a flat score is not rewarded.

No leak: the prior comes from the user's other likes only. If the recommender has a
collaborative graph (user nodes linked to their likes, built from the same study), the held-out
user's own node and edges are removed for every one of their cases (``hide_users``), so the walk
only sees OTHER users' likes -- exactly the data the popularity baseline counts.

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

METHODS = ("pagerank", "popularity", "knn", "random")
LISTED = "pagerank_listed"
"""The recommender's ranking with the order of its lists (issue 23): in music, items without a known
performer after all the others (``Recommender.shown_after``). Measured where that order applies, beside
``pagerank`` (the ranking the headline figures and the summary line report)."""

KNN_NEIGHBOURS = 50
"""Neighbourhood size of the item-kNN baseline (items kept per liked QID); see docs/benchmarks.md."""


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
        return cls(
            hr5=float(np.mean(r <= 5)),
            hr10=float(np.mean(r <= 10)),
            ndcg10=float(np.mean(np.where(r <= 10, 1.0 / np.log2(r + 1), 0.0))),
            mrr=float(np.mean(1.0 / r)),
        )


@dataclass(frozen=True, slots=True)
class DomainResult:
    """Leave-one-out result of one domain.

    Attributes:
        domain: domain name.
        users: users with at least one case.
        users_total: users in the study file(s) with at least one like.
        cases: held-out items evaluated (liked items with an edge in the KB graph).
        liked_not_item: liked QIDs that are not a recommendable item of the KB (property values,
            or QIDs the KB does not know); never cases.
        candidates: number of items of the domain (candidate pool before removing rated ones).
        metrics: method name -> :class:`Metrics` over the cases (the headline figures).
        fallback_cases: cases where the recommender fell back to popularity (no other like in the
            graph).
        seconds: wall time of the evaluation.
        settings: recommender settings used.
        unreachable_cases: liked KB items without any edge in the KB graph (not "in the graph";
            only teleport mass can reach them), evaluated separately.
        metrics_unreachable: method -> metrics over the unreachable cases.
        metrics_all_items: method -> metrics over cases and unreachable cases together.
        groups: group (study file) -> (number of cases, method -> metrics over its cases).
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
    unreachable_cases: int = 0
    metrics_unreachable: Mapping[str, Metrics] = field(default_factory=dict)
    metrics_all_items: Mapping[str, Metrics] = field(default_factory=dict)
    groups: Mapping[str, tuple[int, Mapping[str, Metrics]]] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        """A JSON-serialisable dict."""
        out = asdict(self)
        for name in ("metrics", "metrics_unreachable", "metrics_all_items"):
            out[name] = {m: asdict(v) for m, v in getattr(self, name).items()}
        out["groups"] = {
            g: {"cases": c, "metrics": {m: asdict(v) for m, v in ms.items()}} for g, (c, ms) in self.groups.items()
        }
        out["settings"] = dict(self.settings)
        return out


def user_group(key: str) -> str:
    """The group of a study user key: the part before ``#`` (the study file), e.g.
    ``"messages_nl.json#12"`` -> ``"messages_nl.json"``."""
    return key.split("#", 1)[0]


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


def study_interactions(users: Iterable[StudyUser]) -> dict[str, tuple[str, ...]]:
    """The likes of study users as ``Recommender(interactions=...)`` input: key -> liked QIDs."""
    return {u.key: tuple(dict.fromkeys(u.liked)) for u in users if u.liked}


def study_popularity(users: Iterable[StudyUser]) -> Counter[str]:
    """How many users liked each QID (each user counted once per QID)."""
    counts: Counter[str] = Counter()
    for u in users:
        counts.update(set(u.liked))
    return counts


class ItemKnn:
    """Collaborative item-kNN baseline over the study users' likes (Deshpande & Karypis, "Item-based
    top-N recommendation algorithms", ACM TOIS 22(1), 2004).

    The data is exactly what the popularity baseline counts: which study users liked which QIDs
    (items and property values alike, each user once per QID). Similarity of two QIDs is the cosine
    of their user sets, ``|U_a & U_b| / sqrt(|U_a| |U_b|)``; every liked QID of the profile votes
    for its ``neighbours`` most similar candidate items with that similarity, an item's score is the
    sum of its votes. :meth:`scores` removes the held-out user from the counts first, so only OTHER
    users' likes are used.

    Args:
        users: the study users (their ``liked`` QIDs).
        items: the candidate items, in the order of the returned scores.
        neighbours: items kept per liked QID (>= 1; :data:`KNN_NEIGHBOURS`).

    Example:
        >>> knn = ItemKnn([StudyUser("a", ("Q1", "Q2")), StudyUser("b", ("Q1", "Q2")), StudyUser("c", ("Q1", "Q3"))],
        ...               ["Q1", "Q2", "Q3"])
        >>> [round(float(x), 3) for x in knn.scores("c", ["Q1"])]
        [0.0, 1.0, 0.0]
    """

    def __init__(self, users: Iterable[StudyUser], items: Sequence[str], *, neighbours: int = KNN_NEIGHBOURS) -> None:
        from scipy import sparse

        if neighbours < 1:
            raise ValueError(f"neighbours must be >= 1, got {neighbours}")
        self.neighbours = neighbours
        self.n_items = len(items)
        column = {q: i for i, q in enumerate(items)}
        rows: list[int] = []
        cols: list[int] = []
        self._row: dict[str, int] = {}
        for user in users:
            liked = [q for q in dict.fromkeys(user.liked)]
            if not liked:
                continue
            r = self._row.setdefault(user.key, len(self._row))
            for q in liked:
                rows.append(r)
                cols.append(column.setdefault(q, len(column)))
        self.column = column
        n_cols = len(column)
        m = sparse.csr_matrix(
            (np.ones(len(rows)), (np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64))),
            shape=(max(len(self._row), 1), n_cols),
        )
        m.data[:] = 1.0  # one vote per user and QID
        self._m = m
        self._co = (m.T @ m).tocsr()  # co-like counts
        self._count = np.asarray(m.sum(axis=0)).ravel()

    def scores(self, user_key: str, profile: Iterable[str]) -> NDArray[np.float64]:
        """(n_items,) kNN scores of the candidate items for ``profile`` (liked QIDs), with the user
        ``user_key`` (if known) left out of every count; QIDs nobody else liked add nothing."""
        out = np.zeros(self.n_items, dtype=np.float64)
        row = self._row.get(user_key)
        own = np.zeros(len(self._count))
        if row is not None:
            own[self._m.indices[self._m.indptr[row] : self._m.indptr[row + 1]]] = 1.0
        count = (self._count - own)[: self.n_items]
        for q in dict.fromkeys(profile):
            j = self.column.get(q)
            if j is None:
                continue
            n_j = self._count[j] - own[j]
            if n_j <= 0:
                continue
            co = np.zeros(self.n_items)
            start, end = self._co.indptr[j], self._co.indptr[j + 1]
            idx, val = self._co.indices[start:end], self._co.data[start:end]
            keep = idx < self.n_items
            co[idx[keep]] = val[keep]
            if own[j]:
                co -= own[: self.n_items]
            if j < self.n_items:
                co[j] = 0.0
            nz = np.flatnonzero(co > 0)
            if nz.size == 0:
                continue
            sim = co[nz] / np.sqrt(n_j * count[nz])
            if nz.size > self.neighbours:
                top = np.argpartition(-sim, self.neighbours - 1)[: self.neighbours]
                nz, sim = nz[top], sim[top]
            out[nz] += sim
        return out


def evaluate_domain(
    recommender: Recommender,
    users: Sequence[StudyUser],
    *,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    knn_neighbours: int = KNN_NEIGHBOURS,
) -> DomainResult:
    """Leave-one-out over every liked item of every user (see module docstring).

    Args:
        recommender: the domain's recommender (its settings are recorded in the result); if it
            has a collaborative graph, its user keys must be the :attr:`StudyUser.key` values (the
            held-out user's node is hidden by key).
        users: the study users of the domain (also the population of the popularity baseline).
        seed: seed of the random baseline and of tie breaking.
        progress: optional callback ``(done_users, total_users)``.
        knn_neighbours: neighbourhood size of the item-kNN baseline (:class:`ItemKnn`).

    Returns:
        :class:`DomainResult` with metrics for ``pagerank``, ``popularity``, ``knn`` and ``random``.
    """
    t0 = time.perf_counter()
    # one generator per method (and one for the random scores), so one method's ties never change
    # another's draws: the baselines are the same whatever recommender is evaluated
    # (the seeds of the methods that existed before the item-kNN are unchanged: same baseline draws)
    rngs = {m: np.random.default_rng([seed, i]) for i, m in enumerate(("pagerank", "popularity", "random"))}
    rngs["knn"] = np.random.default_rng([seed, 4])
    score_rng = np.random.default_rng([seed, 3])
    kb_items = recommender.item_qids + recommender.missing_items
    pos = {q: i for i, q in enumerate(kb_items)}
    n_graph = len(recommender.item_qids)
    n = len(kb_items)
    counts = study_popularity(users)
    popularity_all = np.fromiter((counts.get(q, 0) for q in kb_items), dtype=np.float64, count=n)
    knn = ItemKnn(users, kb_items, neighbours=knn_neighbours)
    ranks: dict[str, list[int]] = {m: [] for m in METHODS}
    after = recommender.shown_after
    if after is not None:
        ranks[LISTED] = []
        rngs[LISTED] = np.random.default_rng([seed, 5])
    reachable: list[bool] = []
    group_of_case: list[str] = []
    n_users = skipped = fallbacks = 0
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
            if hp is None:
                skipped += 1
                continue
            is_case = hp < n_graph and bool(recommender.item_in_kb_graph[hp])
            user_cases += is_case
            reachable.append(is_case)
            group_of_case.append(user_group(user.key))
            candidates = np.ones(n, dtype=bool)
            candidates[rated_pos] = False
            candidates[hp] = True
            cand_idx = np.flatnonzero(candidates)
            target = int(np.searchsorted(cand_idx, hp))
            profile = Profile(liked=frozenset(q for q in liked if q != held))
            item_scores, _reason = recommender.item_scores(profile, hide_users=(user.key,))
            if item_scores is None:
                fallbacks += is_case
                item_scores = recommender.item_popularity
            ppr = np.full(n, -np.inf)
            ppr[:n_graph] = item_scores
            pop = popularity_all - own  # other users only
            rnd = score_rng.random(n)
            co = knn.scores(user.key, [q for q in liked if q != held])
            for method, sc in (("pagerank", ppr), ("popularity", pop), ("knn", co), ("random", rnd)):
                ranks[method].append(rank_of(sc[cand_idx], target, rngs[method]))
            if after is not None:  # the same scores, the list's order: those "after" below every other item
                listed = ppr.copy()
                listed[:n_graph][after] -= float(np.max(np.abs(item_scores))) * 2 + 1.0
                ranks[LISTED].append(rank_of(listed[cand_idx], target, rngs[LISTED]))
        if user_cases:
            n_users += 1
        if progress is not None:
            progress(done, len(users))

    def over(select: Callable[[int], bool]) -> dict[str, Metrics]:
        return {m: Metrics.from_ranks([x for i, x in enumerate(r) if select(i)]) for m, r in ranks.items()}

    w = recommender.weighting
    settings = {
        "damping": recommender.damping,
        "prior_mass": recommender.prior_mass,
        "hub_exponent": w.hub_exponent,
        "item_exponent": w.item_exponent,
        "user_weight": w.user_weight,
        "user_exponent": w.user_exponent,
        "user_nodes": len(recommender.user_keys),
        "method": recommender.method,
        "pid_weights": dict(w.pid_weights),
        "default_pid_weight": w.default_pid_weight,
        "seed": seed,
        "knn_neighbours": knn_neighbours,
    }
    groups = {}
    for g in sorted(set(group_of_case)):
        in_group = [i for i, gc in enumerate(group_of_case) if gc == g and reachable[i]]
        chosen = set(in_group)
        groups[g] = (len(in_group), over(chosen.__contains__))
    result = DomainResult(
        domain=getattr(recommender.kb, "domain", "?"),
        users=n_users,
        users_total=users_total,
        cases=reachable.count(True),
        liked_not_item=skipped,
        candidates=n,
        metrics=over(lambda i: reachable[i]),
        fallback_cases=fallbacks,
        seconds=time.perf_counter() - t0,
        settings=settings,
        unreachable_cases=reachable.count(False),
        metrics_unreachable=over(lambda i: not reachable[i]),
        metrics_all_items=over(lambda i: True),
        groups=groups,
    )
    logger.info(
        "evaluated %s: %d users, %d cases (+%d unreachable) in %.1f s",
        result.domain,
        n_users,
        result.cases,
        result.unreachable_cases,
        result.seconds,
    )
    return result


def summary_line(results: Mapping[str, DomainResult]) -> str:
    """The machine-readable last line of ``corsbot rec evaluate`` (issues 6 and 16).

    ``rec: users=U cases=C hr10_movie=HM popularity_hr10_movie=PM random_hr10_movie=RM
    ndcg10_movie=NM hr10_book=HB hr10_music=HU popularity_hr10_book=PB popularity_hr10_music=PU
    knn_hr10_movie=KM knn_hr10_book=KB knn_hr10_music=KU ndcg10_book=NB ndcg10_music=NU`` (U and C
    over all domains; 3 decimals; a missing domain gives ``nan``; issue 6's keys first, in their order).
    """

    def metric(domain: str, method: str, name: str) -> str:
        r = results.get(domain)
        if r is None or r.cases == 0:
            return "nan"
        return f"{getattr(r.metrics[method], name):.3f}"

    users = sum(r.users for r in results.values())
    cases = sum(r.cases for r in results.values())
    return (
        f"rec: users={users} cases={cases} hr10_movie={metric('movie', 'pagerank', 'hr10')} "
        f"popularity_hr10_movie={metric('movie', 'popularity', 'hr10')} "
        f"random_hr10_movie={metric('movie', 'random', 'hr10')} "
        f"ndcg10_movie={metric('movie', 'pagerank', 'ndcg10')} "
        f"hr10_book={metric('book', 'pagerank', 'hr10')} hr10_music={metric('music', 'pagerank', 'hr10')} "
        f"popularity_hr10_book={metric('book', 'popularity', 'hr10')} "
        f"popularity_hr10_music={metric('music', 'popularity', 'hr10')} "
        f"knn_hr10_movie={metric('movie', 'knn', 'hr10')} knn_hr10_book={metric('book', 'knn', 'hr10')} "
        f"knn_hr10_music={metric('music', 'knn', 'hr10')} "
        f"ndcg10_book={metric('book', 'pagerank', 'ndcg10')} ndcg10_music={metric('music', 'pagerank', 'ndcg10')}"
    )


def markdown_report(results: Mapping[str, DomainResult]) -> str:
    """A Markdown table of every domain and method."""
    lines = [
        "# Recommender leave-one-out evaluation (released ConveRSE study)",
        "",
        "| domain | users | cases | items | method | HR@5 | HR@10 | NDCG@10 | MRR |",
        "|---|---:|---:|---:|---|---:|---:|---:|---:|",
    ]
    for r in results.values():
        for m, v in r.metrics.items():
            lines.append(
                f"| {r.domain} | {r.users} | {r.cases} | {r.candidates} | {m} | {v.hr5:.3f} | "
                f"{v.hr10:.3f} | {v.ndcg10:.3f} | {v.mrr:.3f} |"
            )
    lines.append("")
    lines.append(
        "Cases are liked items with at least one edge in the KB item-property graph. Liked KB items "
        "without any edge are *not reachable* (not in the graph); they are scored separately below, and "
        "together with the cases as 'all liked items':"
    )
    lines.append("")
    lines.append("| domain | subset | cases | method | HR@10 | NDCG@10 | MRR |")
    lines.append("|---|---|---:|---|---:|---:|---:|")
    for r in results.values():
        for subset, count, metrics in (
            ("not reachable", r.unreachable_cases, r.metrics_unreachable),
            ("all liked items", r.cases + r.unreachable_cases, r.metrics_all_items),
        ):
            for m, v in metrics.items():
                lines.append(f"| {r.domain} | {subset} | {count} | {m} | {v.hr10:.3f} | {v.ndcg10:.3f} | {v.mrr:.3f} |")
    lines.append("")
    lines.append("Per user group (study file; settings are chosen on the NL users and confirmed on the mixed ones):")
    lines.append("")
    lines.append("| domain | group | cases | method | HR@10 | NDCG@10 |")
    lines.append("|---|---|---:|---|---:|---:|")
    for r in results.values():
        for g, (count, metrics) in r.groups.items():
            for m, v in metrics.items():
                lines.append(f"| {r.domain} | {g} | {count} | {m} | {v.hr10:.3f} | {v.ndcg10:.3f} |")
    lines.append("")
    for r in results.values():
        lines.append(
            f"- {r.domain}: {r.users_total} users with likes, {r.users} with a case; "
            f"{r.liked_not_item} liked QIDs not a recommendable KB item (skipped); "
            f"{r.unreachable_cases} liked items not reachable (no KB edge); "
            f"{r.fallback_cases} cases fell back to popularity; settings {dict(r.settings)}; "
            f"{r.seconds:.1f} s"
        )
    lines.append("")
    lines.append(
        "Ties broken uniformly at random (seeded) for every method; popularity and the item-kNN "
        "(cosine over the study users' likes, each liked QID voting for its "
        f"{next(iter(results.values())).settings.get('knn_neighbours', KNN_NEIGHBOURS) if results else KNN_NEIGHBOURS} "
        "most similar items) count other users only."
    )
    return "\n".join(lines) + "\n"


__all__ = [
    "METHODS",
    "KNN_NEIGHBOURS",
    "DomainResult",
    "ItemKnn",
    "Metrics",
    "StudyUser",
    "evaluate_domain",
    "markdown_report",
    "rank_of",
    "study_interactions",
    "study_popularity",
    "summary_line",
    "user_group",
]
