"""Issue 22, fourth round (22-O), through the real dialog of ``corsbot chat``: corrections that revise what was
stored, with other items and other wordings than the conversation sets' (skipped when the models and snapshots of
``$CORSBOT_HOME`` are not built). A self-correction naming a stored entity with no opinion withdraws the stored one
and asks again; one that sets a name aside ("it was A ..., not B") removes B and stores A's own opinion; without a
correction, "not B" is an opinion of B as before."""

from __future__ import annotations

import pytest

from tests.bot.real_dialog import Chat, real_dialog_manager


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    return real_dialog_manager(tmp_path_factory, "none")


def test_a_correction_with_no_opinion_withdraws_the_stored_one_and_asks(real_dm):
    chat = Chat(real_dm, "movie")
    chat.say("i didn't like the revenant, too slow")
    assert "The Revenant" in chat.labels()
    reply = chat.say("actually scratch that, the revenant was fine, I just watched it on a plane")
    assert "The Revenant" not in chat.labels()
    assert "Did you like The Revenant" in reply.text
    chat.say("yes")
    assert chat.labels().get("The Revenant") == "+"


@pytest.mark.parametrize(
    ("domain", "first", "correction", "meant", "polarity", "not_meant"),
    [
        ("music", "i can't stand coldplay", "sorry, it was U2 I can't stand, not coldplay", "U2", "-", "Coldplay"),
        ("music", "i love radiohead", "oops, it was Muse i loved, not radiohead", "Muse", "+", "Radiohead"),
        (
            "movie",
            "prometheus bored me",
            "no wait, it was alien that bored me, not prometheus",
            "Alien",
            "-",
            "Prometheus",
        ),
    ],
)
def test_a_name_set_aside_by_a_correction_is_removed(real_dm, domain, first, correction, meant, polarity, not_meant):
    chat = Chat(real_dm, domain)
    chat.say(first)
    assert not_meant in chat.labels()
    chat.say(correction)
    labels = chat.labels()
    assert not_meant not in labels and labels.get(meant) == polarity


def test_not_b_without_a_correction_is_an_opinion_of_b(real_dm):
    chat = Chat(real_dm, "movie")
    chat.say("I loved Heat, not Ronin")
    assert chat.labels().get("Ronin") == "-"


def test_too_harsh_on_a_name_takes_its_dislike_back(real_dm):
    chat = Chat(real_dm, "music")
    chat.say("pulp are so boring")
    assert chat.labels().get("Pulp") == "-"
    reply = chat.say("ok i was too harsh on pulp, common people is a tune")
    labels = chat.labels()
    assert "Pulp" not in labels and labels.get("Common People") == "+" and "took that back" in reply.text
