"""Dataset message records: the one place that converts to and from the ConveRSE JSON format.

A released file (``../shared/data/converse/<domain>/messages_<kind>.json``) is a JSON array of
objects with exactly 13 keys, in this order and with these JSON types::

    messageID (str), userID (int), message (str), timestampStart (int, ms since epoch),
    timestampEnd (int, ms), intent (str), contexts (str, ", "-separated), toCheck (bool),
    recognizedObjects (str, "Q83495+, Q2263-"), events (str, ", "-separated),
    pagerankCycle (int), numberRecommendationList (int), interactionType (str, "NL" | "mixed")

:class:`LogRecord` holds them in snake_case. Reading a released file and calling
:meth:`LogRecord.to_json` on every record gives back the original list of dicts exactly (same keys,
same order, same values and types).

Leniency (files written by other versions of the system)
---------------------------------------------------------
:meth:`LogRecord.from_json` accepts:

- **missing fields** (e.g. no ``contexts``): the default of :data:`DEFAULTS` is used; a missing
  ``timestampEnd`` takes the value of ``timestampStart``, a missing ``timestampStart`` that of
  ``timestampEnd`` (0 when both are missing);
- **extra fields**: kept, in their order, in :attr:`LogRecord.extra` (a read-only mapping) and
  written back after the 13 dataset keys;
- ``null`` for any field: treated like a missing field;
- ``messageID`` of any JSON scalar type: converted to ``str`` (``12`` -> ``"12"``);
- integers given as strings (``"1523436724000"``) or as integral floats (``3.0``);
- ``toCheck`` given as ``0``/``1`` or ``"true"``/``"false"`` (any case);
- ``events``, ``contexts`` or ``recognizedObjects`` given as JSON lists of strings: joined the
  dataset's way (``", "``);
- ``userID`` given as a string: a decimal string becomes that int (``"42"`` -> ``42``); any other
  non-empty string (e.g. ``"alice"``) is mapped to a **stable negative int** (see
  :func:`user_id_from`: the first 7 bytes of its BLAKE2b digest, negated), so it cannot collide
  with the positive ids of the dataset and the same string always gives the same id. The original
  string is then kept in ``extra["userIDOriginal"]`` so that nothing is lost on write.

A record is **truly unusable**, and :class:`RecordError` is raised, only when:

- it is not a JSON object;
- it has no usable user id (``userID`` missing, ``null``, empty, a bool, a non-integral number,
  a list/object): the record cannot be placed in any conversation;
- it has no ``message`` key at all or a ``message`` that is not a string or ``null``
  (``null`` is read as the empty message, e.g. a sticker);
- a field is present with a value that cannot be read as its type (e.g. ``"timestampStart":
  "yesterday"``, ``"toCheck": "maybe"``): silently replacing garbage would corrupt the log.

:func:`read_records` (or :func:`iter_records`, one record at a time) skips unusable records and reports each in ``ReadResult.problems`` (one line
each, naming the file, the position and the reason), so one bad record never loses a file.

Example:
    >>> rec = LogRecord.from_json({"messageID": 7, "userID": "3", "message": "hi"})
    >>> rec.message_id, rec.user_id, rec.contexts, rec.to_check
    ('7', 3, '', True)
"""

from __future__ import annotations

import errno
import hashlib
import json
import logging
import math
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from corsbot_errors import CorsbotError
from logs.dbaccess import not_writable
from logs.jsonstream import JsonStreamError, read_array_file
from logs.output import write_text
from logs.schema import join_list

__all__ = [
    "DATASET_FIELDS",
    "DEFAULTS",
    "ORIGINAL_USER_ID_KEY",
    "LogRecord",
    "ReadResult",
    "RecordError",
    "conversation_order",
    "conversations",
    "read_records",
    "user_id_from",
    "write_records",
]

logger = logging.getLogger(__name__)

#: The dataset's 13 JSON keys, in the order of the released files.
DATASET_FIELDS: tuple[str, ...] = (
    "messageID",
    "userID",
    "message",
    "timestampStart",
    "timestampEnd",
    "intent",
    "contexts",
    "toCheck",
    "recognizedObjects",
    "events",
    "pagerankCycle",
    "numberRecommendationList",
    "interactionType",
)

