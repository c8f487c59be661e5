"""The values of one understood turn (issue 24: split from ``nlu.understand``): what the dialog shows
(:class:`View`), a pressed button (:class:`Payload`), a linked mention with its opinion (:class:`Reading`), what
the turn says (:class:`TurnParse`), and the seams of the components ``understand`` uses (structural types).

Reads nothing; built by :func:`nlu.understand.understand` (``TurnParse`` only there) and by the dialog (``View``).

Example:
    >>> Payload.parse("pick:1@7")
    Payload(kind='pick', value='1', stamp='7')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from nlu.disambiguation import Choice as AnswerChoice
from nlu.linker import Mention
from nlu.requests import Request
from nlu.sentiment import Polarity
from nlu.suggestion_answer import Answer as SuggestionAnswer
from recommender.schema import QID

__all__ = [
    "AnswerChoice",
    "IntentModel",
    "IntentPredictionLike",
    "Linker",
    "Payload",
    "PolarityModel",
    "Reading",
    "TurnParse",
    "View",
]

# ---------------------------------------------------------------------------------------------
# the seams (structural types of the components understand() uses)


class IntentPredictionLike(Protocol):
    @property
    def intent(self) -> str: ...
    @property
    def alternatives(self) -> Sequence[tuple[str, float]]: ...


class IntentModel(Protocol):
    """``nlu.intents.IntentRecognizer`` (or a test stand-in)."""

    def predict(
        self, text: str, contexts: Sequence[str] = (), *, events: Sequence[str] | None = None, domain: str | None = None
    ) -> IntentPredictionLike: ...


class Linker(Protocol):
    """``nlu.linker.EntityLinker`` (or a test stand-in)."""

    def link(self, text: str, *, focus: QID | None = None, history: Sequence[QID] = ()) -> Sequence[Mention]: ...


class PolarityModel(Protocol):
    """``nlu.sentiment.SentimentRecognizer`` (or a test stand-in)."""

    def polarities(self, text: str, spans: Sequence[tuple[int, int]]) -> Sequence[Polarity]: ...
    def message_polarity(self, text: str) -> Polarity: ...


# ---------------------------------------------------------------------------------------------
# values


@dataclass(frozen=True, slots=True)
class View:
    """What the dialog shows when the user speaks (the dialog builds it; ``nlu`` never imports ``bot``).

    Attributes:
        domain: ``"movie"``, ``"book"`` or ``"music"``.
        focus: the QID of the item on screen (a recommendation card), or None.
        question: the kind of the open question (``"item"``, ``"role"``, ``"confirm"``,
            ``"critique"``, ``"delete"``, ``"reset"``, ...), or None.
        options: words naming each option of the open question (or, with ``refinable``, of the
            preference stored by the previous turn), for typed answers; see
            :func:`nlu.disambiguation.parse_option`.
        answer_kind: how typed answers are read: ``"item"``, ``"role"`` or ``"confirm"``.
        has_profile: the user has stored preferences in this domain.
        contexts: the contexts the intent recognizer gets (the previous turn's logged contexts).
        blocked: intents the dialog cannot take now (their input contexts are not active, or the
            open question or card they answer is not there); the best admissible one is chosen.
        refinable: the previous turn stored preferences that a short follow-up may refine
            ("actor", "the 1998 one", "none of them").
        stamp: the number of the open question, carried by its buttons' payloads (``pick:1@7``).
        suggested: the QID of the item the open ``suggestion`` question asks about (issue 13), or None.
        asked: the QIDs the open preference question is about (its candidates): another name said with
            an opinion is a new preference, not its answer (issue 22).
        history: QIDs the conversation named before, oldest first (the profile of the domain): the linker's
            ``history`` (a person liked before says which namesake is meant: "heat" after "i love michael mann";
            issue 22-D).
        wants_list: the previous reply asked for one thing the user likes to recommend from ("Tell me one thing
            you like first"): a message of names alone answers it, a request seeded by them (issue 22-G).
        asked_last: the open question was asked after the card on screen was shown (the previous reply asked it and
            showed no card): "I like it" then answers "Did you like X?", not the card (fresh8 fault 1).
        moved_on: the previous turn rated or skipped a card and showed the one on screen: a self-correction right
            after it is about the card before (fresh tester, faults 1 and 8).
        rated: the QID of the suggested item the previous turn rated ("I love this film" at "Do you like
            Jaws?"), or None: a bare name next is that opinion's follow-up ("Family Film", "Roy Scheider"), a
            refinement with the rating's polarity, as after a typed preference ("I like Heat" -> "Ronin"; the
            study's agent: ``preference - disambiguation`` in the ``preference-followup`` context).
    """

    domain: str = "movie"
    focus: str | None = None
    question: str | None = None
    options: tuple[tuple[str, ...], ...] = ()
    answer_kind: str | None = None
    has_profile: bool = False
    contexts: tuple[str, ...] = ()
    blocked: frozenset[str] = frozenset()
    refinable: bool = False
    stamp: str | None = None
    suggested: str | None = None
    asked: frozenset[str] = frozenset()
    history: tuple[str, ...] = ()
    wants_list: bool = False
    asked_last: bool = False
    moved_on: bool = False
    rated: str | None = None


@dataclass(frozen=True, slots=True)
class Payload:
    """A pressed button's payload, e.g. ``pick:1@7`` = kind ``pick``, value ``1``, question 7."""

    kind: str
    value: str = ""
    stamp: str | None = None

    @classmethod
    def parse(cls, raw: str) -> Payload:
        """Split ``kind:value@stamp`` (a question's buttons carry the question's number)."""
        stamp = None
        if "@" in raw:
            raw, _, stamp = raw.rpartition("@")
        kind, _, value = raw.partition(":")
        return cls(kind, value, stamp)


@dataclass(frozen=True, slots=True)
class Reading:
    """One linked mention with its polarity: a preference the user may have expressed.

    Attributes:
        mention: the linker's mention (candidates best first).
        polarity: the user's opinion of it in this message.
        stated_role: a role PID said right after the name ("Tom Cruise as a producer"), or None.
        embedded: the mention is a piece of a longer capitalised name typed around it ("Innocence" in
            "Songs of Innocence": ``nlu.mention_context.in_longer_name``), maybe a title the KB lacks.
    """

    mention: Mention
    polarity: Polarity
    stated_role: str | None = None
    embedded: bool = False

    @property
    def qid(self) -> str:
        """The best candidate's QID."""
        return str(self.mention.candidates[0].qid)


@dataclass(frozen=True, slots=True)
class TurnParse:
    """What one turn says (see the module docstring); built only by :func:`understand`.

    Attributes:
        text: the normalised text (for a card's like/dislike button, what the button says).
        intent: the dialog-act intent (a name of ``logs.schema.Intent`` or a smalltalk intent).
        payload: the pressed button, if any.
        command: the slash command without ``/`` (``"start"``), if any.
        switch_to: the domain the user asks to switch to, if any.
        empty: the message has no letters at all ("?!?", "👍👍").
        answer: the option the turn chooses for the open question: an index, ``"none"``, or None.
        readings: linked mentions with polarity (mere references to the item on screen, "it",
            are left out unless the turn is about that item).
        stale: a button of an older question or card, or a payload the state cannot take.
        message_polarity: the message's opinion of the item on screen (only with a focus).
        hedged: that opinion is a hedge ("meh", "it's ok i guess"): asked about, never stored as said (issue 22).
        details_of: the QID of an item asked about by name ("details of Inception"), or None.
        no_item_on_screen: a card question ("why?") with no card on screen.
        roles: role PIDs named anywhere in the text ("the director").
        bare_answer: a short message with no opinion verb ("actor", "the 1998 one").
        names_only: the message is (almost) nothing but names the linker knows.
        what_to_rate: "what should I rate?"; rate_menu: the "Rate movies" menu button.
        delete_target: the words naming what to delete ("delete my Titanic" -> "Titanic").
        yes_no: ``"yes"``/``"no"`` for a bare yes or no, else None.
        affirmative: the message starts with a yes ("yes please"); said_no: it has a no-word anywhere
            ("yes no", "sure, no wait"); negative: it says none/no
            ("none of them", "no").
        confirmation: ``"yes"``/``"no"`` when a small-talk confirmation ("sure", "cancel")
            answers the open yes/no question.
        linked: how many times the text was linked (0 or 1; tests count it).
        suggestion: how the turn relates to the open suggestion (``nlu.suggestion_answer.Answer``:
            rate / skip / roles / new), or None (no suggestion open, or not about it).
        role_opinions: ``(PID, polarity)`` of the role words of a preference ("I like Pulp Fiction
            for the director" -> ``(("P57", "+"),)``), each with the polarity of its clause.
        opinion_of_open: ``"+"``/``"-"`` when the message is an opinion about what the open preference
            question asks about and names nothing else ("I like it" at "Did you like Green Street?" or
            at "Which Titanic do you mean?"): an answer to it, never small talk; or, with no question
            open, about another reading of the words just stored ("the 1933 one is a classic too"); else None.
        about_suggested: the card intent (why / details / trailer) of a question about the item of the
            open suggestion ("why did you recommend this movie?" while no list is open), else None.
        correction: the message opens with a self-correction ("no wait", "actually", "sorry, I meant"):
            it revises what was stored before (``nlu.turn_cues``; issue 22).
        substitutes: QIDs of the readings put in place of another ("I meant X", "I was thinking of X").
        set_aside: QIDs a self-correction says were not meant ("sorry, it was A I couldn't finish, not B": B);
            their readings are left out.
        also: the message is only names added to what was just said ("X too", "also X"), or another reading
            of the words just stored with an additive word ("the 1933 one is a classic too").
        request: the request for recommendations the turn makes (``nlu.requests``: its seeds, "more"),
            or None; with one, the intent is ``request_recommendation`` and ``readings`` are its names.
        card_fact: the one fact of the item on screen (or suggested) a question asks for: ``"creator"``
            ("who is it by?") or ``"year"`` ("when is it from?"), else None (``nlu.phrasings.card_fact``).
        this_time: the message's constraint holds for now only ("not Radiohead this time", "no horror
            for now": ``nlu.phrasings.for_this_time``), not as a stored opinion ("no horror please" is one).
        reset_scope: ``"everything"`` when a reset's words say what to reset ("forget everything", "start
            over": ``nlu.phrasings.reset_scope``; issue 22-D), else None.
        revised: the opinion a self-correction says by reference of what the previous turn stored ("actually
            scratch that, it was dumb": ``"-"``; ``nlu.turn_cues.revised_opinion``, issue 22-H), else None.
        previous_card: the opinion (``"+"``/``"-"``) the message says of the card shown before the one on screen
            ("oops no, i didn't like the previous one": ``nlu.turn_cues.previous_card_opinion``), else None.
        retracts: the message takes back an opinion ("i never said i liked X": ``nlu.turn_cues.retracts``); its
            readings are no preference (issue 22-D).
        off_topic: the message asks about something else than films, books and music and names nothing ("what's
            the weather like?": ``nlu.phrasings.off_topic``, r7dlg); a fallback that says what the bot talks about.
    """

    text: str
    intent: str
    payload: Payload | None = None
    command: str | None = None
    switch_to: str | None = None
    empty: bool = False
    answer: AnswerChoice = None
    readings: tuple[Reading, ...] = ()
    message_polarity: Polarity | None = None
    hedged: bool = False
    details_of: str | None = None
    no_item_on_screen: bool = False
    roles: tuple[str, ...] = ()
    bare_answer: bool = False
    names_only: bool = False
    what_to_rate: bool = False
    rate_menu: bool = False
    delete_target: str = ""
    yes_no: str | None = None
    affirmative: bool = False
    said_no: bool = False
    negative: bool = False
    confirmation: str | None = None
    linked: int = 0
    stale: bool = False
    alternatives: tuple[str, ...] = field(default_factory=tuple)
    suggestion: SuggestionAnswer | None = None
    role_opinions: tuple[tuple[str, str], ...] = ()
    opinion_of_open: str | None = None
    about_suggested: str | None = None
    correction: bool = False
    substitutes: tuple[str, ...] = ()
    set_aside: tuple[str, ...] = ()
    also: bool = False
    request: Request | None = None
    card_fact: str | None = None
    this_time: bool = False
    reset_scope: str | None = None
    retracts: bool = False
    off_topic: bool = False
    revised: str | None = None
    previous_card: str | None = None
