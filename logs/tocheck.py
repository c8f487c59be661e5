"""The paper's ``toCheck`` heuristic: split each user's log into tasks, flag messages of failed ones.

In the ConveRSE dataset, ``toCheck`` is False for messages inside a task that completed cleanly
(the silver standard) and True for everything else. This module recomputes it from what a log
holds about the *system's* behaviour only: ``intent``, ``events``, ``recognizedObjects`` (and, for
the grouping, ``userID``/``timestampStart``). It never looks at the message text or ids.

Tasks (one user's conversation, in timestamp order)
---------------------------------------------------
* **Preference task**: a ``preference`` message plus the ``preference - disambiguation | yes | no |
  help`` answers that follow it while the system is asking (its events hold ``disambiguation``).
* **Recommendation task**: a ``request_recommendation`` that starts a list (events hold
  ``question`` or ``finished_recommendation``) plus everything the user does with the list until
  ``finished_recommendation`` or a new top-level request. The list is split into one **item
  sub-task per recommended item**: the messages about the item on screen (details, trailer, why,
  critiques, fallbacks ...) up to and including the rating that moves to the next item
  (``request_recommendation - preference`` or ``- skip``). The first item's sub-task starts with the
  request itself. Sub-tasks are judged separately (this is what the released flags show).
* **Profile task**: ``show_profile`` (always complete on its own) and the profile changes that
  follow it (``show_profile - delete_preference`` ...).
* Every other message (``start``, ``Default Fallback Intent``, ``smalltalk.*``, ``help``, top-level
  ``skip``, ``reset*``, a refused request ...) is a one-message task that never completes.

Rules (each names what it is for)
---------------------------------
P1  A preference without a disambiguation question (events lack ``disambiguation``) completes at
    once -> False. (Plain "I like X"; even an unrecognised one: the system answered as designed.)
P2  A preference task completes when an answer resolves it (events without ``disambiguation``)
    after at most :data:`MAX_DISAMBIGUATION_QUESTIONS` questions -> all its messages False.
    More questions means the user was struggling -> True.
P3  A preference task still asking when something else arrives (a skip, a new preference, a
    fallback, /start ...) was abandoned -> True, the interrupting ``skip`` included.
P4  A disambiguation answer arriving after another intent interrupted the question (an orphan
    answer, e.g. after ``start``) opens an already-failed task -> True, up to and including the
    answer that finally resolves it. (An answer right after a resolved task continues it: P1/P2.)
R1  ``request_recommendation`` whose events hold only ``recommendation`` (no ``question``: the
    system refused, e.g. too few preferences) -> True.
R2  An item sub-task ending in a rating is complete -> False, unless *tainted*.
R3  Taint: a fallback, help, smalltalk or ``stop`` inside the sub-task, or the list having been
    interrupted (``start``, a fallback ... without the ``recommendation`` event) and then resumed
    within the sub-task -> all its messages True.
R4  An item sub-task still open when the list ends (no rating: the user walked away from the item)
    -> True. ``stop`` right after a rating is a one-message failure.
R5  Recommendation follow-ups with no list open (orphans) -> True.
S1  ``show_profile`` -> False. Profile changes are complete unless they ask for help or the next
    message is a fallback/smalltalk/reset/start (the change did not do what the user wanted).
O1  Everything else -> True (start, fallbacks, smalltalk, help, skip, reset dialogs, ...).

Agreement with the released flags (``corsbot logs tocheck``): 0.970 over the 9,276 messages; the
remaining disagreements are mostly preference disambiguations that ended on a different entity
than the one the user meant, which only the message text (or a human) can tell.

Example:
    >>> compute_to_check([])
    []
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from logs.record import LogRecord, conversation_order
from logs.schema import Event, Intent, is_smalltalk, split_list

__all__ = [
    "MAX_DISAMBIGUATION_QUESTIONS",
    "Task",
    "TaskKind",
    "agreement",
    "compute_to_check",
    "split_tasks",
]

#: Disambiguation questions a preference task may need and still count as clean (P2): one for
#: the entity, one for its role ("actor or director?").
MAX_DISAMBIGUATION_QUESTIONS = 2


class TaskKind(StrEnum):
    """What a task was about."""

    PREFERENCE = "preference"
    RECOMMENDATION = "recommendation"
    PROFILE = "profile"
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class Task:
    """One task of a user's conversation.

    Attributes:
        kind: preference, recommendation (one item sub-task), profile or other.
        members: indices into the conversation passed to :func:`split_tasks`, increasing.
        complete: True if the task completed cleanly (its messages get ``toCheck=False``).
        rule: the rule of the module docstring that decided (e.g. ``"P2"``, ``"R3"``).
    """

    kind: TaskKind
    members: tuple[int, ...]
    complete: bool
    rule: str


_PREF_FOLLOWUPS = frozenset(
    {Intent.PREFERENCE_DISAMBIGUATION, Intent.PREFERENCE_YES, Intent.PREFERENCE_NO, Intent.PREFERENCE_HELP}
)
_REC_FOLLOWUPS = frozenset(
    {
        Intent.REC_PREFERENCE,
        Intent.REC_SKIP,
        Intent.REC_DETAILS,
        Intent.REC_TRAILER,
        Intent.REC_WHY,
        Intent.REC_YES_BUT,
        Intent.REC_NO_BUT,
        Intent.REC_CRITIQUING_YES,
        Intent.REC_CRITIQUING_NO,
        Intent.REC_CRITIQUING_DISAMBIGUATION,
        Intent.REC_CRITIQUING_HELP,
        Intent.REC_CRITIQUING_FALLBACK,
        Intent.REC_STOP,
        Intent.REC_HELP,
        Intent.REC_FALLBACK,
    }
)
_RATINGS = frozenset({Intent.REC_PREFERENCE, Intent.REC_SKIP})
_PROFILE_FOLLOWUPS = frozenset(
    {
        Intent.DELETE_PREFERENCE,
        Intent.DELETE_PREFERENCE_DISAMBIGUATION,
        Intent.DELETE_PREFERENCE_HELP,
        Intent.PROFILE_HELP,
    }
)
_PROFILE_HELPS = frozenset({Intent.PROFILE_HELP, Intent.DELETE_PREFERENCE_HELP})
_NOISE = frozenset(
    {
        Intent.FALLBACK,
        Intent.HELP,
        Intent.REC_FALLBACK,
        Intent.REC_HELP,
        Intent.REC_CRITIQUING_FALLBACK,
        Intent.REC_CRITIQUING_HELP,
    }
)


def _is_noise(intent: str) -> bool:
    """Fallbacks, help requests and smalltalk: the user is off the task's track (R3)."""
    return intent in _NOISE or is_smalltalk(intent)


