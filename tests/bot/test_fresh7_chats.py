"""Faults a sixth fresh tester found (session fresh7, `/work/findings/fresh7.md` outside the repository) in
chats through the real dialog of ``corsbot chat`` (trained intent model, sentiment, KB snapshots of
``$CORSBOT_HOME``; skipped when they are not built). A fault fixed in the same session is a plain test; the
others are ``xfail(strict=True)`` with the expected behaviour asserted, so that a fix says so (XPASS)."""

from __future__ import annotations

import pytest

from nlu.open_answer import refuses_reading
from tests.bot.real_dialog import Chat, real_dialog_manager

TERRY_PRATCHETT, THE_MATRIX = "Q46248", "Q83495"


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    return real_dialog_manager(tmp_path_factory, "none")


@pytest.mark.parametrize(
    ("domain", "liked", "qid", "then"),
    [
        ("book", "i love terry pratchett", TERRY_PRATCHETT, "and nobody else came close"),
        ("movie", "i love the matrix", THE_MATRIX, "it was the best of them, none better"),
    ],
)
def test_a_none_inside_other_words_deletes_nothing(real_dm, domain, liked, qid, then):
    # fresh7: "and then there were none" (a title the linker missed) after a like removed that like
    chat = Chat(real_dm, domain)
    chat.say(liked)
    chat.say(then)
    assert chat.profile().get(qid) == "+"


@pytest.mark.parametrize("said", ["none", "none of them", "no, wrong one", "sorry i didn't mean that", "no"])
def test_a_leading_refusal_refuses_the_reading_just_stored(said):
    assert refuses_reading(said)


@pytest.mark.parametrize("said", ["and then there were none", "it was the best of them, none better", "yes"])
def test_none_inside_other_words_is_no_refusal(said):
    assert not refuses_reading(said)


@pytest.mark.parametrize(
    ("domain", "said", "qid"),
    [
        ("movie", "i loved jaws, no wait i meant dead poets society", "Q106316"),
        ("music", "i loved wonderwall, no wait i meant bad romance", "Q153064"),
    ],
)
def test_a_title_with_a_sad_word_put_in_place_of_a_like_is_liked(real_dm, domain, said, qid):
    # fresh7: "i loved karma police, no wait i meant paranoid android" stored a dislike: the title's own word
    chat = Chat(real_dm, domain)
    chat.say(said)
    assert chat.profile().get(qid) == "+"


@pytest.mark.parametrize("said", ["reset", "restart please"])
def test_a_bare_reset_at_a_card_asks_what_to_reset(real_dm, said):
    # fresh7: "reset" at a card was "Sorry, I didn't get that", and the next "yes" rated the card
    chat = Chat(real_dm, "movie")
    chat.say("i love the matrix")
    chat.say("recommend me something")
    reply = chat.say(said)
    assert "reset:everything" in [c.payload for c in reply.choices]
    assert chat.profile().get(THE_MATRIX) == "+"
