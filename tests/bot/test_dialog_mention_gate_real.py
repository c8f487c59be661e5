"""Issue 22, round 5 (22-L) through the real dialog of ``corsbot chat``: an everyday word inside a noun phrase stores
nothing, titles of everyday words still do (items and wordings of their own, none of the conversation sets')."""

from __future__ import annotations

import pytest

from tests.bot.real_dialog import Chat, real_dialog_manager


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    """The dialog manager as ``corsbot chat`` builds it, on a scratch database, with no items to rate."""
    return real_dialog_manager(tmp_path_factory, "none")


def test_a_modifier_in_a_noun_phrase_stores_nothing(real_dm):
    chat = Chat(real_dm, "music")
    chat.say("the trio arrangements bore me")  # a modifier of "arrangements", not the band Trio
    assert "Trio" not in chat.labels()


def test_a_title_of_everyday_words_still_stores(real_dm):
    chat = Chat(real_dm, "book")
    chat.say("the road was bleak but brilliant")
    assert chat.labels().get("The Road") == "+"
