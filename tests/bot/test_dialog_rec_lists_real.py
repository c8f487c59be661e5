"""Issue 22 (22-REC) through the real dialog of ``corsbot chat``: a list asked to be of a genre holds items of
that genre, the items' own or their creator's (skipped when the models and snapshots of ``$CORSBOT_HOME`` are not
built), with other items and other wordings than the conversation sets'."""

from __future__ import annotations

import pytest

from recommender.genres import items_of
from tests.bot.real_dialog import Chat, real_dialog_manager
from tests.bot.real_dialog import card_of as _card


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    """The dialog manager as ``corsbot chat`` builds it (no suggestions of items to rate), on a scratch database."""
    return real_dialog_manager(tmp_path_factory, "none")


def _genre_list(chat: Chat, like: str, request: str, genre_label: str) -> list[str]:
    chat.say(like)
    assert _card(chat.say(request)) is not None
    kb = chat.kb
    genre = next(q for name, q in kb.names() if name == genre_label and kb.kind(q) == "genre")
    of_genre = set(items_of(kb, genre))
    shown = list(chat.state.rec_list)
    assert len(shown) >= 3  # not the one or two items tagged with the genre themselves
    assert all(item in of_genre for item in shown)
    return shown


def test_a_horror_list_for_a_horror_author_fan_holds_horror_books(real_dm):
    _genre_list(Chat(real_dm, "book"), "i love ray bradbury", "got any horror novels?", "horror literature")


def test_a_rock_list_holds_songs_and_albums_of_rock_performers(real_dm):
    chat = Chat(real_dm, "music")
    shown = _genre_list(chat, "the rolling stones are great", "play me some rock", "rock music")
    assert all(chat.values(item, "P175") or chat.values(item, "P361") for item in shown)


def test_a_fantasy_list_is_ranked_with_the_liked_author_first(real_dm):
    chat = Chat(real_dm, "book")
    shown = _genre_list(chat, "terry pratchett is brilliant", "any good fantasy books?", "fantasy")
    pratchett = next(q for name, q in chat.kb.names() if name == "Terry Pratchett")
    assert pratchett in chat.values(shown[0], "P50")
