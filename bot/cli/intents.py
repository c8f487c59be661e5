"""``corsbot nlu train`` and ``corsbot nlu evaluate``: the intent recognizer's CLI glue.

This module converts dataset-format records (``logs.record``) into ``nlu.intents.IntentExample``
(``nlu`` must not import ``logs``): for every user of a file, records are put in conversation order
(:func:`logs.record.conversations`: userID, then timestampStart, stable) and each message gets as
state the previous record's ``contexts`` (the contexts active before it) and ``events`` (what the
system did on the previous turn); the first message of a user has no context and no event.

Commands:

- ``corsbot nlu train [--data FILE ...] [--logs [--session S]] [--validated-only] [--out DIR] [--folds K]
  [--promote] [--no-extra]``: trains on the six released files by default (plus the DialogFlow agent's
  training phrases and our small-talk phrases); works on any dataset-format files, including exported
  session logs; ``--logs`` adds the bot's logged turns. The researcher's corrections
  (:mod:`bot.corrections`) are applied to every record they name, in the files and the log. Writes the model
  and ``card.json`` (with the K-fold CV figure, ``cv``) to ``bot.paths.intent_candidate()`` when a live
  model exists (it stays until ``corsbot nlu promote``), else to ``bot.paths.intent_model()``.
- ``corsbot nlu promote [--dry-run]``: the candidate becomes the live model (:mod:`bot.intent_models`).
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
import shutil
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot import paths
from bot.cli.args import at_least, non_negative_int
from bot.corrections import apply_corrections
from logs.record import iter_records
from logs.schema import split_list

if TYPE_CHECKING:
    from bot.corrections import Correction
    from logs.record import LogRecord
    from nlu.intents import IntentExample

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
    train.add_argument(
        "--logs",
        action="store_true",
        help="also train on the bot's logged turns (the database of $CORSBOT_HOME or $CORSBOT_DATABASE_URL), "
        "with the researcher's corrections applied (corrected intent and entities, toCheck=false)",
    )
    train.add_argument("--session", action="append", metavar="S",
                       help="with --logs: only this log session (repeatable; default: every session)")  # fmt: skip
    train.add_argument(
        "--out",
        type=Path,
        help=f"model folder (default: {paths.intent_candidate()} beside the live model {paths.intent_model()}, "
        "which stays until `corsbot nlu promote`; the live folder itself when there is no live model yet)",
    )
    train.add_argument(
        "--folds",
        type=non_negative_int,
        default=5,
        help="folds of the CV figure written to the model's card (grouped cross-validation of the same recipe on "
        "the same examples; default 5; 0 = not measured, faster)",
    )
    train.add_argument("--promote", action="store_true",
                       help="make the new model live at once (as `corsbot nlu promote`; both CV figures printed)")  # fmt: skip
    train.add_argument(
        "--no-extra",
        action="store_true",
        help="do not add the DialogFlow agent's training phrases and our small-talk phrases",
    )
    train.set_defaults(handler=_train_command)

    promote = nlu_sub.add_parser(
        "promote", help="make the candidate intent model live (shows the CV figure of both)",
        description="Replace the live intent model by the candidate that `corsbot nlu train` wrote beside it "
        "(the old live model is kept as models/intent.previous). Running bots keep their model until restarted.",
    )  # fmt: skip
    promote.add_argument("--dry-run", action="store_true", help="only show both CV figures")
    promote.set_defaults(handler=_promote_command)

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
    ev.add_argument(
        "--probes",
        type=Path,
        default=PROBES,
        metavar="FILE",
        help="sentences every fold's model answers, for the steadiness figures (realistic-set format; default "
        "tests/data/realistic/dev.jsonl; a missing file: none)",
    )
    ev.set_defaults(handler=_evaluate_command)


def sha256_of(path: Path) -> str:
    """Hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def examples_from_files(
    files: Sequence[Path], *, validated_only: bool = False, corrections: Mapping[str, Correction] | None = None
) -> tuple[list[IntentExample], list[dict[str, Any]], list[str]]:
    """Read dataset-format files into intent examples.

    Args:
        files: dataset JSON files; the domain comes from a ``movie``/``book``/``music`` folder in
            the path (else ``movie``).
        validated_only: keep only records with ``toCheck=false`` (their state still comes from
            the user's previous record, validated or not).
        corrections: messageID -> :class:`bot.corrections.Correction`, applied to the records they
            name (an export of the bot's log: the researcher's relabelled turns); each file's info
            counts them under ``corrections``.

    Returns:
        ``(examples, file_info, problems)``: ``IntentExample`` list; per file ``{"path",
        "sha256", "records", "examples"}``; one line per unusable record or file.

    Raises:
        RecordError: a file is missing, a directory, not a JSON array of records, ... (one line).
    """
    examples: list[IntentExample] = []
    info: list[dict[str, Any]] = []
    problems: list[str] = []
    for path in files:
        path = Path(path)
        domain = paths.domain_from_path(path)
        # one record at a time (logs.record.iter_records), kept as a compact row: the file's text and
        # its parsed objects are never all in memory (issue 17.6)
        by_user: dict[int, list[_Row]] = {}
        read = corrected = 0
        for n, rec in enumerate(iter_records(path, problems)):
            read += 1
            if corrections and rec.message_id in corrections:
                (rec,) = apply_corrections([rec], corrections)
                corrected += 1
            by_user.setdefault(rec.user_id, []).append(_row(rec, n, domain))
        before = len(examples)
        examples.extend(_examples(by_user, group=str(path), validated_only=validated_only))
        info.append(
            {
                "path": str(path),
                "sha256": sha256_of(path) if path.is_file() else None,  # a pipe cannot be read twice
                "records": read,
                "examples": len(examples) - before,
                **({"corrections": corrected} if corrected else {}),
            }
        )
    return examples, info, problems


