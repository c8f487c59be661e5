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


@pytest.mark.parametrize(
    ("domain", "like", "ask", "creator", "pid"),
    [
        ("book", "alice munro is wonderful", "what should i read next?", "Alice Munro", "P50"),
        ("book", "chuck palahniuk rocks", "recommend me a book", "Chuck Palahniuk", "P50"),
        ("music", "sam smith is amazing", "any suggestions?", "Sam Smith", "P175"),
        ("music", "guns n roses are the best", "got anything for me?", "Guns N’ Roses", "P175"),
    ],
)
def test_one_liked_creator_backed_by_few_study_users_leads_to_their_works(real_dm, domain, like, ask, creator, pid):
    # one or two study users liked this creator: their other tastes (a bestseller, a pop hit) no longer lead the
    # list over the creator's own works (recommender/support.py)
    chat = Chat(real_dm, domain)
    chat.say(like)
    assert _card(chat.say(ask)) is not None
    person = next(q for name, q in chat.kb.names() if name == creator)
    assert all(person in chat.values(item, pid) for item in chat.state.rec_list[:3])


def test_a_creator_disliked_while_a_list_is_shown_is_left_out_of_its_next_cards(real_dm):
    chat = Chat(real_dm, "book")
    chat.say("i love stephen king and neil gaiman")
    assert _card(chat.say("recommend me something")) is not None
    rest = chat.state.rec_list[1:]
    authors = [a for item in rest for a in chat.values(item, "P50")]
    gaiman = next(q for name, q in chat.kb.names() if name == "Neil Gaiman")
    assert gaiman in authors  # the list holds some of his books after the first card
    chat.say("actually i can't stand neil gaiman, no more of his books")
    shown = []
    for _ in range(len(rest)):
        shown.append(_card(chat.say("next")))
    assert not any(gaiman in chat.values(item, "P50") for item in shown if item)


def test_no_sequel_prequel_or_series_part_of_a_disliked_film_is_offered_for_rating(real_dm):
    from recommender.elicitation import elicitation_suggestions
    from recommender.values import Profile

    chat = Chat(real_dm, "movie")
    kb, rec = chat.kb, real_dm._services.domain("movie").recommender
    alien3 = next(q for name, q in kb.names() if name == "Alien 3")
    weaver = next(q for name, q in kb.names() if name == "Sigourney Weaver")
    kin = {v for p, v in kb.item_values(alien3) if p in ("P155", "P156")}
    assert kin  # Aliens, Alien: Resurrection

    def offered(profile: Profile) -> set[str]:
        return {s.qid for s in elicitation_suggestions(rec, profile, k=8)}

    assert kin & offered(Profile(liked=frozenset({weaver})))  # a fan of the actress is offered the series
    assert not kin & offered(Profile(liked=frozenset({weaver}), disliked=frozenset({alien3})))
