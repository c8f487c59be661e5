"""Issue 22, round 4 (engineer 22-L): linking through the real dialog of ``corsbot chat`` (trained intent model,
sentiment, KB snapshots of ``$CORSBOT_HOME``; skipped when they are not built), with items and wordings of its own:
the person saying which work is meant ("TITLE by PERSON") is part of how it was named, so a message of such a
name and "too" adds it, and the person's words carry no opinion ("by the dead kennedys")."""

from __future__ import annotations

import pytest

from tests.bot.real_dialog import Chat, real_dialog_manager

HEART_OF_GLASS, HOLIDAY_IN_CAMBODIA = "Q635756", "Q2724968"


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    return real_dialog_manager(tmp_path_factory, "none")


def test_a_title_by_its_band_added_with_too_is_a_like(real_dm):
    chat = Chat(real_dm, "music")
    chat.say("i love blondie")
    chat.say("heart of glass by blondie too")
    assert chat.profile().get(HEART_OF_GLASS) == "+"


def test_a_band_name_holding_a_negative_word_gives_the_title_no_opinion(real_dm):
    chat = Chat(real_dm, "music")
    chat.say("i love the dead kennedys")
    chat.say("holiday in cambodia by the dead kennedys too")
    assert chat.profile().get(HOLIDAY_IN_CAMBODIA) == "+"
