"""The Bot API methods the fake server implements (the subset the channel uses)."""

from __future__ import annotations

import json
import threading
import time
from typing import TYPE_CHECKING, Any

from bot.channels.fake_bot_api.markup import (
    MAX_CAPTION,
    MAX_TEXT,
    ApiError,
    int_param,
    parse_markup,
    required_int,
    set_markup,
    visible,
)


class BotMethods:
    """Mixin of :class:`~bot.channels.fake_bot_api.server.FakeTelegram`: one ``_m_<method>`` per Bot API
    method, called with the parsed parameters under the server's lock."""

    _cond: threading.Condition
    _queue: list[dict[str, Any]]
    messages: dict[tuple[int, int], dict[str, Any]]
    events: list[dict[str, Any]]
    answered: list[tuple[str, str | None]]
    commands: list[dict[str, Any]]
    webhook: dict[str, Any] | None

    if TYPE_CHECKING:  # given by the server and the other mixin (UpdateScripting)

        def _me(self) -> dict[str, Any]: ...
        def _message_id(self, chat_id: int) -> int: ...
        @staticmethod
        def private_chat(user_id: int) -> dict[str, Any]: ...

    def _m_getMe(self, params: dict[str, Any]) -> dict[str, Any]:  # noqa: N802
        return self._me()

    def _m_setMyCommands(self, params: dict[str, Any]) -> bool:  # noqa: N802
        self.commands = params.get("commands") or []
        return True

    def _m_deleteWebhook(self, params: dict[str, Any]) -> bool:  # noqa: N802
        self.webhook = None
        return True

    def _m_setWebhook(self, params: dict[str, Any]) -> bool:  # noqa: N802
        self.webhook = {"url": params["url"], "secret_token": params.get("secret_token")}
        return True

    def _m_getWebhookInfo(self, params: dict[str, Any]) -> dict[str, Any]:  # noqa: N802
        return {"url": (self.webhook or {}).get("url", ""), "has_custom_certificate": False,
                "pending_update_count": len(self._queue)}  # fmt: skip

    def _m_close(self, params: dict[str, Any]) -> bool:
        return True

    _m_logOut = _m_close  # noqa: N815

    def _m_sendChatAction(self, params: dict[str, Any]) -> bool:  # noqa: N802
        return True

    def _m_answerCallbackQuery(self, params: dict[str, Any]) -> bool:  # noqa: N802
        self.answered.append((str(params["callback_query_id"]), params.get("text")))
        return True

    def _m_deleteMessage(self, params: dict[str, Any]) -> bool:  # noqa: N802
        key = (required_int(params, "chat_id"), required_int(params, "message_id"))
        if self.messages.pop(key, None) is None:
            raise ApiError(400, "Bad Request: message to delete not found")
        return True

    def _m_sendMessage(self, params: dict[str, Any]) -> dict[str, Any]:  # noqa: N802
        chat_id = required_int(params, "chat_id")
        text = visible(params.get("text") or "", params.get("parse_mode"), MAX_TEXT, "message is too long")
        if not text.strip():
            raise ApiError(400, "Bad Request: message text is empty")
        markup = parse_markup(params.get("reply_markup"))
        message = self._new_message(chat_id, {"text": text}, markup)
        self._event("sendMessage", message, params)
        return message

    def _m_sendPhoto(self, params: dict[str, Any]) -> dict[str, Any]:  # noqa: N802
        chat_id = required_int(params, "chat_id")
        photo = params.get("photo")
        if not isinstance(photo, str) or not photo:
            raise ApiError(400, "Bad Request: there is no photo in the request")
        caption = params.get("caption")
        fields: dict[str, Any] = {"photo": [{"file_id": photo, "file_unique_id": "u" + str(abs(hash(photo)) % 10**8),
                                             "width": 300, "height": 450}]}  # fmt: skip
        if caption:
            fields["caption"] = visible(caption, params.get("parse_mode"), MAX_CAPTION, "message caption is too long")
        message = self._new_message(chat_id, fields, parse_markup(params.get("reply_markup")))
        self._event("sendPhoto", message, params, photo=photo)
        return message

    def _m_editMessageText(self, params: dict[str, Any]) -> dict[str, Any]:  # noqa: N802
        message = self._existing(params)
        if "text" not in message:
            raise ApiError(400, "Bad Request: there is no text in the message to edit")
        text = visible(params.get("text") or "", params.get("parse_mode"), MAX_TEXT, "message is too long")
        markup = parse_markup(params.get("reply_markup"))
        if text == message["text"] and markup == message.get("reply_markup"):
            raise ApiError(400, "Bad Request: message is not modified: specified new message content and reply "
                                "markup are exactly the same as a current content and reply markup of the message")  # fmt: skip
        message["text"] = text
        set_markup(message, markup)
        message["edit_date"] = int(time.time())
        self._event("editMessageText", message, params)
        return message

    def _m_editMessageCaption(self, params: dict[str, Any]) -> dict[str, Any]:  # noqa: N802
        message = self._existing(params)
        caption = params.get("caption") or ""
        message["caption"] = visible(caption, params.get("parse_mode"), MAX_CAPTION, "message caption is too long")
        set_markup(message, parse_markup(params.get("reply_markup")))
        self._event("editMessageCaption", message, params)
        return message

    def _m_editMessageMedia(self, params: dict[str, Any]) -> dict[str, Any]:  # noqa: N802
        message = self._existing(params)
        media = params.get("media")
        media = json.loads(media) if isinstance(media, str) else media
        if not isinstance(media, dict) or media.get("type") != "photo":
            raise ApiError(400, "Bad Request: wrong media type")
        if "photo" not in message:
            raise ApiError(400, "Bad Request: message can't be edited")
        message["photo"] = [{"file_id": media["media"], "file_unique_id": "m", "width": 300, "height": 450}]
        caption = media.get("caption")
        if caption:
            message["caption"] = visible(caption, media.get("parse_mode"), MAX_CAPTION, "message caption is too long")
        else:
            message.pop("caption", None)
        set_markup(message, parse_markup(params.get("reply_markup")))
        self._event("editMessageMedia", message, params, photo=media["media"])
        return message

    def _m_editMessageReplyMarkup(self, params: dict[str, Any]) -> dict[str, Any]:  # noqa: N802
        message = self._existing(params)
        set_markup(message, parse_markup(params.get("reply_markup")))
        self._event("editMessageReplyMarkup", message, params)
        return message

    # ------------------------------------------------------------------ helpers

    def _new_message(self, chat_id: int, fields: dict[str, Any], markup: dict[str, Any] | None) -> dict[str, Any]:
        message = {"message_id": self._message_id(chat_id), "date": int(time.time()), "chat": self.private_chat(chat_id),
                   "from": self._me(), **fields}  # fmt: skip
        set_markup(message, markup)
        self.messages[(chat_id, message["message_id"])] = message
        return message

    def _existing(self, params: dict[str, Any]) -> dict[str, Any]:
        key = (required_int(params, "chat_id"), required_int(params, "message_id"))
        message = self.messages.get(key)
        if message is None:
            raise ApiError(400, "Bad Request: message to edit not found")
        return message

    def _event(self, method: str, message: dict[str, Any], params: dict[str, Any], *, photo: str | None = None) -> None:
        markup = message.get("reply_markup")
        self.events.append({
            "method": method, "chat_id": message["chat"]["id"], "message_id": message["message_id"],
            "text": message.get("text"), "caption": message.get("caption"), "photo": photo,
            "parse_mode": params.get("parse_mode"), "reply_to": int_param(params.get("reply_to_message_id") or (params.get("reply_parameters") or {}).get("message_id")),
            "buttons": [[(b["text"], b.get("callback_data")) for b in row] for row in markup["inline_keyboard"]]
            if markup else [],
            "time": time.monotonic(),
        })  # fmt: skip
