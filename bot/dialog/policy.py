"""The dialog policy in one table: (open-question kind, dialogue act) -> handler.

Read it next to ``bot/agent_spec.py`` (the original agent's intents and contexts). The act of a turn
is its intent (``nlu.understand.TurnParse.intent``, after the classifier, the contexts the dialog
admits and the overrules), or one of the acts below for what has no intent of its own (an answer to
the open question, a tapped suggestion, a stale button...). A row for the open question's kind wins
over the row for any kind (``ANY``); a turn with no row is a fallback. Handlers receive a
:class:`~bot.dialog.context.TurnContext`, return an :class:`~bot.dialog.acts.Outcome`, and never
call each other (shared steps are plain functions of their modules).

Adding behaviour: a new intent -> a row ``(ANY, "my intent"): handler``; a new kind of open question
-> its dataclass in ``bot/dialog/acts.py`` and rows ``("my kind", ANSWER): handler`` (plus any act it
reacts to differently, e.g. ``("my kind", Intent.SKIP.value)``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.agent_spec import satisfied
from bot.dialog import conversation, critique, preferences, profile, recommendations, revisions, suggestions
from bot.dialog.acts import Outcome
from bot.dialog.context import TurnContext
from bot.state import DialogState
from logs.schema import Intent, is_smalltalk
from nlu.card_opinion import judges_people_only
from nlu.phrasings import takes_back_deletion
from nlu.textnorm import fold
from nlu.turn_cues import retracted_words, reverses, withdraws_last
from nlu.turn_words import CARD_PEOPLE
from nlu.understand import RESET_INTENTS, TurnParse

Handler = Callable[[TurnContext], Outcome]

ANY = "*"
"""Any open question, or none."""
NONE = ""
"""No open question."""

ANSWER = "answer"
"""An answer to the open question: its button, a typed reply, "sure"/"cancel" at a yes/no question."""
SWITCH = "switch domain"
STALE = "stale button"
EMPTY = "no letters"
NO_CARD = "card question without a card"
DETAILS_OF = "details of a named item"
RATE_SUGGESTION = "rate a suggestion"
SUGGESTION_ANSWER = "answer to a suggested item"
"""Like / dislike / skip / role words about the item of the open suggestion (issue 13)."""
ABOUT_SUGGESTED = "card question about a suggested item"
"""Why / details / trailer asked about the item of the open suggestion (no list on screen)."""
CARD_CRITIQUE = "critique heard as a rating of the card"
"""'I like it but not the author' classified as the card's rating (the study logs many critiques so):
the critique handler reads its role words; the log keeps the classifier's intent."""
PEOPLE_CRITIQUE = "critique of the card's people only"
"""'nope, can't stand that author' at a card: the card's people in the role named get the opinion, the card is
not rated (issue 22-H)."""
SESSION_CONSTRAINT = "constraint of the session"
"""'no horror for now', 'not Radiohead this time': a constraint on this session's lists (issue 23; "no horror
please" is a stored dislike since issue 22)."""
RESET_CHOICE = "reset choice"
UNDO_DELETE = "take back a deletion"
"""'never mind, keep it' right after a deletion (``DialogState.last_deleted``): the entry is put back (issue 22-R2)."""
RETRACT = "take back an opinion"
REVERSE = "opinions the other way round"
"""'oops, other way round' / 'vice versa' right after opinions: each one the previous turn stored is turned around."""
"""'i never said i liked X' (``TurnParse.retracts``): X is no preference, and leaves the profile (issue 22-D)."""
SMALLTALK = "smalltalk"

_ANSWER_INTENTS = frozenset(
    {
        Intent.PREFERENCE_DISAMBIGUATION.value,
        Intent.PREFERENCE_YES.value,
        Intent.PREFERENCE_NO.value,
        Intent.REC_CRITIQUING_DISAMBIGUATION.value,
        Intent.REC_CRITIQUING_YES.value,
        Intent.REC_CRITIQUING_NO.value,
        Intent.DELETE_PREFERENCE_DISAMBIGUATION.value,
    }
)
_BUT = re.compile(r"\bbut\b", re.IGNORECASE)
_UNREADABLE = re.compile(r"\b(?!\d+(?:s|st|nd|rd|th|k|d|p|h|m)\b)(?=[a-z]*\d)(?=\d*[a-z])[a-z\d]{3,}\b", re.IGNORECASE)
"""A token of letters and digits that is no number word ("Q83495", "x7f3k"; not "80s", "2nd", "4k", "1080p")."""
_CARD_FALLBACKS = frozenset({Intent.REC_FALLBACK.value, Intent.REC_CRITIQUING_FALLBACK.value})
"""What the classifier says of a bare name typed as the answer to a critique's question over a card."""
_ANSWER_PAYLOADS = frozenset({"pick", "role", "none", "yes", "no"})
_HELP = (
    Intent.HELP,
    Intent.PREFERENCE_HELP,
    Intent.REC_HELP,
    Intent.PROFILE_HELP,
    Intent.DELETE_PREFERENCE_HELP,
    Intent.REC_CRITIQUING_HELP,
)

