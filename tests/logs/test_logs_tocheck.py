"""The toCheck task heuristic: each rule on a hand-built conversation, and the released files."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.cli import main
from logs.record import write_records
from logs.tocheck import TaskKind, compute_to_check, split_tasks
from tests.logs.logs_testkit import make_record

Q = "question"
PQD = "question, preference, disambiguation"
PQD2 = "preference, question, disambiguation"
RQ = "question, recommendation"
RQ2 = "recommendation, question"
RQP = "recommendation, question, preference"
FIN = "recommendation, finished_recommendation"
PREF_CTX = "property_type_disambiguation, preference-followup"


def conv(*specs):
    """Records of user 1 from ``(intent, events[, objects])`` tuples, one second apart."""
    return [
        make_record(user=1, ts=t, intent=spec[0], events=spec[1], objects=spec[2] if len(spec) > 2 else "")
        for t, spec in enumerate(specs)
    ]


def flags(records):
    return "".join("T" if f else "." for f in compute_to_check(records))


def test_plain_preference_and_start():  # P1, O1
    records = conv(("start", ""), ("preference", "preference", "Q1+"), ("preference", "preference"))
    assert flags(records) == "T.."


def test_disambiguation_resolved_within_two_questions_is_clean():  # P2
    records = conv(
        ("preference", PQD),
        ("preference - disambiguation", PQD2),
        ("preference - disambiguation", "preference", "Q2+"),
        ("preference", PQD),
        ("preference - disambiguation", "preference", "Q3+"),
    )
    assert flags(records) == "....."


def test_three_questions_means_struggling():  # P2
    records = conv(
        ("preference", PQD),
        ("preference - disambiguation", PQD2),
        ("preference - disambiguation", PQD2),
        ("preference - disambiguation", "preference", "Q2+"),
    )
    assert flags(records) == "TTTT"


def test_skipped_or_interrupted_disambiguation_and_orphan_answers():  # P3, P4
    records = conv(
        ("preference", PQD),
        ("skip", "preference"),
        ("preference", PQD),
        ("start", ""),
        ("preference - disambiguation", "preference", "Q5+"),
        ("preference", "preference", "Q6+"),
        ("preference - disambiguation", "preference", "Q6+"),  # right after a resolution: fine
    )
    assert flags(records) == "TTTTT.."


def test_recommendation_list_items_are_judged_one_by_one():  # R1, R2, R3
    records = conv(
        ("request_recommendation", "recommendation"),  # refused
        ("request_recommendation", RQ),
        ("request_recommendation - why", RQ2),
        ("request_recommendation - preference", RQP, "Q7+"),  # item 1 rated
        ("request_recommendation - fallback", RQ2),
        ("request_recommendation - skip", RQ2),  # item 2 tainted by the fallback
        ("smalltalk.appraisal.good", RQ2),  # smalltalk inside the list
        ("request_recommendation - preference", RQP, "Q8-"),  # item 3 tainted
        ("request_recommendation - details", RQ2),
        ("request_recommendation - skip", FIN),  # item 4, list finished
        ("show_profile", ""),
    )
    assert flags(records) == "T...TTTT..."
    tasks = split_tasks(records)
    assert [t.kind for t in tasks].count(TaskKind.RECOMMENDATION) == 5
    assert [(t.members, t.rule) for t in tasks if t.kind is TaskKind.RECOMMENDATION] == [
        ((0,), "R1"),
        ((1, 2, 3), "R2"),
        ((4, 5), "R3"),
        ((6, 7), "R3"),
        ((8, 9), "R2"),
    ]


def test_stop_and_unrated_items_fail_but_rated_items_stay_clean():  # R3, R4
    records = conv(
        ("request_recommendation", RQ),
        ("request_recommendation - skip", RQ2),
        ("request_recommendation - why", RQ2),
        ("request_recommendation - stop", "recommendation"),
        ("request_recommendation", RQ),
        ("request_recommendation - preference", RQP, "Q9+"),
        ("request_recommendation - stop", "recommendation"),
        ("request_recommendation", RQ),
        ("request_recommendation - details", RQ2),
        ("preference", "preference", "Q10+"),
    )
    assert flags(records) == "..TT..TTT."


def test_list_resumed_after_an_interruption_taints_the_item():  # R3, R5
    records = conv(
        ("request_recommendation", RQ),
        ("request_recommendation - skip", RQ2),
        ("start", ""),
        ("request_recommendation - preference", RQP, "Q1+"),
        ("request_recommendation - preference", RQP, "Q2+"),
        ("request_recommendation - skip", FIN),
        ("request_recommendation - why", RQ2),  # orphan: no list open
    )
    assert flags(records) == "..TT..T"


def test_profile_changes():  # S1
    records = conv(
        ("show_profile", ""),
        ("show_profile - delete_preference", "preference"),
        ("preference", "preference", "Q1+"),
        ("show_profile", ""),
        ("show_profile - delete_preference", "preference"),
        ("Default Fallback Intent", ""),
        ("show_profile", ""),
        ("show_profile - help", ""),
        ("reset_profile", Q),
    )
    assert flags(records) == "....TT.TT"


def test_users_are_separated_and_input_order_is_kept():
    a = conv(("preference", PQD), ("preference - disambiguation", "preference", "Q1+"))
    b = [make_record(user=2, ts=t, intent="start") for t in range(2)]
    mixed = [b[1], a[1], b[0], a[0]]
    assert compute_to_check(mixed) == [True, False, True, False]
    shuffled = list(mixed)
    random.Random(3).shuffle(shuffled)
    expected = {id(r): f for r, f in zip(mixed, compute_to_check(mixed), strict=True)}
    assert compute_to_check(shuffled) == [expected[id(r)] for r in shuffled]
    assert compute_to_check([]) == []


def test_every_message_is_in_exactly_one_task(released):
    from logs.record import conversations

    records = next(iter(released.values()))
    for conversation in conversations(records).values():
        members = sorted(m for task in split_tasks(conversation) for m in task.members)
        assert members == list(range(len(conversation)))


def test_released_agreement_is_at_least_095(released):
    total = same = 0
    for records in released.values():
        computed = compute_to_check(records)
        file_same = sum(c == r.to_check for c, r in zip(computed, records, strict=True))
        assert file_same / len(records) >= 0.95
        total += len(records)
        same += file_same
    assert total == 9276
    assert same / total == pytest.approx(0.971, abs=0.0015)


def test_cli_tocheck_last_line(tmp_path, capsys):
    records = conv(("start", ""), ("preference", "preference", "Q1+"))
    records = [replace(record, to_check=True) for record in records]  # start agrees, preference not
    path = tmp_path / "log.json"
    write_records(path, records)
    assert main(["logs", "tocheck", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "tocheck: messages=2 agreement=0.500"
    assert lines[0] == f"{path}: messages=2 agreement=0.500"


def test_cli_tocheck_missing_file_is_one_clear_line(tmp_path, capsys):
    assert main(["logs", "tocheck", str(tmp_path / "nope.json")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no such file" in err[0]
