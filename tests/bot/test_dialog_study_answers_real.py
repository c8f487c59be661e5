"""Answers to the successor study's suggestions, through the real dialog (the trained intent model, the
sentiment recognizer and the KB snapshots of ``$CORSBOT_HOME``; skipped when they are not built).

Kinds of fault seen replaying the study's two conditions (``corsbot replay .../jiis/*/messages.json``):

- a small-talk yes / no ("Yep", "nope") answering "You like these of X: A, B. Right?" did what a yes does, but
  was logged as small talk: the study's agent logged the question's own answer (``preference - yes``);
- a bare name right after rating a suggested item ("I love this film", then "Crime Film") was asked about
  ("Did you like crime film?"): it is that rating's follow-up, stored with its polarity, as after a typed
  preference ("I like Heat" -> "Ronin");
- with the study's configuration, /start only greets: the suggestion asked before it is still open.

Items here are other than the replays' examples.
"""

from __future__ import annotations

import pytest

from bot.dialog.acts import ConfirmQuestion, SuggestionQuestion
from tests.bot.real_dialog import Chat, real_dialog_manager


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    """Suggestions of items to rate in the movie domain (the successor study's protocol)."""
    return real_dialog_manager(tmp_path_factory, "movie=popularity,book=none,music=none")


@pytest.fixture(scope="module")
def study_dm(tmp_path_factory):
    """The same, with the study's /start (``start_keeps_dialog``), as its replay builds it."""
    return real_dialog_manager(tmp_path_factory, "movie=popularity,book=none,music=none", start_keeps_dialog=True)


def _suggested(chat: Chat) -> str:
    for text in ("I love Goodfellas", "I like Meryl Streep", "I hate Avatar"):
        chat.say(text)
    pending = chat.state.pending
    assert isinstance(pending, SuggestionQuestion), "a suggested item to rate is asked after three preferences"
    return pending.qid


@pytest.mark.parametrize(
    ("said", "intent", "stored"), [("Yep", "preference - yes", True), ("Nope", "preference - no", False)]
)
def test_a_small_talk_yes_or_no_at_an_all_values_question_is_its_answer(real_dm, said, intent, stored):
    chat = Chat(real_dm, "movie")
    suggested = _suggested(chat)
    chat.say("I like it and I like the genre")
    pending = chat.state.pending
    if not isinstance(pending, ConfirmQuestion):
        pytest.skip("the suggested item has no genre in the KB snapshot")
    genres = set(pending.task.candidates)
    assert genres <= chat.values(suggested, "P136")
    chat.say(said)
    assert chat.intent() == intent
    assert (genres <= set(chat.profile())) is stored


def test_a_bare_name_after_rating_a_suggestion_is_that_ratings_follow_up(real_dm):
    chat = Chat(real_dm, "movie")
    suggested = _suggested(chat)
    chat.say("I really don't like this film")
    assert chat.profile()[suggested] == "-"
    chat.say("Musical Film")
    assert chat.intent() == "preference - disambiguation"
    assert chat.labels()["musical film"] == "-"
    assert isinstance(chat.state.pending, SuggestionQuestion), "the next suggestion is still asked"


def test_a_bare_name_after_a_skipped_suggestion_is_asked_about(real_dm):
    # a skip states no opinion: there is nothing to carry over
    chat = Chat(real_dm, "movie")
    _suggested(chat)
    chat.say("skip")
    chat.say("Western Film")
    assert chat.intent() != "preference - disambiguation"
    assert "western film" not in chat.labels()


def test_with_the_studys_start_the_open_suggestion_stays(study_dm):
    chat = Chat(study_dm, "movie")
    suggested = _suggested(chat)
    chat.say("/start")
    assert isinstance(chat.state.pending, SuggestionQuestion)
    chat.say("I love it")
    assert chat.intent() == "preference"
    assert chat.profile()[suggested] == "+"


def test_by_default_start_settles_the_open_suggestion(real_dm):
    chat = Chat(real_dm, "movie")
    _suggested(chat)
    chat.say("/start")
    assert not isinstance(chat.state.pending, SuggestionQuestion)
