"""``corsbot nlu evaluate-conversations FILE...``: scripted conversations through the real dialog path (issue 22).

Each conversation of a file (format: ``tests/data/conversations/README.md``, loaded by
:mod:`nlu.conversation_set`) is played by a fresh user of the dialog manager configured as ``corsbot
chat`` configures it (:func:`bot.compose.build_dialog_manager` with the chat's elicitation setting,
:func:`bot.cli.chat.elicitation_setting`: ``--elicitation``, else ``$CORSBOT_ELICITATION``, else the
defaults; role questions on; the dialog's minimum of preferences), on a temporary database (one per
run; each conversation is a new user, so nothing of one reaches another): ``/<domain>``, then its turns in order, texts typed (``NL``) and presses tapped (``mixed``) as ``corsbot
chat --jsonl`` sends them. A ``press`` taps the button of that name on the card on screen (payload
``like:<QID>``...; ``next`` taps "Recommend more" when the list is over, else the card's skip; on an
open suggestion with buttons, like / dislike / skip tap its buttons).

After each scripted turn the oracle of the README answers, by their buttons, the questions the turn did
not foresee (``asks`` unset) that concern an entity it expects: which one (the option the bot names the
entity by, else the first option opening with its name, else "none of these"), which role (the entity's,
else the first), yes / no (by the expected polarity; an ``ask`` entity: its answer, ``skip`` = no), and,
when the turn expects ``empty`` profiles, the reset menu (everything) and its confirmation (yes).
Other questions (an elicitation suggestion, a stray "which X?") are left open. Then the turn is
observed: the profiles of every domain read from the dialog's state store, the cards shown (a reply
marked as a card whose buttons carry ``like:<QID>``), the questions asked (the open question of the
state after each reply), the intent logged for the scripted turn, the domain. Checks and scores:
:mod:`nlu.conversation_eval`.

Output per file: per domain and per tag the turn accuracy, ``--errors N`` failed turns, the report
path (every failed turn as JSON lines: ``$CORSBOT_HOME/reports/nlu/conversations_<file>.jsonl``, or all
files in ``--report PATH``), ``<file>: conversations: ...``; the last line is
``conversations: n=N turn_accuracy=X conversation_success=Y polarity_errors=P lost_preferences=L
spurious=S recommendation_violations=V questions_per_turn=Q`` for the last file given.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from bot import messages as msg
from bot import paths
from bot.cli.args import non_negative_int
from bot.cli.oracle import own_name, pick_option, starts_with_name
from bot.dialog.acts import (
    ConfirmQuestion,
    CritiqueChoice,
    DeleteChoice,
    ItemQuestion,
    ResetChoice,
    ResetConfirm,
    RoleQuestion,
    SuggestionQuestion,
)
from bot.state import DialogState
from bot.turns import Choice, Reply, Turn
from nlu.conversation_eval import (
    Asked,
    ConversationResult,
    Lookup,
    Profiles,
    Shown,
    TurnOutcome,
    by_group,
    check_conversation,
    ref_key,
    score,
)
from nlu.conversation_set import Conversation, Entity, Expectation, ScriptedTurn, load_conversations
from nlu.textnorm import fold
from recommender.schema import role_words_for

MAX_ORACLE_ANSWERS = 8
"""Questions the oracle answers after one scripted turn at most (a bot asking in circles stops there)."""
_KINDS: dict[type, str] = {
    ItemQuestion: "item",
    CritiqueChoice: "item",
    DeleteChoice: "item",
    RoleQuestion: "role",
    ConfirmQuestion: "confirm",
    ResetConfirm: "confirm",
    SuggestionQuestion: "suggestion",
}
"""The README's question kinds of the dialog's open questions."""
RESET_MENU = "reset menu"
"""The reset menu ("What should I reset?" with ``reset:<scope>`` buttons): no open question in the state."""
SHORT_NAME = 3
"""Names shorter than this concern a question only through an option named so (they are common words)."""
_SUGGESTION_SAID = {"like": "+", "dislike": "-", "skip": "skip"}


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``evaluate-conversations`` to the ``nlu`` subcommands."""
    parser = sub.add_parser(
        "evaluate-conversations",
        help="scripted conversations (tests/data/conversations/) through the dialog manager of corsbot chat",
    )
    parser.add_argument("files", nargs="+", type=Path, help="conversation files (JSON lines, see its README)")
    parser.add_argument("--errors", type=non_negative_int, default=0, metavar="N", help="print N failed turns per file")
    parser.add_argument(
        "--report",
        type=Path,
        default=None,
        metavar="PATH",
        help="write every failed turn of every file to this JSON-lines file "
        "(default: $CORSBOT_HOME/reports/nlu/conversations_<file>.jsonl per file)",
    )
    parser.add_argument(
        "--elicitation",
        default=None,
        metavar="STRATEGY",
        help="as corsbot chat: items suggested to rate after each preference (default $CORSBOT_ELICITATION, "
        "else highest for movies, none for books and music)",
    )
    parser.set_defaults(handler=_cli)


