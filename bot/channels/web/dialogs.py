"""The web channel's side of the dialog, as it runs in a dialog worker process (:mod:`bot.dialog_pool`):
one :class:`bot.dialog.DialogManager` per study condition, all on the same services, and each turn's
reply returned with what was logged for it (no web framework imported here).

:class:`StudyDialogs` is a ``DialogHandler`` (``handle(turn) -> Reply``): it looks up the turn's user
(``web:<pid>`` or ``sim:<pid>``) in ``web_participants`` (:mod:`bot.channels.web.store`; a
participant's condition never changes, so it is remembered), hands the turn to the dialog manager of
the participant's condition (an evaluator's conversation: the study's first condition, logged in the
evaluator's session) and returns an :class:`AnnotatedReply`: the :class:`bot.turns.Reply` plus the
logged ``messageID``, intent, events, objects and toCheck flag, the intent classifier's confidence and
the domain after the turn. The dialog manager itself knows nothing of the web.

Built in each worker by a picklable ``functools.partial(build_study_dialogs, db=..., study=...)``.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.channels.web.store import EVALUATOR, Annotation, Participant, WebStore
from bot.channels.web.study import StudyConfig
from bot.turns import Reply, Turn

if TYPE_CHECKING:
    from bot.dialog import DialogManager
    from bot.services import Services

__all__ = ["AnnotatedReply", "RecordingIntents", "StudyDialogs", "build_study_dialogs"]

_KNOWN_USERS = 10_000
"""Participants whose condition a worker remembers (then it forgets them all and reads them again)."""


@dataclass(frozen=True, slots=True)
class AnnotatedReply(Reply):
    """A reply with what was logged for its turn (:class:`bot.channels.web.store.Annotation`)."""

    annotation: Annotation = field(default_factory=Annotation)


class RecordingIntents:
    """Wraps the intent model and keeps, per thread, the classifier's top probability of the last
    prediction (the confidence the review queue filters on; the dataset format does not log it)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self._local = threading.local()

    def predict(
        self, text: str, contexts: Sequence[str] = (), *, events: Sequence[str] | None = None, domain: str | None = None
    ) -> Any:
        """The inner model's prediction (recorded)."""
        prediction = self.inner.predict(text, contexts, events=events, domain=domain)
        alternatives = getattr(prediction, "alternatives", ())
        self._local.confidence = float(alternatives[0][1]) if alternatives else float(prediction.confidence)
        return prediction

    def reset(self) -> None:
        """Forget the last prediction (before a turn)."""
        self._local.confidence = None

    @property
    def last_confidence(self) -> float | None:
        """The top probability of this thread's last prediction since :meth:`reset`, or None."""
        return getattr(self._local, "confidence", None)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class StudyDialogs:
    """The dialog managers of a study's conditions (see the module docstring).

    Args:
        db: the SQLite database (state, log, web tables) when ``CORSBOT_DATABASE_URL`` is not set.
        study: the study.
        services: prebuilt services (default: :func:`bot.compose.load_services`).

    Raises:
        ConfigError: the model or knowledge base is missing.
        StoreError: the database cannot be opened.
    """

    def __init__(self, *, db: Path, study: StudyConfig, services: Services | None = None) -> None:
        from bot.compose import database_url, load_services

        self._db = db
        self._study = study
        self._services = services or load_services()
        self._recorder = RecordingIntents(self._services.intents)
        self._services.intents = self._recorder
        url = database_url()
        self._web = WebStore(url or db)
        self._managers: dict[tuple[str, str], DialogManager] = {}
        self._known: dict[str, tuple[str, str]] = {}
        self._lock = threading.Lock()

    def _manager(self, kind: str, condition: str) -> DialogManager:
        from bot.compose import build_dialog_manager

        if condition not in self._study.conditions:
            condition = next(iter(self._study.conditions))
        key = (kind, condition)
        with self._lock:
            dm = self._managers.get(key)
            if dm is None:
                session = self._study.evaluator_session if kind == EVALUATOR else self._study.log_session
                dm = build_dialog_manager(db=self._db, session=session, services=self._services,
                                          elicitation=self._study.conditions[condition])  # fmt: skip
                dm.default_domain = self._study.start_domain
                self._managers[key] = dm
            return dm

    def _route(self, user_id: str) -> tuple[str, str]:
        with self._lock:
            known = self._known.get(user_id)
        if known is not None:
            return known
        found: Participant | None = self._web.by_user_key(user_id)
        first = next(iter(self._study.conditions))
        route = (found.kind, found.condition) if found is not None else ("participant", first)
        with self._lock:
            if len(self._known) >= _KNOWN_USERS:
                self._known.clear()
            self._known[user_id] = route
        return route

    def handle(self, turn: Turn) -> AnnotatedReply:
        """Answer a turn in its participant's condition, with what was logged for it."""
        dm = self._manager(*self._route(turn.user_id))
        self._recorder.reset()
        reply = dm.handle(turn)
        confidence = self._recorder.last_confidence if turn.payload is None else None
        records = dm.last_records(turn.user_id, 1)
        record = records[0] if records else None
        annotation = Annotation(
            message_id=record.message_id if record else "",
            intent=record.intent if record else "",
            confidence=confidence,
            events=tuple(e for e in (record.events.split(", ") if record and record.events else ()) if e),
            objects=record.recognized_objects if record else "",
            domain=dm.current_domain(turn.user_id),
            to_check=record.to_check if record else True,
        )
        return AnnotatedReply(reply.text, reply.choices, reply.image, reply.card, annotation=annotation)


def build_study_dialogs(*, db: Path, study: StudyConfig) -> StudyDialogs:
    """The worker's handler (module-level, so that ``functools.partial`` of it pickles)."""
    return StudyDialogs(db=db, study=study)
