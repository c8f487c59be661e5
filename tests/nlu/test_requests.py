"""Requests for recommendations read from their wording (``nlu.requests``, issue 22).

The issue's examples are tested with other items than theirs ("anything similar to good omens?" ->
"anything similar to the hobbit?"); the reading must not depend on the names.
"""

from __future__ import annotations

import pytest

from logs.schema import Intent
from nlu.requests import Request, asked_in_clause, asks_more, read_request, request_in_turn


def _seeds(text: str, domain: str = "movie") -> list[str]:
    request = read_request(text, domain)
    assert request is not None, text
    return [text[start:end] for start, end in request.seeds]


@pytest.mark.parametrize(
    ("text", "seed"),
    [
        ("anything similar to the hobbit?", "the hobbit"),
        ("anything similar to arrival?", "arrival"),
        ("hey! can you recommend something like Heat?", "Heat"),
        ("more like the name of the wind please", "the name of the wind"),
        ("something like the secret history", "the secret history"),
        ("some songs from adele?", "adele"),
        ("can you show me more blur", "blur"),
        ("can I get songs from Arctic Monkeys", "Arctic Monkeys"),
        ("any songs by Dua Lipa?", "Dua Lipa"),
        ("more radiohead please", "radiohead"),
        ("recommend me films with Cate Blanchett, but nothing too long", "Cate Blanchett"),
    ],
)
def test_a_request_that_names_what_it_should_be_like_gives_its_seed(text, seed):
    assert _seeds(text) == [seed]


@pytest.mark.parametrize(
    "text",
    [
        "recommend me something",
        "ok suggest",
        "alright recommend",
        "recs?",
        "hit me with a rec",
        "recomend me sth",  # typed fast: respelt as chat English
        "reccomend me somethin similar",
        "what should I read?",
        "What would you recommend?",
        "I really liked Arrival, can you recommend some more?",  # the name is an opinion, the request asks
        "any recommendations?",
        "Which Blur album should I start with?",  # names what it asks about, as a seeker does
        "give me a novel",  # r7dlg: a work of the domain asked for, in the wording, whatever the classifier hears
        "ok show me a good song please",
    ],
)
def test_a_request_that_names_nothing_to_be_like(text):
    request = read_request(text, "movie")
    assert request is not None and request.seeds == () and not request.more


@pytest.mark.parametrize(
    "text",
    ["more", "one more", "another 1", "moar", "nxt pls", "Something else?", "more suggestions please", "more books"],
)
def test_more_asks_for_more(text):
    assert asks_more(text)
    assert read_request(text, "book") == Request(more=True)


@pytest.mark.parametrize(
    "text",
    [
        "I love songs like Hurt",  # a taste, not a request
        "I'd recommend Heat to anyone",  # the user's own recommendation
        "why did you recommend it?",  # about the card
        "can I see the trailer?",
        "I love Dune",
        "the songs from Hybrid Theory are great",
        "More preferences",  # the study's users asked for more items to rate
    ],
)
def test_statements_and_card_questions_are_no_requests(text):
    assert read_request(text, "music") is None


def test_like_it_refers_back():
    request = read_request("I loved Heat, anything like it?", "movie")
    assert request is not None and request.refers_back and request.seeds == ()


@pytest.mark.parametrize(
    ("text", "domain", "role"),
    [
        ("some songs by Adele?", "music", "P175"),  # performer
        ("any films by Greta Gerwig?", "movie", "P57"),  # director
        ("any films with Cate Blanchett?", "movie", "P161"),  # actor
        ("any books by Ursula K. Le Guin?", "book", "P50"),  # author
        ("anything like Arrival?", "movie", None),
        ("anything else in the spirit of Ursula K. Le Guin?", "book", None),  # what the list resembles, in no role
        ("something in the style of Bjork please", "music", None),
        ("which novels do you have by Terry Pratchett?", "book", "P50"),
        ("what films do u have with Tilda Swinton", "movie", "P161"),
    ],
)
def test_a_seed_person_gets_the_role_of_its_preposition(text, domain, role):
    request = read_request(text, domain)
    assert request is not None and request.role == role


def test_a_request_overrules_other_intents_but_not_critiques_resets_or_answers():
    text = "can you show me more blur"
    assert request_in_turn(text, "music", Intent.SHOW_PROFILE.value, None) is not None  # heard as the profile
    assert request_in_turn(text, "music", Intent.REC_DETAILS.value, None) is not None  # names its seed
    assert request_in_turn("recommend me something", "music", Intent.REC_DETAILS.value, None) is None
    assert request_in_turn(text, "music", Intent.REC_YES_BUT.value, None) is None
    assert request_in_turn(text, "music", Intent.RESET_PROFILE.value, None) is None
    assert request_in_turn(text, "music", Intent.PREFERENCE.value, "reset") is None  # a yes/no is asked
    # "next" at a card or a question is their skip; with nothing on screen it asks for more
    assert request_in_turn("next", "music", Intent.REC_SKIP.value, None) is None
    assert request_in_turn("next", "music", Intent.SKIP.value, "item") is None
    assert request_in_turn("next", "music", Intent.SKIP.value, None) == Request(more=True)


