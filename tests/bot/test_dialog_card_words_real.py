"""Issue 22, fourth round (22-O), through the real dialog of ``corsbot chat``: card answers in new words, with other
items and other wordings than the conversation sets' (skipped when the models and snapshots of ``$CORSBOT_HOME``
are not built). A judgement said of "it" after saying the user knows the item rates the card, VADER's words too
("watched it ages ago, it was sweet"); "too X for me" after "nah" is a dislike, no skip; a reaction emoji after
"no" is not negated; approval idioms rate; a shrug, or someone else's like with the user's shrug, is asked about
("Did you like X?")."""

from __future__ import annotations

import pytest

from tests.bot.real_dialog import Chat, card_after, card_of, real_dialog_manager


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    return real_dialog_manager(tmp_path_factory, "none")


@pytest.mark.parametrize(
    ("domain", "likes", "answer", "polarity"),
    [
        ("movie", "i love jaws and jurassic park", "watched it ages ago, it was sweet", "+"),
        ("book", "i love dune and foundation", "nah, way too dry for me", "-"),
        ("music", "i love daft punk and justice", "ugh no 💩", "-"),
        ("movie", "i love jaws and jurassic park", "nailed it, right up my alley", "+"),
        ("book", "i love dune and foundation", "read it, the prose was great even though i hated the ending", "+"),
    ],
)
def test_a_card_answered_in_new_words_is_rated(real_dm, domain, likes, answer, polarity):
    chat = Chat(real_dm, domain)
    shown = card_after(chat, likes)
    chat.say(answer)
    assert chat.profile().get(shown) == polarity


@pytest.mark.parametrize("answer", ["saw it, meh", "my sister loved that one, i thought it was meh", "meh"])
def test_a_shrug_or_someone_elses_like_is_asked_about(real_dm, answer):
    chat = Chat(real_dm, "movie")
    shown = card_after(chat, "i love jaws and jurassic park")
    reply = chat.say(answer)
    assert shown not in chat.profile() and "Did you like" in reply.text
    after = chat.say("yes")
    assert chat.profile().get(shown) == "+" and card_of(after) not in (None, shown)


def test_the_card_liked_and_its_performer_not_after_a_comma(real_dm):
    chat = Chat(real_dm, "music")
    shown = card_after(chat, "i love daft punk and justice")
    performers = chat.values(shown, "P175")
    chat.say("great track, not a fan of the artist though")
    profile = chat.state.profile()
    assert profile[shown]["polarity"] == "+"
    assert performers and any(profile.get(p, {}).get("polarity") == "-" for p in performers)


def test_a_critique_of_the_cards_people_heard_as_a_skip_rates_only_them(real_dm):
    chat = Chat(real_dm, "movie")
    shown = card_after(chat, "i love jaws and jurassic park")
    directors = chat.values(shown, "P57")
    chat.say("looks fun but i've seen that director's films before and didn't like his stuff")
    profile = chat.state.profile()
    assert shown not in profile
    assert directors and all(profile.get(d, {}).get("polarity") == "-" for d in directors)


def test_two_parts_judged_the_last_one_is_the_whole(real_dm):
    chat = Chat(real_dm, "book")
    shown = card_after(chat, "i love dune and foundation")
    chat.say("read that one, the prose was nice but the plot went nowhere")
    assert chat.profile().get(shown) == "-"


def test_the_card_and_its_people_by_role_in_other_words(real_dm):
    """The work judged in its clauses, its performers named by role in another ("the group behind it" is no title):
    the card liked, the performers disliked, nothing else stored (issue 22-C)."""
    chat = Chat(real_dm, "music")
    shown = card_after(chat, "i love daft punk and justice")
    performers = chat.values(shown, "P175")
    before = len(chat.state.profile())
    chat.say("the tune itself is catchy, I just can't get into the group behind it")
    profile = chat.state.profile()
    assert profile[shown]["polarity"] == "+"
    assert performers and all(profile.get(p, {}).get("polarity") == "-" for p in performers)
    assert len(profile) == before + 1 + len(performers)
