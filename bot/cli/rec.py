"""``corsbot rec evaluate`` and ``corsbot rec bench``: CLI glue of the recommender (issue 6).

- ``corsbot rec evaluate [--domains movie book music] [--seed 0] [--prior-mass P] [--damping D]
  [--hub-exponent X] [--item-exponent Y] [--user-weight W] [--user-exponent Z] [--pid-weight PID=W ...]
  [--no-collaborative] [--method cg|power]``: leave-one-out over the released study's likes (see
  :mod:`recommender.rec_eval`), over the collaborative graph (KB graph + one node per study user
  linked to their likes; the held-out user's node is hidden) unless ``--no-collaborative``, with each
  domain's edge weighting (``recommender.recommend.domain_weighting``; the flags change it);
  baselines popularity, item-kNN (``--knn-neighbours``, default 50) and random on the same cases;
  writes ``<home>/reports/rec/evaluate.{json,md}``; last line exactly
  ``rec: users=U cases=C hr10_movie=HM popularity_hr10_movie=PM random_hr10_movie=RM
  ndcg10_movie=NM hr10_book=HB hr10_music=HU popularity_hr10_book=PB popularity_hr10_music=PU
  knn_hr10_movie=KM knn_hr10_book=KB knn_hr10_music=KU ndcg10_book=NB ndcg10_music=NU``.
- ``corsbot rec elicitation-eval [--domain movie] [--strategies S...] [--seed 0] [--part all|dev|held-back]
  [--no-collaborative]``: the offline comparison of the elicitation strategies
  (:mod:`recommender.elicitation_eval`): every released study user of the domain (ConveRSE and, for
  movies, the successor study's conditions) is simulated answering K = 0, 3, 5, 10 suggestions of
  each strategy from their logged opinions; writes ``<home>/reports/rec/elicitation.{json,md,png}``
  (the PNG: HR@10 against K per strategy); last line exactly
  ``elicitation: users=N best=S hr10_k5_S=X ... rated_share_k5_S=Y ...`` (one pair per strategy).
- ``corsbot rec audit [--domains ...] [--sessions 300] [--seed 0]``: simulated sessions per domain
  (with dislikes, critiques and a constraint of the session) rendered by the dialog's handlers
  (:mod:`bot.cli.rec_audit`) and audited by :mod:`recommender.audit`; writes
  ``<home>/reports/rec/audit.{md,json}``; last line exactly ``audit: sessions=N wrong_kind=A bare_ids=B
  false_explanations=C weak_only_explanations=D duplicate_options=E constraint_violations=F repeats=G
  creator_missing=H`` (sums over the domains; H the share of cards without their known creator).
- ``corsbot rec bench --scale [--max-edges 10000000] [--priors 50]``: the exact and the approximate
  solver on synthetic knowledge graphs from 10^4 edges to ``--max-edges``
  (:mod:`recommender.scale_bench`): p50/p99 latency of a 5-seed prior, top-10 overlap of the
  approximate ranking with the exact one, ``<home>/reports/rec/scale.{json,png}``; last line exactly
  ``scale: edges=E exact_p99_ms=A approx_p99_ms=B top10_overlap=C`` (the largest size).
- ``corsbot rec bench [--requests 200] [--networkx-requests 3] [--max-edges 1000000]``: latency of
  one recommendation per domain (collaborative graph: KB + the study's user edges, as the bot
  runs it) vs ``networkx.pagerank`` per request, and a scaling curve on
  synthetic graphs (``<home>/reports/rec/scaling.png``); last line exactly
  ``bench: domain=D nodes=N edges=M p50_ms=A p99_ms=B speedup_vs_networkx=S`` for the largest
  domain (by edges).

The released messages are read by :mod:`bot.likes` (with :func:`logs.record.read_records`; the recommender
package itself never imports ``logs``).
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING

from bot import paths
from bot.cli import rec_data  # the study's users, the recommender and the report folder (tests replace its loader)
from bot.cli.args import non_negative_int, positive_int
from bot.cli.rec_data import out_dir, study_users
from bot.likes import RATING_INTENT_PREFIXES, interactions_for, study_likes  # noqa: F401 (re-exported)
from corsbot_errors import ConfigError

if TYPE_CHECKING:
    pass

logger = logging.getLogger(__name__)


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``rec evaluate``, ``rec elicitation-eval``, ``rec audit`` and ``rec bench`` to the top-level parser."""
    rec = sub.add_parser("rec", help="recommender: offline evaluation and benchmark")
    rec_sub = rec.add_subparsers(dest="rec_command", metavar="REC_COMMAND")
    rec.set_defaults(handler=lambda args: (rec.print_help(), 2)[1])

    ev = rec_sub.add_parser("evaluate", help="leave-one-out on the released study (HR@5/10, NDCG@10, MRR)")
    ev.add_argument(
        "--domains",
        nargs="+",
        default=list(paths.DOMAINS),
        choices=paths.DOMAINS,
        metavar="DOMAIN",
        help=f"domains to evaluate, among {', '.join(paths.DOMAINS)} (default: all three)",
    )
    ev.add_argument("--seed", type=int, default=0, help="seed of the random baseline and tie breaks")
    ev.add_argument("--prior-mass", type=float, default=None, help="share of the prior on liked nodes")
    ev.add_argument("--damping", type=float, default=None, help="PageRank damping")
    ev.add_argument("--hub-exponent", type=float, default=None, help="down-weight hub values: deg^-x")
    ev.add_argument("--item-exponent", type=float, default=None, help="up-weight items: deg^x")
    ev.add_argument(
        "--method",
        choices=("auto", "cg", "power", "push"),
        default=None,
        help="PageRank solver (default auto: the approximate push from 50k edges, so on the movie and music graphs; exact CG below, so on books)",
    )
    ev.add_argument(
        "--user-weight",
        type=float,
        default=None,
        help="weight of a user-like edge of the collaborative graph (KB edge = 1)",
    )
    ev.add_argument("--user-exponent", type=float, default=None, help="down-weight users with many likes: deg^-x")
    ev.add_argument(
        "--pid-weight",
        action="append",
        default=[],
        metavar="PID=W",
        help="weight of one property's edges (KB default 1; repeatable, e.g. --pid-weight P361=0.3)",
    )
    ev.add_argument(
        "--no-collaborative", action="store_true", help="KB graph only: no user nodes from the study's likes"
    )
    ev.add_argument(
        "--knn-neighbours",
        type=positive_int,
        default=None,
        help="items kept per liked QID by the item-kNN baseline (default 50)",
    )
    ev.add_argument("--out", type=Path, help="report folder (default <home>/reports/rec)")
    ev.set_defaults(handler=run_evaluate)

    el = rec_sub.add_parser(
        "elicitation-eval",
        help="offline comparison of the elicitation strategies (simulated study users; HR@10, rated share)",
    )
    el.add_argument("--domain", choices=paths.DOMAINS, default="movie", help="domain (default movie, the study's)")
    el.add_argument(
        "--strategies",
        nargs="+",
        default=None,
        metavar="STRATEGY",
        help="strategies to compare (default all six: popularity randpop varxpop item2item highest none)",
    )
    el.add_argument("--seed", type=int, default=0, help="seed of the held-out split and of randpop")
    el.add_argument(
        "--part",
        choices=("all", "dev", "held-back"),
        default="all",
        help="users simulated: all, the dev part, or the held-back fifth (default all)",
    )
    el.add_argument(
        "--no-collaborative", action="store_true", help="KB graph only: no user nodes from the study's likes"
    )
    el.add_argument("--out", type=Path, help="report folder (default <home>/reports/rec)")
    el.set_defaults(handler=run_elicitation_eval)

    au = rec_sub.add_parser(
        "audit",
        help="simulated sessions per domain (with dislikes, critiques, a constraint of the session): wrong kinds, "
        "bare ids, false or weak-only explanations, duplicate options, constraint violations, repeats, cards "
        "without their creator",
    )
    au.add_argument(
        "--domains",
        nargs="+",
        default=list(paths.DOMAINS),
        choices=paths.DOMAINS,
        metavar="DOMAIN",
        help=f"domains to audit, among {', '.join(paths.DOMAINS)} (default: all three)",
    )
    au.add_argument("--sessions", type=positive_int, default=300, help="sessions per domain (default 300)")
    au.add_argument("--seed", type=int, default=0, help="seed of the sampled profiles and of the values they reject")
    au.add_argument("--examples", type=non_negative_int, default=5, help="findings printed per domain")
    au.add_argument("--out", type=Path, help="report folder (default <home>/reports/rec)")
    au.set_defaults(handler=run_audit)

    be = rec_sub.add_parser("bench", help="latency per recommendation and scaling curve")
    be.add_argument(
        "--domains",
        nargs="+",
        default=list(paths.DOMAINS),
        choices=paths.DOMAINS,
        metavar="DOMAIN",
        help=f"domains to benchmark, among {', '.join(paths.DOMAINS)} (default: all three)",
    )
    be.add_argument("--requests", type=positive_int, default=200, help="timed recommendations per domain")
    be.add_argument(
        "--networkx-requests", type=non_negative_int, default=3, help="timed networkx.pagerank calls per domain"
    )
    be.add_argument(
        "--max-edges",
        type=positive_int,
        default=None,
        help="largest synthetic graph (edges; default 1M, with --scale 10M)",
    )
    be.add_argument("--out", type=Path, help="report folder (default <home>/reports/rec)")
    be.add_argument(
        "--scale",
        action="store_true",
        help="instead: exact vs approximate solver on synthetic knowledge graphs up to --max-edges "
        "(default 10M with --scale): p50/p99 latency, top-10 overlap, PNG",
    )
    be.add_argument("--priors", type=positive_int, default=50, help="five-seed priors per size (--scale; default 50)")
    be.set_defaults(handler=run_bench)


