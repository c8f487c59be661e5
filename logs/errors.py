"""The root of corsbot's exception tree (dependency-free, importable by every package)."""

from __future__ import annotations


class CorsbotError(Exception):
    """Base of every error corsbot raises on purpose; its message is shown to the user as is."""


class ConfigError(CorsbotError, ValueError):
    """A setting, path or argument is missing or out of range."""
