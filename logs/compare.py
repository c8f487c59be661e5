"""Compare replayed records with the logged ones (``corsbot replay --report``).

``compare(ours, logged)`` takes two aligned lists (``ours[k]`` is our record for the user message of
``logged[k]``) and counts:

* **intent agreement**: exact intent name, over all messages and over the *validated* ones (logged
  ``toCheck`` False: the silver standard);
* **events agreement**: the set of events of a turn is equal (order ignored, ``"a, b"`` == ``"b, a"``);
* **objects F1 (task level)**: each logged conversation (messages of one logged user, in timestamp
  order) is split into tasks by :func:`logs.tocheck.split_tasks` (preference task with its
  disambiguations, one recommendation item with its rating and critiques, profile changes, ...).
  For each task the logged and our ``recognizedObjects`` of its messages are pooled as sets of
  ``(QID, polarity)`` pairs; true/false positives and false negatives are summed over all tasks
  (micro average). Pooling per task forgives a system that records an object one turn earlier or
  later within the same task (e.g. at the preference instead of at its disambiguation answer).
  When neither side has any object, precision, recall and F1 are 1.0 (nothing to disagree on), but
  0.0 over no message at all (a score over nothing is never a perfect one);
* **toCheck agreement**: our flag equals the logged one;
* **per-intent summary**: for each logged intent, its count, how many we matched and our most
  frequent other predictions.

Counts are kept raw so that comparisons of several files merge exactly (:func:`merge`); the rates
are properties. The task split follows the *logged* user ids, so compare one file (or one session)
at a time and merge: user ids repeat across files.

Example:
    >>> from logs.record import LogRecord
    >>> c = compare([], [])
    >>> c.messages, c.intent_agreement
    (0, 0.0)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from corsbot_errors import CorsbotError
from logs.record import LogRecord, conversation_order
from logs.schema import parse_objects, split_list
from logs.tocheck import split_tasks

__all__ = ["Comparison", "CompareError", "IntentStat", "compare", "merge"]

#: How many confusions :class:`IntentStat` keeps per intent.
TOP_CONFUSIONS = 3


class CompareError(CorsbotError, ValueError):
    """The two record lists cannot be compared (e.g. different lengths)."""


@dataclass(frozen=True, slots=True)
class IntentStat:
    """Agreement on one logged intent.

    Attributes:
        intent: the logged intent name.
        count: messages logged with it.
        correct: of those, how many we predicted exactly.
        confusions: our other predictions, most frequent first, at most :data:`TOP_CONFUSIONS`
            ``(intent, count)`` pairs (ties by name).
    """

    intent: str
    count: int
    correct: int
    confusions: tuple[tuple[str, int], ...]

    @property
    def agreement(self) -> float:
        """``correct / count``."""
        return self.correct / self.count if self.count else 0.0


@dataclass(frozen=True, slots=True)
class Comparison:
    """Raw agreement counts between replayed and logged records; rates are properties.

    Attributes:
        messages: compared pairs.
        intent_matches: pairs with the same intent name.
        validated: pairs whose logged ``toCheck`` is False.
        validated_intent_matches: of those, pairs with the same intent.
        events_matches: pairs with equal event sets.
        to_check_matches: pairs with equal ``toCheck``.
        object_tasks: tasks where at least one side recorded an object.
        objects_tp: (QID, polarity) pairs in both, summed over tasks.
        objects_fp: pairs only in ours.
        objects_fn: pairs only in the log.
        intent_counts: ``((logged intent, count, correct, ((our intent, count), ...)), ...)`` with
            *all* confusions, sorted by logged intent; see :attr:`per_intent` for the summary.
    """

    messages: int = 0
    intent_matches: int = 0
    validated: int = 0
    validated_intent_matches: int = 0
    events_matches: int = 0
    to_check_matches: int = 0
    object_tasks: int = 0
    objects_tp: int = 0
    objects_fp: int = 0
    objects_fn: int = 0
    intent_counts: tuple[tuple[str, int, int, tuple[tuple[str, int], ...]], ...] = ()

    @property
    def intent_agreement(self) -> float:
        """Share of messages whose intent we predicted exactly (0.0 if none)."""
        return _ratio(self.intent_matches, self.messages)

    @property
    def intent_agreement_validated(self) -> float:
        """Same, over the messages logged with ``toCheck`` False."""
        return _ratio(self.validated_intent_matches, self.validated)

    @property
    def events_agreement(self) -> float:
        """Share of messages with the same set of events."""
        return _ratio(self.events_matches, self.messages)

    @property
    def to_check_agreement(self) -> float:
        """Share of messages with the same ``toCheck``."""
        return _ratio(self.to_check_matches, self.messages)

    @property
    def tocheck_agreement(self) -> float:
        """Alias of :attr:`to_check_agreement` (the name used in the replay summary line)."""
        return self.to_check_agreement

    @property
    def objects_precision(self) -> float:
        """Micro precision of task-level (QID, polarity) pairs; 1.0 if we recorded none (0.0 if no message)."""
        return _ratio(self.objects_tp, self.objects_tp + self.objects_fp, empty=self._vacuous)

    @property
    def objects_recall(self) -> float:
        """Micro recall of task-level (QID, polarity) pairs; 1.0 if the log has none (0.0 if no message)."""
        return _ratio(self.objects_tp, self.objects_tp + self.objects_fn, empty=self._vacuous)

    @property
    def objects_f1(self) -> float:
        """``2TP / (2TP + FP + FN)``; 1.0 when neither side has any object, 0.0 when there is no message."""
        return _ratio(2 * self.objects_tp, 2 * self.objects_tp + self.objects_fp + self.objects_fn, empty=self._vacuous)

    @property
    def _vacuous(self) -> float:
        """The object scores when nothing was named: 1.0 over some messages, 0.0 over none (no 1.000 for nothing)."""
        return 1.0 if self.messages else 0.0

    @property
    def per_intent(self) -> tuple[IntentStat, ...]:
        """Per logged intent, most frequent first (ties by name), top confusions only."""
        stats = [
            IntentStat(intent, count, correct, confusions[:TOP_CONFUSIONS])
            for intent, count, correct, confusions in self.intent_counts
        ]
        return tuple(sorted(stats, key=lambda s: (-s.count, s.intent)))

    def summary_line(self, *, exceptions: int) -> str:
        """The replay command's machine-readable last line (issue 7), three decimals."""
        return (
            f"replay: messages={self.messages} exceptions={exceptions}"
            f" intent_agreement={self.intent_agreement:.3f}"
            f" intent_agreement_validated={self.intent_agreement_validated:.3f}"
            f" events_agreement={self.events_agreement:.3f}"
            f" objects_f1={self.objects_f1:.3f}"
            f" tocheck_agreement={self.to_check_agreement:.3f}"
        )

    def figures(self) -> dict[str, float | int]:
        """The headline figures as a flat dict (rates unrounded)."""
        return {
            "messages": self.messages,
            "validated": self.validated,
            "intent_agreement": self.intent_agreement,
            "intent_agreement_validated": self.intent_agreement_validated,
            "events_agreement": self.events_agreement,
            "objects_precision": self.objects_precision,
            "objects_recall": self.objects_recall,
            "objects_f1": self.objects_f1,
            "object_tasks": self.object_tasks,
            "tocheck_agreement": self.to_check_agreement,
        }


