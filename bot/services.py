"""The components the dialog manager uses, loaded once and shared by every user and channel.

:class:`Services` holds the intent recognizer, the sentiment recognizer, and per domain a
:class:`DomainServices` (knowledge base, entity linker, recommender), loaded lazily the first time a
domain is used (the bot starts fast; a domain's snapshot loads in about a second).

Built by the composition root (:func:`bot.compose.load_services`, from ``$CORSBOT_HOME``) or, in
tests, from objects made on small data; never at import.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any, Protocol

from nlu.acts import ActModel, TrainedOnUse
from nlu.understand import IntentModel, Linker, PolarityModel
from recommender.explain import Reason
from recommender.values import Avoid, Profile, Recommendations


class KnowledgeBaseLike(Protocol):
    """What the dialog uses of ``recommender.kb.KnowledgeBase`` (test fakes implement the same)."""

    @property
    def domain(self) -> str: ...
    @property
    def items(self) -> AbstractSet[str]: ...
    def has(self, qid: str) -> bool: ...
    def is_item(self, qid: str) -> bool: ...
    def label(self, qid: str) -> str: ...
    def roles(self, qid: str) -> tuple[str, ...]: ...
    def item_values(self, item: str) -> tuple[tuple[str, str], ...]: ...
    def details(self, qid: str) -> Any: ...


class RecommenderLike(Protocol):
    """What the dialog uses of ``recommender.recommend.Recommender``."""

    def recommend(
        self,
        profile: Profile,
        *,
        k: int = 5,
        exclude: Iterable[str] = (),
        seeds: Iterable[str] = (),
        avoid: Iterable[Avoid] = (),
        require: Iterable[str] = (),
    ) -> Recommendations: ...
    def explain(self, profile: Profile, item: str) -> tuple[Reason, ...]: ...


@dataclass(frozen=True, slots=True)
class DomainServices:
    """What the dialog needs for one domain.

    Attributes:
        kb: the domain's knowledge base (``recommender.kb.KnowledgeBase``).
        linker: an entity linker over ``kb`` (``nlu.linker.EntityLinker``).
        recommender: a recommender over ``kb`` (``recommender.recommend.Recommender``).
    """

    kb: KnowledgeBaseLike
    linker: Linker
    recommender: RecommenderLike


class Services:
    """Shared, lazily loaded NLU and recommender components.

    Args:
        intents: the intent recognizer (``nlu.intents.IntentRecognizer``).
        sentiment: the per-entity polarity recognizer (``nlu.sentiment.SentimentRecognizer``).
        domain_loader: ``domain -> DomainServices``; called once per domain (thread-safe).
        acts: the dialogue-act classifier (``nlu.acts``), made at its first prediction; None: one fitted in memory
            then (``bot.compose`` passes the one stored in the models folder).
    """

    def __init__(
        self,
        intents: IntentModel,
        sentiment: PolarityModel,
        domain_loader: Callable[[str], DomainServices],
        *,
        acts: ActModel | None = None,
    ) -> None:
        self.intents = intents
        self.sentiment = sentiment
        self.acts: ActModel = acts or TrainedOnUse()
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
