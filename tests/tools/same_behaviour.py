"""Same behaviour before and after a refactoring (issue 24): record every evaluation and replay, compare.

A developer tool, not part of the bot. It runs the project's own commands in-process, exactly as a
user types them, and records what they print, the report files they write and, per turn, what the
dialog and the entity linker returned:

======================  ==========================================================================
check                   command (``corsbot ...``)
======================  ==========================================================================
``realistic``           ``nlu evaluate-realistic tests/data/realistic/{dev,heldout,fresh}.jsonl``
``entities``            ``nlu evaluate-entities``
``converse``            ``replay <shared>/converse/*/messages_*.json --report DIR`` (the six released files)
``jiis``                ``replay <shared>/jiis/{popularity,item2item}/messages.json --report DIR``
``linking``             ``nlu evaluate-linking`` (the linker's steps; added after the move, so recorded from then)
``conversations``       ``nlu evaluate-conversations tests/data/conversations/dev.jsonl`` (the dev set only:
                        a held-back set is scored once, by the lead, never here)
``index``               (no command) the entity linker's name index of each built domain, built in
                        memory by ``EntityLinker.build_index``: a SHA-256 and a size per table
======================  ==========================================================================

Each check writes into ``<folder>/<check>/``:

- ``stdout.txt``: the command's whole output; ``stderr.txt``; ``meta.json`` (argv, exit code, seconds);
- ``files/``: the files it writes (the realistic misses ``realistic_*.jsonl``, the replay's
  ``ours_*.json`` records, ``report.json`` and ``report.md``);
- ``turns.jsonl``: every ``DialogManager.handle`` call: user, text, payload -> reply text, buttons, image;
- ``links.jsonl``: every ``EntityLinker.link`` call: domain, text, focus, history -> mentions with
  their candidates (QID, score to 6 decimals, is_item, roles), ambiguous, partial; and every
  ``EntityLinker.trace`` call (``"call": "trace"``): its steps with their decision (link / ask / drop);
- ``sentences.jsonl`` (realistic): the scored outcome of every sentence (intent, stored opinions,
  questions); (conversations) every scripted turn's outcome and its problems, keyed ``<id>#<turn>``.

Comparing masks what changes from run to run by design: timings (``msgs_per_s``, ``in 4.6 s``, link
latencies, ``messages_per_second``), the replay's run id in user keys, a record's ``messageID`` and
``timestampEnd`` (wall clock). Everything else must be equal; a difference is a fix to name in the
commit, or a bug.

Usage (from the project root, with the runtime folder and the shared data)::

    export CORSBOT_HOME=$PWD/var CORSBOT_SHARED=/path/to/shared/data
    .venv/bin/python -m tests.tools.same_behaviour record /work/baseline24          # before moving code
    .venv/bin/python -m tests.tools.same_behaviour compare /work/baseline24         # after each step
    .venv/bin/python -m tests.tools.same_behaviour compare /work/baseline24 --checks realistic entities
    .venv/bin/python -m tests.tools.same_behaviour diff /work/baseline24 /tmp/now   # two recorded folders

``compare`` records into ``--out`` (default: a temporary folder, kept when something differs) and
prints the differences (at most ``--show`` per kind and check); its last line is
``same_behaviour: checks=N equal=E different=D stdout_lines=.. file_records=.. turns=.. links=.. sentences=..``
(counts of differing lines, records, users, link inputs and sentences); exit code 0 when every check is
equal, 1 otherwise. Each check runs in its own process (about 1 minute for ``realistic`` and
``entities``, several for ``converse``).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

ROOT = Path(__file__).resolve().parents[2]
REALISTIC = [ROOT / "tests" / "data" / "realistic" / f"{name}.jsonl" for name in ("dev", "heldout", "fresh")]
CONVERSATIONS = ROOT / "tests" / "data" / "conversations" / "dev.jsonl"
"""The conversation set of the check (never a held-back set: the lead scores it once, at the end of its round)."""
CHECKS = ("realistic", "entities", "converse", "jiis", "linking", "index", "conversations")
SCORE_DECIMALS = 6

_VOLATILE = (
    (re.compile(r"msgs_per_s=[\d.]+"), "msgs_per_s=*"),
    (re.compile(r"\bin [\d.]+ s\b"), "in * s"),
    (re.compile(r"index build [\d.]+ s"), "index build * s"),
    (re.compile(r"(mean|p95|max)=[\d.]+ ms"), r"\1=* ms"),
    (re.compile(r"[\d.]+ (messages|msgs)/s"), r"* \1/s"),
    (re.compile(r"\| messages per second \| [\d.]+ \|"), "| messages per second | * |"),
)
"""Timings in printed lines: they change from run to run."""
_RUN_ID = re.compile(r"^replay:\d{8}T\d{6}:")
_VOLATILE_RECORD_FIELDS = ("messageID", "timestampEnd")
_VOLATILE_REPORT_KEYS = ("messages_per_second",)


# ---------------------------------------------------------------------------------------------- recording


def _argv(check: str, files_dir: Path, shared: Path) -> list[str]:
    if check == "index":
        return []
    if check == "realistic":
        return ["nlu", "evaluate-realistic", *(str(p) for p in REALISTIC)]
    if check == "entities":
        return ["nlu", "evaluate-entities"]
    if check == "linking":
        return ["nlu", "evaluate-linking"]
    if check == "conversations":
        return ["nlu", "evaluate-conversations", str(CONVERSATIONS)]
    if check == "converse":
        released = sorted((shared / "converse").glob("*/messages_*.json"))
        return ["replay", *(str(p) for p in released), "--report", str(files_dir)]
    if check == "jiis":
        studies = [shared / "jiis" / name / "messages.json" for name in ("popularity", "item2item")]
        return ["replay", *(str(p) for p in studies), "--report", str(files_dir)]
    raise ValueError(f"unknown check {check!r} (one of {', '.join(CHECKS)})")


def _mention_json(mention: Any) -> dict[str, Any]:
    return {
        "text": mention.text,
        "start": mention.start,
        "end": mention.end,
        "ambiguous": mention.ambiguous,
        "partial": mention.partial,
        "candidates": [[c.qid, round(c.score, SCORE_DECIMALS), c.is_item, list(c.roles)] for c in mention.candidates],
    }


def _step_json(step: Any) -> dict[str, Any]:
    """A step of ``EntityLinker.trace`` as a mention would be recorded, with its decision."""
    ranked = step.ranked
    return {
        "text": "",
        "start": step.start,
        "end": step.end,
        "ambiguous": step.decision.value == "ask",
        "partial": step.decision.value,  # link / ask / drop
        "candidates": [[c.qid, round(c.score, SCORE_DECIMALS), c.is_item, list(c.roles)] for c in ranked.candidates],
    }


def _user(key: str) -> str:
    return _RUN_ID.sub("replay:", key)


@contextlib.contextmanager
def _recording(folder: Path) -> Iterator[None]:
    """Wrap ``DialogManager.handle``, ``EntityLinker.link`` and the realistic driver's ``run_sentence``
    so that each call is written to a JSON-lines file of ``folder``."""
    from bot.cli import conversations, realistic
    from bot.dialog.manager import DialogManager
    from nlu.linker import EntityLinker

    with (
        (folder / "turns.jsonl").open("w", encoding="utf-8") as turns,
        (folder / "links.jsonl").open("w", encoding="utf-8") as links,
        (folder / "sentences.jsonl").open("w", encoding="utf-8") as sentences,
    ):
        handle, link, run_sentence = DialogManager.handle, EntityLinker.link, realistic.run_sentence
        check_conversation = conversations.check_conversation
        trace = getattr(EntityLinker, "trace", None)  # the steps of one message (since the linker is a pipeline)

        def write(out: TextIO, obj: Mapping[str, Any]) -> None:
            out.write(json.dumps(obj, ensure_ascii=False, sort_keys=True) + "\n")

        def recorded_handle(self: Any, turn: Any) -> Any:
            reply = handle(self, turn)
            write(
                turns,
                {
                    "user": _user(turn.user_id),
                    "text": turn.text,
                    "payload": turn.payload,
                    "reply": reply.text,
                    "choices": [[c.label, c.payload] for c in reply.choices],
                    "image": reply.image,
                },
            )
            return reply

        def recorded_link(self: Any, text: str, *, focus: Any = None, history: Sequence[Any] = ()) -> Any:
            mentions = link(self, text, focus=focus, history=history)
            write(
                links,
                {
                    "domain": getattr(self, "domain", ""),
                    "text": text,
                    "focus": focus,
                    "history": list(history),
                    "mentions": [_mention_json(m) for m in mentions],
                },
            )
            return mentions

        def recorded_trace(self: Any, text: str, *, focus: Any = None, history: Sequence[Any] = ()) -> Any:
            steps = trace(self, text, focus=focus, history=history)
            write(
                links,
                {
                    "call": "trace",
                    "domain": getattr(self, "domain", ""),
                    "text": text,
                    "focus": focus,
                    "history": list(history),
                    "mentions": [_step_json(step) for step in steps],
                },
            )
            return steps

        def recorded_sentence(dm: Any, sentence: Any, user: str, *args: Any, **kwargs: Any) -> Any:
            outcome = run_sentence(dm, sentence, user, *args, **kwargs)
            write(sentences, {"user": user, "id": sentence.id, **dataclasses.asdict(outcome)})
            return outcome

        def recorded_conversation(conversation: Any, outcomes: Any, lookup: Any) -> Any:
            result = check_conversation(conversation, outcomes, lookup)
            for k, (turn, outcome) in enumerate(zip(result.turns, result.outcomes, strict=True)):
                row = {"problems": turn.problems, "entries": turn.entries, **dataclasses.asdict(outcome)}
                write(sentences, {"user": f"{conversation.id}#{k}", "id": conversation.id, **row})
            return result

        DialogManager.handle = recorded_handle  # type: ignore[method-assign]
        EntityLinker.link = recorded_link  # type: ignore[method-assign]
        if trace is not None:
            EntityLinker.trace = recorded_trace  # type: ignore[method-assign]
        realistic.run_sentence = recorded_sentence
        conversations.check_conversation = recorded_conversation
        try:
            yield
        finally:
            DialogManager.handle = handle  # type: ignore[method-assign]
            EntityLinker.link = link  # type: ignore[method-assign]
            if trace is not None:
                EntityLinker.trace = trace  # type: ignore[method-assign]
            realistic.run_sentence = run_sentence
            conversations.check_conversation = check_conversation


def run_check(check: str, folder: Path) -> int:
    """Run one check in this process, recording into ``folder`` (emptied first); returns the exit code."""
    from bot import paths
    from bot.cli import main

    if folder.exists():
        shutil.rmtree(folder)
    files = folder / "files"
    files.mkdir(parents=True)
    argv = _argv(check, files, paths.shared_data())
    started = time.perf_counter()
    if check == "index":
        tables = index_digests()
        (files / "index.json").write_text(json.dumps(tables, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        (folder / "stdout.txt").write_text("".join(f"{d}: {t}\n" for d, t in tables.items()), encoding="utf-8")
        for name in ("turns", "links", "sentences"):
            (folder / f"{name}.jsonl").write_text("", encoding="utf-8")
        meta = {"check": check, "argv": argv, "exit_code": 0, "seconds": round(time.perf_counter() - started, 1)}
        (folder / "meta.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
        return 0
    with (
        (folder / "stdout.txt").open("w", encoding="utf-8") as out,
        contextlib.redirect_stdout(out),
        _recording(folder),
    ):
        code = main(argv)
    seconds = time.perf_counter() - started
    if check == "realistic":
        for path in REALISTIC:
            written = paths.reports_dir() / "nlu" / f"realistic_{path.stem}.jsonl"
            if written.exists():
                shutil.copy(written, files / written.name)
    if check == "conversations":
        written = paths.reports_dir() / "nlu" / f"conversations_{CONVERSATIONS.stem}.jsonl"
        if written.exists():
            shutil.copy(written, files / written.name)
    for png in files.glob("*.png"):  # a chart: its bytes say nothing the report does not
        png.unlink()
    meta = {"check": check, "argv": argv, "exit_code": code, "seconds": round(seconds, 1)}
    (folder / "meta.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return code


def index_digests() -> dict[str, dict[str, str]]:
    """Per built domain, ``table -> "<entries> <sha256 of the sorted table>"`` of the name index that
    ``EntityLinker.build_index`` builds (every table of :class:`nlu.name_index.DictNameIndex`)."""
    import hashlib

    from bot import paths
    from nlu.linker import EntityLinker
    from nlu.name_index import DictNameIndex
    from recommender.kb import KnowledgeBase, pack_file

    out: dict[str, dict[str, str]] = {}
    for domain in paths.DOMAINS:
        if not pack_file(paths.kb_snapshot(domain)).exists():
            continue
        kb = KnowledgeBase.load(paths.kb_snapshot(domain))
        built = EntityLinker(kb, names=DictNameIndex()).build_index()
        tables: dict[str, Any] = {
            name: getattr(built, "_" + name)
            for name in ("exact", "skeleton", "max_len", "partial", "title", "block", "fuzzy_names", "everyday")
        }
        tables["pop_scale"] = built.pop_scale
        tables["stats"] = built.stats()
        digests = {}
        for name, table in tables.items():
            if isinstance(table, Mapping):
                rows: Any = sorted((json.dumps(k), json.dumps(v)) for k, v in table.items())  # values in their order
            elif isinstance(table, (set, frozenset)):
                rows = sorted(table)
            else:
                rows = table
            text = json.dumps(rows, sort_keys=True)
            size = len(rows) if isinstance(rows, (list, tuple)) else 1
            digests[name] = f"{size} {hashlib.sha256(text.encode()).hexdigest()[:16]}"
        out[domain] = digests
    return out


def record(folder: Path, checks: Sequence[str]) -> None:
    """Run each check in its own process (fresh memory, as the command line does) into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for check in checks:
        started = time.perf_counter()
        with (folder / check).with_suffix(".stderr.txt").open("w", encoding="utf-8") as err:
            proc = subprocess.run(
                [sys.executable, "-m", "tests.tools.same_behaviour", "_run", check, str(folder / check)],
                cwd=ROOT,
                env={**os.environ, "PYTHONHASHSEED": "0"},  # set orders as in the recorded run
                stderr=err,
                check=False,
            )
        print(f"recorded {check}: exit {proc.returncode} in {time.perf_counter() - started:.0f} s", flush=True)