POLICY: dict[tuple[str, str], Handler] = {
    # conversation
    (ANY, Intent.START.value): conversation.on_start,
    (ANY, Intent.WELCOME.value): conversation.on_start,
    (ANY, SWITCH): conversation.on_switch_domain,
    **{(ANY, intent.value): conversation.on_help for intent in _HELP},
    (ANY, Intent.FALLBACK.value): conversation.on_fallback,
    (ANY, SMALLTALK): conversation.on_smalltalk,
    (ANY, EMPTY): conversation.on_empty,
    (ANY, NO_CARD): conversation.on_no_item_on_screen,
    (ANY, STALE): conversation.on_stale,
    # preferences and their questions
    (ANY, Intent.PREFERENCE.value): preferences.on_preference,
    (ANY, RATE_SUGGESTION): preferences.on_rate_suggestion,
    (ANY, Intent.SKIP.value): preferences.on_skip,
    ("item", ANSWER): preferences.on_answer,
    ("role", ANSWER): preferences.on_answer,
    ("confirm", ANSWER): preferences.on_answer,
    (NONE, ANSWER): preferences.on_follow_up,
    # active elicitation (issue 13): the suggested item's question
    ("suggestion", SUGGESTION_ANSWER): suggestions.on_answer,
    ("suggestion", Intent.SKIP.value): suggestions.on_answer,
    ("suggestion", ANSWER): suggestions.on_refine,
    ("suggestion", ABOUT_SUGGESTED): suggestions.on_card_question,
    # recommendations (the card acts come only with a card on screen: see handler_for)
    (ANY, Intent.RECOMMENDATION.value): recommendations.on_recommend,
    (ANY, Intent.REC_PREFERENCE.value): recommendations.on_rate,
    (ANY, Intent.REC_SKIP.value): recommendations.on_skip_item,
    (ANY, Intent.REC_DETAILS.value): recommendations.on_details,
    (ANY, DETAILS_OF): recommendations.on_details,
    (ANY, Intent.REC_TRAILER.value): recommendations.on_trailer,
    (ANY, Intent.REC_WHY.value): recommendations.on_why,
    (ANY, Intent.REC_STOP.value): recommendations.on_stop,
    (ANY, SESSION_CONSTRAINT): recommendations.on_session_constraint,
    (ANY, Intent.REC_FALLBACK.value): recommendations.on_card_fallback,
    (ANY, Intent.REC_CRITIQUING_FALLBACK.value): recommendations.on_card_fallback,
    # critiquing
    (ANY, Intent.REC_YES_BUT.value): critique.on_yes_but,
    (ANY, CARD_CRITIQUE): critique.on_yes_but,
    (ANY, PEOPLE_CRITIQUE): critique.on_people_only,
    (ANY, Intent.REC_NO_BUT.value): critique.on_no_but,
    ("critique", ANSWER): critique.on_critique_answer,
    # profile
    (ANY, Intent.SHOW_PROFILE.value): profile.on_show_profile,
    (ANY, Intent.DELETE_PREFERENCE.value): profile.on_delete,
    ("delete", ANSWER): profile.on_delete_answer,
    (ANY, Intent.RESET_PROFILE.value): profile.on_reset_profile,
    (ANY, RESET_CHOICE): profile.on_reset_choice,
    (ANY, RETRACT): profile.on_retract,
    (ANY, REVERSE): revisions.on_reverse,
    (ANY, UNDO_DELETE): profile.on_undo_delete,
    **{(ANY, intent): profile.on_reset_choice for intent in RESET_INTENTS.values()},
    **{(ANY, f"{intent} - yes"): profile.on_reset_yes for intent in RESET_INTENTS.values()},
    **{(ANY, f"{intent} - no"): profile.on_reset_no for intent in RESET_INTENTS.values()},
    (ANY, Intent.RESET_PROFILE_CANCEL.value): profile.on_reset_no,
    ("reset", ANSWER): profile.on_reset_answer,
    ("reset_scope", ANSWER): profile.on_reset_scope_answer,
}
"""(open-question kind or ANY/NONE, act) -> handler: the whole dialog policy."""

