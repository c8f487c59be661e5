"""Issue 22, fourth round, second pass (22-R2) through the real dialog of ``corsbot chat``: the dialog at a card
and at open questions (skipped when the snapshots and the intent model are not built). Other items and wordings
than the conversation sets' and the fresh user's chat (``/work/findings/fresh6.md``).
"""

from __future__ import annotations

import pytest

from tests.bot.real_dialog import Chat, card_of, real_dialog_manager


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    """The dialog manager as ``corsbot chat`` builds it, on a scratch database."""
    return real_dialog_manager(tmp_path_factory, "none")


@pytest.mark.parametrize(
    ("domain", "like", "bye"),
    [
        ("movie", "I loved Forrest Gump", "bye, thanks a lot!"),
        ("book", "I love Dune", "ok gotta head out, cheers"),
        ("music", "I love ABBA", "see ya later, thx"),
        ("movie", "I loved Forrest Gump", "im off now, thank you so much"),
    ],
)
def test_a_goodbye_with_thanks_after_it_at_a_card_closes_the_list_and_rates_nothing(real_dm, domain, like, bye):
    # fresh6 fault 2: a goodbye followed by thanks rated the card (or answered "why") deep in a list
    chat = Chat(real_dm, domain)
    chat.say(like)
    chat.say("recommend me something")
    assert card_of(chat.say("next one")) is not None
    before = chat.profile()
    reply = chat.say(bye)
    assert card_of(reply) is None and chat.state.focus is None, reply.text
    assert chat.profile() == before and chat.intent() == "smalltalk.greetings.bye", reply.text


@pytest.mark.parametrize(
    ("domain", "setup", "opinion", "ask", "answer", "expected"),
    [
        ("movie", "I loved Forrest Gump", "i hate titanic", "recommend me something", "the 1997 one", "-"),
        ("book", "I love Dune", "hated twilight tbh", "anything like the hobbit?", "the book", "-"),
        ("movie", "I loved Forrest Gump", "ugh i hated titanic", "got anything like alien?", "1", "-"),
    ],
)
def test_a_request_shows_its_list_and_keeps_the_open_question(real_dm, domain, setup, opinion, ask, answer, expected):
    # fresh6 fault 7: the first request dropped the which-one question, and the opinion stated with it was lost
    chat = Chat(real_dm, domain)
    chat.say(setup)
    chat.say(opinion)
    assert chat.state.pending is not None
    reply = chat.say(ask)
    assert card_of(reply) is not None and "Still open" in reply.text and "dropped" not in reply.text, reply.text
    reply = chat.say(answer)
    assert expected in chat.profile().values() and len(chat.profile()) >= 2, reply.text


@pytest.mark.parametrize(
    ("domain", "text", "person"),
    [
        ("book", "what do you have by ursula k le guin", "Ursula K. Le Guin"),
        ("book", "what have you got by terry pratchett?", "Terry Pratchett"),
        ("movie", "what else do you have by steven spielberg", "Steven Spielberg"),
    ],
)
def test_what_do_you_have_by_a_person_is_a_list_by_that_person(real_dm, domain, text, person):
    # fresh6 fault 12: "what do you have by <author>" answered "Your books profile is empty"
    chat = Chat(real_dm, domain)
    reply = chat.say(text)
    assert card_of(reply) is not None and "profile" not in reply.text, reply.text
    assert person in reply.text, reply.text


@pytest.mark.parametrize("rating", ["seen it already, loved it", "👍", "oh i know this one, really good"])
def test_a_rating_at_the_card_shown_after_an_open_question_rates_the_card(real_dm, rating):
    # the question kept under the list is no longer what the user sees last: the card is
    chat = Chat(real_dm, "movie")
    chat.say("I loved Forrest Gump")
    chat.say("ugh i hated titanic")
    card = card_of(chat.say("recommend me something"))
    assert card is not None and chat.state.pending is not None
    reply = chat.say(rating)
    assert chat.profile().get(card) == "+", reply.text


@pytest.mark.parametrize(
    ("domain", "like", "said", "named"),
    [
        ("movie", "I loved Forrest Gump", "i've seen the shining, loved it", "The Shining"),
        ("movie", "I loved Forrest Gump", "oh and jaws was terrible tbh", "Jaws"),
        ("book", "I love Dune", "read the hobbit last year, adored it", "The Hobbit"),
    ],
)
def test_a_title_rated_deep_in_a_list_is_stored_and_the_card_stays(real_dm, domain, like, said, named):
    # fresh6 fault 4: after a few "more"s, "i've seen hereditary, loved it" was heard as a skip of the card
    chat = Chat(real_dm, domain)
    chat.say(like)
    chat.say("recommend me something")
    chat.say("more")
    card = card_of(chat.say("more"))
    assert card is not None
    reply = chat.say(said)
    assert any(label.startswith(named) for label in chat.labels()), reply.text
    assert card_of(reply) == card and card not in chat.profile(), reply.text


