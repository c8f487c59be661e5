"""Issue 25: a ``kill -9`` duplicates only the replies Telegram accepted that the bot had not recorded
yet; the send gate of :class:`UpdateHandlers` lets one reply (``sends_in_flight``) be in that window."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from bot.channels.telegram import ChannelError, TelegramConfig
from bot.channels.telegram.handlers import UpdateHandlers
from bot.turns import Reply
from tests.bot.fake_telegram import TOKEN


class _SlowSender:
    """Stands for the Bot API: each delivery takes a few event-loop turns; counts overlaps."""

    def __init__(self, events: list[str]) -> None:
        self.events = events
        self.inside = 0
        self.most_inside = 0

    async def deliver(self, key, chat_id, reply, *, card=None, reply_to=None):
        self.inside += 1
        self.most_inside = max(self.most_inside, self.inside)
        self.events.append(f"send {reply.text}")
        for _ in range(3):
            await asyncio.sleep(0)
        self.inside -= 1
        return False


def _handlers(sends_in_flight: int) -> tuple[UpdateHandlers, _SlowSender, list[str]]:
    events: list[str] = []
    sender = _SlowSender(events)
    handlers = UpdateHandlers(
        application=None,  # type: ignore[arg-type]
        texts=None,  # type: ignore[arg-type]
        runner=None,  # type: ignore[arg-type]
        sender=sender,  # type: ignore[arg-type]
        taps=None,  # type: ignore[arg-type]
        users=None,  # type: ignore[arg-type]
        key_prefix="tg:1:",
        finish=lambda update: None,
        sent=lambda update: events.append(f"recorded {update.update_id}"),
        sends_in_flight=sends_in_flight,
    )
    return handlers, sender, events


async def _deliver_all(handlers: UpdateHandlers, n: int) -> None:
    await asyncio.gather(
        *(handlers._deliver(SimpleNamespace(update_id=i), f"tg:{i}", i, Reply(str(i))) for i in range(n))
    )


async def test_by_default_each_reply_is_recorded_sent_before_the_next_one_goes_out():
    handlers, sender, events = _handlers(1)
    await _deliver_all(handlers, 6)
    assert sender.most_inside == 1
    # every send is followed by its own record before any other send: at most one reply unrecorded
    assert events == [e for i in range(6) for e in (f"send {i}", f"recorded {i}")]


async def test_more_sends_in_flight_overlap_up_to_that_many():
    handlers, sender, events = _handlers(3)
    await _deliver_all(handlers, 6)
    assert sender.most_inside == 3
    assert sorted(e for e in events if e.startswith("recorded")) == [f"recorded {i}" for i in range(6)]


def test_sends_in_flight_must_be_at_least_one():
    assert TelegramConfig(token=TOKEN).sends_in_flight == 1
    with pytest.raises(ChannelError, match="sends_in_flight"):
        TelegramConfig(token=TOKEN, sends_in_flight=0)
