"""Requests whose wording leaves no doubt about the intent, however the classifier hears them (issue 12).

The intent recognizer learned the study's phrasing; people ask for the same things in other words
("What made you pick it for me?", "whats the genre", "Wipe my profile", "what have i liked so far",
"Got any movies my kids would like?", "I really like talking to you"). :func:`phrased_intent` reads
the kinds of request below from the folded text; ``nlu.understand`` overrules the classifier with it
when no question is open. The patterns are data (``nlu/wording/phrasings.toml``, issue 24): a new wording
of a kind is a new phrase there, never a rule for one sentence; this module keeps which kind wins and
what each needs (a card on screen, no name).

Kinds (each needs what it asks about to be there: a card for why / details):

- **why** (card on screen): "why ...", "what made you pick it", "how did you come up with this",
  "what does this have to do with what I like", "how is this related to ...", "where did that come from";
- **details** (card on screen): a question about a fact of the item ("what's the genre", "who directed
  it", "who's in it", "when was it released", "what album is it from", "what's it about", "how long is it");
- **skip** (card on screen): another item instead ("I'd rather see something else", "already seen it");
- **stop** (card on screen): no more recommendations now ("stop recommending", "I'm done for today");
- **help**: how to use the bot ("how do I rate things", "I'm confused"), about the card if one is shown;
- **reset**: wiping the whole profile ("delete all my preferences", "wipe my profile", "start over");
- **profile**: what the bot knows of the user ("what have I liked so far", "what do I like according to
  you", "what do you know about me", "which movies have I told you about");
- **recommend**: asking for something the user or someone would like ("got any movies my kids would
  like?", "anything I might enjoy?") with no title named;
- **likes the bot**: an opinion about talking to the bot or about the bot itself ("I really like talking
  to you", "I love this bot");
- **bye**: a message that ends with a goodbye ("thanks, bye", "ok gotta go, bye", "see ya", "k bye 👋"):
  the conversation ends, the list on screen is closed (issue 22).
"""

from __future__ import annotations

import re

from logs.schema import Intent
from nlu.textnorm import chat_spelling
from nlu.wording import family

__all__ = [
    "BYE",
    "LIKES_AGENT",
    "THANKS",
    "asks_details",
    "asks_profile",
    "asks_reset",
    "card_fact",
    "card_request_words",
    "for_this_time",
    "is_question",
    "off_topic",
    "phrased_intent",
    "reset_scope",
    "reset_worded",
    "says_goodbye",
    "takes_back_deletion",
]

BYE = "smalltalk.greetings.bye"
"""The goodbye of small talk: it closes the list and the open question."""
LIKES_AGENT = "smalltalk.user.likes_agent"
"""The small talk of a compliment to the bot ("you're great", "You have good taste lol")."""
THANKS = "smalltalk.appraisal.thank_you"
"""The small talk of thanks ("thanks!", "cheers mate"): at a card, the card is not pushed again."""

_WORDING = family("phrasings")
_WHY = _WORDING.pattern("why")
_DETAILS = _WORDING.pattern("details")
_TRAILER = _WORDING.pattern("trailer")
_ABOUT_IT = _WORDING.pattern("about_it")
_IS_IT = _WORDING.pattern("is_it")
_SKIP = _WORDING.pattern("skip")
_STOP = _WORDING.pattern("stop")
_HELP = _WORDING.pattern("help")
_RESET = _WORDING.pattern("reset")
_PROFILE = _WORDING.pattern("profile")
_RECOMMEND = _WORDING.pattern("recommend")
_ASKING = _WORDING.pattern("asking")
_NOT_A_NEW_REQUEST = _WORDING.pattern("not_a_new_request")
_QUESTION = _WORDING.pattern("question")
_THANKS = _WORDING.pattern("thanks")
_THANKS_TAIL = _WORDING.pattern("thanks_tail")
_UNDO = _WORDING.pattern("undo")
_THANKS_WORDS = _WORDING.word_set("thanks_words")
_BYE_LEAD = _THANKS_WORDS | _WORDING.word_set("bye_lead")
_ABOUT_THE_BOT = _WORDING.pattern("about_the_bot")
_LOVES = _WORDING.pattern("loves")
_BOT_GOOD = _WORDING.pattern("bot_good")
_BOT_BAD = _WORDING.pattern("bot_bad")
_BYE = _WORDING.pattern("bye")
_HELLO = _WORDING.pattern("hello")
_RESET_ALL = _WORDING.pattern("reset_all")
_OFF_TOPIC = _WORDING.pattern("off_topic")
_WORDS = re.compile(r"[a-z]+")
"""The words of a message (a message of thanks words only is a thank-you)."""