def test_covers_tells_which_mentions_name_a_seed():
    request = Request(seeds=((20, 26),))
    assert request.covers(20, 26) and request.covers(18, 22)
    assert not request.covers(0, 19) and not request.covers(26, 30)


def test_more_and_an_unknown_word_needs_a_name_to_be_a_request():
    request = read_request("more radiohead please", "music")
    assert request is not None and request.needs_name  # stands only if a name is found in "radiohead"
    assert not read_request("can you show me more radiohead", "music").needs_name  # worded as a request


@pytest.mark.parametrize(("words", "noun"), [("a Book", True), ("some songs", True), ("Song", True), ("Dune", False)])
def test_the_requests_own_noun_is_no_name(words, noun):
    from nlu.requests import is_request_noun

    assert is_request_noun(words) is noun


def test_function_words_outside_the_seeds_are_no_names():
    from nlu.requests import names_in_request

    text = "Can You recommend me a Book?"
    request = read_request(text, "book")
    assert names_in_request(request, [("You", 4, 7), ("a Book", 21, 27)]) == [False, False]
    text = "anything like Us?"  # a seed phrase's words are what the user named
    request = read_request(text, "movie")
    assert names_in_request(request, [("Us", 14, 16)]) == [True]
    assert read_request("more like it please", "movie").refers_back


@pytest.mark.parametrize(
    "text",
    [
        "what else is there?",
        "what else you got",
        "two more book suggestions pls",
        "give me another album",
        "anything a little funnier?",
        "something less depressing this time?",
        "whatcha got for me",
        "let's see what you've got",
        "what can you offer?",
        "send me a couple of good tracks",
        "what else might i enjoy?",
    ],
)
def test_more_in_other_words_asks_for_more(text):
    # issue 22-G: "what else?", "something darker?", "show me what you've got" were fallbacks or the card's trailer
    request = read_request(text, "music")
    assert request is not None and request.more, text


@pytest.mark.parametrize(
    "text",
    [
        "something stupid",  # a title, no mood asked for
        "something in the way is haunting",
        "another brick in the wall is a classic",
        "what do you know about me",  # the profile
        "what have you got on me so far?",
    ],
)
def test_titles_and_profile_questions_are_no_more(text):
    request = read_request(text, "music")
    assert request is None or not request.more, text


def test_a_request_asked_after_a_like_is_a_request():
    # "I like X. What do you have?": the like is stored and the list shown by the dialog
    request = read_request("I really dig Bjork. What have you got?", "music")
    assert request is not None and request.seeds == ()


def test_anything_else_by_a_person_names_the_person_with_the_role_of_by():
    text = "anything else by greta gerwig?"
    request = read_request(text, "movie")
    assert request is not None and [text[a:b] for a, b in request.seeds] == ["greta gerwig"] and request.role == "P57"


@pytest.mark.parametrize(("text", "word"), [("recommend me a novel like that", "like"), ("got any good recs?", "recs")])
def test_the_words_marking_a_request_are_no_names(text, word):
    # issue 22-G: "Like" (a novel) was stored from "a book like that"; "Suggestions" from "any suggestions?"
    from nlu.requests import names_in_request

    request = read_request(text, "book")
    assert request is not None
    start = text.index(word)
    assert names_in_request(request, [(word, start, start + len(word))]) == [False]


@pytest.mark.parametrize(("text", "verb"), [("play me something mellow", "play"), ("ok put on some blues", "put on")])
def test_a_request_to_play_is_a_request_and_its_verb_no_name(text, verb):
    # fresh3 / issue 22-G: "play something chill" asked which "Play" (an album) was meant
    from nlu.requests import names_in_request

    request = read_request(text, "music")
    assert request is not None
    start = text.index(verb)
    assert names_in_request(request, [(verb, start, start + len(verb))]) == [False]


def test_i_play_an_instrument_is_no_request():
    assert read_request("i play some piano in a band", "music") is None


@pytest.mark.parametrize("text", ["help me find my next watch", "alright, can i see your best picks"])
def test_requests_for_the_next_item_or_the_picks_are_requests(text):
    assert read_request(text, "movie") is not None


@pytest.mark.parametrize("text", ["the next film in the saga was weak", "heat is my next watch"])
def test_next_in_a_statement_is_no_request(text):
    assert read_request(text, "movie") is None


