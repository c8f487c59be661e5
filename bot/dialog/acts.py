"""Typed dialogue acts and state of the dialog: preference tasks, open questions, a handler's outcome.

A :class:`PreferenceTask` is one mention of a preference on its way to the profile ("I love the
Avengers": which Avengers? then stored with its polarity). An open question is one of the tagged
union :data:`OpenQuestion`; its ``kind`` names it in the policy table (``bot/dialog/policy.py``) and
in :class:`nlu.understand.View`. Values serialise to the JSON the state store keeps (the same shape
as the dicts of state version 1, so saved conversations resume).

Adding a kind of question: a dataclass here with a unique ``kind`` and ``to_json``/``from_json``,
listed in :data:`QUESTION_TYPES`; rows for its answers in the policy table; a line in
``View`` construction (``bot/dialog/manager.py`` ``_view``) if typed answers need option words.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar

from bot.turns import Choice


@dataclass(slots=True)
class PreferenceTask:
    """One mention on its way to the profile.

    Attributes:
        mention: the words the user typed ("the Avengers").
        candidates: QIDs offered (best first, at most ``MAX_CHOICES``); one once chosen.
        readings: every candidate of the words (a follow-up naming another is a correction).
        roles_hint: the roles to ask about for a person (the role said after the name, if any).
        ambiguous: ask "which one?" before storing.
        polarity: ``"+"``, ``"-"`` or ``"0"`` (no opinion said: "Did you like X?").
        role: the chosen role PID of a person, or None.
        roles: the roles offered by an open role question.
        all_values: the candidates are the values of one role of an item ("I don't like the
            director" of a suggested film): a yes stores them all with ``polarity``, a no none.
        answered: ``polarity`` is the user's yes / no to "Did you like X?", not an opinion the user
            stated: a bare name next is a new topic, not more of the same opinion (issue 22).
        partial: the words are only part of the candidate's name ("dunk" for Dunkirk), or part of a
            longer name typed around them ("Innocence" in "Songs of Innocence"): even one candidate is
            asked about; a full name with one unsure candidate is taken and said.
        taken: the linker took the best candidate among works of the same name by the KB's priors
            (``Mention.taken``: popularity, recency): stored, said, and "not that one" offered.
    """

    mention: str
    candidates: list[str]
    readings: list[str] = field(default_factory=list)
    roles_hint: list[str] = field(default_factory=list)
    ambiguous: bool = False
    polarity: str = "0"
    role: str | None = None
    roles: list[str] = field(default_factory=list)
    all_values: bool = False
    answered: bool = False
    partial: bool = False
    taken: bool = False

    @property
    def qid(self) -> str:
        """The best (or chosen) candidate."""
        return self.candidates[0]

    def copy(self, **changes: Any) -> PreferenceTask:
        """A copy with ``changes`` (lists copied, so the copy never aliases the original)."""
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        fields = {k: list(v) if isinstance(v, list) else v for k, v in fields.items()}
        fields.update(changes)
        return PreferenceTask(**fields)

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PreferenceTask:
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


def _choices_json(choices: tuple[Choice, ...]) -> list[dict[str, str]]:
    return [{"label": c.label, "payload": c.payload} for c in choices]


def _choices(data: Any) -> tuple[Choice, ...]:
    return tuple(Choice(str(c["label"]), str(c["payload"])) for c in data or ())


@dataclass(slots=True)
class PreferenceQuestion:
    """A question about a preference task: which item, which role, or did you like it.

    Attributes:
        question: the question as shown.
        task: the task it is about.
        queue: tasks of the same message still to process after it.
        stamp: the question's number, carried by its buttons' payloads (``pick:1@7``).
        choices: its buttons.
        origin: ``"preference"`` (a turn of preference acquisition) or ``"recommendation"``.
        ignored: turns it was ignored so far (it is dropped after ``QUESTION_LIFESPAN``).
        not_understood: a message at it was neither an answer nor understood (the next such one drops it).
        behind_card: it was kept open under a card shown after it (a list asked for meanwhile): the card is what
            the user sees last, and a message that is no plain answer to the question is about the card.
        asked_first: a request with nothing else to recommend from asked it again (once: never a loop).
    """

    kind: ClassVar[str] = ""
    context: ClassVar[str] = "property_type_disambiguation"
    question: str
    task: PreferenceTask
    queue: list[PreferenceTask] = field(default_factory=list)
    stamp: int | None = None
    choices: tuple[Choice, ...] = ()
    origin: str = "preference"
    ignored: int = 0
    not_understood: bool = False
    behind_card: bool = False
    asked_first: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "question": self.question,
            "entry": self.task.to_json(),
            "queue": [t.to_json() for t in self.queue],
            "stamp": self.stamp,
            "choices": _choices_json(self.choices),
            "origin": self.origin,
            "ignored": self.ignored,
            "not_understood": self.not_understood,
            "behind_card": self.behind_card,
            "asked_first": self.asked_first,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PreferenceQuestion:
        return cls(
            question=str(data.get("question", "")),
            task=PreferenceTask.from_json(data["entry"]),
            queue=[PreferenceTask.from_json(t) for t in data.get("queue", ())],
            stamp=data.get("stamp"),
            choices=_choices(data.get("choices")),
            origin=str(data.get("origin", "preference")),
            ignored=int(data.get("ignored", 0)),
            not_understood=bool(data.get("not_understood", False)),
            behind_card=bool(data.get("behind_card", False)),
            asked_first=bool(data.get("asked_first", False)),
        )


@dataclass(slots=True)
class ItemQuestion(PreferenceQuestion):
    """'Which "The Avengers" do you mean?' (the task's candidates)."""

    kind: ClassVar[str] = "item"


@dataclass(slots=True)
class RoleQuestion(PreferenceQuestion):
    """'Tom Cruise: do you mean as actor or producer?' (the task's ``roles``)."""

    kind: ClassVar[str] = "role"


@dataclass(slots=True)
class ConfirmQuestion(PreferenceQuestion):
    """'Did you like Memento?' (no opinion was said)."""

    kind: ClassVar[str] = "confirm"
    context: ClassVar[str] = "confirmation"


@dataclass(slots=True)
class OptionsQuestion:
    """Pick one of ``options`` (QIDs) or none: a critique target or a profile entry to delete."""

    kind: ClassVar[str] = ""
    question: str
    options: list[str]
    stamp: int | None = None
    choices: tuple[Choice, ...] = ()
    origin: str = "profile"
    polarity: str = "-"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "question": self.question,
            "options": list(self.options),
            "stamp": self.stamp,
            "choices": _choices_json(self.choices),
            "origin": self.origin,
            "polarity": self.polarity,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> OptionsQuestion:
        return cls(
            question=str(data.get("question", "")),
            options=[str(q) for q in data.get("options", ())],
            stamp=data.get("stamp"),
            choices=_choices(data.get("choices")),
            origin=str(data.get("origin", "profile")),
            polarity=str(data.get("polarity", "-")),
        )


@dataclass(slots=True)
class CritiqueChoice(OptionsQuestion):
    """'Which one do you mean: A, B?' after "I like it, but not the actors" (``polarity`` for the pick;
    ``role``: the role word said, so the pick is rated in that role only)."""

    kind: ClassVar[str] = "critique"
    role: str | None = None

    def to_json(self) -> dict[str, Any]:
        data = OptionsQuestion.to_json(self)
        if self.role:
            data["role"] = self.role
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CritiqueChoice:
        base = OptionsQuestion.from_json.__func__(cls, data)  # type: ignore[attr-defined]
        role = data.get("role")
        base.role = str(role) if role else None
        return base  # type: ignore[no-any-return]


@dataclass(slots=True)
class DeleteChoice(OptionsQuestion):
    """'Which "Top" do you mean?' before deleting a profile entry named in part."""

    kind: ClassVar[str] = "delete"


@dataclass(slots=True)
class ResetConfirm:
    """'Delete everything? yes/no' (``what``: ``everything``, ``items`` or ``properties``; ``after``: the opinions the
    reset's message said after it, "fresh start: I'm a big X fan", stored once the question is answered)."""

    kind: ClassVar[str] = "reset"
    what: str
    question: str
    origin: str = "profile"
    stamp: int | None = None
    choices: tuple[Choice, ...] = ()
    after: list[PreferenceTask] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "what": self.what,
            "question": self.question,
            "origin": self.origin,
            "after": [t.to_json() for t in self.after],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ResetConfirm:
        after = [PreferenceTask.from_json(t) for t in data.get("after", ())]
        return cls(what=str(data.get("what", "everything")), question=str(data.get("question", "")), after=after)


@dataclass(slots=True)
class ResetChoice:
    """'What should I reset: everything, only the movies, or only the properties?' (issue 22: a typed open
    question, so that a "yes" or a typed "everything" answers it and never rates a card on screen).

    ``scopes``: the options in order (``everything``, ``items``, ``properties``), chosen by the buttons
    ``reset:<scope>`` or typed words (``bot.dialog.profile.scope_words``); a chosen scope is the one confirmation a
    reset needs. ``after``: as :attr:`ResetConfirm.after`."""

    kind: ClassVar[str] = "reset_scope"
    question: str
    scopes: tuple[str, ...] = ("everything", "items", "properties")
    origin: str = "profile"
    stamp: int | None = None
    choices: tuple[Choice, ...] = ()
    after: list[PreferenceTask] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "question": self.question,
            "scopes": list(self.scopes),
            "choices": _choices_json(self.choices),
            "after": [t.to_json() for t in self.after],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ResetChoice:
        scopes = tuple(str(s) for s in data.get("scopes", ())) or ("everything", "items", "properties")
        after = [PreferenceTask.from_json(t) for t in data.get("after", ())]
        choices = _choices(data.get("choices"))
        return cls(question=str(data.get("question", "")), scopes=scopes, choices=choices, after=after)


@dataclass(slots=True)
class SuggestionQuestion:
    """'Do you like Scarface?' about an item the elicitation strategy suggested (issue 13).

    Answered by like / dislike / skip (buttons ``sugg:+|-|skip:<QID>@<stamp>``, or the same words typed;
    ``nlu.suggestion_answer.read_answer``); a new title instead is a preference, and the question is asked
    again after it (``ignored``: turns that left it unanswered; after ``QUESTION_LIFESPAN`` the next item
    comes; ``bot/dialog/suggestions.py``).
    """

    kind: ClassVar[str] = "suggestion"
    qid: str
    question: str
    stamp: int | None = None
    choices: tuple[Choice, ...] = ()
    origin: str = "preference"
    ignored: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "qid": self.qid,
            "question": self.question,
            "stamp": self.stamp,
            "choices": _choices_json(self.choices),
            "ignored": self.ignored,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SuggestionQuestion:
        return cls(
            qid=str(data["qid"]),
            question=str(data.get("question", "")),
            stamp=data.get("stamp"),
            choices=_choices(data.get("choices")),
            ignored=int(data.get("ignored", 0)),
        )


OpenQuestion = (
    ItemQuestion
    | RoleQuestion
    | ConfirmQuestion
    | CritiqueChoice
    | DeleteChoice
    | ResetChoice
    | ResetConfirm
    | SuggestionQuestion
)
"""The open question of a conversation (at most one; others wait in a preference question's queue)."""
QUESTION_TYPES: dict[str, type[Any]] = {
    cls.kind: cls
    for cls in (
        ItemQuestion,
        RoleQuestion,
        ConfirmQuestion,
        CritiqueChoice,
        DeleteChoice,
        ResetChoice,
        ResetConfirm,
        SuggestionQuestion,
    )
}
PREFERENCE_QUESTIONS = (ItemQuestion, RoleQuestion, ConfirmQuestion)
AnyPreferenceQuestion = ItemQuestion | RoleQuestion | ConfirmQuestion
"""An open question about a preference task."""


def question_from_json(data: Any) -> OpenQuestion | None:
    """The open question saved by ``to_json``; None for none or an unknown kind."""
    if not isinstance(data, dict) or data.get("kind") not in QUESTION_TYPES:
        return None
    try:
        return QUESTION_TYPES[data["kind"]].from_json(data)  # type: ignore[no-any-return]
    except (KeyError, TypeError, ValueError):
        return None


@dataclass(slots=True)
class Outcome:
    """What one handler produced: the reply and what the turn logs.

    Attributes:
        text, choices, image, card: the reply (``bot.turns.Reply``).
        events: the dataset events of the turn, in order.
        objects: ``(QID, polarity)`` recognized (stored) in the turn.
        webhook_contexts: contexts the original webhook set (name -> lifespan), visible next turn.
        settled: the turn answered or explicitly closed the open preference question.
        intent: the intent to log when the handler read the turn otherwise than the classifier
            (a "nah" heard as "reset - reset_everything - yes" cancels, and is logged as its "- no"),
            so that logs and the training data exported from them say what happened; None: the parse's.
    """

    text: str
    choices: tuple[Choice, ...] = ()
    image: str | None = None
    card: bool = False
    events: list[str] = field(default_factory=list)
    objects: list[tuple[str, str]] = field(default_factory=list)
    webhook_contexts: dict[str, int] = field(default_factory=dict)
    settled: bool = False
    intent: str | None = None