@dataclass(slots=True)
class _Open:
    """A task being built."""

    kind: TaskKind
    members: list[int] = field(default_factory=list)
    failed: bool = False
    rule: str = ""
    questions: int = 0
    suspended: bool = False  # a recommendation list was interrupted since its last member


class _Splitter:
    """Walks one conversation and collects its tasks (see the module docstring for the rules)."""

    def __init__(self) -> None:
        self.tasks: list[Task] = []
        self.pref: _Open | None = None  # preference task waiting for a disambiguation answer
        self.rec: _Open | None = None  # current item sub-task of an open recommendation list
        self.profile: _Open | None = None  # profile changes after show_profile
        self.last_resolved_pref = -2  # index of the last message that resolved a preference task

    # --- closing ---------------------------------------------------------------------------------

    def _emit(self, task: _Open, complete: bool, rule: str) -> None:
        if task.members:
            self.tasks.append(Task(task.kind, tuple(task.members), complete, rule))

    def _single(self, i: int, complete: bool, rule: str, kind: TaskKind = TaskKind.OTHER) -> None:
        self.tasks.append(Task(kind, (i,), complete, rule))

    def _close_pref(self) -> None:
        if self.pref is not None:
            self._emit(self.pref, False, self.pref.rule or "P3")
            self.pref = None

    def _close_rec(self) -> None:
        if self.rec is not None:
            if self.rec.failed:
                self._emit(self.rec, False, "R3")
            else:
                self._emit(self.rec, False, "R4")
            self.rec = None

    def _close_profile(self, *, disrupted: bool) -> None:
        if self.profile is not None:
            failed = self.profile.failed or disrupted
            self._emit(self.profile, not failed, "S1")
            self.profile = None

    def _close_all(self, *, disrupted: bool) -> None:
        self._close_pref()
        self._close_rec()
        self._close_profile(disrupted=disrupted)

    # --- one message -----------------------------------------------------------------------------

    def feed(self, i: int, record: LogRecord) -> None:
        intent = record.intent
        events = frozenset(split_list(record.events))
        asking = Event.DISAMBIGUATION in events
        if intent in _PREF_FOLLOWUPS:
            self._preference_followup(i, asking)
        elif intent == Intent.PREFERENCE:
            self._close_all(disrupted=False)
            self._start_preference(i, asking, failed=False)
        elif intent == Intent.RECOMMENDATION:
            self._close_all(disrupted=False)
            if Event.QUESTION in events or Event.FINISHED_RECOMMENDATION in events:
                self.rec = _Open(TaskKind.RECOMMENDATION, [i])
                if Event.FINISHED_RECOMMENDATION in events:
                    self._emit(self.rec, True, "R2")
                    self.rec = None
            else:
                self._single(i, False, "R1", TaskKind.RECOMMENDATION)
        elif intent in _REC_FOLLOWUPS or (
            self.rec is not None and _is_noise(intent) and Event.RECOMMENDATION in events
        ):
            self._recommendation_followup(i, intent, events)
        elif intent == Intent.SHOW_PROFILE:
            self._close_all(disrupted=False)
            self._single(i, True, "S1", TaskKind.PROFILE)
            self.profile = _Open(TaskKind.PROFILE)
        elif intent in _PROFILE_FOLLOWUPS and self.profile is not None:
            self._close_pref()
            self.profile.members.append(i)
            if intent in _PROFILE_HELPS:
                self.profile.failed = True
        else:
            # O1: start, fallback, smalltalk, help, top-level skip, reset dialogs, unknown intents
            self._close_pref()
            self._close_profile(disrupted=True)
            if self.rec is not None:
                self.rec.suspended = True
            self._single(i, False, "O1")

    def _start_preference(self, i: int, asking: bool, *, failed: bool) -> None:
        task = _Open(TaskKind.PREFERENCE, [i], failed=failed, questions=int(asking), rule="P4" if failed else "")
        if asking:
            self.pref = task
        else:
            self._emit(task, not failed, "P4" if failed else "P1")
            self.last_resolved_pref = i

    def _preference_followup(self, i: int, asking: bool) -> None:
        if self.pref is None:
            self._close_all(disrupted=False)
            # an answer right after a resolved preference continues it; otherwise it is an orphan
            self._start_preference(i, asking, failed=self.last_resolved_pref != i - 1)
            return
        task = self.pref
        task.members.append(i)
        task.questions += int(asking)
        if asking:
            return
        self.pref = None
        if task.failed:
            self._emit(task, False, "P4")
        elif task.questions > MAX_DISAMBIGUATION_QUESTIONS:
            self._emit(task, False, "P2")
        else:
            self._emit(task, True, "P2")
        self.last_resolved_pref = i

    def _recommendation_followup(self, i: int, intent: str, events: frozenset[str]) -> None:
        self._close_pref()
        self._close_profile(disrupted=False)
        if self.rec is None:
            self._single(i, False, "R5", TaskKind.RECOMMENDATION)
            return
        item = self.rec
        if intent == Intent.REC_STOP:
            if item.members:
                item.members.append(i)
                self._emit(item, False, "R3")
            else:
                self._single(i, False, "R4", TaskKind.RECOMMENDATION)
            self.rec = None
            return
        item.members.append(i)
        if _is_noise(intent) or item.suspended:
            item.failed = True
        item.suspended = False
        finished = Event.FINISHED_RECOMMENDATION in events
        if intent in _RATINGS or finished:
            self._emit(item, not item.failed, "R3" if item.failed else "R2")
            self.rec = None if finished else _Open(TaskKind.RECOMMENDATION)

    def finish(self) -> list[Task]:
        self._close_all(disrupted=False)
        return sorted(self.tasks, key=lambda t: t.members[0])


