"""Dataset record I/O: exact round-trip of the released files and lenient reading of others."""

from __future__ import annotations

import json
import pickle

import pytest

from corsbot_errors import CorsbotError
from logs.record import (
    DATASET_FIELDS,
    ORIGINAL_USER_ID_KEY,
    LogRecord,
    RecordError,
    conversations,
    read_records,
    user_id_from,
    write_records,
)

FULL = {
    "messageID": "11365",
    "userID": 1,
    "message": "/start",
    "timestampStart": 1523436724000,
    "timestampEnd": 1523436727000,
    "intent": "start",
    "contexts": "",
    "toCheck": True,
    "recognizedObjects": "Q83495+, Q2263-",
    "events": "question, recommendation",
    "pagerankCycle": 2,
    "numberRecommendationList": 1,
    "interactionType": "NL",
}


def test_released_files_round_trip_exactly(released_paths):
    total = 0
    for path in released_paths:
        original = json.loads(path.read_text(encoding="utf-8"))
        result = read_records(path)
        assert result.problems == ()
        back = [record.to_json() for record in result.records]
        assert back == original, path
        # same key order and same JSON types, not just equal values
        for ours, theirs in zip(back, original, strict=True):
            assert list(ours) == list(theirs)
            assert [type(v) for v in ours.values()] == [type(v) for v in theirs.values()]
        total += len(back)
    assert total == 9276


def test_released_file_write_then_read_gives_equal_records(released, tmp_path):
    path, records = next(iter(released.items()))
    out = tmp_path / "sub" / "copy.json"
    write_records(out, records)
    assert read_records(out).records == records
    assert json.loads(out.read_text(encoding="utf-8")) == json.loads(path.read_text(encoding="utf-8"))
    assert not [p for p in out.parent.iterdir() if p.name.endswith(".tmp")]


def test_to_json_has_the_13_keys_in_dataset_order():
    record = LogRecord.from_json(FULL)
    assert tuple(record.to_json()) == DATASET_FIELDS
    assert record.to_json() == FULL
    assert record.recognized_objects == "Q83495+, Q2263-"
    assert record.pagerank_cycle == 2 and record.number_recommendation_list == 1


def test_missing_contexts_and_other_fields_get_defaults():
    obj = {k: v for k, v in FULL.items() if k not in ("contexts", "timestampEnd", "toCheck", "interactionType")}
    record = LogRecord.from_json(obj)
    assert record.contexts == ""
    assert record.timestamp_end == record.timestamp_start == 1523436724000
    assert record.to_check is True
    assert record.interaction_type == ""
    assert tuple(record.to_json()) == DATASET_FIELDS


def test_extra_fields_are_kept_frozen_and_written_back_after_the_dataset_keys():
    obj = dict(FULL, sessionId="abc", score=[1, 2])
    record = LogRecord.from_json(obj)
    assert dict(record.extra) == {"sessionId": "abc", "score": [1, 2]}
    with pytest.raises(TypeError):
        record.extra["x"] = 1  # type: ignore[index]
    assert list(record.to_json()) == [*DATASET_FIELDS, "sessionId", "score"]
    assert record.to_json() == obj
    assert hash(record) == hash(LogRecord.from_json(obj))
    assert pickle.loads(pickle.dumps(record)) == record


@pytest.mark.parametrize(
    ("message_id", "expected"),
    [("abc-def/1", "abc-def/1"), (12, "12"), (1.5, "1.5"), ("", "")],
)
def test_message_id_of_any_type_becomes_a_string(message_id, expected):
    assert LogRecord.from_json(dict(FULL, messageID=message_id)).message_id == expected


def test_string_numbers_and_lists_are_accepted():
    record = LogRecord.from_json(
        dict(
            FULL,
            userID="42",
            timestampStart="1523436724000",
            pagerankCycle=3.0,
            toCheck="false",
            events=["question", "recommendation"],
        )
    )
    assert record.user_id == 42
    assert record.timestamp_start == 1523436724000
    assert record.pagerank_cycle == 3
    assert record.to_check is False
    assert record.events == "question, recommendation"
    assert ORIGINAL_USER_ID_KEY not in record.extra


def test_non_numeric_user_id_gets_a_stable_negative_int_and_keeps_the_original():
    record = LogRecord.from_json(dict(FULL, userID="alice"))
    assert record.user_id == user_id_from("alice") < 0
    assert record.user_id != user_id_from("bob")
    assert record.extra[ORIGINAL_USER_ID_KEY] == "alice"
    assert record.to_json()[ORIGINAL_USER_ID_KEY] == "alice"
    # stable: a fixed value, not Python's randomized hash
    assert user_id_from("alice") == -41396150680840450


@pytest.mark.parametrize(
    ("obj", "reason"),
    [
        ([1, 2], "not a JSON object"),
        ("text", "not a JSON object"),
        ({k: v for k, v in FULL.items() if k != "userID"}, "userID"),
        (dict(FULL, userID=None), "userID"),
        (dict(FULL, userID=""), "userID"),
        (dict(FULL, userID=True), "userID"),
        ({k: v for k, v in FULL.items() if k != "message"}, "message"),
        (dict(FULL, message=5), "message"),
        (dict(FULL, timestampStart="yesterday"), "timestampStart"),
        (dict(FULL, toCheck="maybe"), "toCheck"),
        (dict(FULL, events={"a": 1}), "events"),
    ],
)
def test_truly_unusable_records_raise_record_error(obj, reason):
    with pytest.raises(RecordError, match=reason):
        LogRecord.from_json(obj)


def test_null_message_reads_as_empty():
    assert LogRecord.from_json(dict(FULL, message=None)).message == ""


def test_read_records_skips_unusable_records_and_names_them(tmp_path):
    path = tmp_path / "other.json"
    good = {k: v for k, v in FULL.items() if k != "contexts"}
    path.write_text(json.dumps([good, "junk", dict(FULL, messageID="9", userID=None), dict(FULL, x=1)]))
    result = read_records(path)
    assert len(result.records) == 2
    assert result.records[1].extra == {"x": 1}
    assert len(result.problems) == 2
    assert "record 1" in result.problems[0] and str(path) in result.problems[0]
    assert "record 2 (messageID '9')" in result.problems[1]


@pytest.mark.parametrize(
    ("content", "reason"),
    [(None, "no such file"), ("{not json", "not valid JSON"), ('{"a": 1}', "expected a JSON array")],
)
def test_read_records_file_errors_are_clear(tmp_path, content, reason):
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(RecordError, match=reason) as info:
        read_records(path)
    assert str(path) in str(info.value)
    assert isinstance(info.value, CorsbotError)


def test_conversations_group_by_user_and_sort_stably():
    def rec(mid, user, ts):
        return LogRecord.from_json(dict(FULL, messageID=mid, userID=user, timestampStart=ts, timestampEnd=ts))

    records = [rec("a", 2, 30), rec("b", 1, 20), rec("c", 2, 10), rec("d", 2, 30), rec("e", 1, 20)]
    conv = conversations(records)
    assert list(conv) == [1, 2]
    assert [r.message_id for r in conv[1]] == ["b", "e"]
    assert [r.message_id for r in conv[2]] == ["c", "a", "d"]


def test_released_conversation_count(released):
    users = sum(len(conversations(records)) for records in released.values())
    assert users == sum(len({r.user_id for r in records}) for records in released.values())
    assert users > 100