@pytest.mark.parametrize(
    ("domain", "likes", "delete", "undo"),
    [
        ("movie", ["I loved Forrest Gump", "jaws was awful"], "delete jaws", "never mind, keep it"),
        ("book", ["I love Dune", "I hated The Hobbit"], "remove the hobbit", "oops, put it back"),
        ("music", ["I love ABBA", "I can't stand Nickelback"], "delete nickelback", "no wait, undo that"),
    ],
)
def test_an_undo_right_after_a_deletion_puts_the_entry_back(real_dm, domain, likes, delete, undo):
    # fresh6 fault 13: "never mind, keep it" after "delete X" was not understood, and X stayed deleted
    chat = Chat(real_dm, domain)
    for like in likes:
        chat.say(like)
    before = chat.profile()
    chat.say(delete)
    assert len(chat.profile()) == len(before) - 1
    reply = chat.say(undo)
    assert chat.profile() == before, reply.text


def test_an_undo_at_a_card_puts_the_entry_back_and_rates_no_card(real_dm):
    chat = Chat(real_dm, "movie")
    chat.say("I loved Forrest Gump")
    chat.say("jaws was awful")
    chat.say("recommend me something")
    before = chat.profile()
    chat.say("delete jaws")
    reply = chat.say("actually keep it")
    assert chat.profile() == before, reply.text


def test_keep_them_coming_after_a_deletion_is_no_undo(real_dm):
    chat = Chat(real_dm, "movie")
    chat.say("I loved Forrest Gump")
    chat.say("jaws was awful")
    chat.say("delete jaws")
    chat.say("keep them coming")
    assert "-" not in chat.profile().values()


@pytest.mark.parametrize(
    ("said", "genre"),
    [
        ("hmm what should we watch tonight, something really scary", "horror film"),
        ("hmm, got anything hilarious?", "comedy film"),
        ("i'm in the mood for a horror movie tonight", "horror film"),
    ],
)
def test_a_mood_or_genre_asked_at_a_card_is_a_new_list_of_that_genre(real_dm, said, genre):
    # fresh6 fault 8: "something funny" at a card skipped to the next card of the same list
    chat = Chat(real_dm, "movie")
    chat.say("I loved Forrest Gump")
    first = card_of(chat.say("recommend me something"))
    reply = chat.say(said)
    card = card_of(reply)
    assert card is not None and card != first and "1/" in reply.text, reply.text
    assert any(chat.kb.label(q) == genre for q in chat.values(card, "P136")) or genre in reply.text, reply.text
    assert first not in chat.profile(), reply.text


def test_more_and_something_else_at_a_card_still_move_to_the_next_card(real_dm):
    chat = Chat(real_dm, "movie")
    chat.say("I loved Forrest Gump")
    chat.say("recommend me something")
    assert "2/" in chat.say("something else?").text


@pytest.mark.parametrize(("liked", "answer"), [("i loved titanic", "the 1997 one"), ("i loved heat", "1")])
def test_a_request_with_only_an_open_question_about_a_like_asks_it_first_once(real_dm, liked, answer):
    # fresh3 F3-14: "Tell me one thing you like first" while the question's answer is that one thing
    chat = Chat(real_dm, "movie")
    chat.say(liked)
    assert chat.state.pending is not None
    reply = chat.say("recommend me something")
    assert "once I know which you mean" in reply.text and "Tell me one thing" not in reply.text, reply.text
    again = chat.say("just recommend something")
    assert "once I know which you mean" not in again.text, again.text
    chat.say(answer)
    assert "+" in chat.profile().values()


@pytest.mark.parametrize("unreadable", ["i love Q24871", "omg i adore x7f3k", "Q42 is the best"])
def test_a_name_the_bot_cannot_read_rates_no_card(real_dm, unreadable):
    # fresh6 fault 3: "i love Q83495" at a card (a question open) liked the card
    chat = Chat(real_dm, "movie")
    chat.say("I loved Forrest Gump")
    chat.say("recommend me something")
    chat.say("more")
    before = chat.profile()
    reply = chat.say(unreadable)
    assert chat.profile() == before, reply.text


def test_a_rating_of_the_card_with_a_number_word_still_rates_it(real_dm):
    chat = Chat(real_dm, "movie")
    chat.say("I loved Forrest Gump")
    card = card_of(chat.say("recommend me something"))
    chat.say("loved it, 10/10, those 80s vibes")
    assert chat.profile().get(card) == "+"
