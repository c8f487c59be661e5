"""Issue 22 (22-D) through ``understand``: the wording a fresh user typed that the bot missed, with other items
than the findings'. A card skipped in words ("... lol. skip", "meh"), an aspect judged beside the whole ("great
but way too long"), greetings in chat spellings, a reset whose words say everything, a removal and a refusal at a
which-one question, words every option of a question has, a qualifier's own word ("the Whedon one"), and the
suggested item named by words that have other readings. Real linker (fake KB of the entity tests) and sentiment
recognizer; the classifier is a stand-in that hears what the study-trained model heard."""

from __future__ import annotations

import pytest

try:
    from conftest_entities import SaysIntent as _Says
    from conftest_entities import fake_kb, linker, sentiment  # noqa: F401 - fixtures
except ModuleNotFoundError:  # tests/nlu became a package
    from tests.nlu.conftest_entities import SaysIntent as _Says
    from tests.nlu.conftest_entities import fake_kb, linker, sentiment  # noqa: F401 - fixtures

from logs.schema import Intent
from nlu.disambiguation import parse_option
from nlu.phrasings import reset_scope
from nlu.understand import View, understand

FOLLOW_UPS = frozenset(i.value for i in Intent if " - " in i.value)
CARD_INTENTS = frozenset(i for i in FOLLOW_UPS if i.startswith("request_recommendation - "))
MATRIX, AVENGERS_2012, AVENGERS_1998 = "Q83495", "Q182218", "Q1125729"


def parse(text, linker, sentiment, *, said=Intent.FALLBACK.value, blocked=FOLLOW_UPS, **view):  # noqa: F811
    return understand(text, View(blocked=blocked, **view), intents=_Says(said), linker=linker, sentiment=sentiment)


def at_card(text, linker, sentiment, said):  # noqa: F811
    return parse(text, linker, sentiment, said=said, blocked=FOLLOW_UPS - CARD_INTENTS, focus=MATRIX)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("u just asked me about that one lol. skip", Intent.REC_PREFERENCE.value),  # heard as a rating: a like
        ("already told you about it, next", Intent.REC_FALLBACK.value),
        ("meh, next one", Intent.REC_FALLBACK.value),
        ("nah not my thing", Intent.REC_FALLBACK.value),
    ],
)
def test_a_card_passed_over_in_words_is_skipped(text, said, linker, sentiment):  # noqa: F811
    assert at_card(text, linker, sentiment, said).intent == Intent.REC_SKIP


@pytest.mark.parametrize(
    ("text", "said", "polarity"),
    [
        # a shrug ("meh") alone is no dislike (issue 22, fourth round); with "not for me" it is one
        ("meh. not really for me", Intent.REC_SKIP.value, "-"),
        ("not bad, watched it last year", Intent.REC_PREFERENCE.value, "+"),
        ("cant say im a fan", Intent.RECOMMENDATION.value, "-"),
    ],
)
def test_a_card_answered_with_a_lean_is_rated(text, said, polarity, linker, sentiment):  # noqa: F811
    got = at_card(text, linker, sentiment, said)
    assert got.intent == Intent.REC_PREFERENCE and got.message_polarity.value == polarity


def test_a_rating_the_classifier_heard_is_no_skip(linker, sentiment):  # noqa: F811
    got = at_card("nope, not feeling this", linker, sentiment, Intent.REC_PREFERENCE.value)
    assert got.intent == Intent.REC_PREFERENCE


@pytest.mark.parametrize("said", [Intent.REC_PREFERENCE.value, Intent.REC_FALLBACK.value])
def test_a_name_after_but_not_at_a_card_is_a_critique(said, linker, sentiment):  # noqa: F811
    # fresh user: "i like it but not adele" at an Adele song stored only "👎 Adele", the card was not liked
    got = at_card("i like it but not samuel l. jackson", linker, sentiment, said)
    assert got.intent == Intent.REC_YES_BUT


def test_a_name_alone_heard_as_help_is_a_preference(linker, sentiment):  # noqa: F811
    # "How about Coldplay ?" was help with a retrained classifier: names alone have no words of help
    assert parse("How about Tom Cruise ?", linker, sentiment, said=Intent.HELP.value).intent == Intent.PREFERENCE
    got = at_card("how about tom cruise?", linker, sentiment, Intent.REC_DETAILS.value)
    assert got.intent == Intent.PREFERENCE


