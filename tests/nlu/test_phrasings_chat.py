"""Non-preference requests in chat wordings (issue 12): chat spellings respelt before the intent is read
(nlu/textnorm.chat_spelling), questions about the item on screen, other items, help, reset, profile,
recommendation requests, thanks and praise of the bot (nlu/phrasings.py). Sentences written for these
tests, not taken from the realistic sets."""

from __future__ import annotations

import pytest

from nlu.phrasings import phrased_intent
from nlu.textnorm import chat_spelling, fold

WHY, DETAILS = "request_recommendation - why", "request_recommendation - details"
SKIP, TRAILER = "request_recommendation - skip", "request_recommendation - trailer"
REC_HELP, RECOMMEND = "request_recommendation - help", "request_recommendation"
THANKS = "smalltalk.appraisal.thank_you"


def _on_card(text: str, *, named: bool = False) -> str | None:
    return phrased_intent(fold(text), focus=True, named=named)


def _at_start(text: str, *, named: bool = False) -> str | None:
    return phrased_intent(fold(text), focus=False, named=named)


@pytest.mark.parametrize(
    ("typed", "standard"),
    [
        ("y dis one", "why this one"),
        ("wut r u", "what are you"),
        ("can u pls show me sth else", "can you please show me something else"),
        ("how dose it wrk", "how does it work"),
        ("wich one shud i pick", "which one should i pick"),
        ("whos the auther", "who's the author"),
        ("thx m8", "thanks m8"),
        ("wanna see the trailor", "want to see the trailer"),
    ],
)
def test_chat_spellings_are_respelt(typed, standard):
    assert chat_spelling(typed) == standard


@pytest.mark.parametrize(
    "text",
    ["y", "r&b", "u2 is a band", "x-men", "you're nice", "yes"],
)
def test_words_that_are_no_chat_spelling_stay(text):
    assert chat_spelling(text) == text


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        # why, in chat spelling and as a guess at the reason
        ("y this song", WHY),
        ("whyyy that one", WHY),
        ("wy this novel?", WHY),
        ("is it because I rated Jaws?", WHY),
        ("Was this based on my profile?", WHY),
        # details: a fact of the item, asked about it
        ("wat genre is it", DETAILS),
        ("who's the writer", DETAILS),
        ("whos the singr", DETAILS),
        ("Is it a thriller?", DETAILS),
        ("is this a true story?", DETAILS),
        ("Is it a sequel or a remake?", DETAILS),
        ("where is the band from?", DETAILS),
        ("Where was it filmed?", DETAILS),
        ("how many pages does it have", DETAILS),
        ("which studio made it?", DETAILS),
        ("give me a quick summary", DETAILS),
        # another item
        ("could you show me a different film?", SKIP),
        ("another album please", SKIP),
        ("I've listened to that one", SKIP),
        # a trailer, a preview or a sample
        ("is there a clip of it?", TRAILER),
        ("let me hear a bit", TRAILER),
        # how to use the bot, with a card on screen
        ("how can I let you know if I like it?", REC_HELP),
        # thanks, and no skip
        ("great, thanks a lot", THANKS),
        ("cheers mate", THANKS),
        ("perfect, thank you so much!", THANKS),
    ],
)
def test_with_a_card_on_screen(text, intent):
    assert _on_card(text) == intent


@pytest.mark.parametrize(
    ("text", "named", "intent"),
    [
        # a genre or a person asked about the item on screen is a fact of it, not another item
        ("is it a horror film?", True, DETAILS),
        ("is this by Hitchcock?", True, DETAILS),
        ("does it have Meryl Streep in it?", True, DETAILS),
        ("does it have a movie trailer?", True, TRAILER),
        # a title asked about by name is not the card
        ("who directed Alien?", True, None),
        ("is there a trailer for Alien?", True, None),
    ],
)
def test_named_facts_of_the_card(text, named, intent):
    assert _on_card(text, named=named) == intent


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("how am I meant to use this?", "help"),
        ("How am I supposed to talk to you?", "help"),
        ("how dose this thing work", "help"),
        ("What options do you have?", "help"),
        ("list the commands", "help"),
        ("what else can u do", "help"),
        ("i dont know what to type", "help"),
        ("Let's start from scratch", "reset_profile"),
        ("begin again please and forget what I said", "reset_profile"),
        ("can we have a clean slate?", "reset_profile"),
        ("forget all my ratings", "reset_profile"),
        ("tell me what you know about me", "show_profile"),
        ("what do u remember about me", "show_profile"),
        ("What are my likes?", "show_profile"),
        ("remind me what I rated", "show_profile"),
        ("what kind of books do I like", "show_profile"),
        ("wat shud i watch", RECOMMEND),
        ("Which album would my dad enjoy?", RECOMMEND),
        ("a song my niece can dance to?", None),  # no consuming verb: the classifier's
        ("anything the family could watch tonight?", RECOMMEND),
        ("I want some good books", RECOMMEND),
        ("I'm looking for new films", RECOMMEND),
        ("in the mood for something funny", RECOMMEND),
        ("sugest a few albums", RECOMMEND),
        ("any recs?", RECOMMEND),
        ("thanks!", THANKS),
        ("You're awesome", "smalltalk.agent.good"),
        ("you are really helpful", "smalltalk.agent.good"),
        ("this bot is rubbish", "smalltalk.agent.bad"),
    ],
)
def test_with_nothing_on_screen(text, intent):
    assert _at_start(text) == intent


@pytest.mark.parametrize(
    ("text", "focus", "named"),
    [
        ("no thanks", True, False),  # declining the card, not thanking
        ("thanks, I loved it", True, False),  # an opinion about the card
        ("why did you recommend Heat?", False, True),  # about a list no longer open: no new request
        ("You're So Vain is a great song", False, True),  # a title opening with "you're"
        ("I want Dune", False, True),  # a title asked for by name
        ("forget it", False, False),  # never a profile reset
        ("is it good?", True, False),  # an opinion asked for, no fact
    ],
)
def test_what_is_no_such_request(text, focus, named):
    assert phrased_intent(fold(text), focus=focus, named=named) is None
