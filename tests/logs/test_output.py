"""logs/output.py: files written for the user get the mode any tool would give them (issue 17.8); a FIFO
is written through as its reader takes it, and never waited for without end (issue 25)."""

from __future__ import annotations

import os
import stat
import threading
import time

import pytest

import logs.output
from logs.output import write_text


@pytest.mark.parametrize("umask", [0o022, 0o002, 0o077])
def test_a_new_file_gets_0666_less_the_umask(tmp_path, umask):
    old = os.umask(umask)
    try:
        write_text(tmp_path / "out.json", "[]\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "out.json").stat().st_mode) == 0o666 & ~umask


def test_a_replaced_file_keeps_its_mode(tmp_path):
    target = tmp_path / "out.json"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o640)
    write_text(target, "new")
    assert target.read_text() == "new" and stat.S_IMODE(target.stat().st_mode) == 0o640


@pytest.fixture
def short_wait(monkeypatch):
    monkeypatch.setattr(logs.output, "WRITE_WAIT_S", 0.5)


def test_a_fifo_with_no_reader_gives_up_after_the_wait(tmp_path, short_wait):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    started = time.monotonic()
    with pytest.raises(TimeoutError) as info:
        write_text(fifo, "[]\n")
    assert 0.4 < time.monotonic() - started < 5
    assert info.value.strerror == "no reader opened it within 0.5 s (a FIFO with no reader?)"
    assert info.value.filename == str(fifo) and fifo.is_fifo()


def test_a_fifo_reader_that_stops_reading_ends_the_write(tmp_path, short_wait):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    opened = threading.Event()

    def open_and_never_read() -> None:
        with open(fifo, "rb"):
            opened.set()
            time.sleep(3)

    threading.Thread(target=open_and_never_read, daemon=True).start()
    with pytest.raises(TimeoutError, match="took nothing"):
        write_text(fifo, "x" * 1_000_000)  # more than a pipe holds
    assert opened.is_set()


def test_a_slow_fifo_reader_gets_everything_in_order(tmp_path, short_wait):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    text = "".join(f"{i:07d}\n" for i in range(200_000))  # 1.6 MB: many pipe-fulls
    received: list[bytes] = []

    def read_slowly() -> None:
        time.sleep(0.2)  # the writer waits for the reader to open it
        with open(fifo, "rb") as handle:
            while chunk := handle.read(65536):
                received.append(chunk)
                time.sleep(0.001)

    reader = threading.Thread(target=read_slowly)
    reader.start()
    assert write_text(fifo, text) == "through"
    reader.join(timeout=30)
    assert b"".join(received).decode() == text
