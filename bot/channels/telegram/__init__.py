"""The Telegram channel (python-telegram-bot v22): Telegram updates in, :class:`Turn` values to the
dialog manager, :class:`Reply` values rendered back. The only package of the project that imports
``telegram`` (modules: :mod:`.config` settings and protocols, :mod:`.channel` the channel and its
life cycle, :mod:`.receiving` polling and the webhook, :mod:`.intake` updates through the inbox,
:mod:`.handlers` what each update does, :mod:`.compute` the turn off the loop, :mod:`.outbound` replies
out, :mod:`.debounce` repeated taps, :mod:`.http_backend` aiohttp for PTB, :mod:`.locks` instance and
per-user locks); ``Update``, ``chat_id``, ``ParseMode`` and keyboards never leave it (STYLE H4).

The channel *holds* a PTB :class:`~telegram.ext.Application` (it is not one) and translates:

- **Text** in a private chat (commands included, ``/start@OurBot`` shortened to ``/start``) becomes
  ``Turn(user_id="tg:<telegram user id>", text, payload=None, interaction_type="mixed")``.
  Every Telegram turn is ``"mixed"``: the dataset logs the interaction type per session, and a
  Telegram session is one where buttons are offered (ConveRSE ``messages_mixed`` files).
- **A button press** (callback query) is answered at once (before any slow work, F06; a "query is
  too old" error is swallowed), then becomes ``Turn(text=<button label>, payload=<callback_data>)``.
  When the reply is a card (``Reply.card``) it edits the pressed card in place, else it is sent as
  a new message. Repeated taps on a card that is still being computed are debounced (F05): they are
  answered "working on it" at once; when the computation ends, the *last* of them runs, unless it
  repeats the payload just run or the card was meanwhile edited in place (the tap was made on the
  card's previous version: a generic "like" must not land on the next item).
  A stale button whose state the dialog manager no longer has is the dialog manager's business (it
  gets the payload and answers e.g. "that list is out of date").
- **Captions** of photos and other media are processed as text (the user wrote them); media without
  a caption (sticker, voice, photo, video, document, location, ...) gets a short "I can only read
  text" reply and never reaches the dialog manager, so the conversation state stays where it was (F02).
- **Edited messages** are never re-read: the user gets "edits are not read, please send it again"
  (F01), so an opinion is never counted twice. Channel posts, group and supergroup messages and
  updates without a user are ignored quietly.
- **Replies** are sent in HTML parse mode with every dynamic string escaped; if Telegram still
  answers 400 "can't parse entities" the part is resent as plain text (F03). Long texts are split on
  line boundaries at 4096 UTF-16 units after escaping, the keyboard only on the last part (F04).
  With ``Reply.image`` a photo is sent with the text as caption when it fits in 1024 units (else the
  photo, then the text); if the photo fails the reply falls back to text. Inline keyboards come from
  ``Reply.choices``, ``callback_data`` = ``Choice.payload`` (checked <= 64 bytes by ``Choice``, F08).
- **Work off the loop** (F12): ``DialogHandler.handle`` (NLU, PageRank, SQLite) runs in the channel's
  thread pool; a handler with an ``ahandle`` coroutine (:class:`AsyncDialogHandler`, e.g. the dialog
  managers in worker processes of :mod:`bot.dialog_pool`, what ``corsbot telegram`` runs) is awaited
  on the loop instead. A "typing" action is sent once if the answer is not ready after ``typing_delay_s``,
  a "still working on it" note once after ``slow_notice_s``; after ``deadline_s`` the user gets an
  apology and the channel stops waiting (the worker thread itself cannot be interrupted).
- **Order and concurrency** (F11): updates of one user are processed strictly in arrival order (a
  per-user FIFO lock taken by the update processor before anything else is awaited), different users
  concurrently (up to ``max_concurrent_updates``).
- **HTTP**: PTB talks to the Bot API through :class:`AiohttpRequest` (aiohttp, kept-alive
  connections, ``connection_pool_size`` of them), or PTB's own httpx backend with
  ``http_backend="httpx"``.
- **Flood control**: PTB's :class:`~telegram.ext.AIORateLimiter` (overall rate configurable) retries
  after a 429 ``RetryAfter`` up to ``max_retries`` times, waiting the time Telegram asks for.
- **Blocked users** (F09): a 403 ``Forbidden`` on a send, or Telegram's ``my_chat_member`` update
  saying the user blocked the bot, marks the user inactive in :class:`bot.channels.users.ChannelUsers`
  and the channel keeps serving everyone else; the user is active again when they unblock or write. (The channel schedules no jobs of its own.)
- **Single instance** (F10): :class:`InstanceLock` (an ``fcntl`` lock file next to the database,
  named after the bot id) refuses a second instance with the same token on the same machine;
  polling calls ``deleteWebhook`` at start-up (PTB's bootstrap), and a 409 ``Conflict`` from
  ``getUpdates`` (another poller elsewhere) stops the channel with a clear error.
- A **global error handler** logs the failure with its traceback and sends the user a polite apology.

Example (a handler that echoes, against the real Bot API)::

    channel = TelegramChannel(EchoHandler(), TelegramConfig(token=os.environ["TELEGRAM_BOT_TOKEN"]))
    channel.run()          # long polling until SIGINT / SIGTERM
"""

from __future__ import annotations

from bot.channels.render import TELEGRAM_CAPTION_LIMIT, TELEGRAM_TEXT_LIMIT
from bot.channels.telegram.channel import TelegramChannel
from bot.channels.telegram.config import (
    DEFAULT_COMMANDS,
    INTERACTION_TYPE,
    USER_PREFIX,
    AsyncDialogHandler,
    ChannelError,
    ChannelTexts,
    DialogHandler,
    TelegramConfig,
)
from bot.channels.telegram.http_backend import AiohttpRequest
from bot.channels.telegram.locks import InstanceLock, KeyedLocks, bot_id_of, lock_path_for
from bot.channels.telegram.outbound import keyboard

__all__ = [
    "DEFAULT_COMMANDS",
    "INTERACTION_TYPE",
    "TELEGRAM_CAPTION_LIMIT",
    "TELEGRAM_TEXT_LIMIT",
    "USER_PREFIX",
    "AiohttpRequest",
    "AsyncDialogHandler",
    "ChannelError",
    "ChannelTexts",
    "DialogHandler",
    "InstanceLock",
    "KeyedLocks",
    "TelegramChannel",
    "TelegramConfig",
    "bot_id_of",
    "keyboard",
    "lock_path_for",
]
