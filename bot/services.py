"""The components the dialog manager uses, loaded once and shared by every user and channel.

:class:`Services` holds the intent recognizer, the sentiment recognizer, and per domain a
:class:`DomainServices` (knowledge base, entity linker, recommender), loaded lazily the first time a
domain is used (the bot starts fast; a domain's snapshot loads in about a second).

Build it in ``main()`` (never at import) with :meth:`Services.from_home` or, in tests, from
objects made on small data.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot import paths
from logs.errors import ConfigError

logger = logging.getLogger(__name__)


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

    @classmethod
    def from_home(cls, *, model_dir: Path | None = None, kb_dir: Path | None = None) -> Services:
        """Load the trained intent model and the KB snapshots from the runtime folder.

        Raises:
            ConfigError: the intent model or the KB snapshots are missing (with the command to run).
        """
        from nlu.intents import IntentRecognizer
        from nlu.sentiment import SentimentRecognizer

        model_dir = model_dir or paths.intent_model()
        kb_dir = kb_dir or paths.kb_dir()
        if not model_dir.exists():
            raise ConfigError(
                f"no intent model at {model_dir} ({paths.home_hint(model_dir)}); "
                "or train one there with `make model` or `corsbot nlu train`"
            )
        if not any((kb_dir / d).exists() for d in paths.DOMAINS):
            raise ConfigError(
                f"no knowledge base in {kb_dir} ({paths.home_hint(kb_dir / 'movie')}); "
                "or build it there with `make kb` or `corsbot kb build`"
            )
        database = paths.database()

        def loader(domain: str) -> DomainServices:
            return load_domain(kb_dir / domain, interactions=collaborative_likes(domain, database))

        return cls(IntentRecognizer.load(model_dir), SentimentRecognizer(), loader)


def collaborative_likes(domain: str, database: Path | None) -> dict[str, tuple[str, ...]]:
    """Users' likes for the recommender's collaborative edges: the released study's users and the
    bot's own logged likes (``database``, if it exists). See :func:`bot.likes.interactions_for`."""
    from bot.likes import interactions_for
    from logs.store import LogStore

    records: list[Any] = []
    if database is not None and database.is_file():
        store = LogStore(database)
        try:
            records = store.records()
        finally:
            store.close()
    return interactions_for(domain, records=records)


def load_domain(snapshot: Path, *, interactions: dict[str, tuple[str, ...]] | None = None) -> DomainServices:
    """Load a domain snapshot and build its linker and recommender.

    Args:
        snapshot: the domain's snapshot folder.
        interactions: user key -> liked QIDs, added to the graph as user nodes (collaborative
            edges; ``recommender.recommend.Recommender``); None for the knowledge graph alone.

    Raises:
        KnowledgeBaseError: the snapshot is missing or unreadable.
    """
    from nlu.linker import EntityLinker
    from recommender.kb import KnowledgeBase
    from recommender.recommend import Recommender

    kb = KnowledgeBase.load(snapshot)
    logger.info("loaded %s knowledge base: %d items", kb.domain, len(kb.items))
    recommender = Recommender(kb, interactions=interactions) if interactions else Recommender(kb)
    return DomainServices(kb=kb, linker=EntityLinker(kb), recommender=recommender)