@dataclass(slots=True)
class _Question:
    """The question a reply leaves open: its kind, the object behind it, its buttons."""

    kind: str
    text: str
    about: tuple[str, ...]
    choices: tuple[Choice, ...]
    source: object = None
    identity: tuple[object, ...] = ()


@dataclass(slots=True)
class _Turn:
    """What one scripted turn produced so far (its replies, cards, questions)."""

    replies: list[str] = field(default_factory=list)
    shown: dict[str, Shown] = field(default_factory=dict)
    asked: list[Asked] = field(default_factory=list)


class Player:
    """Plays conversations through one dialog manager and observes each turn (module docstring).

    Args:
        dm: the dialog manager (``bot.dialog.DialogManager``).
        states: a state store on the dialog's database (``bot.store.StateStore``), read after each reply.
        services: the dialog's services (``bot.services.Services``): the domains' KBs.
        prefix: the user keys' prefix (``conversations:<file>``); a conversation's user is ``<prefix>:<id>``.
    """

    def __init__(self, dm: Any, states: Any, services: Any, *, prefix: str) -> None:
        self._dm, self._states, self._services, self._prefix = dm, states, services, prefix
        self._left: dict[tuple[str, frozenset[str], frozenset[str]], bool] = {}

    def play(self, conversation: Conversation) -> list[TurnOutcome]:
        """Play one conversation as a fresh user; one outcome per scripted turn."""
        user = f"{self._prefix}:{conversation.id}"
        screen = self._dm.handle(Turn(user, f"/{conversation.domain}"))
        outcomes = []
        for turn in conversation.turns:
            outcome, screen = self._turn(user, turn, screen)
            outcomes.append(outcome)
        return outcomes

    # ------------------------------------------------------------------ one turn

    def _turn(self, user: str, turn: ScriptedTurn, screen: Reply) -> tuple[TurnOutcome, Reply]:
        state = self._state(user)
        before, domain_before = _profiles(state), str(state.domain)
        refs = self._refs(state, turn.expect)
        seen = _Turn()
        if turn.press is not None:
            button = _button(turn.press, state, screen)
            if button is None:
                outcome = TurnOutcome(
                    "", domain_before, domain_before, before, before, refs=refs,
                    problem=f"no {turn.press} button on screen",
                )  # fmt: skip
                return outcome, screen
            reply = self._dm.handle(Turn(user, button.label, payload=button.payload, interaction_type="mixed"))
        else:
            reply = self._dm.handle(Turn(user, str(turn.text)))
        records = self._dm.last_records(user, 1)
        intent = records[0].intent if records else ""  # nothing logged: a storage error (the reply says so)
        previous = _question(state, Reply(""))  # the reset menu is new each time it is shown
        state, question = self._observe(user, reply, previous, seen)
        asks = None
        if question is not None and question.kind != "suggestion":
            new = previous is None or question.identity != previous.identity
            asks = question.kind if new or question.text in reply.text else None
            if question.kind == RESET_MENU:
                asks = "item"
        if turn.expect.asks is not None:
            seen.asked[:] = [replace(a, by="script") for a in seen.asked]
        else:
            reply, state = self._answer(user, turn.expect, refs, reply, state, question, seen)
        outcome = TurnOutcome(
            intent=intent,
            domain_before=domain_before,
            domain=str(state.domain),
            before=before,
            after=_profiles(state),
            shown=tuple(seen.shown.values()),
            asked=tuple(seen.asked),
            asks=asks,
            refs=refs,
            replies=tuple(seen.replies),
        )
        return outcome, reply

    def _answer(
        self,
        user: str,
        expect: Expectation,
        refs: Mapping[str, tuple[str, ...]],
        reply: Reply,
        state: DialogState,
        question: _Question | None,
        seen: _Turn,
    ) -> tuple[Reply, DialogState]:
        """The oracle: answer the open questions about what the turn expects (module docstring); ``refs``:
        what the turn's ``ref`` entities named before it."""
        answered: set[tuple[int, str]] = set()
        for _step in range(MAX_ORACLE_ANSWERS):
            if question is None:
                break
            button = self._oracle(question, expect, refs, state, answered)
            if button is None:
                break
            for k, asked in enumerate(seen.asked):
                if asked.text == question.text and asked.by == "open":
                    seen.asked[k] = replace(asked, by="oracle", answer=button.label)
            reply = self._dm.handle(Turn(user, button.label, payload=button.payload, interaction_type="mixed"))
            state, question = self._observe(user, reply, question, seen)
        return reply, state

    def _observe(
        self, user: str, reply: Reply, previous: _Question | None, seen: _Turn
    ) -> tuple[DialogState, _Question | None]:
        """Read the state after a reply: a card shown, a new question asked."""
        state = self._state(user)
        seen.replies.append(reply.text)
        qid = _card_item(reply)
        if qid is not None and qid not in seen.shown:
            seen.shown[qid] = self._shown(state, qid)
        question = _question(state, reply)
        if question is not None and (previous is None or question.identity != previous.identity):
            seen.asked.append(Asked(_asked_kind(question), question.text, question.about))
        return state, question

    def _shown(self, state: DialogState, qid: str) -> Shown:
        domain = str(state.domain)
        kb = self._services.domain(domain).kb
        profile = {q: (str(e["polarity"]), e.get("role")) for q, e in state.profile(domain).items()}
        values = tuple((str(p), str(v)) for p, v in kb.item_values(qid)) if kb.has(qid) else ()
        disliked = {_canonical(kb, q) for q, e in profile.items() if e[0] == "-"}
        others_left = True
        if any(_canonical(kb, v) in disliked for _p, v in values):
            others_left = self._others_left(domain, frozenset(disliked), frozenset(profile))
        return Shown(qid, domain, values, profile, others_left)

    def _others_left(self, domain: str, disliked: frozenset[str], rated: frozenset[str]) -> bool:
        """Some unrated item of the domain has no disliked value (issue 23's "something else is left")."""
        key = (domain, disliked, rated)
        if key not in self._left:
            kb = self._services.domain(domain).kb
            self._left[key] = any(
                item not in rated and not any(_canonical(kb, v) in disliked for _p, v in kb.item_values(item))
                for item in kb.items
            )
        return self._left[key]

    def _state(self, user: str) -> DialogState:
        saved = self._states.load_saved(user)
        return saved if saved is not None else DialogState()

    def _refs(self, state: DialogState, expect: Expectation) -> dict[str, tuple[str, ...]]:
        """What the turn's ``ref`` entities name, from the state before it (:func:`nlu.conversation_eval.ref_key`)."""
        pending = state.pending
        refs: dict[str, tuple[str, ...]] = {
            "card": (state.focus,) if state.focus else (),
            "suggested": (pending.qid,) if isinstance(pending, SuggestionQuestion) else (),
        }
        kb = self._services.domain(str(state.domain)).kb
        roles = role_words_for(str(state.domain))
        for entity in (*expect.stored, *expect.not_stored):
            if entity.ref is not None and entity.role is not None:
                pid = roles.get(entity.role)
                items = refs[entity.ref]
                refs[ref_key(entity)] = tuple(
                    dict.fromkeys(str(v) for item in items if kb.has(item) for p, v in kb.item_values(item) if p == pid)
                )
        return refs

    # ------------------------------------------------------------------ the oracle

    def _oracle(
        self,
        question: _Question,
        expect: Expectation,
        refs: Mapping[str, tuple[str, ...]],
        state: DialogState,
        answered: set[tuple[int, str]],
    ) -> Choice | None:
        """The button the oracle taps at ``question``, or None to leave it open."""
        source = question.source
        if question.kind == RESET_MENU or isinstance(source, ResetConfirm):
            if not expect.empty:
                return None
            wanted = "reset:everything" if question.kind == RESET_MENU else "yes"
            return next((c for c in question.choices if c.payload.partition("@")[0] == wanted), None)
        if isinstance(source, SuggestionQuestion) or source is None:
            return None
        entities = expect.not_stored if isinstance(source, DeleteChoice) else expect.stored
        kb = self._services.domain(str(state.domain)).kb
        for k, entity in enumerate(entities):
            if (k, question.kind) in answered:
                continue
            qids = refs.get(ref_key(entity), ()) if entity.ref else (entity.qid,) if entity.qid else ()
            if not _concerns(question, entity, qids, kb):
                continue
            answered.add((k, question.kind))
            return _tap(question, entity, qids, kb, str(state.domain))
        return None


