"""``corsbot rec bench``: latency of PageRank with priors on the real graphs and its scaling curve,
and ``rec bench --scale``: the exact and the approximate solver on synthetic knowledge graphs
(:mod:`recommender.bench`, :mod:`recommender.scale_bench`; figures in ``docs/benchmarks.md``)."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict

from bot.cli import rec_data  # the recommender loader (tests replace it) and the report folder
from bot.likes import interactions_for
from corsbot_errors import ConfigError


def run_scale_bench(args: argparse.Namespace) -> int:
    """``corsbot rec bench --scale`` (see :mod:`recommender.scale_bench`)."""
    import resource

    from recommender.scale_bench import as_row, plot_scale, scale_point, scale_sizes, synthetic_kg

    max_edges = args.max_edges or 10_000_000
    if max_edges < 1000:
        raise ConfigError("need --max-edges >= 1000")
    points = []
    for size in scale_sizes(max_edges):
        kg = synthetic_kg(size, seed=0)
        p = scale_point(kg, priors=args.priors, seed=0)
        del kg
        points.append(p)
        print(
            f"size: edges={p.edges} nodes={p.nodes} items={p.items} build_s={p.build_s:.1f} "
            f"uniform_solve_s={p.global_s:.1f} exact_p50_ms={p.exact_p50_ms:.1f} exact_p99_ms={p.exact_p99_ms:.1f} "
            f"approx_p50_ms={p.approx_p50_ms:.1f} approx_p99_ms={p.approx_p99_ms:.1f} "
            f"top10_overlap={p.top10_overlap:.3f} (min {p.top10_overlap_min:.1f}) "
            f"peak_rss_mb={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f}",
            flush=True,
        )
    out = rec_data.out_dir(args)
    png = plot_scale(points, out / "scale.png")
    (out / "scale.json").write_text(json.dumps([as_row(p) for p in points], indent=2) + "\n")
    print(f"plot: {png}")
    last = points[-1]
    print(
        f"scale: edges={last.edges} exact_p99_ms={last.exact_p99_ms:.1f} approx_p99_ms={last.approx_p99_ms:.1f} "
        f"top10_overlap={last.top10_overlap:.3f}"
    )
    return 0


def run_bench(args: argparse.Namespace) -> int:
    """Handler of ``corsbot rec bench``."""
    if args.scale:
        return run_scale_bench(args)
    if args.max_edges is None:
        args.max_edges = 1_000_000
    import numpy as np

    from recommender.bench import latency, plot_scaling, scaling, scaling_exponent

    if args.requests < 1 or args.networkx_requests < 0 or args.max_edges < 10_000:
        raise ConfigError("need --requests >= 1, --networkx-requests >= 0, --max-edges >= 10000")
    results = []
    for domain in args.domains:
        # the production graph: KB edges plus the study's user edges (the bot adds its own users)
        rec = rec_data.load_recommender(domain, interactions=interactions_for(domain))
        r = latency(rec, requests=args.requests, networkx_requests=args.networkx_requests)
        results.append(r)
        print(
            f"{domain}: nodes={r.nodes} edges={r.edges} p50_ms={r.p50_ms:.2f} p99_ms={r.p99_ms:.2f} "
            f"mean_ms={r.mean_ms:.2f} networkx_mean_ms={r.networkx_mean_ms:.1f} "
            f"speedup_vs_networkx={r.speedup_vs_networkx:.1f}"
        )
    sizes = np.unique(
        np.geomspace(10_000, args.max_edges, num=max(2, int(np.log10(args.max_edges / 1e4) * 2) + 1))
        .round()
        .astype(int)
    )
    points = scaling([int(s) for s in sizes])
    for p in points:
        print(f"scaling: edges={p.edges} nodes={p.nodes} mean_ms={p.mean_ms:.2f} min_ms={p.min_ms:.2f}")
    out = rec_data.out_dir(args)
    png = plot_scaling(points, out / "scaling.png")
    exponent = scaling_exponent(points)
    exponent_min = scaling_exponent(points, use_min=True)
    print(f"scaling exponent (1 = linear): mean {exponent:.2f}, min {exponent_min:.2f}; plot: {png}")
    (out / "bench.json").write_text(
        json.dumps(
            {
                "latency": [asdict(r) for r in results],
                "scaling": [asdict(p) for p in points],
                "scaling_exponent": exponent,
                "scaling_exponent_min": exponent_min,
            },
            indent=2,
        )
        + "\n"
    )
    largest = max(results, key=lambda r: r.edges)
    print(
        f"bench: domain={largest.domain} nodes={largest.nodes} edges={largest.edges} "
        f"p50_ms={largest.p50_ms:.2f} p99_ms={largest.p99_ms:.2f} "
        f"speedup_vs_networkx={largest.speedup_vs_networkx:.1f}"
    )
    return 0
