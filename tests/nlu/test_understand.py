"""``nlu.understand.understand``: one turn understood once, against what the dialog shows (``View``)."""

from __future__ import annotations

import pytest

from logs.schema import Intent
from nlu.understand import Payload, View, understand
from tests.bot.dialog_fakes import FakeIntents, FakeKB, FakeLinker, FakeSentiment

FOLLOW_UPS = frozenset(i.value for i in Intent if " - " in i.value)
"""A fresh conversation admits no follow-up intent (their input contexts are not active)."""


def fresh(**fields):
    """The view of a conversation with no question open and nothing on screen (unless given)."""
    return View(blocked=FOLLOW_UPS, **fields)


class CountingLinker(FakeLinker):
    def __init__(self, kb):
        super().__init__(kb)
        self.calls = 0

    def link(self, text, *, focus=None):
        self.calls += 1
        return super().link(text, focus=focus)


@pytest.fixture()
def parts():
    kb = FakeKB()
    return {"intents": FakeIntents(), "linker": CountingLinker(kb), "sentiment": FakeSentiment()}


def test_a_preference_is_linked_once_with_its_polarity(parts):
    parse = understand("I love Christopher Nolan but I hate Top Gun", fresh(), **parts)
    assert parse.intent == "preference"
    assert [(r.qid, r.polarity.value) for r in parse.readings] == [("Q100", "+"), ("Q3", "-")]
    assert parts["linker"].calls == 1 and parse.linked == 1


def test_a_role_said_after_the_name_is_read_and_the_role_word_is_no_title(parts):
    parse = understand("I like Tom Cruise as a producer", View(), **parts)
    assert [(r.qid, r.stated_role) for r in parse.readings] == [("Q200", "P162")]


def test_commands_switches_and_payloads(parts):
    assert understand("/profile", View(), **parts).intent == "show_profile"
    assert understand("/books", View(), **parts).switch_to == "book"
    assert understand("let's talk about music", View(), **parts).switch_to == "music"
    assert Payload.parse("pick:1@7") == Payload("pick", "1", "7")
    stale = understand("Actor", View(question="role", stamp="8"), payload="role:P161@7", **parts)
    assert stale.stale and parts["linker"].calls == 0


def test_an_answer_to_the_open_question(parts):
    options = (("The Avengers", "2012"), ("The Avengers", "1998"))
    view = View(question="item", answer_kind="item", options=options, stamp="3")
    assert understand("2", view, **parts).answer == 1
    assert understand("the 1998 one", view, **parts).answer == 1
    assert understand("none of them", view, **parts).answer == "none"
    pressed = understand("The Avengers (2012)", view, payload="pick:0@3", **{**parts})
    assert pressed.answer == 0 and pressed.intent == "preference - disambiguation"


def test_a_bare_title_is_a_preference_to_confirm(parts):
    parse = understand("Memento", fresh(), **parts)
    assert parse.intent == "preference" and parse.names_only and parse.linked == 1


def test_details_of_a_named_item(parts):
    parse = understand("details of Inception please", fresh(), is_item=lambda q: q in {"Q1"}, **parts)
    assert parse.details_of == "Q1" and parse.intent == "Default Fallback Intent"


def test_a_card_word_with_nothing_on_screen(parts):
    from tests.bot.dialog_fakes import FakePrediction

    why = "request_recommendation - why"
    parts["intents"].predict = lambda *a, **k: FakePrediction(why, 0.9, ((why, 0.9),))
    assert understand("why?", fresh(), **parts).no_item_on_screen
    assert understand("why?", View(focus="Q1"), **parts).intent == why


def test_an_opinion_about_what_the_open_question_asks_is_an_answer(parts):
    from tests.bot.dialog_fakes import FakePrediction

    likes = "smalltalk.user.likes_agent"
    parts["intents"].predict = lambda *a, **k: FakePrediction(likes, 0.9, ((likes, 0.9),))
    confirm = View(question="confirm", answer_kind="confirm", options=(("yes",), ("no",)))
    said = understand("I like it", confirm, **parts)  # "Did you like Memento?" "I like it": a yes, never small talk
    assert (said.intent, said.opinion_of_open, said.answer) == ("preference", "+", 0)
    said = understand("I don't like this movie", confirm, **parts)
    assert (said.intent, said.opinion_of_open, said.answer) == ("preference", "-", 1)
    which = View(question="item", answer_kind="item", options=(("The Avengers", "2012"), ("The Avengers", "1998")))
    said = understand("I love it", which, **parts)  # which one is "it"? not an answer to pick from
    assert (said.intent, said.opinion_of_open, said.answer) == ("preference", "+", None)
    one = View(question="item", answer_kind="item", options=(("Memento",),))
    assert understand("I love it", one, **parts).answer == 0  # the one candidate asked about
    assert understand("I like Memento", confirm, **parts).opinion_of_open is None  # another title named
    assert understand("I like it", View(), **parts).intent == likes  # nothing asked: the classifier's


def test_an_opinion_with_nothing_named_rates_the_card_on_screen(parts):
    from tests.bot.dialog_fakes import FakePrediction

    parts["intents"].predict = lambda *a, **k: FakePrediction("preference", 0.9, (("preference", 0.9),))
    assert understand("I don't like", View(focus="Q7"), **parts).intent == "request_recommendation - preference"
    assert understand("I don't like Memento", View(focus="Q7"), **parts).intent == "preference"


def test_a_title_typed_at_which_one(parts):
    options = (("Inception",), ("Interstellar",))
    view = View(question="item", answer_kind="item", options=options, blocked=FOLLOW_UPS)
    said = understand("Memento", view, **parts)  # not among the options: a new title ("Did you like Memento?")
    assert said.intent == "preference" and said.names_only
    assert understand("Memento (2000)", fresh(), **parts).names_only  # a year after the title is no word


def test_card_questions_about_the_suggested_item(parts):
    view = View(question="suggestion", suggested="Q7", blocked=FOLLOW_UPS)
    assert understand("Can I watch the trailer?", view, **parts).about_suggested == "request_recommendation - trailer"
    assert understand("give me some details", view, **parts).about_suggested == "request_recommendation - details"
    said = understand("details of Inception", view, **parts)  # about another title
    assert said.about_suggested is None
