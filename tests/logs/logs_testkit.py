"""Helpers shared by the logs tests (imported as ``from tests.logs.logs_testkit import make_record``)."""

from __future__ import annotations

from logs.record import LogRecord


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
