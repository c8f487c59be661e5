"""``corsbot nlu evaluate-entities [--domain D]``: issue 5's task-level entity/polarity evaluation.

Glue only: reads the released files with ``logs.record.read_records``, loads each domain's KB
snapshot (``var/kb/<domain>``), builds the linker and calls :mod:`nlu.entity_eval`. The last
printed line is exactly ``entities: recall_in_kb=R precision_in_kb=P recall_all=RA
question_rate=Q polarity_accuracy=A negative_f1=F``, scored against the logged gold as it is; the
line before it gives the same scores against the audited gold (:func:`nlu.entity_eval.audit_tasks`).
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from bot import paths
from bot.cli.args import non_negative_int

if TYPE_CHECKING:
    from nlu.entity_eval import AuditCounts, EvalRecord, PreferenceTask
    from nlu.linker import EntityLinker
    from nlu.sentiment import SentimentRecognizer
    from recommender.kb import KnowledgeBase

logger = logging.getLogger(__name__)


def register(nlu_sub: argparse._SubParsersAction) -> None:
    """Add ``evaluate-entities`` under the ``nlu`` command."""
    parser = nlu_sub.add_parser(
        "evaluate-entities",
        help="task-level entity linking / disambiguation / polarity scores on the released study",
    )
    parser.add_argument("--domain", choices=paths.DOMAINS, help="one domain (default: every domain with a KB snapshot)")
    parser.add_argument("--kb", type=Path, help="KB snapshot folder (default: var/kb/<domain>; needs --domain)")
    parser.add_argument("--data", type=Path, help="folder of the released messages (default: shared converse)")
    parser.add_argument(
        "--errors", type=non_negative_int, default=0, metavar="N", help="print N missed/extra tasks per domain"
    )
    parser.set_defaults(handler=run)


def _eval_records(path: Path) -> list[EvalRecord]:
    from logs.record import read_records
    from logs.schema import parse_objects, split_list
    from nlu.entity_eval import EvalRecord

    result = read_records(path)
    for problem in result.problems[:3]:
        print(f"warning: {path.name}: {problem}", file=sys.stderr)
    return [
        EvalRecord(
            r.user_id,
            r.timestamp_start,
            r.message,
            r.intent,
            parse_objects(r.recognized_objects),
            split_list(r.events),
            r.to_check,
        )
        for r in result.records
    ]


def run(args: argparse.Namespace) -> int:
    """Evaluate each requested domain and print per-domain and overall scores."""
    from nlu.entity_eval import (
        AuditCounts,
        EntityScores,
        audit_ratings,
        audit_sign,
        audit_tasks,
        evaluate_ratings,
        evaluate_tasks,
        extract_ratings,
        extract_tasks,
        latency_summary,
        summary_line,
        vader_baseline,
    )
    from nlu.linker import EntityLinker
    from nlu.sentiment import SentimentRecognizer
    from recommender.kb import KnowledgeBase

    data_dir = args.data or paths.converse_dir()
    if not data_dir.is_dir():
        print(f"corsbot: error: released messages not found at {data_dir}", file=sys.stderr)
        return 2
    if args.kb is not None and not args.domain:
        print("corsbot: error: --kb needs --domain", file=sys.stderr)
        return 2
    domains = [args.domain] if args.domain else list(paths.DOMAINS)
    sentiment = SentimentRecognizer(paths.models_dir())  # the stored hedge reader, as the bot reads it
    total = EntityScores()
    total_clean = EntityScores()
    total_audited = EntityScores()
    total_hard = EntityScores()
    vader_logged = EntityScores()
    vader_audited = EntityScores()
    total_counts = AuditCounts()
    evaluated = 0
    for domain in domains:
        kb_path = args.kb or paths.kb_snapshot(domain)
        if not kb_path.exists():
            message = f"no KB snapshot for {domain} at {kb_path} (run `corsbot kb build`)"
            if args.domain:
                print(f"corsbot: error: {message}", file=sys.stderr)
                return 2
            print(f"skipped {domain}: {message}")
            continue
        kb = KnowledgeBase.load(kb_path)
        linker = EntityLinker(kb)
        records = []
        for kind in ("nl", "mixed"):
            path = data_dir / domain / f"messages_{kind}.json"
            if path.exists():
                records.extend(_eval_records(path))
            else:
                print(f"warning: missing {path}", file=sys.stderr)
        tasks = extract_tasks(records)
        scores = evaluate_tasks(tasks, linker, sentiment, kb)
        ratings = extract_ratings(records)
        evaluate_ratings(ratings, linker, sentiment, scores)
        clean = evaluate_tasks([t for t in tasks if t.clean], linker, sentiment, kb)
        evaluate_ratings([r for r in ratings if r.clean], linker, sentiment, clean)
        total_clean.add(clean)
        counts = AuditCounts()
        audited_tasks = audit_tasks(tasks, kb, counts)
        audited_ratings = audit_ratings(ratings, records, counts)
        audited = evaluate_tasks(audited_tasks, linker, sentiment, kb)
        evaluate_ratings(audited_ratings, linker, sentiment, audited)
        total_audited.add(audited)
        # polarity where rule R1 sets no sign: the audited gold there is the logged gold
        hard = evaluate_tasks([t for t in audited_tasks if audit_sign(t.text) is None], linker, sentiment, kb)
        evaluate_ratings([r for r in audited_ratings if audit_sign(r.text) is None], linker, sentiment, hard)
        total_hard.add(hard)
        vader_logged.add(vader_baseline(tasks, ratings))
        vader_audited.add(vader_baseline(audited_tasks, audited_ratings))
        total_counts.add(counts)
        evaluated += 1
        print(
            f"{domain}: tasks={scores.tasks} (without gold: {scores.tasks_without_gold}) "
            f"gold={scores.gold} in_kb={scores.gold_in_kb} predicted={scores.predicted} "
            f"precision_all={scores.precision_all:.3f} question_rate={scores.question_rate:.3f} "
            f"original_question_rate={scores.original_question_rate:.3f} "
            f"neutral={scores.polarity_neutral}/{scores.polarity_total} "
            f"gold_in_kb_named_in_message={scores.visible_share:.3f}"
        )
        print(
            f"{domain}: polarity on task entities {scores.task_polarity_accuracy:.3f} "
            f"(n={scores.task_polarity_total}, negative_f1={scores.task_negative_f1:.3f}, "
            f"confirmations asked={scores.confirmations}); on ratings of the item on screen "
            f"{scores.rating_accuracy:.3f} (n={scores.ratings})"
        )
        print(f"{domain}: index build {linker.build_seconds:.2f} s; link latency {latency_summary(scores.link_ms)}")
        print(f"{domain} (clean tasks, toCheck=false: {clean.tasks}): {summary_line(clean)}")
        print(f"{domain} (audited gold: {_counts_text(counts)}): {summary_line(audited)}")
        print(f"{domain}: {summary_line(scores)}")
        if args.errors:
            _print_errors(tasks, linker, sentiment, kb, args.errors)
        total.add(scores)
    if not evaluated:
        print("corsbot: error: no domain could be evaluated (build the KB first: `corsbot kb build`)", file=sys.stderr)
        return 2
    print(
        f"overall: tasks={total.tasks} precision_all={total.precision_all:.3f} "
        f"question_rate={total.question_rate:.3f} original_question_rate={total.original_question_rate:.3f} "
        f"gold_in_kb_named_in_message={total.visible_share:.3f} link latency {latency_summary(total.link_ms)}"
    )
    print(
        f"overall: polarity on task entities {total.task_polarity_accuracy:.3f} (n={total.task_polarity_total}, "
        f"negative_f1={total.task_negative_f1:.3f}, confirmations asked={total.confirmations}); "
        f"on ratings of the item on screen {total.rating_accuracy:.3f} (n={total.ratings})"
    )
    print(f"overall (clean tasks, toCheck=false: {total_clean.tasks}): {summary_line(total_clean)}")
    print(
        f"overall: audited polarity where the message states no single sign (rule R1 silent): "
        f"{total_hard.polarity_accuracy:.3f} (n={total_hard.polarity_total}, negative_f1={total_hard.negative_f1:.3f})"
    )
    print(
        f"overall: raw VADER on whole messages over every gold entity: logged gold "
        f"{vader_logged.polarity_accuracy:.3f} (negative_f1={vader_logged.negative_f1:.3f}), audited gold "
        f"{vader_audited.polarity_accuracy:.3f} (negative_f1={vader_audited.negative_f1:.3f})"
    )
    print(f"overall (audited gold: {_counts_text(total_counts)}): {summary_line(total_audited)}")
    print(summary_line(total))
    return 0


def _counts_text(counts: AuditCounts) -> str:
    return (
        f"{counts.tasks_unnamed} tasks with an unnamed gold QID dropped, {counts.signs_flipped} signs "
        f"set by the message, {counts.polarity_excluded} message-level signs not scored"
    )


def _print_errors(
    tasks: Sequence[PreferenceTask],
    linker: EntityLinker,
    sentiment: SentimentRecognizer,
    kb: KnowledgeBase,
    limit: int,
) -> None:
    from nlu.entity_eval import simulate_task

    shown = 0
    for task in tasks:
        if not task.gold or shown >= limit:
            continue
        outcome = simulate_task(task, linker, sentiment, kb)
        gold = dict(task.gold)
        predicted = {q: p.value for q, p in outcome.predicted}
        if gold != predicted:
            shown += 1
            print(
                f"  {task.text!r}: gold={[(q, kb.label(q) if kb.has(q) else '?', p) for q, p in gold.items()]} "
                f"ours={[(q, kb.label(q), p) for q, p in predicted.items()]}"
            )
