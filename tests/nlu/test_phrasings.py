"""Requests worded otherwise than the study's phrases (nlu/phrasings.py, issue 12): each kind in
several wordings, and what must not be read so."""

from __future__ import annotations

import pytest

from logs.schema import Intent
from nlu.phrasings import phrased_intent
from nlu.textnorm import fold

WHY, DETAILS = "request_recommendation - why", "request_recommendation - details"


@pytest.mark.parametrize(
    ("text", "focus", "intent"),
    [
        ("What made you choose this one?", True, WHY),
        ("how did you come up with that", True, WHY),
        ("Why this?", True, WHY),
        ("what's your reasoning here", True, WHY),
        ("What has this got to do with my taste?", True, WHY),
        ("how is it related to what I like", True, WHY),
        ("whats the plot", True, DETAILS),
        ("What genre is it?", True, DETAILS),
        ("who directed it", True, DETAILS),
        ("Who's the author?", True, DETAILS),
        ("when did it come out?", True, DETAILS),
        ("what's this book about", True, DETAILS),
        ("How long is it?", True, DETAILS),
        ("Please clear all my ratings", False, "reset_profile"),
        ("delete my whole profile", False, "reset_profile"),
        ("forget everything", False, "reset_profile"),
        ("erase my data", True, "reset_profile"),
        ("What have I rated?", False, "show_profile"),
        ("what bands do i like", False, "show_profile"),
        ("Which films did I mention?", False, "show_profile"),
        ("what's in my profile", False, "show_profile"),
        ("Anything my dad would enjoy?", False, "request_recommendation"),
        ("got a book my sister might like?", False, "request_recommendation"),
        ("I love chatting with you", False, "smalltalk.user.loves_agent"),
        ("I like talking to u", False, "smalltalk.user.likes_agent"),
    ],
)
def test_each_kind_in_other_words(text, focus, intent):
    assert phrased_intent(fold(text), focus=focus, named=False) == intent


@pytest.mark.parametrize(
    ("text", "focus", "named"),
    [
        ("why", False, False),  # no card on screen: nothing to explain
        ("what's the plot", False, False),
        ("Who directed Inception?", True, True),  # about a named title, not the card
        ("delete Titanic", False, True),  # one preference, not the profile
        ("I like Inception, would you like it?", False, True),
        ("I would like Inception more with a better ending", False, True),
        ("I love The Beatles", False, True),
        ("I like it", True, False),
        ("what do I like about jazz? the drums", False, False),
    ],
)
def test_what_is_no_such_request(text, focus, named):
    assert phrased_intent(fold(text), focus=focus, named=named) is None


def test_understand_overrules_the_classifier_with_them_when_no_question_is_open():
    from nlu.understand import View, understand
    from tests.bot.dialog_fakes import FakeIntents, FakeKB, FakeLinker, FakeSentiment

    parts = {"intents": FakeIntents(), "linker": FakeLinker(FakeKB()), "sentiment": FakeSentiment()}
    assert understand("What made you pick it for me?", View(focus="Q1"), **parts).intent == WHY
    assert understand("Wipe my profile", View(), **parts).intent == "reset_profile"
    assert understand("what have i liked so far", View(), **parts).intent == "show_profile"
    # an open question is answered as before
    assert understand("how do I rate things", View(question="confirm"), **parts).intent != "help"
    # but the profile asked for is no answer to it (issue 22-G: "what do you have on me so far?" at an open
    # question was heard as a request for a list): the profile is shown and the question stays open
    assert understand("what have i liked so far", View(question="confirm"), **parts).intent == "show_profile"
    # but a reset is no answer to it: it wins at any question (issue 22-D: "hmm forget all that, start over")
    assert understand("Wipe my profile", View(question="confirm"), **parts).intent == "reset_profile"


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("Who's in it?", DETAILS),
        ("I'd rather see something else", "request_recommendation - skip"),
        ("already read that, what else", "request_recommendation - skip"),
        ("why not", None),  # agreement, not a question about the card
    ],
)
def test_with_a_card_on_screen(text, intent):
    assert phrased_intent(fold(text), focus=True, named=False) == intent


