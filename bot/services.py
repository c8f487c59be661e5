"""The components the dialog manager uses, loaded once and shared by every user and channel.

:class:`Services` holds the intent recognizer, the sentiment recognizer, and per domain a
:class:`DomainServices` (knowledge base, entity linker, recommender), loaded lazily the first time a
domain is used (the bot starts fast; a domain's snapshot loads in about a second).

Built by the composition root (:func:`bot.compose.load_services`, from ``$CORSBOT_HOME``) or, in
tests, from objects made on small data; never at import.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class DomainServices:
    """What the dialog needs for one domain.

    Attributes:
        kb: the domain's ``recommender.kb.KnowledgeBase``.
        linker: an ``nlu.linker.EntityLinker`` over ``kb``.
        recommender: a ``recommender.recommend.Recommender`` over ``kb``.
    """

    kb: Any
    linker: Any
    recommender: Any


class Services:
    """Shared, lazily loaded NLU and recommender components.

    Args:
        intents: an object with ``predict(text, contexts) -> IntentPrediction``.
        sentiment: an object with ``polarities(text, spans) -> tuple[Polarity, ...]``.
        domain_loader: ``domain -> DomainServices``; called once per domain (thread-safe).
    """

    def __init__(self, intents: Any, sentiment: Any, domain_loader: Callable[[str], DomainServices]) -> None:
        self.intents = intents
        self.sentiment = sentiment
        self._loader = domain_loader
        self._domains: dict[str, DomainServices] = {}
        self._lock = threading.Lock()

    def domain(self, name: str) -> DomainServices:
        """The services of domain ``name``, loading them on first use.

        Raises:
            KnowledgeBaseError: the domain's snapshot is missing or unreadable.
        """
        with self._lock:
            if name not in self._domains:
                self._domains[name] = self._loader(name)
            return self._domains[name]
