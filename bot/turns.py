"""Channel-independent values exchanged between a channel and the dialog manager.

A channel (terminal chat, replay, Telegram) turns whatever it receives into a :class:`Turn`, hands
it to ``DialogManager.handle`` and renders the returned :class:`Reply`. No channel type (Telegram
``Update``, ``chat_id``, ``ParseMode``, keyboards) crosses this boundary (DialogueKit / Rasa).

Example:
    >>> Turn(user_id="tg:42", text="I like Dune")
    Turn(user_id='tg:42', text='I like Dune', payload=None, interaction_type='NL', timestamp_ms=None, key=None)
    >>> Choice("Skip", "skip").payload
    'skip'
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_PAYLOAD_BYTES = 64
"""Telegram's limit on ``callback_data`` (Bot API, InlineKeyboardButton), applied to every payload."""


@dataclass(frozen=True, slots=True)
class Turn:
    """One user input.

    Attributes:
        user_id: stable user key, prefixed by channel (``"tg:42"``, ``"cli:local"``, ``"replay:movie_nl:7"``).
        text: what the user typed, or the label of the button pressed.
        payload: the pressed button's payload (an id, never a label), or None for typed text.
        interaction_type: ``"NL"`` (typed) or ``"mixed"`` (a session where buttons are offered), as logged.
        timestamp_ms: when the message was sent (ms since epoch); None means now.
        key: idempotency key of the turn (``"tg:<bot id>:<update id>"``), or None: a turn whose key
            was already applied is not applied again (the stored reply is returned), so a channel
            may hand the same update over twice after a crash (issue 17, item 1).
    """

    user_id: str
    text: str
    payload: str | None = None
    interaction_type: str = "NL"
    timestamp_ms: int | None = None
    key: str | None = None


@dataclass(frozen=True, slots=True)
class Choice:
    """A button offered with a reply: the label shown and the payload sent back (<= 64 bytes UTF-8)."""

    label: str
    payload: str

    def __post_init__(self) -> None:
        if len(self.payload.encode("utf-8")) > MAX_PAYLOAD_BYTES:
            raise ValueError(f"payload over {MAX_PAYLOAD_BYTES} bytes: {self.payload!r}")


@dataclass(frozen=True, slots=True)
class Reply:
    """What the bot answers to one turn.

    Attributes:
        text: plain text (channels escape it for their markup).
        choices: buttons, in display order (may be empty).
        image: URL of an image to show with the text (e.g. a poster), or None.
        card: True when the reply is a recommendation/disambiguation card that a later button press
            may edit in place.
    """

    text: str
    choices: tuple[Choice, ...] = ()
    image: str | None = None
    card: bool = False