# -- evaluate ----------------------------------------------------------------------------------


def run_evaluate(args: argparse.Namespace) -> int:
    """Handler of ``corsbot rec evaluate``."""
    from dataclasses import replace

    from recommender.rec_eval import KNN_NEIGHBOURS, evaluate_domain, markdown_report, study_interactions, summary_line
    from recommender.recommend import domain_weighting

    options: rec_data.RecommenderOptions = {}
    if args.prior_mass is not None:
        options["prior_mass"] = args.prior_mass
    if args.damping is not None:
        options["damping"] = args.damping
    if args.method is not None:
        options["method"] = args.method
    changes = {
        name: value
        for name, value in (
            ("hub_exponent", args.hub_exponent),
            ("item_exponent", args.item_exponent),
            ("user_weight", args.user_weight),
            ("user_exponent", args.user_exponent),
        )
        if value is not None
    }
    pid_weights: dict[str, float] = {}
    for spec in args.pid_weight:
        pid, _sep, weight = spec.partition("=")
        pid = pid.strip().upper()
        try:
            value = float(weight)
        except ValueError:
            value = -1.0
        if not (pid.startswith("P") and pid[1:].isdigit()) or value < 0:
            raise ConfigError(f"--pid-weight wants PID=WEIGHT with a weight >= 0 (e.g. P361=0.3), got {spec!r}")
        pid_weights[pid] = value
    results = {}
    for domain in args.domains:
        if changes or pid_weights:  # the domain's own weighting with the options changed
            base = domain_weighting(domain)
            merged = {**dict(base.pid_weights), **pid_weights}
            options["weighting"] = replace(base, **changes, pid_weights=tuple(merged.items()))
        users = study_users(domain)
        # the collaborative graph: every study user's likes; each user's own node is hidden
        # during their cases (evaluate_domain), so only OTHER users' likes are used
        options["interactions"] = None if args.no_collaborative else study_interactions(users)
        rec = rec_data.load_recommender(domain, **options)
        result = evaluate_domain(rec, users, seed=args.seed, knn_neighbours=args.knn_neighbours or KNN_NEIGHBOURS)
        results[domain] = result
        print(
            f"{domain}: users={result.users} (of {result.users_total} with likes) cases={result.cases} "
            f"not_reachable={result.unreachable_cases} items={result.candidates} "
            f"skipped_likes={result.liked_not_item} fallbacks={result.fallback_cases} "
            f"user_nodes={len(rec.user_keys)}"
        )
        for method, m in result.metrics.items():
            u, a = result.metrics_unreachable[method], result.metrics_all_items[method]
            print(
                f"  {method:<10} HR@5={m.hr5:.3f} HR@10={m.hr10:.3f} NDCG@10={m.ndcg10:.3f} MRR={m.mrr:.3f} "
                f"(not reachable: HR@10={u.hr10:.3f}; all liked items: HR@10={a.hr10:.3f})"
            )
        for group, (count, metrics) in result.groups.items():
            print(
                f"  group {group}: cases={count} "
                + " ".join(f"{method}_hr10={m.hr10:.3f}" for method, m in metrics.items())
            )
    out = out_dir(args)
    (out / "evaluate.json").write_text(json.dumps({d: r.to_json() for d, r in results.items()}, indent=2) + "\n")
    (out / "evaluate.md").write_text(markdown_report(results))
    print(f"report: {out / 'evaluate.md'}")
    print(summary_line(results))
    return 0


