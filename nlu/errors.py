"""Errors raised on purpose by the NLU package."""

from __future__ import annotations

from corsbot_errors import CorsbotError


class NluError(CorsbotError):
    """A model is missing, corrupt or cannot be trained on the given data."""
