"""PageRank with priors on the precomputed sparse matrix equals networkx.pagerank."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from corsbot_errors import ConfigError
from recommender.pagerank import SparseGraph, personalized_pagerank


def _graph_with_dangling() -> nx.Graph:
    g = nx.gnm_random_graph(200, 450, seed=7)
    g.add_nodes_from(["iso1", "iso2"])  # isolated = dangling nodes
    for u, v in g.edges:
        g[u][v]["weight"] = float((u * 7 + v) % 5 + 1)
    return g


def _max_diff(x, sg, ref) -> float:
    return max(abs(float(x[sg.index[k]]) - v) for k, v in ref.items())


METHODS = pytest.mark.parametrize("method", ["power", "cg"])


@METHODS
@pytest.mark.parametrize("weighted", [True, False], ids=["weighted", "unit"])
def test_equals_networkx_with_dangling_nodes(weighted, method):
    g = _graph_with_dangling()
    weight = "weight" if weighted else None
    sg = SparseGraph.from_networkx(g, weight=weight)
    assert sg.symmetric
    pers = {3: 1.0, 17: 2.0, "iso1": 0.5}
    x = personalized_pagerank(sg, sg.prior_vector(pers), method=method)
    ref = nx.pagerank(g, alpha=0.85, personalization=pers, weight=weight, tol=1e-13, max_iter=2000)
    assert _max_diff(x, sg, ref) < 1e-6
    assert x.sum() == pytest.approx(1.0, abs=1e-9)
    # dangling mass follows the personalization: the isolated liked node keeps a large share
    assert x[sg.index["iso1"]] > x[sg.index["iso2"]] == 0.0


@METHODS
def test_default_tolerance_is_within_1e6_of_networkx(method):
    g = _graph_with_dangling()
    sg = SparseGraph.from_networkx(g)
    prior = {n: 0.15 / g.number_of_nodes() for n in g}
    prior[5] += 0.85
    x = personalized_pagerank(sg, sg.prior_vector(prior), damping=0.85, method=method)
    ref = nx.pagerank(g, alpha=0.85, personalization=prior, tol=1e-13, max_iter=2000)
    assert _max_diff(x, sg, ref) < 1e-6


@METHODS
def test_mask_equals_networkx_on_subgraph(method):
    g = _graph_with_dangling()
    sg = SparseGraph.from_networkx(g)
    # node 0's neighbours all removed: it becomes dangling for this request
    removed = {1, 2, 3, 4, 40, *g.neighbors(0)}
    mask = np.zeros(sg.n_nodes, dtype=bool)
    mask[[sg.index[r] for r in removed]] = True
    pers = {10: 1.0, 11: 1.0, 3: 5.0}  # a prior on a removed node is dropped
    pers[0] = 0.3
    x = personalized_pagerank(sg, sg.prior_vector(pers), mask=mask, method=method)
    sub = g.subgraph(set(g) - removed)
    assert sub.degree(0) == 0
    ref = nx.pagerank(sub, personalization={10: 1.0, 11: 1.0, 0: 0.3}, tol=1e-13, max_iter=2000)
    assert _max_diff(x, sg, ref) < 1e-6
    assert float(x[mask].sum()) == 0.0


@METHODS
def test_directed_graph_equals_networkx(method):
    g = nx.gnp_random_graph(80, 0.05, seed=3, directed=True)
    sg = SparseGraph.from_networkx(g)
    assert not sg.symmetric  # cg falls back to the power iteration
    x = personalized_pagerank(sg, sg.prior_vector({0: 1.0, 1: 1.0}), damping=0.7, method=method)
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
        ([1.0, 0.0, 0.0], {"method": "magic"}, "method"),
    ],
    ids=["F32-all-zero-prior", "bad-shape", "bad-damping", "negative", "bad-method"],
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
