"""Issue 22, round 4 (engineer 22-L): linking through the real dialog of ``corsbot chat`` (trained intent model,
sentiment, KB snapshots of ``$CORSBOT_HOME``; skipped when they are not built), with items and wordings of its own:
the person saying which work is meant ("TITLE by PERSON") is part of how it was named, so a message of such names
and "too" / "also" adds them, and the person's words carry no opinion ("by the killers")."""

from __future__ import annotations

import pytest

from tests.bot.real_dialog import Chat, real_dialog_manager

YELLOW, CLOCKS, MR_BRIGHTSIDE = "Q529026", "Q615063", "Q1999714"


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    return real_dialog_manager(tmp_path_factory, "none")


def test_titles_by_their_band_added_with_too_are_likes(real_dm):
    chat = Chat(real_dm, "music")
    chat.say("i love coldplay")
    chat.say("yellow by coldplay too, and clocks")
    assert chat.profile().get(YELLOW) == "+"
    assert chat.profile().get(CLOCKS) == "+"


def test_a_band_name_that_is_a_negative_word_gives_the_title_no_opinion(real_dm):
    chat = Chat(real_dm, "music")
    chat.say("i love the killers")
    chat.say("mr brightside by the killers too")
    assert chat.profile().get(MR_BRIGHTSIDE) == "+"
