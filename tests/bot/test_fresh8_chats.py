"""Faults a seventh fresh tester found (session fresh8, `/work/findings/fresh8.md` outside the repository) in
chats through the real dialog of ``corsbot chat`` (trained intent model, sentiment, KB snapshots of
``$CORSBOT_HOME``; skipped when they are not built), each with other titles and wordings than the tester's."""

from __future__ import annotations

import pytest

from tests.bot.real_dialog import Chat, card_of, real_dialog_manager


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    return real_dialog_manager(tmp_path_factory, "none")


def _labelled(chat: Chat, qid: str) -> str:
    return chat.kb.label(qid)


@pytest.mark.parametrize(
    ("hedge", "answer", "polarity"),
    [("fargo was ok i guess", "I liked it", "+"), ("fargo was alright i suppose", "nah i didn't like it", "-")],
)
def test_it_answers_the_question_asked_after_the_card_not_the_card(real_dm, hedge, answer, polarity):
    # fresh8 fault 1: a card on screen, then "Did you like Whiplash?" (a hedge asked about); "I like it" liked the card
    chat = Chat(real_dm, "movie")
    chat.say("i love alien")
    card = card_of(chat.say("recommend me something"))
    assert card is not None
    chat.say(hedge)
    chat.say(answer)
    fargo = [q for q in chat.profile() if _labelled(chat, q) == "Fargo"]
    assert fargo and chat.profile()[fargo[0]] == polarity
    assert card not in chat.profile()


def test_it_rates_the_card_shown_after_the_question(real_dm):
    # the other order: a question left open, then a list; "I like it" is about the card now on screen
    chat = Chat(real_dm, "movie")
    chat.say("i love alien")
    chat.say("fargo was ok i guess")
    card = card_of(chat.say("recommend me something"))
    assert card is not None
    chat.say("I like it")
    assert chat.profile().get(card) == "+"


@pytest.mark.parametrize("said", ["the big lebowski was ok but way too long", "amadeus was fine, too long though"])
def test_a_statement_about_another_title_at_a_card_asks_no_details(real_dm, said):
    # fresh8 fault 2: "the irishman was ok but way too long" at a card showed the card's details (its "how long")
    chat = Chat(real_dm, "movie")
    chat.say("i love alien")
    card = card_of(chat.say("recommend me something"))
    reply = chat.say(said)
    assert "Director:" not in reply.text and card not in chat.profile()
    assert "Did you like" in reply.text or "Got it" in reply.text  # the title is asked about or stored
