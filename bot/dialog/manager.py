"""The dialog manager: one call, :meth:`DialogManager.handle`, per user message or button press.

A turn goes through a typed pipeline, whatever the channel:

1. load the user's :class:`~bot.state.DialogState` from the state store;
2. understand the turn once (:func:`nlu.understand.understand`, with a :class:`~nlu.understand.View`
   of what the user sees: the item on screen, the open question and its options, the intents the
   original agent's contexts admit now);
3. run the handler the policy table gives for (open-question kind, act) (``bot/dialog/policy.py``);
   a preference question the turn ignored is kept open, settled or dropped aloud
   (``bot/dialog/questions.py``);
4. advance the contexts with DialogFlow's lifespan semantics (``bot/agent_spec.py``) and write exactly
   one dataset-format log record with the new state, in one transaction (``bot/dialog/turn_log.py``);
5. return a channel-independent :class:`~bot.turns.Reply`.

Turns of one user are serialised by a per-user lock; different users run concurrently.

Example (with services built on a knowledge base that knows Stephen King)::

    dm = DialogManager(services, StateStore(tmp / "db"), LogStore(tmp / "db"))
    dm.handle(Turn("cli:me", "I love Stephen King")).text   # 'Got it: 👍 Stephen King. ...'
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Sequence

from bot import messages as msg
from bot.agent_spec import advance_contexts
from bot.dialog import conversation, policy, preferences, profile, questions, recommendations, render, suggestions
from bot.dialog.acts import (
    PREFERENCE_QUESTIONS,
    CritiqueChoice,
    DeleteChoice,
    Outcome,
    PreferenceTask,
    ResetChoice,
    SuggestionQuestion,
)
from bot.dialog.context import DEFAULT_LIST_SIZE, DEFAULT_MIN_PREFERENCES, DialogConfig, TurnContext
from bot.dialog.turn_log import TurnLog
from bot.services import Services
from bot.state import DialogState
from bot.store import DuplicateTurn, TurnStore
from bot.turns import Reply, Turn
from corsbot_errors import CorsbotError
from logs.record import LogRecord
from logs.schema import Event, Intent
from logs.store import LogStore, StoreError
from nlu.acts import ActModel
from nlu.switching import domain_switch
from nlu.textnorm import has_letters
from nlu.understand import TurnParse, View, understand
from recommender.schema import Domain

logger = logging.getLogger(__name__)

_RF = "request_recommendation-followup"
MAX_HISTORY = 30
"""Profile entries the linker gets as the conversation's history (the most recent ones)."""
_ALL_INTENTS = tuple(intent.value for intent in Intent)


