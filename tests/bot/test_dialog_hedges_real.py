"""Issue 22 (22-H) through the real dialog of ``corsbot chat``: card answers in slang or about a part of the work,
hedges, and corrections of the previous turn (skipped when the models and snapshots of ``$CORSBOT_HOME`` are not
built), with other items and other wordings than the conversation sets'."""

from __future__ import annotations

import pytest

from tests.bot.real_dialog import Chat, real_dialog_manager
from tests.bot.real_dialog import card_of as _card


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    """The dialog manager as ``corsbot chat`` builds it (no suggestions of items to rate), on a scratch database."""
    return real_dialog_manager(tmp_path_factory, "none")


def _a_list(chat: Chat, likes: str) -> str:
    chat.say(likes)
    shown = _card(chat.say("recommend me something"))
    assert shown is not None
    return shown


def test_a_card_judged_by_a_part_rates_the_card_and_stores_no_part(real_dm):
    chat = Chat(real_dm, "movie")
    first = _a_list(chat, "i love alien and blade runner")
    liked = len(chat.profile())
    chat.say("watched it, the music was lovely but the film itself was dull")
    assert chat.profile()[first] == "-" and len(chat.profile()) == liked + 1  # no "music", no composer


def test_a_chat_spelling_with_an_eight_rates_the_card(real_dm):
    chat = Chat(real_dm, "book")
    first = _a_list(chat, "i love the hobbit and dune")
    chat.say("read it, gr8 book")
    assert chat.profile()[first] == "+"


def test_a_hedged_title_right_after_a_like_is_asked_about_not_given_its_polarity(real_dm):
    chat = Chat(real_dm, "book")
    chat.say("i loved the road by cormac mccarthy")
    reply = chat.say("blood meridian was meh")
    assert "Blood Meridian" not in chat.labels() or chat.labels()["Blood Meridian"] != "+"
    assert "?" in reply.text  # asked about, never stored as the like before it


def test_hit_or_miss_about_a_person_stores_no_dislike(real_dm):
    chat = Chat(real_dm, "movie")
    chat.say("i love jaws and alien")
    chat.say("ridley scott is hit or miss")
    chat.say("recommend me something")
    assert chat.labels().get("Ridley Scott") != "-"


def test_a_compliment_to_the_bot_rates_nothing(real_dm):
    chat = Chat(real_dm, "music")
    first = _a_list(chat, "i love radiohead and portishead")
    rated = dict(chat.profile())
    reply = chat.say("ur recs are on point honestly")
    assert chat.profile() == rated and _card(reply) == first  # the card waits for its rating


def test_a_judgement_of_the_cards_person_by_role_does_not_rate_the_card(real_dm):
    chat = Chat(real_dm, "book")
    first = _a_list(chat, "i love the shining and carrie")
    author = next(iter(chat.values(first, "P50")))
    chat.say("ugh, i really dislike that writer")
    assert first not in chat.profile() and chat.profile().get(author) == "-"


def test_a_self_correction_by_reference_revises_what_was_just_stored(real_dm):
    chat = Chat(real_dm, "book")
    chat.say("i really liked dracula")
    assert chat.labels().get("Dracula") == "+"
    reply = chat.say("hmm no wait, scratch that, it bored me to tears. i love frankenstein though")
    assert chat.labels().get("Dracula") == "-" and "Dracula" in reply.text
    if "Which" in reply.text:  # its namesakes asked about
        chat.say("2")
    assert [p for label, p in chat.labels().items() if label.startswith("Frankenstein")] == ["+"]


def test_a_self_correction_with_no_name_revises_and_names_nothing(real_dm):
    chat = Chat(real_dm, "movie")
    chat.say("I enjoyed Goodfellas")
    chat.say("actually, scratch that - it was terrible")
    assert chat.labels() == {"Goodfellas": "-"}  # the film "Scratch" is not stored


@pytest.fixture(scope="module")
def suggesting_dm(tmp_path_factory):
    """The dialog manager as ``corsbot nlu evaluate-conversations`` plays it (suggestions of items to rate on)."""
    return real_dialog_manager(tmp_path_factory, "highest")


def test_a_dislike_of_a_person_said_these_days_rates_no_film(suggesting_dm):
    chat = Chat(suggesting_dm, "movie")
    chat.say("i loved pulp fiction and jackie brown")
    chat.say("tarantino is my fav director")
    chat.say("director")  # its role asked; then an item to rate is suggested
    suggested = getattr(chat.state.pending, "qid", None)
    assert suggested is not None and chat.state.pending.kind == "suggestion"
    chat.say("but samuel l jackson kinda annoys me these days")
    assert suggested not in chat.profile()
