"""logs/output.py: files written for the user get the mode any tool would give them (issue 17.8)."""

from __future__ import annotations

import os
import stat

import pytest

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
