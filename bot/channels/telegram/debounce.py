"""Debounce of repeated taps on one card (field case F05): while a tap on a card is being computed,
further taps on it are answered "working on it" at once; when the computation ends, the *last* of
them runs, unless it repeats the payload just run or the card was meanwhile edited in place (the tap
was made on the card's previous version: a generic "like" must not land on the next item)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from telegram import Message, Update

logger = logging.getLogger(__name__)


class TapDebouncer:
    """Which taps run: :meth:`gate` in arrival order, :meth:`next_tap` after each run, :meth:`release`.

    Args:
        enabled: False admits every update.
        answer: called with a tap that is not admitted (to answer it "working on it").
        settle: called with a tap that was not admitted once it is dropped for good (replaced by a
            later tap, or not run at the end), so its stored update can be marked handled.
    """

    def __init__(
        self, *, enabled: bool, answer: Callable[[Update], None], settle: Callable[[Update], None] = lambda u: None
    ) -> None:
        self._enabled = enabled
        self._answer = answer
        self._settle = settle
        self._busy: dict[tuple[int, int], int] = {}  # card (chat, message) -> update_id computing it
        self._pending: dict[tuple[int, int], Update] = {}  # card -> last tap received while busy

    def gate(self, update: object) -> bool:
        """Called in arrival order: False for a tap on a card whose previous tap is still running."""
        if not self._enabled or not isinstance(update, Update):
            return True
        query = update.callback_query
        if query is None or not isinstance(query.message, Message):
            return True
        card = (query.message.chat.id, query.message.message_id)
        if card not in self._busy:
            self._busy[card] = update.update_id
            return True
        replaced = self._pending.get(card)
        self._pending[card] = update  # the last request wins
        if replaced is not None:
            self._settle(replaced)
        self._answer(update)
        return False

    def done(self, update: object) -> None:
        """Called when an admitted update is finished: free its card if it still marks it busy."""
        if isinstance(update, Update) and update.callback_query is not None:
            message = update.callback_query.message
            if isinstance(message, Message):
                card = (message.chat.id, message.message_id)
                if self._busy.get(card) == update.update_id:  # the handler did not run or failed early
                    del self._busy[card]
                    pending = self._pending.pop(card, None)
                    if pending is not None:
                        self._settle(pending)

    def next_tap(self, card: tuple[int, int] | None, done_payload: str | None, *, edited: bool) -> Update | None:
        """The last tap received on ``card`` while it was busy, if it should still run (F05).

        A repeat of the payload just run is dropped (one computation for 25 taps on "more"); so is
        any tap once the card was edited in place, because it was made on the previous version of
        the card (a "like" meant for the item the user saw, not the one shown now). Otherwise the
        last request wins. Dropped taps were already answered "working on it".
        """
        pending = self._pending.pop(card, None) if card is not None else None
        if pending is None or pending.callback_query is None:
            return None
        if pending.callback_query.data == done_payload or edited:
            logger.debug("dropped a debounced tap %r on card %s", pending.callback_query.data, card)
            self._settle(pending)
            return None
        return pending

    def release(self, card: tuple[int, int]) -> None:
        """The card's taps are all done: forget it."""
        pending = self._pending.pop(card, None)
        if pending is not None:
            self._settle(pending)
        self._busy.pop(card, None)
