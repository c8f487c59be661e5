"""``corsbot nlu train`` and ``corsbot nlu evaluate``: the intent recognizer's CLI glue.

This module converts dataset-format records (``logs.record``) into ``nlu.intents.IntentExample``
(``nlu`` must not import ``logs``): for every user of a file, records are put in conversation order
(:func:`logs.record.conversations`: userID, then timestampStart, stable) and each message gets as
state the previous record's ``contexts`` (the contexts active before it) and ``events`` (what the
system did on the previous turn); the first message of a user has no context and no event.

Commands:

- ``corsbot nlu train [--data FILE ...] [--validated-only] [--out DIR] [--no-extra]``: trains on the
  six released files by default (plus the DialogFlow agent's training phrases and our small-talk
  phrases), writes the model and ``card.json`` to ``bot.paths.intent_model()``; works on any
  dataset-format files, including exported session logs.
- ``corsbot nlu evaluate [--data FILE ...] [--out DIR] [--folds K]``: grouped k-fold
  cross-validation with the baseline side by side; writes JSON, Markdown, a confusion-matrix PNG
  and the errors under ``bot.paths.reports_dir()/nlu``; last line
  ``nlu: accuracy=X accuracy_validated=Y macro_f1=Z baseline_accuracy=B baseline_accuracy_validated=BV``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import logging
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot import paths
from bot.cli.args import at_least
from logs.record import iter_records
from logs.schema import split_list

logger = logging.getLogger(__name__)

EVAL_JSON = "intent_eval.json"


MAX_TRAIN_EXAMPLES = 50_000
"""Default cap on training examples (issue 17.6). The released files give 9,276; reading is streamed,
so memory while reading grows by a compact row per record (about 0.3 KB), and training holds at most
this many examples. A 100 MB export (269,004 examples) trains in 2 min 8 s with a peak of 0.54 GB
(before: 395 s and 2.4 GB, the whole file and its parsed objects in memory; 2-core machine, 2026-12-01)."""


def register(nlu_sub: argparse._SubParsersAction) -> None:
    """Add ``train`` and ``evaluate`` to the ``nlu`` command."""
    train = nlu_sub.add_parser("train", help="train the intent recognizer on dataset-format files")
    train.add_argument(
        "--data",
        nargs="+",
        type=Path,
        metavar="FILE",
        help="dataset-format JSON files (default: the six released files)",
    )
    train.add_argument("--validated-only", action="store_true", help="only records with toCheck=false")
    train.add_argument(
        "--max-examples",
        type=at_least(1000),
        default=MAX_TRAIN_EXAMPLES,
        help=f"train on at most this many examples, a seeded uniform sample of the files' examples when "
        f"there are more (default {MAX_TRAIN_EXAMPLES:,}: bounds the training's memory and time)",
    )
    train.add_argument("--out", type=Path, help=f"model folder (default: {paths.intent_model()})")
    train.add_argument(
        "--no-extra",
        action="store_true",
        help="do not add the DialogFlow agent's training phrases and our small-talk phrases",
    )
    train.set_defaults(handler=_train_command)

    ev = nlu_sub.add_parser("evaluate", help="grouped cross-validation of the intent recognizer vs a baseline")
    ev.add_argument(
        "--data",
        nargs="+",
        type=Path,
        metavar="FILE",
        help="dataset-format JSON files (default: the six released files)",
    )
    ev.add_argument("--out", type=Path, help=f"report folder (default: {paths.reports_dir() / 'nlu'})")
    ev.add_argument("--folds", type=at_least(2), default=5, help="number of folds (default 5)")
    ev.add_argument("--no-extra", action="store_true", help="no agent / small-talk phrases in training")
    ev.set_defaults(handler=_evaluate_command)


def sha256_of(path: Path) -> str:
    """Hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def examples_from_files(
    files: Sequence[Path], *, validated_only: bool = False
) -> tuple[list[Any], list[dict[str, Any]], list[str]]:
    """Read dataset-format files into intent examples.

    Args:
        files: dataset JSON files; the domain comes from a ``movie``/``book``/``music`` folder in
            the path (else ``movie``).
        validated_only: keep only records with ``toCheck=false`` (their state still comes from
            the user's previous record, validated or not).

    Returns:
        ``(examples, file_info, problems)``: ``IntentExample`` list; per file ``{"path",
        "sha256", "records", "examples"}``; one line per unusable record or file.

    Raises:
        RecordError: a file is missing, a directory, not a JSON array of records, ... (one line).
    """
    from nlu.intents import IntentExample

    examples: list[Any] = []
    info: list[dict[str, Any]] = []
    problems: list[str] = []
    for path in files:
        path = Path(path)
        domain = paths.domain_from_path(path)
        # one record at a time (logs.record.iter_records), kept as a compact row: the file's text and
        # its parsed objects are never all in memory (issue 17.6)
        by_user: dict[int, list[tuple[int, int, str, str, str, str, bool]]] = {}
        read = 0
        for n, rec in enumerate(iter_records(path, problems)):
            read += 1
            by_user.setdefault(rec.user_id, []).append(
                (rec.timestamp_start, n, rec.message or "", sys.intern(rec.intent), sys.intern(rec.contexts),
                 sys.intern(rec.events), rec.to_check)
            )  # fmt: skip
        before = len(examples)
        for user in sorted(by_user):
            rows = sorted(by_user.pop(user))  # by time, then file order (the released timestamps are 1 s apart)
            prev: tuple[int, int, str, str, str, str, bool] | None = None
            for row in rows:
                contexts = split_list(prev[4]) if prev is not None else ()
                events = split_list(prev[5]) if prev is not None else ()
                prev = row
                _, _, message, intent, _, _, to_check = row
                if not intent or (validated_only and to_check):
                    continue
                examples.append(
                    IntentExample(
                        message, tuple(contexts), intent, f"{path}:{user}", domain, not to_check, tuple(events)
                    )
                )
        info.append(
            {
                "path": str(path),
                "sha256": sha256_of(path) if path.is_file() else None,  # a pipe cannot be read twice
                "records": read,
                "examples": len(examples) - before,
            }
        )
    return examples, info, problems


