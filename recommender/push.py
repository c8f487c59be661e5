"""Approximate PageRank with priors whose cost does not grow with the graph: forward push.

Method: the local "push" algorithm for personalized PageRank (Andersen, Chung & Lang, "Local
graph partitioning using PageRank vectors", FOCS 2006), run as a *parallel* push (every node over
the threshold pushes in the same round; Berkhin, "Bookmark-coloring algorithm for personalized
PageRank computing", Internet Mathematics 2006), over the same weighted graph and with the same
prior as the exact solvers of :mod:`recommender.pagerank`.

The recommender's prior is ``A`` (``prior_mass``) spread over the liked set ``L`` and ``B = 1 - A``
spread over the ``|O|`` other kept nodes. Write ``y(p) = sum_k a^k p P^k`` (``a`` the damping;
isolated nodes keep their teleport mass), so that the exact scores are ``y(p) / sum(y(p))``; ``y``
is linear in ``p``, hence::

    y(p) = (A - B |L| / |O|) * y(1_L / |L|)  +  (B / |O|) * y(1 - 1_M)

- ``y(1_L / |L|)`` is computed by push from the liked seeds: a residual starts on them, and every
  node whose residual exceeds ``epsilon`` times its weighted degree keeps it and sends ``a`` of it
  to its neighbours (by edge weight); nodes removed for the request (``mask``: dislikes) receive
  nothing, and their neighbours' degrees are taken without them. The work is bounded by
  ``1 / (epsilon (1 - a))`` edge visits, whatever the graph's size; the error on a node is at
  most ``epsilon`` times its weighted degree (undirected graphs).
- the residual left when the push stops (``r``: its first term is kept on its nodes) would still
  spread ``a / (1 - a)`` times its mass; that mass is given out like the uniform part below
  (proportionally to ``y(1)``, roughly the degree), so the scores keep their scale and sum to 1
  (top-10 overlap with the exact ranking unchanged within noise: 0.980 vs 0.973 at 10^5 edges,
  0.983 vs 0.985 at 10^6, 40 priors each);
- ``y(1)``, the uniform-teleport vector of the whole graph, is solved exactly **once per graph**
  (conjugate gradient, :func:`recommender.pagerank.uniform_scores`) and reused by every request;
  with a mask it is used as is on the kept nodes (the only approximation besides ``epsilon``:
  the few removed nodes' effect on the uniform part is ignored).

A request returns a :class:`PushScores`: the push support (touched nodes) and the two weights;
:meth:`PushScores.top_items` ranks items without looking at every item (the best items outside the
support are the best by ``y(1)``, whose order is sorted once), and :meth:`PushScores.dense` gives
the full vector when a caller needs it (explanations, offline evaluation).

How ``epsilon`` was chosen (``corsbot rec bench --scale``, mean top-10 overlap with the exact
ranking over 50 five-seed priors, and p99 latency; see :data:`DEFAULT_EPSILON`).

Example:
    >>> solver = PushSolver(graph)                                   # doctest: +SKIP
    >>> res = solver.solve(np.array([12, 40]), prior_mass=0.85)      # doctest: +SKIP
    >>> res.top_items(item_nodes, k=10)                              # doctest: +SKIP
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from corsbot_errors import ConfigError
from recommender.pagerank import DEFAULT_DAMPING, SparseGraph, uniform_scores

logger = logging.getLogger(__name__)

DEFAULT_EPSILON = 2e-5
"""Push threshold: a node pushes while its residual exceeds ``epsilon`` x its weighted degree (the
seed mass is 1). Chosen with ``corsbot rec bench --scale`` (see :mod:`recommender.push`)."""
STOP_MASS = 1e-3
"""The push stops when the residual mass over the threshold falls below this share of the seed mass
(what is left is given out with the uniform part, like any residual). Without it, the last rounds
of a request move crumbs between low-degree nodes (a film and its one-film actor, losing ``a`` per
round): 300 five-like profiles on the real graphs, 2026-12-01, rounds mean / max movie 23.6 / 57 ->
16.6 / 38, music 54.7 / 57 -> 41.2 / 43, top-10 overlap with the exact ranking unchanged (0.967,
0.989); 1e-2 saved more rounds and began to cost overlap (movie 0.965)."""
MAX_ROUNDS = 400
"""Safety cap on push rounds (the residual shrinks by about ``damping`` per round)."""


@dataclass(frozen=True, slots=True, eq=False)
class PushScores:
    """Approximate scores of one request: ``x[v] = (seed_weight * q[v] + global_weight * g[v]) / total``
    on kept nodes (0 on removed ones), with ``q`` the push estimate (nonzero only on ``nodes``).

    Attributes:
        nodes: (s,) node indexes touched by the push (sorted).
        values: (s,) ``seed_weight * q`` on them.
        global_weight: weight of the uniform-teleport vector ``g``.
        total: normalisation (sum of the unnormalised scores over kept nodes).
        solver: the solver (holds ``g`` and the item order).
        mask: (n,) removed nodes, or None.
        rounds, pushes: work done (diagnostics).
    """

    nodes: NDArray[np.int64]
    values: NDArray[np.float64]
    global_weight: float
    total: float
    solver: PushSolver
    mask: NDArray[np.bool_] | None
    rounds: int
    pushes: int

    def dense(self) -> NDArray[np.float64]:
        """(n,) the full normalised score vector (O(n): for explanations and offline tools)."""
        x = self.global_weight * self.solver.global_scores
        if self.mask is not None:
            x = np.where(self.mask, 0.0, x)
        x[self.nodes] += self.values
        return x / self.total

    def scores_of(self, nodes: NDArray[np.int64]) -> NDArray[np.float64]:
        """Normalised scores of some nodes (O(len(nodes) log s))."""
        nodes = np.asarray(nodes, dtype=np.int64)
        out = self.global_weight * self.solver.global_scores[nodes]
        if self.mask is not None:
            out = np.where(self.mask[nodes], 0.0, out)
        if self.nodes.size and nodes.size:
            pos = np.searchsorted(self.nodes, nodes)
            pos = np.minimum(pos, self.nodes.size - 1)
            hit = self.nodes[pos] == nodes
            out[hit] += self.values[pos[hit]]
        return out / self.total

    def top_items(
        self,
        item_nodes: NDArray[np.int64],
        item_order: NDArray[np.int64],
        *,
        k: int,
        allowed: Callable[[NDArray[np.int64]], NDArray[np.bool_]],
        secondary: NDArray[np.float64],
    ) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
        """The ``k`` best allowed items without scoring every item.

        Args:
            item_nodes: (m,) node index of each item position.
            item_order: item positions by decreasing uniform score ``g`` (see :meth:`PushSolver.item_order`).
            k: how many.
            allowed: item positions -> bool mask of those that may be returned.
            secondary: (m,) tie-break (popularity), then the lower position wins.

        Returns:
            (positions, normalised scores), best first.
        """
        if k <= 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        solver = self.solver
        g = solver.global_scores
        node_pos = solver.item_position(item_nodes)
        pos = node_pos[self.nodes]
        is_item = pos >= 0
        sup_items, sup_vals = pos[is_item], self.values[is_item]
        in_support = np.zeros(item_nodes.size, dtype=bool)  # 1 byte per item, few pages written
        in_support[sup_items] = True
        ok = allowed(sup_items)
        sup_items, sup_vals = sup_items[ok], sup_vals[ok]
        # outside the support an item scores global_weight * g: the k best lead item_order
        found: list[NDArray[np.int64]] = []
        need, start, step = k, 0, max(8 * k, 256)
        while need > 0 and start < item_order.size:
            chunk = item_order[start : start + step]
            start += chunk.size
            chunk = chunk[~in_support[chunk]]
            chunk = chunk[allowed(chunk)][:need]
            found.append(chunk)
            need -= chunk.size
        rest = np.concatenate(found) if found else np.zeros(0, dtype=np.int64)
        cand = np.concatenate([sup_items, rest])
        nodes = item_nodes[cand]
        primary = self.global_weight * g[nodes]
        primary[: sup_items.size] += sup_vals
        if self.mask is not None:
            primary[self.mask[nodes]] = 0.0
        primary /= self.total
        order = np.lexsort((cand, -secondary[cand], -primary))[:k]
        return cand[order], primary[order]


_Work = tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.bool_], NDArray[np.int64]]
"""Per-request work vectors of a push: residual ``r``, estimate ``q``, ``seen`` flags (all kept at
zero between requests) and ``slot`` (scratch of :func:`_distinct`, never read before written)."""


def _new_work(n: int) -> _Work:
    return np.zeros(n), np.zeros(n), np.zeros(n, dtype=bool), np.empty(n, dtype=np.int64)


def _distinct(nodes: NDArray[np.int64], slot: NDArray[np.int64]) -> NDArray[np.int64]:
    """The distinct values of ``nodes`` (in order of last occurrence), O(len(nodes)) with an
    (n,) scratch array instead of a sort or a hash table: each node writes its position, and
    only the position that survives keeps it. ``np.unique`` was a quarter of a push on the
    movie graph."""
    where = np.arange(nodes.size, dtype=np.int64)
    slot[nodes] = where
    return nodes[slot[nodes] == where]


class PushSolver:
    """Forward-push PageRank with priors on one graph (see the module docstring).

    Args:
        graph: the weighted graph (must be symmetric: an undirected walk).
        damping: probability of following an edge.
        epsilon: push threshold (:data:`DEFAULT_EPSILON`).
        global_scores: ``y(1)`` if already known (else solved exactly on first use).

    Raises:
        ConfigError: if the graph is not symmetric or the parameters are out of range.
    """

    def __init__(
        self,
        graph: SparseGraph,
        *,
        damping: float = DEFAULT_DAMPING,
        epsilon: float = DEFAULT_EPSILON,
        global_scores: NDArray[np.float64] | None = None,
    ) -> None:
        if not graph.symmetric:
            raise ConfigError("the push solver needs an undirected (symmetric) graph")
        if not 0.0 <= damping < 1.0 or not epsilon > 0:
            raise ConfigError(f"need 0 <= damping < 1 and epsilon > 0, got {damping}, {epsilon}")
        self.graph = graph
        self.damping = damping
        self.epsilon = epsilon
        wt = graph.weights_t
        self._indptr = wt.indptr.astype(np.int64, copy=False)
        self._indices = wt.indices
        self._data = wt.data
        self._threshold = epsilon * graph.out_weight
        self._global = global_scores
        self._global_sum: float | None = None
        self._lock = threading.Lock()
        self._buffers: _Work | None = None
        self._item_pos: NDArray[np.int64] | None = None
        self._item_key: object = None

    @property
    def global_scores(self) -> NDArray[np.float64]:
        """(n,) ``y(1)``: the uniform-teleport scores, unnormalised (solved once, exactly)."""
        if self._global is None:
            self._global = uniform_scores(self.graph, damping=self.damping)
        return self._global

    @property
    def _global_total(self) -> float:
        if self._global_sum is None:
            self._global_sum = float(self.global_scores.sum())
        return self._global_sum

    def item_order(self, item_nodes: NDArray[np.int64]) -> NDArray[np.int64]:
        """Item positions by decreasing ``y(1)`` (ties: lower position first); sort once, reuse
        (also prepares :meth:`item_position` for the same ``item_nodes`` array)."""
        g = self.global_scores[item_nodes]
        self.item_position(item_nodes)  # the node -> position map of these items, ready for top_items
        return np.lexsort((np.arange(item_nodes.size), -g)).astype(np.int64)

    def item_position(self, item_nodes: NDArray[np.int64]) -> NDArray[np.int64]:
        """(n,) node -> item position (-1 for non-items), cached for the last ``item_nodes``."""
        if self._item_pos is None or self._item_key is not item_nodes:
            pos = np.full(self.graph.n_nodes, -1, dtype=np.int64)
            pos[item_nodes] = np.arange(item_nodes.size)
            self._item_pos, self._item_key = pos, item_nodes
        return self._item_pos

    def solve(
        self,
        seeds: NDArray[np.int64],
        *,
        prior_mass: float = 0.85,
        mask: NDArray[np.bool_] | None = None,
        n_masked: int | None = None,
    ) -> PushScores:
        """Approximate scores for the recommender's prior (``prior_mass`` on ``seeds``, the rest
        spread over the other kept nodes).

        Args:
            seeds: (s,) liked node indexes (unique, not masked, at least one).
            prior_mass: share of the prior on the seeds, in (0, 1].
            mask: optional (n,) bool, True = node removed for this request.
            n_masked: ``mask.sum()`` if the caller knows it (saves an O(n) pass).

        Raises:
            ConfigError: on an empty seed set.
        """
        seeds = np.unique(np.asarray(seeds, dtype=np.int64))
        if seeds.size == 0:
            raise ConfigError("the push solver needs at least one seed")
        n = self.graph.n_nodes
        if mask is not None and n_masked is None:
            n_masked = int(mask.sum())
        n_masked = n_masked or 0
        n_other = n - n_masked - seeds.size
        if n_other > 0 and prior_mass < 1.0:
            b = 1.0 - prior_mass
            seed_weight = prior_mass - b * seeds.size / n_other
            global_weight = b / n_other
        else:
            seed_weight, global_weight = 1.0, 0.0
        nodes, q, left, rounds, pushes = self._push(seeds, mask)
        values = seed_weight * q
        g = self.global_scores
        g_total = self._global_total
        if mask is not None and n_masked:
            g_total -= float(g[mask].sum())
        # The residual left (total ``left``) would still spread ``a / (1 - a)`` times its mass over the
        # graph; that mass is given out like the uniform part (proportional to y(1), roughly the
        # degree), so the scores keep their scale and sum to 1.
        global_weight += seed_weight * left * self.damping / (1.0 - self.damping) / g_total
        total = float(values.sum()) + global_weight * g_total
        return PushScores(nodes, values, global_weight, total, self, mask, rounds, pushes)

    def _push(
        self, seeds: NDArray[np.int64], mask: NDArray[np.bool_] | None
    ) -> tuple[NDArray[np.int64], NDArray[np.float64], float, int, int]:
        """Parallel forward push of unit mass spread on ``seeds``; returns (support, q + r, the
        residual mass left, rounds, pushes)."""
        n = self.graph.n_nodes
        locked = self._lock.acquire(blocking=False)
        if locked:  # zeroed work vectors kept between requests (reset below): no page faults
            r, q, seen, slot = self._work()
        else:  # another thread is pushing on this graph: fresh ones
            r, q, seen, slot = _new_work(n)
        try:
            return self._push_into(r, q, seen, slot, seeds, mask)
        finally:
            if locked:
                self._lock.release()

    def _work(self) -> _Work:
        if self._buffers is None:
            self._buffers = _new_work(self.graph.n_nodes)
        return self._buffers

    def _push_into(
        self,
        r: NDArray[np.float64],
        q: NDArray[np.float64],
        seen: NDArray[np.bool_],
        slot: NDArray[np.int64],
        seeds: NDArray[np.int64],
        mask: NDArray[np.bool_] | None,
    ) -> tuple[NDArray[np.int64], NDArray[np.float64], float, int, int]:
        indptr, indices, data = self._indptr, self._indices, self._data
        out_weight, threshold, a = self.graph.out_weight, self._threshold, self.damping
        r[seeds] = 1.0 / seeds.size
        seen[seeds] = True
        frontier = seeds
        touched = [seeds]
        rounds = pushes = 0
        while frontier.size and rounds < MAX_ROUNDS:
            rounds += 1
            pushes += frontier.size
            mass = r[frontier]
            r[frontier] = 0.0
            q[frontier] += mass
            starts = indptr[frontier]
            counts = indptr[frontier + 1] - starts
            total = int(counts.sum())
            if total == 0:
                break
            pos = np.arange(total, dtype=np.int64) + np.repeat(starts - (np.cumsum(counts) - counts), counts)
            nbr = indices[pos]
            w = data[pos]
            degree: NDArray[np.float64]
            if mask is not None:
                w = np.where(mask[nbr], 0.0, w)
                rows = np.repeat(np.arange(frontier.size), counts)
                degree = np.bincount(rows, weights=w, minlength=frontier.size).astype(np.float64, copy=False)
            else:
                degree = out_weight[frontier]
            share = np.divide(a * mass, degree, out=np.zeros_like(mass), where=degree > 0)
            np.add.at(r, nbr, w * np.repeat(share, counts))
            fresh = _distinct(nbr[~seen[nbr]], slot)
            seen[fresh] = True
            touched.append(fresh)
            over = nbr[r[nbr] > threshold[nbr]]
            if mask is not None and over.size:
                over = over[~mask[over]]
            frontier = _distinct(over, slot)
            if frontier.size and float(r[frontier].sum()) < STOP_MASS:
                break  # the tail: a little mass bouncing between low-degree nodes; left to ``left``
        if rounds >= MAX_ROUNDS:
            logger.warning("push stopped after %d rounds (epsilon %.1e too small?)", rounds, self.epsilon)
        support = np.sort(np.concatenate(touched))  # distinct already: each node enters ``touched`` once
        # the residual left is a lower bound of its own contribution (its first term)
        values = q[support] + r[support]
        left = float(r[support].sum())
        r[support] = 0.0  # every written entry is in the support: the vectors are zero again
        q[support] = 0.0
        seen[support] = False
        return support, values, left, rounds, pushes


__all__ = ["DEFAULT_EPSILON", "PushScores", "PushSolver"]
