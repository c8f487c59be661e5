"""Replies out to Telegram: a :class:`Reply` rendered as HTML messages, photos, inline keyboards and
in-place edits of a pressed card (field cases F03, F04, F08), and callback queries answered (F06).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from telegram import (
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
    ReplyParameters,
)
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError, TimedOut
from telegram.ext import Application

from bot.channels.render import escape_html, fits_caption, split_text
from bot.channels.telegram.config import ChannelTexts
from bot.turns import Choice, Reply

logger = logging.getLogger(__name__)

T = TypeVar("T")
MAX_RETRY_WAIT_S = 30.0
"""Longest single wait before retrying a Bot API call (a longer ``retry_after`` is cut to this)."""


def _seconds(value: float | dt.timedelta) -> float:
    return value.total_seconds() if isinstance(value, dt.timedelta) else float(value)


class ReplySender:
    """Sends or edits the messages of one reply through the application's bot (rate limiter included).

    Args:
        application: the PTB application whose ``bot`` sends (read at each call: it exists before start).
        texts: the channel's own texts (``choose`` for a keyboard without text).
        on_forbidden: awaited with ``(user key, chat id, error)`` when Telegram answers 403 (the user
            blocked the bot, F09); the reply is then dropped.
        retry_budget_s: how long one call may keep being retried after the rate limiter gave up:
            a 429 waits the ``retry_after`` Telegram asks (each wait capped at :data:`MAX_RETRY_WAIT_S`),
            a refused or reset connection 1, 2, 4 ... s; a timeout is not retried (the message may
            have arrived). When the budget is spent the reply is dropped with an error in the log,
            and the user is never told that the action failed (it did not: only its reply was lost).
    """

    def __init__(
        self,
        application: Application,
        texts: ChannelTexts,
        on_forbidden: Callable[[str, int, Forbidden], Awaitable[None]],
        *,
        retry_budget_s: float = 60.0,
    ) -> None:
        self._application = application
        self.texts = texts
        self._on_forbidden = on_forbidden
        self._retry_budget_s = retry_budget_s

    async def deliver(
        self,
        key: str,
        chat_id: int,
        reply: Reply,
        *,
        card: Message | None = None,
        reply_to: int | None = None,
    ) -> bool:
        """Render ``reply`` to ``chat_id``: edit ``card`` in place when possible, else send.

        Returns:
            True if ``card`` was edited in place.
        """
        try:
            markup = keyboard(reply.choices)
            if card is not None and reply.card and await self._edit_card(card, reply, markup):
                return True
            if reply.image and await self._send_photo(chat_id, reply, markup):
                return False
            text = reply.text if reply.text.strip() else (self.texts.choose if markup else "")
            parts = split_text(text)
            for i, part in enumerate(parts):
                last = i == len(parts) - 1
                await self._send_text(chat_id, part, markup if last else None, reply_to=reply_to if i == 0 else None)
        except Forbidden as exc:
            await self._on_forbidden(key, chat_id, exc)
        except BadRequest:
            raise
        except (RetryAfter, NetworkError) as exc:  # retried within the budget already (issue 17.4)
            logger.error("reply to %s not delivered (%s); the turn itself was applied", key, exc)
        return False

    async def _retrying(self, call: Callable[[], Awaitable[T]]) -> T:
        """``await call()``, retried on 429 and connection failures within the retry budget."""
        deadline = time.monotonic() + self._retry_budget_s
        backoff = 1.0
        while True:
            try:
                return await call()
            except RetryAfter as exc:
                error: TelegramError = exc
                wait = min(_seconds(exc.retry_after), MAX_RETRY_WAIT_S)
            except TimedOut:
                raise
            except NetworkError as exc:
                if isinstance(exc, BadRequest):
                    raise
                error, wait, backoff = exc, backoff, min(backoff * 2, MAX_RETRY_WAIT_S)
            if time.monotonic() + wait > deadline:
                raise error
            logger.warning("Bot API busy or unreachable; retrying in %.1f s", wait)
            await asyncio.sleep(wait)

    async def _send_text(
        self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None, *, reply_to: int | None = None
    ) -> None:
        """Send one part in HTML; resend as plain text on a parse error, re-split if still too long."""
        try:
            await self._post_message(chat_id, escape_html(text), ParseMode.HTML, markup, reply_to)
        except BadRequest as exc:
            reason = exc.message.lower()
            if "parse entities" in reason:
                logger.warning("HTML rejected (%s); resending as plain text", exc.message)
                await self._post_message(chat_id, text, None, markup, reply_to)
            elif "too long" in reason and len(text) > 16:
                logger.warning("message rejected as too long (%d chars); splitting it", len(text))
                halves = split_text(text, limit=max(len(text) // 2, 8), measure=len)
                for i, half in enumerate(halves):
                    await self._send_text(chat_id, half, markup if i == len(halves) - 1 else None)
            elif "message to be replied not found" in reason and reply_to is not None:
                await self._send_text(chat_id, text, markup)
            else:
                raise

    async def _post_message(
        self, chat_id: int, text: str, parse_mode: str | None, markup: InlineKeyboardMarkup | None, reply_to: int | None
    ) -> None:
        """``sendMessage`` through PTB (rate limiter, retries, error mapping) without parsing Telegram's
        answer into a :class:`~telegram.Message`, which the channel never uses: ``Bot.send_message``
        spent about 15 % of the event loop's CPU in ``Message.de_json`` of its own answers (inline
        keyboards included; py-spy of ``corsbot bench telegram``). Errors as ``Bot.send_message``.
        """
        params: dict[str, Any] = {"chat_id": chat_id, "text": text}
        if parse_mode is not None:
            params["parse_mode"] = parse_mode
        if markup is not None:
            params["reply_markup"] = markup
        if reply_to is not None:
            params["reply_parameters"] = ReplyParameters(message_id=reply_to)
        bot = self._application.bot
        await self._retrying(lambda: bot.do_api_request("sendMessage", api_kwargs=params))

    async def _send_photo(self, chat_id: int, reply: Reply, markup: InlineKeyboardMarkup | None) -> bool:
        """Photo with caption (or photo then text); False if the photo could not be sent."""
        assert reply.image is not None
        bot = self._application.bot
        caption = reply.text if fits_caption(reply.text) else None
        try:
            try:
                await bot.send_photo(
                    chat_id,
                    reply.image,
                    caption=escape_html(caption) if caption else None,
                    parse_mode=ParseMode.HTML if caption else None,
                    reply_markup=markup if caption is not None or not reply.text.strip() else None,
                )
            except BadRequest as exc:
                if caption is None or "parse entities" not in exc.message.lower():
                    raise
                await bot.send_photo(chat_id, reply.image, caption=caption, parse_mode=None, reply_markup=markup)
        except Forbidden:
            raise
        except TelegramError as exc:
            logger.warning("photo %s could not be sent (%s); sending text instead", reply.image, exc)
            return False
        if caption is None and reply.text.strip():
            parts = split_text(reply.text)
            for i, part in enumerate(parts):
                await self._send_text(chat_id, part, markup if i == len(parts) - 1 else None)
        return True

    async def _edit_card(self, card: Message, reply: Reply, markup: InlineKeyboardMarkup | None) -> bool:
        """Edit the pressed card in place; False when it cannot be (the caller sends a new message)."""
        bot = self._application.bot
        chat_id, message_id = card.chat.id, card.message_id
        try:
            if card.photo:
                if not reply.image or not fits_caption(reply.text):
                    return False
                for parse_mode, caption in ((ParseMode.HTML, escape_html(reply.text)), (None, reply.text)):
                    try:
                        media = InputMediaPhoto(reply.image, caption=caption, parse_mode=parse_mode)
                        await self._retrying(
                            functools.partial(
                                bot.edit_message_media,
                                media,
                                chat_id=chat_id,
                                message_id=message_id,
                                reply_markup=markup,
                            )
                        )
                        return True
                    except BadRequest as exc:
                        if parse_mode is None or "parse entities" not in exc.message.lower():
                            raise
                return False
            if reply.image or len(split_text(reply.text)) != 1:
                return False
            for parse_mode, text in ((ParseMode.HTML, escape_html(reply.text)), (None, reply.text)):
                try:
                    await self._retrying(
                        functools.partial(
                            bot.edit_message_text,
                            text,
                            chat_id=chat_id,
                            message_id=message_id,
                            parse_mode=parse_mode,
                            reply_markup=markup,
                        )
                    )
                    return True
                except BadRequest as exc:
                    if parse_mode is None or "parse entities" not in exc.message.lower():
                        raise
            return False
        except Forbidden:
            raise
        except BadRequest as exc:
            if "not modified" in exc.message.lower():
                return True
            logger.info("card %s/%s cannot be edited (%s); sending a new message", chat_id, message_id, exc.message)
            return False

    async def answer_query(self, query: CallbackQuery, text: str | None = None) -> None:
        """Answer a callback query; "query is too old" and similar errors are swallowed (F06)."""
        try:
            await query.answer(text)
        except BadRequest as exc:
            logger.debug("callback query %s not answered: %s", query.id, exc.message)
        except TelegramError as exc:
            logger.info("callback query %s not answered: %s", query.id, exc)


def keyboard(choices: tuple[Choice, ...]) -> InlineKeyboardMarkup | None:
    """Inline keyboard of the choices: rows of up to 3 buttons and about 30 label characters."""
    if not choices:
        return None
    rows: list[list[InlineKeyboardButton]] = []
    row: list[InlineKeyboardButton] = []
    width = 0
    for choice in choices:
        label = choice.label
        if row and (len(row) == 3 or width + len(label) > 30):
            rows.append(row)
            row, width = [], 0
        row.append(InlineKeyboardButton(label, callback_data=choice.payload))
        width += len(label)
    rows.append(row)
    return InlineKeyboardMarkup(rows)


def button_label(message: Message | None, data: str) -> str:
    """Label of the button with ``callback_data == data`` on ``message``, else ``data`` itself."""
    markup = message.reply_markup if message is not None else None
    if markup is not None:
        for row in markup.inline_keyboard:
            for button in row:
                if button.callback_data == data:
                    return button.text
    return data
