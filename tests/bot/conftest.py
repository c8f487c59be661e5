"""Fixtures of the Telegram channel tests: the fake Bot API server, scripted dialog handlers and a
factory that starts a real :class:`TelegramChannel` (python-telegram-bot) against the fake."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from tests.bot.fake_telegram import TOKEN, FakeTelegram


@pytest.fixture
def fake_tg() -> FakeTelegram:
    server = FakeTelegram().start()
    yield server
    server.close()


@pytest.fixture
async def make_channel(fake_tg: FakeTelegram, tmp_path: Path) -> AsyncIterator[Callable[..., object]]:
    """Factory: ``await make_channel(handler, inbox=None, **config_overrides)`` -> a started TelegramChannel."""
    from bot.channels.telegram import TelegramChannel, TelegramConfig
    from bot.channels.users import ChannelUsers

    started: list[TelegramChannel] = []
    users = ChannelUsers(tmp_path / "corsbot.sqlite3")

    async def factory(handler: object, **overrides: object) -> TelegramChannel:
        options = {"poll_timeout_s": 1.0, "typing_delay_s": 0.5, "slow_notice_s": 5.0, "deadline_s": 10.0,
                   "overall_rate_per_s": 0, "request_timeout_s": 5.0}  # fmt: skip
        inbox = overrides.pop("inbox", None)
        options.update(overrides)
        config = TelegramConfig(token=TOKEN, base_url=fake_tg.base_url, base_file_url=fake_tg.base_file_url, **options)
        channel = TelegramChannel(handler, config, users=users, inbox=inbox)
        await channel.start()
        started.append(channel)
        return channel

    factory.users = users  # type: ignore[attr-defined]
    yield factory
    for channel in started:
        await channel.stop()
    users.close()