def stored_corrections() -> dict[str, Correction]:
    """The researcher's corrections in the bot's database (none when there is no database yet)."""
    from bot.corrections import open_for_log
    from logs.store import StoreError

    try:
        with open_for_log(None) as store:
            return store.all()
    except StoreError:
        return {}


_Row = tuple[int, int, str, str, str, str, bool, str]
"""A record as training reads it: timestampStart, position, message, intent, contexts, events, toCheck, domain."""


def _row(rec: LogRecord, n: int, domain: str) -> _Row:
    return (rec.timestamp_start, n, rec.message or "", sys.intern(rec.intent), sys.intern(rec.contexts),
            sys.intern(rec.events), rec.to_check, domain)  # fmt: skip


def _examples(by_user: dict[int, list[_Row]], *, group: str, validated_only: bool) -> list[IntentExample]:
    """Each user's records in conversation order, each message with the contexts and events of the
    user's previous record (see the module docstring); ``by_user`` is emptied as it is read."""
    from nlu.intents import IntentExample

    out: list[IntentExample] = []
    for user in sorted(by_user):
        rows = sorted(by_user.pop(user))  # by time, then file order (the released timestamps are 1 s apart)
        prev: _Row | None = None
        for row in rows:
            contexts = split_list(prev[4]) if prev is not None else ()
            events = split_list(prev[5]) if prev is not None else ()
            prev = row
            _, _, message, intent, _, _, to_check, domain = row
            if not intent or (validated_only and to_check):
                continue
            out.append(
                IntentExample(message, tuple(contexts), intent, f"{group}:{user}", domain, not to_check, tuple(events))
            )
    return out


def log_training_records(
    sessions: Sequence[str] | None, *, validated_only: bool = False
) -> tuple[list[IntentExample], dict[str, Any]]:
    """The bot's logged turns as intent examples, with the researcher's corrections applied
    (:mod:`bot.corrections`): the log of ``$CORSBOT_DATABASE_URL`` or ``$CORSBOT_HOME/corsbot.sqlite3``.

    The corrected records are also written to ``<home>/exports/training-log.json`` (dataset format), the
    file the model's card names. A turn's domain is the one the web channel recorded with it (its
    ``web_turns`` row), else ``movie``.

    Returns:
        ``(examples, info)``: info has the file, sessions, records and corrections applied.

    Raises:
        StoreError: the log cannot be read (or there is no database yet).
        ConfigError: a session that the log does not have.
    """
    from bot.cli.logs import open_log
    from bot.corrections import apply_corrections, open_for_log
    from corsbot_errors import ConfigError
    from logs.record import write_records

    with open_log(None) as store:
        known = store.sessions()
        wanted = list(sessions) if sessions else known
        missing = [s for s in wanted if s not in known]
        if missing:
            raise ConfigError(f"no session {missing[0]!r} in the log (sessions: {', '.join(known) or 'none'})")
        records = [record for session in wanted for record in store.records(session)]
    with open_for_log(None) as corrections_store:
        corrections = corrections_store.all()
    corrected = apply_corrections(records, corrections)
    applied = sum(1 for r in records if r.message_id in corrections)
    domains = _logged_domains([r.message_id for r in records])
    out = paths.exports_dir() / "training-log.json"
    write_records(out, corrected)
    by_user: dict[int, list[_Row]] = {}
    for n, rec in enumerate(corrected):
        by_user.setdefault(rec.user_id, []).append(_row(rec, n, domains.get(rec.message_id, "movie")))
    examples = _examples(by_user, group="log", validated_only=validated_only)
    info = {"path": str(out), "sha256": sha256_of(out), "records": len(records), "examples": len(examples),
            "sessions": wanted, "corrections": applied}  # fmt: skip
    return examples, info


