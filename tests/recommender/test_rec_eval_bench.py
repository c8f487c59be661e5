"""Benchmark helpers: latency vs networkx on the fake KB, synthetic scaling graphs, the PNG."""

from __future__ import annotations

import math

import pytest
from _rec_fakes import FakeKB  # noqa: E402

from recommender.bench import (
    ScalingPoint,
    latency,
    plot_scaling,
    random_profiles,
    scaling,
    scaling_exponent,
    synthetic_graph,
)
from recommender.recommend import Recommender


def test_latency_result_fields():
    rec = Recommender(FakeKB())
    r = latency(rec, requests=20, networkx_requests=2)
    assert (r.domain, r.nodes, r.edges, r.requests, r.networkx_requests) == ("movie", 20, 27, 20, 2)
    assert 0 < r.p50_ms <= r.p99_ms
    assert r.networkx_mean_ms > 0 and r.speedup_vs_networkx == pytest.approx(r.networkx_mean_ms / r.mean_ms)


def test_random_profiles_use_connected_items():
    rec = Recommender(FakeKB())
    profiles = random_profiles(rec, 5, likes=3, seed=1)
    assert len(profiles) == 5
    for p in profiles:
        assert len(p.liked) == 3 and "Q999001" not in p.liked  # the isolated film is never drawn


def test_synthetic_graph_has_requested_size():
    g = synthetic_graph(20_000, seed=2)
    assert 15_000 <= g.n_edges <= 20_000  # duplicates merged
    assert g.symmetric and g.n_nodes == 5_000 + 5_000 // 3


def test_scaling_curve_and_png(tmp_path):
    points = scaling([10_000, 40_000], repeats=2)
    assert [p.edges for p in points] == sorted(p.edges for p in points)
    assert all(p.mean_ms >= p.min_ms > 0 for p in points)
    png = plot_scaling(points, tmp_path / "rec" / "scaling.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_scaling_exponent():
    pts = [ScalingPoint(10, 1000, 1.0, 1.0), ScalingPoint(100, 10_000, 10.0, 10.0)]
    assert scaling_exponent(pts) == pytest.approx(1.0)
    assert math.isnan(scaling_exponent(pts[:1]))
