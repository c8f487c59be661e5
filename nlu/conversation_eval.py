"""Scoring of ``corsbot nlu evaluate-conversations``: whole scripted conversations checked turn by turn (issue 22).

The conversations and their expectations are specified in ``tests/data/conversations/README.md`` and
loaded by :mod:`nlu.conversation_set`. The driver (``bot/cli/conversations.py``) plays each one through
the real dialog manager, answers the bot's unforeseen questions as the README's oracle says, and hands
one :class:`TurnOutcome` per scripted turn (what it observed: profiles before and after, cards shown,
questions asked, the logged intent, the domain) to :func:`check_conversation`. This module only
checks and scores: it never drives the dialog, so ``nlu`` does not import ``bot``.

Checks of a turn: its written expectations, and the unwritten ones of every turn: nothing stored that
the turn does not expect (spurious), and no card of an item the profile rates, or of an item with a
value (genre, person, band, author...) the profile dislikes unless no other item is left (issue 23).

The last line (:meth:`Scores.summary_line`)::

    conversations: n=N turn_accuracy=X conversation_success=Y polarity_errors=P lost_preferences=L
    spurious=S recommendation_violations=V questions_per_turn=Q

- ``turn_accuracy``: scripted turns whose every expectation (written and unwritten) holds / turns;
- ``conversation_success``: conversations with every turn right / conversations;
- ``polarity_errors``: stored entries (new or changed in a turn) with the polarity opposite to the
  expected one, or a strong polarity for an ``ask`` entity the bot did not ask about / stored entries;
- ``lost_preferences``: expected entities (``+``/``-`` with a QID in the KB, or a ``ref``) not in the
  profile with that polarity after their turn / expected entities;
- ``spurious``: stored entries that no turn of the conversation expects / stored entries;
- ``recommendation_violations``: cards shown that break a ``list_excludes`` constraint or the
  unwritten rules (a count);
- ``questions_per_turn``: questions the bot asked (answered by the script or the oracle, or left
  open) / scripted turns. Rates have 3 decimals; a rate over nothing is ``0.000``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from nlu.conversation_set import DOMAINS, Conversation, Entity, Exclusion, ScriptedTurn
from recommender.schema import role_words_for

__all__ = [
    "Asked",
    "ConversationResult",
    "Lookup",
    "Scores",
    "Shown",
    "TurnOutcome",
    "TurnResult",
    "by_group",
    "check_conversation",
    "check_turn",
    "ref_key",
    "score",
]

Entry = tuple[str, str | None]
"""A profile entry: ``(polarity, role PID or None)``."""
Profiles = Mapping[str, Mapping[str, Entry]]
"""Every domain's profile: ``domain -> QID -> entry``."""


def ref_key(entity: Entity) -> str:
    """The key of :attr:`TurnOutcome.refs` an entity's ``ref`` resolves with: ``card``, ``suggested``,
    ``card:director``."""
    return f"{entity.ref}:{entity.role}" if entity.role else str(entity.ref)


@dataclass(frozen=True, slots=True)
class Lookup:
    """What the checks need of the knowledge bases, per domain.

    Attributes:
        in_kb: ``in_kb(domain, qid)``: the QID is in that domain's KB.
        canonical: ``canonical(domain, qid)``: the entity a QID became in that KB (merged genres:
            ``KnowledgeBase.canonical``).
        label: ``label(domain, qid)``: a name for reports.
    """

    in_kb: Callable[[str, str], bool]
    canonical: Callable[[str, str], str] = lambda domain, qid: qid
    label: Callable[[str, str], str] = lambda domain, qid: qid


@dataclass(frozen=True, slots=True)
class Asked:
    """A question the bot asked in a turn (a new open question, or the reset menu).

    Attributes:
        kind: ``item`` (which one? also a critique's or a deletion's options, the reset menu),
            ``role``, ``confirm`` (did you like it? also the reset confirmation) or ``suggestion``
            (an item to rate, the elicitation's own question).
        text: the question as shown.
        about: the QIDs it asks about (the candidates, the person, the suggested item).
        by: ``oracle`` (answered by it), ``script`` (``asks`` set: the next turn answers) or ``open``.
        answer: the oracle's button label.
    """

    kind: str
    text: str
    about: tuple[str, ...] = ()
    by: str = "open"
    answer: str = ""


