"""What the channel does with each kind of update (see :mod:`bot.channels.telegram` for the
behaviour): :class:`UpdateHandlers` binds PTB handlers for text, edits, media, button presses (with
the debounce of repeated taps), ``my_chat_member`` and errors; :class:`KnownUsers` keeps the record of
blocked users (F09)."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from telegram import Message, Update
from telegram.error import Forbidden, TelegramError
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from bot.channels.telegram.compute import TurnRunner
from bot.channels.telegram.config import INTERACTION_TYPE, USER_PREFIX, ChannelTexts
from bot.channels.telegram.debounce import TapDebouncer
from bot.channels.telegram.outbound import ReplySender, button_label
from bot.channels.users import ChannelUsers
from bot.turns import Reply, Turn

logger = logging.getLogger(__name__)

_MEDIA = (
    filters.Sticker.ALL
    | filters.VOICE
    | filters.AUDIO
    | filters.VIDEO
    | filters.VIDEO_NOTE
    | filters.ANIMATION
    | filters.PHOTO
    | filters.Document.ALL
    | filters.LOCATION
    | filters.VENUE
    | filters.CONTACT
    | filters.POLL
    | filters.Dice.ALL
    | filters.STORY
)
_COMMAND_MENTION = re.compile(r"^(/[A-Za-z0-9_]+)@[A-Za-z0-9_]+")


class KnownUsers:
    """Who is active (F09): users are marked seen when they write, inactive when they block the bot.

    Args:
        users: the record; None keeps none (logs only).
        executor_of: returns the channel's thread pool (the record is written from its threads).
    """

    def __init__(self, users: ChannelUsers | None, executor_of: Callable[[], ThreadPoolExecutor | None]) -> None:
        self._users = users
        self._executor_of = executor_of

    async def seen(self, key: str, chat_id: int) -> None:
        """The user wrote (or unblocked the bot): active again, unless already known to be."""
        executor = self._executor_of()
        if self._users is None or self._users.known_active(key) or executor is None:
            return
        await asyncio.get_running_loop().run_in_executor(executor, self._users.seen, key, chat_id)

    async def blocked(self, key: str, reason: str, chat_id: int | None) -> None:
        """Mark the user inactive with ``reason`` (nothing without a record)."""
        users = self._users
        if users is None:
            return
        await asyncio.get_running_loop().run_in_executor(
            self._executor_of(), lambda: users.mark_inactive(key, reason, chat_id=chat_id)
        )

    async def unreachable(self, key: str, chat_id: int | None, error: TelegramError) -> None:
        """A send to the user failed with 403 Forbidden: log it, mark the user inactive."""
        logger.info("user %s blocked the bot or cannot be reached: %s", key, error)
        await self.blocked(key, str(error), chat_id)


class UpdateHandlers:
    """The PTB handlers of the channel's updates (:meth:`register` binds them to the application).

    Args:
        application: the channel's PTB application (its bot sends the apology of :meth:`on_error`).
        texts: the channel's own user-facing texts.
        runner: computes a turn's reply.
        sender: delivers replies and answers button presses.
        taps: the debounce of repeated taps on a card.
        users: the record of active users.
        key_prefix: ``tg:<bot id>:``, the prefix of each turn's key (the update id follows).
        finish: marks an update handled (a debounced tap run after the first one).
        sent: records that an update's reply went out, called right after its delivery returns
            (before any other await), so that a restart re-sends only replies not recorded.
        sends_in_flight: replies delivered at once; a reply and its record pass the gate together,
            so a crash leaves at most this many replies sent but not recorded (issue 25).
    """

    def __init__(
        self,
        application: Application,
        texts: ChannelTexts,
        *,
        runner: TurnRunner,
        sender: ReplySender,
        taps: TapDebouncer,
        users: KnownUsers,
        key_prefix: str,
        finish: Callable[[Update], None],
        sent: Callable[[Update], None] = lambda update: None,
        sends_in_flight: int = 1,
    ) -> None:
        self.application = application
        self.texts = texts
        self._runner = runner
        self._sender = sender
        self._taps = taps
        self._users = users
        self._key_prefix = key_prefix
        self._finish = finish
        self._sent = sent
        self._send_gate = asyncio.Semaphore(sends_in_flight)

    def register(self) -> None:
        """Add the handlers (and the error handler) to the application."""
        app = self.application
        private = filters.ChatType.PRIVATE
        app.add_handler(CallbackQueryHandler(self.on_callback))
        app.add_handler(ChatMemberHandler(self.on_my_member, ChatMemberHandler.MY_CHAT_MEMBER))
        app.add_handler(MessageHandler(filters.UpdateType.EDITED_MESSAGE & private, self.on_edit))
        app.add_handler(
            MessageHandler(filters.UpdateType.MESSAGE & private & (filters.TEXT | filters.CAPTION), self.on_text)
        )
        app.add_handler(MessageHandler(filters.UpdateType.MESSAGE & private & _MEDIA, self.on_media))
        app.add_error_handler(self.on_error)

    async def on_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Text or a caption in a private chat: a turn (``/start@OurBot`` read as ``/start``)."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        text = message.text if message.text is not None else (message.caption or "")
        text = _COMMAND_MENTION.sub(r"\1", text)
        key = f"{USER_PREFIX}{user.id}"
        await self._users.seen(key, message.chat.id)
        turn = Turn(
            user_id=key,
            text=text,
            payload=None,
            interaction_type=INTERACTION_TYPE,
            timestamp_ms=int(message.date.timestamp() * 1000) if message.date else None,
            key=f"{self._key_prefix}{update.update_id}",
        )
        reply = await self._runner.compute(turn, message.chat.id)
        if reply is not None:
            await self._deliver(update, key, message.chat.id, reply)

    async def on_edit(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """An edited message is never re-read (F01): the user is asked to send it again."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        await self._deliver(
            update,
            f"{USER_PREFIX}{user.id}",
            message.chat.id,
            Reply(self.texts.edits_not_read),
            reply_to=message.message_id,
        )

    async def on_media(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Media without a caption never reach the dialog (F02): "I can only read text"."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        await self._deliver(update, f"{USER_PREFIX}{user.id}", message.chat.id, Reply(self.texts.only_text))

    async def on_callback(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A button press: answered at once, then a turn; then the last tap debounced meanwhile (F05)."""
        query, user = update.callback_query, update.effective_user
        if query is None or user is None:
            return
        key = f"{USER_PREFIX}{user.id}"
        card_message = query.message if isinstance(query.message, Message) else None
        chat_id = query.message.chat.id if query.message is not None else user.id
        if query.message is not None and (query.message.chat.id != user.id or query.message.chat.type != "private"):
            # a button is honoured only in the private chat it was sent to, by its user (issue 17.3): a
            # tap forwarded or forged from elsewhere must not read or edit another user's card
            logger.warning("refused a tap by %s on a message of chat %s", key, query.message.chat.id)
            await self._sender.answer_query(query, self.texts.not_your_button)
            return
        await self._sender.answer_query(query)
        card = (chat_id, card_message.message_id) if card_message is not None else None
        current: Update | None = update
        try:
            while current is not None:
                q = current.callback_query
                edited = False
                if q is not None and q.data is not None:
                    await self._users.seen(key, chat_id)
                    turn = Turn(
                        user_id=key,
                        text=button_label(card_message, q.data),
                        payload=q.data,
                        interaction_type=INTERACTION_TYPE,
                        key=f"{self._key_prefix}{current.update_id}",
                    )
                    reply = await self._runner.compute(turn, chat_id)
                    if reply is not None:
                        edited = await self._deliver(current, key, chat_id, reply, card=card_message)
                if current is not update:  # a debounced tap run after the first one: handled now
                    self._finish(current)
                current = self._taps.next_tap(card, q.data if q is not None else None, edited=edited)
        finally:  # no await since the last next_tap: nothing pending is lost on a normal exit
            if card is not None:
                self._taps.release(card)

    async def _deliver(
        self,
        update: Update,
        key: str,
        chat_id: int,
        reply: Reply,
        *,
        card: Message | None = None,
        reply_to: int | None = None,
    ) -> bool:
        """Deliver ``reply`` and record it sent, both inside the send gate (no await between them):
        Telegram has no idempotent send, so the replies a ``kill -9`` can duplicate are those sent
        and not yet recorded, and the gate keeps them to ``sends_in_flight``. Returns as
        :meth:`ReplySender.deliver`."""
        async with self._send_gate:
            edited = await self._sender.deliver(key, chat_id, reply, card=card, reply_to=reply_to)
            self._sent(update)
        return edited

    async def on_my_member(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Telegram reports that a user blocked (``kicked``) or unblocked (``member``) the bot (F09)."""
        change, user = update.my_chat_member, update.effective_user
        if change is None or user is None or change.chat.type != "private":
            return
        key = f"{USER_PREFIX}{user.id}"
        status = change.new_chat_member.status
        if status in ("kicked", "left"):
            await self._users.blocked(key, f"bot {status} by the user", user.id)
            logger.info("user %s blocked the bot", key)
        elif status == "member":
            await self._users.seen(key, change.chat.id)

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Global error handler: log with traceback, apologise to the user if there is one."""
        error = context.error
        chat_id = None
        user_key = None
        if isinstance(update, Update):
            if update.effective_chat is not None and update.effective_chat.type == "private":
                chat_id = update.effective_chat.id
            if update.effective_user is not None:
                user_key = f"{USER_PREFIX}{update.effective_user.id}"
        if isinstance(error, Forbidden) and user_key is not None:
            await self._users.unreachable(user_key, chat_id, error)
            return
        logger.error(
            "update %s failed: %s",
            getattr(update, "update_id", "?"),
            error,
            exc_info=error if isinstance(error, BaseException) else None,
        )
        if chat_id is None:
            return
        try:
            await self.application.bot.send_message(chat_id, self.texts.apology)
        except TelegramError as exc:
            logger.warning("could not send the apology to chat %s: %s", chat_id, exc)