def split_tasks(conversation: Sequence[LogRecord]) -> list[Task]:
    """Split one user's conversation into tasks and judge each (rules in the module docstring).

    Args:
        conversation: one user's records in timestamp order (see :func:`logs.record.conversations`).

    Returns:
        The tasks, ordered by their first message; every index of ``conversation`` is in exactly
        one task.
    """
    splitter = _Splitter()
    for i, record in enumerate(conversation):
        splitter.feed(i, record)
    return splitter.finish()


def compute_to_check(records: Sequence[LogRecord]) -> list[bool]:
    """Recompute ``toCheck`` for every record (the paper's task heuristic).

    Records of several users may be interleaved in any order: they are grouped by ``user_id`` and
    ordered by ``timestamp_start`` (stable, so equal timestamps keep input order).

    Args:
        records: the records of a dataset file or session.

    Returns:
        ``toCheck`` flags in the same order as ``records``.
    """
    order = conversation_order(records)
    flags = [True] * len(records)
    start = 0
    while start < len(order):
        user = records[order[start]].user_id
        end = start
        while end < len(order) and records[order[end]].user_id == user:
            end += 1
        indices = order[start:end]
        for task in split_tasks([records[k] for k in indices]):
            for member in task.members:
                flags[indices[member]] = not task.complete
        start = end
    return flags


def agreement(same: int, total: int) -> float:
    """``same / total``, 0.0 when ``total`` is 0."""
    return same / total if total else 0.0
