"""The dialog manager: the original agent's intents and contexts as a state machine over our NLU.

One call, :meth:`DialogManager.handle`, per user message or button press, whatever the channel:

1. load the user's :class:`~bot.state.DialogState` from the :class:`~bot.store.StateStore`;
2. recognise the intent (with the contexts logged by the previous turn, as the original agent
   matched intents against its active contexts) or map the pressed button's payload to an intent;
   an intent whose input contexts are not active (``bot.agent_spec``) is replaced by the best
   admissible alternative;
3. run the intent's handler: entity linking + per-entity sentiment for preferences, item and role
   disambiguation questions, PageRank with priors for recommendations, ratings, critiques, details,
   explanations, profile display/deletion/reset, smalltalk, fallback;
4. advance the contexts with DialogFlow's lifespan semantics and append exactly one dataset-format
   :class:`~logs.record.LogRecord` (intent, contexts, recognizedObjects, events, pagerankCycle,
   numberRecommendationList) to the :class:`~logs.store.LogStore`;
5. save the state and return a channel-independent :class:`~bot.turns.Reply`.

A preference question the user does not answer (they say something else) is handled by
:meth:`DialogManager._keep_ignored_question`: what is unambiguous is stored, the rest stays open for
:data:`QUESTION_LIFESPAN` turns, and the user is told what happened.

Turns of one user are serialised by a per-user lock; different users run concurrently.

Example (with services built on a knowledge base that knows Stephen King)::

    dm = DialogManager(services, StateStore(":memory:"), LogStore(tmp / "log.db"))
    dm.handle(Turn("cli:me", "I love Stephen King")).text   # 'Got it: 👍 Stephen King. ...'
"""

from __future__ import annotations

import dataclasses
import logging
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot import messages as msg
from bot.agent_spec import advance_contexts, satisfied
from bot.services import Services
from bot.state import DialogState
from bot.store import StateStore
from bot.turns import Choice, Reply, Turn
from corsbot_errors import CorsbotError
from logs.record import LogRecord
from logs.schema import Event, Intent, format_objects, is_smalltalk, join_list
from logs.store import LogStore, StoreError
from nlu.textnorm import fold
from nlu.understand import (
    ANSWER_INTENTS,
    DOMAIN_WORDS,
    REC_PAYLOAD_TEXT,
    RESET_INTENTS,
    Reading,
    TurnParse,
    View,
    understand,
)
from recommender.schema import role_words

logger = logging.getLogger(__name__)

DEFAULT_MIN_PREFERENCES = 3
"""Preferences needed before recommending (the original system's rule)."""
DEFAULT_LIST_SIZE = 5
"""Items per recommendation list, presented one at a time (as in the paper)."""
ROWS_CACHE_USERS = 1000
"""Users whose session log is kept in memory for the per-turn toCheck recomputation (LRU)."""
MAX_CHOICES = 6
"""Candidates offered in one disambiguation question (plus "none of these")."""
SUGGESTIONS = 4
"""Items offered to rate when the user has too few preferences or asks what to rate."""
MAX_SKIPPED = 100
"""Skipped items remembered per domain and left out of the next lists (the oldest are forgotten)."""
QUESTION_LIFESPAN = 2
"""Turns a preference question stays open while the user talks about something else: the lifespan
(2) the original agent's webhook gave ``property_type_disambiguation`` with a question."""
_QUESTION_KINDS = ("item", "role", "confirm")
_ALL_INTENTS = tuple(intent.value for intent in Intent)


@dataclass(slots=True)
class _Outcome:
    """What one handler produced (internal)."""

    text: str
    choices: tuple[Choice, ...] = ()
    image: str | None = None
    card: bool = False
    events: list[str] = field(default_factory=list)
    objects: list[tuple[str, str]] = field(default_factory=list)
    webhook_contexts: dict[str, int] = field(default_factory=dict)
    settled: bool = False
    """The turn answered or explicitly closed the open preference question (answer, skip, /start)."""


