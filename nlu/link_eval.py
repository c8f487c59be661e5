"""Evaluation of the linking steps (issue 24): candidate recall@k, and the accuracy of the decision.

``corsbot nlu evaluate-linking`` (glue: ``bot/cli/linking.py``) scores the pipeline of
:class:`nlu.linker.EntityLinker` step by step on gold entities that the KB knows:

- the realistic test set's development half (``tests/data/realistic/dev.jsonl``: each intended
  entity's QID and the words that name it, :mod:`nlu.realistic_eval`), and
- the released study's preference tasks with the audited gold (:func:`nlu.entity_eval.audit_tasks`:
  a task whose in-KB gold QID is not named in its message is left out; the message is what is
  linked, the words naming each QID are not known).

Figures, over the gold entities whose QID the KB has (QIDs compared as the KB merged them,
``KnowledgeBase.canonical``):

- ``recall_at_k`` (k = 1, 3, 8): candidate generation and scoring: the gold QID is among the first
  k candidates of a span that reached scoring (:meth:`EntityLinker.trace`, dropped spans included)
  and covers the gold words (the realistic set) or lies anywhere in the message (the study).
  ``recall_at_8`` is the recall of the candidates kept (``MAX_CANDIDATES`` = 8).
- ``index_recall_at_k`` (the realistic set only): the same for the gold words linked on their own,
  out of their sentence: the name index and the scoring without the context's rules.
- ``decision_accuracy``: over the gold entities whose QID is among a covering span's candidates, the
  share the decision got right: linked when it is the top candidate, asked about when it is another
  one of the first five (the question shows them; the user's answer picks it). The rest are counted
  by kind: ``needless_questions`` (asked although the top one was right), ``wrong_links`` (linked to
  another candidate without asking), ``wrong_asks`` (asked with the gold beyond the options),
  ``wrong_drops`` (the span was dropped as part of a name the KB lacks).

The last line is ``linking: dev_golds=N dev_recall_at_1=.. ... study_decision_accuracy=..``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from nlu.linker import EntityLinker, Step
from nlu.linking.decision import Decision

__all__ = ["KS", "GoldMention", "Mistake", "StepScores", "evaluate", "summary_line"]

KS = (1, 3, 8)
"""The k of the recall@k figures."""
OPTIONS = 5
"""Candidates a "which one?" question offers (``nlu.disambiguation``)."""


@dataclass(frozen=True, slots=True)
class GoldMention:
    """One gold entity of a message.

    Attributes:
        text: the message as typed.
        qid: the gold QID.
        words: the words of ``text`` that name it, or None when not known (the study's gold).
    """

    text: str
    qid: str
    words: str | None = None


@dataclass(frozen=True, slots=True)
class Mistake:
    """One wrong decision, for reading the errors (``corsbot nlu evaluate-linking --errors N``).

    Attributes:
        kind: ``needless_question``, ``wrong_link``, ``wrong_ask`` or ``wrong_drop``.
        text: the message.
        gold: the gold QID.
        top: the span's top candidate.
    """

    kind: str
    text: str
    gold: str
    top: str


@dataclass(slots=True)
class StepScores:
    """Additive counts behind the figures (module docstring); :meth:`add` sums domains."""

    golds: int = 0
    hits: dict[int, int] = field(default_factory=lambda: dict.fromkeys(KS, 0))
    index_golds: int = 0
    index_hits: dict[int, int] = field(default_factory=lambda: dict.fromkeys(KS, 0))
    decided: int = 0
    right: int = 0
    needless_questions: int = 0
    wrong_links: int = 0
    wrong_asks: int = 0
    wrong_drops: int = 0
    mistakes: list[Mistake] = field(default_factory=list)

    def add(self, other: StepScores) -> None:
        """Add ``other``'s counts (in place)."""
        self.golds += other.golds
        self.index_golds += other.index_golds
        for k in KS:
            self.hits[k] += other.hits[k]
            self.index_hits[k] += other.index_hits[k]
        self.decided += other.decided
        self.right += other.right
        self.needless_questions += other.needless_questions
        self.wrong_links += other.wrong_links
        self.wrong_asks += other.wrong_asks
        self.wrong_drops += other.wrong_drops
        self.mistakes.extend(other.mistakes)

    def recall(self, k: int) -> float:
        """Share of gold entities among the first ``k`` candidates of a covering span."""
        return self.hits[k] / self.golds if self.golds else 0.0

    def index_recall(self, k: int) -> float:
        """The same for the gold words linked on their own."""
        return self.index_hits[k] / self.index_golds if self.index_golds else 0.0

    @property
    def decision_accuracy(self) -> float:
        """Share of right decisions over the gold entities among a covering span's candidates."""
        return self.right / self.decided if self.decided else 0.0

    def figures(self, prefix: str = "") -> dict[str, str]:
        """The figures as ``key -> "0.123"`` (counts as integers), keys prefixed."""
        out = {f"{prefix}golds": str(self.golds)}
        out.update({f"{prefix}recall_at_{k}": f"{self.recall(k):.3f}" for k in KS})
        if self.index_golds:
            out.update({f"{prefix}index_recall_at_{k}": f"{self.index_recall(k):.3f}" for k in KS})
        out[f"{prefix}decision_accuracy"] = f"{self.decision_accuracy:.3f}"
        for name in ("needless_questions", "wrong_links", "wrong_asks", "wrong_drops"):
            out[prefix + name] = str(getattr(self, name))
        return out

    def line(self) -> str:
        """``key=value`` pairs of :meth:`figures` on one line."""
        return " ".join(f"{k}={v}" for k, v in self.figures().items())


def _rank(step: Step, qid: str, canonical: Callable[[str], str]) -> int | None:
    """0-based rank of ``qid`` among the step's candidates, or None."""
    for n, cand in enumerate(step.ranked.candidates):
        if canonical(cand.qid) == qid:
            return n
    return None


def _covers(step: Step, start: int, end: int) -> bool:
    return step.start < end and start < step.end


def _words_at(text: str, words: str) -> tuple[int, int] | None:
    """Character offsets of ``words`` in ``text`` (case-insensitive first occurrence), or None."""
    at = text.find(words)
    if at < 0:
        at = text.casefold().find(words.casefold())
    return (at, at + len(words)) if at >= 0 and words else None


def _best(steps: Iterable[Step], qid: str, canonical: Callable[[str], str]) -> tuple[Step, int] | None:
    """The step where ``qid`` ranks best, with its rank."""
    found = [(rank, n, step) for n, step in enumerate(steps) if (rank := _rank(step, qid, canonical)) is not None]
    if not found:
        return None
    rank, _n, step = min(found, key=lambda f: (f[0], f[1]))
    return step, rank


def _decide(scores: StepScores, step: Step, rank: int, gold: GoldMention) -> None:
    scores.decided += 1
    kind = None
    if step.decision is Decision.DROP:
        kind = "wrong_drop"
    elif step.decision is Decision.LINK:
        kind = None if rank == 0 else "wrong_link"
    elif rank == 0:
        kind = "needless_question"
    elif rank >= OPTIONS:
        kind = "wrong_ask"
    if kind is None:
        scores.right += 1
        return
    counter = kind + "s"
    setattr(scores, counter, getattr(scores, counter) + 1)
    scores.mistakes.append(Mistake(kind, gold.text, gold.qid, step.ranked.candidates[0].qid))


def evaluate(
    linker: EntityLinker, golds: Sequence[GoldMention], *, canonical: Callable[[str], str] | None = None
) -> StepScores:
    """Score the linking steps on gold entities (the module docstring's protocol).

    Args:
        linker: the domain's linker.
        golds: gold entities of that domain; the ones the KB lacks (``kb.has``) are skipped.
        canonical: QID -> the QID the KB merged it into (default ``kb.canonical`` when the KB has it).

    Returns:
        The counts; each message is linked once, with no focus and no history.
    """
    kb: Any = linker.kb
    if canonical is None:
        canonical = getattr(kb, "canonical", None) or (lambda q: q)
    scores = StepScores()
    traces: dict[str, tuple[Step, ...]] = {}
    for gold in golds:
        if not kb.has(gold.qid):
            continue
        qid = canonical(gold.qid)
        if gold.text not in traces:
            traces[gold.text] = linker.trace(gold.text)
        steps = traces[gold.text]
        if gold.words is not None:
            where = _words_at(gold.text, gold.words)
            steps = tuple(s for s in steps if where is not None and _covers(s, *where))
            scores.index_golds += 1
            alone = _best(linker.trace(gold.words), qid, canonical)
            for k in KS:
                scores.index_hits[k] += alone is not None and alone[1] < k
        scores.golds += 1
        best = _best(steps, qid, canonical)
        if best is None:
            continue
        step, rank = best
        for k in KS:
            scores.hits[k] += rank < k
        _decide(scores, step, rank, gold)
    return scores


def summary_line(dev: StepScores, study: StepScores) -> str:
    """The command's last line: the figures of both gold sets, prefixed ``dev_`` and ``study_``."""
    pairs = {**dev.figures("dev_"), **study.figures("study_")}
    return "linking: " + " ".join(f"{k}={v}" for k, v in pairs.items())