def _concerns(question: _Question, entity: Entity, qids: Sequence[str], kb: Any) -> bool:
    """The question is about the entity: it asks about one of its QIDs, or its text or options name it."""
    canonical = {_canonical(kb, q) for q in qids}
    if canonical & {_canonical(kb, q) for q in question.about}:
        return True
    said = fold(" ".join([question.text, *(c.label for c in question.choices)]))
    names = [fold(n) for n in (entity.label, entity.mention, *(kb.label(q) for q in qids if kb.has(q)))]
    labels = [fold(c.label) for c in question.choices]
    for name in filter(None, names):
        if len(name) < SHORT_NAME:  # "It", "Up": only an option named so, not the word in "Did you like it?"
            if any(starts_with_name(label, name) for label in labels):
                return True
        elif re.search(rf"(?<!\w){re.escape(name)}(?!\w)", said):
            return True
    return False


def _tap(question: _Question, entity: Entity, qids: Sequence[str], kb: Any, domain: str) -> Choice | None:
    """The oracle's button for a question about ``entity`` (module docstring)."""
    choices = question.choices
    source = question.source
    if question.kind == "item":
        options = [(c.label, c.payload) for c in choices if c.payload.startswith("pick:")]
        names = [fold(entity.label), fold(entity.mention)]
        picked = pick_option(options, qids=qids, names=names, describe=lambda q: own_name(kb, q))
        wanted = picked[1] if picked else "none"
        return next((c for c in choices if c.payload == wanted or c.payload.partition("@")[0] == wanted), None)
    if question.kind == "role":
        roles = [c for c in choices if c.payload.startswith("role:")]
        pid = role_words_for(domain).get(entity.role or "")
        return next(
            (c for c in roles if pid and c.payload.partition("@")[0] == f"role:{pid}"), roles[0] if roles else None
        )
    if question.kind == "confirm":
        if isinstance(source, ConfirmQuestion) and source.task.all_values:  # "You don't like these of X: A, B. Right?"
            yes = entity.polarity == source.task.polarity
        else:
            yes = entity.polarity == "+" or (entity.polarity == "ask" and entity.answer == "+")
        wanted = "yes" if yes else "no"
        return next((c for c in choices if c.payload.partition("@")[0] == wanted), None)
    return None