NEEDS_CARD = frozenset(
    {Intent.REC_FALLBACK.value, Intent.REC_CRITIQUING_FALLBACK.value, Intent.REC_PREFERENCE.value, CARD_CRITIQUE}
    | {PEOPLE_CRITIQUE}
    | {Intent.REC_SKIP.value, Intent.REC_DETAILS.value, Intent.REC_TRAILER.value, Intent.REC_WHY.value}
    | {Intent.REC_YES_BUT.value, Intent.REC_NO_BUT.value}
)
"""Acts about the card on screen; without one they are a fallback."""


def act_of(parse: TurnParse) -> str:
    """The dialogue act of a turn: its intent, or one of the acts of this module."""
    payload = parse.payload
    if parse.stale:
        return STALE
    if parse.switch_to is not None:
        return SWITCH
    if parse.empty:
        return EMPTY
    if parse.no_item_on_screen:
        return NO_CARD
    if parse.details_of is not None:
        return DETAILS_OF
    if parse.suggestion is not None and parse.suggestion.kind in ("rate", "roles", "skip"):
        return SUGGESTION_ANSWER
    if parse.about_suggested is not None:
        return ABOUT_SUGGESTED
    if parse.retracts and payload is None and (parse.readings or retracted_words(parse.text)):
        return RETRACT  # "i never said i liked X", "scratch what i said about totoro" (a name the linker missed)
    if payload is None and not parse.readings and parse.revised is None and withdraws_last(parse.text):
        return RETRACT  # "scratch that last one": what the previous turn stored
    if payload is None and not parse.readings and reverses(parse.text):
        return REVERSE  # "oops, other way round": what the previous turn stored, turned around
    if parse.opinion_of_open is not None:  # "I like it" at "Did you like X?" / "Which X do you mean?"
        return ANSWER
    if payload is not None and payload.kind in _ANSWER_PAYLOADS:
        return ANSWER
    if payload is not None and payload.kind == "rate":
        return RATE_SUGGESTION
    if payload is not None and payload.kind == "reset":
        return RESET_CHOICE
    if parse.confirmation is not None or parse.intent in _ANSWER_INTENTS:
        return ANSWER
    if parse.answer is not None and parse.bare_answer and parse.intent in _CARD_FALLBACKS:
        return ANSWER  # a typed option ("Quentin Tarantino") at "Which one do you mean?" over a card
    if _session_constraint(parse):
        return SESSION_CONSTRAINT
    if (
        parse.intent == Intent.REC_PREFERENCE
        and not parse.readings
        and judges_people_only(fold(parse.text), parse.roles)
    ):
        return PEOPLE_CRITIQUE  # "sounds cool but i didn't like that author's stuff": no word of the work itself
    if parse.intent == Intent.REC_PREFERENCE and parse.roles and _BUT.search(parse.text):
        return CARD_CRITIQUE
    if is_smalltalk(parse.intent):
        return SMALLTALK
    if (
        parse.intent == Intent.REC_PREFERENCE
        and payload is None
        and not parse.readings
        and _UNREADABLE.search(parse.text)
    ):
        # "i love Q83495" at a card: a name the bot cannot read is no rating of the card ("I couldn't find that")
        return Intent.PREFERENCE.value
    if parse.intent == Intent.REC_SKIP and payload is None and any(r.polarity.value in "+-" for r in parse.readings):
        # "i've seen hereditary, loved it" at the 4th card, heard as a skip after "more"s (the skip's context): a
        # message that names another item with an opinion is about that item, as at the first card (fresh6 fault 4)
        return Intent.REC_PREFERENCE.value
    if parse.intent == Intent.FALLBACK and parse.readings and payload is None:
        # "hunger by knut hamsun also", "spike jonze just gets it": the classifier placed no intent, but the
        # message names what the KB knows; it is that preference (stored, or asked about), never "Sorry, I
        # didn't get that" with the names found (an open question waits: bot.dialog.questions)
        return Intent.PREFERENCE.value
    return parse.intent


_CONSTRAINABLE = frozenset(
    {
        Intent.PREFERENCE.value,
        Intent.RECOMMENDATION.value,
        Intent.REC_PREFERENCE.value,
        Intent.REC_SKIP.value,
        Intent.FALLBACK.value,
        Intent.REC_FALLBACK.value,
        Intent.REC_STOP.value,
    }
)
"""Intents a "not X this time" may be heard as, a stop too ("no westerns for now"); a critique of the card keeps
its own handler."""


