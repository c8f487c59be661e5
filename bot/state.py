"""Per-user dialog state: active contexts, the pending question, the recommendation list, profiles.

The state is a JSON-serialisable dataclass. The dialog manager loads it from the
:class:`bot.store.StateStore` at the start of a turn, works on that copy, and saves it in the same
transaction that appends the turn's log record (``StateStore.commit_turn``), so a killed process never
loses a stored preference and a restarted bot resumes the conversation. The open question is typed
(``bot.dialog.acts.OpenQuestion``); its JSON is the dict of state version 1, so saved states load.

Profiles are kept per domain: ``profiles["movie"]["Q25139"] = {"polarity": "+", "role": "P57"}``
(``role`` is the property the user chose in a role disambiguation, or None for an item).

Example:
    >>> s = DialogState()
    >>> s.profile("movie")["Q1"] = {"polarity": "+", "role": None}
    >>> DialogState.from_json(s.to_json()).profile("movie")
    {'Q1': {'polarity': '+', 'role': None}}
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any

from bot.dialog.acts import OpenQuestion, PreferenceTask, question_from_json
from recommender.schema import Domain

STATE_VERSION = 1


@dataclass(slots=True)
class DialogState:
    """Working copy of one user's dialog state (see module docstring).

    Attributes:
        domain: active domain (``movie``, ``book``, ``music``).
        contexts: active contexts, name -> remaining lifespan in turns (DialogFlow semantics).
        logged_contexts: the contexts logged by the previous turn (the intent recognizer's input).
        logged_events: the events logged by the previous turn (also an input of the recognizer).
        pending: the open question (``bot.dialog.acts``: item, role, confirm, critique, delete, reset,
            suggestion),
            or None.
        rec_list: QIDs of the current recommendation list; ``rec_pos`` the index on screen.
        skipped: domain -> QIDs the user skipped (newest last, at most ``MAX_SKIPPED``): the next
            lists leave them out, so "more" after skipping a whole list shows new items.
        questions_asked: questions asked so far; the number of the open one is in its buttons'
            payloads ("pick:1@7"), so that a tap on an older question's button is refused.
        pagerank_cycle: PageRank runs so far (dataset ``pagerankCycle``).
        number_recommendation_list: recommendation lists presented so far (``numberRecommendationList``).
        profiles: domain -> QID -> ``{"polarity": "+"|"-", "role": PID|None}``.
        active: False once the user blocked the bot (Telegram 403).
        suggested: domain -> items the bot suggested to rate (``bot/dialog/suggestions.py``), oldest first:
            never suggested again, whatever the answer (rated, skipped, or a new title instead).
        suggestion_ratings: domain -> suggested items the user rated (the protocol stops at 5).
        preference_messages: domain -> messages stating a preference (the protocol starts at 3).
        last_stored: the preference entries stored by the previous turn (for one turn only): a
            follow-up such as "actor", "the 1998 one" or "none of them" refines them, as an answer
            to the role/item question the original system would have asked.
        session_constraints: domain -> constraints of the session ("not Radiohead this time", "no
            horror please"): ``{"qid": QID, "role": PID | None}``, never stored in the profile; they
            hold until /start, a domain switch, "stop", a profile reset or an opinion that says
            otherwise (``bot/dialog/constraints.py``).
        announced: domain -> keys of the constraints whose left-out items the bot already named
            ("I left out horror films, as you asked" is said once per constraint).
        asked_for_one: domains where a request with nothing liked was answered "Tell me one thing you like first":
            the next such request gets popular items, said so (issue 22-R).
        wants_list: the previous reply asked for one thing the user likes before a list ("Tell me one thing you
            like first"; for one turn only): a message of names alone answers it (issue 22-G).
        moved_on: the previous turn rated or skipped a card and showed the next one (for one turn only): a
            self-correction right after it is about the card before (``nlu.turn_cues.previous_card_opinion``).
        last_deleted: the profile entries the previous turn deleted, QID -> entry (for one turn only): "never mind,
            keep it" next puts them back (issue 22-R2).
    """

    domain: Domain = Domain.MOVIE
    contexts: dict[str, int] = field(default_factory=dict)
    logged_contexts: tuple[str, ...] = ()
    logged_events: tuple[str, ...] = ()
    pending: OpenQuestion | None = None
    rec_list: list[str] = field(default_factory=list)
    rec_pos: int = 0
    pagerank_cycle: int = 0
    number_recommendation_list: int = 0
    profiles: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    active: bool = True
    last_stored: list[PreferenceTask] = field(default_factory=list)
    skipped: dict[str, list[str]] = field(default_factory=dict)
    questions_asked: int = 0
    suggested: dict[str, list[str]] = field(default_factory=dict)
    suggestion_ratings: dict[str, int] = field(default_factory=dict)
    preference_messages: dict[str, int] = field(default_factory=dict)
    session_constraints: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    announced: dict[str, list[str]] = field(default_factory=dict)
    wants_list: bool = False
    asked_for_one: list[str] = field(default_factory=list)
    last_deleted: dict[str, dict[str, Any]] = field(default_factory=dict)
    moved_on: bool = False

    def profile(self, domain: str | None = None) -> dict[str, dict[str, Any]]:
        """The (mutable) profile of ``domain`` (default: the active domain)."""
        return self.profiles.setdefault(domain or self.domain, {})

    @property
    def focus(self) -> str | None:
        """The item on screen (current recommendation), or None."""
        if 0 <= self.rec_pos < len(self.rec_list):
            return self.rec_list[self.rec_pos]
        return None

    def to_json(self) -> str:
        """Serialise to a JSON string (with a version number)."""
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}  # shallow: json copies
        data["logged_contexts"] = list(self.logged_contexts)
        data["logged_events"] = list(self.logged_events)
        data["pending"] = self.pending.to_json() if self.pending is not None else None
        data["last_stored"] = [task.to_json() for task in self.last_stored]
        data["version"] = STATE_VERSION
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, raw: str | None) -> DialogState:
        """Parse :meth:`to_json` output; None, empty or unreadable gives a fresh state."""
        if not raw:
            return cls()
        try:
            data = json.loads(raw)
        except ValueError:
            return cls()
        names = {f.name for f in dataclasses.fields(cls)}
        kwargs = {k: v for k, v in data.items() if k in names}
        kwargs["logged_contexts"] = tuple(kwargs.get("logged_contexts", ()))
        kwargs["logged_events"] = tuple(kwargs.get("logged_events", ()))
        kwargs["pending"] = question_from_json(kwargs.get("pending"))
        kwargs["last_stored"] = [
            PreferenceTask.from_json(t)
            for t in kwargs.get("last_stored", ())
            if isinstance(t, dict) and t.get("candidates")
        ]
        kwargs["domain"] = (
            Domain(kwargs["domain"]) if kwargs.get("domain") in Domain.__members__.values() else Domain.MOVIE
        )
        return cls(**kwargs)
