"""Issue 22, fourth round (22-O2), through the real dialog of ``corsbot chat``: a self-correction inside one message
("X, no wait I meant Y") revises that message's own earlier clause: only Y is stored, with X's opinion unless the
correction says its own; X is neither stored nor asked about; what earlier turns stored stays. Items and wordings of
no conversation set (skipped when the models and snapshots of ``$CORSBOT_HOME`` are not built)."""

from __future__ import annotations

import pytest

from tests.bot.real_dialog import Chat, real_dialog_manager


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    return real_dialog_manager(tmp_path_factory, "none")


@pytest.mark.parametrize(
    ("domain", "first", "kept", "message", "meant", "polarity", "not_meant"),
    [
        ("movie", "i like fight club", "Fight Club", "i hated titanic, oops i meant avatar", "Avatar", "-", "Titanic"),
        ("music", "i love coldplay", "Coldplay", "blur is awful, my bad i meant oasis", "Oasis", "-", "Blur"),
        (
            "book",
            "i love dune",
            "Dune",
            "i adore fantasy, wait i meant science fiction",
            "science fiction",
            "+",
            "fantasy",
        ),
        ("movie", "i love horror", "horror film", "i loved heat, no wait i meant alien", "Alien", "+", "Heat"),
    ],
)
def test_a_correction_inside_a_message_replaces_its_own_clause(
    real_dm, domain, first, kept, message, meant, polarity, not_meant
):
    chat = Chat(real_dm, domain)
    chat.say(first)
    reply = chat.say(message)
    labels = chat.labels()
    assert kept in labels, "the previous turn's preference stays"
    assert labels.get(meant) == polarity
    assert not any(not_meant.lower() in label.lower() for label in labels if label != meant)
    assert "Which" not in reply.text and "Removed" not in reply.text


def test_the_correction_says_its_own_opinion(real_dm):
    chat = Chat(real_dm, "movie")
    chat.say("i loved jaws, no wait, i hated alien")
    assert chat.labels() == {"Alien": "-"}


def test_an_addition_after_wait_is_no_correction(real_dm):
    chat = Chat(real_dm, "movie")
    chat.say("i loved jaws, wait, alien too")
    labels = chat.labels()
    assert labels.get("Jaws") == "+" and labels.get("Alien") == "+"


@pytest.mark.parametrize(
    ("domain", "first", "constraint", "correction", "meant", "polarity", "not_meant"),
    [
        ("book", "i love dune", "no fantasy please", "actualy i meant i dont like horror", "horror", "-", "fantasy"),
        ("movie", "i love alien", "no westerns", "oops i meant no musicals", "musical", "-", "Western"),
        (
            "book",
            "i love dune",
            "no romance please",
            "sorry i meant i love science fiction",
            "science fiction",
            "+",
            "romance",
        ),
    ],
)
def test_a_corrected_constraint_replaces_the_stored_one(
    real_dm, domain, first, constraint, correction, meant, polarity, not_meant
):
    # "no X" stored a dislike; "i meant <another clause>" puts its own opinion in its place (issue 22, 22-O2)
    chat = Chat(real_dm, domain)
    chat.say(first)
    chat.say(constraint)
    assert any(not_meant.lower() in label.lower() for label in chat.labels())
    chat.say(correction)
    labels = chat.labels()
    assert [p for label, p in labels.items() if meant.lower() in label.lower()] == [polarity]
    assert not any(not_meant.lower() in label.lower() for label in labels)
    assert len(labels) == 2


@pytest.mark.parametrize(
    ("domain", "first", "stored", "correction"),
    [
        ("music", "i love blur", "no jazz please", "hmm i meant no jazz this time"),
        ("movie", "i love alien", "no westerns", "my bad i meant no musicals this time"),
    ],
)
def test_a_constraint_for_now_said_in_place_of_a_stored_dislike_removes_it(real_dm, domain, first, stored, correction):
    chat = Chat(real_dm, domain)
    chat.say(first)
    chat.say(stored)
    assert len(chat.labels()) == 2
    reply = chat.say(correction)
    assert len(chat.labels()) == 1 and "this time" in reply.text