@dataclass(frozen=True, slots=True)
class Shown:
    """A recommendation card shown in a turn.

    Attributes:
        qid: its item.
        domain: the domain it was shown in.
        values: the item's ``(PID, value QID)`` in the KB (genres, people, band, author...).
        profile: that domain's profile when the card was shown.
        others_left: some unrated item of the domain has no value the profile dislikes (else an item
            with a disliked value is no violation: issue 23, nothing else is left).
    """

    qid: str
    domain: str
    values: tuple[tuple[str, str], ...] = ()
    profile: Mapping[str, Entry] = field(default_factory=dict)
    others_left: bool = True


@dataclass(frozen=True, slots=True)
class TurnOutcome:
    """What the dialog did with one scripted turn and the oracle's answers after it.

    Attributes:
        intent: the intent logged for the scripted turn.
        domain_before, domain: the bot's domain before and after the turn.
        before, after: every domain's profile before the turn and after the oracle's last answer.
        shown: the cards shown in the turn's replies (each item once).
        asked: the questions asked in the turn's replies, in order.
        asks: the kind of question (``item``, ``role``, ``confirm``) the scripted turn's reply asks,
            or None (none, or only an elicitation suggestion).
        refs: what the turn's ``ref`` entities name (:func:`ref_key` -> QIDs; empty: nothing on
            screen): ``card`` the card on screen before the turn, ``suggested`` the open suggestion's
            item, ``card:director`` the card item's directors.
        replies: the texts of the turn's replies (for the report).
        problem: why the turn could not be played (a press of a button not on screen), or None.
    """

    intent: str
    domain_before: str
    domain: str
    before: Profiles
    after: Profiles
    shown: tuple[Shown, ...] = ()
    asked: tuple[Asked, ...] = ()
    asks: str | None = None
    refs: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    replies: tuple[str, ...] = ()
    problem: str | None = None


@dataclass(slots=True)
class TurnResult:
    """The checks of one turn: ``problems`` (empty = the turn is right) and its counts."""

    said: str
    problems: list[str] = field(default_factory=list)
    entries: list[tuple[str, str, str]] = field(default_factory=list)  # (domain, QID, polarity) new/changed
    expected_qids: set[str] = field(default_factory=set)
    polarity_errors: int = 0
    expected: int = 0
    lost: int = 0
    lists: int = 0
    violations: int = 0
    questions: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(slots=True)
class ConversationResult:
    """A conversation's turn results; ``spurious`` counts its stored entries that no turn expects."""

    conversation: Conversation
    turns: list[TurnResult]
    outcomes: list[TurnOutcome]
    spurious: int = 0

    @property
    def ok(self) -> bool:
        return all(t.ok for t in self.turns)


def check_conversation(
    conversation: Conversation, outcomes: Sequence[TurnOutcome], lookup: Lookup
) -> ConversationResult:
    """Check every turn of a played conversation (``outcomes[i]`` of ``conversation.turns[i]``).

    Raises:
        ValueError: not one outcome per scripted turn.
    """
    if len(outcomes) != len(conversation.turns):
        raise ValueError(f"{conversation.id}: {len(outcomes)} outcomes for {len(conversation.turns)} turns")
    turns = [check_turn(t, o, lookup) for t, o in zip(conversation.turns, outcomes, strict=True)]
    expected = set().union(*(t.expected_qids for t in turns))
    spurious = sum(1 for t in turns for _d, qid, _p in t.entries if qid not in expected)
    return ConversationResult(conversation, turns, list(outcomes), spurious)


