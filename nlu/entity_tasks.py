"""The study's preference tasks and ratings, and their scores (issue 24: split from ``nlu.entity_eval``, whose
module docstring gives the protocol of ``corsbot nlu evaluate-entities``).

Reads the released records (:class:`EvalRecord`, built by the CLI glue from ``LogRecord``); adds the preference
tasks (a preference message and its disambiguation follow-ups, :func:`extract_tasks`), the ratings of the item
on screen (:func:`extract_ratings`) and the counters of a run (:class:`EntityScores`).

Example:
    >>> is_statement("I really like Tom Cruise")
    True
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from nlu.opinion_clauses import Polarity

__all__ = [
    "DISAMBIGUATION_EVENT",
    "FOLLOW_UP",
    "PREFERENCE",
    "RATE",
    "EntityScores",
    "EvalRecord",
    "FocusRating",
    "PreferenceTask",
    "TaskOutcome",
    "extract_ratings",
    "extract_tasks",
    "is_statement",
]

PREFERENCE = "preference"
FOLLOW_UP = "preference - disambiguation"
RATE = "request_recommendation - preference"
DISAMBIGUATION_EVENT = "disambiguation"


@dataclass(frozen=True, slots=True)
class EvalRecord:
    """The fields of a released record this evaluation reads (built by the CLI glue from ``LogRecord``)."""

    user_id: int
    timestamp_start: int
    message: str
    intent: str
    recognized_objects: tuple[tuple[str, str], ...]  # ((qid, "+"|"-"), ...)
    events: tuple[str, ...]
    to_check: bool = True  # the dataset's toCheck (False = clean task)


@dataclass(frozen=True, slots=True)
class PreferenceTask:
    """A preference message plus its disambiguation follow-ups.

    Attributes:
        user_id: the user.
        text: the preference message (the only text we link).
        gold: ((qid, "+"|"-"), ...) logged for the task, in first-seen order.
        asked_original: the original system asked a disambiguation question in this task.
        follow_ups: the follow-up messages as typed (not used for linking; kept for reports).
        clean: every record of the task has ``toCheck`` false (the dataset's silver standard).
        polarity_scored: the gold signs are scored for polarity (False when :func:`audit_tasks`
            finds them to be one message-level sign over a contrast, rule R2).
    """

    user_id: int
    text: str
    gold: tuple[tuple[str, str], ...]
    asked_original: bool
    follow_ups: tuple[str, ...] = ()
    clean: bool = False
    polarity_scored: bool = True


@dataclass(frozen=True, slots=True)
class TaskOutcome:
    """What the simulated dialog stored for one task: ((qid, Polarity), ...) and the questions asked."""

    predicted: tuple[tuple[str, Polarity], ...]
    item_questions: int
    role_questions: int
    link_ms: float
    confirmations: int = 0

    @property
    def asked(self) -> bool:
        """At least one disambiguation (item or role) question was asked (confirmations not counted)."""
        return self.item_questions + self.role_questions > 0


@dataclass(slots=True)
class EntityScores:
    """Additive counts over tasks (domains can be summed with :meth:`add`)."""

    tasks: int = 0
    tasks_without_gold: int = 0
    gold: int = 0
    gold_in_kb: int = 0
    matched: int = 0
    matched_in_kb: int = 0
    predicted: int = 0
    predicted_in_kb_tasks: int = 0
    matched_in_kb_tasks: int = 0
    gold_in_kb_visible: int = 0
    asked: int = 0
    asked_original: int = 0
    polarity_total: int = 0
    polarity_correct: int = 0
    polarity_neutral: int = 0
    neg_tp: int = 0
    neg_fp: int = 0
    neg_fn: int = 0
    confirmations: int = 0
    task_polarity_total: int = 0
    task_polarity_correct: int = 0
    task_neg_tp: int = 0
    task_neg_fp: int = 0
    task_neg_fn: int = 0
    ratings: int = 0
    ratings_correct: int = 0
    link_ms: list[float] = field(default_factory=list)

    def add(self, other: EntityScores) -> None:
        """Add ``other``'s counts to these (in place)."""
        for name in self.__slots__:  # type: ignore[attr-defined]
            value = getattr(other, name)
            setattr(self, name, getattr(self, name) + value)

    @staticmethod
    def _ratio(num: int, den: int) -> float:
        return num / den if den else 0.0

    @property
    def recall_in_kb(self) -> float:
        return self._ratio(self.matched_in_kb, self.gold_in_kb)

    @property
    def precision_in_kb(self) -> float:
        return self._ratio(self.matched_in_kb_tasks, self.predicted_in_kb_tasks)

    @property
    def visible_share(self) -> float:
        """Share of in-KB gold QIDs whose name appears in the message (a recall ceiling)."""
        return self._ratio(self.gold_in_kb_visible, self.gold_in_kb)

    @property
    def recall_all(self) -> float:
        return self._ratio(self.matched, self.gold)

    @property
    def precision_all(self) -> float:
        return self._ratio(self.matched, self.predicted)

    @property
    def question_rate(self) -> float:
        return self._ratio(self.asked, self.tasks)

    @property
    def original_question_rate(self) -> float:
        return self._ratio(self.asked_original, self.tasks)

    @property
    def polarity_accuracy(self) -> float:
        return self._ratio(self.polarity_correct, self.polarity_total)

    @property
    def negative_f1(self) -> float:
        return self._ratio(2 * self.neg_tp, 2 * self.neg_tp + self.neg_fp + self.neg_fn)

    @property
    def task_polarity_accuracy(self) -> float:
        """Polarity accuracy on the preference tasks' matched entities only."""
        return self._ratio(self.task_polarity_correct, self.task_polarity_total)

    @property
    def task_negative_f1(self) -> float:
        """Negative-class F1 on the preference tasks' matched entities only."""
        return self._ratio(2 * self.task_neg_tp, 2 * self.task_neg_tp + self.task_neg_fp + self.task_neg_fn)

    @property
    def rating_accuracy(self) -> float:
        """Polarity accuracy on the ratings of the item on screen only."""
        return self._ratio(self.ratings_correct, self.ratings)

    def count_polarity(self, want: str, got: str, *, rating: bool) -> None:
        """Count one entity's polarity (``want`` logged, ``got`` ours; "+"/"-"/"0")."""
        self.polarity_total += 1
        self.polarity_correct += want == got
        self.polarity_neutral += got == Polarity.NEUTRAL.value
        self.neg_tp += want == "-" and got == "-"
        self.neg_fp += want != "-" and got == "-"
        self.neg_fn += want == "-" and got != "-"
        if rating:
            self.ratings += 1
            self.ratings_correct += want == got
        else:
            self.task_polarity_total += 1
            self.task_polarity_correct += want == got
            self.task_neg_tp += want == "-" and got == "-"
            self.task_neg_fp += want != "-" and got == "-"
            self.task_neg_fn += want == "-" and got != "-"


_STATEMENT_VERBS = frozenset(
    "like likes liked love loves loved hate hates hated dislike dislikes disliked enjoy enjoyed adore prefer".split()
)
_ANSWER_WORDS = frozenset(
    """i the a an as actor actress director producer writer author screenwriter composer singer band
    performer artist genre film movie book song album one first second third both it this that
    is my me for of in and or not don't dont do no none them these those""".split()
)


def is_statement(message: str) -> bool:
    """True if a message states a preference itself ("I like the actor Clint Eastwood"), rather than
    only answering a question ("actor", "Like Producer", "none of them")."""
    words = re.findall(r"[a-z']+", message.casefold().replace("\u2019", "'"))
    if not any(w in _STATEMENT_VERBS for w in words):
        return False
    rest = [w for w in words if w not in _STATEMENT_VERBS and w not in _ANSWER_WORDS]
    return bool(rest)


def extract_tasks(records: Iterable[EvalRecord]) -> list[PreferenceTask]:
    """Cut one domain's records into preference tasks (see the module docstring).

    Args:
        records: records of any users, in any order.

    Returns:
        Tasks in (user, time) order, including those with an empty gold.
    """
    by_user: dict[int, list[EvalRecord]] = defaultdict(list)
    for rec in records:
        by_user[rec.user_id].append(rec)
    tasks: list[PreferenceTask] = []
    for user in sorted(by_user):
        current: list[EvalRecord] = []
        for rec in sorted(by_user[user], key=lambda r: r.timestamp_start):
            if rec.intent == PREFERENCE or (rec.intent == FOLLOW_UP and is_statement(rec.message)):
                _close(user, current, tasks)
                current = [rec]
            elif rec.intent == FOLLOW_UP and current:
                current.append(rec)
            else:
                _close(user, current, tasks)
                current = []
        _close(user, current, tasks)
    return tasks


def _close(user: int, records: list[EvalRecord], tasks: list[PreferenceTask]) -> None:
    if not records:
        return
    gold: dict[str, str] = {}
    for rec in records:
        gold.update(rec.recognized_objects)
    asked = any(DISAMBIGUATION_EVENT in rec.events for rec in records)
    tasks.append(
        PreferenceTask(
            user,
            records[0].message,
            tuple(gold.items()),
            asked,
            tuple(r.message for r in records[1:]),
            not any(r.to_check for r in records),
        )
    )


@dataclass(frozen=True, slots=True)
class FocusRating:
    """A rating of the item on screen during recommendation ("I like it", "I don't like it", "Dislike").

    Attributes:
        user_id: the user.
        text: the message as typed.
        item: the QID of the item on screen (the first logged QID of the record).
        polarity: the logged sign, "+" or "-".
        clean: the record's ``toCheck`` is false.
    """

    user_id: int
    text: str
    item: str
    polarity: str
    clean: bool = False


def extract_ratings(records: Iterable[EvalRecord]) -> list[FocusRating]:
    """The ``request_recommendation - preference`` records with a logged QID, as :class:`FocusRating`.

    The first logged QID is the item on screen; further QIDs ("I like it but I hate the author")
    are property values the original resolved from the item and are not scored here.
    """
    return [
        FocusRating(
            rec.user_id, rec.message, rec.recognized_objects[0][0], rec.recognized_objects[0][1], not rec.to_check
        )
        for rec in sorted(records, key=lambda r: (r.user_id, r.timestamp_start))
        if rec.intent == RATE and rec.recognized_objects
    ]