def _question(state: DialogState, reply: Reply) -> _Question | None:
    """The question open after ``reply``: the state's open question, else the reset menu of the reply."""
    pending = state.pending
    if pending is None or isinstance(pending, ResetChoice):  # the reset menu (an open question since issue 22-D)
        if any(c.payload.startswith("reset:") for c in reply.choices):
            return _Question(RESET_MENU, reply.text, (), reply.choices, None, (RESET_MENU, reply.text))
        return None
    kind = _KINDS.get(type(pending), "item")
    text = str(getattr(pending, "question", ""))
    choices = tuple(getattr(pending, "choices", ()) or ())
    about: tuple[str, ...] = ()
    if isinstance(pending, ItemQuestion | ConfirmQuestion):
        about = tuple(pending.task.candidates)
    elif isinstance(pending, RoleQuestion):
        about = (pending.task.qid,)
    elif isinstance(pending, CritiqueChoice | DeleteChoice):
        about = tuple(pending.options)
    elif isinstance(pending, SuggestionQuestion):
        about = (pending.qid,)
    if isinstance(pending, ResetConfirm):  # its buttons are the reply's, not kept in the state
        choices = tuple(c for c in reply.choices if c.payload in ("yes", "no")) or (
            Choice(msg.YES, "yes"),
            Choice(msg.NO, "no"),
        )
    stamp = getattr(pending, "stamp", None)
    return _Question(kind, text, about, choices, pending, (type(pending).__name__, stamp, text, about))


