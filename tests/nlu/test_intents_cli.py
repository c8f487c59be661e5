"""``corsbot nlu train`` / ``nlu evaluate`` on tiny dataset-format files, and record -> example glue."""

from __future__ import annotations

import json
import re

import pytest

from bot.cli import main
from bot.cli.intents import examples_from_files
from nlu.intents import IntentRecognizer


def _inline_training():
    """INLINE_TRAINING of tests/nlu/conftest.py, by path: the bare module name ``conftest`` can be
    another folder's conftest, depending on which tests pytest collected first."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("_nlu_conftest", Path(__file__).with_name("conftest.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.INLINE_TRAINING


INLINE_TRAINING = _inline_training()

LAST_LINE = re.compile(
    r"^nlu: accuracy=(\d\.\d{3}) accuracy_validated=(\d\.\d{3}) macro_f1=(\d\.\d{3}) "
    r"baseline_accuracy=(\d\.\d{3}) baseline_accuracy_validated=(\d\.\d{3}) "
    r"probe_accuracy=(\d\.\d{3}) probe_agreement=(\d\.\d{3})$"
)


def _record(mid, user, text, ts, intent, contexts, events="", to_check=False):
    return {
        "messageID": str(mid),
        "userID": user,
        "message": text,
        "timestampStart": ts,
        "timestampEnd": ts,
        "intent": intent,
        "contexts": contexts,
        "toCheck": to_check,
        "recognizedObjects": "",
        "events": events,
        "pagerankCycle": 0,
        "numberRecommendationList": 0,
        "interactionType": "NL",
    }


def _dataset(path, users=10):
    """A dataset file: each user says every inline phrase once, the previous record setting the
    contexts the phrase needs (records of different users interleaved, as in the released files)."""
    records = []
    mid = 0
    for u in range(1, users + 1):
        ts = 1_600_000_000_000 + u
        for intent, contexts, phrases in INLINE_TRAINING:
            for text in phrases:
                mid += 1
                # a set-up record whose output contexts are the phrase's input contexts
                records.append(
                    _record(
                        mid, u, "/start" if not contexts else "set up", ts, "start", ", ".join(contexts), "question"
                    )
                )
                ts += 1000
                mid += 1
                records.append(_record(mid, u, text, ts, intent, "", "", to_check=(mid % 3 == 0)))
                ts += 1000
    records.sort(key=lambda r: (r["timestampStart"] // 7000, r["userID"]))
    path.write_text(json.dumps(records))
    return path


@pytest.fixture(scope="module")
def tiny_file(tmp_path_factory):
    folder = tmp_path_factory.mktemp("data") / "movie"
    folder.mkdir()
    return _dataset(folder / "messages_nl.json")


def test_examples_take_the_previous_records_state(tmp_path):
    path = tmp_path / "book" / "messages_nl.json"
    path.parent.mkdir()
    path.write_text(
        json.dumps(
            [
                _record(
                    2,
                    7,
                    "skip",
                    2000,
                    "request_recommendation - skip",
                    "request_recommendation-followup",
                    "recommendation",
                ),
                _record(
                    1,
                    7,
                    "recommend me",
                    1000,
                    "request_recommendation",
                    "request_recommendation-followup",
                    "question, recommendation",
                    to_check=True,
                ),
                _record(3, 8, "hi", 1500, "smalltalk.greetings.hello", ""),
            ]
        )
    )
    examples, info, problems = examples_from_files([path])
    assert problems == []
    assert info[0]["records"] == 3 and len(info[0]["sha256"]) == 64
    by_text = {e.text: e for e in examples}
    assert by_text["recommend me"].contexts == () and by_text["recommend me"].events == ()
    assert by_text["skip"].contexts == ("request_recommendation-followup",)
    assert by_text["skip"].events == ("question", "recommendation")
    assert by_text["skip"].domain == "book" and by_text["skip"].validated
    assert by_text["hi"].group != by_text["skip"].group
    validated, _, _ = examples_from_files([path], validated_only=True)
    assert sorted(e.text for e in validated) == ["hi", "skip"]
    assert validated[[e.text for e in validated].index("skip")].contexts == ("request_recommendation-followup",)


def test_train_command_writes_model_and_card(tiny_file, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("CORSBOT_HOME", str(tmp_path / "home"))
    out = tmp_path / "model"
    assert main(["nlu", "train", "--data", str(tiny_file), "--out", str(out), "--no-extra"]) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    assert line.startswith("nlu train: examples=") and f"model={out}" in line
    card = json.loads((out / "card.json").read_text())
    assert card["data_files"][0]["path"] == str(tiny_file)
    assert len(card["data_files"][0]["sha256"]) == 64
    n_phrases = sum(len(p) for _, _, p in INLINE_TRAINING)
    assert card["counts"]["examples"] == 2 * 10 * n_phrases
    assert card["counts"]["extra_phrases"] == 0
    assert card["train_seconds"] > 0
    assert card["metrics"] is None
    rec = IntentRecognizer.load(out)
    assert (
        rec.predict("skip", ["request_recommendation-followup"], events=["question"]).intent
        == "request_recommendation - skip"
    )


def test_train_validated_only(tiny_file, tmp_path, capsys):
    out = tmp_path / "model"
    assert main(["nlu", "train", "--data", str(tiny_file), "--out", str(out), "--no-extra", "--validated-only"]) == 0
    card = json.loads((out / "card.json").read_text())
    assert card["validated_only"] is True
    assert (
        0
        < card["counts"]["examples"]
        == card["counts"]["validated"]
        < 2 * 10 * sum(len(p) for _, _, p in INLINE_TRAINING)
    )


def test_train_missing_file_is_one_clear_line(tmp_path, capsys):
    assert main(["nlu", "train", "--data", str(tmp_path / "nope.json"), "--out", str(tmp_path / "m")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "nope.json" in err[0] and "Traceback" not in err[0]


def test_evaluate_command(tiny_file, tmp_path, capsys):
    out = tmp_path / "report"
    assert main(["nlu", "evaluate", "--data", str(tiny_file), "--out", str(out), "--folds", "2", "--no-extra"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    match = LAST_LINE.match(lines[-1])
    assert match, lines[-1]
    accuracy, validated, macro_f1, base, base_val, probe_accuracy, agreement = map(float, match.groups())
    assert accuracy > 0.8 and base > 0.5
    assert 0.0 <= probe_accuracy <= 1.0 and 0.0 < agreement <= 1.0  # the realistic dev set, answered by each fold
    assert any(line.startswith("steadiness on dev.jsonl: ") for line in lines)
    assert any(line.startswith("latency per message: p50=") for line in lines)
    # a line per fold as it ends: a newcomer's `make run` spends minutes here and must see it is not stuck
    assert [line.split(":")[0] for line in lines if line.startswith("fold ")] == ["fold 1/2", "fold 2/2"]
    report = json.loads((out / "intent_eval.json").read_text())
    assert report["summary"]["accuracy"] == pytest.approx(accuracy, abs=5e-4)
    assert report["summary"]["macro_f1"] == pytest.approx(macro_f1, abs=5e-4)
    assert set(report["per_domain"]) == {"movie"}
    assert report["per_intent"]["preference"]["support"] == 10 * 11
    assert len(report["summary"]["thresholds"]) == 2
    assert (out / "intent_confusion.png").stat().st_size > 1000
    assert (out / "intent_eval.md").read_text().startswith("# Intent recognizer")
    errors = [json.loads(x) for x in (out / "intent_errors.jsonl").read_text().splitlines()]
    assert all(e["gold"] != e["predicted"] for e in errors)
    assert len(errors) == round((1 - accuracy) * report["summary"]["examples"])
