"""WORK IN PROGRESS"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from logs.record import LogRecord
from logs.schema import Event, Intent, is_smalltalk, split_list

I = Intent


class TaskKind(StrEnum):
    PREFERENCE = "preference"
    RECOMMENDATION = "recommendation"
    PROFILE = "profile"
    OTHER = "other"


PREF_FOLLOWUPS = frozenset({I.PREFERENCE_DISAMBIGUATION, I.PREFERENCE_YES, I.PREFERENCE_NO, I.PREFERENCE_HELP})
REC_FOLLOWUPS = frozenset(
    {
        I.REC_PREFERENCE, I.REC_SKIP, I.REC_DETAILS, I.REC_TRAILER, I.REC_WHY, I.REC_YES_BUT, I.REC_NO_BUT,
        I.REC_CRITIQUING_YES, I.REC_CRITIQUING_NO, I.REC_CRITIQUING_DISAMBIGUATION, I.REC_CRITIQUING_HELP,
        I.REC_CRITIQUING_FALLBACK, I.REC_STOP, I.REC_HELP, I.REC_FALLBACK,
    }
)
PROFILE_FOLLOWUPS = frozenset(
    {I.DELETE_PREFERENCE, I.DELETE_PREFERENCE_DISAMBIGUATION, I.DELETE_PREFERENCE_HELP, I.PROFILE_HELP}
)


@dataclass(slots=True)
class _Task:
    kind: TaskKind
    members: list[int]
    complete: bool = False
    failed: bool = False
    pending: bool = False


def agreement(same: int, total: int) -> float:
    return same / total if total else 0.0


MAX_DISAMBIGUATION_QUESTIONS = 2
RATINGS = frozenset({I.REC_PREFERENCE, I.REC_SKIP})


def _interruption(intent: str) -> bool:
    return intent in (I.FALLBACK, I.HELP, I.REC_FALLBACK, I.REC_HELP, I.REC_CRITIQUING_FALLBACK) or is_smalltalk(intent)


def split_tasks(conv: Sequence[LogRecord]) -> list[_Task]:
    tasks: list[_Task] = []
    cur: _Task | None = None
    questions = 0

    def single(i: int, ok: bool) -> None:
        tasks.append(_Task(TaskKind.OTHER, [i], complete=ok, failed=not ok))

    for i, r in enumerate(conv):
        intent = r.intent
        events = set(split_list(r.events))
        in_pref = cur is not None and cur.kind is TaskKind.PREFERENCE
        in_rec = cur is not None and cur.kind is TaskKind.RECOMMENDATION
        if intent in PREF_FOLLOWUPS and not in_pref and not (tasks and tasks[-1].kind is TaskKind.PREFERENCE and tasks[-1].members[-1] == i - 1):
            # answer to a disambiguation that was interrupted by another intent: orphan, failed
            cur = _Task(TaskKind.PREFERENCE, [i], failed=True)
            tasks.append(cur)
            questions = MAX_DISAMBIGUATION_QUESTIONS + 1
            cur.pending = Event.DISAMBIGUATION in events
            if not cur.pending:
                cur = None
        elif intent == I.PREFERENCE or (intent in PREF_FOLLOWUPS and not (in_pref and cur.pending)):
            cur = _Task(TaskKind.PREFERENCE, [i])
            tasks.append(cur)
            questions = int(Event.DISAMBIGUATION in events)
            cur.pending = Event.DISAMBIGUATION in events
            if not cur.pending:
                cur.complete = True
                cur = None
        elif intent in PREF_FOLLOWUPS and in_pref:
            cur.members.append(i)
            questions += int(Event.DISAMBIGUATION in events)
            cur.pending = Event.DISAMBIGUATION in events
            if not cur.pending:
                cur.complete = questions <= MAX_DISAMBIGUATION_QUESTIONS and not cur.failed
                cur = None
        elif intent == I.RECOMMENDATION:
            if Event.QUESTION in events or Event.FINISHED_RECOMMENDATION in events:
                cur = _Task(TaskKind.RECOMMENDATION, [i])
                tasks.append(cur)
                cur.pending = True
                if Event.FINISHED_RECOMMENDATION in events:
                    cur.complete, cur.pending, cur = True, False, None
            else:
                cur = None
                single(i, False)
        elif in_rec and (intent in REC_FOLLOWUPS or (Event.RECOMMENDATION in events and _interruption(intent))):
            if intent == I.REC_STOP:
                single(i, False)
                cur.complete = not cur.failed
                cur.pending = False
                cur = None
                continue
            cur.members.append(i)
            if _interruption(intent):
                cur.failed = True
            if intent in RATINGS or Event.FINISHED_RECOMMENDATION in events:
                # the item is rated: close this item's sub-task, open the next one
                cur.complete = not cur.failed
                cur.pending = False
                if Event.FINISHED_RECOMMENDATION in events:
                    cur = None
                else:
                    cur = _Task(TaskKind.RECOMMENDATION, [])
                    tasks.append(cur)
                    cur.pending = True
        elif intent == I.SHOW_PROFILE:
            cur = _Task(TaskKind.PROFILE, [i], complete=True)
            tasks.append(cur)
        elif intent in PROFILE_FOLLOWUPS and cur is not None and cur.kind is TaskKind.PROFILE:
            cur.members.append(i)
        else:
            cur = None
            single(i, False)
    for t in tasks:
        if t.pending:
            t.complete = False
    return tasks


def compute_to_check(records: Sequence[LogRecord]) -> list[bool]:
    order = sorted(range(len(records)), key=lambda i: (records[i].user_id, records[i].timestamp_start))
    out = [True] * len(records)
    start = 0
    while start < len(order):
        end = start
        user = records[order[start]].user_id
        while end < len(order) and records[order[end]].user_id == user:
            end += 1
        idx = order[start:end]
        conv = [records[i] for i in idx]
        for task in split_tasks(conv):
            for m in task.members:
                out[idx[m]] = not task.complete
        start = end
    return out
