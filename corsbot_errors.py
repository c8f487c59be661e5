"""The root of corsbot's exception tree: dependency-free, so every package may import it.

``nlu``, ``recommender`` and ``logs`` import nothing of each other upwards (docs/DESIGN.md), yet all
their deliberate errors share one root so that a CLI or channel handler can tell "our" errors (a
clear one-line message) from bugs (a traceback in the log). Each package roots its own errors here:
``nlu.errors.NluError``, ``recommender.errors.KnowledgeBaseError``, ``logs.record.RecordError``,
``logs.store.StoreError``.

Example:
    >>> issubclass(ConfigError, ValueError) and issubclass(ConfigError, CorsbotError)
    True
"""

from __future__ import annotations

__all__ = ["ConfigError", "CorsbotError"]


class CorsbotError(Exception):
    """Base of every error corsbot raises on purpose; its message is shown to the user as is."""


class ConfigError(CorsbotError, ValueError):
    """A setting, path or argument is missing or out of range."""