def check_turn(turn: ScriptedTurn, outcome: TurnOutcome, lookup: Lookup) -> TurnResult:
    """Check one turn's written and unwritten expectations (module docstring) against its outcome."""
    result = TurnResult(turn.said(), questions=len(outcome.asked))
    if outcome.problem:
        result.problems.append(outcome.problem)
    checker = _Checker(turn, outcome, lookup, result)
    checker.stored()
    checker.not_stored()
    checker.spurious()
    checker.lists()
    checker.others()
    return result


class _Checker:
    """The checks of one turn, sharing the canonical profiles and the resolved entities."""

    def __init__(self, turn: ScriptedTurn, outcome: TurnOutcome, lookup: Lookup, result: TurnResult) -> None:
        self.turn, self.expect, self.outcome, self.lookup, self.result = turn, turn.expect, outcome, lookup, result
        # where an expected QID is looked up: the domain the turn expects, the bot's, then any other
        self.domains = list(
            dict.fromkeys((*filter(None, (turn.expect.domain,)), outcome.domain, outcome.domain_before, *DOMAINS))
        )
        self.after = self._canonical_profiles(outcome.after)
        before = self._canonical_profiles(outcome.before)
        result.entries = [(d, q, e[0]) for (d, q), e in self.after.items() if before.get((d, q)) != e]
        confirmed = [a for a in outcome.asked if a.kind == "confirm"]
        self.confirmed = {self._canonical(q)[0] for a in confirmed for q in a.about}

    def _canonical_profiles(self, profiles: Profiles) -> dict[tuple[str, str], Entry]:
        canonical = self.lookup.canonical
        return {(d, canonical(d, q)): (e[0], e[1]) for d, entries in profiles.items() for q, e in entries.items()}

    def _canonical(self, qid: str) -> tuple[str, bool]:
        """``qid`` as the first KB that has it has it (the turn's expected domain, the bot's after and
        before the turn, the others), and whether one has it."""
        for domain in self.domains:
            if self.lookup.in_kb(domain, qid):
                return self.lookup.canonical(domain, qid), True
        return qid, False

    def _resolve(self, entity: Entity) -> tuple[tuple[str, ...], bool]:
        """The canonical QIDs an entity names and whether it counts for ``lost_preferences`` (a QID in
        the KB; a ``ref``, unless its item has nobody in the role)."""
        if entity.ref is not None:
            qids = tuple(self._canonical(q)[0] for q in self.outcome.refs.get(ref_key(entity), ()))
            shown = bool(self.outcome.refs.get(str(entity.ref)))
            return qids, bool(qids) or not shown
        if entity.qid is None:
            return (), False
        qid, known = self._canonical(entity.qid)
        return (qid,), known

    def _held(self, qids: Iterable[str], polarity: str | None) -> str | None:
        """The polarity the profile holds one of ``qids`` with (``polarity`` first), or None."""
        found = None
        for (_d, q), (p, _role) in self.after.items():
            if q in qids:
                if polarity is None or p == polarity:
                    return p
                found = p
        return found

    def _name(self, qid: str, domain: str | None = None) -> str:
        return f"{self.lookup.label(domain or self.domains[0], qid)} ({qid})"

    def stored(self) -> None:
        result = self.result
        by_qid = {q: p for _d, q, p in result.entries}
        for entity in self.expect.stored:
            qids, countable = self._resolve(entity)
            result.expected_qids.update(qids)
            if entity.polarity == "ask":
                want = "+" if entity.answer == "+" else "-"
                for qid in (q for q in qids if q in by_qid):
                    if qid not in self.confirmed:
                        result.problems.append(f"stored {self._name(qid)}{by_qid[qid]} without asking (a hedge)")
                    elif by_qid[qid] != want:
                        result.problems.append(f"stored {self._name(qid)}{by_qid[qid]}, answered {want}")
                continue
            result.expected += countable
            if not countable:
                continue  # not in the KB (or the card has nobody in the role): only checked as spurious stores
            held = self._held(qids, entity.polarity) if qids else None
            if held != entity.polarity:
                result.lost += 1
                why = f" (held {held})" if held else "" if qids else " (nothing of that on screen)"
                result.problems.append(f"not stored: {entity.describe()}{why}")
        for qid, polarity in by_qid.items():
            meant = self._expecting(qid)
            if meant is None:
                continue
            if meant.polarity == "ask":
                want = "+" if meant.answer == "+" else "-"
                result.polarity_errors += qid not in self.confirmed or polarity != want
            else:
                result.polarity_errors += polarity != meant.polarity

    def _expecting(self, qid: str) -> Entity | None:
        for entity in self.expect.stored:
            if qid in self._resolve(entity)[0]:
                return entity
        return None

    def not_stored(self) -> None:
        for entity in self.expect.not_stored:
            qids = self._resolve(entity)[0]
            if not qids and entity.label:  # a title the KB lacks: nothing of that name may be stored
                names = {entity.label.casefold()}
                qids = tuple(q for (d, q) in self.after if self.lookup.label(d, q).casefold() in names)
            for (domain, qid), (polarity, _role) in self.after.items():
                if qid in qids and entity.polarity in (None, polarity):
                    self.result.problems.append(f"still stored: {self._name(qid, domain)}{polarity}")

    def spurious(self) -> None:
        """The unwritten check: what the turn stored and does not expect (a like/dislike press expects
        the card's item)."""
        result = self.result
        if self.turn.press in ("like", "dislike"):
            result.expected_qids.update(self._canonical(q)[0] for q in self.outcome.refs.get("card", ()))
        for domain, qid, polarity in result.entries:
            if qid not in result.expected_qids:
                result.problems.append(f"stored, not expected: {self._name(qid, domain)}{polarity}")

    def lists(self) -> None:
        expect, result = self.expect, self.result
        if expect.shows_list is not None and bool(self.outcome.shown) != expect.shows_list:
            result.problems.append("no list shown" if expect.shows_list else "a list shown")
        for card in self.outcome.shown:
            result.lists += 1
            broken = self._violations(card, expect.list_excludes)
            if broken:
                result.violations += 1
                name = f"{self.lookup.label(card.domain, card.qid)} ({card.qid})"
                result.problems.append(f"list shows {name}: {'; '.join(broken)}")

    def _violations(self, card: Shown, excludes: Sequence[Exclusion]) -> list[str]:
        canonical, domain = self.lookup.canonical, card.domain
        item = canonical(domain, card.qid)
        values = [(pid, canonical(domain, v)) for pid, v in card.values]
        profile = {canonical(domain, q): e for q, e in card.profile.items()}
        out = []
        if item in profile:
            out.append("an item the profile " + ("likes" if profile[item][0] == "+" else "dislikes"))
        for pid, value in values:
            entry = profile.get(value)
            if entry and entry[0] == "-" and entry[1] in (None, pid) and card.others_left:
                out.append(f"disliked {self.lookup.label(domain, value)} ({value})")
        roles = role_words_for(domain)
        for rule in excludes:
            if rule.qid is not None and canonical(domain, rule.qid) == item:
                out.append(f"excluded item {rule.qid}")
            elif rule.value is not None:
                wanted, in_role = canonical(domain, rule.value), roles.get(rule.role) if rule.role else None
                if any(v == wanted and in_role in (None, p) for p, v in values):
                    out.append(f"excluded value {rule.value}" + (f" as {rule.role}" if rule.role else ""))
        return list(dict.fromkeys(out))

    def others(self) -> None:
        expect, outcome, problems = self.expect, self.outcome, self.result.problems
        if expect.asks is not None:
            asked = outcome.asks
            if expect.asks is True and asked is None:
                problems.append("asked no question")
            elif expect.asks is False and asked is not None:
                problems.append(f"asked a question ({asked})")
            elif isinstance(expect.asks, str) and asked != expect.asks:
                problems.append(f"asked {asked or 'nothing'}, not {expect.asks}")
        if expect.intents is not None and outcome.intent not in expect.intents:
            problems.append(f"intent {outcome.intent} (expected {' or '.join(expect.intents)})")
        if expect.domain is not None and outcome.domain != expect.domain:
            problems.append(f"domain {outcome.domain} (expected {expect.domain})")
        for domain in expect.empty or ():
            if outcome.after.get(domain):
                problems.append(f"{domain} profile not empty ({len(outcome.after[domain])} entries)")


