"""``corsbot nlu evaluate-realistic [FILE...]``: the realistic test set through the real dialog path (issue 12).

Each sentence goes to a fresh user of the dialog manager the chat and Telegram channels use
(:func:`bot.compose.build_dialog_manager`, on a temporary database): ``/<domain>``, then for a
sentence typed under a recommendation card (``context: recommendation``) three of the domain's most
popular items are rated with their buttons and a list is asked for (``more``), then the sentence.
The bot's questions are answered as the user who typed the sentence would, at most once per
intended entity: the option that names it (the one option that reads as the bot names the gold
entity on its own, e.g. "Halloween (1978, film by John Carpenter)": the user knows which one they
mean; else the first option whose name opens with the entity's), "yes"/"no" as the gold polarity
says ("yes" for a gold ``ask``), the first role. A
question about something no intended entity names is left unanswered and counted as spurious.
Scoring: :mod:`nlu.realistic_eval`.

Output: per domain and per main tag, then per file ``<file>: understanding: ...``; the last line is
``understanding: sentences=N preference_recall=X linked_in_kb=Y wrong_links=W polarity=Z
other_intents=V spurious_mentions=S questions_per_turn=Q`` for the last file given (the dev half by
default; pass ``dev.jsonl heldout.jsonl`` to score both halves, the held-back one last). The misses
are written to ``$CORSBOT_HOME/reports/nlu/realistic_<file>.jsonl``.
"""

from __future__ import annotations

import argparse
import functools
import json
import logging
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from bot import paths
from bot.cli.oracle import Option, own_name, pick_option, question_of
from bot.turns import Reply, Turn
from logs.schema import Intent, parse_objects
from nlu.realistic_eval import GoldEntity, RealisticSentence, TurnOutcome, by_group, load_sentences, score
from nlu.textnorm import fold

if TYPE_CHECKING:
    from bot.dialog.manager import DialogManager
    from bot.services import Services
    from recommender.kb import KnowledgeBase

logger = logging.getLogger(__name__)

DEFAULT_SET = Path(__file__).resolve().parents[2] / "tests" / "data" / "realistic" / "dev.jsonl"
"""The development half of the realistic test set."""
SEED_ITEMS = 3
"""Items rated before a sentence typed under a recommendation card (the bot needs 3 to recommend)."""


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``evaluate-realistic`` to the ``nlu`` subcommands."""
    parser = sub.add_parser(
        "evaluate-realistic",
        help="realistic sentences (opinions in any wording, other intents) through the dialog manager",
    )
    parser.add_argument(
        "files",
        nargs="*",
        type=Path,
        default=[DEFAULT_SET],
        help="test-set files (JSON lines; default: the dev half tests/data/realistic/dev.jsonl)",
    )
    parser.add_argument("--errors", type=int, default=0, help="print this many misses per file")
    parser.set_defaults(handler=_cli)


def _names(entity: GoldEntity) -> list[str]:
    return [n for n in {fold(entity.label), fold(entity.mention)} if n]


def _answer(
    reply: Reply, sentence: RealisticSentence, answered: set[int], describe: Callable[[str], str] | None = None
) -> Option | None:
    """The button the user presses for this question, ``(label, payload)``; None if it is about
    nothing they meant (or about an entity already asked about). ``describe(qid)`` is the bot's own
    option name of an entity: the user picks the option that describes what they mean (its year,
    director, author, performer...) when exactly one does, else the first option with its name
    (:func:`bot.cli.oracle.pick_option`)."""
    kind, options = question_of(reply)
    if kind == "role":
        return options[0]
    if kind == "item":
        for k, entity in enumerate(sentence.entities):
            if k in answered:
                continue
            choice = pick_option(
                options, qids=[entity.qid] if entity.qid else [], names=_names(entity), describe=describe
            )
            if choice is not None:
                answered.add(k)
                return choice
        return None
    if kind == "confirm":
        text = fold(reply.text.rsplit("\n", 1)[-1])
        for k, entity in enumerate(sentence.entities):
            if k not in answered and any(name in text for name in _names(entity)):
                answered.add(k)
                want = "no" if entity.polarity == "-" else "yes"
                return next(o for o in options if o[1].partition("@")[0] == want)
        return None
    return None


def _about_answered(reply: Reply, sentence: RealisticSentence, answered: set[int]) -> bool:
    """The open question names an intended entity already asked about (a second question for it)."""
    said = fold(reply.text + " " + " ".join(c.label for c in reply.choices))
    return any(name in said for k in answered for name in _names(sentence.entities[k]))


def run_sentence(
    dm: DialogManager,
    sentence: RealisticSentence,
    user: str,
    seeds: list[str],
    describe: Callable[[str], str] | None = None,
) -> TurnOutcome:
    """Send one sentence (after its context) and answer the questions; see the module docstring.
    ``describe(qid)``: the bot's option name of an entity of the sentence's domain (see :func:`_answer`)."""
    dm.handle(Turn(user, f"/{sentence.domain}"))
    if sentence.context == "recommendation":
        for qid in seeds:
            dm.handle(Turn(user, "👍", payload=f"rate:+:{qid}", interaction_type="mixed"))
        dm.handle(Turn(user, "more", payload="more", interaction_type="mixed"))
    reply = dm.handle(Turn(user, sentence.text))
    record = dm.last_records(user, 1)[0]
    outcome = TurnOutcome(intent=record.intent, reply=reply.text)
    outcome.stored.extend((q, s, False) for q, s in parse_objects(record.recognized_objects))
    kind, _options = question_of(reply)
    outcome.questions = int(kind is not None)
    outcome.asked_preference = kind is not None
    if sentence.kind != "preference":
        # a reset's "Are you sure?" (yes / no buttons, issue 22-D: asked at once when the words say everything)
        # is the reset's own step, as its menu of scopes is, not a question about something named
        if kind is not None and not _is_reset(record.intent):
            outcome.stray_questions += 1
        return outcome
    answered: set[int] = set()
    for _step in range(2 * len(sentence.entities) + 1):
        kind, _options = question_of(reply)
        if kind is None:
            break
        choice = _answer(reply, sentence, answered, describe)
        if choice is None:
            if not _about_answered(reply, sentence, answered):
                outcome.stray_questions += 1  # a second question about a meant entity is no stray one, just unanswered
            break
        reply = dm.handle(Turn(user, choice[0], payload=choice[1], interaction_type="mixed"))
        record = dm.last_records(user, 1)[0]
        confirmed = kind == "confirm"
        outcome.stored.extend((q, s, confirmed) for q, s in parse_objects(record.recognized_objects))
    return outcome


def _is_reset(intent: str) -> bool:
    """A reset's intent (``reset_profile``, ``reset - reset_everything``, ...): its confirmation is no stray question."""
    return intent == Intent.RESET_PROFILE or intent.startswith("reset - ")