def _asked_kind(question: _Question) -> str:
    return "item" if question.kind == RESET_MENU else question.kind


def _card_item(reply: Reply) -> str | None:
    """The item of the recommendation card a reply shows (its buttons carry ``like:<QID>``), or None."""
    if not reply.card:
        return None
    return next((c.payload.split(":", 1)[1] for c in reply.choices if c.payload.startswith("like:")), None)


def _button(name: str, state: DialogState, screen: Reply) -> Choice | None:
    """The button ``name`` of the card on screen (module docstring), or None if there is none."""
    from bot.dialog.render import card_choices

    if name == "next":
        more = next((c for c in screen.choices if c.payload == "more"), None)
        if more is not None or state.focus is None:
            return more
        name = "skip"
    if state.focus is not None:
        return next((c for c in card_choices(state.focus) if c.payload.partition(":")[0] == name), None)
    pending = state.pending
    if isinstance(pending, SuggestionQuestion) and name in _SUGGESTION_SAID:
        wanted = f"sugg:{_SUGGESTION_SAID[name]}:"
        return next((c for c in pending.choices if c.payload.startswith(wanted)), None)
    return None


def _profiles(state: DialogState) -> Profiles:
    return {
        domain: {str(q): (str(e["polarity"]), e.get("role")) for q, e in entries.items()}
        for domain, entries in state.profiles.items()
    }


def _canonical(kb: Any, qid: str) -> str:
    canonical = getattr(kb, "canonical", None)
    return str(canonical(qid)) if callable(canonical) else qid


def _lookup(services: Any) -> Lookup:
    def in_kb(domain: str, qid: str) -> bool:
        return bool(services.domain(domain).kb.has(qid))

    def canonical(domain: str, qid: str) -> str:
        return _canonical(services.domain(domain).kb, qid)

    def label(domain: str, qid: str) -> str:
        kb = services.domain(domain).kb
        return str(kb.label(qid)) if kb.has(qid) else qid

    return Lookup(in_kb, canonical, label)


# ---------------------------------------------------------------------- the command


def evaluate_file(
    player: Player, conversations: Sequence[Conversation], lookup: Lookup
) -> tuple[list[ConversationResult], float]:
    """Play and check one file's conversations; returns the results and the seconds it took."""
    started = time.perf_counter()
    results = [check_conversation(c, player.play(c), lookup) for c in conversations]
    return results, time.perf_counter() - started


