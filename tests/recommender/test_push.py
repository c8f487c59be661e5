"""The approximate PageRank with priors (forward push) against the exact solver, and the scale bench."""

from __future__ import annotations

import numpy as np
import pytest
from _rec_fakes import FakeKB  # noqa: E402

import recommender.recommend as recmod
from recommender.pagerank import personalized_pagerank
from recommender.push import PushSolver
from recommender.recommend import Profile, Recommender, prior_vector
from recommender.scale_bench import _top10_exact, plot_scale, scale_point, scale_sizes, synthetic_kg


@pytest.fixture(scope="module")
def kg():
    return synthetic_kg(40_000, seed=5)


def test_synthetic_graph_has_the_asked_edges_and_a_kb_shape(kg):
    g = kg.graph
    assert g.n_edges == 40_000 and kg.items.size == 5_000
    degree = np.diff(g.weights_t.indptr)
    values = degree[kg.items.size :]
    assert values.max() > 1000  # a few genres carry a large share of the items
    assert np.median(values) <= 3  # most people have a handful
    assert (degree[: kg.items.size] >= 1).all()  # every item has at least a genre or a country
    again = synthetic_kg(40_000, seed=5)
    assert (again.graph.weights_t != g.weights_t).nnz == 0  # seeded


def test_push_ranking_matches_the_exact_one(kg):
    """The approximate top 10 against the exact top 10 over 12 five-seed priors (the bench's check,
    small): the mean overlap stays high and the scores are close where they matter."""
    g, items = kg.graph, kg.items
    solver = PushSolver(g)
    order = solver.item_order(items)
    rng = np.random.default_rng(11)
    overlaps = []
    for _ in range(12):
        seeds = np.unique(rng.choice(items.size, size=5, replace=False)).astype(np.int64)
        exact = personalized_pagerank(g, prior_vector(g.n_nodes, seeds, np.zeros(g.n_nodes, bool), 0.85), method="cg")
        res = solver.solve(seeds, prior_mass=0.85)
        top, scores = res.top_items(
            items, order, k=10, allowed=lambda p, s=seeds: ~np.isin(p, s), secondary=np.zeros(items.size)
        )
        overlaps.append(len(set(top.tolist()) & set(_top10_exact(exact, items, seeds).tolist())) / 10)
        dense = res.dense()
        assert dense.sum() == pytest.approx(1.0, abs=1e-9)
        assert np.allclose(scores, dense[items[top]])  # top_items ranks by the same scores
        assert np.abs(dense - exact).max() < 0.1 * exact.max()  # measured: about 5% (on a seed)
    assert np.mean(overlaps) >= 0.9


def test_push_with_removed_nodes_gives_them_nothing(kg):
    g, items = kg.graph, kg.items
    seeds = np.array([1, 2, 3], dtype=np.int64)
    mask = np.zeros(g.n_nodes, dtype=bool)
    mask[g.weights_t.indices[g.weights_t.indptr[1] : g.weights_t.indptr[2]][:2]] = True  # two values of item 1
    mask[4] = True
    res = PushSolver(g).solve(seeds, mask=mask)
    dense = res.dense()
    assert float(dense[mask].sum()) == 0.0 and dense.sum() == pytest.approx(1.0, abs=1e-9)
    exact = personalized_pagerank(g, prior_vector(g.n_nodes, seeds, mask, 0.85), mask=mask, method="cg")
    assert set(np.argsort(-dense[items])[:10]) & set(np.argsort(-exact[items])[:10])


def test_recommender_uses_the_push_above_the_threshold(monkeypatch):
    kb = FakeKB()
    assert Recommender(kb).method == "cg"  # small graphs: exact
    monkeypatch.setattr(recmod, "APPROX_MIN_EDGES", 1)
    rec = Recommender(kb)
    exact = Recommender(kb, method="cg")
    assert rec.method == "push"
    likes = Profile(liked=frozenset({"Q25188"}), disliked=frozenset({"Q42229"}))  # Inception; not Mel Gibson
    got, want = rec.recommend(likes, k=5), exact.recommend(likes, k=5)
    assert [s.qid for s in got.items][:3] == [s.qid for s in want.items][:3]
    assert "Q11010" not in {s.qid for s in got.items}  # Braveheart carries the disliked Gibson... masked
    assert rec.explain(likes, got.items[0].qid)  # explanations read the push's dense scores
    scores, reason = rec.item_scores(likes)
    assert reason is None and scores.shape == (len(rec.item_index),)
    assert rec.recommend(Profile(), k=3).fallback_reason == "no_likes"


def test_scale_point_and_plot(tmp_path):
    assert scale_sizes(10_000_000)[-1] == 10_000_000 and scale_sizes(50_000) == [10_000, 30_000, 50_000]
    point = scale_point(synthetic_kg(5_000, seed=1), priors=4)
    assert point.edges == 5_000 and point.priors == 4 and 0.0 <= point.top10_overlap <= 1.0
    assert point.exact_p99_ms >= point.exact_p50_ms > 0 and point.approx_p99_ms >= point.approx_p50_ms > 0
    assert plot_scale([point], tmp_path / "scale.png").stat().st_size > 1000


def test_rec_bench_scale_prints_the_last_line(tmp_path, capsys):
    from bot.cli import main

    assert main(["rec", "bench", "--scale", "--max-edges", "12000", "--priors", "3", "--out", str(tmp_path)]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("scale: edges=12000 exact_p99_ms=") and " approx_p99_ms=" in last
    assert " top10_overlap=" in last and (tmp_path / "scale.png").is_file() and (tmp_path / "scale.json").is_file()
