"""``corsbot rec audit`` end to end on the tiny fixture KB: the dialog's handlers render, the audit counts."""

from __future__ import annotations

import json
import re
import shutil

from bot import cli


def _record(mid, user, objects):
    return {
        "messageID": str(mid),
        "userID": user,
        "message": "x",
        "timestampStart": mid,
        "timestampEnd": mid,
        "intent": "preference",
        "contexts": "",
        "toCheck": False,
        "recognizedObjects": objects,
        "events": "preference",
        "pagerankCycle": 0,
        "numberRecommendationList": 0,
        "interactionType": "NL",
    }


def test_audit_prints_the_summary_line_and_writes_its_report(tiny_snapshots, tmp_path, monkeypatch, capsys):
    home = tmp_path / "home"
    shutil.copytree(tiny_snapshots["movie"], home / "kb" / "movie")
    folder = tmp_path / "shared" / "converse" / "movie"
    folder.mkdir(parents=True)
    (folder / "messages_nl.json").write_text(
        json.dumps(
            [
                _record(1, 1, "Q83495+, Q43416+, Q130232+, Q900004+"),  # The Matrix, Keanu Reeves, drama film
                _record(2, 2, "Q189600+, Q9545711+, Q471839+, Q172241-"),
            ]
        )
    )
    monkeypatch.setenv("CORSBOT_HOME", str(home))
    monkeypatch.setenv("CORSBOT_SHARED", str(tmp_path / "shared"))
    assert cli.main(["rec", "audit", "--domains", "movie", "--sessions", "12"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert re.fullmatch(
        r"audit: sessions=12 wrong_kind=0 bare_ids=0 false_explanations=0 weak_only_explanations=0 duplicate_options=0"
        r" constraint_violations=0 repeats=0 creator_missing=0",
        lines[-1],
    ), lines
    report = json.loads((home / "reports" / "rec" / "audit.json").read_text())
    assert report["movie"]["sessions"] == 12
    assert (home / "reports" / "rec" / "audit.md").read_text().startswith("# Recommendation audit")
