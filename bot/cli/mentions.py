"""``corsbot nlu train-mentions``: fit the linker's mention gate (:mod:`nlu.linking.mention_model`, issue 22-L).

Glue only: loads each domain's KB snapshot and linker, the realistic test set's development half and the
released messages' audited preference tasks (as ``evaluate-linking`` does), builds the examples of
:mod:`nlu.linking.mention_train` and writes the weights beside the gate. Last line
``mentions: train=N heldout=N positives=N negatives=N accuracy=.. mention_recall=.. spurious_dropped=.. threshold=..``
(the held-back fifth of the texts).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot import paths
from bot.cli.linking import DEFAULT_SET

SYNTHETIC_NAMES = 150
"""KB names of common English words per domain put in the synthetic frames."""


def register(nlu_sub: argparse._SubParsersAction) -> None:
    """Add ``train-mentions`` under the ``nlu`` command."""
    parser = nlu_sub.add_parser("train-mentions", help="fit the entity linker's mention gate (is a span a title?)")
    parser.add_argument("--realistic", type=Path, default=DEFAULT_SET, help="realistic dev file (default: dev half)")
    parser.add_argument("--data", type=Path, help="folder of the released messages (default: shared converse)")
    parser.add_argument("--dry-run", action="store_true", help="print the figures, keep the stored weights")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Build the examples of every domain with a KB, fit, print the figures, save; 2 when data is missing."""
    from bot.cli.entities import _eval_records
    from nlu.entity_eval import audit_tasks, extract_tasks
    from nlu.linker import EntityLinker
    from nlu.linking import mention_train as mt
    from nlu.realistic_eval import load_sentences
    from recommender.kb import KnowledgeBase

    data_dir: Path = args.data or paths.converse_dir()
    if not Path(args.realistic).is_file():
        print(f"corsbot: error: no test set at {args.realistic}", file=sys.stderr)
        return 2
    sentences = load_sentences(args.realistic)
    lines = mt.ordinary_lines()
    examples: list[mt.Example] = []
    for domain in paths.DOMAINS:
        snapshot = paths.kb_snapshot(domain)
        if not snapshot.exists():
            print(f"skipped {domain}: no KB snapshot at {snapshot}")
            continue
        kb = KnowledgeBase.load(snapshot)
        linker = EntityLinker(kb)
        canonical = getattr(kb, "canonical", None) or (lambda q: q)
        records = []
        for kind in ("nl", "mixed"):
            path = data_dir / domain / f"messages_{kind}.json"
            if path.exists():
                records.extend(_eval_records(path))
        tasks = audit_tasks(extract_tasks(records), kb)
        found = [
            *mt.realistic_examples(linker, sentences, canonical),
            *mt.study_examples(linker, tasks, canonical),
            *mt.ordinary_examples(linker, lines),
            *mt.synthetic_examples(linker, mt.common_word_names(kb, SYNTHETIC_NAMES)),
        ]
        by_source: dict[str, list[int]] = {}
        for e in found:
            by_source.setdefault(e.source, [0, 0])[e.label] += 1
        print(f"{domain}: " + " ".join(f"{s}={n[1]}+/{n[0]}-" for s, n in sorted(by_source.items())))
        examples += found
    if not examples:
        print("corsbot: error: no examples (build the KB first: `corsbot kb build`)", file=sys.stderr)
        return 2
    report = mt.fit(examples)
    if not args.dry_run:
        mt.save(report)
    print(report.line())
    return 0