#: Values used for fields missing in a file written by another version of the system.
#: ``toCheck`` defaults to True: a message nobody judged is not silver standard.
DEFAULTS: Mapping[str, object] = MappingProxyType(
    {
        "messageID": "",
        "intent": "",
        "contexts": "",
        "toCheck": True,
        "recognizedObjects": "",
        "events": "",
        "pagerankCycle": 0,
        "numberRecommendationList": 0,
        "interactionType": "",
    }
)

#: Key of ``extra`` holding a non-numeric original ``userID`` string.
ORIGINAL_USER_ID_KEY = "userIDOriginal"

_EMPTY: Mapping[str, object] = MappingProxyType({})


class RecordError(CorsbotError, ValueError):
    """A record or a dataset file cannot be used (message names the file/field and the reason)."""


@dataclass(frozen=True, slots=True)
class LogRecord:
    """One user message with what the system did with it, as in the ConveRSE dataset.

    Attributes:
        message_id: ``messageID`` (any string; the released files use decimal strings).
        user_id: ``userID`` (per-file int; see :func:`user_id_from` for string ids).
        message: the user's text (button texts for mixed interaction).
        timestamp_start: ``timestampStart``, ms since the Unix epoch.
        timestamp_end: ``timestampEnd``, ms since the Unix epoch.
        intent: the DialogFlow intent name (see :class:`logs.schema.Intent`; smalltalk allowed).
        contexts: output contexts after the message, ``", "``-separated.
        to_check: ``toCheck``; False = inside a cleanly completed task (silver standard).
        recognized_objects: ``"Q83495+, Q2263-"`` (see :func:`logs.schema.format_objects`).
        events: system actions, ``", "``-separated (see :class:`logs.schema.Event`).
        pagerank_cycle: number of PageRank runs so far for this user.
        number_recommendation_list: number of finished recommendation lists so far.
        interaction_type: ``"NL"`` or ``"mixed"``.
        extra: unknown fields of other versions, read-only, written back after the 13 keys.
            Not part of the hash (equal records still hash equal).
    """

    message_id: str
    user_id: int
    message: str
    timestamp_start: int
    timestamp_end: int
    intent: str
    contexts: str
    to_check: bool
    recognized_objects: str
    events: str
    pagerank_cycle: int
    number_recommendation_list: int
    interaction_type: str
    extra: Mapping[str, object] = field(default_factory=lambda: _EMPTY, hash=False)

    def __post_init__(self) -> None:
        if not isinstance(self.extra, MappingProxyType):
            object.__setattr__(self, "extra", MappingProxyType(dict(self.extra)))

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # mappingproxy does not pickle: rebuild from a plain dict (pickle/copy/multiprocessing).
        values = tuple(getattr(self, name) for name in self.__slots__ if name != "extra")
        return (_rebuild, (values, dict(self.extra)))

    @classmethod
    def from_json(cls, obj: object) -> LogRecord:
        """Build a record from one JSON object of a dataset file (leniently, see module doc).

        Args:
            obj: a decoded JSON value, normally a dict with the dataset's keys.

        Returns:
            The record; unknown keys are kept in ``extra``.

        Raises:
            RecordError: the record is truly unusable (not an object, no user id, no message,
                a present field with an unreadable value); the message names the field.
        """
        if not isinstance(obj, Mapping):
            raise RecordError(f"not a JSON object but {_json_type(obj)}")
        get = {k: v for k, v in obj.items() if v is not None}.get
        if "message" not in obj:
            raise RecordError("no 'message' field")
        message = obj["message"]
        if message is None:
            message = ""
        if not isinstance(message, str):
            raise RecordError(f"'message' is {_json_type(message)}, not a string")
        extra: dict[str, object] = {k: v for k, v in obj.items() if k not in DATASET_FIELDS}
        raw_user = get("userID")
        user_id = user_id_from(raw_user)
        if isinstance(raw_user, str) and not _is_decimal(raw_user):
            extra.setdefault(ORIGINAL_USER_ID_KEY, raw_user)
        start = get("timestampStart")
        end = get("timestampEnd")
        start = _as_int(start, "timestampStart") if start is not None else None
        end = _as_int(end, "timestampEnd") if end is not None else None
        if start is None:
            start = end if end is not None else 0
        if end is None:
            end = start
        return cls(
            message_id=_as_id(get("messageID", DEFAULTS["messageID"])),
            user_id=user_id,
            message=message,
            timestamp_start=start,
            timestamp_end=end,
            intent=_as_str(get("intent", DEFAULTS["intent"]), "intent"),
            contexts=_as_list_str(get("contexts", DEFAULTS["contexts"]), "contexts"),
            to_check=_as_bool(get("toCheck", DEFAULTS["toCheck"]), "toCheck"),
            recognized_objects=_as_list_str(
                get("recognizedObjects", DEFAULTS["recognizedObjects"]), "recognizedObjects"
            ),
            events=_as_list_str(get("events", DEFAULTS["events"]), "events"),
            pagerank_cycle=_as_int(get("pagerankCycle", DEFAULTS["pagerankCycle"]), "pagerankCycle"),
            number_recommendation_list=_as_int(
                get("numberRecommendationList", DEFAULTS["numberRecommendationList"]),
                "numberRecommendationList",
            ),
            interaction_type=_as_str(get("interactionType", DEFAULTS["interactionType"]), "interactionType"),
            extra=extra,
        )

    def to_json(self) -> dict[str, object]:
        """The dataset's JSON object: the 13 keys in the dataset's order, then ``extra``.

        Returns:
            A new dict; types as in the released files (messageID str, userID int, timestamps
            int ms, toCheck bool, pagerankCycle/numberRecommendationList int, the rest str).
        """
        out: dict[str, object] = {
            "messageID": self.message_id,
            "userID": self.user_id,
            "message": self.message,
            "timestampStart": self.timestamp_start,
            "timestampEnd": self.timestamp_end,
            "intent": self.intent,
            "contexts": self.contexts,
            "toCheck": self.to_check,
            "recognizedObjects": self.recognized_objects,
            "events": self.events,
            "pagerankCycle": self.pagerank_cycle,
            "numberRecommendationList": self.number_recommendation_list,
            "interactionType": self.interaction_type,
        }
        for key, value in self.extra.items():
            out.setdefault(key, value)
        return out


