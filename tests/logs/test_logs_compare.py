"""Replay comparison figures on hand-built records, merging, and the written report."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from logs.compare import CompareError, IntentStat, compare, merge
from logs.report import ReportError, write_report
from tests.logs.logs_testkit import make_record

PQD = "question, preference, disambiguation"


@pytest.fixture
def pair():
    """(ours, logged): 6 messages of user 1, hand-checked figures below."""
    logged = [
        make_record(ts=0, intent="start", to_check=True),
        make_record(ts=1, intent="preference", events=PQD),
        make_record(ts=2, intent="preference - disambiguation", events="preference", objects="Q1+"),
        make_record(ts=3, intent="preference", events="preference", objects="Q2+, Q3-"),
        make_record(ts=4, intent="request_recommendation", events="question, recommendation"),
        make_record(ts=5, intent="Default Fallback Intent", to_check=True),
    ]
    ours = [
        replace(logged[0]),  # same
        replace(logged[1], recognized_objects="Q1+"),  # object one turn earlier
        replace(logged[2], intent="preference", recognized_objects="", events="preference"),
        replace(logged[3], recognized_objects="Q2+, Q3+, Q4+", events="disambiguation, question, preference"),
        replace(logged[4], events="recommendation, question", to_check=True),
        replace(logged[5], intent="start", to_check=False),
    ]
    return ours, logged


def test_figures_are_exact(pair):
    ours, logged = pair
    c = compare(ours, logged)
    assert c.messages == 6
    assert c.intent_matches == 4 and c.intent_agreement == pytest.approx(4 / 6)
    # validated = logged toCheck False: records 1..4, of which 3 have the same intent
    assert c.validated == 4 and c.intent_agreement_validated == pytest.approx(3 / 4)
    # events: 0 same, 1 same, 2 same, 3 differs (set), 4 same (order ignored), 5 same
    assert c.events_matches == 5 and c.events_agreement == pytest.approx(5 / 6)
    assert c.to_check_matches == 4 and c.to_check_agreement == pytest.approx(4 / 6)
    assert c.tocheck_agreement == c.to_check_agreement
    # tasks: preference task {1,2}: gold {Q1+}, ours {Q1+} (one turn earlier) -> TP 1
    #        preference task {3}: gold {Q2+, Q3-}, ours {Q2+, Q3+, Q4+} -> TP 1, FP 2, FN 1
    assert (c.object_tasks, c.objects_tp, c.objects_fp, c.objects_fn) == (2, 2, 2, 1)
    assert c.objects_precision == pytest.approx(0.5)
    assert c.objects_recall == pytest.approx(2 / 3)
    assert c.objects_f1 == pytest.approx(4 / 7)
    assert c.summary_line(exceptions=0) == (
        "replay: messages=6 exceptions=0 intent_agreement=0.667 intent_agreement_validated=0.750"
        " events_agreement=0.833 objects_f1=0.571 tocheck_agreement=0.667"
    )


def test_per_intent_summary(pair):
    ours, logged = pair
    stats = {s.intent: s for s in compare(ours, logged).per_intent}
    assert stats["preference"] == IntentStat("preference", 2, 2, ())
    assert stats["preference - disambiguation"] == IntentStat("preference - disambiguation", 1, 0, (("preference", 1),))
    assert stats["Default Fallback Intent"].agreement == 0.0
    assert stats["Default Fallback Intent"].confusions == (("start", 1),)
    assert [s.intent for s in compare(ours, logged).per_intent][0] == "preference"  # most frequent first


def test_merge_sums_counts_exactly(pair):
    ours, logged = pair
    other_logged = [replace(r, user_id=2) for r in logged]
    other_ours = [replace(r, user_id=2) for r in ours]
    merged = merge([compare(ours, logged), compare(other_ours, other_logged)])
    whole = compare(ours + other_ours, logged + other_logged)
    assert merged == whole
    assert merged.messages == 12 and merged.objects_tp == 4
    assert merge([]).messages == 0


def test_empty_and_mismatched_inputs(pair):
    empty = compare([], [])
    assert (empty.intent_agreement, empty.objects_f1, empty.objects_precision, empty.object_tasks) == (0.0, 0.0, 0.0, 0)
    ours, logged = pair
    with pytest.raises(CompareError, match="6 replayed records with 5 logged"):
        compare(ours, logged[:5])


def test_identical_records_agree_fully(released):
    records = next(iter(released.values()))
    c = compare(records, records)
    assert (c.intent_agreement, c.events_agreement, c.objects_f1, c.to_check_agreement) == (1.0, 1.0, 1.0, 1.0)
    assert c.object_tasks > 100


def test_write_report(pair, tmp_path):
    ours, logged = pair
    c = compare(ours, logged)
    paths = write_report(c, tmp_path / "rep", extra={"messages_per_second": 250.5, "exceptions": 0}, parts={"f1": c})
    data = json.loads(paths["json"].read_text(encoding="utf-8"))
    assert data["figures"]["intent_agreement"] == pytest.approx(4 / 6)
    assert data["figures"]["objects_f1"] == pytest.approx(4 / 7)
    assert data["extra"] == {"messages_per_second": 250.5, "exceptions": 0}
    assert data["parts"]["f1"]["messages"] == 6
    assert data["per_intent"][0]["intent"] == "preference"
    md = paths["markdown"].read_text(encoding="utf-8")
    assert "| intent agreement | 0.667 |" in md
    assert "| messages per second | 250.5 |" in md
    assert "| `Default Fallback Intent` | 1 | 0.000 | `start` (1) |" in md
    assert paths["chart"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_write_report_errors_are_clear(pair, tmp_path):
    ours, logged = pair
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ReportError, match="cannot create"):
        write_report(compare(ours, logged), blocker / "rep", extra={})
    with pytest.raises(ReportError, match="JSON"):
        write_report(compare(ours, logged), tmp_path / "rep", extra={"x": object()})