def _logged_domains(message_ids: Sequence[str]) -> dict[str, str]:
    """messageID -> domain of the turns the web channel answered (empty without its tables)."""
    from bot.channels.web.store import WebStore
    from bot.compose import database_url

    url = database_url()
    if url is None and not paths.database().is_file():
        return {}
    store = WebStore(url or paths.database())
    try:
        turns = store.turns_by_message(message_ids)
    finally:
        store.close()
    return {mid: t.annotation.domain for mid, t in turns.items() if t.annotation is not None and t.annotation.domain}


def _extra_examples() -> list[IntentExample]:
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
    from bot.intent_models import cv_text, promote, read_card
    from nlu.errors import NluError
    from nlu.intents import CONFIG_PATH, IntentRecognizer, intent_counts

    files = list(args.data or paths.released_files())
    live = paths.intent_model()
    has_live = (live / "recognizer.json").exists()
    out = Path(args.out or (paths.intent_candidate() if has_live else live))
    log_info: dict[str, Any] | None = None
    log_examples: list[IntentExample] = []
    if args.logs:  # first: a wrong session is one clear line before the files are read
        log_examples, log_info = log_training_records(args.session, validated_only=args.validated_only)
    corrections = stored_corrections()
    examples, info, problems = examples_from_files(files, validated_only=args.validated_only, corrections=corrections)
    applied = sum(f.get("corrections", 0) for f in info)
    if applied:
        print(f"nlu train: {applied} records of the files corrected by the researcher (their corrections applied)")
    if log_info is not None:
        examples.extend(log_examples)
        info.append(log_info)
        print(f"nlu train: {log_info['examples']} examples from the log ({log_info['records']} records of "
              f"{', '.join(log_info['sessions']) or 'no session'}; {log_info['corrections']} corrected)")  # fmt: skip
    for line in problems[:10]:
        print(f"corsbot: warning: skipped {line}", file=sys.stderr)
    if problems:
        print(f"corsbot: warning: {len(problems)} unusable records skipped"
              + (" (the first 10 shown)" if len(problems) > 10 else ""), file=sys.stderr)  # fmt: skip
    if not examples:
        raise NluError(f"no labelled records in {', '.join(map(str, files)) or 'the log'}")
    if len(examples) > args.max_examples:
        print(f"corsbot: warning: {len(examples):,} examples; training on a seeded sample of "
              f"{args.max_examples:,} (--max-examples)", file=sys.stderr)  # fmt: skip
        examples = random.Random(0).sample(examples, args.max_examples)
    extra = [] if args.no_extra else _extra_examples()
    cv = _cv_figure(examples, extra, args.folds)
    recognizer = IntentRecognizer.train(examples + extra)
    staging = out if args.out else out.with_name(out.name + ".tmp")
    if staging != out and staging.exists():
        shutil.rmtree(staging)
    recognizer.save(staging)
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
        "cv": cv,
        "log": log_info,
    }
    (staging / "card.json").write_text(json.dumps(card, indent=1, ensure_ascii=False), encoding="utf-8")
    if staging != out:  # the folder appears whole (a bot loading the model never sees half of it)
        if out.exists():
            shutil.rmtree(out)
        staging.rename(out)
    cv_part = f" cv_accuracy={cv['accuracy']:.3f}" if cv else ""
    print(
        f"nlu train: examples={len(examples)} extra={len(extra)} intents={len(recognizer.labels)} "
        f"train_seconds={recognizer.options.get('train_seconds')}{cv_part} model={out}"
    )
    if out == paths.intent_candidate():
        print(f"  live model:      {cv_text(read_card(live))}")
        print(f"  candidate model: {cv_text(read_card(out))}")
        if args.promote:
            promote()
            print(
                f"nlu promote: the candidate is live ({live}); the previous model is kept in {paths.intent_previous()}"
            )
        else:
            print("  the live model stays; `corsbot nlu promote` makes the candidate live")
    return 0


