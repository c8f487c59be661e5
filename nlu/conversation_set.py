"""The scripted conversations of ``corsbot nlu evaluate-conversations`` (issue 22): their format and loading.

The format is specified in ``tests/data/conversations/README.md``: one conversation per line, a fresh
user in one domain, each scripted turn a typed text or a tap on a card's button, with optional
expectations about the state after it. :func:`load_conversations` reads and validates a file; every
mistake is one :class:`~nlu.errors.NluError` naming the file, the line, the conversation and the turn
(an expectation with a typo would otherwise silently check nothing). Scoring: :mod:`nlu.conversation_eval`.

Example (one line of a file)::

    {"id": "movie-d001", "domain": "movie", "tags": ["multi"],
     "turns": [{"text": "i loved inception", "expect": {"stored": [{"label": "Inception", "qid": "Q25188",
                                                                    "polarity": "+"}]}},
               {"text": "recommend me something", "expect": {"list": true}}]}

    load_conversations(path)[0].turns[0].expect.stored[0].qid   # 'Q25188'
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from logs.schema import Intent, is_smalltalk
from nlu.errors import NluError
from recommender.schema import role_words_for

__all__ = [
    "ASK_KINDS",
    "DOMAINS",
    "PRESSES",
    "ROLES",
    "Conversation",
    "Entity",
    "Exclusion",
    "Expectation",
    "ScriptedTurn",
    "load_conversations",
]

DOMAINS = ("movie", "book", "music")
KINDS = ("item", "person", "band", "genre", "series")
POLARITIES = ("+", "-", "ask")
ANSWERS = ("+", "-", "skip")
ROLES = ("director", "actor", "author", "performer", "composer", "screenwriter", "producer")
"""Roles a person is liked or disliked in (the README's ``role``)."""
REFS = ("card", "suggested")
PRESSES = ("like", "dislike", "skip", "why", "details", "next", "trailer")
"""Buttons a ``press`` turn taps (the README's, and the card's trailer button)."""
ASK_KINDS = ("item", "role", "confirm")
_QID = re.compile(r"^Q[1-9]\d*$")
_CONVERSATION_KEYS = frozenset({"id", "domain", "tags", "turns"})
_TURN_KEYS = frozenset({"text", "press", "expect"})
_EXPECT_KEYS = frozenset({"stored", "not_stored", "list", "list_excludes", "asks", "intent", "domain", "empty"})
_ENTITY_KEYS = frozenset({"label", "qid", "kind", "polarity", "answer", "role", "ref", "mention"})
_EXCLUSION_KEYS = frozenset({"qid", "value", "role", "label"})


class _Invalid(ValueError):
    """A field of a conversation is not as the README says (the message says which)."""


@dataclass(frozen=True, slots=True)
class Entity:
    """An entity a turn expects stored (or not stored), as in the README's *Entities*.

    Attributes:
        label: its usual name ("" for a ``ref`` entity or a ``not_stored`` one given by QID only).
        qid: its QID in the domain's KB, or None (the KB lacks it or namesakes cannot be told apart).
        kind: ``item``, ``person``, ``band``, ``genre``, ``series`` or None.
        polarity: ``+``, ``-``, ``ask`` (a hedge: nothing stored, or asked and then the answer stored),
            or None (a ``not_stored`` entity that must not be held with any polarity).
        answer: for ``ask``: the user's answer if asked, ``+``, ``-`` or ``skip``.
        role: the role a person is liked in (``director``...), or None.
        ref: ``card`` (the item of the card on screen) or ``suggested`` (the item the bot just asked
            about) instead of a QID; with ``role``: that item's people in the role.
        mention: the words of the turn that name it ("" if not given).
    """

    label: str = ""
    qid: str | None = None
    kind: str | None = None
    polarity: str | None = None
    answer: str = "skip"
    role: str | None = None
    ref: str | None = None
    mention: str = ""

    def describe(self) -> str:
        """A short name for reports: ``Inception Q25188+``, ``card director-``."""
        name = self.label or (f"{self.ref} {self.role}" if self.ref and self.role else self.ref or "")
        return f"{name} {self.qid or ''}".strip() + (self.polarity or "")


@dataclass(frozen=True, slots=True)
class Exclusion:
    """A constraint of ``list_excludes``: not the item ``qid``; no item with the KB value ``value``
    (in ``role`` only, when given)."""

    qid: str | None = None
    value: str | None = None
    role: str | None = None


@dataclass(frozen=True, slots=True)
class Expectation:
    """What must hold after a scripted turn (README *Expectations of a turn*); None / empty = unchecked.

    Attributes:
        stored, not_stored: entities the profile must (not) hold after the turn.
        shows_list: the README's ``list``: a recommendation card is (True) or is not (False) shown.
        list_excludes: constraints on every item shown by the turn.
        asks: True / False: a question is (not) asked; ``item``, ``role``, ``confirm``: that kind.
        intents: the accepted logged intents of the turn.
        domain: the domain after the turn.
        empty: domains whose profile must be empty after the turn.
    """

    stored: tuple[Entity, ...] = ()
    not_stored: tuple[Entity, ...] = ()
    shows_list: bool | None = None
    list_excludes: tuple[Exclusion, ...] = ()
    asks: bool | str | None = None
    intents: tuple[str, ...] | None = None
    domain: str | None = None
    empty: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class ScriptedTurn:
    """One user turn: typed ``text`` or a ``press`` of a card button (``like``, ``why``...)."""

    text: str | None = None
    press: str | None = None
    expect: Expectation = field(default_factory=Expectation)

    def said(self) -> str:
        """What the user did, for reports: the text, or ``[press like]``."""
        return self.text if self.text is not None else f"[press {self.press}]"


@dataclass(frozen=True, slots=True)
class Conversation:
    """One line of a conversation file (README *Format*); ``line`` is its line number in the file."""

    id: str
    domain: str
    tags: tuple[str, ...]
    turns: tuple[ScriptedTurn, ...]
    line: int = 0


def load_conversations(path: Path) -> list[Conversation]:
    """Read and validate a conversation file (JSON lines; blank lines skipped).

    Raises:
        NluError: the file cannot be read, or a line is not a valid conversation; the message names
            ``<file>:<line>``, the conversation and the turn, e.g. ``dev.jsonl:7: movie-d007 turn 3:
            unknown expectation 'stord'``. Ids must be unique in the file.
    """
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise NluError(f"cannot read the conversation file {path}: {exc}") from exc
    out: list[Conversation] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError as exc:
            raise NluError(f"{path}:{number}: not JSON ({exc})") from exc
        try:
            conversation = _conversation(obj, number)
        except _Invalid as exc:
            raise NluError(f"{path}:{number}: {exc}") from exc
        if conversation.id in seen:
            raise NluError(f"{path}:{number}: id {conversation.id!r} already used on line {seen[conversation.id]}")
        seen[conversation.id] = number
        out.append(conversation)
    return out


def _conversation(obj: Any, number: int) -> Conversation:
    if not isinstance(obj, dict):
        raise _Invalid("not a JSON object")
    _known(obj, _CONVERSATION_KEYS, "field")
    ident = obj.get("id")
    if not isinstance(ident, str) or not ident.strip():
        raise _Invalid("'id' must be a non-empty string")
    domain = _choice(obj.get("domain"), DOMAINS, f"{ident}: 'domain'")
    tags = obj.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise _Invalid(f"{ident}: 'tags' must be a list of strings")
    turns = obj.get("turns")
    if not isinstance(turns, list) or not turns:
        raise _Invalid(f"{ident}: 'turns' must be a non-empty list")
    parsed = []
    for k, turn in enumerate(turns, 1):
        try:
            parsed.append(_turn(turn, domain))
        except _Invalid as exc:
            raise _Invalid(f"{ident} turn {k}: {exc}") from exc
    return Conversation(ident, domain, tuple(tags), tuple(parsed), number)


def _turn(obj: Any, domain: str) -> ScriptedTurn:
    if not isinstance(obj, dict):
        raise _Invalid("not a JSON object")
    _known(obj, _TURN_KEYS, "field")
    text, press = obj.get("text"), obj.get("press")
    if (text is None) == (press is None):
        raise _Invalid("give exactly one of 'text' and 'press'")
    if text is not None and (not isinstance(text, str) or not text.strip()):
        raise _Invalid("'text' must be a non-empty string")
    if press is not None:
        _choice(press, PRESSES, "'press'")
    expect = obj.get("expect", {})
    if not isinstance(expect, dict):
        raise _Invalid("'expect' must be an object")
    return ScriptedTurn(text, press, _expectation(expect, domain))


def _expectation(obj: Mapping[str, Any], domain: str) -> Expectation:
    _known(obj, _EXPECT_KEYS, "expectation")
    stored = tuple(_entity(e, "stored") for e in _list(obj, "stored"))
    not_stored = tuple(_entity(e, "not_stored") for e in _list(obj, "not_stored"))
    shows_list = obj.get("list")
    if shows_list is not None and not isinstance(shows_list, bool):
        raise _Invalid("'list' must be true or false")
    asks = obj.get("asks")
    if asks is not None and not isinstance(asks, bool):
        _choice(asks, ASK_KINDS, "'asks'")
    intents = obj.get("intent")
    if intents is not None:
        intents = [intents] if isinstance(intents, str) else intents
        if not isinstance(intents, list) or not intents:
            raise _Invalid("'intent' must be an intent name or a non-empty list of them")
        for name in intents:
            if not isinstance(name, str) or not (name in Intent._value2member_map_ or is_smalltalk(name)):
                raise _Invalid(f"unknown intent {name!r} (see logs/schema.py Intent)")
        intents = tuple(intents)
    after = obj.get("domain")
    if after is not None:
        _choice(after, DOMAINS, "'domain'")
    empty = obj.get("empty")
    if empty is not None:
        if not isinstance(empty, list):
            raise _Invalid("'empty' must be a list of domains")
        empty = tuple(_choice(d, DOMAINS, "'empty'") for d in empty)
    excludes = tuple(_exclusion(e, domain) for e in _list(obj, "list_excludes"))
    return Expectation(stored, not_stored, shows_list, excludes, asks, intents, after, empty)


def _entity(obj: Any, where: str) -> Entity:
    if not isinstance(obj, dict):
        raise _Invalid(f"'{where}': an entity must be an object")
    _known(obj, _ENTITY_KEYS, f"'{where}' entity field")
    ref = obj.get("ref")
    if ref is not None:
        _choice(ref, REFS, f"'{where}' 'ref'")
        if obj.get("qid") is not None:
            raise _Invalid(f"'{where}': give 'ref' or 'qid', not both")
    qid = obj.get("qid")
    if qid is not None and (not isinstance(qid, str) or not _QID.match(qid)):
        raise _Invalid(f"'{where}': 'qid' must be a QID (Q123) or null, not {qid!r}")
    label = obj.get("label", "")
    if not isinstance(label, str):
        raise _Invalid(f"'{where}': 'label' must be a string")
    if ref is None and where == "stored" and (not label.strip() or "qid" not in obj):
        raise _Invalid(f"'{where}': an entity needs 'label' and 'qid' (null when the KB lacks it), or 'ref'")
    if ref is None and where == "not_stored" and qid is None and not label.strip():
        raise _Invalid(f"'{where}': an entity needs a 'qid', a 'label' or a 'ref'")
    polarity = obj.get("polarity")
    if where == "stored" or polarity is not None:
        allowed = POLARITIES if where == "stored" else POLARITIES[:2]
        _choice(polarity, allowed, f"'{where}' 'polarity'")
    answer = obj.get("answer", "skip")
    _choice(answer, ANSWERS, f"'{where}' 'answer'")
    if "answer" in obj and polarity != "ask":
        raise _Invalid(f"'{where}': 'answer' goes with polarity 'ask' only")
    kind = obj.get("kind")
    if kind is not None:
        _choice(kind, KINDS, f"'{where}' 'kind'")
    role = obj.get("role")
    if role is not None:
        _choice(role, ROLES, f"'{where}' 'role'")
    mention = obj.get("mention", "")
    if not isinstance(mention, str):
        raise _Invalid(f"'{where}': 'mention' must be a string")
    return Entity(label, qid, kind, polarity, answer, role, ref, mention)


def _exclusion(obj: Any, domain: str) -> Exclusion:
    if not isinstance(obj, dict):
        raise _Invalid("'list_excludes': a constraint must be an object")
    _known(obj, _EXCLUSION_KEYS, "'list_excludes' field")
    qid, value, role = obj.get("qid"), obj.get("value"), obj.get("role")
    if (qid is None) == (value is None):
        raise _Invalid("'list_excludes': give exactly one of 'qid' and 'value'")
    for name, given in (("qid", qid), ("value", value)):
        if given is not None and (not isinstance(given, str) or not _QID.match(given)):
            raise _Invalid(f"'list_excludes': '{name}' must be a QID (Q123), not {given!r}")
    if role is not None:
        if value is None:
            raise _Invalid("'list_excludes': 'role' goes with 'value' only")
        if not isinstance(role, str) or role not in role_words_for(domain):
            raise _Invalid(f"'list_excludes': unknown role {role!r} (a role word of recommender/schema.py)")
    return Exclusion(qid, value, role)


def _list(obj: Mapping[str, Any], key: str) -> list[Any]:
    value = obj.get(key, [])
    if not isinstance(value, list):
        raise _Invalid(f"'{key}' must be a list")
    return value


def _known(obj: Mapping[str, Any], keys: frozenset[str], what: str) -> None:
    unknown = sorted(set(obj) - keys)
    if unknown:
        raise _Invalid(f"unknown {what} {unknown[0]!r} (known: {', '.join(sorted(keys))})")


def _choice(value: Any, allowed: tuple[str, ...], what: str) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise _Invalid(f"{what} must be one of {', '.join(allowed)}, not {value!r}")
    return value
