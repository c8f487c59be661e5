"""Issue 22, fourth round (22-R) through the real dialog of ``corsbot chat``: requests that name what they build
on, and a genre in a request as what this list is (skipped when the snapshots and the intent model are not built).
Other items and wordings than the conversation sets'.
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
        ("music", "I adore Nina Simone, anything in that vein?", "Nina Simone"),
        ("book", "i love agatha christie, something along those lines please", "Agatha Christie"),
        ("movie", "i love horror films, recommend me one", "horror film"),
    ],
)
def test_a_like_and_a_request_in_one_message_store_it_and_show_a_list(real_dm, domain, text, liked):
    chat = Chat(real_dm, domain)
    reply = chat.say(text)
    assert chat.labels().get(liked) == "+", reply.text
    assert _card(reply) is not None, reply.text


@pytest.mark.parametrize(
    ("domain", "like", "text", "genre"),
    [
        ("movie", "i love memento", "recommend me a western film", "western film"),
        ("book", "i like agatha christie", "recommend a fantasy novel", "fantasy"),
        ("music", "i love slayer", "recomend some jazz", "jazz"),
    ],
)
def test_a_genre_asked_for_is_this_lists_kind_not_a_stored_like(real_dm, domain, like, text, genre):
    chat = Chat(real_dm, domain)
    chat.say(like)
    reply = chat.say(text)
    assert _card(reply) is not None, reply.text
    assert genre not in {label.lower() for label in chat.labels()}, reply.text
    assert genre in reply.text.lower(), reply.text  # "Based on <genre>, ...": what the list is


@pytest.mark.parametrize("text", ["so what's next?", "gimme another", "what do i watch now"])
def test_more_in_other_words_shows_a_list(real_dm, text):
    chat = Chat(real_dm, "movie")
    chat.say("i loved the big lebowski")
    reply = chat.say(text)
    assert _card(reply) is not None, reply.text


def test_a_switch_back_with_one_more_shows_the_other_domains_list(real_dm):
    chat = Chat(real_dm, "movie")
    chat.say("i loved the big lebowski")
    chat.say("let's talk books. i love terry pratchett")
    reply = chat.say("right, back to movies, show me one more")
    assert chat.state.domain == "movie", reply.text
    assert _card(reply) is not None, reply.text