def _only_thanks(folded: str) -> bool:
    """The message only thanks (with appraisal words and fillers around), and is no "no thanks"."""
    words = _WORDS.findall(folded)
    return bool(_THANKS.search(folded)) and "no" not in words and all(w in _THANKS_WORDS for w in words)


def phrased_intent(folded: str, *, focus: bool, named: bool) -> str | None:
    """The intent a request's wording leaves no doubt about, or None.

    Args:
        folded: the message, folded (``nlu.textnorm.fold``).
        focus: a recommendation card is on screen (why / details are about it).
        named: the message names an entity the linker knows (a title asked for by name is no
            request "for something I'd like").
    """
    folded = chat_spelling(folded)
    if focus and _WHY.search(folded):
        return Intent.REC_WHY.value
    if asks_reset(folded):
        return Intent.RESET_PROFILE.value
    if _PROFILE.search(folded):
        return Intent.SHOW_PROFILE.value
    if not named and _HELP.search(folded):
        return Intent.REC_HELP.value if focus else Intent.HELP.value
    if focus and _TRAILER.search(folded) and (not named or _ABOUT_IT.search(folded)):
        return Intent.REC_TRAILER.value
    if focus and (_IS_IT.search(folded) or not named and _DETAILS.search(folded)):
        return Intent.REC_DETAILS.value
    if focus and not named and _SKIP.search(folded):
        return Intent.REC_SKIP.value
    if focus and _STOP.search(folded):
        return Intent.REC_STOP.value
    if _BYE.search(folded) or _bye_before_thanks(folded):
        return BYE  # the last thing said: "thanks, you're a good bot. bye" leaves
    if _ABOUT_THE_BOT.search(folded):
        return "smalltalk.user.loves_agent" if _LOVES.search(folded) else LIKES_AGENT
    if not named and _BOT_GOOD.search(folded):
        return "smalltalk.agent.good"
    if not named and _BOT_BAD.search(folded):
        return "smalltalk.agent.bad"
    if not named and _HELLO.search(folded):  # "yo", "heyy" (issue 22-D)
        return "smalltalk.greetings.hello"
    if _only_thanks(folded):
        return THANKS
    if (
        not named
        and not focus
        and _RECOMMEND.search(folded)
        and _ASKING.search(folded)
        and not _NOT_A_NEW_REQUEST.search(folded)
    ):
        return Intent.RECOMMENDATION.value
    return None


_CREATOR_FACT = re.compile(
    r"\bwho(?:'s| is| was)? (?:it|this|that|this one|that one|the song|the book|the film|the movie|the album) by\b"
    r"|\bby whom\b|\bwho (?:made|wrote|directed|sings|sang|performs|performed|did|recorded) (?:it|this|that)\b"
    r"|\bwho(?:'s| is| was) (?:the )?(?:director|author|writer|singer|artist|band|performer|creator)\b"
    r"|\bwho (?:is|was) (?:it|this|that) from\b|\bwhose (?:song|book|film|movie|album) is (?:it|this|that)\b"
)
_YEAR_FACT = re.compile(
    r"\bwhen (?:is|was|did|were) (?:it|this|that|this one|that one)(?: \w+)? (?:from|released|published|made|written"
    r"|out|come out|came out|recorded|filmed)\b"
    r"|\bwhat year\b|\bwhich year\b|\bhow old is (?:it|this|that)\b|\brelease date\b|\bpublication date\b"
    r"|\bwhen(?:'s| is| was) (?:it|this|that) from\b"
)


def asks_details(folded: str) -> bool:
    """The message asks a fact of the item it is about ("whats that about?", "who's in it?"): the card's details,
    or those of the suggested item (issue 22-D: at "Do you like X?" it was "Sorry, I didn't get that")."""
    folded = chat_spelling(folded)
    return bool(_DETAILS.search(folded) or _IS_IT.search(folded))


def off_topic(folded: str) -> bool:
    """The message asks about something else than films, books and music ("what's the weather like?", "who won the
    game?"): the caller checks it names nothing the linker knows (r7dlg: at a card it was the card's details)."""
    return bool(_OFF_TOPIC.search(chat_spelling(folded)))


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
"""Where a sentence of a message ends: a command may be said after other sentences."""


