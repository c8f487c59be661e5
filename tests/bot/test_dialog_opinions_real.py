"""Issue 22 (22-F) through the real dialog of ``corsbot chat``: opinions that change the profile (skipped when the
models and snapshots of ``$CORSBOT_HOME`` are not built). Every kind with other items and other wordings than the
conversation sets':

- dislike constraints in words ("please no X", "no X stuff please", "nothing by X"): a stored dislike that the next
  lists respect, never a like and never a rating of the card on screen; "for now" / "this time" keep the
  constraint to the session;
- corrections: a take-back ("scratch what i said about X", "take back X") removes what the profile holds of X, also
  when its words name it in part, stores the opinion said of X in the same breath in its place, and the other
  names' opinions as usual; the take-back's words name nothing; "remove X" finds X by a reading of its words;
- opinions at the card on screen: a short litotes ("not bad") answers "Do you like it?" with its lean, a shrug
  ("meh") is asked about, a misspelt verb of "it" is read, "it" is the card (never a title "It!"), a critique heard
  as a skip or a stop ("seen it, loved the film, but i can't stand the director") rates the card and its person in
  that role;
- hedges and mixed feelings: "i don't mind X" is asked about, praise in idioms is a like, a correction that
  "mixed them up" flips the stored opinion.
"""

from __future__ import annotations

import pytest

from tests.bot.real_dialog import Chat, real_dialog_manager
from tests.bot.real_dialog import card_of as _card


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    """The dialog manager as ``corsbot chat`` builds it (no suggestions of items to rate), on a scratch database."""
    return real_dialog_manager(tmp_path_factory, "none")


MUSICAL_FILM, HEAVY_METAL, REGGAE, GENRE = "Q842256", "Q38848", "Q9794", "P136"


def _genres(chat: Chat, item: str) -> set[str]:
    return chat.values(item, GENRE)


def test_a_refused_genre_is_a_stored_dislike_and_the_lists_leave_it_out(real_dm):
    chat = Chat(real_dm, "music")
    chat.say("i like punk rock and grunge")
    chat.say("but please no heavy metal music")
    assert chat.profile()[HEAVY_METAL] == "-"
    reply = chat.say("recommend me something")
    first = _card(reply)
    assert first is not None and HEAVY_METAL not in _genres(chat, first)
    assert all(HEAVY_METAL not in _genres(chat, q) for q in chat.state.rec_list)


def test_a_refusal_with_a_liking_in_one_message(real_dm):
    chat = Chat(real_dm, "movie")
    chat.say("I love Alien and Aliens")
    chat.say("no musicals please, they bore me")
    assert chat.profile()[MUSICAL_FILM] == "-"


def test_a_refused_person_is_disliked_in_the_role_asked(real_dm):
    chat = Chat(real_dm, "movie")
    chat.say("I love Alien and Aliens")
    chat.say("and please no Sylvester Stallone movies")
    chat.say("actor")
    assert chat.labels()["Sylvester Stallone"] == "-"
    assert (
        chat.state.profile()[next(q for q in chat.profile() if chat.kb.label(q) == "Sylvester Stallone")]["role"]
        == "P161"
    )


def test_a_refusal_at_a_card_is_no_rating_of_the_card(real_dm):
    chat = Chat(real_dm, "music")
    chat.say("i like punk rock and grunge")
    shown = _card(chat.say("recommend me something"))
    assert shown is not None
    chat.say("no reggae please")
    assert chat.profile().get(REGGAE) == "-"
    assert shown not in chat.profile()
    chat.say("please no zydeco though")  # a name the KB lacks: nothing stored, the card not rated
    assert shown not in chat.profile()


def test_a_refusal_for_now_stays_a_constraint_of_the_session(real_dm):
    chat = Chat(real_dm, "music")
    chat.say("i like punk rock and grunge")
    chat.say("recommend me something")
    reply = chat.say("no heavy metal music for now")
    assert "this time" in reply.text
    assert HEAVY_METAL not in chat.profile()


def test_a_take_back_with_a_new_opinion_replaces_the_old_one(real_dm):
    chat = Chat(real_dm, "music")
    chat.say("i hate wonderwall and i love blur")
    assert chat.labels()["Wonderwall"] == "-"
    chat.say("ok scratch what i said about wonderwall, it's grown on me")
    assert chat.labels() == {"Wonderwall": "+", "Blur": "+"}


