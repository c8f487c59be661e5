"""Issue 12 through ``understand``: an opinion about a named thing is a preference in any wording,
even when the intent classifier (trained on "I like X") does not hear one. Real linker (on the fake
KB of the entity tests) and real sentiment recognizer; the classifier is a stand-in."""

from __future__ import annotations

import pytest

try:
    from conftest_entities import Prediction as _Prediction
    from conftest_entities import SaysIntent as _Says
    from conftest_entities import fake_kb, linker, sentiment  # noqa: F401 - fixtures
except ModuleNotFoundError:  # tests/nlu became a package
    from tests.nlu.conftest_entities import Prediction as _Prediction
    from tests.nlu.conftest_entities import SaysIntent as _Says
    from tests.nlu.conftest_entities import fake_kb, linker, sentiment  # noqa: F401 - fixtures

from logs.schema import Intent
from nlu.understand import View, understand

FOLLOW_UPS = frozenset(i.value for i in Intent if " - " in i.value)


def parse(text, linker, sentiment, *, said=Intent.FALLBACK.value, **view):  # noqa: F811
    return understand(text, View(blocked=FOLLOW_UPS, **view), intents=_Says(said), linker=linker, sentiment=sentiment)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Inception is a great movie", [("Q25188", "+")]),
        ("pulp fiction was great", [("Q47703", "+")]),
        ("Titanic bored me", [("Q44578", "-")]),
        ("Avatar sucks", [("Q24871", "-")]),
        ("Inception 🔥🔥", [("Q25188", "+")]),
        ("Gladiator was sick!!", [("Q126399", "+")]),
        ("big fan of Ridley Scott", [("Q1124", "+")]),
        ("Interstellar blew my mind", [("Q165817", "+")]),
        ("Titanic made me cry, I loved it", [("Q44578", "+")]),
        ("I watched Inception", [("Q25188", "0")]),  # no opinion yet: a preference to ask about
        ("Not the worst film I've seen, Titanic", [("Q44578", "0")]),  # F22: a hedge is asked about
    ],
)
def test_an_opinion_about_a_name_is_a_preference(linker, sentiment, text, expected):  # noqa: F811
    got = parse(text, linker, sentiment)
    assert got.intent == "preference"
    assert [(r.qid, r.polarity.value) for r in got.readings] == expected


@pytest.mark.parametrize("said", ["smalltalk.appraisal.good", "show_profile", "help"])
def test_the_opinion_overrules_small_talk_the_profile_and_help(linker, sentiment, said):  # noqa: F811
    assert parse("Jurassic Park is a great movie", linker, sentiment, said=said).intent == "preference"


def test_with_a_card_on_screen_it_is_a_rating_turn(linker, sentiment):  # noqa: F811
    got = parse("Inception is a great movie", linker, sentiment, focus="Q44578")
    assert got.intent == "request_recommendation - preference"


def test_the_state_and_other_intents_stay(linker, sentiment):  # noqa: F811
    # an open question is answered as such; a request naming a title stays a request
    assert parse("Inception is a great movie", linker, sentiment, question="confirm").intent != "preference"
    said = Intent.RECOMMENDATION.value
    assert parse("recommend me something like Inception", linker, sentiment, said=said).intent == said
    # no named thing, no preference ("I love you" to the bot; a request in any wording)
    assert parse("you are great", linker, sentiment).intent == "smalltalk.agent.good"  # praise of the bot
    assert parse("show me the trailer", linker, sentiment).intent == Intent.FALLBACK.value


def test_an_opinion_about_a_name_the_kb_lacks_is_a_preference_too(linker, sentiment):  # noqa: F811
    # the dialog answers "I couldn't find that", not "I didn't get that"
    got = parse("Kelly Reichardt is one of the best directors working today", linker, sentiment)
    assert got.intent == "preference" and got.readings == ()
    assert parse("What a great day", linker, sentiment).intent == Intent.FALLBACK.value  # no name
    assert parse("Kelly Reichardt", linker, sentiment, said=Intent.RECOMMENDATION.value).intent != "preference"


def test_a_judgement_heard_as_a_yes_is_a_preference_of_the_name_it_opens_with():
    """ "Train are alright": the classifier hears "alright" (a yes); no question is open, and the
    message opens with the name it judges: a preference (asked about, a hedge)."""
    from nlu.linker import Candidate, Mention
    from nlu.sentiment import SentimentRecognizer
    from nlu.understand import View, understand

    class Linker:
        def link(self, text, *, focus=None):
            if not text.startswith("Train"):
                return ()
            return (Mention("Train", 0, 5, (Candidate("Q282531", "Train", 0.8, False, ("P175",), None),), False),)

    class Yes:
        def predict(self, text, contexts=(), *, events=None, domain=None):
            return _Prediction("smalltalk.confirmation.yes", 0.9, ())

    parts = {"intents": Yes(), "linker": Linker(), "sentiment": SentimentRecognizer()}
    assert understand("Train are alright", View(domain="music"), **parts).intent == "preference"
    assert understand("alright", View(domain="music"), **parts).intent == "smalltalk.confirmation.yes"
    assert understand("Train are alright", View(domain="music", question="confirm"), **parts).intent != "preference"


def test_a_skip_with_a_card_on_screen_and_no_question_skips_the_card(linker, sentiment):  # noqa: F811
    """The classifier's top-level "skip" (which drops an open question) stands for the card's skip
    when a card is on screen and nothing is asked; with a question open it stays a skip; with nothing
    on screen to skip, "next pls" asks for more (issue 22: a new list)."""

    def said_skip(**view):
        return understand(
            "next pls", View(**view), intents=_Says(Intent.SKIP.value), linker=linker, sentiment=sentiment
        )

    assert said_skip(focus="Q1").intent == Intent.REC_SKIP
    assert said_skip(focus="Q1", question="item").intent == Intent.SKIP
    nothing_on_screen = said_skip()
    assert nothing_on_screen.intent == Intent.RECOMMENDATION and nothing_on_screen.request.more


def test_a_typed_thumb_at_a_card_rates_it(linker, sentiment):  # noqa: F811
    """👍 / 👎 typed (the card's buttons' signs) answer "Do you like it?"; with nothing on screen they
    are no words, as before (a fresh user got "I can only read words" at a card)."""

    def typed(text, **view):
        return understand(text, View(**view), intents=_Says(Intent.FALLBACK.value), linker=linker, sentiment=sentiment)

    assert typed("👍", focus="Q1").yes_no == "yes" and typed("👍🏽", focus="Q1").intent == Intent.REC_PREFERENCE
    assert typed("👎", focus="Q1").yes_no == "no"
    assert typed("👍").empty


def test_a_critique_of_the_card_is_one_whatever_the_classifier_heard(linker, sentiment):  # noqa: F811
    """The card judged before "but" and a role word after it: a critique (a fresh user's "I like it
    but not the directors" was heard as a new preference: "I couldn't find that")."""

    def heard_preference(text):
        view = View(focus="Q1", domain="movie")
        return understand(text, view, intents=_Says(Intent.PREFERENCE.value), linker=linker, sentiment=sentiment)

    assert heard_preference("I like it but not the directors").intent == Intent.REC_YES_BUT
    assert heard_preference("hated this one but the actors were great").intent == Intent.REC_NO_BUT
    assert heard_preference("I like it but not today").intent != Intent.REC_YES_BUT  # no role word
