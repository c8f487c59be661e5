"""Issue 22, fourth round (22-R) through the real dialog of ``corsbot chat``: an open question must not swallow
the conversation (skipped when the snapshots and the intent model are not built). Other items and wordings than
the conversation sets'.

A message that is no answer to the open question is handled as itself: a name the KB knows is that preference
(stored or asked about), not "Sorry, I didn't get that"; what is not understood is said once, and the question
is kept open once more, then dropped aloud, never asked again word for word in a loop.
"""

from __future__ import annotations

import pytest

from bot.dialog.acts import ConfirmQuestion, ItemQuestion
from tests.bot.real_dialog import Chat, real_dialog_manager


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    """The dialog manager as ``corsbot chat`` builds it, on a scratch database."""
    return real_dialog_manager(tmp_path_factory, "none")


def test_no_answer_at_a_did_you_like_question_is_said_once_then_the_question_is_dropped(real_dm):
    chat = Chat(real_dm, "movie")
    chat.say("saw the departed last week")
    assert isinstance(chat.state.pending, ConfirmQuestion)
    first = chat.say("blorp zzz")
    assert "Did you like" in first.text and "Still open" in first.text, first.text
    assert not first.text.startswith("Sorry, I didn't get that. Did you like"), first.text
    second = chat.say("qwerty asdf")
    assert chat.state.pending is None, second.text
    assert "dropped my question" in second.text and "Did you like" not in second.text, second.text


def test_an_opinion_about_an_unknown_title_at_a_which_question_is_answered_as_itself(real_dm):
    chat = Chat(real_dm, "movie")
    chat.say("i loved solaris")
    assert isinstance(chat.state.pending, ItemQuestion)
    first = chat.say("the zorblaxian chronicles is a classic")
    assert "couldn't find" in first.text and "Still open" in first.text, first.text
    second = chat.say("the unfindable glorp was fantastic")
    assert chat.state.pending is None and "dropped my question" in second.text, second.text
    assert "Which" not in second.text, second.text


@pytest.mark.parametrize(
    ("domain", "first", "text", "named"),
    [
        ("music", "i love muse", "creep by radiohead too, and karma police", "Creep"),
        ("book", "i love stephen king", "the road by cormac mccarthy also", "The Road"),
        ("movie", "i love the godfather", "ronin by frankenheimer too, and heat", "Ronin"),
    ],
)
def test_a_name_the_classifier_placed_nowhere_is_a_preference_not_a_fallback(real_dm, domain, first, text, named):
    chat = Chat(real_dm, domain)
    chat.say(first)
    reply = chat.say(text)
    assert "didn't get that" not in reply.text, reply.text
    assert named in reply.text, reply.text  # stored, or asked about ("Did you like X?", "Which X?")


def test_a_name_said_at_a_did_you_like_question_is_taken_and_the_question_waits(real_dm):
    chat = Chat(real_dm, "movie")
    chat.say("saw the departed last week")
    reply = chat.say("collateral, michael mann just nails it")
    assert "didn't get that" not in reply.text, reply.text
    assert "Collateral" in reply.text or "Michael Mann" in reply.text, reply.text


@pytest.mark.parametrize("text", ["both of them", "the two of them please"])
def test_both_at_a_which_one_question_takes_each_option(real_dm, text):
    chat = Chat(real_dm, "movie")
    chat.say("i loved solaris")
    pending = chat.state.pending
    assert isinstance(pending, ItemQuestion) and len(pending.task.candidates) == 2
    reply = chat.say(text)
    assert all(chat.profile().get(q) == "+" for q in pending.task.candidates), reply.text
    assert chat.state.pending is None