class DialogManager:
    """Channel-agnostic dialog manager (see the module docstring).

    Args:
        services: NLU and recommender components (:class:`bot.services.Services`).
        states: per-user dialog state storage (:class:`bot.store.StateStore`).
        log: the session log (dataset format); None disables logging.
        session: the log session name (e.g. ``"live"``, ``"replay:movie_nl"``).
        min_preferences: preferences needed before recommending.
        list_size: items per recommendation list.
        clock: returns the time in seconds (tests pass a fake).
        to_check: ``records -> list[bool]``, the toCheck heuristic applied to the user's log after each
            turn; None logs toCheck=True until recomputed.
        default_domain: the domain of a new user.
        elicitation: ``domain -> Elicitor | None``: suggestions of items to rate after each preference
            (issue 13, ``bot/dialog/suggestions.py``); None (the default): none, in any domain.
        role_questions: ask which role a named person is liked in (False: store without a role).
        domain_requests: a request for another domain's items switches to it (False: a study's one-domain
            bot, ``DialogConfig.domain_requests``).
        hedge_questions: a hedge at a card is asked about (False: a study's replay, ``DialogConfig.hedge_questions``).
        start_keeps_dialog: /start only greets, the dialog stays (the successor study's replay,
            ``DialogConfig.start_keeps_dialog``).
        dialogue_acts: the learned dialogue acts decide doubtful turns (``bot.compose`` turns them on for chat, web and
            Telegram; off here by default, so the dialog tests with a stand-in classifier test the rules alone).
    """

    def __init__(
        self,
        services: Services,
        states: TurnStore,
        log: LogStore | None,
        *,
        session: str = "live",
        min_preferences: int = DEFAULT_MIN_PREFERENCES,
        list_size: int = DEFAULT_LIST_SIZE,
        clock: Callable[[], float] = time.time,
        to_check: Callable[[Sequence[LogRecord]], list[bool]] | None = None,
        default_domain: str = "movie",
        elicitation: Callable[[str], object | None] | None = None,
        role_questions: bool = True,
        domain_requests: bool = True,
        hedge_questions: bool = True,
        dialogue_acts: bool = False,
        start_keeps_dialog: bool = False,
    ) -> None:
        self.default_domain = default_domain
        self._services = services
        self._states = states
        self._config = DialogConfig(
            min_preferences=min_preferences,
            list_size=list_size,
            elicitation=elicitation,
            role_questions=role_questions,
            domain_requests=domain_requests,
            hedge_questions=hedge_questions,
            dialogue_acts=dialogue_acts,
            start_keeps_dialog=start_keeps_dialog,
        )
        self._clock = clock
        self._turns = TurnLog(states, log, session=session, to_check=to_check)
        self._locks: dict[str, threading.Lock] = {}
        self._locks_guard = threading.Lock()

    # ------------------------------------------------------------------ entry points

    def handle(self, turn: Turn) -> Reply:
        """Process one user turn and return the reply; never raises for bad input.

        Args:
            turn: the user's message or button press.

        Returns:
            The reply to show. Errors of the knowledge base or models become a polite reply (and a
            logged warning); the turn is still logged. A storage error (database locked, full,
            unreadable) gets a short apology without paths (the operator's log has the detail) and
            nothing of the turn is saved.
        """
        if not _encodable(turn.text):  # lone surrogates from undecodable bytes: keep the rest
            turn = dataclasses.replace(turn, text=turn.text.encode("utf-8", "replace").decode("utf-8"))
        with self._user_lock(turn.user_id), self._states.turn_lock(turn.user_id, turn.key):  # across processes
            started = self._now_ms()
            try:
                if turn.key is not None and (stored := self._states.receipt(turn.key)) is not None:
                    logger.info("turn %s of %s was already applied: its stored reply again", turn.key, turn.user_id)
                    return stored  # handed over again after a crash: never applied twice (issue 17.1)
                saved = self._states.load_saved(turn.user_id)
            except StoreError as exc:
                logger.error("state of %s not loaded: %s", turn.user_id, exc)
                return Reply(text=msg.STORAGE_ERROR)
            state = saved if saved is not None else DialogState(domain=Domain(self.default_domain))
            if state.focus is not None:  # an open list keeps its context (the webhook re-set it)
                state.contexts.setdefault(_RF, 1)
            refinable, state.last_stored = state.last_stored, []
            wants_list, state.wants_list = state.wants_list, False  # for one turn: "Tell me one thing you like"
            moved_on, state.moved_on = state.moved_on, False  # for one turn: "oops no, i didn't like it" revises
            deleted = state.last_deleted
            intent, outcome = self._run(state, turn, refinable, wants_list=wants_list, moved_on=moved_on)
            if state.last_deleted is deleted:  # for one turn: "never mind, keep it" right after a deletion
                state.last_deleted = {}
            state.contexts = advance_contexts(state.contexts, intent)
            logged_contexts = tuple(state.contexts)
            for name, life in outcome.webhook_contexts.items():
                state.contexts[name] = max(life, state.contexts.get(name, 0))
            events = render.dedupe(outcome.events)
            state.logged_contexts = logged_contexts
            state.logged_events = tuple(events)
            reply = Reply(text=outcome.text, choices=outcome.choices, image=outcome.image, card=outcome.card)
            try:
                self._turns.commit(
                    turn,
                    state,
                    intent=intent,
                    events=events,
                    objects=list(dict.fromkeys(outcome.objects)),  # a QID stored twice is logged once
                    contexts=logged_contexts,
                    started_ms=started,
                    now_ms=self._now_ms(),
                    reply=reply,
                )
            except DuplicateTurn as exc:  # applied meanwhile by another process: that application stands
                return exc.reply
            except StoreError as exc:  # the operator gets the detail; the user a short apology, no path
                logger.error("turn of %s not saved: %s", turn.user_id, exc)
                return Reply(text=msg.STORAGE_ERROR)
        return reply

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
        return self._turns.last_records(user_id, n)

    # ------------------------------------------------------------------ the pipeline

    def _run(
        self,
        state: DialogState,
        turn: Turn,
        refinable: list[PreferenceTask],
        *,
        wants_list: bool = False,
        moved_on: bool = False,
    ) -> tuple[str, Outcome]:
        """Understand the turn once, run the policy's handler, keep an ignored question."""
        try:
            text, switched = self._switch_in_words(state, turn, refinable)
            if switched is not None:
                refinable = []  # what the previous turn stored is in the other domain
            open_question = state.pending if isinstance(state.pending, PREFERENCE_QUESTIONS) else None
            domain = self._services.domain(state.domain)
            parse = understand(
                text,
                dataclasses.replace(
                    self._view(state, refinable),
                    wants_list=wants_list and switched is None,
                    moved_on=moved_on and switched is None,
                ),
                intents=self._services.intents,
                linker=domain.linker,
                sentiment=self._services.sentiment,
                payload=turn.payload,
                is_item=domain.kb.is_item,
                acts=self._acts(),
            )
            if open_question is not None and open_question.behind_card and state.focus and not _answers(parse):
                # a question kept under a card shown after it (fresh6 fault 7): the card is what the user sees
                # last, so "seen it, loved it" or "👍" rates the card; the question stays for its lifespan
                state.pending = None
                view = self._view(state, refinable)
                kept = tuple(c for c in view.contexts if c != open_question.context)
                parse = understand(
                    text,
                    dataclasses.replace(view, contexts=kept),
                    intents=self._services.intents,
                    linker=domain.linker,
                    sentiment=self._services.sentiment,
                    payload=turn.payload,
                    is_item=domain.kb.is_item,
                    acts=self._acts(),
                )
            ctx = TurnContext(state, turn, parse, self._services, self._config, refinable)
            shown = state.focus
            waiting = state.pending if isinstance(state.pending, SuggestionQuestion) else None
            outcome = policy.handler_for(state, policy.act_in(state, parse))(ctx)
            if open_question is not None and state.pending is not open_question and not outcome.settled:
                questions.keep_ignored_question(ctx, open_question, outcome, preferences.process)
            recommendations.after_turn(ctx, outcome, shown=shown)
            suggestions.after_turn(ctx, outcome, waiting=waiting)
            if switched is not None:  # "what about books? I loved Dune": the switch said first
                outcome.text = "\n".join(line for line in (switched.text, outcome.text) if line)
                outcome.objects[:0] = switched.objects
            return outcome.intent or parse.intent, outcome
        except CorsbotError as exc:
            logger.warning("turn of %s failed: %s", turn.user_id, exc)
            return Intent.FALLBACK.value, Outcome(msg.SERVICE_ERROR)

    def _switch_in_words(
        self, state: DialogState, turn: Turn, refinable: list[PreferenceTask]
    ) -> tuple[str, Outcome | None]:
        """A domain named in a sentence with more to say ("what about movies? I loved Trainspotting",
        "recommend me a book" while talking about films; ``nlu.switching``): the conversation moves to
        that domain first (open questions settled aloud, the list closed) and the rest of the message is
        what the turn understands. Returns the text to understand and the switch's outcome (its note,
        what settling stored), or the typed text and None. A bare switch ("back to music please") is
        understood as one (``TurnParse.switch_to``)."""
        said = None if turn.payload is not None else domain_switch(turn.text, state.domain)
        if said is None or not has_letters(said.rest) or (said.by_request and not self._config.domain_requests):
            return turn.text, None
        switched = Outcome("", settled=True)
        if said.domain != state.domain:
            ctx = TurnContext(state, turn, _NO_PARSE, self._services, self._config, refinable)
            notes = conversation.enter_domain(ctx, said.domain, switched)
            switched.text = "\n".join([*notes, msg.DOMAIN_NOW.format(nouns=msg.DOMAIN_NOUNS[said.domain])])
        return said.rest, switched

    def _acts(self) -> ActModel | None:
        """The dialogue-act classifier, made at its first prediction (None where the configuration turns it off)."""
        return self._services.acts if self._config.dialogue_acts else None

    def _view(self, state: DialogState, refinable: list[PreferenceTask]) -> View:
        """What the user sees, for :func:`nlu.understand.understand`."""
        pending = state.pending
        ctx = TurnContext(state, Turn("", ""), _NO_PARSE, self._services, self._config, refinable)
        answer_kind: str | None = None
        options: list[list[str]] = []
        if isinstance(pending, PREFERENCE_QUESTIONS):
            answer_kind, options = pending.kind, render.option_labels(ctx, pending.kind, pending.task)
        elif isinstance(pending, CritiqueChoice | DeleteChoice):
            answer_kind, options = "item", [[ctx.kb.label(q)] for q in pending.options]
        elif isinstance(pending, ResetChoice):  # "everything", "only the movies"
            answer_kind, options = "item", profile.scope_words(state.domain)
        elif (pending is None or isinstance(pending, SuggestionQuestion)) and refinable:
            # "the 1998 one" after a stored preference picks another reading (also with the suggestion it got)
            # every reading of its words, also when a question picked one ("the 1933 one is a classic too")
            answer_kind, options = "item", render.option_words(ctx, preferences.refinable_readings(refinable[-1]))
        contexts = state.logged_contexts
        if state.focus is not None and _RF not in contexts:  # the list on screen is still open
            contexts = (*contexts, _RF)
        return View(
            domain=state.domain,
            focus=state.focus,
            question=pending.kind if pending is not None else None,
            options=tuple(tuple(words) for words in options),
            answer_kind=answer_kind,
            has_profile=bool(state.profile()),
            contexts=contexts,
            blocked=frozenset(name for name in _ALL_INTENTS if not policy.admits(state, name)),
            refinable=bool(refinable),
            stamp=str(getattr(pending, "stamp", None)),
            suggested=pending.qid if isinstance(pending, SuggestionQuestion) else None,
            asked=_asked(pending),
            history=tuple(state.profile())[-MAX_HISTORY:] if MAX_HISTORY else (),
            asked_last=pending is not None
            and Event.QUESTION in state.logged_events
            and Event.RECOMMENDATION not in state.logged_events,
            rated=_rated(state, refinable),
        )

    # ------------------------------------------------------------------ plumbing

    def _user_lock(self, user_id: str) -> threading.Lock:
        with self._locks_guard:
            return self._locks.setdefault(user_id, threading.Lock())

    def _now_ms(self) -> int:
        return int(self._clock() * 1000)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _answers(parse: TurnParse) -> bool:
    """The message plainly answers the question kept under a card: its button or a typed option ("the 1997 one");
    a bare yes or no is the card's (its buttons are on screen: the released studies' users rated it so)."""
    return parse.payload is not None or (parse.bare_answer and parse.answer is not None and parse.yes_no is None)


def _rated(state: DialogState, refinable: list[PreferenceTask]) -> str | None:
    """The suggested item the previous turn rated (``View.rated``), or None."""
    last = refinable[-1] if refinable else None
    suggested = state.suggested.get(state.domain, ())
    return last.qid if last is not None and last.polarity in ("+", "-") and last.qid in suggested else None


def _asked(pending: object) -> frozenset[str]:
    """The QIDs the open question is about (its candidates, or the suggested item)."""
    if isinstance(pending, PREFERENCE_QUESTIONS):
        return frozenset(pending.task.candidates)
    if isinstance(pending, SuggestionQuestion):
        return frozenset({pending.qid})
    return frozenset()


_NO_PARSE = TurnParse("", Intent.FALLBACK.value)
"""The parse of a context used only to render option words for the view (no turn understood yet)."""