# ---------------------------------------------------------------------------------------------- comparing


@dataclasses.dataclass
class CheckDiff:
    """Differences of one check, by kind: counts and the first few described."""

    check: str
    counts: dict[str, int] = dataclasses.field(default_factory=dict)
    shown: list[str] = dataclasses.field(default_factory=list)

    def add(self, kind: str, what: Sequence[str], show: int) -> None:
        """Count ``len(what)`` differences of ``kind`` and keep the first ``show`` descriptions."""
        self.counts[kind] = self.counts.get(kind, 0) + len(what)
        self.shown.extend(f"[{kind}] {w}" for w in what[:show])

    @property
    def equal(self) -> bool:
        return not any(self.counts.values())


def mask_line(line: str) -> str:
    """A printed line with its timings replaced by ``*``."""
    for pattern, repl in _VOLATILE:
        line = pattern.sub(repl, line)
    return line


def _read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in _read_lines(path) if line.strip()]


def diff_stdout(base: Path, new: Path) -> list[str]:
    """Unified-diff lines (``-``/``+``) of the masked outputs."""
    a = [mask_line(x) for x in _read_lines(base)]
    b = [mask_line(x) for x in _read_lines(new)]
    return [
        line
        for line in difflib.unified_diff(a, b, lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]


def _clean_record(obj: Any) -> Any:
    """``obj`` without its wall-clock fields (at any depth: a report's ``extra`` holds its speed)."""
    if isinstance(obj, dict):
        return {
            k: _clean_record(v)
            for k, v in obj.items()
            if k not in _VOLATILE_RECORD_FIELDS and k not in _VOLATILE_REPORT_KEYS
        }
    return obj


def diff_file(base: Path, new: Path) -> list[str]:
    """Differing records of a JSON array (record by record), a JSON object (key by key), JSON lines
    (line by line) or text (masked line by line)."""
    if not new.exists():
        return [f"{base.name}: missing"]
    if base.suffix == ".json":
        a, b = json.loads(base.read_text(encoding="utf-8")), json.loads(new.read_text(encoding="utf-8"))
        if isinstance(a, list) and isinstance(b, list):
            out = [
                f"{base.name}[{k}]: {_short(_clean_record(x))} -> {_short(_clean_record(y))}"
                for k, (x, y) in enumerate(zip(a, b, strict=False))
                if _clean_record(x) != _clean_record(y)
            ]
            if len(a) != len(b):
                out.append(f"{base.name}: {len(a)} records -> {len(b)}")
            return out
        a, b = _clean_record(a), _clean_record(b)
        keys = sorted(set(a) | set(b)) if isinstance(a, dict) and isinstance(b, dict) else []
        if keys:
            return [f"{base.name}.{k}: {_short(a.get(k))} -> {_short(b.get(k))}" for k in keys if a.get(k) != b.get(k)]
        return [] if a == b else [f"{base.name}: {_short(a)} -> {_short(b)}"]
    return [f"{base.name}: {line}" for line in diff_stdout(base, new)]


def _short(obj: Any, limit: int = 300) -> str:
    text = obj if isinstance(obj, str) else json.dumps(obj, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _by_user(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        out.setdefault(row["user"], []).append(row)
    return out


def diff_turns(base: Path, new: Path) -> list[str]:
    """Users whose conversation differs, each with its first differing turn."""
    a, b = _by_user(_jsonl(base)), _by_user(_jsonl(new))
    out = []
    for user in sorted(set(a) | set(b)):
        x, y = a.get(user, []), b.get(user, [])
        if x == y:
            continue
        k = next((k for k, (s, t) in enumerate(zip(x, y, strict=False)) if s != t), min(len(x), len(y)))
        before, after = (x[k] if k < len(x) else None), (y[k] if k < len(y) else None)
        said = (before or after or {}).get("text")
        out.append(
            f"{user} turn {k} {said!r}: {_short(_reply(before))} -> {_short(_reply(after))}"
            + (f" ({len(x)} turns -> {len(y)})" if len(x) != len(y) else "")
        )
    return out


def _reply(turn: dict[str, Any] | None) -> Any:
    if turn is None:
        return None
    return {"reply": turn["reply"], "choices": turn["choices"], "image": turn["image"]}


def _link_key(row: Mapping[str, Any]) -> str:
    key = [row["domain"], row["text"], row["focus"], row["history"]]
    if row.get("call", "link") != "link":
        key.append(row["call"])
    return json.dumps(key, ensure_ascii=False)


def diff_links(base: Path, new: Path) -> list[str]:
    """Link inputs whose mentions differ (the linker is a function of its inputs; inputs made in only
    one run are listed too: the dialog asked the linker something else)."""
    a = {_link_key(r): r["mentions"] for r in _jsonl(base)}
    b = {_link_key(r): r["mentions"] for r in _jsonl(new)}
    out = []
    for key in a.keys() | b.keys():
        if a.get(key) != b.get(key):
            domain, text, focus = json.loads(key)[:3]
            out.append(
                f"{domain} {text!r} focus={focus}: "
                f"{_short(_mentions_text(a.get(key)))} -> {_short(_mentions_text(b.get(key)))}"
            )
    return sorted(out)


def _mentions_text(mentions: list[dict[str, Any]] | None) -> Any:
    if mentions is None:
        return "(not asked)"
    return [
        f"{m['text']}{'?' if m['ambiguous'] else ''}{'~' if m['partial'] else ''}="
        + ",".join(f"{c[0]}:{c[1]}" for c in m["candidates"][:4])
        for m in mentions
    ]


def diff_sentences(base: Path, new: Path) -> list[str]:
    """Realistic sentences whose scored outcome differs."""
    a = {r["user"]: r for r in _jsonl(base)}
    b = {r["user"]: r for r in _jsonl(new)}
    return [
        f"{user} {(a.get(user) or b.get(user) or {}).get('id')}: {_short(a.get(user))} -> {_short(b.get(user))}"
        for user in sorted(a.keys() | b.keys())
        if a.get(user) != b.get(user)
    ]


def compare_check(check: str, base: Path, new: Path, *, show: int) -> CheckDiff:
    """Every difference between two recordings of one check."""
    diff = CheckDiff(check)
    meta_a, meta_b = (json.loads((d / "meta.json").read_text(encoding="utf-8")) for d in (base, new))
    if meta_a["exit_code"] != meta_b["exit_code"]:
        diff.add("exit_code", [f"{meta_a['exit_code']} -> {meta_b['exit_code']}"], show)
    diff.add("stdout_lines", diff_stdout(base / "stdout.txt", new / "stdout.txt"), show)
    for path in sorted((base / "files").iterdir()):
        diff.add("file_records", diff_file(path, new / "files" / path.name), show)
    extra = sorted({p.name for p in (new / "files").iterdir()} - {p.name for p in (base / "files").iterdir()})
    diff.add("file_records", [f"{name}: new file" for name in extra], show)
    diff.add("turns", diff_turns(base / "turns.jsonl", new / "turns.jsonl"), show)
    diff.add("links", diff_links(base / "links.jsonl", new / "links.jsonl"), show)
    diff.add("sentences", diff_sentences(base / "sentences.jsonl", new / "sentences.jsonl"), show)
    return diff


def report(diffs: Sequence[CheckDiff], *, base: Path, new: Path, write: Callable[[str], None] = print) -> bool:
    """Print each check's verdict and differences, then the ``same_behaviour:`` line; True if all equal."""
    kinds = ("stdout_lines", "file_records", "turns", "links", "sentences")
    for diff in diffs:
        if diff.equal:
            write(f"{diff.check}: equal")
            continue
        counts = " ".join(f"{k}={v}" for k, v in diff.counts.items() if v)
        write(f"{diff.check}: DIFFERENT ({counts}); {base / diff.check} vs {new / diff.check}")
        for line in diff.shown:
            write(f"  {line}")
    totals = {k: sum(d.counts.get(k, 0) for d in diffs) for k in kinds}
    equal = sum(d.equal for d in diffs)
    write(
        f"same_behaviour: checks={len(diffs)} equal={equal} different={len(diffs) - equal} "
        + " ".join(f"{k}={v}" for k, v in totals.items())
    )
    return equal == len(diffs)


# ---------------------------------------------------------------------------------------------- command line


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tests.tools.same_behaviour", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="run the checks and record their outputs into FOLDER")
    rec.add_argument("folder", type=Path)
    rec.add_argument("--checks", nargs="+", choices=CHECKS, default=list(CHECKS))
    cmp_ = sub.add_parser("compare", help="run the checks again and compare them with the recording in BASELINE")
    cmp_.add_argument("baseline", type=Path)
    cmp_.add_argument("--checks", nargs="+", choices=CHECKS, default=None, help="default: every recorded check")
    cmp_.add_argument("--out", type=Path, default=None, help="where to record this run (default: a temp folder)")
    cmp_.add_argument("--show", type=int, default=10, help="differences shown per kind and check")
    dif = sub.add_parser("diff", help="compare two recorded folders without running anything")
    dif.add_argument("baseline", type=Path)
    dif.add_argument("new", type=Path)
    dif.add_argument("--checks", nargs="+", choices=CHECKS, default=None)
    dif.add_argument("--show", type=int, default=10)
    run = sub.add_parser("_run", help=argparse.SUPPRESS)
    run.add_argument("check", choices=CHECKS)
    run.add_argument("folder", type=Path)
    return parser


def _recorded(folder: Path) -> list[str]:
    return [c for c in CHECKS if (folder / c / "meta.json").exists()]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; see the module docstring. Returns 0 when everything compared is equal."""
    args = _parser().parse_args(argv)
    if args.command == "_run":
        return run_check(args.check, args.folder)
    if args.command == "record":
        record(args.folder, args.checks)
        return 0
    checks = args.checks or _recorded(args.baseline)
    if not checks:
        print(f"no recorded check in {args.baseline} (run `record` first)", file=sys.stderr)
        return 2
    if args.command == "compare":
        new = args.out or Path(tempfile.mkdtemp(prefix="same-behaviour-"))
        record(new, checks)
    else:
        new = args.new
    diffs = [compare_check(c, args.baseline / c, new / c, show=args.show) for c in checks]
    same = report(diffs, base=args.baseline, new=new)
    if same and args.command == "compare" and args.out is None:
        shutil.rmtree(new, ignore_errors=True)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
