"""The web channel's tables (issue 26): participants, their turns and the evaluator's conversations.

In the bot's database, beside the dialog state and the session log (the SQLite file of
``$CORSBOT_HOME``, or PostgreSQL with ``CORSBOT_DATABASE_URL``: migration 3 of
:mod:`bot.pgstore.schema`), through :class:`bot.sqldb.SqlDatabase`. No web framework here: the dialog
worker processes read the participants' study conditions through it.

- ``web_participants``: one row per participant or evaluator conversation: ``pid`` (from the
  recruiting platform's URL, or made up), ``study``, ``user_key`` (the dialog's user key, ``web:<pid>``
  or ``sim:<pid>``), ``secret_hash`` (SHA-256 of the secret in the participant's signed cookie: a pid
  alone never opens a conversation), ``kind`` (``participant`` | ``evaluator``), ``condition`` (the
  study condition assigned at creation), ``consented_ms``, ``completed_ms``, ``completion_code``,
  ``feedback`` (``satisfied`` | ``frustrated``, one per conversation) and ``feedback_ms``.
- ``web_turns``: every turn, stored **before** it is handed to the dialog (``answered_ms`` NULL until
  its reply is stored with it): the channel's durable inbox, as ``channel_inbox`` is Telegram's (a
  turn left unanswered by a killed process is handled again at the next start, in order, under the
  key ``web:<id>``, so the dialog applies it at most once), and the transcript of the system's turns
  (the reply, its buttons and image) that the dataset format does not keep. With the reply: the
  logged ``message_id``, ``intent``, the intent classifier's ``confidence``, ``events``, ``objects`` and
  the ``domain`` of the turn.
- ``web_contexts``: SHA-256 of an evaluator's dialogue context -> its conversation (the evaluator's
  door is stateless: each request carries the context, see :mod:`bot.channels.web.door`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.sqldb import SqlDatabase
from bot.store import reply_from_json, reply_to_json
from bot.turns import Reply

__all__ = [
    "PARTICIPANT",
    "EVALUATOR",
    "Annotation",
    "Participant",
    "StoredTurn",
    "WebStore",
    "hash_secret",
    "new_secret",
    "valid_pid",
]

PARTICIPANT = "participant"
EVALUATOR = "evaluator"
FEEDBACK = ("satisfied", "frustrated")
"""The one click per conversation (CRS Arena's satisfied / frustrated)."""
PID_PATTERN = re.compile(r"^[A-Za-z0-9_.\-]{1,64}$")
"""A participant id from a recruiting platform's URL (Prolific: 24 hex digits; MTurk: 12-14 letters and digits)."""

SQLITE_SCHEMA = """
CREATE TABLE IF NOT EXISTS web_participants (
    pid TEXT PRIMARY KEY,
    study TEXT NOT NULL,
    user_key TEXT NOT NULL UNIQUE,
    secret_hash TEXT NOT NULL,
    kind TEXT NOT NULL,
    condition TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    consented_ms INTEGER,
    completed_ms INTEGER,
    completion_code TEXT,
    feedback TEXT,
    feedback_ms INTEGER
);
CREATE INDEX IF NOT EXISTS web_participants_study ON web_participants (study, kind, condition);
CREATE TABLE IF NOT EXISTS web_turns (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    pid TEXT NOT NULL,
    auto INTEGER NOT NULL,
    text TEXT NOT NULL,
    payload TEXT,
    interaction TEXT NOT NULL,
    received_ms INTEGER NOT NULL,
    answered_ms INTEGER,
    reply TEXT,
    message_id TEXT,
    intent TEXT,
    confidence REAL,
    events TEXT,
    objects TEXT,
    domain TEXT
);
CREATE INDEX IF NOT EXISTS web_turns_pid ON web_turns (pid, id);
CREATE INDEX IF NOT EXISTS web_turns_open ON web_turns (id) WHERE answered_ms IS NULL;
CREATE INDEX IF NOT EXISTS web_turns_message ON web_turns (message_id);
CREATE TABLE IF NOT EXISTS web_contexts (
    digest TEXT PRIMARY KEY,
    pid TEXT NOT NULL,
    created_ms INTEGER NOT NULL
);
"""


def now_ms() -> int:
    """Milliseconds since the epoch."""
    return int(time.time() * 1000)


def new_secret() -> str:
    """A fresh unguessable secret (32 bytes, URL-safe)."""
    return secrets.token_urlsafe(32)


def hash_secret(secret: str) -> str:
    """Hex SHA-256 of a secret (what the table keeps)."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def valid_pid(pid: str) -> bool:
    """Whether ``pid`` is usable as a participant id (:data:`PID_PATTERN`)."""
    return bool(PID_PATTERN.match(pid))


@dataclass(frozen=True, slots=True)
class Participant:
    """A row of ``web_participants`` (see the module docstring)."""

    pid: str
    study: str
    user_key: str
    secret_hash: str
    kind: str
    condition: str
    created_ms: int
    consented_ms: int | None = None
    completed_ms: int | None = None
    completion_code: str | None = None
    feedback: str | None = None
    feedback_ms: int | None = None

    def owns(self, secret: str | None) -> bool:
        """Whether ``secret`` is this participant's (constant-time comparison)."""
        return bool(secret) and secrets.compare_digest(hash_secret(secret or ""), self.secret_hash)


@dataclass(frozen=True, slots=True)
class Annotation:
    """What was logged for a turn (read in the dialog worker right after it).

    Attributes:
        message_id: the log record's ``messageID`` ("" when nothing was logged).
        intent: the logged intent.
        confidence: the intent classifier's probability of its top intent for the message (None
            when the classifier was not asked, e.g. a button press).
        events: the logged events.
        objects: the logged ``recognizedObjects``.
        domain: the user's domain after the turn.
        to_check: the logged toCheck flag.
    """

    message_id: str = ""
    intent: str = ""
    confidence: float | None = None
    events: tuple[str, ...] = ()
    objects: str = ""
    domain: str = ""
    to_check: bool = True


@dataclass(frozen=True, slots=True)
class StoredTurn:
    """A row of ``web_turns``: the user's turn, and once answered its reply and annotation."""

    id: int
    pid: str
    auto: bool
    text: str
    payload: str | None
    interaction: str
    received_ms: int
    answered_ms: int | None
    reply: Reply | None
    annotation: Annotation | None
    typed: int | None = None
    """Set on a turn just answered: the messages the participant typed so far (``WebStore.typed_turns``)."""

    @property
    def key(self) -> str:
        """The turn's idempotency key for the dialog (``Turn.key``)."""
        return f"web:{self.id}"


_TURN_COLUMNS = (
    "id, pid, auto, text, payload, interaction, received_ms, answered_ms, reply, message_id, intent, confidence, "
    "events, objects, domain"
)
_PARTICIPANT_COLUMNS = (
    "pid, study, user_key, secret_hash, kind, condition, created_ms, consented_ms, completed_ms, completion_code, "
    "feedback, feedback_ms"
)


def _turn(row: Sequence[Any]) -> StoredTurn:
    (tid, pid, auto, text, payload, interaction, received, answered, reply, message_id, intent, confidence,
     events, objects, domain) = row  # fmt: skip
    annotation = None
    if answered is not None:
        annotation = Annotation(message_id or "", intent or "", None if confidence is None else float(confidence),
                                tuple(json.loads(events)) if events else (), objects or "", domain or "")  # fmt: skip
    return StoredTurn(int(tid), str(pid), bool(auto), str(text), payload, str(interaction), int(received),
                      None if answered is None else int(answered), reply_from_json(reply) if reply else None,
                      annotation)  # fmt: skip


def _participant(row: Sequence[Any]) -> Participant:
    return Participant(*row)


class WebStore:
    """The web channel's tables (see the module docstring).

    Args:
        target: the SQLite file of the bot, or the ``postgresql://`` URL.

    Raises:
        StoreError: the database cannot be opened.
    """

    def __init__(self, target: Path | str) -> None:
        self._db = SqlDatabase(target, SQLITE_SCHEMA)

    # ------------------------------------------------------------------ participants

    def create_participant(
        self, pid: str, *, study: str, kind: str, condition: str, secret: str, code: str | None = None
    ) -> Participant | None:
        """Register a participant (or evaluator conversation); None if the pid is taken.

        Raises:
            StoreError: the database cannot be written.
        """
        prefix = "web" if kind == PARTICIPANT else "sim"
        row = Participant(pid, study, f"{prefix}:{pid}", hash_secret(secret), kind, condition, now_ms(),
                          completion_code=code)  # fmt: skip
        changed = self._db.execute(
            f"INSERT INTO web_participants ({_PARTICIPANT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (pid) DO NOTHING",
            (row.pid, row.study, row.user_key, row.secret_hash, row.kind, row.condition, row.created_ms, None, None,
             code, None, None),
        )  # fmt: skip
        return row if changed else None

    def participant(self, pid: str) -> Participant | None:
        """The participant ``pid``, or None."""
        rows = self._db.query(f"SELECT {_PARTICIPANT_COLUMNS} FROM web_participants WHERE pid = ?", (pid,))
        return _participant(rows[0]) if rows else None

    def by_user_key(self, user_key: str) -> Participant | None:
        """The participant whose dialog user key is ``user_key``, or None."""
        rows = self._db.query(f"SELECT {_PARTICIPANT_COLUMNS} FROM web_participants WHERE user_key = ?", (user_key,))
        return _participant(rows[0]) if rows else None

    def participants(self, study: str, kind: str | None = None) -> list[Participant]:
        """The study's participants (of one kind), oldest first."""
        if kind is None:
            rows = self._db.query(
                f"SELECT {_PARTICIPANT_COLUMNS} FROM web_participants WHERE study = ? ORDER BY created_ms, pid",
                (study,),
            )
        else:
            rows = self._db.query(
                f"SELECT {_PARTICIPANT_COLUMNS} FROM web_participants WHERE study = ? AND kind = ? "
                "ORDER BY created_ms, pid",
                (study, kind),
            )
        return [_participant(r) for r in rows]

    def condition_counts(self, study: str) -> dict[str, int]:
        """Participants per condition of a study (for balanced assignment)."""
        rows = self._db.query(
            "SELECT condition, COUNT(*) FROM web_participants WHERE study = ? AND kind = ? GROUP BY condition",
            (study, PARTICIPANT),
        )
        return {str(c): int(n) for c, n in rows}

    def consent(self, pid: str) -> None:
        """Record the participant's consent (once)."""
        self._db.execute(
            "UPDATE web_participants SET consented_ms = ? WHERE pid = ? AND consented_ms IS NULL", (now_ms(), pid)
        )

    def complete(self, pid: str, code: str) -> str:
        """Mark the conversation completed with ``code`` (a second call keeps the first code); returns the code."""
        self._db.execute(
            "UPDATE web_participants SET completed_ms = ?, completion_code = COALESCE(completion_code, ?) "
            "WHERE pid = ? AND completed_ms IS NULL",
            (now_ms(), code, pid),
        )
        found = self.participant(pid)
        return (found.completion_code if found else None) or code

    def give_feedback(self, pid: str, value: str) -> bool:
        """Store the conversation's one satisfied / frustrated click; False if it already has one.

        Raises:
            ValueError: ``value`` is not one of :data:`FEEDBACK`.
        """
        if value not in FEEDBACK:
            raise ValueError(f"feedback must be one of {', '.join(FEEDBACK)}")
        return (
            self._db.execute(
                "UPDATE web_participants SET feedback = ?, feedback_ms = ? WHERE pid = ? AND feedback IS NULL",
                (value, now_ms(), pid),
            )
            > 0
        )

    # ------------------------------------------------------------------ turns

    def add_turn(self, pid: str, text: str, payload: str | None, *, interaction: str, auto: bool = False) -> int:
        """Store a turn before it is answered; returns its id (increasing).

        Raises:
            StoreError: the database cannot be written (do not hand the turn to the dialog).
        """
        return self._db.insert(
            "INSERT INTO web_turns (pid, auto, text, payload, interaction, received_ms) VALUES (?, ?, ?, ?, ?, ?)",
            (pid, bool(auto), text, payload, interaction, now_ms()),
        )

    def finish_turn(self, turn_id: int, reply: Reply, annotation: Annotation | None, *, pid: str | None = None) -> int:
        """Store a turn's reply (and what was logged for it): the turn is answered. With ``pid``, returns
        the participant's own turns so far (one round trip less for the chat's progress), else 0."""
        a = annotation or Annotation()
        self._db.execute(
            "UPDATE web_turns SET answered_ms = ?, reply = ?, message_id = ?, intent = ?, confidence = ?, "
            "events = ?, objects = ?, domain = ? WHERE id = ?",
            (now_ms(), reply_to_json(reply), a.message_id or None, a.intent or None, a.confidence,
             json.dumps(list(a.events)), a.objects, a.domain or None, turn_id),
        )  # fmt: skip
        return self.typed_turns(pid) if pid is not None else 0

    def unfinished(self) -> list[StoredTurn]:
        """Turns stored but not answered (a killed process's), in order."""
        rows = self._db.query(f"SELECT {_TURN_COLUMNS} FROM web_turns WHERE answered_ms IS NULL ORDER BY id")
        return [_turn(r) for r in rows]

    def turns(self, pid: str, *, after: int = 0) -> list[StoredTurn]:
        """The participant's turns with id > ``after``, in order."""
        rows = self._db.query(
            f"SELECT {_TURN_COLUMNS} FROM web_turns WHERE pid = ? AND id > ? ORDER BY id", (pid, after)
        )
        return [_turn(r) for r in rows]

    def turn(self, turn_id: int) -> StoredTurn | None:
        """One turn by id."""
        rows = self._db.query(f"SELECT {_TURN_COLUMNS} FROM web_turns WHERE id = ?", (turn_id,))
        return _turn(rows[0]) if rows else None

    def typed_turns(self, pid: str) -> int:
        """The participant's typed messages (not button presses, not the automatic start): what the study's
        ``min_turns`` counts."""
        rows = self._db.query(
            "SELECT COUNT(*) FROM web_turns WHERE pid = ? AND auto = ? AND payload IS NULL", (pid, False)
        )
        return int(rows[0][0])

    def all_turns(self, pids: Sequence[str] | None = None) -> list[StoredTurn]:
        """Every turn (of the given participants), in order."""
        if pids is None:
            rows = self._db.query(f"SELECT {_TURN_COLUMNS} FROM web_turns ORDER BY id")
        elif not pids:
            return []
        else:
            marks = ", ".join("?" for _ in pids)
            rows = self._db.query(f"SELECT {_TURN_COLUMNS} FROM web_turns WHERE pid IN ({marks}) ORDER BY id", pids)
        return [_turn(r) for r in rows]

    def turns_by_message(self, message_ids: Sequence[str]) -> dict[str, StoredTurn]:
        """The turns that logged these message ids."""
        out: dict[str, StoredTurn] = {}
        ids = list(message_ids)
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ", ".join("?" for _ in chunk)
            for row in self._db.query(f"SELECT {_TURN_COLUMNS} FROM web_turns WHERE message_id IN ({marks})", chunk):
                turn = _turn(row)
                if turn.annotation is not None:
                    out[turn.annotation.message_id] = turn
        return out

    def transaction(self) -> contextlib.AbstractContextManager[None]:
        """Statements of this store run inside it commit together (a group commit of several turns)."""
        return self._db.transaction()

    # ------------------------------------------------------------------ evaluator contexts

    def context_owner(self, digest: str) -> str | None:
        """The evaluator conversation whose dialogue so far hashes to ``digest``, or None."""
        rows = self._db.query("SELECT pid FROM web_contexts WHERE digest = ?", (digest,))
        return str(rows[0][0]) if rows else None

    def remember_context(self, digest: str, pid: str) -> None:
        """Remember that the dialogue hashing to ``digest`` is conversation ``pid`` (latest wins)."""
        with self._db.transaction():
            self._db.execute("DELETE FROM web_contexts WHERE digest = ?", (digest,))
            self._db.execute("INSERT INTO web_contexts (digest, pid, created_ms) VALUES (?, ?, ?)",
                             (digest, pid, now_ms()))  # fmt: skip

    def close(self) -> None:
        """Close the connection."""
        self._db.close()
