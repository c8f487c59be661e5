"""Issue 22, seventh round (r7dlg) through the real dialog of ``corsbot chat``: requests that name a person in
a question ("which books do you have by X?", "some songs of X?"), a domain named in a sentence with more said
after it, resets said with more after them, questions about a title not on screen (skipped when the snapshots
and the intent model are not built). Other items and wordings than the conversation sets' and the tester's.
"""

from __future__ import annotations

import pytest

from tests.bot.real_dialog import Chat, real_dialog_manager
from tests.bot.real_dialog import card_of as _card


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    """The dialog manager as ``corsbot chat`` builds it, on a scratch database."""
    return real_dialog_manager(tmp_path_factory, "none")


@pytest.mark.parametrize(
    ("domain", "text", "liked"),
    [
        ("book", "Which novels do you have by Terry Pratchett?", "Terry Pratchett"),
        ("music", "u got some songs of Shakira? she is great", "Shakira"),
        ("movie", "what films do you have with Tilda Swinton", "Tilda Swinton"),
        ("book", "anything else in the spirit of Ursula K. Le Guin?", "Ursula K. Le Guin"),
    ],
)
def test_a_request_naming_a_person_stores_the_person_and_shows_a_list(real_dm, domain, text, liked):
    chat = Chat(real_dm, domain)
    reply = chat.say(text)
    assert chat.labels().get(liked) == "+", reply.text
    assert _card(reply) is not None, reply.text


@pytest.mark.parametrize(
    ("domain", "text", "liked", "now"),
    [
        ("book", "oh do you know films as well? the big lebowski is one i adore", "The Big Lebowski", "movie"),
        ("movie", "hmm and music? start me up is one of my favourite songs", "Start Me Up", "music"),
    ],
)
def test_a_switch_keeps_the_rest_and_a_title_is_no_reset(real_dm, domain, text, liked, now):
    chat = Chat(real_dm, domain)
    chat.say("i love anything by the coen brothers" if domain == "movie" else "i love agatha christie")
    reply = chat.say(text)
    assert chat.state.domain == now, reply.text
    assert chat.labels().get(liked) == "+", reply.text
    assert "reset" not in reply.text.lower(), reply.text


def test_a_reset_with_a_like_after_it_asks_once_then_stores_the_like(real_dm):
    chat = Chat(real_dm, "book")
    chat.say("i love agatha christie")
    reply = chat.say("let's start from scratch. i'm a huge Stephen King fan")
    assert "sure" in reply.text.lower(), reply.text
    reply = chat.say("yes")
    assert chat.labels() == {"Stephen King": "+"}, reply.text


def test_a_reset_with_a_like_and_nothing_to_reset_stores_the_like(real_dm):
    chat = Chat(real_dm, "book")
    reply = chat.say("clean slate: i'm a big fan of Terry Pratchett")
    assert chat.labels().get("Terry Pratchett") == "+", reply.text
    assert chat.state.pending is None or chat.state.pending.kind != "reset", reply.text


def test_the_scope_said_again_at_the_reset_confirmation_is_its_yes(real_dm):
    chat = Chat(real_dm, "music")
    chat.say("i love abba")
    chat.say("forget everything you know about me")
    reply = chat.say("everything")
    assert not chat.profile(), reply.text
    assert "sure" not in reply.text.lower(), reply.text


@pytest.mark.parametrize("text", ["please wipe everything you have stored about me", "ugh. clear the lot"])
def test_a_reset_said_in_other_words_is_a_reset(real_dm, text):
    chat = Chat(real_dm, "book")
    chat.say("i love agatha christie")
    reply = chat.say(text)
    assert chat.intent() == "reset_profile", reply.text


@pytest.mark.parametrize(
    ("domain", "likes", "question", "title"),
    [
        ("movie", "i loved the big lebowski", "who directed jaws?", "Jaws"),  # a lowercase title alone after the words
        ("book", "i love agatha christie", "who is the author of the hobbit?", "The Hobbit"),
    ],
)
def test_a_question_about_a_title_not_on_screen_shows_that_titles_details(real_dm, domain, likes, question, title):
    chat = Chat(real_dm, domain)
    chat.say(likes)
    shown = _card(chat.say("recommend me something"))
    reply = chat.say(question)
    assert reply.text.startswith(title), reply.text
    assert chat.state.focus == shown, reply.text  # the card on screen stays
    assert title not in chat.labels(), reply.text  # a question stores nothing


@pytest.mark.parametrize("text", ["what time is it?", "who won the match last night"])
def test_a_question_about_something_else_at_a_card_says_what_the_bot_talks_about(real_dm, text):
    chat = Chat(real_dm, "music")
    chat.say("i love abba")
    shown = _card(chat.say("recommend me something"))
    reply = chat.say(text)
    assert "only talk about films, books and music" in reply.text, reply.text
    assert chat.state.focus == shown and f"like:{shown}" in {c.payload for c in reply.choices}, reply.text
    assert "Director" not in reply.text and "Genres" not in reply.text, reply.text  # no details, no next card
    assert chat.labels() == {"ABBA": "+"}, reply.text


@pytest.mark.parametrize("number", ["3", "#1"])
def test_a_number_with_no_numbered_question_open_starts_nothing(real_dm, number):
    chat = Chat(real_dm, "book")
    reply = chat.say(number)
    assert _card(reply) is None and not chat.state.rec_list, reply.text
    chat.say("i love agatha christie")
    shown = _card(chat.say("recommend me something"))
    reply = chat.say(number)
    assert chat.state.focus == shown and chat.state.rec_pos == 0, reply.text  # the card neither rated nor skipped
