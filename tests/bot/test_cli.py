"""The command line answers bad input with one clear line and a non-zero exit code, never a traceback."""

from __future__ import annotations

import pytest

from bot.cli import main


@pytest.fixture()
def empty_home(tmp_path, monkeypatch):
    monkeypatch.setenv("CORSBOT_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("CORSBOT_SHARED", str(tmp_path / "no-shared-data"))
    return tmp_path


def _run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_chat_without_model_says_what_to_run(empty_home, capsys):
    code, _, err = _run(capsys, "chat")
    assert code == 2
    assert "corsbot nlu train" in err and "Traceback" not in err


def test_replay_of_a_missing_file(empty_home, capsys):
    code, _, err = _run(capsys, "replay", str(empty_home / "nope.json"))
    assert code == 2 and "no such file" in err and "nope.json" in err


def test_kb_build_with_missing_data_folder(empty_home, capsys):
    code, _, err = _run(capsys, "kb", "build")
    assert code == 2 and "not found" in err and "CORSBOT_SHARED" in err


def test_kb_show_rejects_a_non_qid(empty_home, capsys):
    code, _, err = _run(capsys, "kb", "show", "hello")
    assert code == 2 and "not a QID" in err


def test_export_without_database(empty_home, capsys):
    code, _, err = _run(capsys, "export")
    assert code == 2 and "no log database" in err


def test_no_command_prints_help(capsys):
    code, out, _ = _run(capsys)
    assert code == 2 and "usage: corsbot" in out
