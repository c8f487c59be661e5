"""Fixtures of the logs tests: the released files, read once per session."""

from __future__ import annotations

import pytest

from bot import paths
from logs.record import read_records


@pytest.fixture(scope="session")
def released_paths():
    """The six released message files; skips when the shared data is absent."""
    files = paths.released_files()
    missing = [f for f in files if not f.is_file()]
    if missing:
        pytest.skip(f"shared data absent: {missing[0]}")
    return files


@pytest.fixture(scope="session")
def released(released_paths):
    """``{path: tuple[LogRecord, ...]}`` for every released file."""
    return {path: read_records(path).records for path in released_paths}
