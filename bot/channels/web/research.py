"""What the researcher's console shows, read from the database (no web framework here): the study's
live figures, a conversation with what was logged for each turn, the review queue, and the exports.

Figures (:class:`Figures`), over the study's participants and the log records of its session:

- ``participants`` (registered), ``consented``, ``completed``; ``sessions``: conversations with at least
  one message; ``messages``: logged user messages;
- ``preferences``: entities stored with a polarity (the ``recognizedObjects`` of preference turns);
- ``lists``: recommendation lists shown (the last ``numberRecommendationList`` of each participant);
- ``like`` / ``dislike`` / ``skip``: shares of the ratings of recommended items (a card's rating: a
  ``request_recommendation - preference`` turn with a + or - object, a skip intent);
- ``fallbacks``: share of messages logged with a fallback intent;
- ``questions_per_turn``: bot questions (``question`` or ``disambiguation`` events) per message;
- ``satisfied`` / ``frustrated``: the participants' one click per conversation; ``evaluator_conversations`` and
  their clicks (``evaluator_satisfied`` / ``evaluator_frustrated``), kept apart from the people's;
- per condition: participants and messages; ``to_check``: messages still flagged for checking;
  ``corrected``: messages relabelled.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.channels.web.store import EVALUATOR, PARTICIPANT, Participant, StoredTurn, WebStore
from bot.channels.web.study import StudyConfig
from bot.corrections import Correction, CorrectionStore, apply_corrections
from logs.record import LogRecord
from logs.schema import Event, Intent, parse_objects, split_list

__all__ = ["Figures", "QueueItem", "StudyData", "figures_of"]

_FALLBACKS = {Intent.FALLBACK.value, Intent.REC_FALLBACK.value, Intent.REC_CRITIQUING_FALLBACK.value}
_SKIPS = {Intent.REC_SKIP.value, Intent.SKIP.value}


@dataclass(frozen=True, slots=True)
class Figures:
    """The study's figures (see the module docstring)."""

    participants: int = 0
    consented: int = 0
    completed: int = 0
    sessions: int = 0
    messages: int = 0
    preferences: int = 0
    lists: int = 0
    like: float = 0.0
    dislike: float = 0.0
    skip: float = 0.0
    ratings: int = 0
    fallbacks: float = 0.0
    questions_per_turn: float = 0.0
    satisfied: int = 0
    frustrated: int = 0
    evaluator_satisfied: int = 0
    evaluator_frustrated: int = 0
    to_check: int = 0
    corrected: int = 0
    evaluator_conversations: int = 0
    conditions: dict[str, dict[str, int]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The figures as a JSON object (shares rounded to 3 decimals)."""
        out = dataclasses.asdict(self)
        for key in ("like", "dislike", "skip", "fallbacks", "questions_per_turn"):
            out[key] = round(out[key], 3)
        return out


def _share(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def figures_of(
    participants: Sequence[Participant],
    records: Sequence[LogRecord],
    condition_of: Mapping[str, str],
    corrected: int = 0,
) -> Figures:
    """Compute :class:`Figures` (records: the study session's; ``condition_of``: messageID -> condition)."""
    people = [p for p in participants if p.kind == PARTICIPANT]
    likes = dislikes = skips = preferences = fallbacks = questions = to_check = 0
    lists: dict[int, int] = {}
    users: set[int] = set()
    per_condition: dict[str, Counter[str]] = {}
    for p in people:
        per_condition.setdefault(p.condition, Counter())["participants"] += 1
    for record in records:
        users.add(record.user_id)
        events = split_list(record.events)
        objects = parse_objects(record.recognized_objects)
        lists[record.user_id] = max(lists.get(record.user_id, 0), record.number_recommendation_list)
        if Event.PREFERENCE in events:
            preferences += len(objects)
        if record.intent == Intent.REC_PREFERENCE:
            likes += any(sign == "+" for _, sign in objects)
            dislikes += any(sign == "-" for _, sign in objects)
        elif record.intent in _SKIPS:
            skips += 1
        fallbacks += record.intent in _FALLBACKS or record.intent.endswith(" - fallback")
        questions += Event.QUESTION in events or Event.DISAMBIGUATION in events
        to_check += record.to_check
        condition = condition_of.get(record.message_id)
        if condition is not None:
            per_condition.setdefault(condition, Counter())["messages"] += 1
    ratings = likes + dislikes + skips
    n = len(records)
    return Figures(
        participants=len(people),
        consented=sum(p.consented_ms is not None for p in people),
        completed=sum(p.completed_ms is not None for p in people),
        sessions=len(users),
        messages=n,
        preferences=preferences,
        lists=sum(lists.values()),
        like=_share(likes, ratings),
        dislike=_share(dislikes, ratings),
        skip=_share(skips, ratings),
        ratings=ratings,
        fallbacks=_share(fallbacks, n),
        questions_per_turn=_share(questions, n),
        satisfied=sum(p.feedback == "satisfied" for p in people),
        frustrated=sum(p.feedback == "frustrated" for p in people),
        evaluator_satisfied=sum(p.feedback == "satisfied" for p in participants if p.kind == EVALUATOR),
        evaluator_frustrated=sum(p.feedback == "frustrated" for p in participants if p.kind == EVALUATOR),
        to_check=to_check,
        corrected=corrected,
        evaluator_conversations=sum(p.kind == EVALUATOR for p in participants),
        conditions={name: dict(counts) for name, counts in per_condition.items()},
    )


@dataclass(frozen=True, slots=True)
class QueueItem:
    """A turn in the review queue: the logged record, the channel's turn (text before and after), the
    correction if any."""

    record: LogRecord
    turn: StoredTurn | None
    previous_reply: str
    correction: Correction | None
    confidence: float | None


class StudyData:
    """Reads the study's data for the console (see the module docstring).

    Args:
        target: the SQLite database or the ``postgresql://`` URL.
        study: the study.
        web: the web tables (shared with the channel).
    """

    def __init__(self, target: Path | str, study: StudyConfig, web: WebStore) -> None:
        self.study = study
        self.web = web
        self.corrections = CorrectionStore(target)
        self._target = target

    def _log(self) -> Any:
        if isinstance(self._target, str):
            from bot.pgstore.store import PgLogStore

            return PgLogStore(self._target)
        from logs.store import LogStore

        return LogStore(self._target)

    def records(self, session: str | None = None) -> list[LogRecord]:
        """The log records of the study's session (or ``session``), in order."""
        with self._log() as log:
            return list(log.records(session or self.study.log_session))

    def figures(self) -> Figures:
        """The study's figures now."""
        participants = self.web.participants(self.study.name)
        records = self.records()
        turns = self.web.turns_by_message([r.message_id for r in records])
        by_pid = {p.pid: p.condition for p in participants}
        condition_of = {mid: by_pid.get(t.pid, "") for mid, t in turns.items()}
        corrected = len(self.corrections.all(self.study.log_session))
        return figures_of(participants, records, condition_of, corrected)

    def conversation(self, pid: str) -> list[tuple[StoredTurn, LogRecord | None, Correction | None]]:
        """A participant's turns with the logged record (toCheck as it is now) and the correction."""
        turns = self.web.turns(pid)
        participant = self.web.participant(pid)
        session = self.study.evaluator_session if participant and participant.kind == EVALUATOR else None
        records = {r.message_id: r for r in self.records(session)}
        corrections = self.corrections.all()
        out = []
        for turn in turns:
            mid = turn.annotation.message_id if turn.annotation else ""
            out.append((turn, records.get(mid), corrections.get(mid)))
        return out

    def queue(
        self, *, only: str = "tocheck", intent: str = "", max_confidence: float | None = None, corrected: bool = False,
        limit: int = 200,
    ) -> list[QueueItem]:  # fmt: skip
        """The review queue: logged turns of the study flagged toCheck (``only="tocheck"``) or all
        (``only="all"``), optionally of one intent and at most some classifier confidence, without the
        corrected ones unless ``corrected``; oldest first, at most ``limit``."""
        records = self.records()
        turns = self.web.turns_by_message([r.message_id for r in records])
        corrections = self.corrections.all(self.study.log_session)
        previous: dict[str, str] = {}
        last_reply: dict[str, str] = {}
        for pid_turn in sorted(turns.values(), key=lambda t: t.id):
            previous[pid_turn.annotation.message_id if pid_turn.annotation else ""] = last_reply.get(pid_turn.pid, "")
            last_reply[pid_turn.pid] = pid_turn.reply.text if pid_turn.reply else ""
        items = []
        for record in records:
            fix = corrections.get(record.message_id)
            if fix is not None and not corrected:
                continue
            if only == "tocheck" and not record.to_check and fix is None:
                continue
            if intent and record.intent != intent:
                continue
            turn = turns.get(record.message_id)
            confidence = turn.annotation.confidence if turn and turn.annotation else None
            if max_confidence is not None and (confidence is None or confidence > max_confidence):
                continue
            items.append(QueueItem(record, turn, previous.get(record.message_id, ""), fix, confidence))
            if len(items) >= limit:
                break
        return items

    def correct(self, message_id: str, intent: str, objects: str, note: str = "") -> Correction:
        """Store a correction of a logged turn of the study.

        Raises:
            KeyError: no such turn in the study's log.
            ValueError: bad intent or objects.
        """
        record = next((r for r in self.records() if r.message_id == message_id), None)
        if record is None:
            raise KeyError(message_id)
        correction = Correction(message_id, self.study.log_session, record.user_id, intent, objects,
                                record.intent, record.recognized_objects, note)  # fmt: skip
        self.corrections.save(correction)
        return correction

    def dataset(self, *, corrected: bool, evaluator: bool = False) -> list[dict[str, Any]]:
        """The study's records in the dataset format (corrections applied when ``corrected``)."""
        records = self.records(self.study.evaluator_session if evaluator else None)
        if corrected:
            records = apply_corrections(records, self.corrections.all())
        return [r.to_json() for r in records]

    def sgd(self, *, evaluator: bool = False) -> list[dict[str, Any]]:
        """The study's conversations as schema-guided dialogues (corrections applied)."""
        from bot.sgd import sgd_dialogues

        kind = EVALUATOR if evaluator else PARTICIPANT
        people = [p for p in self.web.participants(self.study.name) if p.kind == kind]
        corrections = self.corrections.all()
        records = apply_corrections(self.records(self.study.evaluator_session if evaluator else None), corrections)
        by_id = {r.message_id: r for r in records}
        turns = self.web.all_turns([p.pid for p in people])
        conversations: dict[str, list[StoredTurn]] = {}
        for turn in turns:
            conversations.setdefault(f"{self.study.name}/{turn.pid}", []).append(turn)
        return sgd_dialogues(conversations, by_id, corrected=frozenset(corrections))

    def close(self) -> None:
        """Close the corrections' connection."""
        self.corrections.close()
