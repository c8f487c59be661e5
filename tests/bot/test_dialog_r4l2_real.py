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