def test_an_aspect_beside_a_judgement_of_the_card_rates_it(linker, sentiment):  # noqa: F811
    # "great but way too long" at a card was "Sorry, I didn't get that"
    got = at_card("brilliant but a bit too slow", linker, sentiment, Intent.REC_FALLBACK.value)
    assert got.intent == Intent.REC_PREFERENCE and got.message_polarity.value == "+"


@pytest.mark.parametrize("text", ["yo", "heyy", "hiii there", "sup"])
def test_greetings_in_chat_spellings(text, linker, sentiment):  # noqa: F811
    assert parse(text, linker, sentiment).intent == "smalltalk.greetings.hello"


def test_reset_words_that_say_everything():
    assert reset_scope("wipe everything") == "everything"
    assert reset_scope("ok lets start over") == "everything"
    assert reset_scope("reset my profile") is None


def test_a_reset_wins_at_an_open_question(linker, sentiment):  # noqa: F811
    got = parse("hmm scrap all that, start from scratch", linker, sentiment, said=Intent.PREFERENCE.value,
                question="item", answer_kind="item", options=(("The Avengers",), ("The Avengers",)))  # fmt: skip
    assert got.intent == Intent.RESET_PROFILE and got.reset_scope == "everything"


def test_remove_that_at_a_which_one_question_is_a_removal(linker, sentiment):  # noqa: F811
    got = parse("no no i didnt mean the avengers, remove that", linker, sentiment, said=Intent.PREFERENCE.value,
                question="item", answer_kind="item", options=(("The Avengers",), ("The Avengers",)))  # fmt: skip
    assert got.intent == Intent.DELETE_PREFERENCE


def test_a_refusal_answers_none():
    options = (("The Avengers", "The Avengers (2012, film by Joss Whedon)"), ("The Avengers", "1998"))
    assert parse_option("item", "i didn't mean that one", None, options) == "none"


def test_words_every_option_has_choose_none():
    # "yeah solaris is great" at "Which Solaris?" took the first one
    options = (("The Avengers", "The Avengers (2012, film by Joss Whedon)"), ("The Avengers", "1998"))
    assert parse_option("item", "yeah the avengers is great", None, options) is None


def test_a_word_only_one_option_has_chooses_it():
    options = (
        ("The Avengers", "The Avengers (2012, film by Joss Whedon)", "Joss Whedon"),
        ("The Avengers", "The Avengers (1998, film by Jeremiah S. Chechik)", "Jeremiah S. Chechik"),
    )
    assert parse_option("item", "the whedon one", None, options) == 0
    assert parse_option("item", "i meant chechik's", None, options) == 1


def test_the_suggested_item_named_by_words_with_other_readings_rates_it(linker, sentiment):  # noqa: F811
    # at "Do you like Solaris?", "yeah solaris is great" stored it and then asked "Which Solaris?"
    got = parse("yeah the avengers is great", linker, sentiment, said=Intent.PREFERENCE.value,
                question="suggestion", suggested=AVENGERS_1998, asked=frozenset({AVENGERS_1998}))  # fmt: skip
    assert got.suggestion is not None and got.suggestion.kind == "rate" and got.suggestion.polarity == "+"
    assert not got.suggestion.others


def test_a_wish_naming_a_genre_is_a_request(linker, sentiment):  # noqa: F811
    # "i want a comedy" linked nothing and stored nothing; "i want a break" asks for nothing
    got = parse("i want a documentary film", linker, sentiment, said=Intent.PREFERENCE.value)
    assert got.intent == Intent.RECOMMENDATION and got.request is not None
    assert [r.qid for r in got.readings] == ["Q93204"]
    assert parse("i want a break", linker, sentiment, said=Intent.FALLBACK.value).request is None


@pytest.mark.parametrize(
    ("text", "polarity"),
    [
        ("The Matrix is just noise to me", "-"),
        ("the matrix was magical", "+"),
        ("the matrix and inception arent my thing", "-"),
    ],
)
def test_chat_judgements(text, polarity, linker, sentiment):  # noqa: F811
    got = parse(text, linker, sentiment, said=Intent.PREFERENCE.value)
    assert got.readings and got.readings[0].polarity.value == polarity


@pytest.mark.parametrize(
    ("text", "said"),
    [("ya this is good", Intent.REC_WHY.value), ("nah thats mid", Intent.RECOMMENDATION.value)],
)
def test_a_judgement_of_the_card_misheard_as_a_question_or_request_rates_it(text, said, linker, sentiment):  # noqa: F811
    assert at_card(text, linker, sentiment, said).intent == Intent.REC_PREFERENCE
