"""Item and role disambiguation questions (F30, property_type_disambiguation) and their answers."""

from __future__ import annotations

import pytest

try:
    from conftest_entities import ENTRIES, Entry, FakeKB, fake_kb, linker  # noqa: F401 - fixtures
except ModuleNotFoundError:  # tests/nlu became a package
    from tests.nlu.conftest_entities import ENTRIES, Entry, FakeKB, fake_kb, linker  # noqa: F401 - fixtures

from nlu.disambiguation import (
    NONE_PAYLOAD,
    AnswerKind,
    QuestionKind,
    item_question,
    needs_role_question,
    parse_answer,
    role_label,
    role_question,
)


@pytest.fixture()
def avengers(linker, fake_kb):  # noqa: F811
    (mention,) = linker.link("I love the Avengers")
    return item_question(mention, fake_kb)


@pytest.fixture()
def cruise(linker):  # noqa: F811
    (mention,) = linker.link("I like Tom Cruise")
    return role_question(mention.candidates[0])


def test_item_question_lists_year_and_type(avengers):
    assert avengers.kind is QuestionKind.ITEM
    assert [o.display for o in avengers.options] == ["The Avengers (2012 film)", "The Avengers (1998 film)"]
    assert [o.value for o in avengers.options] == ["Q182218", "Q1125729"]
    assert all(len(o.payload.encode()) <= 64 for o in avengers.options)
    assert len(NONE_PAYLOAD.encode()) <= 64


@pytest.mark.parametrize(
    ("reply", "payload", "expected"),
    [
        ("", "d:2", "Q1125729"),
        (None, "d:1", "Q182218"),
        ("2", None, "Q1125729"),
        ("the second one", None, "Q1125729"),
        ("#1", None, "Q182218"),
        ("1998", None, "Q1125729"),
        ("the 2012 one", None, "Q182218"),
        ("The Avengers (1998 film)", None, "Q1125729"),
        ("the avengers 1998", None, "Q1125729"),
        ("The Avengers 2012 film", None, "Q182218"),
    ],
)
def test_item_answers(avengers, reply, payload, expected):
    answer = parse_answer(avengers, reply, payload=payload)
    assert answer.kind is AnswerKind.CHOSEN
    assert answer.value == expected


@pytest.mark.parametrize("reply", ["none of these", "None of them", "neither", "no", "nope", "other"])
def test_none_of_these(avengers, reply):
    assert parse_answer(avengers, reply).kind is AnswerKind.NONE
    assert parse_answer(avengers, None, payload=NONE_PAYLOAD).kind is AnswerKind.NONE


@pytest.mark.parametrize("reply", ["what is the weather", "I like Inception", "7", "2005", ""])
def test_unrelated_replies_are_unknown(avengers, reply):
    assert parse_answer(avengers, reply).kind is AnswerKind.UNKNOWN


def test_role_question_for_tom_cruise(linker, cruise):  # noqa: F811
    (mention,) = linker.link("I like Tom Cruise")
    assert needs_role_question(mention.candidates[0])
    assert cruise.kind is QuestionKind.ROLE
    assert cruise.subject == "Q37079"
    assert [o.display for o in cruise.options] == ["actor", "producer"]


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("actor", "P161"),
        ("as an actor", "P161"),
        ("Actor", "P161"),
        ("producer", "P162"),
        ("the producer", "P162"),
        ("2", "P162"),
        ("Like Producer", "P162"),
        ("acting", "P161"),
    ],
)
def test_role_answers(cruise, reply, expected):
    answer = parse_answer(cruise, reply)
    assert (answer.kind, answer.value) == (AnswerKind.CHOSEN, expected)


def test_role_none(cruise):
    assert parse_answer(cruise, "none of them").kind is AnswerKind.NONE


def test_items_and_single_role_need_no_role_question(linker):  # noqa: F811
    (film,) = linker.link("I like Inception")
    assert not needs_role_question(film.candidates[0])
    (actor,) = linker.link("I like the actor Tom Cruise")
    assert not needs_role_question(actor.candidates[0])


def test_person_question_shows_roles(linker, fake_kb):  # noqa: F811
    (mention,) = linker.link("I love Jackson")
    question = item_question(mention, fake_kb)
    displays = {o.value: o.display for o in question.options}
    assert displays["Q4465"] == "Peter Jackson (director, producer)"
    assert parse_answer(question, "Peter Jackson").value == "Q4465"
    assert parse_answer(question, "samuel l jackson").value == "Q172678"


def test_same_display_is_made_unique(linker, fake_kb):  # noqa: F811
    from nlu.linker import EntityLinker

    kb = FakeKB(
        ENTRIES
        + (
            Entry("Q1", "Crash", item=True, pop=50, year=2004, description="2004 film"),
            Entry("Q2", "Crash", item=True, pop=50, year=2004, description="2004 film"),
        )
    )
    (mention,) = EntityLinker(kb).link("I liked Crash")
    question = item_question(mention, kb)
    assert len({o.display for o in question.options}) == len(question.options)


def test_role_label_uses_the_schema_names():
    assert role_label("P57") == "director"
    assert role_label("P161") == "actor"
    assert "P99999" in role_label("P99999")


def test_a_reply_that_is_the_name_of_two_options_takes_the_first():
    # "Which 'night harbour'? 1. Night Harbour (1999 film) 2. Night Harbour: Return 3. Night Harbour (series)":
    # typing the name the first and the third share picks the first, ranked higher, instead of asking again
    # (issue 24: the released study's users typed the option they saw; the replay asked the same question twice)
    from nlu.disambiguation import parse_option

    options = [
        ["Night Harbour", "Night Harbour (1999 film)", "1999"],
        ["Night Harbour: Return", "Night Harbour: Return (2003 film)", "2003"],
        ["Night Harbour", "Night Harbour (series)", "series"],
    ]
    assert parse_option("item", "Night harbour", None, options) == 0
    assert parse_option("item", "night harbour!", None, options) == 0
    assert parse_option("item", "yeah night harbour is great", None, options) is None  # words both have
    assert parse_option("item", "Night Harbour", None, options, listed=False) is None  # no list was shown