def _snapshot_kb(services: Services, domain: str) -> KnowledgeBase:
    """The domain's knowledge base as loaded from its snapshot (the test set needs its popularity and
    merged genres, which the dialog's ``KnowledgeBaseLike`` does not name)."""
    from recommender.kb import KnowledgeBase

    kb = services.domain(domain).kb
    if not isinstance(kb, KnowledgeBase):
        raise TypeError(f"the realistic test set runs on a loaded snapshot, not on {type(kb).__name__}")
    return kb


def _seeds(services: Services, domain: str) -> list[str]:
    kb = _snapshot_kb(services, domain)
    ranked = sorted(kb.items, key=lambda q: (-kb.popularity(q), q))
    return list(ranked[:SEED_ITEMS])


def evaluate_file(dm: DialogManager, services: Services, path: Path, *, errors: int, out_dir: Path) -> str:
    """Run and score one file; print the breakdowns; return its ``understanding`` key=value part."""
    sentences = load_sentences(path)
    seeds: dict[str, list[str]] = {}
    pairs = []
    started = time.perf_counter()
    for n, sentence in enumerate(sentences):
        if sentence.domain not in seeds:
            seeds[sentence.domain] = _seeds(services, sentence.domain)
        user = f"realistic:{path.stem}:{n}"
        kb = _snapshot_kb(services, sentence.domain)
        describe = functools.partial(own_name, kb)
        pairs.append((sentence, run_sentence(dm, sentence, user, seeds[sentence.domain], describe)))
    seconds = time.perf_counter() - started

    def in_kb(domain: str, qid: str) -> bool:
        return services.domain(domain).kb.has(qid)

    def canonical(domain: str, qid: str) -> str:
        return _snapshot_kb(services, domain).canonical(qid)

    for name, scores in by_group(pairs, lambda s: s.domain, in_kb, canonical).items():
        print(f"{path.name} {name}: {scores.line()}")
    for name, scores in by_group(pairs, lambda s: (s.tags or ("none",))[0], in_kb, canonical).items():
        print(f"{path.name} tag {name}: {scores.line()}")
    total = score(pairs, in_kb, canonical)
    out_dir.mkdir(parents=True, exist_ok=True)
    report = out_dir / f"realistic_{path.stem}.jsonl"
    report.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in total.errors), encoding="utf-8")
    for error in total.errors[:errors]:
        print(f"  miss {error['id']}: {error['text']!r} -> {error['problems']} | {str(error['reply'])[:100]!r}")
    print(f"{path.name}: {len(sentences)} sentences in {seconds:.1f} s; misses in {report}")
    return total.line()


def _cli(args: argparse.Namespace) -> int:
    from bot.compose import build_dialog_manager, load_services

    for path in args.files:
        if not Path(path).is_file():
            print(f"corsbot: error: no test set at {path}")
            return 2
    services = load_services(logged_likes=False)  # figures independent of what was chatted here
    lines = []
    with tempfile.TemporaryDirectory(prefix="corsbot-realistic-") as tmp:
        dm = build_dialog_manager(
            db=Path(tmp) / "realistic.sqlite3", session="realistic", services=services, scratch=True
        )
        for path in args.files:
            line = evaluate_file(dm, services, Path(path), errors=args.errors, out_dir=paths.reports_dir() / "nlu")
            lines.append((Path(path).name, line))
    for name, line in lines:
        print(f"{name}: understanding: {line}")
    print(f"understanding: {lines[-1][1]}")
    return 0
