"""Issue 22 (22-G) through the real dialog of ``corsbot chat``: requests in other words, domain switches in
words, goodbyes, and the card a list shows right after a switch (skipped when the snapshots and the intent
model are not built). Other items and wordings than the conversation sets'.
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
    ("start", "text", "domain", "stored"),
    [
        ("book", "could we talk films for a minute? i adored fight club", "movie", "Fight Club"),
        ("movie", "hold on, can we do books for a bit? i loved the hobbit", "book", "The Hobbit"),
        ("book", "btw do u do music too? i've had arctic monkeys on repeat", "music", "Arctic Monkeys"),
    ],
)
def test_a_switch_in_other_words_switches_and_understands_the_rest_there(real_dm, start, text, domain, stored):
    chat = Chat(real_dm, start)
    reply = chat.say(text)
    assert chat.state.domain == domain, reply.text
    assert chat.labels(domain).get(stored) == "+", reply.text


def test_after_a_switch_the_old_lists_contexts_do_not_colour_the_new_domain(real_dm):
    # the card's follow-up contexts of the movie list made the book domain's first words an answer to it
    chat = Chat(real_dm, "movie")
    chat.say("I loved Fight Club")
    assert _card(chat.say("recommend me something")) is not None
    chat.say("let's talk books for a sec")
    assert chat.state.domain == "book" and chat.state.focus is None
    assert chat.state.logged_contexts == ()
    chat.say("I loved The Hobbit")
    assert _card(chat.say("recommend me something")) is not None


@pytest.mark.parametrize("bye", ["thx, nite", "ok cheers, laters", "alright bye for now"])
def test_a_goodbye_closes_the_list_and_stores_nothing(real_dm, bye):
    chat = Chat(real_dm, "movie")
    chat.say("I loved Fight Club")
    assert _card(chat.say("recommend me something")) is not None
    before = chat.profile()
    reply = chat.say(bye)
    assert _card(reply) is None and chat.state.focus is None, reply.text
    assert chat.profile() == before and chat.intent() == "smalltalk.greetings.bye"


@pytest.mark.parametrize("bye", ["thank you, good night", "nope, gotta run"])
def test_a_goodbye_at_an_open_question_drops_it_and_stores_nothing(real_dm, bye):
    # issue 22-G: at an open question, "thanks, goodnight" stored the song "Goodnight" and the list went on
    chat = Chat(real_dm, "music")
    chat.say("I love Arctic Monkeys")
    chat.say("recommend me something")
    chat.say("queen")  # a bare name: "Did you like Queen?" is open
    assert chat.state.pending is not None
    before = chat.profile()
    reply = chat.say(bye)
    assert chat.state.pending is None and chat.state.focus is None and _card(reply) is None, reply.text
    assert chat.profile() == before


@pytest.mark.parametrize(
    ("domain", "like", "ask"),
    [
        ("movie", "I loved Fight Club", "what else you got?"),
        ("book", "I loved The Hobbit", "let's see what you've got"),
        ("music", "I love Arctic Monkeys", "anything a bit sadder?"),
        ("music", "I love Arctic Monkeys", "what can you offer?"),
    ],
)
def test_a_request_in_other_words_shows_a_list(real_dm, domain, like, ask):
    chat = Chat(real_dm, domain)
    chat.say(like)
    reply = chat.say(ask)
    assert _card(reply) is not None, reply.text


@pytest.mark.parametrize("ask", ["what else you got?", "something a little funnier?", "let's see what you've got"])
def test_a_request_in_other_words_at_a_card_shows_another_card(real_dm, ask):
    chat = Chat(real_dm, "movie")
    chat.say("I loved Fight Club")
    first = _card(chat.say("recommend me something"))
    reply = chat.say(ask)
    assert _card(reply) not in (None, first), reply.text


def test_a_like_then_a_request_stores_the_like_and_shows_a_list(real_dm):
    chat = Chat(real_dm, "music")
    reply = chat.say("I really dig Radiohead. What have you got?")
    assert chat.labels().get("Radiohead") == "+" and _card(reply) is not None, reply.text


def test_anything_else_by_a_person_at_a_card_likes_the_person_and_lists_their_works(real_dm):
    chat = Chat(real_dm, "movie")
    chat.say("I loved Fight Club")
    chat.say("recommend me something")
    reply = chat.say("anything else by quentin tarantino?")
    assert chat.labels().get("Quentin Tarantino") == "+", reply.text
    card = _card(reply)
    assert card is not None and "Q3772" in chat.values(card, "P57"), reply.text


def test_more_like_that_at_a_card_is_a_list_from_the_card_not_a_like(real_dm):
    chat = Chat(real_dm, "book")
    chat.say("I loved The Hobbit")
    first = _card(chat.say("recommend me something"))
    reply = chat.say("got more like that one?")
    assert first not in chat.profile() and _card(reply) not in (None, first), reply.text


def test_a_book_like_that_stores_no_book_named_like(real_dm):
    chat = Chat(real_dm, "book")
    chat.say("I loved The Hobbit")
    reply = chat.say("could you recommend me a novel like that")
    assert set(chat.labels()) == {"The Hobbit"} and _card(reply) is not None, reply.text


def test_the_profile_asked_for_at_an_open_question_is_the_profile(real_dm):
    chat = Chat(real_dm, "music")
    chat.say("I love Arctic Monkeys")
    chat.say("queen")  # "Did you like Queen?" is open
    reply = chat.say("what have you got on me so far?")
    assert chat.intent() == "show_profile" and "Arctic Monkeys" in reply.text, reply.text


def test_one_more_recommendation_after_switching_back_shows_a_list(real_dm):
    chat = Chat(real_dm, "movie")
    chat.say("I loved Fight Club")
    chat.say("let's talk music for a bit, i love arctic monkeys")
    chat.say("ok back to movies")
    reply = chat.say("one more film recommendation please")
    assert chat.state.domain == "movie" and _card(reply) is not None, reply.text


def test_a_stated_fan_heard_as_a_request_is_a_like(real_dm):
    # issue 22-G: the classifier heard "I'm a huge <singer> fan" as a request with nothing to recommend from
    chat = Chat(real_dm, "music")
    reply = chat.say("I'm a massive Radiohead fan")
    assert chat.labels().get("Radiohead") == "+", reply.text


def test_play_me_some_of_a_band_likes_it_and_plays_a_list(real_dm):
    chat = Chat(real_dm, "music")
    reply = chat.say("ok could you play me some Radiohead")
    assert chat.labels() == {"Radiohead": "+"} and _card(reply) is not None, reply.text


@pytest.mark.parametrize("text", ["ok gotta run", "catch ya later!", "have a good one", "im off now, thanks"])
def test_goodbyes_in_other_words_close_the_list(real_dm, text):
    chat = Chat(real_dm, "book")
    chat.say("I loved The Hobbit")
    chat.say("recommend me something")
    before = chat.profile()
    reply = chat.say(text)
    assert _card(reply) is None and chat.state.focus is None and chat.profile() == before, reply.text


def test_a_domain_word_opening_the_message_switches_and_keeps_the_rest(real_dm):
    chat = Chat(real_dm, "music")
    reply = chat.say("change of subject: films. i adored fight club")
    assert chat.state.domain == "movie" and chat.labels("movie") == {"Fight Club": "+"}, reply.text


def test_a_dislike_of_the_cards_actor_at_a_card_moves_the_list_past_it(real_dm):
    # issue 22-G: after "i don't like <actor>" at a card and the role answered, the same card was shown again
    chat = Chat(real_dm, "movie")
    chat.say("I loved Fight Club")
    reply = chat.say("recommend me something")
    first = _card(reply)
    assert first is not None
    actors = sorted(chat.values(first, "P161"))
    assert actors, "the card has a cast in the snapshot"
    actor = actors[0]
    reply = chat.say(f"i don't like {chat.kb.label(actor)} much tbh")
    role = [c.payload for c in reply.choices if c.payload.startswith("role:P161")]
    if role:  # "<actor>: do you mean as actor or ...?"
        reply = chat.press(role[0])
    assert chat.profile().get(actor) == "-", reply.text
    now = _card(reply)
    assert now != first and (now is None or actor not in chat.values(now, "P161")), reply.text


def test_a_band_liked_with_anything_by_them_is_stored_and_seeds_the_list(real_dm):
    chat = Chat(real_dm, "music")
    reply = chat.say("I love Radiohead too, anything by them?")
    card = _card(reply)
    assert chat.labels().get("Radiohead") == "+" and card is not None, reply.text


def test_the_card_shown_right_after_a_switch_in_words_takes_its_buttons(real_dm):
    # issue 22-G: after "let's talk music. I like X a lot" + "recommend me some music", [press dislike] found no card
    chat = Chat(real_dm, "movie")
    chat.say("I loved Fight Club")
    chat.say("let's talk music for a sec. I like Radiohead a lot")
    card = _card(chat.say("recommend me some songs 🎧"))
    assert card is not None and chat.state.domain == "music"
    chat.press(f"dislike:{card}")
    assert chat.profile("music").get(card) == "-"


@pytest.mark.parametrize(
    ("domain", "name", "label"), [("movie", "christopher nolan", "Christopher Nolan"), ("music", "Adele", "Adele")]
)
def test_a_like_after_a_popular_list_is_what_the_next_list_comes_from(real_dm, domain, name, label):
    # "Tell me one thing you like first" is gone (issue 22-D): nothing liked gets popular items, said so; a like
    # told at its card is what the next list comes from
    chat = Chat(real_dm, domain)
    assert "popular" in chat.say("recommend me something").text
    chat.say(f"{name} is great")
    reply = chat.say("recommend me something")
    assert chat.labels().get(label) == "+"
    assert _card(reply) is not None and label in reply.text, reply.text


def test_a_name_alone_later_is_asked_about_as_before(real_dm):
    chat = Chat(real_dm, "movie")
    chat.say("recommend me something")
    chat.say("hello there")
    reply = chat.say("christopher nolan")
    assert "Christopher Nolan" not in chat.labels() and _card(reply) is None, reply.text