@dataclass(slots=True)
class Scores:
    """Counts behind the ``conversations:`` line (module docstring); ``errors``: the failed turns."""

    conversations: int = 0
    successes: int = 0
    turns: int = 0
    right: int = 0
    entries: int = 0
    polarity_errors: int = 0
    expected: int = 0
    lost: int = 0
    spurious: int = 0
    lists: int = 0
    violations: int = 0
    questions: int = 0
    errors: list[dict[str, Any]] = field(default_factory=list)

    def add(self, result: ConversationResult) -> None:
        """Count one checked conversation (and keep its failed turns for the report)."""
        conversation = result.conversation
        self.conversations += 1
        self.successes += result.ok
        self.spurious += result.spurious
        for k, (turn, outcome) in enumerate(zip(result.turns, result.outcomes, strict=True), 1):
            self.turns += 1
            self.right += turn.ok
            self.entries += len(turn.entries)
            self.polarity_errors += turn.polarity_errors
            self.expected += turn.expected
            self.lost += turn.lost
            self.lists += turn.lists
            self.violations += turn.violations
            self.questions += turn.questions
            if not turn.ok:
                self.errors.append(_error(conversation, k, turn, outcome))

    @staticmethod
    def _ratio(a: int, b: int) -> str:
        return f"{a / b:.3f}" if b else "0.000"

    def line(self) -> str:
        """``n=N turn_accuracy=X ... questions_per_turn=Q`` (without the ``conversations:`` name)."""
        r = self._ratio
        return (
            f"n={self.conversations} turn_accuracy={r(self.right, self.turns)}"
            f" conversation_success={r(self.successes, self.conversations)}"
            f" polarity_errors={r(self.polarity_errors, self.entries)}"
            f" lost_preferences={r(self.lost, self.expected)}"
            f" spurious={r(self.spurious, self.entries)}"
            f" recommendation_violations={self.violations}"
            f" questions_per_turn={r(self.questions, self.turns)}"
        )

    def summary_line(self) -> str:
        """The command's last line: ``conversations: n=N turn_accuracy=X ...``."""
        return f"conversations: {self.line()}"

    def brief(self) -> str:
        """Turn accuracy and conversation success with their counts, for the per-tag and per-domain lines."""
        return (
            f"conversations={self.conversations} turns={self.turns}"
            f" turn_accuracy={self._ratio(self.right, self.turns)}"
            f" conversation_success={self._ratio(self.successes, self.conversations)}"
        )