class DialogManager:
    """Channel-agnostic dialog manager (see the module docstring).

    Args:
        services: NLU and recommender components (:class:`bot.services.Services`).
        states: per-user dialog state storage.
        log: the session log (dataset format); None disables logging.
        session: the log session name (e.g. ``"live"``, ``"replay:movie_nl"``).
        min_preferences: preferences needed before recommending.
        list_size: items per recommendation list.
        clock: returns the time in seconds (tests pass a fake).
        to_check: ``records -> list[bool]``, the toCheck heuristic applied to the user's log after each
            turn; None logs toCheck=True until recomputed.
        default_domain: the domain of a new user.
    """

    def __init__(
        self,
        services: Services,
        states: StateStore,
        log: LogStore | None,
        *,
        session: str = "live",
        min_preferences: int = DEFAULT_MIN_PREFERENCES,
        list_size: int = DEFAULT_LIST_SIZE,
        clock: Callable[[], float] = time.time,
        to_check: Callable[[Sequence[LogRecord]], list[bool]] | None = None,
        default_domain: str = "movie",
    ) -> None:
        self.default_domain = default_domain
        self._services = services
        self._states = states
        self._log = log
        self._session = session
        self._min_preferences = min_preferences
        self._list_size = list_size
        self._clock = clock
        self._to_check = to_check
        self._same_database = (
            log is not None and states.path is not None and Path(log.path).resolve() == Path(states.path).resolve()
        )
        self._locks: dict[str, threading.Lock] = {}
        self._rows_cache: dict[int, list[tuple[int, LogRecord]]] = {}
        self._rows_guard = threading.Lock()
        self._locks_guard = threading.Lock()
        self._handlers: dict[str, Callable[[DialogState, str, Turn], _Outcome]] = {
            Intent.START: self._on_start,
            Intent.WELCOME: self._on_start,
            Intent.HELP: self._on_help,
            Intent.PREFERENCE_HELP: self._on_help,
            Intent.REC_HELP: self._on_help,
            Intent.PROFILE_HELP: self._on_help,
            Intent.DELETE_PREFERENCE_HELP: self._on_help,
            Intent.REC_CRITIQUING_HELP: self._on_help,
            Intent.FALLBACK: self._on_fallback,
            Intent.PREFERENCE: self._on_preference,
            Intent.PREFERENCE_DISAMBIGUATION: self._on_answer,
            Intent.PREFERENCE_YES: self._on_answer,
            Intent.PREFERENCE_NO: self._on_answer,
            Intent.SKIP: self._on_skip,
            Intent.RECOMMENDATION: self._on_recommend,
            Intent.REC_PREFERENCE: self._on_rate,
            Intent.REC_SKIP: self._on_rec_skip,
            Intent.REC_DETAILS: self._on_details,
            Intent.REC_TRAILER: self._on_trailer,
            Intent.REC_WHY: self._on_why,
            Intent.REC_YES_BUT: lambda state, text, turn: self._on_critique(state, turn, item_polarity="+"),
            Intent.REC_NO_BUT: lambda state, text, turn: self._on_critique(state, turn, item_polarity="-"),
            Intent.REC_CRITIQUING_DISAMBIGUATION: self._on_answer,
            Intent.REC_CRITIQUING_YES: self._on_answer,
            Intent.REC_CRITIQUING_NO: self._on_answer,
            Intent.REC_CRITIQUING_FALLBACK: self._on_rec_fallback,
            Intent.REC_STOP: self._on_stop,
            Intent.REC_FALLBACK: self._on_rec_fallback,
            Intent.SHOW_PROFILE: self._on_show_profile,
            Intent.DELETE_PREFERENCE: self._on_delete,
            Intent.DELETE_PREFERENCE_DISAMBIGUATION: self._on_answer,
            Intent.RESET_PROFILE: self._on_reset_profile,
        }
        for scope, intent in RESET_INTENTS.items():
            self._handlers[intent] = lambda state, text, turn, scope=scope: self._on_reset_choice(state, scope)
            self._handlers[f"{intent} - yes"] = lambda state, text, turn: self._on_reset_answer(state, yes=True)
            self._handlers[f"{intent} - no"] = lambda state, text, turn: self._on_reset_answer(state, yes=False)
        self._handlers[Intent.RESET_PROFILE_CANCEL] = lambda state, text, turn: self._on_reset_answer(state, yes=False)

    # ------------------------------------------------------------------ entry point

    def handle(self, turn: Turn) -> Reply:
        """Process one user turn and return the reply; never raises for bad input.

        Args:
            turn: the user's message or button press.

        Returns:
            The reply to show. Errors of the knowledge base or models become a polite reply (and a
            logged warning); the turn is still logged.
        """
        if not _encodable(turn.text):  # lone surrogates from undecodable bytes: keep the rest
            turn = dataclasses.replace(turn, text=turn.text.encode("utf-8", "replace").decode("utf-8"))
        with self._user_lock(turn.user_id):
            started = self._now_ms()
            try:
                saved = self._states.load_saved(turn.user_id)
            except StoreError as exc:
                logger.error("state of %s not loaded: %s", turn.user_id, exc)
                return Reply(text=msg.STORAGE_ERROR)
            state = saved if saved is not None else DialogState()
            if saved is None:
                state.domain = self.default_domain
            if state.focus is not None:  # an open list keeps its context (the webhook re-set it)
                state.contexts.setdefault(_RF, 1)
            refinable, state.last_stored = state.last_stored, []
            open_question = state.pending if (state.pending or {}).get("kind") in _QUESTION_KINDS else None
            try:
                intent, outcome = self._dispatch(state, turn, refinable)  # understands the turn once
                if open_question is not None and state.pending is not open_question and not outcome.settled:
                    self._keep_ignored_question(state, open_question, outcome)
            except CorsbotError as exc:
                logger.warning("turn of %s failed: %s", turn.user_id, exc)
                intent, outcome = Intent.FALLBACK.value, _Outcome(msg.SERVICE_ERROR)
            state.contexts = advance_contexts(state.contexts, intent)
            logged_contexts = tuple(state.contexts)
            for name, life in outcome.webhook_contexts.items():
                state.contexts[name] = max(life, state.contexts.get(name, 0))
            state.logged_contexts = logged_contexts
            state.logged_events = tuple(_dedupe(outcome.events))
            try:
                self._commit(turn, state, intent, outcome, logged_contexts, started)
            except StoreError as exc:  # the operator gets the detail; the user a short apology, no path
                logger.error("turn of %s not saved: %s", turn.user_id, exc)
                return Reply(text=msg.STORAGE_ERROR)
        return Reply(text=outcome.text, choices=outcome.choices, image=outcome.image, card=outcome.card)

    def current_domain(self, user_id: str) -> str:
        """The domain ``user_id`` is in (a new user: :attr:`default_domain`)."""
        saved = self._states.load_saved(user_id)
        return saved.domain if saved is not None else self.default_domain

    def mark_inactive(self, user_id: str) -> None:
        """Mark a user inactive (e.g. the user blocked the bot); their data is kept."""
        with self._user_lock(user_id):
            self._states.set_active(user_id, False)

    def last_records(self, user_id: str, n: int) -> list[LogRecord]:
        """The last ``n`` log records of ``user_id`` in this session, oldest first."""
        if self._log is None or n <= 0:
            return []
        rows = self._log.rows(self._session, user_id=self._states.numeric_id(user_id))
        return [record for _, record in rows[-n:]]

    # ------------------------------------------------------------------ plumbing

    def _user_lock(self, user_id: str) -> threading.Lock:
        with self._locks_guard:
            return self._locks.setdefault(user_id, threading.Lock())

    def _now_ms(self) -> int:
        return int(self._clock() * 1000)

    def _commit(
        self, turn: Turn, state: DialogState, intent: str, outcome: _Outcome, contexts: tuple[str, ...], started: int
    ) -> None:
        """Write the turn's log record and the user's new state: one transaction when both live in one
        database (``StateStore.commit_turn``); else the log row, then the state.

        Raises:
            StoreError: the database cannot be written; with one transaction, nothing was written.
        """
        if self._log is None:
            self._states.save(turn.user_id, state)
            return
        numeric_id = self._states.numeric_id(turn.user_id)
        start = turn.timestamp_ms if turn.timestamp_ms is not None else started
        end = max(start, start + (self._now_ms() - started)) if turn.timestamp_ms is not None else self._now_ms()
        record = LogRecord(
            message_id=f"{numeric_id}-{time.time_ns()}",
            user_id=numeric_id,
            message=turn.text,
            timestamp_start=start,
            timestamp_end=end,
            intent=intent,
            contexts=join_list(contexts),
            to_check=True,
            recognized_objects=format_objects(outcome.objects),
            events=join_list(_dedupe(outcome.events)),
            pagerank_cycle=state.pagerank_cycle,
            number_recommendation_list=state.number_recommendation_list,
            interaction_type=turn.interaction_type,
        )
        if self._same_database:
            row_id = self._states.commit_turn(turn.user_id, state, session=self._session, record=record)
        else:
            row_id = self._log.append(self._session, record)
            self._states.save(turn.user_id, state)
        if self._to_check is not None:
            try:
                self._recheck(numeric_id, row_id, record)
            except StoreError as exc:  # the turn is saved; its toCheck flags are recomputed next turn
                logger.warning("toCheck of %s not updated: %s", turn.user_id, exc)

    def _recheck(self, numeric_id: int, row_id: int, record: LogRecord) -> None:
        """Recompute toCheck over the user's log (kept in a bounded in-memory cache, loaded once)."""
        with self._rows_guard:
            rows = self._rows_cache.pop(numeric_id, None)
        if rows is None:
            rows = self._log.rows(self._session, user_id=numeric_id)
        elif not rows or rows[-1][0] != row_id:
            rows.append((row_id, record))
        with self._rows_guard:
            self._rows_cache[numeric_id] = rows
            while len(self._rows_cache) > ROWS_CACHE_USERS:
                self._rows_cache.pop(next(iter(self._rows_cache)))
        flags = self._to_check([rec for _, rec in rows])
        changed = {}
        for i, ((rid, rec), flag) in enumerate(zip(rows, flags, strict=True)):
            if rec.to_check != flag:
                changed[rid] = flag
                rows[i] = (rid, dataclasses.replace(rec, to_check=flag))
        if changed:
            self._log.set_to_check(changed)

    def _domain(self, state: DialogState) -> Any:
        return self._services.domain(state.domain)

    # ------------------------------------------------------------------ intent selection

    def _view(self, state: DialogState, refinable: list[dict[str, Any]]) -> View:
        """What the user sees, for :func:`nlu.understand.understand`."""
        pending = state.pending or {}
        kind = pending.get("kind")
        answer_kind: str | None = None
        options: list[list[str]] = []
        if kind in ("item", "role", "confirm"):
            answer_kind, options = kind, self._option_labels(state, kind, pending["entry"])
        elif kind in ("critique", "delete"):
            kb = self._domain(state).kb
            answer_kind, options = "item", [[kb.label(q)] for q in pending.get("options", [])]
        elif not pending and refinable:  # "the 1998 one" after a stored preference picks another reading
            answer_kind, options = "item", self._option_labels(state, "item", refinable[-1])
        contexts = state.logged_contexts
        if state.focus is not None and _RF not in contexts:  # the list on screen is still open
            contexts = (*contexts, _RF)
        blocked = frozenset(
            name for name in _ALL_INTENTS if not (satisfied(name, state.contexts) and self._state_allows(state, name))
        )
        return View(
            domain=state.domain,
            focus=state.focus,
            question=kind,
            options=tuple(tuple(words) for words in options),
            answer_kind=answer_kind,
            has_profile=bool(state.profile()),
            contexts=contexts,
            blocked=blocked,
            refinable=bool(refinable),
            stamp=str(pending.get("stamp")),
        )

    def _dispatch(self, state: DialogState, turn: Turn, refinable: list[dict[str, Any]]) -> tuple[str, _Outcome]:
        services = self._domain(state)
        kb = services.kb
        parse = understand(
            turn.text,
            self._view(state, refinable),
            intents=self._services.intents,
            linker=services.linker,
            sentiment=self._services.sentiment,
            payload=turn.payload,
            is_item=kb.is_item,
        )
        now = _In(turn, parse)
        text = parse.text
        if parse.payload is not None:
            return self._on_payload(state, now)
        if parse.switch_to is not None:
            return self._switch_domain(state, parse.switch_to)
        if parse.command is not None:
            return parse.intent, self._run(parse.intent, state, "", now)
        if parse.empty:
            return Intent.FALLBACK.value, _Outcome(msg.EMPTY_INPUT)
        if parse.no_item_on_screen:
            return Intent.FALLBACK.value, _Outcome(msg.NO_ITEM_ON_SCREEN)  # "why?" with no list open
        if parse.details_of is not None:
            return Intent.FALLBACK.value, self._on_details(state, text, now, qid=parse.details_of)
        intent = parse.intent
        if intent == Intent.PREFERENCE_DISAMBIGUATION and not state.pending and refinable:
            return intent, self._refine(state, now, refinable)
        return intent, self._run(intent, state, text, now)

    @staticmethod
    def _state_allows(state: DialogState, intent: str) -> bool:
        pending = (state.pending or {}).get("kind")
        if intent in (Intent.PREFERENCE_DISAMBIGUATION, Intent.PREFERENCE_HELP):
            return pending in ("item", "role")
        if intent in (Intent.PREFERENCE_YES, Intent.PREFERENCE_NO):
            return pending == "confirm"
        if intent.startswith("request_recommendation - critiquing"):
            return pending == "critique"
        if intent == Intent.DELETE_PREFERENCE_DISAMBIGUATION:
            return pending == "delete"
        if intent.startswith("request_recommendation - ") and intent != Intent.REC_STOP:
            return state.focus is not None
        return True

    def _run(self, intent: str, state: DialogState, text: str, turn: _In) -> _Outcome:
        if is_smalltalk(intent):
            return self._on_smalltalk(state, intent, turn)
        handler = self._handlers.get(intent, self._on_fallback)
        return handler(state, text, turn)

    def _on_payload(self, state: DialogState, now: _In) -> tuple[str, _Outcome]:
        parse = now.parse
        payload = parse.payload
        assert payload is not None
        if payload.stamp is not None and payload.stamp != str((state.pending or {}).get("stamp")):
            outcome = _Outcome(msg.STALE_QUESTION)  # a question's button: only the question still open may take it
            if state.pending and state.pending.get("question"):
                outcome.text += "\n" + state.pending["question"]
                outcome.choices = tuple(Choice(**c) for c in state.pending.get("choices", ()))
            return Intent.FALLBACK.value, outcome
        if parse.switch_to is not None:
            return self._switch_domain(state, parse.switch_to)
        if parse.stale:
            return Intent.FALLBACK.value, _Outcome(msg.STALE_LIST, choices=(Choice(msg.RECOMMEND_AGAIN, "more"),))
        kind, value = payload.kind, payload.value
        if kind in ("pick", "role", "none", "yes", "no"):
            raw = f"{kind}:{value}" if value else kind
            return parse.intent, self._answer(state, parse.intent, parse.text, raw, now)
        if kind == "more":
            return parse.intent, self._on_recommend(state, "", now)
        if kind == "rate":
            return parse.intent, self._on_rate_suggestion(state, value, now)
        if kind == "reset":
            return parse.intent, self._on_reset_choice(state, value)
        return parse.intent, self._run(parse.intent, state, REC_PAYLOAD_TEXT.get(kind, parse.text), now)

    # ------------------------------------------------------------------ start, help, fallback, smalltalk

    def _switch_domain(self, state: DialogState, domain: str) -> tuple[str, _Outcome]:
        notes = self._close_questions(state)
        state.domain = domain
        _reset_dialog(state)
        text = "\n".join([*notes, msg.DOMAIN_SWITCHED.format(nouns=msg.DOMAIN_NOUNS[domain])])
        return Intent.START.value, _Outcome(text, settled=True)

    def _close_questions(self, state: DialogState) -> list[str]:
        """Before /start or a domain switch: store a rated person whose role was asked (without a
        role), and say which questions are dropped, so that nothing goes silently."""
        pending = state.pending or {}
        if pending.get("kind") not in _QUESTION_KINDS:
            return []
        notes = []
        entry = pending.get("entry") or {}
        if pending["kind"] == "role" and entry.get("polarity") in ("+", "-"):
            notes.append(self._store_without_role(state, entry))
        elif entry.get("mention"):
            notes.append(msg.QUESTION_DROPPED.format(mention=entry["mention"]))
        notes.extend(
            msg.QUESTION_DROPPED.format(mention=e["mention"]) for e in pending.get("queue", ()) if e.get("mention")
        )
        return notes

    def _store_without_role(self, state: DialogState, entry: dict[str, Any]) -> str:
        """Store the rated person of an unanswered role question without a role; the note saying so."""
        from recommender.schema import role_name

        qid = entry["candidates"][0]
        state.profile()[qid] = {"polarity": entry["polarity"], "role": None}
        roles = ", ".join(role_name(pid, state.domain) for pid in entry.get("roles", ()))
        return msg.STORED_WITHOUT_ROLE.format(
            label=self._display(state, qid),
            polarity=msg.POLARITY_MARKS[entry["polarity"]],
            roles=roles or msg.ITS_ROLES,
        )

    def _on_start(self, state: DialogState, text: str, turn: _In) -> _Outcome:
        notes = self._close_questions(state)
        _reset_dialog(state)
        state.contexts.clear()
        choices = tuple(Choice(msg.DOMAIN_NOUNS[d].capitalize(), f"dom:{d}") for d in DOMAIN_WORDS)
        return _Outcome(
            "\n".join(notes)
            + ("\n" if notes else "")
            + msg.WELCOME.format(
                nouns=msg.DOMAIN_NOUNS[state.domain],
                min_prefs=self._min_preferences,
                example=msg.WELCOME_EXAMPLES[state.domain],
                ask=msg.WELCOME_ASK[state.domain],
            ),
            choices=choices,
            settled=True,
        )

    def _on_help(self, state: DialogState, text: str, turn: _In) -> _Outcome:
        asks_what_to_rate = turn.parse.what_to_rate
        outcome = _Outcome("" if asks_what_to_rate else msg.HELP.format(domain=state.domain))
        if state.pending:
            outcome.text += "\n" + state.pending.get("question", "")
            outcome.choices = tuple(Choice(**c) for c in state.pending.get("choices", ()))
        elif asks_what_to_rate or len(state.profile()) < self._min_preferences:
            self._suggest(state, turn, outcome)
        return outcome

    def _suggest(self, state: DialogState, turn: _In, outcome: _Outcome) -> None:
        """Offer a few items to rate (``recommender.recommend.elicitation_suggestions``: close to what
        the user likes, else popular): named in the text, and as 👍 buttons (``rate:+:<QID>``, logged
        as a ``preference`` turn) when the session shows buttons (interaction type ``mixed``)."""
        from recommender.recommend import Profile, elicitation_suggestions

        liked, disliked = self._profile_sets(state)
        suggestions = elicitation_suggestions(
            self._domain(state).recommender, Profile(liked=liked, disliked=disliked), k=SUGGESTIONS
        )
        qids = [s.qid for s in suggestions]
        if not qids:
            return
        names = self._option_names(state, qids)
        template = msg.SUGGEST_BUTTONS if turn.interaction_type == "mixed" else msg.SUGGEST_TEXT
        first = self._domain(state).kb.label(qids[0])
        text = template.format(nouns=msg.SUGGEST_NOUNS[state.domain], items="; ".join(names), first=first)
        outcome.text = f"{outcome.text}\n{text}" if outcome.text else text
        if turn.interaction_type == "mixed" and not outcome.choices:
            outcome.choices = tuple(
                Choice(msg.RATE_BUTTON.format(name=name), f"rate:+:{qid}")
                for name, qid in zip(names, qids, strict=True)
            )

    def _on_fallback(self, state: DialogState, text: str, turn: _In) -> _Outcome:
        if state.pending and state.pending.get("question"):
            return _Outcome(
                msg.FALLBACK_IN_QUESTION.format(question=state.pending["question"]),
                choices=tuple(Choice(**c) for c in state.pending.get("choices", ())),
            )
        if turn.parse.rate_menu and state.focus is None:
            outcome = _Outcome("")
            self._suggest(state, turn, outcome)
            return outcome
        return _Outcome(msg.FALLBACK.format(item=msg.ITEM_NOUNS[state.domain]))

    def _on_smalltalk(self, state: DialogState, intent: str, turn: _In) -> _Outcome:
        pending = (state.pending or {}).get("kind")
        if turn.parse.confirmation is not None and pending in ("confirm", "critique", "reset"):
            return self._answer(state, intent, turn.parse.text, turn.parse.confirmation, turn)
        template = msg.SMALLTALK.get(intent, msg.SMALLTALK_DEFAULT)
        outcome = _Outcome(template.format(item=msg.ITEM_NOUNS[state.domain], nouns=msg.DOMAIN_NOUNS[state.domain]))
        if state.focus is not None:  # a list is open: answer, then show the card again
            card = self._card(state, [Event.RECOMMENDATION, Event.QUESTION])
            card.text = outcome.text + "\n" + card.text
            return card
        return outcome

    # ------------------------------------------------------------------ preferences

    def _on_preference(self, state: DialogState, text: str, turn: _In) -> _Outcome:
        outcome = _Outcome("", events=[Event.PREFERENCE])
        state.pending = None
        entries = self._entries(state, turn.parse.readings)
        if not entries:
            outcome.text = msg.NOTHING_FOUND
            return outcome
        self._process(state, entries, outcome, question_events=(Event.QUESTION, Event.PREFERENCE, Event.DISAMBIGUATION))
        return outcome

    def _on_rate_suggestion(self, state: DialogState, value: str, turn: _In) -> _Outcome:
        """A tapped suggestion (payload ``rate:<polarity>:<QID>``): stored like a typed preference."""
        polarity, _, qid = value.partition(":")
        kb = self._domain(state).kb
        if polarity not in ("+", "-") or not _nameable_item(kb, qid):  # a forged or outdated payload
            return _Outcome(msg.STALE_SUGGESTION)
        state.pending = None
        outcome = _Outcome("", events=[Event.PREFERENCE])
        entry = {
            "mention": kb.label(qid),
            "candidates": [qid],
            "roles_hint": [],
            "ambiguous": False,
            "polarity": polarity,
            "role": None,
        }
        self._process(state, [entry], outcome, question_events=(Event.QUESTION, Event.PREFERENCE, Event.DISAMBIGUATION))
        if len(state.profile()) < self._min_preferences and state.pending is None:
            self._suggest(state, turn, outcome)
        return outcome

    def _entries(self, state: DialogState, readings: Sequence[Reading]) -> list[dict[str, Any]]:
        """The queue of preference tasks: each linked mention with its polarity and role hint."""
        kb = self._domain(state).kb
        entries = []
        for reading in readings:
            mention = reading.mention
            roles_hint = list(getattr(mention.candidates[0], "roles", ()) or ())
            if reading.stated_role and reading.stated_role in kb.roles(mention.candidates[0].qid):
                roles_hint = [reading.stated_role]  # "Brad Pitt as an actor"
            entries.append(
                {
                    "mention": mention.text,
                    "candidates": [c.qid for c in mention.candidates[:MAX_CHOICES]],
                    "readings": [c.qid for c in mention.candidates],  # every reading of the words
                    "roles_hint": roles_hint,
                    "ambiguous": bool(mention.ambiguous),  # one unsure candidate is confirmed too
                    "polarity": reading.polarity.value,
                    "role": None,
                }
            )
        return entries

    def _process(
        self, state: DialogState, queue: list[dict[str, Any]], outcome: _Outcome, *, question_events: Sequence[str]
    ) -> None:
        """Store what can be stored, in order; stop at the first entry that needs a question."""
        kb = self._domain(state).kb
        stored: list[str] = []
        while queue:
            entry = queue[0]
            if entry["ambiguous"]:
                self._ask_item(state, entry, queue[1:], outcome, question_events)
                break
            qid = entry["candidates"][0]
            if entry["role"] is None and not kb.is_item(qid):
                hint = entry.get("roles_hint") if len(entry["candidates"]) == 1 else None
                roles = list(hint or kb.roles(qid))
                if len(roles) > 1:
                    self._ask_role(state, entry, roles, queue[1:], outcome, question_events)
                    break
                entry["role"] = roles[0] if roles else None
            if entry["polarity"] not in ("+", "-") and qid in state.profile():
                entry["polarity"] = state.profile()[qid]["polarity"]  # "Tom Cruise as an actor": kept opinion
            if entry["polarity"] not in ("+", "-"):
                self._ask_confirm(state, entry, queue[1:], outcome, question_events)
                break
            state.profile()[qid] = {"polarity": entry["polarity"], "role": entry["role"]}
            state.last_stored.append(entry)
            outcome.objects.append((qid, entry["polarity"]))
            shown = f"{msg.POLARITY_MARKS[entry['polarity']]} {self._display(state, qid)}"
            if shown not in stored:  # "I like Alien Alien Alien": said once
                stored.append(shown)
            queue = queue[1:]
        if not queue:
            state.pending = None
        if stored:
            left = self._min_preferences - len(state.profile())
            template = msg.STORED_NEED_MORE if left > 0 else msg.STORED_READY
            prefix = template.format(items=", ".join(stored), left=left, things=msg.THING if left == 1 else msg.THINGS)
            outcome.text = prefix + ("\n" + outcome.text if outcome.text else "")

    def _ask_item(
        self,
        state: DialogState,
        entry: dict[str, Any],
        rest: list[dict[str, Any]],
        outcome: _Outcome,
        question_events: Sequence[str],
    ) -> None:
        choices = [Choice(name, f"pick:{i}") for i, name in enumerate(self._option_names(state, entry["candidates"]))]
        choices.append(Choice(msg.NONE_OF_THESE, "none"))
        lines = "\n".join(f"{i + 1}. {c.label}" for i, c in enumerate(choices[:-1]))
        question = msg.ITEM_QUESTION.format(mention=entry["mention"]) + "\n" + lines
        self._set_question(state, "item", question, choices, entry, rest, outcome, question_events)

    def _ask_role(
        self,
        state: DialogState,
        entry: dict[str, Any],
        roles: list[str],
        rest: list[dict[str, Any]],
        outcome: _Outcome,
        question_events: Sequence[str],
    ) -> None:
        from recommender.schema import role_name

        entry["roles"] = roles
        names = [role_name(pid, state.domain) for pid in roles]
        choices = [Choice(name.capitalize(), f"role:{pid}") for name, pid in zip(names, roles, strict=True)]
        choices.append(Choice(msg.NONE_OF_THESE, "none"))
        label = self._display(state, entry["candidates"][0])
        question = msg.ROLE_QUESTION.format(label=label, roles=" or ".join(f"{n}" for n in names))
        self._set_question(state, "role", question, choices, entry, rest, outcome, question_events)

    def _ask_confirm(
        self,
        state: DialogState,
        entry: dict[str, Any],
        rest: list[dict[str, Any]],
        outcome: _Outcome,
        question_events: Sequence[str],
    ) -> None:
        question = msg.CONFIRM_QUESTION.format(label=self._display(state, entry["candidates"][0]))
        choices = [Choice(msg.YES, "yes"), Choice(msg.NO, "no")]
        self._set_question(
            state, "confirm", question, choices, entry, rest, outcome, (Event.QUESTION,), context="confirmation"
        )

    def _set_question(
        self,
        state: DialogState,
        kind: str,
        question: str,
        choices: list[Choice],
        entry: dict[str, Any],
        rest: list[dict[str, Any]],
        outcome: _Outcome,
        question_events: Sequence[str],
        *,
        context: str = "property_type_disambiguation",
    ) -> None:
        origin = state.pending.get("origin", "preference") if state.pending else "preference"
        choices, stamp = _stamp(state, choices)
        state.pending = {
            "kind": kind,
            "question": question,
            "entry": entry,
            "queue": rest,
            "stamp": stamp,
            "choices": [{"label": c.label, "payload": c.payload} for c in choices],
            "origin": origin,
        }
        outcome.text = question
        outcome.choices = tuple(choices)
        outcome.card = True
        # dataset order: "question, preference, disambiguation" for a new preference,
        # "preference, question, disambiguation" for a follow-up answer
        first = list(question_events) if Event.PREFERENCE in question_events else []
        outcome.events[:] = _dedupe(first + outcome.events + list(question_events))
        outcome.webhook_contexts[context] = 2

    def _keep_ignored_question(self, state: DialogState, question: dict[str, Any], outcome: _Outcome) -> None:
        """The user answered a preference question with something else: keep what was understood.

        - a role question ("Tom Cruise: as actor or producer?") about a rated person: the person is
          stored without a role (the recommender does not use roles), and the user is told so;
        - an item or yes/no question: it stays open for :data:`QUESTION_LIFESPAN` turns (the
          original agent's context lifespan), re-shown after the reply; if the new turn asked its
          own preference question, it is queued after it; when the lifespan is over, or another
          kind of question (critique, deletion, reset) took its place, it is dropped and the user is
          told.
        Entries queued behind the question (other mentions of the same message) follow it.
        """
        entry, queue = dict(question["entry"]), list(question.get("queue", ()))
        notes: list[str] = []
        if question["kind"] == "role" and entry.get("polarity") in ("+", "-"):
            before = self._store_without_role(state, entry)
            state.last_stored.append(dict(entry, role=None))  # "actor" next turn still refines it
            outcome.objects.append((entry["candidates"][0], entry["polarity"]))
            outcome.text = f"{before}\n{outcome.text}" if outcome.text else before
            kept: list[dict[str, Any]] = queue
        else:
            kept = [entry, *queue]
        ignored = int(question.get("ignored", 0)) + 1
        if kept and state.pending is None and ignored < QUESTION_LIFESPAN and kept[0] is entry:
            state.pending = dict(question, ignored=ignored)
            notes.append(msg.QUESTION_STILL_OPEN.format(question=question["question"]))
            if not outcome.choices:
                outcome.choices = tuple(Choice(**c) for c in question.get("choices", ()))
                outcome.card = True
            outcome.webhook_contexts.setdefault(
                "confirmation" if question["kind"] == "confirm" else "property_type_disambiguation", QUESTION_LIFESPAN
            )
        elif kept and state.pending is None and kept[0] is not entry:  # the role was settled: go on
            extra = _Outcome("")
            self._process(state, kept, extra, question_events=())
            notes.append(extra.text)
            outcome.objects.extend(extra.objects)
            if state.pending is not None and not outcome.choices:
                outcome.choices, outcome.card = extra.choices, True
        elif kept and (state.pending or {}).get("kind") in _QUESTION_KINDS and ignored < QUESTION_LIFESPAN:
            state.pending["queue"] = [*state.pending.get("queue", ()), *kept]
            notes.append(msg.QUESTION_LATER.format(mention=kept[0]["mention"]))
        elif kept:
            notes.append(msg.QUESTION_DROPPED.format(mention=kept[0]["mention"]))
            if len(kept) > 1 and state.pending is None:  # the ones queued behind it come next, not lost
                extra = _Outcome("")
                self._process(state, kept[1:], extra, question_events=())
                notes.append(extra.text)
                outcome.objects.extend(extra.objects)
                if state.pending is not None and not outcome.choices:
                    outcome.choices, outcome.card = extra.choices, True
            elif len(kept) > 1:
                notes.extend(msg.QUESTION_DROPPED.format(mention=e["mention"]) for e in kept[1:])
        notes = [n for n in notes if n]
        if notes:
            outcome.text = "\n".join([outcome.text, *notes]) if outcome.text else "\n".join(notes)

    def _on_answer(self, state: DialogState, text: str, turn: _In) -> _Outcome:
        pending = (state.pending or {}).get("kind")
        intent = ANSWER_INTENTS.get(pending or "", {}).get("pick", Intent.PREFERENCE_DISAMBIGUATION.value)
        return self._answer(state, intent, text, None, turn)

    def _answer(self, state: DialogState, intent: str, text: str, payload: str | None, turn: _In) -> _Outcome:
        """Answer the pending question from a button payload or typed text (``turn.parse.answer``)."""
        pending = state.pending or {}
        kind = pending.get("kind")
        parse = turn.parse
        if kind == "reset":
            yes = payload == "yes" or (payload is None and parse.affirmative)
            return self._on_reset_answer(state, yes=yes)
        if kind == "critique":
            return self._answer_critique(state, parse)
        if kind == "delete":
            return self._answer_delete(state, parse)
        events = [Event.PREFERENCE]
        outcome = _Outcome("", events=events)
        if not pending:
            return self._on_preference(state, text, turn)
        entry = dict(pending["entry"])
        queue = list(pending.get("queue", ()))
        choice = parse.answer
        if choice is None:
            new_entries = (
                self._entries(state, parse.readings) if kind != "confirm" or parse.names_only else []
            )  # at "did you like X?", only a bare new name is a new preference
            readings = set(entry.get("readings") or entry.get("candidates") or ())
            for new in new_entries:  # "Arnold Schwarzenegger" answering a question keeps its opinion
                if (
                    new["polarity"] not in ("+", "-")
                    and entry.get("polarity") in ("+", "-")
                    and (new["candidates"][0] in readings or _shares_a_word(new["mention"], entry["mention"]))
                ):
                    # a fuller name of the same thing ("Titanic 1997"), not "Pulp Fiction" after "I hate Titanic"
                    new["polarity"] = entry["polarity"]
            if new_entries:  # the user moved on to another preference: drop the question
                self._process(state, new_entries, outcome, question_events=(Event.QUESTION, Event.DISAMBIGUATION))
                return outcome
            outcome.text = msg.FALLBACK_IN_QUESTION.format(question=pending.get("question", ""))
            outcome.choices = tuple(Choice(**c) for c in pending.get("choices", ()))
            outcome.card = True
            outcome.events.extend((Event.QUESTION, Event.DISAMBIGUATION))
            outcome.webhook_contexts["property_type_disambiguation"] = 2
            if kind == "confirm":
                outcome.webhook_contexts = {"confirmation": 2}
            return outcome
        outcome.settled = True
        if choice == "none":
            outcome.text = msg.NOT_STORED.format(label=entry["mention"])
        elif kind == "item" and isinstance(choice, int):
            entry["candidates"] = [entry["candidates"][choice]]
            entry["ambiguous"] = False
            queue.insert(0, entry)
        elif kind == "role" and isinstance(choice, int):
            entry["role"] = entry["roles"][choice]
            queue.insert(0, entry)
        elif kind == "confirm":
            entry["polarity"] = "+" if choice == 0 else "-"
            queue.insert(0, entry)
        state.pending = None
        self._process(state, queue, outcome, question_events=(Event.QUESTION, Event.DISAMBIGUATION))
        if not outcome.text:
            outcome.text = msg.SKIPPED
        return outcome

    def _refine(self, state: DialogState, turn: _In, refinable: list[dict[str, Any]]) -> _Outcome:
        """A follow-up that corrects the preference stored by the previous turn.

        "actor" / "producer" sets the role of a stored person; "none of them" removes the stored
        entity (it was not the one meant); a name or title replaces it, with the same polarity; a
        year or another candidate's label picks that candidate. Anything else re-asks.
        """
        from recommender.schema import role_name

        entry = dict(refinable[-1])
        qid, polarity = entry["candidates"][0], entry["polarity"]
        kb = self._domain(state).kb
        outcome = _Outcome("", events=[Event.PREFERENCE])
        parse = turn.parse
        roles = parse.roles
        if roles and not kb.is_item(qid) and len(fold(parse.text).split()) <= 3:
            entry["role"] = roles[0]
            state.profile()[qid] = {"polarity": polarity, "role": roles[0]}
            state.last_stored = [entry]
            outcome.objects.append((qid, polarity))
            outcome.text = msg.STORED.format(
                items=f"{msg.POLARITY_MARKS[polarity]} {self._display(state, qid)} ({role_name(roles[0], state.domain)})"
            )
            return outcome
        if parse.negative:
            state.profile().pop(qid, None)
            outcome.text = msg.NOT_STORED.format(label=self._display(state, qid))
            return outcome
        choice = parse.answer
        if isinstance(choice, int) and entry["candidates"][choice] != qid:
            new = entry["candidates"][choice]
            entries = [dict(entry, candidates=[new], ambiguous=False, role=None)]
        else:
            entries = [
                dict(e, polarity=polarity if e["polarity"] not in ("+", "-") else e["polarity"])
                for e in self._entries(state, parse.readings)
            ]
        if entries:
            readings = set(refinable[-1].get("readings") or refinable[-1]["candidates"])
            if all(e["candidates"][0] != qid for e in entries) and any(e["candidates"][0] in readings for e in entries):
                state.profile().pop(qid, None)  # another reading of the same words: a correction
            self._process(state, entries, outcome, question_events=(Event.QUESTION, Event.DISAMBIGUATION))
            return outcome
        outcome.text = msg.FALLBACK.format(item=msg.ITEM_NOUNS[state.domain])
        outcome.events.extend((Event.QUESTION, Event.DISAMBIGUATION))
        state.last_stored = refinable
        return outcome

    def _option_labels(self, state: DialogState, kind: str | None, entry: dict[str, Any]) -> list[list[str]]:
        """Words that name each option of a question (for typed answers)."""
        if kind == "item":
            return self._option_words(state, entry["candidates"])
        if kind == "role":
            from recommender.schema import role_name

            return [[role_name(pid, state.domain), pid, *role_words(pid)] for pid in entry["roles"]]
        if kind == "confirm":
            return [["yes"], ["no"]]
        return []

    def _on_skip(self, state: DialogState, text: str, turn: _In) -> _Outcome:
        if state.pending:
            events = [Event.PREFERENCE] if state.pending.get("origin", "preference") == "preference" else []
            queue = list(state.pending.get("queue", ()))
            state.pending = None
            outcome = _Outcome(msg.SKIPPED, events=events, settled=True)
            if queue:
                self._process(state, queue, outcome, question_events=(Event.QUESTION, Event.DISAMBIGUATION))
            return outcome
        return _Outcome(msg.SKIPPED)

    # ------------------------------------------------------------------ recommendations

    def _profile_sets(self, state: DialogState) -> tuple[frozenset[str], frozenset[str]]:
        profile = state.profile()
        liked = frozenset(q for q, p in profile.items() if p["polarity"] == "+")
        disliked = frozenset(q for q, p in profile.items() if p["polarity"] == "-")
        return liked, disliked

    def _on_recommend(self, state: DialogState, text: str, turn: _In) -> _Outcome:
        state.pending = None
        have = len(state.profile())
        if have < self._min_preferences:
            outcome = _Outcome(
                msg.NEED_MORE.format(min_prefs=self._min_preferences, have=have), events=[Event.RECOMMENDATION]
            )
            self._suggest(state, turn, outcome)
            return outcome
        from recommender.recommend import Profile

        liked, disliked = self._profile_sets(state)
        result = self._domain(state).recommender.recommend(
            Profile(liked=liked, disliked=disliked), k=self._list_size, exclude=state.skipped.get(state.domain, ())
        )
        state.pagerank_cycle += 1
        items = [scored.qid for scored in result.items]
        if not items:
            state.rec_list, state.rec_pos = [], 0
            return _Outcome(msg.NO_RECOMMENDATION, events=[Event.RECOMMENDATION])
        state.number_recommendation_list += 1
        state.rec_list, state.rec_pos = items, 0
        outcome = self._card(state, [Event.QUESTION, Event.RECOMMENDATION])
        if result.fallback_reason:
            outcome.text = (
                msg.FALLBACK_POPULAR.format(
                    reason=msg.FALLBACK_REASONS.get(result.fallback_reason, msg.FALLBACK_REASON_DEFAULT),
                    nouns=msg.DOMAIN_NOUNS[state.domain],
                )
                + "\n"
                + outcome.text
            )
        return outcome

    def _card(self, state: DialogState, events: list[str]) -> _Outcome:
        qid = state.focus
        kb = self._domain(state).kb
        details = _details(kb, qid)
        description = details.get("description")
        extra = f" - {description}" if description else ""
        text = msg.REC_CARD.format(
            position=state.rec_pos + 1, total=len(state.rec_list), title=self._display(state, qid), extra=extra
        )
        return _Outcome(text, choices=_card_choices(state.focus), image=details.get("image"), card=True, events=events)

    def _advance(self, state: DialogState, outcome: _Outcome, events_next: list[str], events_done: list[str]) -> None:
        state.rec_pos += 1
        if state.focus is None:
            state.rec_list, state.rec_pos = [], 0
            outcome.events.extend(events_done)
            outcome.text = (outcome.text + "\n" if outcome.text else "") + msg.REC_FINISHED
            outcome.choices = (Choice(msg.RECOMMEND_MORE, "more"),)
            return
        card = self._card(state, [])
        outcome.events.extend(events_next)
        outcome.text = (outcome.text + "\n" if outcome.text else "") + card.text
        outcome.choices, outcome.image, outcome.card = card.choices, card.image, True

    def _on_rate(self, state: DialogState, text: str, turn: _In) -> _Outcome:
        focus = state.focus
        state.pending = None  # an open question about another entity is dropped: the user moved on
        outcome = _Outcome("")
        entries = self._entries(state, turn.parse.readings)
        others = [e for e in entries if e["candidates"][0] != focus]
        own = [e for e in entries if e["candidates"][0] == focus]
        if own or not others:
            polarity = own[0]["polarity"] if own else self._text_polarity(turn)
            if turn.parse.yes_no is not None:  # the answer to "Do you like it?"
                polarity = "-" if turn.parse.yes_no == "no" else "+"
            if polarity not in ("+", "-") and not others:
                # no opinion ("I haven't seen it"): nothing is stored, the list goes on as for a skip
                skipped = self._on_rec_skip(state, text, turn)
                skipped.text = msg.NO_OPINION_SKIPPED.format(title=self._display(state, focus)) + "\n" + skipped.text
                return skipped
            if polarity in ("+", "-"):
                state.profile()[focus] = {"polarity": polarity, "role": None}
                outcome.objects.append((focus, polarity))
        if others:
            self._process(
                state, others, outcome, question_events=(Event.QUESTION, Event.PREFERENCE, Event.DISAMBIGUATION)
            )
        if not outcome.objects or state.pending or focus not in dict(outcome.objects):
            # only other things were named ("I love the Avengers"): the item stays on screen
            if not state.pending:
                card = self._card(state, [Event.RECOMMENDATION, Event.QUESTION, Event.PREFERENCE])
                card.text = (outcome.text + "\n" if outcome.text else "") + card.text
                card.objects = outcome.objects
                return card
            return outcome
        self._advance(
            state,
            outcome,
            [Event.RECOMMENDATION, Event.QUESTION, Event.PREFERENCE],
            [Event.FINISHED_RECOMMENDATION, Event.PREFERENCE, Event.RECOMMENDATION],
        )
        return outcome

    @staticmethod
    def _text_polarity(turn: _In) -> str:
        """Polarity of a whole message about the item on screen ("I don't like it")."""
        polarity = turn.parse.message_polarity
        return polarity.value if polarity is not None else "0"

    def _on_rec_skip(self, state: DialogState, text: str, turn: _In) -> _Outcome:
        outcome = _Outcome("")
        if state.focus is not None:
            skipped = state.skipped.setdefault(state.domain, [])
            skipped[:] = [q for q in skipped if q != state.focus][-(MAX_SKIPPED - 1) :] + [state.focus]
        self._advance(
            state,
            outcome,
            [Event.RECOMMENDATION, Event.QUESTION],
            [Event.RECOMMENDATION, Event.FINISHED_RECOMMENDATION],
        )
        return outcome

    def _item_card(self, state: DialogState, qid: str | None = None) -> Any:
        from recommender.recommend import item_card

        return item_card(self._domain(state).kb, qid or state.focus)

    def _on_details(self, state: DialogState, text: str, turn: _In, *, qid: str | None = None) -> _Outcome:
        card = self._item_card(state, qid)
        lines = [self._display(state, card.qid)]
        if card.description:
            lines.append(card.description)
        for role, names in card.people:
            shown = [name for name in names if not _BARE_QID.match(name)]  # never a bare QID to a user
            if shown:
                lines.append(msg.DETAILS_PEOPLE.format(role=role.capitalize(), names=", ".join(shown)))
        if card.genres:
            lines.append(msg.DETAILS_GENRES.format(names=", ".join(card.genres)))
        lines.extend(msg.DETAILS_LINK.format(site=site, url=url) for site, url in card.links)
        reply = "\n".join(lines) if len(lines) > 1 else msg.DETAILS_NONE.format(title=lines[0])
        if qid is not None:  # asked about a named item outside a list: no card buttons, nothing stored
            return _Outcome(reply, image=card.image)
        return _Outcome(
            reply, choices=_card_choices(state.focus), image=card.image, events=[Event.RECOMMENDATION, Event.QUESTION]
        )

    def _on_trailer(self, state: DialogState, text: str, turn: _In) -> _Outcome:
        card = self._item_card(state)
        title = self._display(state, card.qid)
        if card.trailer:
            reply = msg.TRAILER.format(title=title, url=card.trailer)
        else:
            reply = card.preview_note or msg.TRAILER_NONE.format(title=title, url=card.search_url)
        return _Outcome(reply, choices=_card_choices(state.focus), events=[Event.QUESTION, Event.RECOMMENDATION])

    def _on_why(self, state: DialogState, text: str, turn: _In) -> _Outcome:
        from recommender.explain import explain_text
        from recommender.recommend import Profile

        qid = state.focus
        recommender = self._domain(state).recommender
        liked, disliked = self._profile_sets(state)
        reasons = recommender.explain(Profile(liked=liked, disliked=disliked), qid)
        title = self._display(state, qid)
        sentence = explain_text(recommender, reasons, item=qid) if reasons else ""
        reply = msg.WHY.format(title=title, reasons=sentence) if sentence else msg.WHY_NONE.format(title=title)
        return _Outcome(reply, choices=_card_choices(state.focus), events=[Event.RECOMMENDATION, Event.QUESTION])

    def _on_stop(self, state: DialogState, text: str, turn: _In) -> _Outcome:
        state.rec_list, state.rec_pos, state.pending = [], 0, None
        return _Outcome(msg.REC_STOPPED, events=[Event.RECOMMENDATION])

    def _on_rec_fallback(self, state: DialogState, text: str, turn: _In) -> _Outcome:
        if state.focus is None:
            return self._on_fallback(state, text, turn)
        return _Outcome(
            msg.FALLBACK_IN_RECOMMENDATION.format(title=self._display(state, state.focus)),
            choices=_card_choices(state.focus),
            events=[Event.RECOMMENDATION, Event.QUESTION],
        )

    # ------------------------------------------------------------------ critiquing

    def _on_critique(self, state: DialogState, turn: _In, *, item_polarity: str) -> _Outcome:
        """ "I like it, but not Mel Gibson" (yes_but, item +) / "no, but I like the director" (no_but, item -).

        The critiqued property values of the item on screen (named, or by role word: "the director")
        get the opposite polarity of the item; several values for a role give a question.
        """
        focus = state.focus
        kb = self._domain(state).kb
        said = self._text_polarity(turn)  # the words decide; the intent's default only if they don't
        item_polarity = said if said in ("+", "-") else item_polarity
        value_polarity = "-" if item_polarity == "+" else "+"
        state.profile()[focus] = {"polarity": item_polarity, "role": None}
        outcome = _Outcome("", events=[Event.PREFERENCE, Event.RECOMMENDATION], objects=[(focus, item_polarity)])
        values = dict((v, p) for p, v in kb.item_values(focus))
        entries = [e for e in self._entries(state, turn.parse.readings) if e["candidates"][0] != focus]
        named = [e for e in entries if e["candidates"][0] in values]
        targets = [e["candidates"][0] for e in named]
        if named and named[0]["polarity"] in ("+", "-"):
            value_polarity = named[0]["polarity"]
        if not targets and entries:  # "I like it, but not Keanu Reeves" where the KB lacks the link
            for entry in entries:  # stored at once: a role question would be lost when the list moves on
                entry["polarity"] = entry["polarity"] if entry["polarity"] in ("+", "-") else value_polarity
                qid = entry["candidates"][0]
                if entry["role"] is None and not kb.is_item(qid):
                    roles = list(entry.get("roles_hint") or kb.roles(qid))
                    entry["role"] = roles[0] if roles else None
            self._process(state, [e for e in entries if not e["ambiguous"]], outcome, question_events=())
            state.pending = None
            self._rerank(state, outcome)
            return outcome
        if not targets:
            roles = set(turn.parse.roles)
            targets = [v for v, p in values.items() if p in roles]
        if len(targets) > 1:
            options = targets[:MAX_CHOICES]
            labels = self._option_names(state, options)
            question = msg.CRITIQUE_ROLE.format(options=", ".join(labels))
            self._ask_options(
                state, "critique", question, options, labels, outcome, origin="recommendation", polarity=value_polarity
            )
            return outcome
        for qid in targets:
            state.profile()[qid] = {"polarity": value_polarity, "role": values[qid]}
            outcome.objects.append((qid, value_polarity))
        self._rerank(state, outcome)
        return outcome

    def _answer_critique(self, state: DialogState, parse: TurnParse) -> _Outcome:
        pending = state.pending or {}
        options = pending.get("options", [])
        choice = parse.answer
        outcome = _Outcome("", events=[Event.PREFERENCE, Event.RECOMMENDATION])
        state.pending = None
        if isinstance(choice, int):
            qid = options[choice]
            state.profile()[qid] = {"polarity": pending.get("polarity", "-"), "role": None}
            outcome.objects.append((qid, pending.get("polarity", "-")))
        self._rerank(state, outcome)
        return outcome

    def _rerank(self, state: DialogState, outcome: _Outcome) -> None:
        """Re-rank the rest of the list with the updated profile (a new PageRank run), show the next one."""
        from recommender.recommend import Profile

        remaining = state.rec_list[state.rec_pos + 1 :]
        labels = ", ".join(f"{self._display(state, q)} ({p})" for q, p in outcome.objects)
        if remaining:
            liked, disliked = self._profile_sets(state)
            result = self._domain(state).recommender.recommend(
                Profile(liked=liked, disliked=disliked), k=len(state.profile()) + len(state.rec_list) + 50
            )
            order = {s.qid: i for i, s in enumerate(result.items)}
            remaining.sort(key=lambda q: order.get(q, len(order)))
            state.pagerank_cycle += 1
            state.rec_list = state.rec_list[: state.rec_pos + 1] + remaining
        outcome.text = msg.CRITIQUE_DONE.format(items=labels or "-")
        self._advance(state, outcome, [Event.QUESTION], [Event.FINISHED_RECOMMENDATION])

    # ------------------------------------------------------------------ profile

    def _on_show_profile(self, state: DialogState, text: str, turn: _In) -> _Outcome:
        from recommender.schema import role_name

        state.pending = None
        profile = state.profile()
        nouns = msg.DOMAIN_NOUNS[state.domain]
        if not profile:
            return _Outcome(msg.PROFILE_EMPTY.format(nouns=nouns))
        lines = []
        for qid, pref in profile.items():
            role = f" ({role_name(pref['role'], state.domain)})" if pref.get("role") else ""
            sign = "👍" if pref["polarity"] == "+" else "👎"
            lines.append(msg.PROFILE_LINE.format(sign=sign, label=self._display(state, qid), role=role))
        return _Outcome(msg.PROFILE.format(nouns=nouns, lines="\n".join(lines)))

    def _on_delete(self, state: DialogState, text: str, turn: _In) -> _Outcome:
        matches, named = self._profile_matches(state, turn.parse.delete_target)
        outcome = _Outcome("", events=[Event.PREFERENCE])
        if not matches:
            outcome.text = msg.DELETE_NOT_FOUND
            return outcome
        if len(matches) == 1 and named:
            state.profile().pop(matches[0], None)
            outcome.text = msg.DELETED.format(label=self._display(state, matches[0]))
            return outcome
        options = matches[:MAX_CHOICES]
        labels = self._option_names(state, options)
        self._ask_options(
            state,
            "delete",
            msg.ITEM_QUESTION.format(mention=turn.parse.delete_target or text),
            options,
            labels,
            outcome,
            origin="profile",
        )
        return outcome

    @staticmethod
    def _ask_options(
        state: DialogState,
        kind: str,
        question: str,
        options: list[str],
        labels: list[str],
        outcome: _Outcome,
        **extra: Any,
    ) -> None:
        """Ask to pick one of ``options`` (QIDs shown as ``labels``) or none: the pending question of a
        critique or a deletion, answered by ``pick:<i>`` / ``none`` or typed text."""
        choices = [Choice(label, f"pick:{i}") for i, label in enumerate(labels)]
        choices.append(Choice(msg.NONE_OF_THESE, "none"))
        choices, stamp = _stamp(state, choices)
        state.pending = {
            "kind": kind,
            "question": question,
            "options": options,
            **extra,
            "stamp": stamp,
            "choices": [{"label": c.label, "payload": c.payload} for c in choices],
        }
        outcome.text, outcome.choices, outcome.card = question, tuple(choices), True
        outcome.events.extend((Event.QUESTION, Event.DISAMBIGUATION))
        outcome.webhook_contexts["property_type_disambiguation"] = 2

    def _profile_matches(self, state: DialogState, target: str) -> tuple[list[str], bool]:
        """Profile entries named in ``text``, best first, and whether they are named in full (a
        label contained in the text); near matches ("delete Top" for Top Gun) are to be confirmed."""
        from rapidfuzz import fuzz

        kb = self._domain(state).kb
        folded = fold(target)
        scored = []
        for qid in state.profile():
            label = fold(kb.label(qid))
            score = (
                101.0
                if label and re.search(rf"\b{re.escape(label)}\b", folded)
                else fuzz.token_set_ratio(label, folded)
            )
            if score >= 85:
                scored.append((score, qid))
        scored.sort(reverse=True)
        if scored and scored[0][0] == 101.0:
            return [q for s, q in scored if s == 101.0], True
        return [q for _, q in scored], False

    def _answer_delete(self, state: DialogState, parse: TurnParse) -> _Outcome:
        pending = state.pending or {}
        options = pending.get("options", [])
        choice = parse.answer
        state.pending = None
        if not isinstance(choice, int):
            return _Outcome(msg.SKIPPED, events=[Event.PREFERENCE])
        state.profile().pop(options[choice], None)
        return _Outcome(msg.DELETED.format(label=self._display(state, options[choice])), events=[Event.PREFERENCE])

    def _on_reset_profile(self, state: DialogState, text: str, turn: _In) -> _Outcome:
        items = msg.DOMAIN_NOUNS[state.domain]
        choices = (
            Choice(msg.RESET_EVERYTHING_BUTTON, "reset:everything"),
            Choice(msg.RESET_ITEMS_BUTTON.format(items=items), "reset:items"),
            Choice(msg.RESET_PROPERTIES_BUTTON, "reset:properties"),
        )
        notes = self._close_questions(state)  # the reset question replaces an open one, aloud
        state.pending = None
        return _Outcome(
            "\n".join([*notes, msg.RESET_WHAT.format(items=items)]),
            choices=choices,
            events=[Event.QUESTION],
            settled=True,
        )

    def _on_reset_choice(self, state: DialogState, what: str) -> _Outcome:
        state.pending = {
            "kind": "reset",
            "what": what,
            "origin": "profile",
            "question": msg.RESET_CONFIRM.format(what=msg.RESET_LABELS[what]),
        }
        return _Outcome(state.pending["question"], choices=(Choice(msg.YES, "yes"), Choice(msg.NO, "no")))

    def _on_reset_answer(self, state: DialogState, *, yes: bool) -> _Outcome:
        pending = state.pending or {}
        state.pending = None
        if pending.get("kind") != "reset" or not yes:
            return _Outcome(msg.RESET_CANCELLED)
        what = pending.get("what", "everything")
        profile, kb = state.profile(), self._domain(state).kb
        for qid in list(profile):
            is_item = kb.is_item(qid) if kb.has(qid) else profile[qid].get("role") is None
            if what == "everything" or (what == "items") == is_item:
                del profile[qid]
        state.rec_list, state.rec_pos = [], 0
        return _Outcome(msg.RESET_DONE.format(what=msg.RESET_LABELS[what]))

    # ------------------------------------------------------------------ rendering helpers

    def _display(self, state: DialogState, qid: str | None) -> str:
        """A user-facing name: label and year."""
        if qid is None:
            return ""
        kb = self._domain(state).kb
        label = kb.label(qid) if kb.has(qid) else qid
        details = _details(kb, qid)
        return f"{label} ({details['year']})" if details.get("year") else label

    def _option_names(self, state: DialogState, qids: Sequence[str]) -> list[str]:
        """Names of the options of a question, each telling its entity apart from the others
        (year, "film by X", role, description, QID as a last resort: ``recommender.names``)."""
        from recommender.names import distinct_labels

        return distinct_labels(self._domain(state).kb, qids)

    def _option_words(self, state: DialogState, qids: Sequence[str]) -> list[list[str]]:
        """Words a typed answer may use to pick each option: its label, its full option name, and the
        qualifiers only that option has ("1984", "David Lynch", "band")."""
        kb = self._domain(state).kb
        names = self._option_names(state, qids)
        qualifiers = []
        for name in names:
            inner = name[name.rfind("(") + 1 : -1] if name.endswith(")") else ""
            parts = [p.strip() for p in inner.split(",") if p.strip()]
            qualifiers.append(parts + [re.sub(r"^(film by|book by|by) ", "", p) for p in parts if " by " in f" {p}"])
        counts: dict[str, int] = {}
        for parts in qualifiers:
            for part in set(parts):
                counts[fold(part)] = counts.get(fold(part), 0) + 1
        return [
            [kb.label(q) if kb.has(q) else q, name] + [p for p in parts if counts[fold(p)] == 1]
            for q, name, parts in zip(qids, names, qualifiers, strict=True)
        ]


