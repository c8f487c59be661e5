"""Fresh tester, faults 1 and 8 (issue 22: "no wait" corrections revise what was just said), through the real dialog
of ``corsbot chat`` (skipped when the models and snapshots of ``$CORSBOT_HOME`` are not built): right after a card
is rated and the next one shown, a self-correction is about the card rated ("oops, no, i actually hated it"), and
"the previous one" / "the last one" name the card shown before, in any turn; the card on screen stays, unrated."""

from __future__ import annotations

import pytest

from nlu.turn_cues import previous_card_opinion
from tests.bot.real_dialog import Chat, card_after, card_of, real_dialog_manager


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    return real_dialog_manager(tmp_path_factory, "none")


@pytest.mark.parametrize(
    ("domain", "likes", "rating", "correction", "polarity"),
    [
        ("movie", "i love jaws and jurassic park", "loved it", "oops, no, i actually hated it", "-"),
        ("book", "i love dune and foundation", "press:dislike", "wait sorry, i liked that one", "+"),
        ("music", "i love blur and oasis", "not for me", "hang on, the previous one was great", "+"),
        ("movie", "i love jaws and jurassic park", "skip", "the last one was rubbish", "-"),
    ],
)
def test_a_correction_after_the_list_moved_on_revises_the_card_before(
    real_dm, domain, likes, rating, correction, polarity
):
    chat = Chat(real_dm, domain)
    first = card_after(chat, likes)
    moved = chat.press(f"{rating[6:]}:{first}") if rating.startswith("press:") else chat.say(rating)
    second = card_of(moved)
    assert second not in (None, first)
    reply = chat.say(correction)
    assert chat.profile().get(first) == polarity
    assert second not in chat.profile() and card_of(reply) == second


def test_a_correction_after_a_question_about_the_card_rates_the_card_on_screen(real_dm):
    chat = Chat(real_dm, "movie")
    shown = card_after(chat, "i love jaws and jurassic park")
    chat.say("who directed it?")
    chat.say("oh wait, actually i loved it")
    assert chat.profile().get(shown) == "+"


def test_a_reset_after_a_correction_lead_is_still_a_reset(real_dm):
    chat = Chat(real_dm, "music")
    first = card_after(chat, "i love blur and oasis")
    chat.say("loved it")
    chat.say("actually, forget everything about me and let's start over")
    assert chat.intent() == "reset_profile" and chat.profile().get(first) == "+"


@pytest.mark.parametrize(
    ("text", "correction", "moved_on", "said"),
    [
        ("the previous one was bad", False, False, "-"),
        ("i loved the film before this one", False, False, "+"),
        ("i hated it", True, True, "-"),
        ("i hated it", True, False, None),
        ("i hated it", False, True, None),
        ("the last of us was bad", False, False, None),
    ],
)
def test_previous_card_opinion(text, correction, moved_on, said):
    polarity = lambda t: "-" if "bad" in t or "hated" in t else "+" if "loved" in t else "0"  # noqa: E731
    assert previous_card_opinion(text, correction=correction, moved_on=moved_on, polarity=polarity) == said
