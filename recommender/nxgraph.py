"""networkx helpers of tools and tests: the collaborative graph and its weighting on networkx.

The recommender builds its matrix from the knowledge base's arrays (``recommender.kbgraph``); these
functions do the same from a networkx graph (``KnowledgeBase.graph()``), so tests and tools can
check one against the other.
"""

from __future__ import annotations

import logging
from collections.abc import Hashable, Iterable, Mapping
from typing import TYPE_CHECKING

from recommender.kbgraph import is_user_node, user_node
from recommender.pagerank import SparseGraph
from recommender.values import QID, KnowledgeBaseLike
from recommender.weighting import LIKED_BY, GraphWeighting

if TYPE_CHECKING:
    import networkx as nx

logger = logging.getLogger(__name__)


def add_user_edges(graph: nx.Graph, interactions: Mapping[str, Iterable[QID]]) -> tuple[nx.Graph, tuple[str, ...]]:
    """The collaborative graph: ``graph`` plus one node per user linked to the QIDs they liked.

    Args:
        graph: the KB's item-value graph (not modified).
        interactions: user key -> liked QIDs; QIDs that are not nodes of ``graph`` are ignored,
            users with no such QID get no node.

    Returns:
        (graph, user keys with a node): ``graph`` itself when nothing is added, else a copy whose
        user edges carry ``pids=(LIKED_BY,)``.
    """
    edges: list[tuple[str, QID]] = []
    keys: list[str] = []
    for key, qids in interactions.items():
        node = user_node(key)
        linked = [q for q in dict.fromkeys(qids) if q in graph and not is_user_node(q)]
        if linked:
            keys.append(str(key))
            edges.extend((node, q) for q in linked)
    if not edges:
        return graph, ()
    out = graph.copy()
    out.add_edges_from(edges, pids=(LIKED_BY,))
    logger.info("collaborative graph: %d user nodes, %d user edges", len(keys), len(edges))
    return out, tuple(keys)


def build_sparse_graph(graph: nx.Graph, kb: KnowledgeBaseLike, weighting: GraphWeighting) -> SparseGraph:
    """Weight the item-value graph per :class:`GraphWeighting` and build its sparse matrix.

    Args:
        graph: the KB's undirected graph (edge attribute ``pids``: tuple of PIDs).
        kb: tells items from values (``is_item``).
        weighting: property weights and degree exponents.

    Returns:
        The :class:`SparseGraph` (unit weights if ``weighting`` is plain).
    """
    beta, eta = weighting.hub_exponent, weighting.item_exponent
    degree = dict(graph.degree())
    is_item = kb.is_item
    pid_weight: dict[str, float] = {}

    gamma = weighting.user_exponent

    def factor(node: Hashable) -> float:
        d = max(degree.get(node, 1), 1)
        if is_user_node(node):
            return float(d) ** -gamma if gamma else 1.0
        if is_item(str(node)):
            return float(d) ** eta if eta else 1.0
        return float(d) ** -beta if beta else 1.0

    def weight(u: Hashable, v: Hashable, data: Mapping[str, object]) -> float:
        pids = data.get("pids") or ()
        if pids:
            w = 0.0
            for p in pids:  # type: ignore[union-attr,attr-defined]
                if p not in pid_weight:
                    pid_weight[p] = weighting.pid_weight(p)
                w += pid_weight[p]
        else:
            w = weighting.default_pid_weight
        if w == 0 or not (beta or eta or gamma):
            return w
        return w * factor(u) * factor(v)

    return SparseGraph.from_networkx(graph, weight=weight)


__all__ = ["add_user_edges", "build_sparse_graph"]
