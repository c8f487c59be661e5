"""PageRank with priors on the precomputed sparse matrix equals networkx.pagerank."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from logs.errors import ConfigError
from recommender.pagerank import SparseGraph, personalized_pagerank


def _graph_with_dangling() -> nx.Graph:
    g = nx.gnm_random_graph(200, 450, seed=7)
    g.add_nodes_from(["iso1", "iso2"])  # isolated = dangling nodes
    for u, v in g.edges:
        g[u][v]["weight"] = float((u * 7 + v) % 5 + 1)
    return g


def _max_diff(x, sg, ref) -> float:
    return max(abs(float(x[sg.index[k]]) - v) for k, v in ref.items())


@pytest.mark.parametrize("weighted", [True, False], ids=["weighted", "unit"])
def test_equals_networkx_with_dangling_nodes(weighted):
    g = _graph_with_dangling()
    weight = "weight" if weighted else None
    sg = SparseGraph.from_networkx(g, weight=weight)
    pers = {3: 1.0, 17: 2.0, "iso1": 0.5}
    x = personalized_pagerank(sg, sg.prior_vector(pers), tol=1e-12)
    ref = nx.pagerank(g, alpha=0.85, personalization=pers, weight=weight, tol=1e-13, max_iter=2000)
    assert _max_diff(x, sg, ref) < 1e-6
    assert x.sum() == pytest.approx(1.0, abs=1e-9)
    # dangling mass follows the personalization: the isolated liked node keeps a large share
    assert x[sg.index["iso1"]] > x[sg.index["iso2"]] == 0.0


def test_default_tolerance_is_within_1e6_of_networkx():
    g = _graph_with_dangling()
    sg = SparseGraph.from_networkx(g)
    prior = {n: 0.15 / g.number_of_nodes() for n in g}
    prior[5] += 0.85
    x = personalized_pagerank(sg, sg.prior_vector(prior), damping=0.85)
    ref = nx.pagerank(g, alpha=0.85, personalization=prior, tol=1e-13, max_iter=2000)
    assert _max_diff(x, sg, ref) < 1e-6


def test_mask_equals_networkx_on_subgraph():
    g = _graph_with_dangling()
    sg = SparseGraph.from_networkx(g)
    removed = {1, 2, 3, 4, 40}
    mask = np.zeros(sg.n_nodes, dtype=bool)
    mask[[sg.index[r] for r in removed]] = True
    pers = {10: 1.0, 11: 1.0, 3: 5.0}  # a prior on a removed node is dropped
    x = personalized_pagerank(sg, sg.prior_vector(pers), mask=mask, tol=1e-12)
    sub = g.subgraph(set(g) - removed)
    ref = nx.pagerank(sub, personalization={10: 1.0, 11: 1.0}, tol=1e-13, max_iter=2000)
    assert _max_diff(x, sg, ref) < 1e-6
    assert float(x[mask].sum()) == 0.0


def test_directed_graph_equals_networkx():
    g = nx.gnp_random_graph(80, 0.05, seed=3, directed=True)
    sg = SparseGraph.from_networkx(g)
    x = personalized_pagerank(sg, sg.prior_vector({0: 1.0, 1: 1.0}), damping=0.7, tol=1e-12)
    ref = nx.pagerank(g, alpha=0.7, personalization={0: 1.0, 1: 1.0}, tol=1e-13, max_iter=2000)
    assert _max_diff(x, sg, ref) < 1e-6


def test_counts_and_prior_outside_graph_is_ignored():
    g = nx.Graph([("a", "b"), ("b", "c")])
    g.add_node("d")
    sg = SparseGraph.from_networkx(g)
    assert (sg.n_nodes, sg.n_edges) == (4, 2)
    vec = sg.prior_vector({"a": 2.0, "not-there": 9.0})
    assert vec.tolist() == [2.0, 0.0, 0.0, 0.0]


@pytest.mark.parametrize(
    ("prior", "kwargs", "message"),
    [
        ([0.0, 0.0, 0.0], {}, "no positive weight"),
        ([1.0, 0.0], {}, "shape"),
        ([1.0, 0.0, 0.0], {"damping": 1.0}, "damping"),
        ([-1.0, 2.0, 0.0], {}, ">= 0"),
    ],
    ids=["F32-all-zero-prior", "bad-shape", "bad-damping", "negative"],
)
def test_bad_input_raises_clear_error(prior, kwargs, message):
    sg = SparseGraph.from_networkx(nx.path_graph(3))
    with pytest.raises(ConfigError, match=message):
        personalized_pagerank(sg, np.asarray(prior), **kwargs)


def test_prior_only_on_masked_node_is_an_error():
    sg = SparseGraph.from_networkx(nx.path_graph(3))
    with pytest.raises(ConfigError):
        personalized_pagerank(sg, np.asarray([1.0, 0.0, 0.0]), mask=np.array([True, False, False]))


def test_negative_weight_rejected():
    g = nx.Graph()
    g.add_edge(1, 2, weight=-1.0)
    with pytest.raises(ConfigError, match="weight"):
        SparseGraph.from_networkx(g)
