"""The researcher's corrections of logged turns (issue 26): stored beside the session log, never over it.

A correction relabels one logged user turn, found by its ``messageID``: its intent and the entities
with their polarity (``recognizedObjects``, ``"Q83495+, Q2263-"``). It lives in its own table,
``log_corrections``, in the database of the log (the SQLite file of ``$CORSBOT_HOME`` or the
PostgreSQL database of ``CORSBOT_DATABASE_URL``); the logged row itself is never changed, so the
study's data stays as it was recorded and every correction can be reviewed or undone.

They are applied when records are exported for training (``corsbot export --corrected``, ``corsbot
nlu train --logs``, the console's export and retraining): :func:`apply_corrections` gives the
corrected intent and objects and ``toCheck = false`` (a person checked the turn: the paper's
``toCheck`` marks the turns that need a manual check), every other field as logged.

Table ``log_corrections``: ``message_id`` TEXT primary key, ``session`` TEXT, ``user_id`` INTEGER
(the log's numeric userID), ``intent`` TEXT, ``objects`` TEXT, ``logged_intent`` TEXT,
``logged_objects`` TEXT (what the log says, kept to show the change), ``note`` TEXT,
``corrected_ms`` INTEGER.

Example:
    >>> import tempfile, pathlib
    >>> store = CorrectionStore(pathlib.Path(tempfile.mkdtemp()) / "db.sqlite3")
    >>> store.save(Correction("7-1", "web", 7, "preference", "Q83495+"))
    >>> store.get("7-1").intent
    'preference'
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.sqldb import SqlDatabase
from logs.record import LogRecord
from logs.schema import SMALLTALK_PREFIX, Intent, format_objects
from logs.store import StoreError

__all__ = ["Correction", "CorrectionStore", "apply_corrections", "check_objects", "known_intent"]

SQLITE_SCHEMA = """
CREATE TABLE IF NOT EXISTS log_corrections (
    message_id TEXT PRIMARY KEY,
    session TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    intent TEXT NOT NULL,
    objects TEXT NOT NULL,
    logged_intent TEXT NOT NULL DEFAULT '',
    logged_objects TEXT NOT NULL DEFAULT '',
    note TEXT NOT NULL DEFAULT '',
    corrected_ms INTEGER NOT NULL
);
"""
"""The table on SQLite (PostgreSQL: migration 3 of :mod:`bot.pgstore.schema`)."""

_KNOWN_INTENTS = frozenset(i.value for i in Intent)
_SMALLTALK = re.compile(rf"^{re.escape(SMALLTALK_PREFIX)}[a-z_]+(\.[a-z_]+)*$")


def known_intent(name: str) -> bool:
    """Whether ``name`` is an intent of the dataset (:class:`logs.schema.Intent`, or a ``smalltalk.*`` name)."""
    return name in _KNOWN_INTENTS or bool(_SMALLTALK.match(name))


@dataclass(frozen=True, slots=True)
class Correction:
    """A relabelled turn.

    Attributes:
        message_id: the logged record's ``messageID``.
        session: the log session of the record.
        user_id: the record's numeric ``userID``.
        intent: the right intent (a name of :class:`logs.schema.Intent`).
        objects: the right entities with polarity, dataset format (``"Q83495+, Q2263-"``, ``""``).
        logged_intent: what the log says (shown beside the correction).
        logged_objects: what the log says.
        note: the researcher's free note.
        corrected_ms: when (ms since epoch; 0 = now when saved).
    """

    message_id: str
    session: str
    user_id: int
    intent: str
    objects: str = ""
    logged_intent: str = ""
    logged_objects: str = ""
    note: str = ""
    corrected_ms: int = 0


def check_objects(text: str) -> str:
    """The objects a researcher typed, in the dataset's format (``"Q1+, Q2-"``).

    Accepts separators ``,`` or spaces and a missing polarity (``+`` then).

    Raises:
        ValueError: something that is not ``Q<digits>`` with an optional ``+`` / ``-``.
    """
    parts = [p for p in text.replace(",", " ").split() if p]
    fixed = []
    for part in parts:
        qid, sign = (part[:-1], part[-1]) if part[-1:] in "+-" else (part, "+")
        if not (qid[:1] in "Qq" and qid[1:].isdigit() and len(qid) > 1):
            raise ValueError(f"{part!r} is not an entity id such as Q83495+ or Q2263-")
        fixed.append((f"Q{qid[1:]}", sign))
    return format_objects(fixed)


class CorrectionStore:
    """The ``log_corrections`` table (see the module docstring).

    Args:
        target: the SQLite file of the log, or the ``postgresql://`` URL.

    Raises:
        StoreError: the database cannot be opened.
    """

    def __init__(self, target: Path | str) -> None:
        self._db = SqlDatabase(target, SQLITE_SCHEMA)

    def save(self, correction: Correction) -> None:
        """Store (or replace) the correction of a turn.

        Raises:
            ValueError: an unknown intent, or objects not in the dataset's format.
            StoreError: the database cannot be written.
        """
        if not known_intent(correction.intent):
            raise ValueError(f"unknown intent {correction.intent!r}")
        objects = check_objects(correction.objects)
        when = correction.corrected_ms or int(time.time() * 1000)
        params = (correction.message_id, correction.session, correction.user_id, correction.intent, objects,
                  correction.logged_intent, correction.logged_objects, correction.note[:500], when)  # fmt: skip
        with self._db.transaction():
            self._db.execute("DELETE FROM log_corrections WHERE message_id = ?", (correction.message_id,))
            self._db.execute(
                "INSERT INTO log_corrections (message_id, session, user_id, intent, objects, logged_intent, "
                "logged_objects, note, corrected_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                params,
            )

    def delete(self, message_id: str) -> bool:
        """Undo the correction of a turn; True if there was one."""
        return self._db.execute("DELETE FROM log_corrections WHERE message_id = ?", (message_id,)) > 0

    def get(self, message_id: str) -> Correction | None:
        """The correction of a turn, or None."""
        rows = self._db.query(_SELECT + " WHERE message_id = ?", (message_id,))
        return _row(rows[0]) if rows else None

    def all(self, session: str | None = None) -> dict[str, Correction]:
        """Every correction (of one session), by message id."""
        if session is None:
            rows = self._db.query(_SELECT)
        else:
            rows = self._db.query(_SELECT + " WHERE session = ?", (session,))
        return {row[0]: _row(row) for row in rows}

    def count(self) -> int:
        """Number of corrections stored."""
        return int(self._db.query("SELECT COUNT(*) FROM log_corrections")[0][0])

    def close(self) -> None:
        """Close the connection."""
        self._db.close()

    def __enter__(self) -> CorrectionStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_SELECT = (
    "SELECT message_id, session, user_id, intent, objects, logged_intent, logged_objects, note, corrected_ms "
    "FROM log_corrections"
)


def _row(row: tuple[object, ...]) -> Correction:
    message_id, session, user_id, intent, objects, logged_intent, logged_objects, note, when = row
    return Correction(str(message_id), str(session), int(str(user_id)), str(intent), str(objects),
                      str(logged_intent), str(logged_objects), str(note), int(str(when)))  # fmt: skip


def apply_corrections(records: Iterable[LogRecord], corrections: Mapping[str, Correction]) -> list[LogRecord]:
    """The records with the corrections of their ``messageID`` applied: corrected intent and objects,
    ``toCheck = false``; records without a correction as they are (same order)."""
    out = []
    for record in records:
        fix = corrections.get(record.message_id)
        if fix is None:
            out.append(record)
            continue
        out.append(dataclasses.replace(record, intent=fix.intent, recognized_objects=fix.objects, to_check=False))
    return out


def open_for_log(log_path: Path | None) -> CorrectionStore:
    """The corrections beside the log the CLI reads: ``CORSBOT_DATABASE_URL``'s database when set (and
    no SQLite file is given), else ``log_path`` (default ``$CORSBOT_HOME/corsbot.sqlite3``).

    Raises:
        StoreError: the database cannot be opened.
    """
    from bot import paths
    from bot.compose import database_url

    url = database_url() if log_path is None else None
    if url is not None:
        return CorrectionStore(url)
    path = log_path or paths.database()
    if not Path(path).is_file():
        raise StoreError(f"{path}: no log database (nothing was logged yet?)")
    return CorrectionStore(path)
