"""A request always shows a list (issue 22-D, fifth round): a genre word or a mood with nothing liked, a request that
names its seed without a subject ("need a book like ..."), a request with no evidence at all (popular items, said
so), and a switch said in words before the rest of the message. Own wordings and items, none of the sets'."""

from __future__ import annotations

import pytest

from tests.bot.real_dialog import Chat, real_dialog_manager
from tests.bot.real_dialog import card_of as _card


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    return real_dialog_manager(tmp_path_factory, "none")


@pytest.mark.parametrize(
    ("domain", "text", "genre"),
    [
        ("movie", "any good thriller to recommend?", "thriller"),
        ("book", "can you suggest some poetry", "poetry"),
        ("music", "recommend me some reggae", "reggae"),
        ("music", "gimme some prog rock pls", "progressive rock"),
    ],
)
def test_a_genre_word_in_a_request_is_what_the_list_is(real_dm, domain, text, genre):
    chat = Chat(real_dm, domain)
    reply = chat.say(text)
    assert _card(reply) is not None and f"Based on {genre}" in reply.text, reply.text
    assert chat.profile() == {}  # the kind of list asked for, not a like


@pytest.mark.parametrize(
    ("domain", "text"),
    [
        ("movie", "recommend something heartwarming please"),
        ("music", "suggest something relaxing"),
        ("book", "i want something gripping"),
    ],
)
def test_a_mood_in_a_request_is_a_genre_of_the_kb(real_dm, domain, text):
    chat = Chat(real_dm, domain)
    reply = chat.say(text)
    assert _card(reply) is not None and "Based on " in reply.text and "popular" not in reply.text, reply.text


@pytest.mark.parametrize("domain", ["movie", "book", "music"])
def test_a_request_with_no_evidence_shows_popular_items_said_so(real_dm, domain):
    chat = Chat(real_dm, domain)
    reply = chat.say("show me what you've got")
    assert _card(reply) is not None and "popular" in reply.text, reply.text


@pytest.mark.parametrize(
    ("domain", "text", "label"),
    [
        ("book", "need a book like The Hobbit, adored it", "The Hobbit"),
        ("movie", "want something similar to Alien please", "Alien"),
    ],
)
def test_a_request_without_a_subject_naming_its_seed_stores_it_and_shows_a_list(real_dm, domain, text, label):
    chat = Chat(real_dm, domain)
    reply = chat.say(text)
    assert chat.labels().get(label) == "+" and _card(reply) is not None, reply.text


@pytest.mark.parametrize(
    ("start", "text", "domain", "label"),
    [
        ("book", "haha nice. ok so how about music? been playing a lot of bjork", "music", "Björk"),
        ("music", "as for films, casablanca is my all-time favourite", "movie", "Casablanca"),
        ("movie", "film talk over. book question: i adored middlemarch", "book", "Middlemarch"),
    ],
)
def test_a_switch_after_talk_keeps_the_rest_in_the_new_domain(real_dm, start, text, domain, label):
    chat = Chat(real_dm, start)
    chat.say(text)
    assert chat.state.domain == domain
    assert chat.labels().get(label) == "+", chat.labels()


def test_more_with_a_qualifying_clause_is_a_new_list_not_a_card_question(real_dm):
    chat = Chat(real_dm, "movie")
    chat.say("i loved alien")
    first = _card(chat.say("recommend me something"))
    reply = chat.say("one more please, ideally a bit older")
    assert _card(reply) not in (None, first), reply.text
    assert "Director:" not in reply.text  # not the card's details


@pytest.mark.parametrize(
    ("domain", "like", "text", "genre"),
    [
        ("movie", "i loved alien", "another western one please", "Western film"),
        ("book", "i loved dune", "another fantasy one?", "fantasy"),
    ],
)
def test_another_one_of_a_genre_at_a_card_is_a_new_list_of_it(real_dm, domain, like, text, genre):
    chat = Chat(real_dm, domain)
    chat.say(like)
    chat.say("recommend me something")
    reply = chat.say(text)
    assert _card(reply) is not None and f"Based on {genre}" in reply.text, reply.text
    assert genre not in chat.labels()  # asked for, not a like


def test_next_with_an_opinion_of_the_card_rates_it_and_goes_on(real_dm):
    chat = Chat(real_dm, "music")
    chat.say("i love blur")
    first = _card(chat.say("recommend me something"))
    reply = chat.say("next, i loved it")
    assert chat.profile().get(first) == "+" and _card(reply) != first, reply.text


@pytest.mark.parametrize(
    ("domain", "like", "between", "bye"),
    [
        ("movie", "i loved alien", "i hate quentin tarantino", "bye!"),  # a role question open
        ("music", "i love blur", "i love heat", "thanks, bye"),  # a which-one question open
        ("book", "i loved dune", "why?", "ok thanks, goodbye"),  # after a card question
        ("movie", "i loved alien", "what about books? any good ones?", "bye bye"),  # after a switch
    ],
)
def test_a_goodbye_closes_the_list_in_every_state(real_dm, domain, like, between, bye):
    chat = Chat(real_dm, domain)
    chat.say(like)
    chat.say("recommend me something")
    chat.say(between)
    reply = chat.say(bye)
    assert "Bye" in reply.text and chat.state.focus is None and _card(reply) is None, reply.text


@pytest.mark.parametrize(
    ("start", "text", "domain", "label"),
    [
        ("music", "what novels would you recommend? i liked the hobbit", "book", "The Hobbit"),
        ("book", "kk, muzic now. radiohead is my fav band", "music", "Radiohead"),
    ],
)
def test_a_switch_by_request_or_with_a_slip_keeps_the_rest(real_dm, start, text, domain, label):
    chat = Chat(real_dm, start)
    chat.say(text)
    assert chat.state.domain == domain and chat.labels().get(label) == "+", chat.labels()


def test_a_request_for_another_domains_items_with_nothing_liked_there_shows_popular_ones(real_dm):
    chat = Chat(real_dm, "movie")
    reply = chat.say("any book suggestions?")
    assert chat.state.domain == "book" and _card(reply) is not None and "popular books" in reply.text, reply.text


@pytest.mark.parametrize(
    ("domain", "text"), [("book", "any novels with talking cats?"), ("movie", "anything with giant robots?")]
)
def test_a_common_noun_under_a_modifier_in_a_request_is_a_theme_not_a_title(real_dm, domain, text):
    chat = Chat(real_dm, domain)
    reply = chat.say(text)
    assert _card(reply) is not None and chat.profile() == {}, reply.text


@pytest.mark.parametrize(
    ("text", "label"),
    [("more like heat with de niro please", "Heat"), ("i really liked heat, recommend me more", "Heat")],
)
def test_a_title_nothing_modifies_in_a_request_is_still_a_seed(real_dm, text, label):
    chat = Chat(real_dm, "movie")
    reply = chat.say(text)
    assert chat.labels().get(label) == "+" and _card(reply) is not None, reply.text