def _rebuild(values: tuple[object, ...], extra: dict[str, object]) -> LogRecord:
    return LogRecord(*values, extra=extra)  # type: ignore[arg-type,misc]


@dataclass(frozen=True, slots=True)
class ReadResult:
    """What :func:`read_records` got out of a file.

    Attributes:
        records: the usable records, in file order.
        problems: one line per skipped record (``"<file>: record 17 (messageID '9'): <reason>"``).
    """

    records: tuple[LogRecord, ...]
    problems: tuple[str, ...] = ()


def user_id_from(value: object) -> int:
    """A dataset ``userID`` (int) from an int, a decimal string or any other non-empty string.

    Ints (and integral floats) are kept; decimal strings (``"42"``, ``" -3 "``) are parsed; any
    other non-empty string is mapped to ``-(int of the first 7 bytes of its BLAKE2b digest) - 1``:
    stable across runs and machines, negative so it never collides with the dataset's positive ids.
    Channels with string user ids (e.g. Telegram chat ids as text) use this too.

    Raises:
        RecordError: ``value`` is None, empty, a bool or not an int/str/integral float.
    """
    if isinstance(value, bool) or value is None:
        raise RecordError(f"no usable 'userID' ({_json_type(value)})")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        if not text:
            raise RecordError("no usable 'userID' (empty string)")
        if _is_decimal(text):
            return int(text)
        digest = hashlib.blake2b(text.encode("utf-8"), digest_size=7).digest()
        return -int.from_bytes(digest, "big") - 1
    raise RecordError(f"no usable 'userID' ({_json_type(value)})")


def read_records(path: str | os.PathLike[str]) -> ReadResult:
    """Read a dataset-format JSON file (a JSON array of message objects).

    Args:
        path: the file (a regular file, a pipe such as ``<(zcat f.json.gz)``, or a FIFO).

    Returns:
        ``ReadResult(records, problems)``: usable records in file order; unusable ones are skipped
        and described in ``problems`` (also logged at INFO: the caller tells the user).

    Raises:
        RecordError: the file is missing, a directory, unreadable, not UTF-8 JSON, not a JSON array,
            nested too deeply, holds an unreadable number, or is a FIFO with no writer (the
            message names the file; see :mod:`logs.jsonstream`).
    """
    problems: list[str] = []
    records = tuple(iter_records(path, problems))
    return ReadResult(records=records, problems=tuple(problems))


