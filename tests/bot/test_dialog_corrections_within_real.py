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
