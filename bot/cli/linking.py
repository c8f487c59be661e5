"""``corsbot nlu evaluate-linking [--domain D]``: the entity linker's steps scored on their own (issue 24).

Glue only: reads the realistic test set's development half (:func:`nlu.realistic_eval.load_sentences`)
and the released messages (``bot.cli.entities``' reader, the study's preference tasks with the audited
gold of :func:`nlu.entity_eval.audit_tasks`), loads each domain's KB snapshot and linker, and calls
:func:`nlu.link_eval.evaluate`. Prints per domain and gold set, then per gold set, then the last
line ``linking: dev_golds=N dev_recall_at_1=.. ... study_decision_accuracy=..``
(:func:`nlu.link_eval.summary_line`); ``--errors N`` prints N wrong decisions of each domain and set.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot import paths
from bot.cli.args import non_negative_int

DEFAULT_SET = Path(__file__).resolve().parents[2] / "tests" / "data" / "realistic" / "dev.jsonl"
"""The development half of the realistic test set (the held-back half is scored only at the end)."""


def register(nlu_sub: argparse._SubParsersAction) -> None:
    """Add ``evaluate-linking`` under the ``nlu`` command."""
    parser = nlu_sub.add_parser(
        "evaluate-linking",
        help="candidate recall@k and decision accuracy of the entity linker's steps (realistic dev set, study gold)",
    )
    parser.add_argument("--domain", choices=paths.DOMAINS, help="one domain (default: every domain with a KB snapshot)")
    parser.add_argument(
        "--realistic", type=Path, default=DEFAULT_SET, help="realistic test-set file (default: the dev half)"
    )
    parser.add_argument("--data", type=Path, help="folder of the released messages (default: shared converse)")
    parser.add_argument(
        "--errors", type=non_negative_int, default=0, metavar="N", help="print N wrong decisions per domain and set"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Evaluate each requested domain; prints the figures (see the module docstring); returns 0, or 2
    when the test set, the released messages or every KB snapshot is missing."""
    from bot.cli.entities import _eval_records
    from nlu.entity_eval import audit_tasks, extract_tasks
    from nlu.link_eval import GoldMention, StepScores, evaluate, summary_line
    from nlu.linker import EntityLinker
    from nlu.realistic_eval import load_sentences
    from recommender.kb import KnowledgeBase

    data_dir: Path = args.data or paths.converse_dir()
    if not data_dir.is_dir():
        print(f"corsbot: error: released messages not found at {data_dir}", file=sys.stderr)
        return 2
    if not Path(args.realistic).is_file():
        print(f"corsbot: error: no test set at {args.realistic}", file=sys.stderr)
        return 2
    sentences = load_sentences(args.realistic)
    dev_total, study_total = StepScores(), StepScores()
    evaluated = 0
    for domain in [args.domain] if args.domain else list(paths.DOMAINS):
        snapshot = paths.kb_snapshot(domain)
        if not snapshot.exists():
            print(f"skipped {domain}: no KB snapshot at {snapshot} (run `corsbot kb build`)")
            continue
        kb = KnowledgeBase.load(snapshot)
        linker = EntityLinker(kb)
        dev_golds = [
            GoldMention(s.text, e.qid, e.mention)
            for s in sentences
            if s.domain == domain and s.kind == "preference"
            for e in s.entities
            if e.qid
        ]
        records = []
        for kind in ("nl", "mixed"):
            path = data_dir / domain / f"messages_{kind}.json"
            if path.exists():
                records.extend(_eval_records(path))
        tasks = audit_tasks(extract_tasks(records), kb)
        study_golds = [GoldMention(t.text, qid) for t in tasks for qid, _sign in t.gold]
        dev, study = evaluate(linker, dev_golds), evaluate(linker, study_golds)
        print(f"{domain} dev: {dev.line()}")
        print(f"{domain} study: {study.line()}")
        for name, scores in (("dev", dev), ("study", study)):
            for m in scores.mistakes[: args.errors]:
                print(
                    f"  {name} {m.kind}: {m.text!r} gold {m.gold} ({kb.label(m.gold)}), top {m.top} ({kb.label(m.top)})"
                )
        dev_total.add(dev)
        study_total.add(study)
        evaluated += 1
    if not evaluated:
        print("corsbot: error: no domain could be evaluated (build the KB first: `corsbot kb build`)", file=sys.stderr)
        return 2
    print(f"dev ({Path(args.realistic).name}): {dev_total.line()}")
    print(f"study (audited gold): {study_total.line()}")
    print(summary_line(dev_total, study_total))
    return 0
