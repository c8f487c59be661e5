"""Issue 17.6: bad files and inputs get one clear line (or work), never a traceback or a hang."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
import time

import pytest

from logs import jsonstream
from logs.jsonstream import JsonStreamError, iter_array
from logs.record import RecordError, read_records

RECORD = {"messageID": "1", "userID": 3, "message": "I like Dune", "timestampStart": 1, "intent": "preference"}


@pytest.mark.parametrize("chunk", [1, 3, 7, 64, 1 << 20])
def test_elements_cut_at_any_chunk_boundary_decode_as_the_whole_file(monkeypatch, chunk):
    data = [RECORD, 12345678901234567890, -1.5e-7, 'x\\"y', [1, [2, {}]], None, True, {"a": "é ☃"}]
    monkeypatch.setattr(jsonstream, "CHUNK_CHARS", chunk)
    assert list(iter_array(io.StringIO(" \n" + json.dumps(data, ensure_ascii=False) + " \n"), "f")) == data


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[" * 200_000, "nested too deeply"),
        ('[{"userID": 1, "timestampStart": ' + "9" * 5000 + "}]", "more than 4300 digits"),
        ("[1, 2", "not closed"),
        ("[1 2]", "expected ','"),
        ("[1, junk]", "not valid JSON"),
        ("[1] trailing", "junk after the end"),
        ("", "empty file"),
        ('{"a": 1}', "found an object"),
        ("{not json", "not valid JSON"),
    ],
)
def test_bad_json_is_one_line_naming_the_file(text, reason):
    with pytest.raises(JsonStreamError, match=reason) as info:
        list(iter_array(io.StringIO(text), "bad.json"))
    assert str(info.value).startswith("bad.json: ") and "\n" not in str(info.value)


def test_a_fifo_without_a_writer_gives_up_instead_of_hanging(tmp_path, monkeypatch):
    monkeypatch.setattr(jsonstream, "FIFO_WAIT_S", 0.5)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    started = time.monotonic()
    with pytest.raises(RecordError, match="no writer"):
        read_records(fifo)
    assert time.monotonic() - started < 5


def test_a_fifo_with_a_writer_is_read(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def write() -> None:
        time.sleep(0.3)
        fifo.write_text(json.dumps([RECORD, RECORD]))

    threading.Thread(target=write).start()
    assert len(read_records(fifo).records) == 2


def _corsbot(*args, cwd, stdin=None):
    env = dict(os.environ, CORSBOT_HOME=str(cwd / "home"))
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], capture_output=True, text=True, env=env,
                          timeout=120, stdin=stdin)  # fmt: skip


@pytest.mark.parametrize("command", [["logs", "tocheck"], ["nlu", "train", "--no-extra", "--data"]])
@pytest.mark.parametrize(
    "content", ["[" * 200_000, '[{"userID": 1, "message": "x", "pagerankCycle": ' + "7" * 5000 + "}]"]
)
def test_cli_reads_hostile_files_with_one_line(tmp_path, command, content):
    path = tmp_path / "bad.json"
    path.write_text(content)
    done = _corsbot(*command, str(path), cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().count("\n") == 0 and str(path) in done.stderr


def test_tocheck_on_junk_fails_and_says_why(tmp_path):
    path = tmp_path / "junk.json"
    path.write_text('[1, "x", {"message": "no user"}]')
    done = _corsbot("logs", "tocheck", str(path), cwd=tmp_path)
    assert done.returncode == 2
    assert "3 unusable records skipped" in done.stderr and "no usable message records" in done.stderr


def test_nlu_train_on_a_directory_says_so(tmp_path):
    done = _corsbot("nlu", "train", "--data", str(tmp_path), cwd=tmp_path)
    assert done.returncode == 2 and "is a directory" in done.stderr and "Traceback" not in done.stderr


def test_a_pipe_is_read_like_a_file(tmp_path):
    """``corsbot replay <(cat f.json)`` passes /dev/fd/N, a pipe: read like a file (the replay's own
    argument check accepts any existing path that is not a folder)."""
    path = tmp_path / "ok.json"
    path.write_text(json.dumps([RECORD, dict(RECORD, messageID="2")]))
    with open(path, "rb") as source:
        reader = subprocess.Popen(["cat"], stdin=source, stdout=subprocess.PIPE)
        assert reader.stdout is not None
        assert len(read_records(f"/dev/fd/{reader.stdout.fileno()}").records) == 2
        reader.wait()