def test_a_take_back_removes_and_the_other_names_keep_their_opinion(real_dm):
    chat = Chat(real_dm, "book")
    chat.say("i loved to kill a mockingbird and the hobbit")
    chat.say("actually take back the hobbit, tolkien is so overrated")
    labels = chat.labels()
    assert "The Hobbit" not in labels and labels["J. R. R. Tolkien"] == "-"
    chat.say("scratch what i said about mockingbird, i never read it")  # the stored book named in part
    assert set(chat.labels()) == {"J. R. R. Tolkien"}


def test_a_bare_take_back_stores_nothing_of_its_words(real_dm):
    chat = Chat(real_dm, "movie")
    chat.say("i loved jaws and speed")
    before = dict(chat.profile())
    chat.say("actually scratch that about jaws, it's alright i guess")
    assert "Jaws" not in chat.labels()
    assert set(chat.profile()) <= set(before)  # neither "Scratch" nor anything else stored


def test_remove_finds_the_entry_by_a_reading_of_its_words(real_dm):
    chat = Chat(real_dm, "book")
    chat.say("i love frankenstein")
    chat.say("2")  # "Frankenstein; or, The Modern Prometheus"
    assert len(chat.profile()) == 1
    chat.say("remove frankenstein, i never actually read it")
    assert chat.profile() == {}


def test_a_take_back_of_words_the_linker_missed_finds_them_in_the_profile(real_dm):
    chat = Chat(real_dm, "movie")
    chat.say("i loved howl's moving castle and spirited away")
    assert "Howl's Moving Castle" in chat.labels()
    reply = chat.say("wait, scratch what i said about howl, i've never actually seen it")
    assert "Howl's Moving Castle" not in chat.labels() and "Spirited Away" in chat.labels()
    assert "took that back" in reply.text
    assert "won't store" in chat.say("ok i take back what i said about zorblax, whatever").text  # never silent


def _a_list(chat: Chat, domain: str, likes: str) -> str:
    chat.say(likes)
    shown = _card(chat.say("recommend me something"))
    assert shown is not None
    return shown


def test_a_shrug_at_a_card_is_asked_about_and_a_litotes_is_a_like(real_dm):
    chat = Chat(real_dm, "movie")
    first = _a_list(chat, "movie", "i love heat and collateral")
    asked = chat.say("meh")  # issue 22, fourth round: a shrug is a hedge, asked about, no dislike guessed
    assert "Did you like" in asked.text and first not in chat.profile()
    second = _card(chat.say("no"))
    assert chat.profile()[first] == "-" and second not in (None, first)
    third = _card(chat.say("not bad, seen it before"))
    assert chat.profile()[second] == "+" and third not in (None, first, second)
    chat.say("watched it, lovd it")
    assert chat.profile()[third] == "+"


def test_it_at_a_card_is_the_card_and_never_a_title(real_dm):
    chat = Chat(real_dm, "book")
    first = _a_list(chat, "book", "i love the hobbit and dune")
    chat.say("Read it already. Loved it!")
    assert chat.profile()[first] == "+"
    assert len(chat.profile()) == 3 and "It!" not in chat.labels()  # the two likes and the card, nothing else


def test_a_critique_heard_as_a_skip_or_a_stop_rates_the_card_and_its_person(real_dm):
    chat = Chat(real_dm, "movie")
    first = _a_list(chat, "movie", "i love heat and collateral")
    directors = chat.values(first, "P57")
    chat.say("seen it, loved the film, but i can't stand the director")
    profile = chat.state.profile()
    assert profile[first]["polarity"] == "+"
    assert any(profile.get(d, {}).get("polarity") == "-" for d in directors)


def test_a_hedge_is_asked_and_idioms_of_praise_are_likes(real_dm):
    chat = Chat(real_dm, "movie")
    reply = chat.say("i don't mind a good western")
    assert "Did you like" in reply.text and chat.profile() == {}
    chat = Chat(real_dm, "book")
    chat.say("the shining really knows how to build dread")
    assert chat.labels().get("The Shining") == "+"


def test_a_correction_that_mixed_them_up_flips_the_opinion(real_dm):
    chat = Chat(real_dm, "book")
    chat.say("i loved animal farm and brave new world")
    chat.say("actually animal farm was the dull one, i mixed them up")
    assert chat.labels()["Animal Farm"] == "-" and chat.labels()["Brave New World"] == "+"
