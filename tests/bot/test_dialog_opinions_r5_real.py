"""Issue 22, fifth round (22-O), through the real dialog of ``corsbot chat`` (skipped when the models and snapshots
are not built), with other items and wordings than the conversation sets': a like said with doubt is asked about,
a take-back naming nothing withdraws what the last turn stored ("scratch that": no band "Skratch"), a non-native
"non" opens a correction, and a fan noun ("horror buff here") is a like."""

from __future__ import annotations

import pytest

from tests.bot.real_dialog import Chat, real_dialog_manager


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    """The dialog manager as ``corsbot chat`` builds it, without suggestions of items to rate."""
    return real_dialog_manager(tmp_path_factory, "movie=none,book=none,music=none")


@pytest.mark.parametrize(
    ("domain", "text", "label"),
    [
        ("book", "I also read Moby Dick ages ago but honestly I barely remember it", "Moby-Dick"),
        ("book", "Ulysses is next on my to-read pile, is it worth it?", "Ulysses"),
        ("book", "I think I enjoyed Dracula, not completely sure though", "Dracula"),
    ],
)
def test_a_like_said_with_doubt_is_asked_about(real_dm, domain, text, label):
    chat = Chat(real_dm, domain)
    reply = chat.say(text)
    assert chat.profile() == {}
    assert label in reply.text and "?" in reply.text


@pytest.mark.parametrize("withdrawal", ["scratch that", "undo my last answer", "oops, scratch that last one"])
def test_a_take_back_naming_nothing_withdraws_the_last_turn(real_dm, withdrawal):
    chat = Chat(real_dm, "book")
    chat.say("i loved the hobbit")
    chat.say("i really liked dune and emma")
    assert len(chat.profile()) == 3
    chat.say(withdrawal)
    assert set(chat.labels()) == {"The Hobbit"}


def test_a_take_back_then_a_name_is_a_substitution_not_a_title(real_dm):
    chat = Chat(real_dm, "movie")
    chat.say("i love ronin")
    chat.say("scratch that, i meant jaws")
    labels = chat.labels()
    assert labels.get("Jaws") == "+" and not any("cratch" in label for label in labels)


def test_a_non_native_no_opens_a_correction(real_dm):
    chat = Chat(real_dm, "music")
    chat.say("i love adele")
    chat.say("non sorry, i wanted to say i DON'T like her")
    assert chat.labels() == {"Adele": "-"}


@pytest.mark.parametrize(
    ("domain", "text", "label"),
    [("movie", "big comedy nerd here", "comedy film"), ("music", "jazz buff here 🎷", "jazz")],
)
def test_a_fan_noun_is_a_like(real_dm, domain, text, label):
    chat = Chat(real_dm, domain)
    chat.say(text)
    assert chat.labels().get(label) == "+"


@pytest.mark.parametrize("reversal", ["oops, other way round", "wait no, vice versa", "sorry i got them backwards lol"])
def test_opinions_said_the_wrong_way_round_are_turned_around(real_dm, reversal):
    chat = Chat(real_dm, "movie")
    chat.say("i love jaws")
    chat.say("heat was great but ronin bored me")
    before = chat.profile()
    chat.say(reversal)
    after = chat.profile()
    assert {q: p for q, p in after.items() if before.get(q) != p} == {
        q: ("-" if p == "+" else "+") for q, p in before.items() if chat.kb.label(q) != "Jaws"
    }
    assert "Vice Versa" not in chat.labels()


def test_a_reversal_with_nothing_just_said_changes_nothing(real_dm):
    chat = Chat(real_dm, "book")
    reply = chat.say("other way round")
    assert chat.profile() == {} and "didn't get" in reply.text
