"""Issue 22 (22-O3) through the real dialog of ``corsbot chat``: corrections of a person just rated, said by
reference, also while the bot asks which role was meant (skipped when the models and snapshots of
``$CORSBOT_HOME`` are not built), with other people and other wordings than the conversation sets'."""

from __future__ import annotations

import pytest

from tests.bot.real_dialog import Chat, real_dialog_manager


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    """The dialog manager as ``corsbot chat`` builds it (no suggestions of items to rate), on a scratch database."""
    return real_dialog_manager(tmp_path_factory, "none")


def test_a_correction_at_an_open_role_question_revises_the_person_asked_about(real_dm):
    chat = Chat(real_dm, "music")
    if "artist" in chat.say("i love beyonce").text:
        chat.say("artist")
    reply = chat.say("i like Shakira")
    assert "role" in reply.text or "artist" in reply.text
    chat.say("non sorry, i meant i DON'T like her, too loud")
    assert chat.labels().get("Shakira") == "-" and chat.labels().get("Beyoncé") == "+"


def test_a_disliked_person_by_correction_at_a_role_question_has_no_work_in_a_list(real_dm):
    chat = Chat(real_dm, "music")
    chat.say("i love adele and norah jones")
    chat.say("Madonna i like too")
    chat.say("pardon, i wanted to say i do NOT like her, far too much noise")
    assert chat.labels().get("Madonna") == "-"
    reply = chat.say("recommend me some songs")
    assert "Madonna" not in reply.text


def test_a_correction_whose_first_sentence_names_nothing_revises_the_person_just_stored(real_dm):
    chat = Chat(real_dm, "music")
    if "artist" in chat.say("I really dislike Adele").text:
        chat.say("artist")
    chat.say("hold on, I wrote that wrong, I meant I love her. Hello is gorgeous")
    assert chat.labels().get("Adele") == "+"


def test_a_typo_correction_with_a_new_title_revises_the_person_and_keeps_the_title(real_dm):
    chat = Chat(real_dm, "music")
    if "artist" in chat.say("not a fan of Shakira").text:
        chat.say("artist")
    chat.say("wait, no, typo, I meant I AM a fan. Hips Don't Lie is a banger")
    labels = chat.labels()
    assert labels.get("Shakira") == "+" and labels.get("Hips Don't Lie") == "+"


def test_a_name_set_aside_then_given_its_own_opinion_takes_it(real_dm):
    chat = Chat(real_dm, "book")
    chat.say("I loved Emma")
    reply = chat.say("no wait, I meant Persuasion, not Emma. Emma actually annoyed me")
    labels = chat.labels()
    assert labels.get("Emma") == "-" and labels.get("Persuasion") == "+"
    assert "Removed" not in reply.text


def test_a_name_set_aside_with_no_opinion_of_its_own_is_removed_once(real_dm):
    chat = Chat(real_dm, "book")
    chat.say("I loved Emma")
    reply = chat.say("oh sorry, i meant Persuasion, not Emma")
    assert "Emma" not in chat.labels() and chat.labels().get("Persuasion") == "+"
    assert reply.text.count("Removed") <= 1


def test_a_reversal_that_names_the_items_turns_them_around_whatever_its_clauses_sound_like(real_dm):
    chat = Chat(real_dm, "book")
    chat.say("dracula 👎 the hobbit 👍")
    chat.say("oops other way round!! i LIKED dracula, the hobbit was the one i gave up on")
    labels = chat.labels()
    assert labels.get("Dracula") == "+" and [p for k, p in labels.items() if k.startswith("The Hobbit")] == ["-"]
