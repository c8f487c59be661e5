"""Issue 22, fifth round (22-A), through the real dialog of ``corsbot chat``: commands, goodbyes and card answers
in wordings no rule lists, decided by the learned dialogue acts (nlu.acts) where the intent classifier leaves
doubt. Other items and other wordings than the conversation sets' (skipped when the models and snapshots of
``$CORSBOT_HOME`` are not built)."""

from __future__ import annotations

import pytest

from tests.bot.real_dialog import Chat, card_after, card_of, real_dialog_manager


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    return real_dialog_manager(tmp_path_factory, "none")


@pytest.mark.parametrize(
    ("domain", "likes", "answer", "polarity"),
    [
        ("movie", "i love jaws and jurassic park", "oh wow i really love this one", "+"),
        ("book", "i love dune and foundation", "nah, this bored me senseless", "-"),
        ("music", "i love daft punk and justice", "gross, i really dislike this", "-"),
    ],
)
def test_a_card_rated_in_words_no_rule_lists(real_dm, domain, likes, answer, polarity):
    chat = Chat(real_dm, domain)
    shown = card_after(chat, likes)
    chat.say(answer)
    assert chat.profile().get(shown) == polarity


@pytest.mark.parametrize(
    "goodbye", ["alrighty, ttyl 👋", "Many thanks, I shall be going now.", "ok im off now, cheers"]
)
def test_a_goodbye_at_a_card_closes_the_list(real_dm, goodbye):
    chat = Chat(real_dm, "movie")
    shown = card_after(chat, "i love jaws and jurassic park")
    reply = chat.say(goodbye)
    assert card_of(reply) is None and shown not in chat.profile()
    assert chat.state.focus is None


@pytest.mark.parametrize("ask", ["u got any picks 4 me", "Might you suggest a few for me to try?"])
def test_a_request_in_new_words_shows_a_list(real_dm, ask):
    chat = Chat(real_dm, "book")
    chat.say("i love dune and foundation")
    assert card_of(chat.say(ask)) is not None


@pytest.mark.parametrize("ask", ["wat have u got saved on me", "Would you list the preferences you have noted?"])
def test_the_profile_in_new_words(real_dm, ask):
    chat = Chat(real_dm, "music")
    chat.say("i love daft punk and justice")
    assert "profile" in chat.say(ask).text.lower()


def test_the_next_card_in_new_words(real_dm):
    chat = Chat(real_dm, "movie")
    shown = card_after(chat, "i love jaws and jurassic park")
    after = card_of(chat.say("show me one more of those"))
    assert after not in (None, shown) and shown not in chat.profile()


@pytest.fixture(scope="module")
def suggesting_dm(tmp_path_factory):
    return real_dialog_manager(tmp_path_factory, "highest")


@pytest.mark.parametrize("ask", ["ok so what would u put on for me", "any picks 4 me?"])
def test_a_request_passes_a_suggestion_to_rate_by(suggesting_dm, ask):
    chat = Chat(suggesting_dm, "movie")
    chat.say("i loved pulp fiction and jackie brown")
    chat.say("tarantino is my fav director")
    chat.say("director")  # its role asked; then an item to rate is suggested ("Do you like X?")
    assert getattr(chat.state.pending, "kind", None) == "suggestion"
    assert card_of(chat.say(ask)) is not None


def test_a_dislike_before_next_is_the_lexicons_to_rate(real_dm):
    # "..., next": the next card; the rating, if any, is the sentiment lexicon's, never a guess of the act
    chat = Chat(real_dm, "music")
    shown = card_after(chat, "i love daft punk and justice")
    after = card_of(chat.say("hmm not really vibing with it, next"))
    assert after not in (None, shown)
