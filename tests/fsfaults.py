"""Fixture ``read_only``: a file or folder this process cannot write, made with ``chmod`` for an
ordinary user and with ``chattr +i`` (immutable) for root, whom permission bits do not stop; a test
that needs one is skipped where neither works (root on a file system without ``chattr``)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest


@pytest.fixture
def read_only() -> Iterator[Callable[[Path], None]]:
    """``read_only(path)``: make ``path`` unwritable for this process (undone at teardown)."""
    made: list[tuple[Path, int]] = []

    def make(path: Path) -> None:
        if os.geteuid() != 0:
            made.append((path, path.stat().st_mode))
            path.chmod(0o555 if path.is_dir() else 0o444)
            return
        done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False)
        if done.returncode != 0:
            pytest.skip(f"root, and chattr +i does not work here: {done.stderr.decode().strip()}")
        made.append((path, -1))

    yield make
    for path, mode in reversed(made):
        if mode == -1:
            subprocess.run(["chattr", "-i", str(path)], check=False)
        else:
            path.chmod(mode)