def _print_file(results: list[ConversationResult], *, name: str, seconds: float, errors: int, report: str) -> str:
    """Print a file's breakdowns and failed turns; returns its key=value line."""
    for group, scores in by_group(results, lambda c: [c.domain]).items():
        print(f"{name} domain {group}: {scores.brief()}")
    for group, scores in by_group(results, lambda c: c.tags or ("none",)).items():
        print(f"{name} tag {group}: {scores.brief()}")
    total = score(results)
    for error in total.errors[:errors]:
        replies = " | ".join(str(r).replace("\n", " ")[:90] for r in error["replies"])
        print(f"  fail {error['id']} turn {error['turn']}: {error['said']!r} -> {'; '.join(error['problems'])}")
        print(f"       bot: {replies[:300]}")
    print(
        f"{name}: {total.conversations} conversations, {total.turns} turns, {total.lists} cards shown in"
        f" {seconds:.1f} s; failed turns in {report}"
    )
    return total.line()


def _cli(args: argparse.Namespace) -> int:
    from bot.cli.chat import elicitation_setting
    from bot.compose import build_dialog_manager, load_services
    from bot.store import StateStore
    from bot.suggestion import parse_elicitation
    from corsbot_errors import ConfigError

    for path in args.files:
        if not Path(path).is_file():
            raise ConfigError(f"no conversation file at {path}")
    if args.report is not None and (args.report.is_dir() or not args.report.parent.is_dir()):
        raise ConfigError(f"--report {args.report}: give a file in an existing folder")
    files = [(Path(path), load_conversations(Path(path))) for path in args.files]
    _unique_ids(files)
    setting = elicitation_setting(args)  # a bad name: one clear error before the models load
    services = load_services(logged_likes=False)  # figures independent of what was chatted here
    lookup = _lookup(services)
    strategies = " ".join(f"{d}={s}" for d, s in parse_elicitation(setting).items())
    print(f"dialog: as corsbot chat (elicitation {strategies}, role questions)")
    lines, rows = [], []
    with tempfile.TemporaryDirectory(prefix="corsbot-conversations-") as tmp:
        db = Path(tmp) / "conversations.sqlite3"
        dm = build_dialog_manager(db=db, session="conversations", services=services, elicitation=setting, scratch=True)
        states = StateStore(db)
        try:
            for path, conversations in files:
                player = Player(dm, states, services, prefix=f"conversations:{path.stem}")
                results, seconds = evaluate_file(player, conversations, lookup)
                failed = [{"file": path.name, **e} for e in score(results).errors]
                report = args.report or paths.reports_dir() / "nlu" / f"conversations_{path.stem}.jsonl"
                if args.report is None:
                    _write_report(report, failed)
                rows.extend(failed)
                line = _print_file(results, name=path.name, seconds=seconds, errors=args.errors, report=str(report))
                lines.append((path.name, line))
        finally:
            states.close()
    if args.report is not None:
        _write_report(args.report, rows)
    for name, line in lines:
        print(f"{name}: conversations: {line}")
    print(f"conversations: {lines[-1][1]}")
    return 0


def _write_report(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    """Write failed turns as JSON lines (``logs.output.write_text``: atomic for a file, ``-`` = stdout).

    Raises:
        ConfigError: the file cannot be written (names it and why).
    """
    from corsbot_errors import ConfigError
    from logs.output import write_text

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text(path, "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))
    except OSError as exc:
        raise ConfigError(f"cannot write the report {path}: {exc.strerror or exc}") from exc


def _unique_ids(files: Sequence[tuple[Path, Sequence[Conversation]]]) -> None:
    """Ids are unique over the files given (the README: over both sets).

    Raises:
        NluError: an id of two files, naming both.
    """
    from nlu.errors import NluError

    seen: dict[str, Path] = {}
    for path, conversations in files:
        for conversation in conversations:
            if conversation.id in seen and seen[conversation.id] != path:
                raise NluError(f"{path}:{conversation.line}: id {conversation.id!r} is also in {seen[conversation.id]}")
            seen.setdefault(conversation.id, path)
