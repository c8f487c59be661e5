"""The wording ``nlu.understand`` reads, compiled from the data families (issue 24), and the small readers over
it: a bare yes or no, the role words of a message, a role stated after a name.

The words are data in ``nlu/wording/`` (``answers``, ``commands``, ``card``, ``domains``, ``opinion_cues``,
``requests``, ``opinion_scope``); what stays here is what data cannot say, each with why: a yes opening the
message before a word (``\\b`` after an emoji needs a word after it), a "no" before any signs ("no, not that
one"), the role words of the schema (``recommender.schema.role_pattern``) around a name, and the structure of
a critique (the card judged before "but").

Example:
    >>> yes_no("nope!")
    'no'
    >>> roles_named("i like it but not the director", "movie")
    ('P57',)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection

from nlu.disambiguation import YES_WORDS
from nlu.textnorm import fold
from nlu.wording import family
from recommender.schema import role_pattern, role_words_for

__all__ = [
    "ALL_OPTIONS",
    "CARD_COMMAND",
    "CARD_COMMANDS",
    "CARD_PEOPLE",
    "CARD_QUESTION",
    "CARD_QUESTION_WORDS",
    "CARD_WORD",
    "COMMAND_INTENTS",
    "CRITIQUE",
    "DELETE",
    "DELETE_FILLER",
    "DELETE_WORDS",
    "DETAILS_OF",
    "DOMAIN_COMMANDS",
    "MORE",
    "NO",
    "NONE",
    "REFUSAL_LEAD",
    "NOT_NAMES",
    "NOT_THAT_ONE",
    "NO_WORD",
    "OPINION",
    "OPINION_IDIOM",
    "OPINION_VERB",
    "RATE_MENU",
    "REFERENCE_WORDS",
    "REQUEST_WORDING",
    "SHOW_PROFILE",
    "SWITCH",
    "THUMBS",
    "WHAT_TO_RATE",
    "YES",
    "name_as_role",
    "roles_named",
    "stated_role_after",
    "the_role",
    "yes_no",
]

_ANSWERS, _COMMANDS, _CARD = family("answers"), family("commands"), family("card")

# A yes opening the message, as the typed words: "\b" after it, so "👍" alone is no yes here (a thumb is the
# card's button typed, read as such by nlu.understand) while "yes please" is.
YES = re.compile(r"^(" + "|".join(YES_WORDS) + r")\b", re.I)
NO = _ANSWERS.pattern("no")
# Emoji and their skin tones are code points, not words: a message that is only a thumbs up or down.
THUMBS = re.compile("(?:\U0001f44d|\U0001f44e)[\U0001f3fb-\U0001f3ff\ufe0f]*(?:\\s*[!.]*)")
"""A message that is only a thumbs up or down (any skin tone): the card's like / dislike buttons typed."""
NO_WORD = _ANSWERS.pattern("no_word")
"""A no-word anywhere in the message: with a yes it makes the answer unclear ("yes no")."""
NONE = _ANSWERS.pattern("none")
REFUSAL_LEAD = _ANSWERS.word_set("refusal_lead")
"""Words that may come before a refusal of the reading just stored (``nlu.open_answer.refuses_reading``)."""
ALL_OPTIONS = _ANSWERS.pattern("all_options")
"""All the options of a "Which one?" question ("both", "all of them")."""
# "no" before any signs ("no, not that one"), then the refusal: the signs between are no separator of words.
NOT_THAT_ONE = re.compile(r"^(?:no\W+)?(?:" + _ANSWERS.source("not_that_one", after_lead=True) + ")")
"""Refusing the one reading the bot took ("I took X for ...: say 'not that one'"): it is removed."""
SWITCH = family("domains").pattern("switch_word")
DOMAIN_COMMANDS: dict[str, str] = dict(_COMMANDS.table("domain_slash"))
COMMAND_INTENTS: dict[str, str] = dict(_COMMANDS.table("slash"))
"""Slash commands (``/profile``) and the intent each stands for; unknown ones are a fallback."""
DETAILS_OF = _COMMANDS.pattern("details_of")
CARD_COMMANDS: dict[str, str] = dict(_CARD.table("card_commands"))
"""The card's buttons typed as words, in every domain."""
CARD_COMMAND = re.compile(r"^\W*(" + "|".join(map(re.escape, CARD_COMMANDS)) + r")\W*$")
CARD_WORD = _CARD.pattern("card_word")
CARD_PEOPLE = _CARD.pattern("card_people")
"""The people of the card on screen named by reference ("that guy", "this band", "him")."""
CARD_QUESTION_WORDS: dict[str, str] = dict(_CARD.table("card_questions"))
# "why" asks only opening the message, and not "why not"; the other card words anywhere.
CARD_QUESTION = re.compile(
    r"^\W*(why)\b(?!\s+not\b)|\b(" + "|".join(w for w in CARD_QUESTION_WORDS if w != "why") + r")\b"
)
"""A question about the item asked about ("Can I watch the trailer?", "why did you suggest it?", "give me
some details"): the card's words in a sentence."""
MORE = _COMMANDS.pattern("more")
DELETE = _COMMANDS.pattern("delete")
DELETE_FILLER = _COMMANDS.pattern("delete_filler")
"""The command words around the name in "please delete my Titanic" (left out when matching the profile)."""
DELETE_WORDS = _COMMANDS.pattern("delete_words")
SHOW_PROFILE = _COMMANDS.pattern("show_profile")
# "what" or "which", up to 30 characters of anything, then "should I rate": a span the words do not fill.
WHAT_TO_RATE = re.compile(
    r"\b(?:what|which)\b.{0,30}(?:" + _COMMANDS.source("rate_question") + ")|" + _COMMANDS.source("to_rate")
)
RATE_MENU = _COMMANDS.pattern("rate_menu")
"""The original's mixed-mode menu buttons ("🎵 Rate songs"): no intent of its agent, logged as the
Default Fallback Intent in the released study; answered with suggestions to rate."""
OPINION = family("opinion_cues").pattern("opinion")
OPINION_VERB = family("opinion_cues").pattern("opinion_verb")
OPINION_IDIOM = family("opinion_cues").pattern("opinion_idiom")
"""An idiom that states a like with a request's word ("love me some Prince"): not a request."""
REQUEST_WORDING = family("requests").pattern("request_wording")
"""Words of a request ("recommend something like X", "any films like X?"): a judgement has none of them."""
NOT_NAMES = family("opinion_scope").word_set("opening_non_names")
"""Capitalised openers that name nothing."""
REFERENCE_WORDS = _CARD.word_set("reference_words")
"""Words of a mention that only refers to the item on screen ("it", "this movie")."""
# The card ("it", "this one") judged before "but" and the rest after it: spans of the message, so a structure.
CRITIQUE = re.compile(
    rf"^(?P<card>.*?\b{_CARD.alternation('critique_card')}\b.*?)"
    rf"(?P<but>\b{_CARD.alternation('critique_but')}\b|\bjust\s+(?=not\b)|,\s*(?=not\b))(?P<rest>.+)$"
)
"""An opinion of the card, then "but" ("I like it but not the directors", "hated it, but the cast was great",
"i like the song but i'm not into the band", "I like the track, just not the artist", "love the song, not a fan of
the band")."""
STATED_ROLE_BEFORE = re.compile(r"\bas(?:\s+(?:an?|the|my))?\s*$")
"""The words before a role word stated after a name ("Tom Cruise as a producer"): it is no title."""