def _session_constraint(parse: TurnParse) -> bool:
    """A constraint said for now ("no horror for now") naming something disliked or negated in the message
    ("I'm reading X right now" states no constraint)."""
    if not parse.this_time or not (parse.intent in _CONSTRAINABLE or is_smalltalk(parse.intent)):
        return False  # ("no horror for now" may sound like a "no" of small talk)
    if not parse.readings and CARD_PEOPLE.search(fold(parse.text)):
        return True  # "no more of that guy please": the card's people (recommendations.on_session_constraint)
    return any(r.polarity.value == "-" for r in parse.readings) or bool(recommendations.negated_readings(parse))


_NOT_UNDERSTOOD_ACTS = frozenset({Intent.FALLBACK.value, Intent.PREFERENCE.value, *_CARD_FALLBACKS})
"""Acts of a bare "yes" the classifier did not place (its contexts expired): at a question, an answer to it."""
_YES_NO_QUESTIONS = frozenset({"confirm", "reset"})
"""Open questions a bare yes or no answers ("Did you like X?", "Are you sure?", "What should I reset?")."""


def act_in(state: DialogState, parse: TurnParse) -> str:
    """The act of the turn in the state it comes in: :func:`act_of`, except that an answer to the open
    question answers it, also with a card on screen (issue 22: the question was asked after the card was
    shown, so "yes obviously" at "Did you like X?" or "Are you sure?" is no rating of the card)."""
    if state.last_deleted and parse.payload is None and takes_back_deletion(fold(parse.text)):
        return UNDO_DELETE  # "never mind, keep it" right after "delete X", at a card too (fresh6 fault 13)
    act = act_of(parse)
    pending = state.pending
    if pending is None or act == ANSWER or parse.payload is not None or parse.request is not None:
        return act
    if pending.kind == "reset_scope":  # "everything", "only the movies", "no": short words, nothing named
        if parse.bare_answer and not parse.readings and (parse.answer is not None or parse.yes_no or parse.affirmative):
            return ANSWER
        return act
    if act in _NOT_UNDERSTOOD_ACTS and not parse.readings:  # the classifier did not place it: is it an answer?
        if parse.yes_no is not None and pending.kind in (*_YES_NO_QUESTIONS, "item", "role"):
            return ANSWER  # "yes", "nope" (the question's context expired)
        if parse.answer is not None and pending.kind in ("item", "role", "critique", "delete"):
            return ANSWER  # "i didn't mean that one" at "Which Titanic do you mean?"
    if act not in NEEDS_CARD and not is_smalltalk(act):
        return act
    if parse.readings and not all(
        r.qid in getattr(getattr(pending, "task", None), "candidates", ()) for r in parse.readings
    ):
        return act  # another name: a preference of its own, not this answer
    said_yes_no = parse.yes_no is not None or parse.affirmative or parse.negative
    if said_yes_no and (pending.kind in _YES_NO_QUESTIONS or pending.kind in ("item", "role")):
        return ANSWER  # at "Which Titanic do you mean?", a "yes" is asked again, a "no" is "none of these"
    if pending.kind in ("item", "role", "critique", "delete") and parse.answer is not None and parse.bare_answer:
        return ANSWER
    return act


def handler_for(state: DialogState, act: str) -> Handler:
    """The row of ``act`` for the open question's kind, else for any kind; a fallback if none."""
    if act in NEEDS_CARD and state.focus is None:
        act = Intent.FALLBACK.value
    kind = state.pending.kind if state.pending is not None else NONE
    return POLICY.get((kind, act)) or POLICY.get((ANY, act)) or conversation.on_fallback


def admits(state: DialogState, intent: str) -> bool:
    """The dialog can take ``intent`` now: its input contexts are active (``bot.agent_spec``) and the
    question or card it answers is there. Intents it cannot take go to ``View.blocked``, and
    ``nlu.understand`` picks the best alternative."""
    if not satisfied(intent, state.contexts):
        return False
    kind = state.pending.kind if state.pending is not None else None
    if intent in (Intent.PREFERENCE_DISAMBIGUATION, Intent.PREFERENCE_HELP):
        return kind in ("item", "role")
    if intent in (Intent.PREFERENCE_YES, Intent.PREFERENCE_NO):
        return kind == "confirm"
    if intent.startswith("request_recommendation - critiquing"):
        return kind == "critique"
    if intent == Intent.DELETE_PREFERENCE_DISAMBIGUATION:
        return kind == "delete"
    if intent.startswith("request_recommendation - ") and intent != Intent.REC_STOP:
        return state.focus is not None
    return True
