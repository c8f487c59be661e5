"""Issue 22, round 4, second linking pass (engineer 22-L2): linking through the real dialog of ``corsbot chat``
(trained intent model, sentiment, KB snapshots of ``$CORSBOT_HOME``; skipped when they are not built), with items and
wordings of its own (none of the conversation sets')."""

from __future__ import annotations

import pytest

from tests.bot.real_dialog import Chat, real_dialog_manager

SHREK_2, CHAMBER_OF_SECRETS_BOOK, PRISONER_OF_AZKABAN_BOOK = "Q485983", "Q47209", "Q47598"


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    return real_dialog_manager(tmp_path_factory, "none")


@pytest.mark.parametrize(
    ("domain", "text", "qid"),
    [
        ("movie", "the second shrek movie is honestly the best one", SHREK_2),
        ("book", "the 2nd harry potter book was my favourite as a kid", CHAMBER_OF_SECRETS_BOOK),
        ("book", "i loved the third harry poter book", PRISONER_OF_AZKABAN_BOOK),
    ],
)
def test_a_series_named_with_a_rank_is_that_part(real_dm, domain, text, qid):
    chat = Chat(real_dm, domain)
    chat.say(text)
    assert chat.profile().get(qid) == "+"


HALLOWEEN_1978, HALLOWEEN_2007, THE_FOG_1980 = "Q221103", "Q909063", "Q500403"


@pytest.mark.parametrize("text", ["dawn of the dead too, the 1978 one", "also Dawn of the Dead, the 1978 one"])
def test_a_year_cue_of_another_title_is_no_answer_to_the_open_which_question(real_dm, text):
    """At "Which Halloween?" (1978 among its options), the cue belongs to the title it follows."""
    chat = Chat(real_dm, "movie")
    chat.say("Halloween is my favourite")
    chat.say(text)
    assert HALLOWEEN_1978 not in chat.profile() and HALLOWEEN_2007 not in chat.profile()


@pytest.mark.parametrize("text", ["the 1978 one", "halloween, the 1978 one", "the carpenter one"])
def test_a_year_or_creator_cue_of_the_asked_title_still_answers(real_dm, text):
    chat = Chat(real_dm, "movie")
    chat.say("Halloween is my favourite")
    chat.say(text)
    assert chat.profile().get(HALLOWEEN_1978) == "+"


def test_the_person_one_after_a_title_opened_by_and_says_which(real_dm):
    chat = Chat(real_dm, "movie")
    chat.say("i love horror")
    chat.say("oh and The Fog, the Carpenter one, is great")
    assert chat.profile().get(THE_FOG_1980) == "+"