def _nameable_item(kb: Any, qid: str) -> bool:
    """``qid`` is a recommendable item of the domain with a label (what a suggestion button may carry):
    a forged payload naming an unknown, unlabelled or non-item QID is refused (issue 17.7)."""
    if not kb.has(qid) or not kb.is_item(qid):
        return False
    has_label = getattr(kb, "has_label", None)
    return bool(has_label(qid)) if has_label is not None else kb.label(qid) != qid


def _details(kb: Any, qid: str | None) -> dict[str, Any]:
    """The item's details as a dict (empty when unknown)."""
    if qid is None or not kb.has(qid):
        return {}
    details = kb.details(qid)
    return {name: getattr(details, name, None) for name in ("year", "description", "image")}


_BARE_QID = re.compile(r"^Q\d+$")


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _card_choices(qid: str | None = None) -> tuple[Choice, ...]:
    """The buttons of a recommendation card; payloads carry the item's QID (``like:Q42``) so that a tap
    on a card that is no longer current is answered "out of date" instead of rating another item."""
    suffix = f":{qid}" if qid else ""
    return tuple(Choice(label, payload + suffix) for label, payload in msg.CARD_BUTTONS)


def _shares_a_word(a: str, b: str) -> bool:
    """Two mentions share a word other than an article ("The Avengers 2012" / "the avengers")."""
    words = lambda text: set(re.findall(r"\w+", fold(text))) - {"the", "a", "an", "of"}  # noqa: E731
    return bool(words(a) & words(b))


def _stamp(state: DialogState, choices: Sequence[Choice]) -> tuple[list[Choice], int]:
    """Number a new question and append ``@<n>`` to its buttons' payloads ("pick:1@7"), so that a tap
    on the buttons of an older question (Telegram keeps them) is not taken as an answer to this one."""
    state.questions_asked += 1
    stamp = state.questions_asked
    return [Choice(c.label, f"{c.payload}@{stamp}") for c in choices], stamp


def _dedupe(values: Sequence[str]) -> list[str]:
    seen: list[str] = []
    for value in values:
        if value not in seen:
            seen.append(str(value))
    return seen


def _reset_dialog(state: DialogState) -> None:
    state.pending = None
    state.rec_list, state.rec_pos = [], 0


_RF = "request_recommendation-followup"


@dataclass(frozen=True, slots=True)
class _In:
    """One turn as the handlers see it: the channel's :class:`Turn` and its one :class:`TurnParse`."""

    turn: Turn
    parse: TurnParse

    @property
    def interaction_type(self) -> str:
        return self.turn.interaction_type
