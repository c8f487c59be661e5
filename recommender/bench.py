"""Latency benchmark of one recommendation, and scaling of the power iteration with graph size.

- :func:`latency`: p50/p99 wall time of ``Recommender.recommend`` over random liked-item profiles
  (cache bypassed), the same profiles timed with ``networkx.pagerank`` called per request on the
  same (weighted) graph, which is what the original system did (it rebuilt its graph each time);
- :func:`scaling`: time of one personalized PageRank on synthetic random graphs (Erdos-Renyi-like,
  bipartite item-value shaped) from 10^4 to 10^6 edges, and a log-log PNG of the curve.

Timings are wall-clock (``time.perf_counter``), milliseconds.

Example:
    >>> pts = scaling([10_000], repeats=1)          # doctest: +SKIP
    >>> pts[0].edges
    10000
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import numpy as np

from recommender.pagerank import SparseGraph, personalized_pagerank
from recommender.recommend import CG_TOL, Profile, Recommender, prior_vector

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class LatencyResult:
    """Latency of one domain.

    Attributes:
        domain: domain name.
        nodes, edges: graph size.
        requests: timed recommendations.
        p50_ms, p99_ms, mean_ms: latency of ``Recommender.recommend`` (k=5).
        networkx_requests: timed ``networkx.pagerank`` calls.
        networkx_mean_ms: their mean latency.
        speedup_vs_networkx: ``networkx_mean_ms / mean_ms`` on the same profiles.
    """

    domain: str
    nodes: int
    edges: int
    requests: int
    p50_ms: float
    p99_ms: float
    mean_ms: float
    networkx_requests: int
    networkx_mean_ms: float
    speedup_vs_networkx: float


@dataclass(frozen=True, slots=True)
class ScalingPoint:
    """One synthetic graph: size and mean/min time of one PageRank with priors (ms)."""

    nodes: int
    edges: int
    mean_ms: float
    min_ms: float


def random_profiles(recommender: Recommender, n: int, *, likes: int = 5, seed: int = 0) -> list[Profile]:
    """``n`` profiles of ``likes`` random items that have at least one edge (seeded)."""
    rng = np.random.default_rng(seed)
    idx = recommender.item_index
    connected = [recommender.item_qids[i] for i, j in enumerate(idx) if recommender.graph.out_weight[j] > 0]
    if not connected:
        return [Profile() for _ in range(n)]
    out = []
    for _ in range(n):
        pick = rng.choice(len(connected), size=min(likes, len(connected)), replace=False)
        out.append(Profile(liked=frozenset(connected[i] for i in pick)))
    return out


def latency(
    recommender: Recommender, *, requests: int = 200, networkx_requests: int = 3, seed: int = 0
) -> LatencyResult:
    """Time ``recommend`` per request and compare with ``networkx.pagerank`` per request.

    Args:
        recommender: a built recommender (matrix already precomputed, as in production).
        requests: number of timed recommendations (>= 1).
        networkx_requests: number of timed ``networkx.pagerank`` calls (same graph, same weights,
            same personalization; networkx's default tolerance).
        seed: profile sampling seed.

    Returns:
        :class:`LatencyResult`.
    """
    profiles = random_profiles(recommender, max(requests, networkx_requests), seed=seed)
    # off the clock, as a serving process is after its first request: the push solver's one-off
    # per-graph work (the uniform part y(1), the item order) would be one slow request of 200
    recommender.recommend(profiles[0], k=5)
    times = []
    for profile in profiles[:requests]:
        recommender._cache.clear()  # noqa: SLF001 - time the solve, not the cache
        t0 = time.perf_counter()
        recommender.recommend(profile, k=5)
        times.append((time.perf_counter() - t0) * 1000)
    arr = np.asarray(times)
    g = recommender.nx_graph
    weighted = nx.Graph()
    weighted.add_nodes_from(g)
    sg = recommender.graph
    coo = sg.weights_t.tocoo()
    weighted.add_weighted_edges_from(
        (sg.nodes[i], sg.nodes[j], w) for i, j, w in zip(coo.row, coo.col, coo.data, strict=True) if i <= j
    )
    nx_times = []
    for profile in profiles[:networkx_requests]:
        liked = np.asarray(sorted(sg.index[q] for q in profile.liked), dtype=np.int64)
        prior = prior_vector(sg.n_nodes, liked, np.zeros(sg.n_nodes, dtype=bool), recommender.prior_mass)
        pers = {sg.nodes[int(i)]: float(prior[i]) for i in np.flatnonzero(prior)}
        t0 = time.perf_counter()
        nx.pagerank(weighted, alpha=recommender.damping, personalization=pers, weight="weight")
        nx_times.append((time.perf_counter() - t0) * 1000)
    nx_mean = float(np.mean(nx_times)) if nx_times else float("nan")
    mean = float(arr.mean())
    return LatencyResult(
        domain=getattr(recommender.kb, "domain", "?"),
        nodes=sg.n_nodes,
        edges=sg.n_edges,
        requests=len(times),
        p50_ms=float(np.percentile(arr, 50)),
        p99_ms=float(np.percentile(arr, 99)),
        mean_ms=mean,
        networkx_requests=len(nx_times),
        networkx_mean_ms=nx_mean,
        speedup_vs_networkx=nx_mean / mean if mean > 0 else float("nan"),
    )


def synthetic_graph(edges: int, *, seed: int = 0, values_per_item: float = 4.0) -> SparseGraph:
    """A random item-value graph with ``edges`` undirected edges (duplicates merged).

    Items: ``edges / values_per_item``; values: a third of that; each edge joins a uniform item to
    a value drawn from a Zipf-like (hubby) distribution, like genres and prolific actors.
    """
    rng = np.random.default_rng(seed)
    n_items = max(2, int(edges / values_per_item))
    n_values = max(2, n_items // 3)
    src = rng.integers(0, n_items, size=edges)
    ranks = np.arange(1, n_values + 1, dtype=np.float64)
    p = 1.0 / ranks
    dst = n_items + rng.choice(n_values, size=edges, p=p / p.sum())
    s = np.concatenate([src, dst])
    d = np.concatenate([dst, src])
    return SparseGraph.from_arcs(range(n_items + n_values), s, d, np.ones(2 * edges))


def scaling(edge_counts: Sequence[int], *, repeats: int = 5, seed: int = 0, method: str = "cg") -> list[ScalingPoint]:
    """Time one PageRank with priors (5 liked nodes, prior mass 0.85) on synthetic graphs.

    Args:
        edge_counts: graph sizes in edges, e.g. ``[10**4, 10**5, 10**6]``.
        repeats: timed runs per size (different random priors).
        seed: graph and prior seed.
        method: solver, as the recommender uses it (``"cg"`` with :data:`CG_TOL` by default).
    """
    rng = np.random.default_rng(seed)
    points = []
    for m in edge_counts:
        sg = synthetic_graph(int(m), seed=seed)
        n = sg.n_nodes
        times = []
        for _ in range(repeats):
            liked = np.unique(rng.integers(0, n, size=5))
            prior = prior_vector(n, liked, np.zeros(n, dtype=bool), 0.85)
            t0 = time.perf_counter()
            personalized_pagerank(sg, prior, method=method, tol=CG_TOL if method == "cg" else None)
            times.append((time.perf_counter() - t0) * 1000)
        points.append(
            ScalingPoint(nodes=n, edges=sg.n_edges, mean_ms=float(np.mean(times)), min_ms=float(np.min(times)))
        )
        logger.info("scaling: %d edges, %d nodes: %.1f ms", sg.n_edges, n, points[-1].mean_ms)
    return points


def plot_scaling(points: Sequence[ScalingPoint], path: Path, *, label: str = "PageRank with priors (CG)") -> Path:
    """Save the scaling curve (log-log: mean and min time, linear reference through the first min) as PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    edges = np.asarray([p.edges for p in points], dtype=np.float64)
    ms = np.asarray([p.mean_ms for p in points])
    best = np.asarray([p.min_ms for p in points])
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.loglog(edges, ms, "o-", label=f"{label}, mean")
    ax.loglog(edges, best, "s:", label=f"{label}, min")
    ax.loglog(edges, best[0] * edges / edges[0], "--", color="grey", label="linear in edges")
    ax.set_xlabel("edges")
    ax.set_ylabel("time per request (ms)")
    ax.set_title("Scaling on synthetic item-value graphs")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def scaling_exponent(points: Sequence[ScalingPoint], *, use_min: bool = False) -> float:
    """Least-squares slope of log(time) vs log(edges) (1.0 = linear); mean times, or min times."""
    if len(points) < 2:
        return float("nan")
    x = np.log([p.edges for p in points])
    y = np.log([p.min_ms if use_min else p.mean_ms for p in points])
    return float(np.polyfit(x, y, 1)[0])


__all__ = [
    "LatencyResult",
    "ScalingPoint",
    "latency",
    "plot_scaling",
    "random_profiles",
    "scaling",
    "scaling_exponent",
    "synthetic_graph",
]