def asks_reset(folded: str) -> bool:
    """The message, or a sentence of it, asks to wipe the profile ("forget all that, start over"; "hmm, that's my
    brother's taste, I'm on his laptop. Wipe it all please."): a reset, at any open question too."""
    folded = chat_spelling(folded)
    return any(_RESET.search(part.strip()) for part in (folded, *_SENTENCE_END.split(folded)))


_RESET_WORDS = re.compile(
    r"\b(?:delete|remove|erase|wipe|clear|reset|restart|forget|drop|empty|scrap|start|begin|scratch|slate|fresh|"
    r"profile|over|everything|all)"
)
"""Words without which no message is a reset, whatever the classifier hears ("i want a pratchett book")."""


def reset_worded(folded: str) -> bool:
    """The message has a word a reset is said with (:data:`_RESET_WORDS`): the classifier's reset needs one."""
    return bool(_RESET_WORDS.search(chat_spelling(folded)))


def asks_profile(folded: str) -> bool:
    """The message asks what the bot knows of the user ("what do you have on me so far?"): the profile at any open
    question too (issue 22-G: heard as a request for a list while a question was open)."""
    return bool(_PROFILE.search(chat_spelling(folded)))


def _bye_before_thanks(folded: str) -> re.Match[str] | None:
    """The goodbye of a message that ends with thanks after it ("gotta run, thanks!"), or None."""
    tail = _THANKS_TAIL.search(folded)
    return _BYE.search(folded[: tail.start()].rstrip(" ,.!")) if tail is not None and tail.start() > 0 else None


def says_goodbye(folded: str) -> bool:
    """The message is only a goodbye, with thanks and fillers before it ("thanks, goodnight", "cheers, later", "ok
    bye then"): it answers no open question and names nothing, whatever titles its words are (issue 22-G: at an
    open question, "Goodnight" was stored as a liked song and the list went on)."""
    folded = chat_spelling(folded)
    bye = _BYE.search(folded) or _bye_before_thanks(folded)
    if bye is None:
        return False
    before = _WORDS.findall(folded[: bye.start()])
    return all(word in _BYE_LEAD for word in before)


def takes_back_deletion(folded: str) -> bool:
    """The message takes back a deletion just made ("never mind, keep it", "put it back", "undo that")."""
    return bool(_UNDO.search(chat_spelling(folded)))


def reset_scope(folded: str) -> str | None:
    """``"everything"`` when a reset's words already say what to reset ("forget everything", "start over":
    only "Are you sure?" is asked, issue 22-D), else None (the bot asks what to reset)."""
    return "everything" if _RESET_ALL.search(chat_spelling(folded)) else None


def card_fact(folded: str) -> str | None:
    """The one fact of the item on screen a question asks for: ``"creator"`` ("who is it by?", "who
    directed it?", "who's the author?") or ``"year"`` ("when is it from?", "what year is it?"); None
    for any other question (the details answer those)."""
    if _CREATOR_FACT.search(folded):
        return "creator"
    if _YEAR_FACT.search(folded):
        return "year"
    return None


_THIS_TIME = re.compile(
    r"\b(?:this time|for now|for today|for tonight|right now|at the moment|for the moment|this round"
    r"|in this list|for this list|for this one|for a change|for once)\b"
    r"|^(?:ok |okay |and |but |so |hmm )?(?:please )?no more \w"
)
"""A constraint said for now only ("not Radiohead this time", "nothing by Stephen King for now", "no more
horror"): it holds for the session, it is not a stored opinion. A refusal without such words ("no horror
please", "please nothing by X") is a standing dislike (issue 22: ``nlu.opinion_scope.refuses``)."""


def for_this_time(folded: str) -> bool:
    """Whether the message says its constraint holds for now only (see :data:`_THIS_TIME`)."""
    return bool(_THIS_TIME.search(folded))


def is_question(folded: str) -> bool:
    """The folded message is a question: a question mark, or a question word opening it (wording
    ``phrasings.question``)."""
    return bool(_QUESTION.search(folded.strip()))


def card_request_words(folded: str) -> frozenset[str]:
    """The words of the message that a request about the card on screen is made of: the matches of the
    ``details`` and ``trailer`` wordings ("give me the synopsis", "play a sample"), folded and respelt.

    A lowercase name the linker finds among them is the request's own word, not a title the person names
    (a song "Play", a book "Synopsis"); a title outside them ("the trailer of dune") still is one.
    """
    spelt = chat_spelling(folded)
    words: set[str] = set()
    for pattern in (_DETAILS, _TRAILER):
        for match in pattern.finditer(spelt):
            words.update(_WORDS.findall(match.group(0)))
    return frozenset(words)
