"""Scripting what users do on the fake Bot API: texts, edits, media, button taps, blocks; faults."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.channels.fake_bot_api.markup import Rule

BOT_ID = 123456789
BOT_USERNAME = "corsbot_test_bot"
TOKEN = f"{BOT_ID}:TEST-fake-token"


class UpdateScripting:
    """Mixin of :class:`~bot.channels.fake_bot_api.server.FakeTelegram`: queue updates as users would
    cause them, inject faults. Needs ``_cond``, ``_queue``, ``_next_update``, ``_next_message``,
    ``_next_query``, ``messages``, ``rules``, ``blocked``, ``webhook`` and ``_me``/``_post_to_webhook``."""

    _cond: threading.Condition
    _queue: list[dict[str, Any]]
    _next_update: int
    _next_message: dict[int, int]
    _next_query: int
    messages: dict[tuple[int, int], dict[str, Any]]
    rules: list[Rule]
    blocked: set[int]
    webhook: dict[str, Any] | None

    if TYPE_CHECKING:  # given by the server

        def _me(self) -> dict[str, Any]: ...
        def _post_to_webhook(self, update: dict[str, Any]) -> None: ...

    @staticmethod
    def user(user_id: int) -> dict[str, Any]:
        """A Telegram ``User`` object for a fake human user."""
        return {"id": user_id, "is_bot": False, "first_name": f"User{user_id}", "username": f"user_{user_id}"}

    @staticmethod
    def private_chat(user_id: int) -> dict[str, Any]:
        """The private ``Chat`` with a user (chat id = user id, as on Telegram)."""
        return {"id": user_id, "type": "private", "first_name": f"User{user_id}"}

    def _message_id(self, chat_id: int) -> int:
        self._next_message[chat_id] = self._next_message.get(chat_id, 0) + 1
        return self._next_message[chat_id]

    def push(self, update: dict[str, Any]) -> int:
        """Queue a raw update (its ``update_id`` is assigned here); returns the update id."""
        with self._cond:
            update = {"update_id": self._next_update, **update}
            self._next_update += 1
            self._queue.append(update)
            self._cond.notify_all()
        if self.webhook is not None:
            self._post_to_webhook(update)
        return update["update_id"]

    def push_text(self, user_id: int, text: str, *, chat: dict[str, Any] | None = None) -> int:
        """A user types ``text`` (a command gets its ``bot_command`` entity); returns the message id."""
        chat = chat or self.private_chat(user_id)
        with self._cond:
            mid = self._message_id(chat["id"])
        msg: dict[str, Any] = {"message_id": mid, "date": int(time.time()), "chat": chat, "from": self.user(user_id),
                               "text": text}  # fmt: skip
        if text.startswith("/"):
            msg["entities"] = [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]
        self.push({"message": msg})
        return mid

    def push_texts(self, items: list[tuple[int, str]]) -> None:
        """Queue many texts at once (one lock, one wake-up): ``[(user_id, text), ...]``."""
        with self._cond:
            for user_id, text in items:
                chat = self.private_chat(user_id)
                msg = {"message_id": self._message_id(user_id), "date": int(time.time()), "chat": chat,
                       "from": self.user(user_id), "text": text}  # fmt: skip
                self._queue.append({"update_id": self._next_update, "message": msg})
                self._next_update += 1
            self._cond.notify_all()

    def push_edit(self, user_id: int, message_id: int, text: str) -> int:
        """The user edits their earlier message ``message_id`` to ``text`` (an ``edited_message``)."""
        msg = {"message_id": message_id, "date": int(time.time()) - 5, "edit_date": int(time.time()),
               "chat": self.private_chat(user_id), "from": self.user(user_id), "text": text}  # fmt: skip
        return self.push({"edited_message": msg})

    def _push_media(self, user_id: int, media: dict[str, Any]) -> int:
        with self._cond:
            mid = self._message_id(user_id)
        msg = {"message_id": mid, "date": int(time.time()), "chat": self.private_chat(user_id),
               "from": self.user(user_id), **media}  # fmt: skip
        self.push({"message": msg})
        return mid

    def push_sticker(self, user_id: int) -> int:
        """The user sends a sticker."""
        return self._push_media(user_id, {"sticker": {"file_id": "stk", "file_unique_id": "stku", "type": "regular",
                                                      "width": 512, "height": 512, "is_animated": False,
                                                      "is_video": False, "emoji": "👍"}})  # fmt: skip

    def push_voice(self, user_id: int) -> int:
        """The user sends a voice note."""
        return self._push_media(user_id, {"voice": {"file_id": "v", "file_unique_id": "vu", "duration": 3}})

    def push_photo(self, user_id: int, caption: str | None = None) -> int:
        """The user sends a photo, optionally captioned."""
        media: dict[str, Any] = {"photo": [{"file_id": "p", "file_unique_id": "pu", "width": 90, "height": 90}]}
        if caption is not None:
            media["caption"] = caption
        return self._push_media(user_id, media)

    def push_channel_post(self, channel_id: int, text: str) -> int:
        """A post in a channel the bot is in: no ``from`` user."""
        with self._cond:
            mid = self._message_id(channel_id)
        chat = {"id": channel_id, "type": "channel", "title": "Some channel"}
        return self.push({"channel_post": {"message_id": mid, "date": int(time.time()), "chat": chat, "text": text}})

    def push_block(self, user_id: int, *, blocked: bool = True) -> int:
        """Telegram's ``my_chat_member`` update when the user blocks (or unblocks) the bot."""
        bot = {"id": BOT_ID, "is_bot": True, "first_name": "Corsbot", "username": BOT_USERNAME}
        old, new = ("member", "kicked") if blocked else ("kicked", "member")

        def member(status: str) -> dict[str, Any]:
            return {"user": bot, "status": status, **({"until_date": 0} if status == "kicked" else {})}

        return self.push({"my_chat_member": {
            "chat": self.private_chat(user_id), "from": self.user(user_id), "date": int(time.time()),
            "old_chat_member": member(old), "new_chat_member": member(new)}})  # fmt: skip

    def push_callback(self, user_id: int, message_id: int, data: str, *, chat_id: int | None = None) -> str:
        """The user taps a button with ``data`` on the bot's message ``message_id``; returns the query id."""
        chat_id = user_id if chat_id is None else chat_id
        with self._cond:
            query_id = str(self._next_query)
            self._next_query += 1
            message = dict(self.messages.get((chat_id, message_id)) or {
                "message_id": message_id, "date": int(time.time()), "chat": self.private_chat(chat_id),
                "from": self._me(), "text": "(old message)"})  # fmt: skip
        self.push({"callback_query": {"id": query_id, "from": self.user(user_id), "chat_instance": f"ci{chat_id}",
                                      "data": data, "message": message}})  # fmt: skip
        return query_id

    # ------------------------------------------------------------------ faults

    def fail(
        self,
        method: str,
        code: int,
        description: str,
        *,
        times: int = 1,
        retry_after: int | None = None,
        when: Callable[[dict[str, Any]], bool] | None = None,
    ) -> Rule:
        """Make the next ``times`` calls of ``method`` (matching ``when``) answer an error."""
        rule = Rule(method, code, description, times, retry_after, when or (lambda params: True))
        with self._cond:
            self.rules.append(rule)
        return rule

    def block(self, chat_id: int) -> None:
        """The user of ``chat_id`` blocks the bot: every send to it answers 403."""
        with self._cond:
            self.blocked.add(chat_id)