def iter_records(path: str | os.PathLike[str], problems: list[str] | None = None) -> Iterator[LogRecord]:
    """Stream the usable records of a dataset-format file, one at a time (memory: one record).

    Args:
        path: as for :func:`read_records`.
        problems: where to append one line per skipped record (None: only logged).

    Raises:
        RecordError: as :func:`read_records`, when the problem is met (records before it were yielded).
    """
    name = os.fspath(path)
    try:
        for position, obj in enumerate(read_array_file(path)):
            try:
                yield LogRecord.from_json(obj)
            except RecordError as exc:
                where = f"record {position}"
                if isinstance(obj, Mapping) and obj.get("messageID") is not None:
                    where += f" (messageID {str(obj['messageID'])[:40]!r})"
                problem = f"{name}: {where}: {exc}"
                logger.info("skipping unusable record: %s", problem)  # callers get it in `problems` and tell the user
                if problems is not None:
                    problems.append(problem)
    except JsonStreamError as exc:
        raise RecordError(str(exc)) from None


def write_records(path: str | os.PathLike[str], records: Iterable[LogRecord]) -> None:
    """Write records as a dataset-format JSON array.

    A regular file (or a new path) is written atomically (temp file + rename); ``-`` means standard
    output, and a symlink, device or FIFO is written through, never replaced
    (:func:`logs.output.write_text`).

    Args:
        path: the target; its parent folder is created if needed.
        records: the records, written in the given order with :meth:`LogRecord.to_json`.

    Raises:
        RecordError: the output cannot be written (message names it and the reason, e.g.
            "No space left on device").
    """
    payload = [record.to_json() for record in records]
    text = json.dumps(payload, ensure_ascii=False, indent=2) + "\n"
    try:
        write_text(path, text)
    except BrokenPipeError:  # the reader of stdout or a FIFO left (`| head`): the CLI stops quietly
        raise
    except OSError as exc:
        why = not_writable(Path(path)) if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS) else None
        raise RecordError(f"{path}: cannot write ({why or exc.strerror or exc})") from exc


def conversations(records: Iterable[LogRecord]) -> dict[int, list[LogRecord]]:
    """Group records by user and sort each user's records by ``timestamp_start``.

    The sort is stable (records with equal timestamps keep their input order, which matters
    because the released timestamps have 1-s resolution). Keys are in ascending user-id order.

    Returns:
        ``{user_id: [record, ...]}``.
    """
    by_user: dict[int, list[LogRecord]] = {}
    for record in records:
        by_user.setdefault(record.user_id, []).append(record)
    return {user: sorted(by_user[user], key=lambda r: r.timestamp_start) for user in sorted(by_user)}


def conversation_order(records: Sequence[LogRecord]) -> list[int]:
    """Indices of ``records`` ordered by user id, then timestamp_start (stable).

    Useful to process records conversation by conversation and map results back to input order.
    """
    return sorted(range(len(records)), key=lambda i: (records[i].user_id, records[i].timestamp_start))


# --- value readers -----------------------------------------------------------------------------


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "an array"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def _is_decimal(text: str) -> bool:
    text = text.strip()
    if text[:1] in "+-":
        text = text[1:]
    return text.isascii() and text.isdigit()


def _as_int(value: object, name: str) -> int:
    if isinstance(value, bool):
        raise RecordError(f"'{name}' is a boolean, not an integer")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip() and _is_decimal(value):
        return int(value.strip())
    raise RecordError(f"'{name}' is not an integer: {value!r:.40}")


def _as_bool(value: object, name: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "0", "1"):
        return value.strip().lower() in ("true", "1")
    raise RecordError(f"'{name}' is not a boolean: {value!r:.40}")


def _as_str(value: object, name: str) -> str:
    if isinstance(value, str):
        return value
    raise RecordError(f"'{name}' is {_json_type(value)}, not a string")


def _as_list_str(value: object, name: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return join_list(value)
    raise RecordError(f"'{name}' is {_json_type(value)}, not a string")


def _as_id(value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return str(value)
    return json.dumps(value, ensure_ascii=False, sort_keys=True)
