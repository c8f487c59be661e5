"""Fixtures of the logs tests: the released files, read once per session."""

from __future__ import annotations

import pytest

from bot import paths
from logs.record import LogRecord, read_records


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


def make_record(
    user: int = 1,
    ts: int = 0,
    intent: str = "preference",
    *,
    events: str = "",
    objects: str = "",
    contexts: str = "",
    to_check: bool = False,
    cycle: int = 0,
    lists: int = 0,
    message: str = "msg",
    message_id: str | None = None,
) -> LogRecord:
    """A hand-built record with dataset defaults (timestamps in seconds -> ms)."""
    return LogRecord(
        message_id=message_id if message_id is not None else f"{user}-{ts}",
        user_id=user,
        message=message,
        timestamp_start=ts * 1000,
        timestamp_end=ts * 1000 + 500,
        intent=intent,
        contexts=contexts,
        to_check=to_check,
        recognized_objects=objects,
        events=events,
        pagerank_cycle=cycle,
        number_recommendation_list=lists,
        interaction_type="NL",
    )
