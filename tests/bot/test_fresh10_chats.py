"""The fresh tester's tenth session (``/work/findings/fresh10.md``; issue 22), through the real dialog of ``corsbot
chat`` with other items than the tester's (skipped when the models and snapshots of ``$CORSBOT_HOME`` are not built).
Faults still open are strict xfails: each one passes the day its kind is fixed, and must then lose its mark."""

from __future__ import annotations

import pytest

from tests.bot.real_dialog import Chat, card_after, real_dialog_manager


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    return real_dialog_manager(tmp_path_factory, "none")


def _open(reason: str) -> pytest.MarkDecorator:
    return pytest.mark.xfail(strict=True, reason=f"fresh10: {reason}")


@pytest.mark.parametrize("said", ["i hate jazz actually", "i can't stand rap tbh"])
def test_1_a_genre_judged_at_a_card_with_a_comment_after_it_rates_no_card(real_dm, said):
    chat = Chat(real_dm, "music")
    shown = card_after(chat, "i love daft punk and justice")
    chat.say(said)
    assert shown not in chat.profile()


def test_3_a_spelling_correction_keeps_the_opinion(real_dm):
    chat = Chat(real_dm, "movie")
    chat.say("the godfahter was great")
    chat.say("sorry, i meant the godfather")
    assert "-" not in chat.profile().values()


@_open("a correction at an open role question keeps the person asked about")
def test_4_a_correction_at_a_role_question_replaces_the_person(real_dm):
    chat = Chat(real_dm, "music")
    chat.say("i like adele")
    chat.say("no wait, i meant shakira")
    assert set(chat.labels()) == {"Shakira"}


@_open("'the sequels' is no reference to a title's sequels")
def test_8_the_sequels_of_a_title_are_disliked_with_it(real_dm):
    chat = Chat(real_dm, "movie")
    chat.say("i loved toy story but the sequels were awful")
    assert "-" in chat.profile().values()


@pytest.mark.parametrize("asked", ["what's the weather like today?", "what time is it"])
def test_12_an_off_topic_question_at_a_card_shows_no_details(real_dm, asked):
    chat = Chat(real_dm, "book")
    shown = card_after(chat, "i love dune and foundation")
    chat.say(asked)
    assert chat.intent() != "request_recommendation - details" and shown not in chat.profile()


def test_13_a_person_disliked_at_a_card_leaves_the_card_unrated(real_dm):
    chat = Chat(real_dm, "movie")
    shown = card_after(chat, "i love jaws and jurassic park")
    chat.say("i hate nicolas cage")
    assert shown not in chat.profile()