def compare(ours: Sequence[LogRecord], logged: Sequence[LogRecord]) -> Comparison:
    """Compare our records with the logged ones, pairwise.

    Args:
        ours: our records, ``ours[k]`` answering the same user message as ``logged[k]``.
        logged: the logged records (one dataset file or session; user ids must identify users).

    Returns:
        The raw counts (see :class:`Comparison`).

    Raises:
        CompareError: the lists have different lengths.
    """
    if len(ours) != len(logged):
        raise CompareError(f"cannot compare {len(ours)} replayed records with {len(logged)} logged ones")
    intent_matches = validated = validated_matches = events_matches = to_check_matches = 0
    table: dict[str, Counter[str]] = {}
    for mine, theirs in zip(ours, logged, strict=True):
        same_intent = mine.intent == theirs.intent
        intent_matches += same_intent
        if not theirs.to_check:
            validated += 1
            validated_matches += same_intent
        events_matches += frozenset(split_list(mine.events)) == frozenset(split_list(theirs.events))
        to_check_matches += mine.to_check == theirs.to_check
        table.setdefault(theirs.intent, Counter())[mine.intent] += 1
    tasks, tp, fp, fn = _object_counts(ours, logged)
    return Comparison(
        messages=len(logged),
        intent_matches=intent_matches,
        validated=validated,
        validated_intent_matches=validated_matches,
        events_matches=events_matches,
        to_check_matches=to_check_matches,
        object_tasks=tasks,
        objects_tp=tp,
        objects_fp=fp,
        objects_fn=fn,
        intent_counts=_intent_counts(table),
    )