# The role words come from the schema (recommender.schema.role_words_for), per domain: compiled on demand.
@functools.cache
def _role_after(domain: str | None) -> re.Pattern[str]:
    """A role stated right after the name ("Brad Pitt as an actor", "Mel Gibson as director")."""
    return re.compile(r"\s*(?:as|like)\s+(?:an?\s+|the\s+|my\s+)?(" + role_pattern(domain) + r")\b")


@functools.cache
def name_as_role(domain: str | None) -> re.Pattern[str]:
    """The whole message is a name and its role ("Tom Cruise as an actor")."""
    return re.compile(r"^\w[\w .'-]*?\s+as\s+(?:an?\s+|the\s+|my\s+)?(" + role_pattern(domain) + r")\W*$")


@functools.cache
def _role_word(domain: str | None) -> re.Pattern[str]:
    """Any role word of the domain, as a whole word ("the director")."""
    return re.compile(r"\b(" + role_pattern(domain) + r")\b")


@functools.cache
def the_role(domain: str | None) -> re.Pattern[str]:
    """A role of the item named as such ("the director", "its singer"; not "my style")."""
    return re.compile(r"\b(?:the|its|his|her|their|this|these|that)\s+(?:" + role_pattern(domain) + r")\b")


def yes_no(folded: str) -> str | None:
    """``"yes"``/``"no"`` when the folded message is only a yes or a no (signs around it allowed), else None."""
    bare = folded.strip(" .!")
    if NO.fullmatch(bare):
        return "no"
    if YES.fullmatch(bare):
        return "yes"
    return None


def roles_named(folded: str, domain: str | None = None, *, parts: Collection[str] = ()) -> tuple[str, ...]:
    """Role PIDs named by a role word anywhere in the text ("the director"), first named word first; a role
    word in ``parts`` (a part of a work: "the soundtrack was great", "the writing") names none."""
    words = role_words_for(domain)
    named = {match.group(1) for match in _role_word(domain).finditer(folded)} - set(parts)
    return tuple(dict.fromkeys(pid for word, pid in words.items() if word in named))


def stated_role_after(text: str, end: int, domain: str | None = None) -> str | None:
    """The role PID stated right after a name ending at ``end`` ("Brad Pitt as an actor"), or None."""
    stated = _role_after(domain).match(fold(text[end:]))
    return role_words_for(domain)[stated.group(1)] if stated else None


def is_stated_role(text: str, start: int, words: str, domain: str | None = None) -> bool:
    """The mention ``words`` at ``start`` is the role word of "as a producer" ("Tom Cruise as a producer"), not
    a title."""
    before = fold(text[:start])
    word = fold(words).rstrip("s")
    roles = role_words_for(domain)
    return bool(STATED_ROLE_BEFORE.search(before)) and (word in roles or f"{word}s" in roles)
