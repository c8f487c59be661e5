"""Issue 22 (22-C, the entity linker's share) through the real dialog of ``corsbot chat``: the trained intent
model, the sentiment recognizer and the knowledge-base snapshots of ``$CORSBOT_HOME`` (skipped when they
are not built).

The issue's linking examples with other items than the issue's: namesakes taken by recency (and said, with
"Not that one"), by a cue of age ("the new X", "the remake") or by the person who made one ("X's Y"); lowercase
names where a name is expected ("a big fan of X", "anything similar to X?", "more X", a title opening the
message); words that are no titles ("Happy Birthday!", a person's works of a genre, "Will You recommend ...",
"the song X" of a song and an album).
"""

from __future__ import annotations

import pytest

from tests.bot.real_dialog import Chat, real_dialog_manager


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    """The dialog manager as ``corsbot chat`` builds it, on a scratch database (no suggestions of items to
    rate, so that every reply is the turn's own)."""
    return real_dialog_manager(tmp_path_factory, "none")


def test_a_namesake_taken_by_recency_is_said_and_can_be_refused(real_dm):
    # issue: "Joker was a pretty good movie" stored or asked about the older film
    chat = Chat(real_dm, "movie")
    reply = chat.say("the beguiled was gorgeous")
    assert chat.profile() == {"Q27684970": "+"}  # The Beguiled (2017), not the 1971 film
    assert "not that one" in reply.text and any(c.payload == "none:Q27684970" for c in reply.choices)
    chat.say("", payload="none:Q27684970")
    assert chat.profile() == {}


def test_cues_of_age_and_the_person_who_made_it_say_which(real_dm):
    # issue: "I saw the new Lion King", "the remake", "peter jackson's king kong"
    chat = Chat(real_dm, "movie")
    chat.say("the new suspiria was awful")
    assert chat.profile() == {"Q28123467": "-"}
    chat = Chat(real_dm, "movie")
    chat.say("The Wicker Man is a classic, the remake is garbage")
    assert chat.profile() == {"Q1140649": "+", "Q200827": "-"}  # 1973 liked, 2006 not
    chat = Chat(real_dm, "movie")
    chat.say("steven soderbergh's solaris was slow")
    assert chat.profile() == {"Q673195": "-"}  # Soderbergh's, not Tarkovsky's


def test_lowercase_names_where_a_name_is_expected(real_dm):
    # issue: "i'm a big fan of stephen king", "anything similar to fight club?", "more blur", "the giver"
    book = Chat(real_dm, "book")
    book.say("i'm a big fan of john green")
    assert book.labels() == {"John Green": "+"}
    book.say("the crucible i loved though")
    assert book.labels() == {"John Green": "+", "The Crucible": "+"}
    movie = Chat(real_dm, "movie")
    reply = movie.say("anything similar to big fish?")
    assert movie.labels() == {"Big Fish": "+"} and any(c.payload.startswith("like:") for c in reply.choices)
    music = Chat(real_dm, "music")
    reply = music.say("more oasis")
    assert music.labels() == {"Oasis": "+"} and any(c.payload.startswith("like:") for c in reply.choices)


def test_words_that_are_no_titles(real_dm):
    # issue: "Happy Holidays!", "agatha christie's mysteries", "Can You ...", "the song get lucky"
    movie = Chat(real_dm, "movie")
    movie.say("Happy Birthday!")
    assert movie.profile() == {}
    book = Chat(real_dm, "book")
    book.say("i love john grisham's thrillers")
    assert book.labels() == {"John Grisham": "+"}
    book = Chat(real_dm, "book")
    book.say("Will You recommend me a book?")
    assert book.profile() == {}
    music = Chat(real_dm, "music")
    music.say("the song thriller was overplayed")
    assert music.profile() == {"Q380825": "-"}  # the song, not the album, and no question