def _cv_figure(examples: Sequence[IntentExample], extra: Sequence[IntentExample], folds: int) -> dict[str, Any] | None:
    """The CV figure of the recipe on ``examples`` (:mod:`bot.intent_models`), or None (``folds`` 0, or
    fewer conversations than folds: said on stderr)."""
    if folds <= 0:
        return None
    groups = len({e.group for e in examples})
    if groups < folds:
        print(f"corsbot: warning: {groups} conversations, fewer than --folds {folds}: no CV figure", file=sys.stderr)
        return None
    from nlu.intent_eval import cross_validate

    print(
        f"nlu train: {folds}-fold grouped cross-validation on {len(examples)} examples (the CV figure; a line per "
        "fold, each about a minute on two cores)...",
        flush=True,
    )
    summary = cross_validate(
        examples,
        n_folds=folds,
        extra=extra,
        baseline=False,
        progress=lambda line: print(f"nlu train: {line}", flush=True),
    ).summary()
    return {"accuracy": summary["accuracy"], "accuracy_validated": summary["accuracy_validated"],
            "macro_f1": summary["macro_f1"], "folds": folds, "examples": len(examples)}  # fmt: skip


def _promote_command(args: argparse.Namespace) -> int:
    from bot.intent_models import cv_text, promote, read_card

    live, candidate = read_card(paths.intent_model()), read_card(paths.intent_candidate())
    print(f"live model ({live.path}):      {cv_text(live)}")
    print(f"candidate model ({candidate.path}): {cv_text(candidate)}")
    if args.dry_run:
        return 0
    promote()
    print(f"nlu promote: the candidate is live ({live.path}); the previous model is kept in {paths.intent_previous()}; "
          "running bots use it from their next start")  # fmt: skip
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


PROBES = Path(__file__).resolve().parents[2] / "tests" / "data" / "realistic" / "dev.jsonl"
"""The steadiness probes of ``nlu evaluate``: the realistic set's development half (never its held-back half)."""


def probe_examples(path: Path | None) -> list[Any]:
    """The sentences of a realistic-set file as examples in their dialog state (a card on screen: the
    recommendation context), events unknown as the dialog passes them; none if the file is missing."""
    from nlu.intents import REC_CONTEXT, IntentExample
    from nlu.realistic_eval import load_sentences

    if path is None or not Path(path).is_file():
        return []
    return [
        IntentExample(
            s.text, (REC_CONTEXT,) if s.context == "recommendation" else (), s.intent, "probe", s.domain, False
        )
        for s in load_sentences(Path(path))
    ]


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
    probes = probe_examples(args.probes)
    result = cross_validate(
        examples, n_folds=args.folds, extra=extra, probes=probes, progress=lambda line: print(line, flush=True)
    )
    written = write_report(result, out, data_files=info)
    s = result.summary()
    steady = result.steadiness()
    for domain, m in result.per_domain().items():
        print(
            f"  {domain}: messages={m['examples']} accuracy={m['accuracy']:.3f} "
            f"accuracy_validated={m['accuracy_validated']:.3f} baseline_accuracy={m['baseline_accuracy']:.3f}"
        )
    print(f"fallback thresholds per fold: {s['thresholds']}; training per fold: {s['train_seconds_mean']:.1f} s")
    print(f"latency per message: p50={s['latency_ms_p50']:.3f} ms p99={s['latency_ms_p99']:.3f} ms")
    print(f"baseline macro_f1={s['baseline_macro_f1']:.3f}")
    if steady["probes"]:
        print(
            f"steadiness on {args.probes.name}: {steady['probes']} sentences answered by {args.folds} retrains (the "
            f"fold models): gold intent {steady['probe_accuracy']:.3f} of them (mean), the same answer from every "
            f"retrain for {steady['probe_agreement']:.3f}"
        )
    print(f"reports: {written['markdown']} {written['json']} {written['confusion']} {written['errors']}")
    print(
        f"nlu: accuracy={s['accuracy']:.3f} accuracy_validated={s['accuracy_validated']:.3f} "
        f"macro_f1={s['macro_f1']:.3f} baseline_accuracy={s['baseline_accuracy']:.3f} "
        f"baseline_accuracy_validated={s['baseline_accuracy_validated']:.3f} "
        f"probe_accuracy={steady['probe_accuracy']:.3f} probe_agreement={steady['probe_agreement']:.3f}"
    )
    return 0