# -- audit -------------------------------------------------------------------------------------


def run_audit(args: argparse.Namespace) -> int:
    """Handler of ``corsbot rec audit`` (the sessions: :mod:`bot.cli.rec_audit`)."""
    from bot.cli.rec_audit import run_audit as run

    return run(args)


# -- elicitation-eval --------------------------------------------------------------------------


def run_elicitation_eval(args: argparse.Namespace) -> int:
    """Handler of ``corsbot rec elicitation-eval``."""
    from bot.likes import logged_ratings, study_files, study_opinions
    from recommender.elicitation import STRATEGIES, Elicitor, strategy_name
    from recommender.elicitation_eval import SimUser, evaluate, markdown_report, plot

    strategies = list(dict.fromkeys(strategy_name(s) for s in (args.strategies or STRATEGIES)))
    files = study_files(args.domain)
    if not files:
        raise ConfigError(f"no released messages for {args.domain} under {paths.shared_data()}")
    users = [SimUser(key, opinions) for key, opinions in study_opinions(files)]
    # the collaborative graph of every study user; each simulated user's own node is hidden in their runs
    interactions = None
    if not args.no_collaborative:
        likes = {u.key: tuple(q for q, p in u.opinions if p == "+") for u in users}
        interactions = {key: liked for key, liked in likes.items() if liked}
    rec = rec_data.load_recommender(args.domain, interactions=interactions)
    # counts of the released studies only (no bot database: the comparison must be reproducible)
    elicitor = Elicitor(rec, logged_ratings(args.domain), seed=args.seed)
    result = evaluate(elicitor, users, strategies=strategies, seed=args.seed, part=args.part)
    print(
        f"{args.domain}: users={result.users} (of {result.users_total} with opinions) part={args.part} "
        f"files={len(files)} items={len(elicitor.items)} seconds={result.seconds:.1f}"
    )
    for name, r in result.strategies.items():
        print(
            f"  {name:<10} "
            + " ".join(
                f"K={k}: HR@10={r.hr10[k]:.3f} NDCG@10={r.ndcg10[k]:.3f} rated={r.rated_share[k]:.3f}" for k in r.hr10
            )
        )
    out = out_dir(args)
    (out / "elicitation.json").write_text(json.dumps(result.to_json(), indent=2) + "\n")
    (out / "elicitation.md").write_text(markdown_report(result))
    png = plot(result, out / "elicitation.png")
    print(f"report: {out / 'elicitation.md'}; plot: {png}")
    print(result.summary_line())
    return 0


# -- bench -------------------------------------------------------------------------------------


def run_bench(args: argparse.Namespace) -> int:
    """Handler of ``corsbot rec bench`` and ``rec bench --scale`` (in :mod:`bot.cli.rec_bench`)."""
    from bot.cli.rec_bench import run_bench as run

    return run(args)
