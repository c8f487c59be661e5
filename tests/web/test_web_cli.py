"""CLI glue of issue 26: ``nlu train`` writes a candidate beside the live model (with its CV figure) and
``nlu promote`` swaps them; ``nlu train --logs`` and ``export --corrected`` / ``--format sgd`` apply the
researcher's corrections; ``corsbot web --help``; ``corsbot bench web --trivial``."""

from __future__ import annotations

import json
import re

import pytest

from bot.cli import main
from bot.corrections import Correction, CorrectionStore
from logs.record import LogRecord
from logs.store import LogStore

PHRASES = {
    "preference": ["I like {}", "I love {}", "{} is great", "I really enjoyed {}"],
    "request_recommendation": ["recommend me something", "what should I watch", "suggest a movie", "any tips?"],
    "smalltalk.greetings.hello": ["hi", "hello there", "hey", "good morning"],
}
TITLES = ["Dune", "Alien", "Heat", "Up", "Jaws"]


def _dataset(path, users=4):
    rows, n = [], 0
    for user in range(users):
        for intent, phrases in PHRASES.items():
            for k, phrase in enumerate(phrases):
                n += 1
                rows.append({"messageID": str(n), "userID": user, "message": phrase.format(TITLES[(k + user) % 5]),
                             "timestampStart": n, "timestampEnd": n, "intent": intent, "contexts": "", "toCheck": False,
                             "recognizedObjects": "", "events": "", "pagerankCycle": 0, "numberRecommendationList": 0,
                             "interactionType": "NL"})  # fmt: skip
    path.write_text(json.dumps(rows))
    return path


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("CORSBOT_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("CORSBOT_SHARED", str(tmp_path / "shared"))
    monkeypatch.delenv("CORSBOT_DATABASE_URL", raising=False)
    return tmp_path / "home"


def test_train_writes_a_candidate_beside_the_live_model_and_promote_swaps_them(home, tmp_path, capsys):
    data = _dataset(tmp_path / "movie" / "data.json") if (tmp_path / "movie").mkdir() is None else None
    live, candidate = home / "models" / "intent", home / "models" / "intent.candidate"
    assert main(["nlu", "train", "--data", str(data), "--no-extra", "--folds", "2"]) == 0
    first = capsys.readouterr().out
    assert live.is_dir() and not candidate.exists() and f"model={live}" in first  # the first model goes live
    card = json.loads((live / "card.json").read_text())
    assert card["cv"]["folds"] == 2 and 0 <= card["cv"]["accuracy"] <= 1 and card["cv"]["examples"] == 48
    assert main(["nlu", "train", "--data", str(data), "--no-extra", "--folds", "0"]) == 0
    second = capsys.readouterr().out
    assert candidate.is_dir() and f"model={candidate}" in second
    assert re.search(r"live model: +accuracy=\d\.\d{3} .*\(2-fold CV, 48 examples\)", second), second
    assert "candidate model: CV figure not measured" in second and "corsbot nlu promote" in second
    assert main(["nlu", "promote", "--dry-run"]) == 0 and candidate.is_dir()
    assert main(["nlu", "promote"]) == 0
    out = capsys.readouterr().out
    assert "is live" in out and not candidate.exists() and (home / "models" / "intent.previous" / "card.json").exists()
    assert json.loads((live / "card.json").read_text())["cv"] is None
    assert main(["nlu", "promote"]) == 2 and "no candidate model" in capsys.readouterr().err


def _logged_home(home):
    log = LogStore(home / "corsbot.sqlite3")
    for n, (text, intent) in enumerate([("I like Dune", "preference"), ("asdf", "Default Fallback Intent")] * 3):
        log.append("web", LogRecord(f"9-{n}", 9 + n % 2, text, n, n, intent, "", True, "", "", 0, 0, "NL"))
    log.close()
    with CorrectionStore(home / "corsbot.sqlite3") as store:
        store.save(Correction("9-1", "web", 10, "smalltalk.greetings.hello", ""))


def test_train_with_the_log_applies_the_corrections(home, tmp_path, capsys):
    _logged_home(home)
    data = _dataset(tmp_path / "data.json")
    assert main(["nlu", "train", "--logs", "--session", "web", "--data", str(data), "--no-extra", "--folds", "0"]) == 0
    out = capsys.readouterr().out
    assert "6 examples from the log (6 records of web; 1 corrected)" in out
    card = json.loads((home / "models" / "intent" / "card.json").read_text())
    assert card["log"]["corrections"] == 1 and card["counts"]["examples"] == 54
    exported = json.loads((home / "exports" / "training-log.json").read_text())
    assert exported[1]["intent"] == "smalltalk.greetings.hello" and exported[1]["toCheck"] is False
    assert main(["nlu", "train", "--logs", "--session", "nope", "--folds", "0"]) == 2
    assert "no session 'nope'" in capsys.readouterr().err


def test_train_on_an_export_of_the_log_applies_the_corrections_too(home, tmp_path, capsys):
    _logged_home(home)
    exported = tmp_path / "export.json"
    assert main(["export", "--session", "web", "--out", str(exported)]) == 0  # as logged
    assert (
        main(["nlu", "train", "--data", str(exported), "--no-extra", "--folds", "0", "--out", str(tmp_path / "m")]) == 0
    )
    assert "1 records of the files corrected by the researcher" in capsys.readouterr().out
    card = json.loads((tmp_path / "m" / "card.json").read_text())
    assert card["data_files"][0]["corrections"] == 1 and "smalltalk.greetings.hello" in card["counts"]["intents"]


def test_export_with_corrections_and_as_sgd(home, capsys):
    _logged_home(home)
    out = home / "out.json"
    assert main(["export", "--session", "web", "--corrected", "--out", str(out)]) == 0
    rows = json.loads(out.read_text())
    assert rows[1]["intent"] == "smalltalk.greetings.hello" and rows[0]["intent"] == "preference"
    assert main(["export", "--session", "web", "--out", str(out)]) == 0
    assert json.loads(out.read_text())[1]["intent"] == "Default Fallback Intent"  # as logged
    assert main(["export", "--format", "sgd", "--out", str(out)]) == 0
    assert json.loads(out.read_text()) == []  # no web conversation in this log
    assert "exported 0 dialogues" in capsys.readouterr().out


def test_web_help_and_a_bad_study_file_are_one_clear_line(home, tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["web", "--help"])
    assert "/chat?pid=ID" in capsys.readouterr().out
    bad = tmp_path / "study.toml"
    bad.write_text("min_turns = -3")
    assert main(["web", "--study", str(bad)]) == 2
    assert "min_turns" in capsys.readouterr().err


def test_bench_web_trivial_prints_its_line(home, capsys):
    assert main(["bench", "web", "--trivial", "--users", "5", "--messages", "3"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert re.fullmatch(r"web: users=5 messages=15 msgs_per_s=\d+\.\d lost=0 p99_ms=\d+", last), last