def test_the_words_of_more_are_no_names():
    # issue 22-G: "something different maybe?" stored the book "Something Different"
    from nlu.requests import names_in_request

    text = "anything different maybe?"
    request = read_request(text, "book")
    assert request is not None and request.more
    assert names_in_request(request, [("anything different", 0, 18)]) == [False]


@pytest.mark.parametrize(
    "text", ["any songs for a long drive?", "something fun for movie night", "whats hot these days", "your best recs?"]
)
def test_requests_for_an_occasion_or_the_best_picks_are_requests(text):
    assert read_request(text, "music") is not None, text


@pytest.mark.parametrize(
    "text", ["heat is perfect for a rainy day", "what is good about it", "the best recs were yours"]
)
def test_occasions_and_best_in_statements_are_no_requests(text):
    assert read_request(text, "movie") is None, text


@pytest.mark.parametrize(("text", "seed"), [("any decent thrillers?", "thrillers"), ("got any good blues?", "blues")])
def test_a_question_for_any_kind_names_it_as_a_seed(text, seed):
    # issue 22-G: "any good horror?" was a request with nothing to recommend from
    request = read_request(text, "movie")
    assert request is not None and request.needs_name and [text[a:b] for a, b in request.seeds] == [seed]


@pytest.mark.parametrize("text", ["any given sunday", "some kind of wonderful"])
def test_a_title_opening_with_any_or_some_is_no_request(text):
    assert read_request(text, "movie") is None


@pytest.mark.parametrize("text", ["something spooky please", "anything feel-good tonight?"])
def test_a_mood_asked_for_is_one_more_list(text):
    request = read_request(text, "movie")
    assert request is not None and request.more


def test_a_question_for_a_clip_of_the_card_is_no_request():
    assert read_request("any clip of it?", "movie") is None


@pytest.mark.parametrize(
    "text",
    [
        "I adore Nina Simone, anything in that vein?",
        "i love dune, something along those lines please",
        "more in the same style?",
    ],
)
def test_a_word_for_the_kind_refers_back_as_like_it_does(text):
    # issue 22-R: "I love Marvin Gaye too, anything in that vein?" showed no list
    request = read_request(text, "music")
    assert request is not None and request.refers_back and not request.needs_name, text


@pytest.mark.parametrize(
    "text",
    ["i love horror films, recommend me one", "Dune was great. suggest something", "loved it, any recommendations?"],
)
def test_a_request_opening_a_later_clause_is_a_request(text):
    assert read_request(text, "movie") is not None, text


@pytest.mark.parametrize("text", ["gimme another", "show me one more please", "so now what?", "what's next"])
def test_more_in_other_words(text):
    assert asks_more(text), text


@pytest.mark.parametrize(
    ("text", "name", "asked"),
    [
        ("recommend me a western film", "western", True),
        ("recomend some punk rock", "punk rock", True),
        ("can you suggest a good thriller novel", "thriller", True),
        ("i love horror films, recommend me one", "horror", False),
        ("recommend me something, i adore westerns", "westerns", False),
    ],
)
def test_a_name_in_the_clause_that_asks_is_what_the_list_is(text, name, asked):
    # issue 22-R: "recommend me an anime film" stored the genre as a like
    start = text.index(name)
    assert asked_in_clause(text, start, start + len(name)) is asked


@pytest.mark.parametrize(
    "text", ["no more stuff like coldplay please", "no more of that guy please", "not more like heat"]
)
def test_a_negated_seed_marker_asks_for_no_list_like_its_name(text):
    # issue 22-R: "no more of that guy please" was a request seeded by "that guy" ("I don't know "that guy" yet")
    request = read_request(text, "music")
    assert request is None or not request.seeds, text


@pytest.mark.parametrize(
    "text",
    [
        "one more please, ideally a bit older",
        "another one, but lighter this time",
        "more pls - something shorter maybe",
    ],
)
def test_more_with_a_clause_saying_what_it_should_be_asks_for_more(text):
    # issue 22-D: the first clause asks for more, the rest qualifies it (its genre or mood words are the dialog's)
    request = read_request(text, "movie")
    assert request is not None and request.more


@pytest.mark.parametrize(
    "text", ["next, i loved it", "more. i really liked heat", "one more please, something like heat"]
)
def test_more_with_an_opinion_or_a_seed_after_it_is_read_as_before(text):
    request = read_request(text, "movie")
    assert request is None or not request.more


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("meh, read it already, it never did anything for me", False),
        ("the ending didn't do anything for us", False),
        ("i can't pick, anything good for tonight?", True),
        ("anything fun for the weekend?", True),
    ],
)
def test_a_request_wording_under_a_negated_verb_of_its_clause_asks_for_nothing(text, asks):
    assert (read_request(text, "book") is not None) is asks
