"""Issue 22, round 4 (engineer 22-L3): a famous person's surname inside a chat phrase through the real dialog of
``corsbot chat``, and no reset without a reset's words; names and wordings of no conversation set. Skipped when the
trained model or the snapshots are not built."""

from __future__ import annotations

import pytest

from tests.bot.real_dialog import Chat, real_dialog_manager

AUSTEN = "Q36322"


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    return real_dialog_manager(tmp_path_factory, "none")


def test_a_request_for_an_authors_book_is_no_reset_and_recommends_from_her(real_dm):
    chat = Chat(real_dm, "book")
    reply = chat.say("i want an austen novel")
    assert "reset" not in reply.text.lower()
    assert chat.profile().get(AUSTEN) == "+"


def test_a_request_naming_nothing_known_is_no_reset(real_dm):
    chat = Chat(real_dm, "book")
    reply = chat.say("i want a qwzxv book")
    assert "reset" not in reply.text.lower()


def test_a_reset_said_in_its_words_still_asks_what_to_reset(real_dm):
    chat = Chat(real_dm, "movie")
    reply = chat.say("please wipe my profile")
    assert "reset" in reply.text.lower()


def test_a_dislike_of_a_director_himself(real_dm):
    chat = Chat(real_dm, "movie")
    reply = chat.say("i don't like kubrick himself at all")
    assert "Stanley Kubrick" in reply.text  # stored, or asked in which role


def test_no_more_of_a_singer_please(real_dm):
    chat = Chat(real_dm, "music")
    chat.say("i love rihanna")
    reply = chat.say("no more adele please")
    assert "adele" in reply.text.lower()
