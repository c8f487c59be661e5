"""PageRank with priors over a fixed sparse graph: precompute once, solve per request.

Method: personalized PageRank, a.k.a. PageRank with priors (Haveliwala, "Topic-sensitive PageRank",
WWW 2002; White & Smyth, "Algorithms for estimating relative importance in networks", KDD 2003).
With damping ``a``, row-stochastic transition matrix ``P`` (rows = weighted out-edges, normalised),
prior (teleport) distribution ``p`` and dangling nodes ``D`` (no out-edge), the scores ``x`` solve::

    x = a * (x P + (sum_{d in D} x_d) * p) + (1 - a) * p

This is exactly what ``networkx.pagerank(G, alpha=a, personalization=p, weight="weight")``
computes (networkx sends dangling mass along the personalization vector by default, and treats an
undirected edge as two arcs). The graph is turned into a CSR matrix **once** (`SparseGraph`);
each request is a plain power iteration (a few dozen sparse mat-vec products), so it costs
O(iterations * edges) with no Python loop over nodes.

Masking: `personalized_pagerank(..., mask=...)` removes nodes for one request without rebuilding
the matrix: the result equals networkx on ``G.subgraph(kept)`` (removed nodes get score 0). Row
sums of the reduced graph are recomputed with one extra mat-vec (``W @ keep``).

Example:
    >>> import networkx as nx, numpy as np
    >>> g = nx.Graph([("a", "b"), ("b", "c")])
    >>> sg = SparseGraph.from_networkx(g)
    >>> x = personalized_pagerank(sg, sg.prior_vector({"a": 1.0}))
    >>> round(float(x.sum()), 6), int(np.argmax(x)) == sg.index["b"]
    (1.0, True)
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass

import networkx as nx
import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray

from logs.errors import ConfigError

logger = logging.getLogger(__name__)

DEFAULT_DAMPING = 0.85
"""Probability of following an edge (the original ConveRSE system and networkx use 0.85)."""
DEFAULT_TOL = 1e-8
"""L1 change between two iterates below which the iteration stops (absolute, not scaled by n)."""
DEFAULT_MAX_ITER = 200

EdgeWeight = Callable[[Hashable, Hashable, Mapping[str, object]], float]


@dataclass(frozen=True, slots=True, eq=False)
class SparseGraph:
    """A weighted graph as a CSR matrix, built once and shared by every request.

    Attributes:
        nodes: (n,) node ids, in matrix order.
        index: node id -> row/column index.
        weights_t: (n, n) CSR, ``weights_t[j, i]`` = weight of the arc i -> j (the transpose of the
            weighted adjacency, so that ``weights_t @ v`` pushes mass along arcs). Symmetric for an
            undirected graph.
        out_weight: (n,) float64, total out-weight of each node (0 for a dangling node).
    """

    nodes: tuple[Hashable, ...]
    index: Mapping[Hashable, int]
    weights_t: sp.csr_matrix
    out_weight: NDArray[np.float64]

    @property
    def n_nodes(self) -> int:
        """Number of nodes."""
        return len(self.nodes)

    @property
    def n_edges(self) -> int:
        """Number of undirected edges (arcs / 2, self-loops counted once)."""
        diag = int(np.count_nonzero(self.weights_t.diagonal()))
        return (self.weights_t.nnz - diag) // 2 + diag

    @classmethod
    def from_networkx(cls, graph: nx.Graph, *, weight: str | EdgeWeight | None = "weight") -> SparseGraph:
        """Build the matrix from a networkx graph (undirected: both arcs; directed: as is).

        Args:
            graph: any networkx graph; node order is ``list(graph)``.
            weight: edge attribute holding the weight (missing -> 1, like networkx), a callable
                ``(u, v, data) -> float`` (must be >= 0), or None for unit weights.

        Returns:
            The sparse graph.

        Raises:
            ConfigError: if a weight is negative or not finite.
        """
        nodes = tuple(graph)
        index = {node: i for i, node in enumerate(nodes)}
        rows: list[int] = []
        cols: list[int] = []
        vals: list[float] = []
        directed = graph.is_directed()
        for u, v, data in graph.edges(data=True):
            if weight is None:
                w = 1.0
            elif callable(weight):
                w = float(weight(u, v, data))
            else:
                w = float(data.get(weight, 1.0))
            if not np.isfinite(w) or w < 0:
                raise ConfigError(f"edge weight must be finite and >= 0, got {w} on ({u!r}, {v!r})")
            if w == 0:
                continue
            iu, iv = index[u], index[v]
            rows.append(iu)
            cols.append(iv)
            vals.append(w)
            if not directed and iu != iv:
                rows.append(iv)
                cols.append(iu)
                vals.append(w)
        return cls.from_arcs(nodes, np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64),
                             np.asarray(vals, dtype=np.float64))

    @classmethod
    def from_arcs(cls, nodes: Iterable[Hashable], src: NDArray[np.int64], dst: NDArray[np.int64],
                  weight: NDArray[np.float64]) -> SparseGraph:
        """Build from arc arrays (each undirected edge given as two arcs); duplicates are summed.

        Args:
            nodes: node ids; arcs refer to their positions.
            src, dst: (m,) int arrays of arc endpoints.
            weight: (m,) non-negative weights.
        """
        nodes = tuple(nodes)
        n = len(nodes)
        adj = sp.csr_matrix((weight, (src, dst)), shape=(n, n), dtype=np.float64)
        adj.sum_duplicates()
        out_weight = np.asarray(adj.sum(axis=1), dtype=np.float64).ravel()
        weights_t = adj.T.tocsr()
        weights_t.sort_indices()
        return cls(nodes=nodes, index={node: i for i, node in enumerate(nodes)}, weights_t=weights_t,
                   out_weight=out_weight)

    def prior_vector(self, weights: Mapping[Hashable, float]) -> NDArray[np.float64]:
        """A (n,) prior vector from node -> weight; nodes absent from the graph are ignored."""
        vec = np.zeros(self.n_nodes, dtype=np.float64)
        for node, w in weights.items():
            i = self.index.get(node)
            if i is not None:
                vec[i] += float(w)
        return vec


def personalized_pagerank(graph: SparseGraph, prior: NDArray[np.float64], *, damping: float = DEFAULT_DAMPING,
                          mask: NDArray[np.bool_] | None = None, tol: float = DEFAULT_TOL,
                          max_iter: int = DEFAULT_MAX_ITER) -> NDArray[np.float64]:
    """Score all nodes by PageRank with priors (power iteration on the precomputed matrix).

    Args:
        graph: the precomputed sparse graph (n nodes).
        prior: (n,) non-negative teleport weights; renormalised to sum to 1 over kept nodes.
        damping: probability of following an edge, in [0, 1).
        mask: optional (n,) bool, True = node removed for this request (as if deleted from the
            graph: its score is 0, no mass flows into or out of it).
        tol: stop when the L1 change between iterates is below ``tol`` (absolute).
        max_iter: iteration cap; reaching it logs a warning and returns the last iterate.

    Returns:
        (n,) float64 scores summing to 1 over kept nodes (probability mass).

    Raises:
        ConfigError: if shapes differ, damping is out of range, or the prior has no positive
            weight on a kept node (callers fall back to popularity before calling, see F32/F33).
    """
    n = graph.n_nodes
    prior = np.asarray(prior, dtype=np.float64)
    if prior.shape != (n,):
        raise ConfigError(f"prior has shape {prior.shape}, expected ({n},)")
    if not 0.0 <= damping < 1.0:
        raise ConfigError(f"damping must be in [0, 1), got {damping}")
    if np.any(prior < 0) or not np.all(np.isfinite(prior)):
        raise ConfigError("prior weights must be finite and >= 0")
    if mask is not None:
        keep = ~np.asarray(mask, dtype=bool)
        prior = np.where(keep, prior, 0.0)
        out_weight = graph.weights_t.T @ keep.astype(np.float64) if not keep.all() else graph.out_weight
        out_weight = np.where(keep, out_weight, 0.0)
    else:
        keep = None
        out_weight = graph.out_weight
    total = prior.sum()
    if total <= 0:
        raise ConfigError("the prior has no positive weight on a node of the graph")
    p = prior / total
    dangling = out_weight <= 0
    if keep is not None:
        dangling &= keep
    inv_out = np.divide(1.0, out_weight, out=np.zeros(n), where=out_weight > 0)
    if keep is not None:
        inv_out *= keep
    wt = graph.weights_t
    x = p.copy()
    teleport = (1.0 - damping) * p
    for iteration in range(1, max_iter + 1):
        pushed = wt @ (x * inv_out)
        if keep is not None:
            pushed *= keep
        x_new = damping * (pushed + x[dangling].sum() * p) + teleport
        err = np.abs(x_new - x).sum()
        x = x_new
        if err < tol:
            logger.debug("pagerank converged in %d iterations (L1 change %.2e)", iteration, err)
            return x
    logger.warning("pagerank did not converge in %d iterations (L1 change %.2e)", max_iter, err)
    return x
