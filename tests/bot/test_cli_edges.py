"""CLI edge cases a fresh tester found: outputs that are not regular files, unwritable databases,
empty replays, out-of-range numbers, --version and help texts, and a missing runtime folder.

Every path is under ``tmp_path``; no device or real file outside it is touched.
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import threading
from importlib.metadata import version

import pytest

from bot.cli import main
from logs.store import LogStore
from tests.logs.logs_testkit import make_record


@pytest.fixture()
def home(tmp_path, monkeypatch):
    """An empty runtime folder, no shared data."""
    monkeypatch.setenv("CORSBOT_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("CORSBOT_SHARED", str(tmp_path / "no-shared-data"))
    return tmp_path / "home"


@pytest.fixture()
def logged_db(home):
    """A log database with 3 records of session ``live`` at the default place."""
    db = home / "corsbot.sqlite3"
    with LogStore(db) as store:
        store.append_many("live", [make_record(user=1, ts=t, message=f"m{t}") for t in range(3)])
    return db


def _run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _argparse_error(capsys, *argv):
    with pytest.raises(SystemExit) as exit_info:
        main(list(argv))
    return exit_info.value.code, capsys.readouterr().err


# --------------------------------------------------------------------------- 1. export --out


def test_export_through_a_symlink_writes_the_target_and_keeps_the_link(logged_db, tmp_path, capsys):
    target = tmp_path / "target.json"
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    code, out, err = _run(capsys, "export", "--out", str(link))
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert [r["message"] for r in json.loads(target.read_text(encoding="utf-8"))] == ["m0", "m1", "m2"]
    assert f"exported 3 records to {link}" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home", "link.json", "target.json"]  # no temp file


def test_export_into_a_fifo_writes_through_it(logged_db, tmp_path, capsys):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    code, _, err = _run(capsys, "export", "--out", str(fifo))
    reader.join(timeout=10)
    assert code == 0, err
    assert fifo.is_fifo()  # not replaced by a regular file
    assert len(json.loads(received[0])) == 3


def test_export_into_a_fifo_with_no_reader_gives_up_with_one_line(logged_db, tmp_path, capsys, monkeypatch):
    import time

    import logs.output

    monkeypatch.setattr(logs.output, "WRITE_WAIT_S", 0.5)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    started = time.monotonic()
    code, out, err = _run(capsys, "export", "--out", str(fifo))
    assert time.monotonic() - started < 10 and code == 2 and "exported" not in out
    assert err == f"corsbot: error: {fifo}: cannot write (no reader opened it within 0.5 s (a FIFO with no reader?))\n"
    assert fifo.is_fifo()


def test_export_into_a_read_only_folder_names_the_folder(logged_db, tmp_path, capsys, read_only):
    folder = tmp_path / "out"
    folder.mkdir()
    read_only(folder)
    code, _, err = _run(capsys, "export", "--out", str(folder / "export.json"))
    assert code == 2 and err == f"corsbot: error: {folder / 'export.json'}: cannot write (read-only folder)\n"


def test_export_to_stdout(logged_db, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # without the fix a file named '-' would be written here
    code, out, err = _run(capsys, "export", "--out", "-")
    assert code == 0
    assert [r["message"] for r in json.loads(out)] == ["m0", "m1", "m2"]  # stdout is only the JSON
    assert "exported 3 records to stdout" in err and not (tmp_path / "-").exists()


def test_export_write_error_through_a_device_is_one_line_and_non_zero(logged_db, tmp_path, capsys, monkeypatch):
    import logs.output

    class FullDevice:
        def __init__(self, *args, **kwargs):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def write(self, text):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def flush(self):
            pass

    link = tmp_path / "full"
    link.symlink_to(tmp_path / "device-standin")
    monkeypatch.setattr(logs.output, "open", FullDevice, raising=False)
    code, out, err = _run(capsys, "export", "--out", str(link))
    assert code == 2 and "exported" not in out
    assert err.count("\n") == 1 and "No space left on device" in err and str(link) in err
    assert "Traceback" not in err and link.is_symlink()


def test_export_to_a_regular_file_stays_atomic_and_keeps_it_on_error(logged_db, tmp_path, capsys, monkeypatch):
    import logs.output

    out_file = tmp_path / "out.json"
    out_file.write_text("previous", encoding="utf-8")
    inode = out_file.stat().st_ino
    code, _, _ = _run(capsys, "export", "--out", str(out_file))
    assert code == 0 and len(json.loads(out_file.read_text(encoding="utf-8"))) == 3
    assert out_file.stat().st_ino != inode  # replaced by a rename, not rewritten in place

    def disk_full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(logs.output.os, "fsync", disk_full)
    before = out_file.read_text(encoding="utf-8")
    code, _, err = _run(capsys, "export", "--out", str(out_file))
    assert code == 2 and "No space left on device" in err
    assert out_file.read_text(encoding="utf-8") == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home", "out.json"]


# --------------------------------------------------------------------------- 2. unwritable database


class _NoServices:
    """Stands in for the loaded model and KB: the database is opened before they are used."""


@pytest.fixture()
def no_services(monkeypatch):
    import bot.compose

    monkeypatch.setattr(bot.compose, "load_services", lambda **kw: _NoServices())


def _refuse_connect(monkeypatch):
    def connect(*args, **kwargs):
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(sqlite3, "connect", connect)


@pytest.mark.parametrize(
    "argv",
    [["chat"], ["export"], ["logs", "sessions"], ["telegram", "--echo"], ["replay", "FILE"]],
    ids=["chat", "export", "logs-sessions", "telegram", "replay"],
)
def test_unopenable_database_is_one_line_naming_it(argv, logged_db, tmp_path, capsys, monkeypatch, no_services):
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "123:abc")
    data = tmp_path / "study.json"
    data.write_text(json.dumps([make_record().to_json()]), encoding="utf-8")
    argv = [str(data) if a == "FILE" else a for a in argv]
    _refuse_connect(monkeypatch)
    code, _, err = _run(capsys, *argv)
    assert code == 2
    assert "Traceback" not in err and err.count("\n") == 1
    assert "cannot open the database" in err and str(logged_db.parent) in err
    # the folder is writable: the hint names no cause it cannot see (issue 25), only what to check
    assert "(unable to open database file): check that its folder exists, is writable and has space" in err
    assert "read-only" not in err


def test_chat_with_a_folder_where_the_database_should_be(home, capsys, no_services):
    (home / "corsbot.sqlite3").mkdir(parents=True)  # sqlite3 really fails here, even as root
    code, _, err = _run(capsys, "chat")
    assert code == 2 and "Traceback" not in err
    assert f"cannot open the database {home / 'corsbot.sqlite3'}" in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores folder permissions (covered by the tests above)")
def test_chat_in_a_read_only_home(home, capsys, no_services):
    home.mkdir()
    home.chmod(0o500)
    try:
        code, _, err = _run(capsys, "chat")
    finally:
        home.chmod(0o700)
    assert code == 2 and "Traceback" not in err and "(read-only folder)" in err


# --------------------------------------------------------------------------- 3. replay edge cases


def test_replay_of_a_file_without_usable_records_fails_and_warns_each_record(home, tmp_path, capsys, no_services):
    bad = tmp_path / "bad.json"
    bad.write_text('[{"foo": 1}, 3]', encoding="utf-8")
    code, out, err = _run(capsys, "replay", str(bad), "--report", str(tmp_path / "report"))
    assert code == 2
    assert "objects_f1=1.000" not in out and "replay:" not in out
    warnings = [line for line in err.splitlines() if line.startswith("corsbot: warning:")]
    assert len(warnings) == 2 and "record 0" in warnings[0] and "record 1" in warnings[1]
    assert all(line.count(str(bad)) == 1 for line in warnings)
    assert "no usable message record" in err and "Traceback" not in err


def test_replay_of_a_folder_says_it_is_a_folder(home, tmp_path, capsys):
    code, _, err = _run(capsys, "replay", str(tmp_path))
    assert code == 2 and "a folder, not a dataset file" in err and "no such file" not in err


def test_replay_report_folder_that_cannot_be_created(home, tmp_path, capsys):
    data = tmp_path / "study.json"
    data.write_text("[]", encoding="utf-8")
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    code, _, err = _run(capsys, "replay", str(data), "--report", str(blocker / "report"))
    assert code == 2 and f"cannot create the report folder {blocker / 'report'}" in err
    assert "file not found" not in err


def test_scores_over_zero_items_are_not_perfect():
    from bot.cli.chat import _score
    from logs.compare import compare

    empty = compare([], [])
    assert empty.objects_f1 == 0.0 and _score(empty.objects_f1, empty.messages) == "0.000"
    assert _score(1.0, 0) == "0.000" and _score(0.5, 4) == "0.500"


# --------------------------------------------------------------------------- 4. numeric options


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["kb", "show", "Q44578", "--limit", "-1"], "--limit"),
        (["kb", "show", "Q44578", "--limit", "0"], "--limit"),
        (["kb", "build", "--batch-size", "0"], "--batch-size"),
        (["kb", "build", "--timeout", "-5"], "--timeout"),
        (["kb", "build", "--min-items", "-1"], "--min-items"),
        (["replay", "x.json", "--limit-users", "-1"], "--limit-users"),
        (["replay", "x.json", "--limit-users", "0"], "--limit-users"),
        (["bench", "telegram", "--users", "0"], "--users"),
        (["bench", "telegram", "--messages", "-3"], "--messages"),
        (["bench", "telegram", "--processes", "-1"], "--processes"),
        (["bench", "telegram", "--pool", "0"], "--pool"),
        (["bench", "telegram", "--timeout", "0"], "--timeout"),
        (["telegram", "--processes", "-1"], "--processes"),
        (["telegram", "--workers", "0"], "--workers"),
        (["telegram", "--port", "70000"], "--port"),
        (["rec", "bench", "--requests", "0"], "--requests"),
        (["rec", "bench", "--networkx-requests", "-1"], "--networkx-requests"),
        (["nlu", "evaluate", "--folds", "1"], "--folds"),
        (["nlu", "evaluate-entities", "--errors", "-2"], "--errors"),
    ],
)
def test_out_of_range_numbers_are_refused(argv, option, capsys):
    code, err = _argparse_error(capsys, *argv)
    assert code == 2 and f"argument {option}" in err


def test_valid_numbers_still_parse():
    from bot.cli import build_parser

    args = build_parser().parse_args(["kb", "show", "Q44578", "--limit", "3"])
    assert args.limit == 3
    args = build_parser().parse_args(["telegram", "--processes", "0", "--port", "8443"])
    assert (args.processes, args.port) == (0, 8443)


# --------------------------------------------------------------------------- 5. version, help, --user


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"corsbot {version('corsbot')}"


def test_telegram_help_names_the_token_variable(capsys):
    with pytest.raises(SystemExit):
        main(["telegram", "--help"])
    assert "TELEGRAM_BOT_TOKEN" in capsys.readouterr().out


def test_rec_evaluate_domains_has_a_help_text(capsys):
    with pytest.raises(SystemExit):
        main(["rec", "evaluate", "--help"])
    assert "domains to evaluate" in capsys.readouterr().out


@pytest.mark.parametrize("user", ["", "   "])
def test_chat_refuses_an_empty_user_key(user, capsys):
    code, err = _argparse_error(capsys, "chat", "--user", user)
    assert code == 2 and "user key must not be empty" in err


# --------------------------------------------------------------------------- 6. no runtime folder here


def test_missing_model_says_where_it_looked_and_how_to_fix(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("CORSBOT_HOME", raising=False)
    monkeypatch.chdir(tmp_path)
    code, _, err = _run(capsys, "chat")
    assert code == 2 and "Traceback" not in err
    assert str(tmp_path / "var" / "models" / "intent") in err
    assert "CORSBOT_HOME is not set" in err and "current folder" in err
    assert "make model" in err and "corsbot nlu train" in err


# --------------------------------------------------------------------------- a port already in use


def test_fake_telegram_on_a_port_in_use_is_one_line_error(home, capsys):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out, err = _run(capsys, "fake-telegram", "--port", str(port))
    assert code == 2
    assert err.strip() == (f"corsbot: error: port {port} is already in use on 127.0.0.1 (another server listens "
                           "on it): stop it or choose another with --port")  # fmt: skip
    assert "Traceback" not in err and "unexpected error" not in err
