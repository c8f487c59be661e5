"""The refactoring check's comparison (tests/tools/same_behaviour.py) on small recorded folders."""

from __future__ import annotations

import json
from pathlib import Path

from tests.tools.same_behaviour import compare_check, diff_links, diff_turns, mask_line, report


def _write(folder: Path, *, stdout: str, turns: list[dict], links: list[dict], records: list[dict]) -> Path:
    (folder / "files").mkdir(parents=True)
    (folder / "meta.json").write_text(json.dumps({"exit_code": 0}), encoding="utf-8")
    (folder / "stdout.txt").write_text(stdout, encoding="utf-8")
    for name, rows in (("turns", turns), ("links", links), ("sentences", [])):
        (folder / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    (folder / "files" / "ours_movie_messages_nl.json").write_text(json.dumps(records), encoding="utf-8")
    return folder


def _turn(user: str, text: str, reply: str) -> dict:
    return {"user": user, "text": text, "payload": None, "reply": reply, "choices": [], "image": None}


def _link(text: str, qid: str, score: float) -> dict:
    mention = {"text": text, "start": 0, "end": len(text), "ambiguous": False, "partial": False}
    return {
        "domain": "movie",
        "text": text,
        "focus": None,
        "history": [],
        "mentions": [{**mention, "candidates": [[qid, score, True, []]]}],
    }


def test_timings_are_masked():
    line = "x.json: messages=3 msgs_per_s=812.4; index build 0.21 s; link latency mean=1.38 ms p95=4.20 ms"
    assert mask_line(line) == "x.json: messages=3 msgs_per_s=*; index build * s; link latency mean=* ms p95=* ms"
    assert mask_line("| messages per second | 357.9 |") == "| messages per second | * |"


def test_equal_recordings_are_equal_whatever_the_wall_clock(tmp_path):
    record = {"messageID": "1-1", "message": "hi", "intent": "start", "timestampEnd": 5}
    a = _write(
        tmp_path / "a",
        stdout="replay: msgs_per_s=10.0\n",
        turns=[_turn("u", "hi", "hello")],
        links=[_link("Up", "Q1", 0.9)],
        records=[record],
    )
    b = _write(
        tmp_path / "b",
        stdout="replay: msgs_per_s=99.0\n",
        turns=[_turn("u", "hi", "hello")],
        links=[_link("Up", "Q1", 0.9)],
        records=[{**record, "messageID": "1-2", "timestampEnd": 9}],
    )
    diff = compare_check("converse", a, b, show=5)
    assert diff.equal, diff.shown
    lines: list[str] = []
    assert report([diff], base=a, new=b, write=lines.append)
    assert lines[-1].startswith("same_behaviour: checks=1 equal=1 different=0")


def test_each_kind_of_difference_is_counted_and_shown(tmp_path):
    a = _write(
        tmp_path / "a",
        stdout="objects_f1=0.381\n",
        turns=[_turn("u", "I like Up", "Which Up?")],
        links=[_link("Up", "Q1", 0.9)],
        records=[{"message": "I like Up", "recognizedObjects": ""}],
    )
    b = _write(
        tmp_path / "b",
        stdout="objects_f1=0.390\n",
        turns=[_turn("u", "I like Up", "Stored Up")],
        links=[_link("Up", "Q2", 0.9)],
        records=[{"message": "I like Up", "recognizedObjects": "Q2+"}],
    )
    diff = compare_check("converse", a, b, show=5)
    assert diff.counts == {"stdout_lines": 2, "file_records": 1, "turns": 1, "links": 1, "sentences": 0}
    assert any("Which Up?" in line and "Stored Up" in line for line in diff.shown)
    lines: list[str] = []
    assert not report([diff], base=a, new=b, write=lines.append)
    assert lines[-1] == (
        "same_behaviour: checks=1 equal=0 different=1 stdout_lines=2 file_records=1 turns=1 links=1 sentences=0"
    )


def test_a_link_asked_in_one_run_only_is_a_difference(tmp_path):
    (tmp_path / "a.jsonl").write_text(json.dumps(_link("Up", "Q1", 0.9)) + "\n", encoding="utf-8")
    (tmp_path / "b.jsonl").write_text("", encoding="utf-8")
    (only,) = diff_links(tmp_path / "a.jsonl", tmp_path / "b.jsonl")
    assert "(not asked)" in only


def test_a_conversation_cut_short_names_its_first_missing_turn(tmp_path):
    rows = [_turn("u", "hi", "hello"), _turn("u", "I like Up", "Which Up?")]
    (tmp_path / "a.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    (tmp_path / "b.jsonl").write_text(json.dumps(rows[0]) + "\n", encoding="utf-8")
    (only,) = diff_turns(tmp_path / "a.jsonl", tmp_path / "b.jsonl")
    assert only.startswith("u turn 1 'I like Up'") and "(2 turns -> 1)" in only
