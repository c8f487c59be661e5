"""The intent of a typed turn (issue 24: split from ``nlu.understand``): the classifier's choice among the
intents the dialog admits now, and the deterministic corrections where the wording leaves no doubt (a request
worded otherwise than the study's, a deletion, the profile, the card's buttons typed, a critique of the card,
an opinion about a named thing heard as small talk).

Reads the classifier's ranked intents, the :class:`nlu.turn_parse.View`, the turn's
:class:`nlu.readings.Readings` and the folded text; adds the intent (a name of ``logs.schema.Intent`` or a
small-talk intent). The words are data (``nlu/wording/``, compiled in :mod:`nlu.turn_words`); what stays here is
which correction the dialog's state lets win.

Example (a card on screen, the classifier heard small talk)::

    overrule(readings, "smalltalk.appraisal.good", "why did you pick it?")   # 'request_recommendation - why'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from logs.schema import Intent, is_smalltalk
from nlu.card_opinion import TO_THE_BOT, judges_people_only, rates_card, skips_card
from nlu.disambiguation import parse_option
from nlu.open_answer import NOT_UNDERSTOOD, opinion_of_open
from nlu.opinion_scope import refuses_something
from nlu.phrasings import (
    BYE,
    LIKES_AGENT,
    asks_profile,
    asks_reset,
    card_fact,
    card_request_words,
    is_question,
    phrased_intent,
    reset_worded,
    says_goodbye,
)
from nlu.readings import WORK_PARTS, Readings
from nlu.role_reference import card_contrast
from nlu.sentiment import Polarity
from nlu.textnorm import fold
from nlu.turn_parse import View
from nlu.turn_words import (
    CARD_COMMAND,
    CARD_COMMANDS,
    CARD_QUESTION,
    CRITIQUE,
    DELETE,
    DELETE_WORDS,
    MORE,
    OPINION,
    OPINION_IDIOM,
    OPINION_VERB,
    RATE_MENU,
    REQUEST_WORDING,
    SHOW_PROFILE,
    WHAT_TO_RATE,
    name_as_role,
    roles_named,
    the_role,
    yes_no,
)

__all__ = [
    "ABOUT_THE_CARD_OPINIONS",
    "OPINION_OVERRULES",
    "TOP_LEVEL_TWIN",
    "admissible",
    "overrule",
    "reset_in_titles",
]

TOP_LEVEL_TWIN = {
    Intent.REC_PREFERENCE.value: Intent.PREFERENCE.value,
    Intent.REC_SKIP.value: Intent.SKIP.value,
    Intent.PREFERENCE_DISAMBIGUATION.value: Intent.PREFERENCE.value,
    Intent.REC_YES_BUT.value: Intent.PREFERENCE.value,
    Intent.REC_NO_BUT.value: Intent.PREFERENCE.value,
    Intent.REC_HELP.value: Intent.HELP.value,
    Intent.PREFERENCE_HELP.value: Intent.HELP.value,
    Intent.PROFILE_HELP.value: Intent.HELP.value,
    Intent.DELETE_PREFERENCE.value: Intent.SHOW_PROFILE.value,
    Intent.PREFERENCE_YES.value: "smalltalk.confirmation.yes",
    Intent.PREFERENCE_NO.value: "smalltalk.confirmation.no",
}
"""A follow-up intent heard out of its context stands for its top-level twin."""
OPINION_OVERRULES = frozenset(
    {Intent.FALLBACK.value, Intent.REC_FALLBACK.value, Intent.SHOW_PROFILE.value, Intent.HELP.value}
)
"""Intents an opinion about a named thing overrules: the classifier's "didn't get it" and the
intents whose wording never names a title ("Jaws is a great movie" heard as a fallback, "2001: A
Space Odyssey bored me" as the profile)."""


def _opinion_about_a_name(session: Readings, intent: str, folded: str) -> bool:
    """A confident in-domain mention plus an opinion is a preference unless the state says otherwise
    (issue 12): the classifier learned the study's "I like X" and misses "X is great", "X bored me",
    "X 🔥", "big fan of X", "I watched X". Only with no question open, for the intents of
    :data:`OPINION_OVERRULES` and small talk (a yes/no, or a recommendation request with none of
    :data:`REQUEST_WORDING`, only when the message opens with the name it judges: "Train are alright",
    "Renaissance is a bit long but a great album"), never for a command typed as such."""
    view = session.view
    if view.question is not None or SHOW_PROFILE.match(folded):
        return False
    readings = [r for r in session.readings(with_focus=False) if not r.mention.partial]
    if intent.startswith("smalltalk.confirmation"):
        # "Train are alright", "Inception was ok": a judgement of the name opening the message, not a yes;
        # "No, I did not enjoy Lucy": with nothing asked, a yes/no opening a stated opinion only leads it in
        if view.focus is not None:
            return False
        if any(r.mention.start == 0 for r in readings) and session.states_opinion(readings):
            return True
        return bool(OPINION.search(folded)) and any(r.polarity is not Polarity.NEUTRAL for r in readings)
    if intent == Intent.RECOMMENDATION and view.focus is None and not REQUEST_WORDING.search(folded):
        # "Renaissance is a bit long but a great album", "Stromae makes me want to dance": a judgement of
        # the name opening the message, heard as a request for its domain word or its "want"; a stated opinion
        # of a name anywhere ("I'm a huge Lady Gaga fan", issue 22-G), with no word of a request, is one too
        return any(
            r.polarity is not Polarity.NEUTRAL and (r.mention.start == 0 or session.states_opinion([r]))
            for r in readings
        )
    if not (intent in OPINION_OVERRULES or is_smalltalk(intent)):
        return False
    if not readings:
        # an opinion about a name the KB lacks ("RRR is a banger"): a preference all the same, so the
        # user hears "I couldn't find that" instead of "I didn't get that"
        return intent == Intent.FALLBACK and view.focus is None and session.opinion_about_unknown_name()
    if any(r.polarity is not Polarity.NEUTRAL for r in readings):
        return True
    return session.states_opinion(readings)


ABOUT_THE_CARD_OPINIONS = frozenset({Intent.REC_PREFERENCE.value, Intent.REC_YES_BUT.value, Intent.REC_NO_BUT.value})
"""Opinions of the card the classifier can hear: their handlers read the critique's role words too."""


def _critique_of_nothing(session: Readings, intent: str, folded: str) -> bool:
    """The classifier heard a critique of the card (yes_but / no_but) in a message whose clause after "but" names
    no role and no name ("haven't heard it, but I don't mind it"): a rating of the card, not a critique."""
    if intent not in (Intent.REC_YES_BUT.value, Intent.REC_NO_BUT.value):
        return False
    match = CRITIQUE.match(folded)
    return match is not None and not _critiques_something(session, match.group("rest"), by_name=False)


def _critiques_something(session: Readings, rest: str, *, by_name: bool) -> bool:
    """The words after a critique's "but" name something of the card to critique: a name ("but not Mel Gibson") or,
    unless ``by_name``, a role word ("but not the directors")."""
    named = any(fold(r.mention.text) in rest for r in session.readings(with_focus=False))
    return named or (not by_name and bool(roles_named(rest, session.view.domain)))


def _card_critique(session: Readings, folded: str, *, by_name: bool = False) -> str | None:
    """A critique of the card on screen, whatever the classifier heard: the card ("it", "this one")
    judged before "but", a role word or a name after it ("I like it but not the directors", "I like it,
    but not Mel Gibson" -> yes_but, "I hate it but I love the cast" -> no_but); None if the words are no
    such critique. ``by_name``: only a name after "but" makes one. A fresh user's plural
    "directors" was heard as a new preference and answered "I couldn't find that"."""
    match = CRITIQUE.match(folded)
    if match is None or (session.correction and match.group("but").startswith(",")):
        return None  # "sorry, it was A I couldn't finish, not B": a name set aside, no critique (issue 22)
    if not _critiques_something(session, match.group("rest"), by_name=by_name):
        return None
    said = session.sentiment.message_polarity(match.group("card")).value
    if said == "+":
        return Intent.REC_YES_BUT.value
    if said == "-":
        return Intent.REC_NO_BUT.value
    return None


def _states_a_cue(session: Readings, folded: str) -> bool:
    """The message states an opinion in the lexicon's words (not only VADER's score: "I want to delete Ghost"
    is no opinion of Ghost), and is no request to delete."""
    has_cue = getattr(session.sentiment, "has_cue", None)
    return has_cue is not None and has_cue(session.text[session.start :]) and not DELETE_WORDS.search(folded)


def _own_opinion_no_refinement(session: Readings, intent: str) -> bool:
    """A refinement of the previous turn's preference heard in a message that names other words with an opinion
    of their own (a cue or a hedge: "the shining was meh" right after "i luv it"): a new preference, never the
    previous one's polarity given to it (issue 22-H). A self-correction ("no wait, I meant Heat") and bare names
    stay refinements."""
    view = session.view
    if intent != Intent.PREFERENCE_DISAMBIGUATION or view.question is not None or not view.refinable:
        return False
    if session.correction or session.names_only():
        return False
    found = session.readings(with_focus=False)
    return bool(found) and session.states_opinion(found)


def _names_a_role(domain: str, folded: str) -> bool:
    """The message names a role of the card's people ("but not the directors"), not a part of the work that a
    role word also names ("the soundtrack was great", "the writing was nice": ``nlu.readings.WORK_PARTS``)."""
    for match in the_role(domain).finditer(folded):
        words = match.group(0).split()
        if " ".join(words[1:] if words[0] in ("the", "its", "their", "his", "her") else words) not in WORK_PARTS:
            return True
    return False


def _card_opinion(session: Readings, intent: str, phrased: str | None, folded: str) -> bool:
    """A stated opinion of the card on screen naming nothing else rates it ("seen it, hated it honestly"):
    :func:`nlu.card_opinion.rates_card`, unless it asks about the card, is a bare yes/no (answered as such)
    or names a role (a critique: "I like it but not the directors")."""
    view = session.view
    if view.focus is None or view.question is not None or session.readings(with_focus=False):
        return False
    if CARD_QUESTION.search(folded) or yes_no(folded) or _names_a_role(view.domain, folded):
        return False
    content = session.text[session.start :]
    return rates_card(folded, content, intent=intent, phrased=phrased, sentiment=session.sentiment)


_REFUSAL_MISHEARD = frozenset(
    {
        Intent.PREFERENCE.value,
        Intent.REC_PREFERENCE.value,
        Intent.REC_FALLBACK.value,
        Intent.REC_SKIP.value,
        Intent.FALLBACK.value,
        Intent.REC_WHY.value,
        Intent.REC_DETAILS.value,
        Intent.REC_TRAILER.value,
    }
)
"""What the classifier may hear in a refusal said at a card ("no pop please": the card's dislike, its skip, a
question about it, a preference naming nothing, which the card would take)."""


_CRITIQUE_MISHEARD = frozenset(
    {Intent.REC_SKIP.value, Intent.SKIP.value, Intent.REC_STOP.value, Intent.REC_FALLBACK.value, Intent.FALLBACK.value}
)
"""What the classifier may hear in a critique of the card (issue 22-F): a skip ("i've read it, ... but not the
author"), a stop ("..., but I'm done with that author"), nothing."""


def _refusal(session: Readings, intent: str, folded: str) -> bool:
    """A refusal of something ("no pop please", "please nothing by X": ``nlu.opinion_scope.refuses_something``)
    heard as the card's rating, skip or question, as small talk (its "no") or as nothing: a preference (a dislike
    of what it names), never a rating of the card; with no card, only when it names something."""
    if not refuses_something(folded):
        return False
    if session.view.focus is not None and intent in _REFUSAL_MISHEARD:
        return True
    heard = is_smalltalk(intent) or intent in NOT_UNDERSTOOD
    return heard and any(r.polarity is Polarity.NEGATIVE for r in session.readings(with_focus=False))


_NO_HELP_WORDS = (Intent.HELP.value, Intent.REC_HELP.value)
"""Help the classifier may hear in a message of names alone ("How about Coldplay ?"): a plea for help has
words of its own (``nlu/wording/phrasings.toml`` help), names and words that say nothing of them have none."""

CARD_ASKS = frozenset({Intent.REC_WHY.value, Intent.REC_DETAILS.value, Intent.REC_TRAILER.value})
"""Questions about the card the classifier may hear in an opinion of other titles said at it (issue 22-D)."""


def _card_skip(session: Readings, folded: str, *, rated: bool) -> bool:
    """The message passes over the card on screen, naming nothing else (:func:`nlu.card_opinion.skips_card`);
    the caller leaves a rating the classifier heard ("nope, not feeling this": a dislike) as it is."""
    view = session.view
    if view.focus is None or view.question is not None or session.readings(with_focus=False):
        return False
    if CARD_QUESTION.search(folded) or yes_no(folded):
        return False
    return skips_card(folded, session.text[session.start :], sentiment=session.sentiment, rated=rated)


def _names_beyond_card_request(session: Readings, folded: str) -> bool:
    """The message names an entity other than the words of a request about the card on screen: "give me the
    synopsis", "play a sample" at a card ask for its details or a sample, whatever book "Synopsis" or song "Play"
    the linker finds in them (:func:`nlu.phrasings.card_request_words`); a capitalised name is always a name."""
    found = session.readings(with_focus=False)
    if session.view.focus is None or not found:
        return bool(found)
    request = card_request_words(folded)
    return any(not r.mention.text.islower() or not set(fold(r.mention.text).split()) <= request for r in found)


def reset_in_titles(session: Readings, intent: str) -> str:
    """``intent``, but a preference for a reset whose words are only in names the message judges: "begin again is one
    of my comfort movies", "I loved Start Over" name a title, they ask no reset (a title is no command); a reset said
    beside a judged name ("fresh start: I'm a big X fan") stays one."""
    if intent not in (Intent.RESET_PROFILE, Intent.RESET_EVERYTHING) or reset_worded(session.unnamed(judged=True)):
        return intent
    return Intent.PREFERENCE.value if session.readings(with_focus=False) else intent


def admissible(ranked: Sequence[str], view: View, *, refinable: bool) -> str:
    """The predicted intent, or the best alternative the dialog admits now (:attr:`View.blocked`).

    A disambiguation answer is also admissible right after a stored preference (``refinable``):
    it refines that preference.
    """
    for name in ranked:
        if refinable and name == Intent.PREFERENCE_DISAMBIGUATION and view.question is None:
            return name
        if name not in view.blocked:
            return name
    for name in ranked:  # a follow-up intent out of its context: use its top-level twin
        twin = TOP_LEVEL_TWIN.get(name)
        if twin is not None:
            return twin
    return Intent.FALLBACK.value


def overrule(session: Readings, intent: str, folded: str) -> str:
    """Deterministic corrections of the classifier where the wording leaves no doubt.

    - with no question open, a request worded otherwise than the study's phrases (``nlu.phrasings``:
      "What made you pick it for me?", "whats the genre", "Wipe my profile", "what have i liked so far");
    - "delete X" / "remove X" / "forget X" is a profile deletion, in any context, and nothing
      without such a word is one (the original agent's deletion phrases all have one);
    - "show my profile" is the profile; "more" is a new list; "what should I rate?" is help;
    - the card's buttons typed as words ("why", "trailer") while a card is on screen;
    - a bare title or name is a preference to confirm ("Pulp Fiction" -> "Did you like Pulp Fiction?");
    - a bare yes/no with a card on screen answers its "Do you like it?", and so does an opinion naming
      nothing ("I don't like", "I like this movie");
    - at "Which X do you mean?", a typed option label ("The Fast and the Furious") is the answer and
      another bare title a new preference;
    - an opinion about a named entity ("I love the Avengers") is a preference, even when the
      classifier hears small talk ("I love ..." addressed to the bot), or nothing it knows while a
      question is open (issue 17.9).
    """
    view = session.view
    if intent == Intent.RESET_PROFILE and not reset_worded(folded):
        # "i want a pratchett book" heard as a reset: a reset is said in its own words
        intent = Intent.PREFERENCE.value if session.readings(with_focus=False) else Intent.FALLBACK.value
    if view.question is not None and asks_reset(session.unnamed()):
        return Intent.RESET_PROFILE.value  # "hmm forget all that, start over" at an open question (issue 22-D)
    if view.question is not None and asks_profile(session.unnamed()):
        return Intent.SHOW_PROFILE.value  # "what do you have on me so far?" at an open question (issue 22-G)
    if view.question is not None and says_goodbye(folded):
        return BYE  # "thanks, goodnight" at "Did you like X?": no answer, no song "Goodnight" (issue 22-G)
    if view.question is None:  # "What made you pick it for me?", "Wipe my profile", "what have i liked so far"
        named = _names_beyond_card_request(session, folded)
        # the words of a title ask nothing: "I know Why the Caged Bird Sings was beautiful" is no "why?"
        phrased = phrased_intent(session.unnamed(), focus=view.focus is not None, named=named)
        if _refusal(session, intent, folded):
            return Intent.PREFERENCE.value  # "no pop please" at a card: about pop, no rating of the card (issue 22)
        if view.focus is not None and not session.readings(with_focus=False) and not CARD_QUESTION.search(folded):
            # "the song itself is lovely, I just can't get into the band behind it": the work judged in its clauses,
            # the card's people named by role in others, the other way, whatever was heard (issue 22-C)
            card = card_contrast(folded, view.domain, lambda part: session.sentiment.message_polarity(part).value)
            if card is not None and not (intent == Intent.REC_PREFERENCE and re.search(r"\bbut\b", folded)):
                # a rating heard in a critique with "but" stays as heard: the dialog reads it as a critique
                return Intent.REC_YES_BUT.value if card == "+" else Intent.REC_NO_BUT.value
        if view.focus is not None and (intent in _CRITIQUE_MISHEARD or phrased in _CRITIQUE_MISHEARD):
            # "i've read it, loved the book, but i can't stand the author" heard as a skip ("i've read it"), "Good
            # book, but I'm done with that author" as a stop: the card judged before "but", a role after it
            critique = _card_critique(session, folded)
            if critique is not None:
                return critique
            if judges_people_only(folded, roles_named(folded, view.domain)) and _states_a_cue(session, folded):
                return Intent.REC_PREFERENCE.value  # "sounds cool but i didn't like that author's stuff" (issue 22)
        if (
            view.focus is not None
            and not is_smalltalk(intent)
            and phrased != BYE  # "thanks, you're a good bot. bye" leaves, however the classifier heard it
            and TO_THE_BOT.search(folded)
            and not session.readings(with_focus=False)
        ):
            return LIKES_AGENT  # "You have good taste lol": a compliment to the bot rates no card (issue 22-H)
        if _card_opinion(session, intent, phrased, folded):
            return Intent.REC_PREFERENCE.value  # "seen it, hated it honestly", "nah thats mid"
        if _card_skip(session, folded, rated=intent in ABOUT_THE_CARD_OPINIONS):
            return Intent.REC_SKIP.value  # "u just asked me about that one lol. skip", "meh" (issue 22-D)
        if phrased is not None:
            return phrased
    if _own_opinion_no_refinement(session, intent):  # "the shining was meh" right after a like (issue 22-H)
        return Intent.PREFERENCE.value
    if DELETE.match(folded) and view.has_profile:
        return Intent.DELETE_PREFERENCE.value
    if view.question in ("item", "role", "confirm") and DELETE_WORDS.search(folded) and not OPINION_VERB.search(folded):
        # "no no i didnt mean heat, remove that" at "Which Heat?": what is asked about goes (issue 22-D)
        return Intent.DELETE_PREFERENCE.value
    if intent == Intent.DELETE_PREFERENCE and not DELETE_WORDS.search(folded):
        # never delete on a guess: "Tom Cruise as an actor" after the profile is a preference
        return Intent.PREFERENCE.value
    if intent == Intent.FALLBACK and view.question is None and name_as_role(view.domain).match(folded):
        return Intent.PREFERENCE.value  # "Tom Cruise as an actor": the role of a preference
    if SHOW_PROFILE.match(folded):
        return Intent.SHOW_PROFILE.value
    if WHAT_TO_RATE.search(folded) and view.focus is None and view.question is None:
        return Intent.HELP.value
    if RATE_MENU.match(folded) and view.focus is None and view.question is None:
        return Intent.FALLBACK.value
    if MORE.match(folded):
        return Intent.RECOMMENDATION.value
    card_word = CARD_COMMAND.match(folded)
    if card_word and view.focus is not None and view.question is None:  # typed like the card's buttons
        return CARD_COMMANDS[card_word.group(1)]
    if view.focus is not None and view.question is None and _critique_of_nothing(session, intent, folded):
        # "don't know it, but I don't dislike it" heard as a critique: nothing after "but" to critique, so the
        # card's rating is read from the whole message (a hedge there is asked about)
        return Intent.REC_PREFERENCE.value
    if (
        view.focus is not None
        and view.question is None
        and intent not in (Intent.REC_YES_BUT.value, Intent.REC_NO_BUT.value)
    ):
        # heard as a plain rating of the card, only a name makes it a critique: the rating's handler reads
        # role words itself, and the study logged such critiques as the card's rating
        critique = _card_critique(session, folded, by_name=intent in ABOUT_THE_CARD_OPINIONS)
        if critique is not None:
            return critique
    if (
        (intent in (Intent.FALLBACK, *_NO_HELP_WORDS) or (session.correction and is_smalltalk(intent)))
        and view.question in (None, "confirm", "suggestion")
        and view.focus is None
        and (session.names_only() or session.added_names(additive=False))
    ):
        return Intent.PREFERENCE.value  # a bare title or name: "Did you like Pulp Fiction?"; "Heat too"
    if (
        (intent in NOT_UNDERSTOOD or intent in _NO_HELP_WORDS or intent in CARD_ASKS)
        and view.focus is not None
        and view.question is None
        and not CARD_QUESTION.search(folded)
        and not card_fact(folded)
        and (session.names_only() or session.added_names(additive=False))
        and any(r.qid != view.focus for r in session.readings(with_focus=False))
    ):
        return Intent.PREFERENCE.value  # another title typed alone at a card ("how about jaws?"; issue 22-D)
    if (
        intent in CARD_ASKS
        and view.focus is not None
        and view.question is None
        and not CARD_QUESTION.search(folded)
        and not (is_question(folded) and card_fact(folded))
        and any(
            r.qid != view.focus and (r.polarity is not Polarity.NEUTRAL or not is_question(folded))
            for r in session.readings(with_focus=False)
        )
    ):
        # (a statement naming another title asks nothing of the card: "the irishman was ok but way too long", a hedge
        # with the words of "how long is it?", is about The Irishman; fresh8 fault 2)
        # "numb and in the end are perfect songs" at a card, heard as its details: opinions of other titles
        return Intent.PREFERENCE.value
    if (
        intent in (Intent.FALLBACK, Intent.PREFERENCE)
        and view.question in ("item", "role")
        and view.focus is None
        and not OPINION_VERB.search(folded)
        and (session.names_only() or session.added_names(additive=False))
    ):
        if parse_option(view.answer_kind or view.question, session.text, None, view.options) is not None:
            return Intent.PREFERENCE_DISAMBIGUATION.value  # "The Fast and the Furious" typed at "Which one?"
        return Intent.PREFERENCE.value  # another title: a new preference ("Did you like F9?")
    if view.focus is not None and view.question is None and yes_no(folded):
        return Intent.REC_PREFERENCE.value  # a bare yes/no answers the card's "Do you like it?"
    if (
        intent == Intent.PREFERENCE
        and view.focus is not None
        and view.question is None
        and not session.readings(with_focus=False)
        and opinion_of_open(session.text, (), session.sentiment) is not None
    ):
        return Intent.REC_PREFERENCE.value  # "I don't like" with nothing named: about the card on screen
    if is_smalltalk(intent) and OPINION.search(folded) and not intent.startswith("smalltalk.confirmation"):
        if session.readings(with_focus=False):
            return Intent.REC_PREFERENCE.value if view.focus is not None else Intent.PREFERENCE.value
    if intent == Intent.RECOMMENDATION and OPINION_IDIOM.match(folded):  # "love me some Prince": a like
        if any(r.polarity is not Polarity.NEUTRAL for r in session.readings(with_focus=False)):
            return Intent.PREFERENCE.value
    if _opinion_about_a_name(session, intent, folded):
        return Intent.REC_PREFERENCE.value if view.focus is not None else Intent.PREFERENCE.value
    if (intent in NOT_UNDERSTOOD or is_smalltalk(intent)) and session.substitutes():
        return Intent.PREFERENCE.value  # "sorry, I meant Heat": the name meant instead (issue 22)
    if intent in NOT_UNDERSTOOD and view.question is not None:
        # an opinion about a named thing is a preference whatever question is open (issue 17.9: at "horror
        # film: genre or subject?", "I liked Inception" was a fallback and Inception was lost); so is any
        # opinion about another name than the one asked about (issue 22: "oh and Stalker is amazing" at
        # "Which Solaris do you mean?" is no answer, and not lost)
        said = [r for r in session.readings(with_focus=False) if r.polarity is not Polarity.NEUTRAL]
        if said and OPINION.search(folded):
            return Intent.PREFERENCE.value
        if said and view.asked and any(r.qid not in view.asked for r in said) and _states_a_cue(session, folded):
            return Intent.PREFERENCE.value
    return intent
