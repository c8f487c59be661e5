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


def test_split_blocks_eliminate_an_independent_set_and_keep_every_entry():
    """The CG solver's Schur split (recommender.pagerank.SplitBlocks): S has no inner edge, S and R
    cover the non-isolated nodes, and the blocks hold exactly the normalised matrix's entries."""
    g = _graph_with_dangling()
    g.add_edges_from([(0, 1), (1, 2), (2, 0)])  # a triangle: not bipartite
    sg = SparseGraph.from_networkx(g)
    b = sg.blocks
    s_set = set(b.s_nodes.tolist())
    assert s_set and not any(sg.index[v] in s_set for u in s_set for v in g.neighbors(sg.nodes[u]))
    connected = {sg.index[v] for v in g if g.degree(v)}
    assert s_set | set(b.r_nodes.tolist()) == connected and not s_set & set(b.r_nodes.tolist())
    w = sg.weights_t.toarray()
    d = np.sqrt(sg.out_weight)
    full = np.divide(w, np.outer(d, d), out=np.zeros_like(w), where=np.outer(d, d) > 0)
    assert np.allclose(b.n_sr.toarray(), full[np.ix_(b.s_nodes, b.r_nodes)])
    assert np.allclose(b.n_rr.toarray(), full[np.ix_(b.r_nodes, b.r_nodes)])
    assert np.allclose(b.n_rs.toarray(), b.n_sr.toarray().T)
    assert b.n_sr.nnz * 2 + b.n_rr.nnz == sg.weights_t.nnz


@pytest.mark.parametrize("split", [None, "items"], ids=["automatic", "hint"])
def test_item_value_graph_with_sequels_users_and_dislikes_equals_networkx(split):
    """A KB-shaped graph (items -- values, an item -- item sequel edge, a user linked to both, an
    isolated item), with and without removed nodes, through the Schur-split CG."""
    rng = np.random.default_rng(4)
    g = nx.Graph()
    items = [f"i{k}" for k in range(40)]
    values = [f"v{k}" for k in range(15)]
    g.add_nodes_from(items + values + ["lonely"])
    for it in items:
        for v in rng.choice(values, size=3, replace=False):
            g.add_edge(it, str(v), weight=float(rng.integers(1, 3)))
    g.add_edge("i0", "i1", weight=1.0)  # a sequel
    g.add_edges_from([("user:a", "i2"), ("user:a", "v3"), ("user:a", "i5")], weight=3.0)
    nodes = list(g)
    hint = np.array([str(n).startswith("i") for n in nodes]) if split else None
    src, dst, wt = [], [], []
    for u, v, data in g.edges(data=True):
        src += [nodes.index(u), nodes.index(v)]
        dst += [nodes.index(v), nodes.index(u)]
        wt += [data["weight"]] * 2
    sg = SparseGraph.from_arcs(nodes, np.array(src), np.array(dst), np.array(wt), split=hint)
    pers = {"i0": 1.0, "i7": 1.0, "v3": 0.5, "lonely": 0.2}
    x = personalized_pagerank(sg, sg.prior_vector(pers), method="cg")
    ref = nx.pagerank(g, personalization=pers, tol=1e-13, max_iter=2000)
    assert _max_diff(x, sg, ref) < 1e-6
    removed = {"v3", *g.neighbors("i7")} - {"i0"}
    mask = np.zeros(sg.n_nodes, dtype=bool)
    mask[[sg.index[r] for r in removed]] = True
    x = personalized_pagerank(sg, sg.prior_vector(pers), mask=mask, method="cg")
    sub = g.subgraph(set(g) - removed)
    ref = nx.pagerank(
        sub, personalization={k: v for k, v in pers.items() if k not in removed}, tol=1e-13, max_iter=2000
    )
    assert _max_diff(x, sg, ref) < 1e-6 and float(x[mask].sum()) == 0.0