@pytest.mark.parametrize(
    ("text", "focus", "intent"),
    [
        ("stop recommending", True, "request_recommendation - stop"),
        ("let's call it a day", True, "request_recommendation - stop"),
        ("how do I rate things", False, "help"),
        ("I'm confused", False, "help"),
        ("what am I supposed to do with this", True, "request_recommendation - help"),
        ("what should I watch tonight", False, "request_recommendation"),  # a request for a film, not for help
        ("how does Inception end", False, None),
    ],
)
def test_stop_and_help(text, focus, intent):
    assert phrased_intent(fold(text), focus=focus, named=False) == intent


# -- issue 23: the one fact of the card asked for, and constraints said for now only ---------------


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("who is it by?", "creator"),
        ("Who's this one by", "creator"),
        ("who wrote it", "creator"),
        ("who's the singer?", "creator"),
        ("by whom?", "creator"),
        ("when is it from?", "year"),
        ("What year is it?", "year"),
        ("when was this published", "year"),
        ("what's the plot", None),
        ("who is in it", None),
    ],
)
def test_card_fact(text, fact):
    from nlu.phrasings import card_fact

    assert card_fact(fold(text)) == fact


@pytest.mark.parametrize(
    ("text", "now"),
    [
        ("not Blondie this time", True),
        ("no westerns for now", True),
        ("nothing by Ian Rankin for now", True),
        ("no more sad songs", True),
        # issue 22: a refusal without words of time is a standing dislike (nlu.opinion_scope.refuses)
        ("no westerns please", False),
        ("without Hugh Grant please", False),
        ("I like it but not the band this time", True),
        ("I don't like westerns", False),
        ("I watched it today and loved it", False),
        ("not really my thing", False),
    ],
)
def test_for_this_time(text, now):
    from nlu.phrasings import for_this_time

    assert for_this_time(fold(text)) is now


@pytest.mark.parametrize(
    "text", ["thx, nite", "ok cheers, laters", "alright bye for now", "great, thank you! night", "gn 👋"]
)
def test_a_goodbye_after_thanks_is_only_a_goodbye(text):
    # issue 22-G: "Goodnight" heard as a song title at an open question, and the list went on
    from nlu.phrasings import says_goodbye

    assert says_goodbye(fold(text)) and phrased_intent(fold(text), focus=True, named=True) == "smalltalk.greetings.bye"


@pytest.mark.parametrize("text", ["i'll listen to it later", "goodnight moon was my favourite as a kid", "cheers"])
def test_words_of_a_goodbye_inside_a_statement_are_no_goodbye(text):
    from nlu.phrasings import says_goodbye

    assert not says_goodbye(fold(text))


@pytest.mark.parametrize("question", ["confirm", "item", "suggestion"])
def test_a_goodbye_at_an_open_question_is_no_answer(question):
    # issue 22-G: at "Do you like X?", "nope, gotta run" was read as a rating of X
    from nlu.understand import View, understand
    from tests.bot.dialog_fakes import FakeIntents, FakeKB, FakeLinker, FakeSentiment

    parts = {"intents": FakeIntents(), "linker": FakeLinker(FakeKB()), "sentiment": FakeSentiment()}
    parse = understand("nope, gotta run", View(question=question, suggested="Q1"), **parts)
    assert parse.intent == "smalltalk.greetings.bye" and parse.suggestion is None


@pytest.mark.parametrize(
    "text",
    [
        "sorry, that was my brother typing, he's on my laptop. Wipe my profile please.",
        "Oops, my flatmate used my phone! Start over please.",
        "hmm no. these aren't mine at all. forget everything",
    ],
)
def test_a_reset_said_after_other_sentences_is_a_reset(text):
    # issue 22-R: "Hmm, that's my mum's taste actually, I'm on her phone. Forget everything please." was a preference
    assert phrased_intent(fold(text), focus=False, named=False) == Intent.RESET_PROFILE.value


@pytest.mark.parametrize(
    "text",
    [
        "I loved Heat. Forget it, the sequel was bad",
        "start with the hobbit, it's great",
        "I was too hard on Oasis. Forget what I said about them.",  # a retraction of one name, no reset
    ],
)
def test_a_sentence_that_is_no_reset_stays_none(text):
    assert phrased_intent(fold(text), focus=False, named=True) != Intent.RESET_PROFILE.value
