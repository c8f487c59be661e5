"""Issue 22 (realistic set, fault kind: a card request's own word taken for a title), through the real dialog of
``corsbot chat`` (skipped when the models and snapshots of ``$CORSBOT_HOME`` are not built): at a card, "play a
snippet", "put on a short clip" ask for its sample whatever song "Play" the linker finds in them, and "give me the
summary" for its details; a capitalised title after such words is still a title."""

from __future__ import annotations

import pytest

from nlu.phrasings import card_request_words, is_question
from tests.bot.real_dialog import Chat, card_after, real_dialog_manager


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    return real_dialog_manager(tmp_path_factory, "none")


@pytest.mark.parametrize(
    ("domain", "likes", "asked", "intent"),
    [
        ("music", "i love daft punk and justice", "play a snippet", "request_recommendation - trailer"),
        ("music", "i love daft punk and justice", "put on a short clip", "request_recommendation - trailer"),
        ("movie", "i love jaws and jurassic park", "play me the teaser", "request_recommendation - trailer"),
        ("book", "i love dune and foundation", "give me the synopsis", "request_recommendation - details"),
    ],
)
def test_a_card_request_is_not_a_title(real_dm, domain, likes, asked, intent):
    chat = Chat(real_dm, domain)
    shown = card_after(chat, likes)
    before = dict(chat.profile())
    reply = chat.say(asked)
    assert chat.intent() == intent
    assert chat.profile() == before and f"like:{shown}" in [c.payload for c in reply.choices]


def test_card_request_words_are_the_requests_own():
    assert {"play", "a", "sample"} <= card_request_words("play a sample")
    assert "dune" not in card_request_words("show me the trailer of dune")
    assert card_request_words("i loved it") == frozenset()


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("who wrote it", True),
        ("the martian?", True),
        ("is it long", True),
        ("this is long", False),
        ("loved it", False),
    ],
)
def test_a_question_is_a_question_mark_or_an_opening_question_word(text, asks):
    assert is_question(text) is asks


@pytest.mark.parametrize(
    ("domain", "likes"), [("movie", "i love alien and aliens"), ("music", "i love blur and oasis")]
)
def test_thanks_and_praise_then_a_goodbye_at_a_card_leaves(real_dm, domain, likes):
    chat = Chat(real_dm, domain)
    card_after(chat, likes)
    reply = chat.say("cheers, you're a great bot. goodbye")
    assert chat.intent() == "smalltalk.greetings.bye" and not reply.card


@pytest.mark.parametrize(
    "answer",
    [
        "not sure, but i don't mind it",
        "don't know this one, but i don't hate it",
        pytest.param(
            "never heard it, but i wouldn't say i dislike it",
            marks=pytest.mark.xfail(strict=True, reason="'wouldn't say i dislike' is read as a dislike (sentiment)"),
        ),
    ],
)
def test_a_but_with_nothing_to_critique_after_it_is_no_critique(real_dm, answer):
    chat = Chat(real_dm, "music")
    shown = card_after(chat, "i love blur and oasis")
    chat.say(answer)
    assert chat.profile().get(shown) != "-"


@pytest.fixture(scope="module")
def eliciting_dm(tmp_path_factory):
    return real_dialog_manager(tmp_path_factory, "popularity")


@pytest.mark.parametrize(
    ("domain", "likes", "asked"),
    [
        ("movie", ["i loved jaws", "alien was great", "heat is a classic"], "show me a film"),
        ("book", ["i loved dune", "foundation was great", "i liked emma"], "ok pick me a good book"),
    ],
)
def test_a_request_at_a_suggestion_question_shows_a_list(eliciting_dm, domain, likes, asked):
    chat = Chat(eliciting_dm, domain)
    for like in likes:
        reply = chat.say(like)
    assert "Do you like" in reply.text  # the successor study's question about a suggested item
    reply = chat.say(asked)
    assert chat.intent() == "request_recommendation" and reply.card