def _extra_examples() -> list[Any]:
    from nlu.augment import augmented_examples
    from nlu.intents import agent_examples, smalltalk_examples

    extra = list(smalltalk_examples()) + augmented_examples()
    agent = paths.shared_data() / "dialogflow-agent"
    if agent.is_dir():
        extra.extend(agent_examples(agent))
    else:
        logger.warning("no DialogFlow agent at %s: training without its phrases", agent)
    return extra


def _train_command(args: argparse.Namespace) -> int:
    from nlu.errors import NluError
    from nlu.intents import CONFIG_PATH, IntentRecognizer, intent_counts

    files = list(args.data or paths.released_files())
    out = Path(args.out or paths.intent_model())
    examples, info, problems = examples_from_files(files, validated_only=args.validated_only)
    for line in problems[:10]:
        print(f"corsbot: warning: skipped {line}", file=sys.stderr)
    if problems:
        print(f"corsbot: warning: {len(problems)} unusable records skipped"
              + (" (the first 10 shown)" if len(problems) > 10 else ""), file=sys.stderr)  # fmt: skip
    if not examples:
        raise NluError(f"no labelled records in {', '.join(map(str, files))}")
    if len(examples) > args.max_examples:
        print(f"corsbot: warning: {len(examples):,} examples; training on a seeded sample of "
              f"{args.max_examples:,} (--max-examples)", file=sys.stderr)  # fmt: skip
        examples = random.Random(0).sample(examples, args.max_examples)
    extra = [] if args.no_extra else _extra_examples()
    recognizer = IntentRecognizer.train(examples + extra)
    recognizer.save(out)
    card = {
        "model": "spaCy textcat (TextCatBOW, exclusive classes) over message + dialog-state tokens",
        "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "data_files": info,
        "validated_only": bool(args.validated_only),
        "counts": {
            "examples": len(examples),
            "validated": sum(e.validated for e in examples),
            "extra_phrases": len(extra),
            "problems": len(problems),
            "intents": intent_counts(examples),
        },
        "config": {"path": str(CONFIG_PATH), "options": recognizer.options},
        "train_seconds": recognizer.options.get("train_seconds"),
        "metrics": _metrics_for(info),
    }
    (out / "card.json").write_text(json.dumps(card, indent=1, ensure_ascii=False), encoding="utf-8")
    print(
        f"nlu train: examples={len(examples)} extra={len(extra)} intents={len(recognizer.labels)} "
        f"train_seconds={recognizer.options.get('train_seconds')} model={out}"
    )
    return 0


def _metrics_for(info: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The latest ``nlu evaluate`` summary if it was computed on exactly these files."""
    report = paths.reports_dir() / "nlu" / EVAL_JSON
    try:
        data = json.loads(report.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    hashes = sorted(f.get("sha256") for f in data.get("data_files", ()))
    if hashes != sorted(f["sha256"] for f in info):
        return None
    return {"report": str(report), **data.get("summary", {})}


def _evaluate_command(args: argparse.Namespace) -> int:
    from nlu.intent_eval import cross_validate, write_report

    files = list(args.data or paths.released_files())
    out = Path(args.out or paths.reports_dir() / "nlu")
    examples, info, problems = examples_from_files(files)
    for line in problems[:10]:
        print(f"warning: {line}")
    extra = [] if args.no_extra else _extra_examples()
    print(
        f"evaluating on {len(examples)} messages from {len(files)} files, {args.folds}-fold grouped CV "
        f"(+{len(extra)} extra training phrases)"
    )
    result = cross_validate(examples, n_folds=args.folds, extra=extra)
    written = write_report(result, out, data_files=info)
    s = result.summary()
    for domain, m in result.per_domain().items():
        print(
            f"  {domain}: messages={m['examples']} accuracy={m['accuracy']:.3f} "
            f"accuracy_validated={m['accuracy_validated']:.3f} baseline_accuracy={m['baseline_accuracy']:.3f}"
        )
    print(f"fallback thresholds per fold: {s['thresholds']}; training per fold: {s['train_seconds_mean']:.1f} s")
    print(f"latency per message: p50={s['latency_ms_p50']:.3f} ms p99={s['latency_ms_p99']:.3f} ms")
    print(f"baseline macro_f1={s['baseline_macro_f1']:.3f}")
    print(f"reports: {written['markdown']} {written['json']} {written['confusion']} {written['errors']}")
    print(
        f"nlu: accuracy={s['accuracy']:.3f} accuracy_validated={s['accuracy_validated']:.3f} "
        f"macro_f1={s['macro_f1']:.3f} baseline_accuracy={s['baseline_accuracy']:.3f} "
        f"baseline_accuracy_validated={s['baseline_accuracy_validated']:.3f}"
    )
    return 0
