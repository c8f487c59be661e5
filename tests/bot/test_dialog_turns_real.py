"""Issue 22 (22-B) through the real dialog of ``corsbot chat``: the trained intent model, the sentiment
recognizer and the knowledge-base snapshots of ``$CORSBOT_HOME`` (skipped when they are not built).

Every example of the issue's part 22-B, with other items than the issue's, as the conversations they
come from: mixed feelings at a suggested item ("yeah it was great, but way too long and i cant stand X"),
an opinion about a title the KB lacks that must not move to its neighbour, a self-correction at an open
question ("no wait, i LIKED X"), a bare title after a "not really", card opinions ("seen it, hated it
honestly", "already read it, loved it"), lost preferences ("i'm a big fan of X", "X is a masterpiece"
after a band, "X and Y were giid", "love me some X", "How about X ?", "X too") and "sorry, I meant X".
"""

from __future__ import annotations

import pytest

from bot.dialog.acts import ConfirmQuestion, SuggestionQuestion
from tests.bot.real_dialog import Chat, real_dialog_manager
from tests.bot.real_dialog import card_of as _card


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    """The dialog manager as ``corsbot chat`` builds it, suggestions of items to rate in the movie domain
    (the successor study's protocol), on a scratch database; the models and snapshots of the runtime folder."""
    return real_dialog_manager(tmp_path_factory, "movie=popularity,book=none,music=none")


def _three_likes_then_suggestion(chat: Chat) -> str:
    for text in ("I love Pulp Fiction", "I like Fargo", "I hate Avatar"):
        chat.say(text)
    pending = chat.state.pending
    assert isinstance(pending, SuggestionQuestion), "a suggested item to rate is asked after three preferences"
    return pending.qid


def test_mixed_feelings_at_a_suggested_item_land_on_their_own_entity(real_dm):
    # issue: at "Do you like Django Unchained?", "yeah it was great, but way too long and i cant stand leonardo
    # dicaprio" disliked the film
    chat = Chat(real_dm, "movie")
    suggested = _three_likes_then_suggestion(chat)
    chat.say("yeah it was great, but way too long and i cant stand bruce willis")
    profile = chat.profile()
    assert profile[suggested] == "+"
    assert chat.labels()["Bruce Willis"] == "-"


def test_a_self_correction_at_a_suggested_item_is_no_answer_to_it(real_dm):
    # issue: at "Do you like Inglourious Basterds?", "no wait, i LIKED django unchained" disliked the suggestion
    chat = Chat(real_dm, "movie")
    suggested = _three_likes_then_suggestion(chat)
    chat.say("no wait, i LIKED reservoir dogs")
    assert suggested not in chat.profile()
    assert chat.labels()["Reservoir Dogs"] == "+"


def test_an_opinion_about_a_title_the_kb_lacks_stays_with_it(real_dm):
    # issue: "... like inception and interstellar but tenet was a mess" disliked Interstellar
    chat = Chat(real_dm, "movie")
    chat.say("i also dig ridley scott films like alien and blade runner but napoleon was a mess")
    for _ in range(3):  # the bot may ask which role or which one; the user answers the first option
        pending = chat.state.pending
        if pending is None or isinstance(pending, SuggestionQuestion):
            break
        chat.say("1")
    labels = chat.labels()
    assert labels.get("Alien") == "+" and labels.get("Blade Runner") == "+"
    assert "-" not in labels.values()


def test_a_bare_title_after_not_really_is_asked_about_not_disliked(real_dm):
    # issue: after "not really" to one question, "kid a" -> "👎 Kid A"
    chat = Chat(real_dm, "music")
    chat.say("the cure")
    chat.say("not really")
    assert chat.labels() == {"The Cure": "-"}
    chat.say("disintegration")
    assert chat.labels() == {"The Cure": "-"}
    assert isinstance(chat.state.pending, ConfirmQuestion)


def test_an_opinion_of_the_card_is_stored(real_dm):
    # issue: at a card, "seen it, hated it honestly" and "already read it, loved it" only moved on
    chat = Chat(real_dm, "book")
    for text in ("I love Neil Gaiman", "I like The Hobbit", "I like Terry Pratchett"):
        chat.say(text)
    first = _card(chat.say("recommend something"))
    assert first is not None
    second = _card(chat.say("already read it, loved it"))
    assert chat.profile()[first] == "+" and second is not None and second != first
    chat.say("read that one, hated it honestly")
    assert chat.profile()[second] == "-"


@pytest.mark.parametrize(
    ("domain", "text", "expected"),
    [
        # issue: "i'm a big fan of stephen king" -> "I couldn't find that in my knowledge base"
        ("book", "i'm a big fan of neil gaiman", {"Neil Gaiman": "+"}),
        # issue: "i'm obsessed with radiohead, ok computer is a masterpiece" -> only Radiohead
        ("music", "i'm obsessed with nirvana, in utero is a masterpiece", {"Nirvana": "+", "In Utero": "+"}),
        # issue: "kid a and in rainbows r my fav albums" -> only In Rainbows
        ("music", "amnesiac and in rainbows r my fav albums", {"Amnesiac": "+", "In Rainbows": "+"}),
        # issue (real people's messages): "X and Y were giid", "love me some X"
        ("music", "blur and oasis were giid", {"Blur": "+", "Oasis": "+"}),
        ("music", "love me some radiohead", {"Radiohead": "+"}),
    ],
)
def test_likes_said_in_chat_words_are_stored(real_dm, domain, text, expected):
    chat = Chat(real_dm, domain)
    chat.say(text)
    assert chat.labels() == expected


def test_how_about_a_title_is_asked_about(real_dm):
    # issue (real people's messages): "How about X ?" was missed
    chat = Chat(real_dm, "music")
    reply = chat.say("How about Coldplay ?")
    assert isinstance(chat.state.pending, ConfirmQuestion) and "Coldplay" in reply.text
    chat.say("yes")
    assert chat.labels() == {"Coldplay": "+"}


def test_names_added_to_the_last_like_and_a_name_meant_instead(real_dm):
    chat = Chat(real_dm, "movie")
    chat.say("I love Collateral")
    chat.say("ronin too")
    assert chat.labels() == {"Collateral": "+", "Ronin": "+"}
    chat = Chat(real_dm, "movie")
    # "Which King Kong do you mean?" is open (three well-known films: "Heat" is taken since issue 22-C)
    chat.say("I love King Kong")
    chat.say("the insider too")  # no answer to it: more of the same opinion, and the question waits
    assert chat.labels() == {"The Insider": "+"}
    chat.say("1")
    assert chat.labels() == {"The Insider": "+", "King Kong": "+"}
    book = Chat(real_dm, "book")
    book.say("I hated Persuasion")
    book.say("sorry, I meant Mansfield Park")
    assert book.labels() == {"Mansfield Park": "-"}


def test_an_open_question_waits_for_its_answer(real_dm):
    # issue: at "Do you like Inglourious Basterds?", "no wait, i LIKED django unchained" disliked it
    chat = Chat(real_dm, "movie")
    chat.say("collateral")
    assert isinstance(chat.state.pending, ConfirmQuestion)
    reply = chat.say("no wait, i LIKED ronin")
    assert chat.labels() == {"Ronin": "+"}
    assert isinstance(chat.state.pending, ConfirmQuestion) and "Collateral" in reply.text  # asked again
    chat.say("no")
    assert chat.labels() == {"Ronin": "+", "Collateral": "-"}