def _error(conversation: Conversation, number: int, turn: TurnResult, outcome: TurnOutcome) -> dict[str, Any]:
    """A failed turn for the report (one JSON object)."""
    return {
        "id": conversation.id,
        "turn": number,
        "said": turn.said,
        "problems": turn.problems,
        "intent": outcome.intent,
        "domain": outcome.domain,
        "stored": [f"{q}{p}" for _d, q, p in turn.entries],
        "shown": [card.qid for card in outcome.shown],
        "asked": [f"{a.kind}: {a.text}" + (f" -> {a.answer}" if a.answer else f" ({a.by})") for a in outcome.asked],
        "replies": list(outcome.replies),
        "tags": list(conversation.tags),
    }


def score(results: Iterable[ConversationResult]) -> Scores:
    """The scores of checked conversations."""
    scores = Scores()
    for result in results:
        scores.add(result)
    return scores


def by_group(results: Sequence[ConversationResult], key: Callable[[Conversation], Iterable[str]]) -> dict[str, Scores]:
    """:func:`score` per group, a conversation in every group ``key`` names (its domain, each of its
    tags); groups in sorted order."""
    groups: dict[str, list[ConversationResult]] = {}
    for result in results:
        for name in dict.fromkeys(key(result.conversation)):
            groups.setdefault(name, []).append(result)
    return {name: score(groups[name]) for name in sorted(groups)}
