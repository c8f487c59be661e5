"""The Telegram channel's HTTP backends: :class:`AiohttpRequest` (the default) and PTB's httpx one.

A few end-to-end tests of ``test_telegram.py`` (a conversation with buttons, 100 interleaved
users, the error answers 400 / 403 / 429) are re-run here with ``http_backend="httpx"`` through the
``make_channel`` fixture below, so both backends keep every behaviour; :class:`AiohttpRequest` is
also checked alone: timeouts, refused connections, form and multipart bodies.
"""

from __future__ import annotations

import asyncio
import socket

import pytest
from telegram import Bot
from telegram.error import NetworkError, TimedOut

from bot.channels.telegram import AiohttpRequest, ChannelError, TelegramConfig
from tests.bot import test_telegram as e2e
from tests.bot.fake_telegram import TOKEN

# Re-collected here: they run with the httpx backend (the module's make_channel fixture wins).
test_httpx_normal_conversation_with_buttons = e2e.test_normal_conversation_with_buttons
test_httpx_concurrency_100_users_interleaved_nothing_lost = e2e.test_concurrency_100_users_interleaved_nothing_lost
test_httpx_f03_parse_error_is_resent_as_plain_text = e2e.test_f03_parse_error_is_resent_as_plain_text
test_httpx_f05_retry_after_is_honoured = e2e.test_f05_retry_after_is_honoured
test_httpx_f09_blocked_user_marked_inactive_and_others_served = (
    e2e.test_f09_blocked_user_marked_inactive_and_others_served
)


@pytest.fixture
async def make_channel(make_channel):
    """The conftest factory with ``http_backend="httpx"`` (and a check that it was used)."""

    async def factory(handler, **overrides):
        channel = await make_channel(handler, **{"http_backend": "httpx", **overrides})
        assert type(channel.application.bot.request).__name__ == "HTTPXRequest"
        return channel

    factory.users = make_channel.users
    return factory


def test_default_backend_is_aiohttp_and_unknown_backend_is_refused():
    assert TelegramConfig(token=TOKEN).http_backend == "aiohttp"
    with pytest.raises(ChannelError, match="http_backend"):
        TelegramConfig(token=TOKEN, http_backend="requests")
    with pytest.raises(ChannelError, match="connection_pool_size"):
        TelegramConfig(token=TOKEN, connection_pool_size=0)


async def test_aiohttp_channel_uses_aiohttp_for_calls_and_polling(fake_tg, tmp_path):
    from bot.channels.telegram import TelegramChannel
    from tests.bot.fake_telegram import ScriptedHandler, wait_until

    config = TelegramConfig(token=TOKEN, base_url=fake_tg.base_url, base_file_url=fake_tg.base_file_url,
                            poll_timeout_s=1.0, overall_rate_per_s=0, connection_pool_size=4)  # fmt: skip
    channel = TelegramChannel(ScriptedHandler(), config)
    await channel.start()
    try:
        bot = channel.application.bot
        assert isinstance(bot.request, AiohttpRequest) and isinstance(bot._request[0], AiohttpRequest)
        assert bot._request[0].read_timeout == 11.0  # getUpdates: poll timeout + 10 s margin
        fake_tg.push_texts([(u, f"m{k}") for k in range(3) for u in (1, 2, 3, 4, 5, 6)])  # more users than connections
        assert await wait_until(lambda: len(fake_tg.calls_of("sendMessage")) == 18)
        assert all(fake_tg.texts(u) == [f"you said m{k}" for k in range(3)] for u in range(1, 7))
    finally:
        await channel.stop()


async def _bot(base_url: str, request: AiohttpRequest) -> Bot:
    bot = Bot(TOKEN, base_url=base_url, request=request, get_updates_request=AiohttpRequest(connection_pool_size=1))
    await bot.initialize()
    return bot


async def test_aiohttp_request_sends_form_and_multipart_bodies(fake_tg):
    bot = await _bot(fake_tg.base_url, AiohttpRequest(connection_pool_size=2, timeout_s=5))
    try:
        assert bot.username == "corsbot_test_bot"
        sent = await bot.send_message(42, "a <b>bold</b> &amp; plain", parse_mode="HTML")
        assert sent.text == "a bold & plain" and sent.chat.id == 42
        # a file upload goes as multipart/form-data with the other parameters beside it
        photo = await bot.send_photo(42, b"\x89PNG\r\n\x1a\nfake-image-bytes", caption="the cover", filename="c.png")
        assert photo.caption == "the cover"
        call = fake_tg.calls_of("sendPhoto")[-1]
        assert call["chat_id"] == "42" and "fake-image-bytes" in call["photo"]
    finally:
        await bot.shutdown()


async def test_aiohttp_request_error_answers_become_ptb_errors(fake_tg):
    from telegram.error import BadRequest, Forbidden, RetryAfter

    bot = await _bot(fake_tg.base_url, AiohttpRequest(connection_pool_size=2, timeout_s=5))
    try:
        fake_tg.fail("sendMessage", 400, "Bad Request: message is too long")
        with pytest.raises(BadRequest, match="too long"):
            await bot.send_message(1, "x")
        fake_tg.block(9)
        with pytest.raises(Forbidden, match="blocked"):
            await bot.send_message(9, "x")
        fake_tg.fail("sendMessage", 429, "Too Many Requests: retry after 3", retry_after=3)
        with pytest.raises(RetryAfter, match="Retry in 3"):
            await bot.send_message(1, "x")
    finally:
        await bot.shutdown()


async def test_aiohttp_request_timeout_and_refused_connection():
    # a server that accepts and never answers: the read timeout fires
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    port = silent.getsockname()[1]
    request = AiohttpRequest(connection_pool_size=1, timeout_s=0.3)
    await request.initialize()
    try:
        loop = asyncio.get_running_loop()
        started = loop.time()
        with pytest.raises(TimedOut):
            await request.do_request(f"http://127.0.0.1:{port}/bot{TOKEN}/getMe", "POST")
        assert loop.time() - started < 3
    finally:
        silent.close()
    # nothing listens any more: a NetworkError (not TimedOut), one line naming aiohttp's error
    with pytest.raises(NetworkError) as info:
        await request.do_request(f"http://127.0.0.1:{port}/bot{TOKEN}/getMe", "POST")
    assert not isinstance(info.value, TimedOut) and "aiohttp." in info.value.message
    await request.shutdown()
    await request.shutdown()  # idempotent
    with pytest.raises(RuntimeError, match="not initialized"):
        await request.do_request(f"http://127.0.0.1:{port}/x", "POST")
