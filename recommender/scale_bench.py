"""``corsbot rec bench --scale``: exact and approximate PageRank with priors on synthetic knowledge
graphs of 10^4 to 10^7 edges shaped like the real ones.

The graphs (:func:`synthetic_kg`) are item -> property-value bipartite graphs with the degree
shape of a Wikidata film graph: every item has about 8 values: 2 genres (60 genres, Zipf weights
``1 / rank``: the biggest has about a quarter of the items, 3x10^5 at 10M edges), 1 country (150,
Zipf ``rank^-1.3``), and about 5 people drawn from a heavy-tailed population (person degrees
Zipf-distributed with exponent 2.1, capped at 2,000: most people have one to three items, a few
have hundreds), each linked to uniformly random items. Pairs are unique; the edge count is exactly
the one asked for. They are built with numpy in O(edges) memory (about 1 GB at 10M edges including
the solvers' matrices) and seconds.

For each size, ``priors`` five-seed priors (5 random items, ``prior_mass`` 0.85 on them and the
rest spread over all other nodes, as the recommender does) are ranked by:

- the exact solver (:func:`recommender.pagerank.personalized_pagerank`, CG, the recommender's
  tolerance) followed by the top 10 items over all items (seeds excluded);
- the approximate one (:class:`recommender.push.PushSolver`, forward push + the uniform part
  solved once per graph, not timed per request but reported) followed by its top 10.

Reported per size: both solvers' p50/p99 latency (ms, wall clock, each request from scratch) and
the mean top-10 overlap of the approximate ranking with the exact one (``|A & E| / 10``).

Example:
    >>> kg = synthetic_kg(100_000, seed=0)          # doctest: +SKIP
    >>> point = scale_point(kg, priors=10)          # doctest: +SKIP
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray

from recommender.pagerank import SparseGraph, SplitBlocks, personalized_pagerank
from recommender.push import DEFAULT_EPSILON, PushSolver

logger = logging.getLogger(__name__)

VALUES_PER_ITEM = 8
GENRES, GENRES_PER_ITEM, GENRE_EXPONENT = 60, 2, 1.0
COUNTRIES, COUNTRY_EXPONENT = 150, 1.3
PERSON_EXPONENT, PERSON_MAX_DEGREE = 2.1, 2000
SCALE_SIZES = (10_000, 30_000, 100_000, 300_000, 1_000_000, 3_000_000, 10_000_000)
"""Edge counts of ``rec bench --scale`` (those up to ``--max-edges``)."""


class _Identity(Mapping[Hashable, int]):
    """Node id -> index for nodes numbered 0..n-1 (no dict of millions of ints)."""

    def __init__(self, n: int) -> None:
        self._n = n

    def __getitem__(self, key: Hashable) -> int:
        if isinstance(key, (int, np.integer)) and 0 <= key < self._n:
            return int(key)
        raise KeyError(key)

    def __len__(self) -> int:
        return self._n

    def __iter__(self) -> Iterator[Hashable]:
        return iter(range(self._n))


@dataclass(frozen=True, slots=True, eq=False)
class SyntheticKG:
    """A synthetic item-value graph: ``graph`` (nodes 0..n-1, items first), its items, build time."""

    graph: SparseGraph
    items: NDArray[np.int64]
    seconds: float


def synthetic_kg(edges: int, *, seed: int = 0) -> SyntheticKG:
    """A knowledge-graph-shaped bipartite graph with exactly ``edges`` unique item-value edges.

    Args:
        edges: number of edges (>= 100).
        seed: random seed (same seed, same graph).

    Raises:
        ValueError: if ``edges`` < 100.
    """
    if edges < 100:
        raise ValueError(f"need at least 100 edges, got {edges}")
    started = time.perf_counter()
    rng = np.random.default_rng(seed)
    n_items = max(10, edges // VALUES_PER_ITEM)
    first_person = GENRES + COUNTRIES

    def zipf_choice(k: int, exponent: float, size: int) -> NDArray[np.int64]:
        w = 1.0 / np.arange(1, k + 1) ** exponent
        return rng.choice(k, size=size, p=w / w.sum())

    genre_items = np.repeat(np.arange(n_items, dtype=np.int64), GENRES_PER_ITEM)
    genres = zipf_choice(GENRES, GENRE_EXPONENT, genre_items.size)
    countries = GENRES + zipf_choice(COUNTRIES, COUNTRY_EXPONENT, n_items)
    fixed = _sorted_unique(
        np.concatenate([genre_items, np.arange(n_items, dtype=np.int64)]) * (1 << 32)
        + np.concatenate([genres, countries])
    )
    keys = fixed
    next_person = first_person
    while keys.size < edges:  # people, in batches, until the unique pairs reach the count
        need = edges - keys.size
        degrees = np.minimum(rng.zipf(PERSON_EXPONENT, size=max(16, int(need / 3))), PERSON_MAX_DEGREE)
        cut = int(np.searchsorted(np.cumsum(degrees), int(need * 1.02) + 8)) + 1
        degrees = degrees[:cut]
        persons = np.repeat(np.arange(next_person, next_person + degrees.size, dtype=np.int64), degrees)
        next_person += degrees.size
        people = rng.integers(0, n_items, size=persons.size, dtype=np.int64) * (1 << 32) + persons
        keys = _sorted_unique(np.concatenate([keys, people]))
    if keys.size > edges:  # drop random people pairs (genres and countries stay)
        is_person = (keys & 0xFFFFFFFF) >= first_person
        drop = rng.choice(np.flatnonzero(is_person), size=keys.size - edges, replace=False)
        keys = np.delete(keys, drop)
    item = keys >> 32
    value = keys & 0xFFFFFFFF
    del keys
    present = np.bincount(value) > 0  # values numbered densely after the items
    value = (np.cumsum(present) - 1)[value]
    n_values = int(present.sum())
    n = n_items + n_values
    value_node = (n_items + value).astype(np.int32)
    # symmetric CSR, rows sorted: items (pairs already sorted by item, value), then values
    by_value = np.argsort(value, kind="stable")
    indices = np.concatenate([value_node, item[by_value].astype(np.int32)])
    del by_value
    counts = np.concatenate([np.bincount(item, minlength=n_items), np.bincount(value, minlength=n_values)])
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, out=indptr[1:])
    weights = sp.csr_matrix((np.ones(indices.size), indices, indptr), shape=(n, n))
    weights.has_sorted_indices = True
    out_weight = counts.astype(np.float64)
    graph = SparseGraph(
        nodes=range(n),
        index=_Identity(n),
        weights_t=weights,
        out_weight=out_weight,
        symmetric=True,
        blocks=_bipartite_blocks(weights, out_weight, n_items),
    )
    seconds = time.perf_counter() - started
    logger.info("synthetic KG: %d edges, %d items, %d values in %.1f s", edges, n_items, n_values, seconds)
    return SyntheticKG(graph, np.arange(n_items, dtype=np.int64), seconds)


def _sorted_unique(keys: NDArray[np.int64]) -> NDArray[np.int64]:
    """Sorted distinct values (a plain sort: numpy 2's hash-based ``unique`` is several times slower
    on tens of millions of int64 keys)."""
    keys = np.sort(keys)
    if keys.size:
        keys = keys[np.concatenate(([True], keys[1:] != keys[:-1]))]
    return keys


def _bipartite_blocks(weights: sp.csr_matrix, out_weight: NDArray[np.float64], n_items: int) -> SplitBlocks:
    """The CG blocks of a graph whose items (rows < n_items) link only to values: S = values,
    R = items, read straight from the CSR (no fancy indexing: no copy of 10^7 entries twice over)."""
    n = weights.shape[0]
    indptr, indices = weights.indptr, weights.indices
    sqrt_d = np.sqrt(out_weight)
    inv = 1.0 / sqrt_d
    split_at = int(indptr[n_items])
    item_cols = indices[:split_at]
    n_rs = sp.csr_matrix(
        (
            inv[np.repeat(np.arange(n_items), np.diff(indptr[: n_items + 1]))] * inv[item_cols],
            item_cols - n_items,
            indptr[: n_items + 1],
        ),
        shape=(n_items, n - n_items),
    )
    value_rows = np.repeat(np.arange(n_items, n), np.diff(indptr[n_items:]))
    value_cols = indices[split_at:]
    n_sr = sp.csr_matrix(
        (inv[value_rows] * inv[value_cols], value_cols, indptr[n_items:] - split_at), shape=(n - n_items, n_items)
    )
    del value_rows
    n_rr = sp.csr_matrix((n_items, n_items))
    return SplitBlocks(
        s_nodes=np.arange(n_items, n, dtype=np.int64),
        r_nodes=np.arange(n_items, dtype=np.int64),
        sqrt_s=sqrt_d[n_items:],
        sqrt_r=sqrt_d[:n_items],
        n_sr=n_sr,
        n_rs=n_rs,
        n_rr=n_rr,
    )


@dataclass(frozen=True, slots=True)
class ScalePoint:
    """One size of ``rec bench --scale`` (times in ms; overlap in [0, 1])."""

    edges: int
    nodes: int
    items: int
    build_s: float
    global_s: float
    priors: int
    exact_p50_ms: float
    exact_p99_ms: float
    approx_p50_ms: float
    approx_p99_ms: float
    top10_overlap: float
    top10_overlap_min: float
    approx_pushes_p50: float


def _top10_exact(x: NDArray[np.float64], items: NDArray[np.int64], seeds: NDArray[np.int64]) -> NDArray[np.int64]:
    scores = x[items]
    allowed = np.ones(items.size, dtype=bool)
    allowed[seeds] = False  # items are nodes 0..m-1: a seed's position is its node index
    idx = np.flatnonzero(allowed)
    vals = scores[idx]
    if idx.size > 10:
        kth = np.partition(vals, idx.size - 10)[idx.size - 10]
        keep = vals >= kth
        idx, vals = idx[keep], vals[keep]
    return idx[np.lexsort((idx, -vals))][:10]


def _not_in(seeds: NDArray[np.int64]) -> Callable[[NDArray[np.int64]], NDArray[np.bool_]]:
    def allowed(positions: NDArray[np.int64]) -> NDArray[np.bool_]:
        return ~np.isin(positions, seeds)

    return allowed


def scale_point(
    kg: SyntheticKG,
    *,
    priors: int = 50,
    seed: int = 0,
    prior_mass: float = 0.85,
    epsilon: float = DEFAULT_EPSILON,
    tol: float = 1e-8,
) -> ScalePoint:
    """Time both solvers on ``priors`` five-seed priors of one synthetic graph (module docstring)."""
    from recommender.recommend import prior_vector

    g, items = kg.graph, kg.items
    n = g.n_nodes
    rng = np.random.default_rng(seed + 1)
    started = time.perf_counter()
    solver = PushSolver(g, epsilon=epsilon)
    solver.global_scores  # noqa: B018 - solved once per graph, outside the per-request timing
    order = solver.item_order(items)
    global_s = time.perf_counter() - started
    no_mask = np.zeros(n, dtype=bool)
    popularity = np.zeros(items.size)  # the synthetic items have no popularity: ties by position
    exact_ms: list[float] = []
    approx_ms: list[float] = []
    overlaps: list[float] = []
    pushes: list[int] = []
    for _ in range(priors):
        seeds = np.unique(rng.choice(items.size, size=5, replace=False)).astype(np.int64)
        t0 = time.perf_counter()
        x = personalized_pagerank(g, prior_vector(n, seeds, no_mask, prior_mass), method="cg", tol=tol)
        top_exact = _top10_exact(x, items, seeds)
        t1 = time.perf_counter()
        res = solver.solve(seeds, prior_mass=prior_mass)
        top_approx, _ = res.top_items(items, order, k=10, allowed=_not_in(seeds), secondary=popularity)
        t2 = time.perf_counter()
        exact_ms.append((t1 - t0) * 1000)
        approx_ms.append((t2 - t1) * 1000)
        overlaps.append(len(set(top_exact.tolist()) & set(top_approx.tolist())) / 10)
        pushes.append(res.pushes)
    point = ScalePoint(
        edges=g.n_edges,
        nodes=n,
        items=int(items.size),
        build_s=kg.seconds,
        global_s=global_s,
        priors=priors,
        exact_p50_ms=float(np.percentile(exact_ms, 50)),
        exact_p99_ms=float(np.percentile(exact_ms, 99)),
        approx_p50_ms=float(np.percentile(approx_ms, 50)),
        approx_p99_ms=float(np.percentile(approx_ms, 99)),
        top10_overlap=float(np.mean(overlaps)),
        top10_overlap_min=float(np.min(overlaps)),
        approx_pushes_p50=float(np.median(pushes)),
    )
    logger.info("scale point: %s", point)
    return point


def plot_scale(points: Sequence[ScalePoint], path: Path) -> Path:
    """Save p50/p99 latency of both solvers against edges (log-log) and the overlap as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    edges = [p.edges for p in points]
    fig, (ax, ax2) = plt.subplots(2, 1, figsize=(6.5, 6), sharex=True, gridspec_kw={"height_ratios": [3, 1]})
    ax.loglog(edges, [p.exact_p99_ms for p in points], "o-", color="tab:blue", label="exact (CG), p99")
    ax.loglog(edges, [p.exact_p50_ms for p in points], "o:", color="tab:blue", label="exact (CG), p50")
    ax.loglog(edges, [p.approx_p99_ms for p in points], "s-", color="tab:orange", label="approximate (push), p99")
    ax.loglog(edges, [p.approx_p50_ms for p in points], "s:", color="tab:orange", label="approximate (push), p50")
    ax.axhline(50, color="grey", lw=0.8, ls="--", label="50 ms")
    ax.set_ylabel("time per recommendation (ms)")
    ax.set_title("PageRank with priors on synthetic knowledge graphs (5-seed priors)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    ax2.semilogx(edges, [p.top10_overlap for p in points], "s-", color="tab:orange", label="mean")
    ax2.semilogx(edges, [p.top10_overlap_min for p in points], "s:", color="tab:orange", label="min")
    ax2.axhline(0.95, color="grey", lw=0.8, ls="--")
    ax2.set_ylim(0, 1.02)
    ax2.set_ylabel("top-10 overlap")
    ax2.set_xlabel("edges")
    ax2.grid(True, which="both", alpha=0.3)
    ax2.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def scale_sizes(max_edges: int) -> list[int]:
    """The sizes of :data:`SCALE_SIZES` up to ``max_edges`` (``max_edges`` itself included)."""
    sizes = [s for s in SCALE_SIZES if s < max_edges]
    return [*sizes, max_edges]


def as_row(point: ScalePoint) -> dict[str, Any]:
    """A JSON-ready row."""
    from dataclasses import asdict

    return asdict(point)


__all__ = [
    "SCALE_SIZES",
    "ScalePoint",
    "SyntheticKG",
    "as_row",
    "plot_scale",
    "scale_point",
    "scale_sizes",
    "synthetic_kg",
]
