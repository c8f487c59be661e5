"""Moved to :mod:`corsbot_errors` (the neutral root of the exception tree); this alias is kept only
until the branches that still import it have rebased, then removed."""

from corsbot_errors import ConfigError, CorsbotError

__all__ = ["ConfigError", "CorsbotError"]