def merge(comparisons: Iterable[Comparison]) -> Comparison:
    """Sum the counts of several comparisons (e.g. one per released file)."""
    parts = list(comparisons)
    table: dict[str, Counter[str]] = {}
    for part in parts:
        for intent, _count, correct, confusions in part.intent_counts:
            predictions = table.setdefault(intent, Counter())
            predictions.update(dict(confusions))
            if correct:
                predictions[intent] += correct
    return Comparison(
        messages=sum(p.messages for p in parts),
        intent_matches=sum(p.intent_matches for p in parts),
        validated=sum(p.validated for p in parts),
        validated_intent_matches=sum(p.validated_intent_matches for p in parts),
        events_matches=sum(p.events_matches for p in parts),
        to_check_matches=sum(p.to_check_matches for p in parts),
        object_tasks=sum(p.object_tasks for p in parts),
        objects_tp=sum(p.objects_tp for p in parts),
        objects_fp=sum(p.objects_fp for p in parts),
        objects_fn=sum(p.objects_fn for p in parts),
        intent_counts=_intent_counts(table),
    )


def _intent_counts(
    table: Mapping[str, Counter[str]],
) -> tuple[tuple[str, int, int, tuple[tuple[str, int], ...]], ...]:
    out = []
    for intent in sorted(table):
        predictions = table[intent]
        confusions = sorted(
            ((other, n) for other, n in predictions.items() if other != intent), key=lambda item: (-item[1], item[0])
        )
        out.append((intent, sum(predictions.values()), predictions.get(intent, 0), tuple(confusions)))
    return tuple(out)


def _object_counts(ours: Sequence[LogRecord], logged: Sequence[LogRecord]) -> tuple[int, int, int, int]:
    """(tasks with objects, TP, FP, FN) over the logged tasks (see module docstring)."""
    order = conversation_order(logged)
    tasks = tp = fp = fn = 0
    start = 0
    while start < len(order):
        user = logged[order[start]].user_id
        end = start
        while end < len(order) and logged[order[end]].user_id == user:
            end += 1
        indices = order[start:end]
        for task in split_tasks([logged[k] for k in indices]):
            gold: set[tuple[str, str]] = set()
            mine: set[tuple[str, str]] = set()
            for member in task.members:
                gold.update(parse_objects(logged[indices[member]].recognized_objects))
                mine.update(parse_objects(ours[indices[member]].recognized_objects))
            if gold or mine:
                tasks += 1
                tp += len(gold & mine)
                fp += len(mine - gold)
                fn += len(gold - mine)
        start = end
    return tasks, tp, fp, fn


def _ratio(part: int, whole: int, *, empty: float = 0.0) -> float:
    return part / whole if whole else empty
