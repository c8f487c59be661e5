"""A fake Telegram Bot API server on 127.0.0.1 for end-to-end tests of the Telegram channel.

Stdlib only (``http.server`` in a daemon thread, HTTP/1.1 keep-alive); point python-telegram-bot at
it with ``ApplicationBuilder().base_url(server.base_url)`` (``http://127.0.0.1:PORT/bot``).

What it implements (Bot API 7+ shapes, the subset the channel uses): ``getMe``, ``getUpdates``
(long polling over a queue of scripted updates, honouring ``offset``/``timeout``), ``sendMessage``,
``sendPhoto``, ``editMessageText``, ``editMessageCaption``, ``editMessageMedia``,
``editMessageReplyMarkup``, ``deleteMessage``, ``answerCallbackQuery``, ``sendChatAction``,
``setMyCommands``, ``deleteWebhook``, ``setWebhook``, ``getWebhookInfo``, ``close``, ``logOut``.
Unknown methods answer 404 like Telegram.

Like Telegram it checks what it is sent: HTML parse mode must be well formed (only Telegram's tags,
``&`` only in ``&lt; &gt; &amp; &quot;`` or numeric entities, balanced tags), otherwise 400 "can't
parse entities"; a text over 4096 (caption over 1024) UTF-16 units after parsing is refused with 400
"message is too long" ("message caption is too long"); ``callback_data`` over 64 bytes gives 400
"BUTTON_DATA_INVALID"; ``getUpdates`` while a webhook is set gives 409 Conflict.

Injected faults: :meth:`FakeTelegram.fail` makes the next matching call(s) of a method answer an error
(400 / 403 / 409 / 429 with ``retry_after``); :meth:`FakeTelegram.block` makes every send to a chat
answer 403 "bot was blocked by the user".

Example::

    with FakeTelegram() as tg:
        tg.push_text(user_id=7, text="hello")
        ...  # run the bot with base_url=tg.base_url
        assert tg.wait_for(lambda: tg.texts(7))
"""

from bot.channels.fake_bot_api.markup import ApiError, Rule, html_to_text
from bot.channels.fake_bot_api.server import SEND_METHODS, FakeTelegram
from bot.channels.fake_bot_api.updates import BOT_ID, BOT_USERNAME, TOKEN

__all__ = ["BOT_ID", "BOT_USERNAME", "SEND_METHODS", "TOKEN", "ApiError", "FakeTelegram", "Rule", "html_to_text"]
