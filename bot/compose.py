"""The composition root: the services and the dialog manager built from the runtime folder.

The CLI (``corsbot chat``, ``replay``, ``telegram``, ``bench telegram``), the Telegram worker
processes (:mod:`bot.dialog_pool` calls a picklable ``functools.partial`` of
:func:`build_dialog_manager`) and the tests build the bot here, so that the dialog manager and the
channels never know where models, snapshots and the database live (``bot/paths.py``).

Example::

    dm = build_dialog_manager(db=paths.database(), session="chat")    # models and KB of $CORSBOT_HOME
    dm = build_dialog_manager(db=tmp / "db.sqlite3", session="test", services=fake_services)
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from bot import paths
from bot.services import DomainServices, RecommenderLike, Services
from corsbot_errors import ConfigError

if TYPE_CHECKING:
    from bot.dialog import DialogManager

logger = logging.getLogger(__name__)


def load_services(
    *,
    model_dir: Path | None = None,
    kb_dir: Path | None = None,
    logged_likes: bool = True,
    support_half: float | None = None,
) -> Services:
    """Load the trained intent model and, lazily per domain, the KB snapshots of the runtime folder.

    Args:
        model_dir: the intent model folder (default ``$CORSBOT_HOME/models/intent``).
        kb_dir: the folder of the domain snapshots (default ``$CORSBOT_HOME/kb``).
        logged_likes: the recommender's collaborative edges include the bot's own logged likes (the
            runtime database); False: the released studies' users only, so that an evaluation's figures
            do not depend on what was chatted on this machine.
        support_half: the recommender's ``support_half`` (``recommender.support``); None: its default. A
            released study's replay passes 0: the studies' recommenders walked the collaborative graph alone.

    Raises:
        ConfigError: the intent model or the KB snapshots are missing (with the command to run).
    """
    from nlu.acts import TrainedOnUse
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
    database = paths.database() if logged_likes else None

    def loader(domain: str) -> DomainServices:
        return load_domain(
            kb_dir / domain, interactions=lambda: collaborative_likes(domain, database), support_half=support_half
        )

    models = paths.models_dir()  # the stored text classifiers (a missing or stale one is fitted at its first use)
    return Services(IntentRecognizer.load(model_dir), SentimentRecognizer(models), loader, acts=TrainedOnUse(models))


def collaborative_likes(domain: str, database: Path | None) -> dict[str, tuple[str, ...]]:
    """Users' likes for the recommender's collaborative edges: the released study's users and the
    bot's own logged likes (``CORSBOT_DATABASE_URL``'s, else ``database``'s if it exists; none when
    ``database`` is None). See :func:`bot.likes.interactions_for`."""
    from bot.likes import interactions_for
    from logs.record import LogRecord
    from logs.store import LogStore

    records: list[LogRecord] = []
    url = database_url() if database is not None else None
    if url is not None:
        from bot.pgstore.store import PgLogStore

        with PgLogStore(url) as pg:
            records = pg.records()
    elif database is not None and database.is_file():
        store = LogStore(database)
        try:
            records = store.records()
        finally:
            store.close()
    return interactions_for(domain, records=records)


Interactions = dict[str, tuple[str, ...]]


def load_domain(
    snapshot: Path,
    *,
    interactions: Interactions | Callable[[], Interactions] | None = None,
    support_half: float | None = None,
) -> DomainServices:
    """Load a domain snapshot and build its linker and recommender.

    Args:
        snapshot: the domain's snapshot folder.
        interactions: user key -> liked QIDs, added to the graph as user nodes (collaborative
            edges; ``recommender.recommend.Recommender``); None for the knowledge graph alone. A
            callable returning them makes the recommender lazy: built, with the callable's likes
            (the released studies are read), at its first use, so the first preference turns
            after a start need only the KB and the linker.
        support_half: the recommender's ``support_half`` (``recommender.support``); None: its default.

    Raises:
        KnowledgeBaseError: the snapshot is missing or unreadable.
    """
    from nlu.linker import EntityLinker
    from recommender.kb import KnowledgeBase
    from recommender.recommend import Recommender

    kb = KnowledgeBase.load(snapshot)
    logger.info("loaded %s knowledge base: %d items", kb.domain, len(kb.items))

    def build(likes: Interactions | None) -> Recommender:
        if not likes:
            return Recommender(kb)
        if support_half is None:
            return Recommender(kb, interactions=likes)
        return Recommender(kb, interactions=likes, support_half=support_half)

    if callable(interactions):
        read = interactions
        recommender: RecommenderLike = cast(RecommenderLike, _Lazy(lambda: build(read())))
    else:
        recommender = build(interactions)
    return DomainServices(kb=kb, linker=EntityLinker(kb), recommender=recommender)


class _Lazy:
    """An object built at the first use of one of its attributes (thread-safe), standing in for it."""

    def __init__(self, build: Callable[[], object]) -> None:
        self._build = build
        self._built: object | None = None
        self._lock = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        if self._built is None:
            with self._lock:
                if self._built is None:
                    self._built = self._build()
        return getattr(self._built, name)


def build_dialog_manager(
    *,
    db: Path,
    session: str,
    services: Services | None = None,
    log_db: Path | None = None,
    elicitation: str | None = None,
    role_questions: bool = True,
    study_files_left_out: Sequence[Path] = (),
    scratch: bool = False,
    min_preferences: int | None = None,
    domain_requests: bool = True,
    hedge_questions: bool = True,
    dialogue_acts: bool = True,
    start_keeps_dialog: bool = False,
) -> DialogManager:
    """The dialog manager on the runtime folder's models and snapshots (or on ``services``).

    Args:
        db: SQLite file for dialog states (and the log, unless ``log_db`` is given).
        session: log session name (``"chat"``, ``"telegram"``, ``"replay:movie/messages_nl"``).
        services: prebuilt :class:`bot.services.Services` (default: :func:`load_services`).
        log_db: separate SQLite file for the session log.
        elicitation: the elicitation setting (``bot.suggestion.parse_elicitation``: a strategy, or
            ``domain=strategy`` pairs, ``""`` for the defaults); None: no suggestions in any domain.
            The strategies count the released studies' logged opinions and the bot's own (the log).
        role_questions: ask which role a named person is liked in (the successor study's replay: False).
        study_files_left_out: released study files whose opinions the strategies do not count (a
            replayed file: its users' answers must not choose their own suggestions).
        scratch: ``db`` is a throwaway SQLite file of an evaluation run (replay, realistic sentences):
            the server database of ``CORSBOT_DATABASE_URL`` is left alone, and the recommender's
            collaborative edges are the released studies' only (not the bot's logged likes).
        min_preferences: preferences needed before a list; None: the chat's and Telegram's
            (``bot.dialog.context.DEFAULT_MIN_PREFERENCES``, 1); a study's replay passes its own
            (``STUDY_MIN_PREFERENCES``, 3).
        domain_requests: "recommend me a book" while talking about films switches to books (a study's
            replay: False, its bots served one domain each).
        hedge_questions: a hedge at a card ("meh") asks "Did you like X?" (a study's replay: False, as its agent).
        dialogue_acts: the learned dialogue acts (``nlu.acts``) decide doubtful turns (a study's replay: False).
        start_keeps_dialog: /start only greets, the open question and the list stay (the successor study's replay).

    Raises:
        ConfigError: the model or knowledge base is missing (the message says which command to run).
        logs.store.DatabaseOpenError: the database cannot be opened (names the file and what to do).
    """
    from bot.dialog import DialogManager
    from bot.dialog.context import DEFAULT_MIN_PREFERENCES
    from bot.store import StateStore, TurnStore
    from logs.store import LogStore
    from logs.tocheck import compute_to_check

    services = services or load_services(logged_likes=not scratch)
    url = None if scratch else database_url()
    states: TurnStore
    if url is not None:  # PostgreSQL (issue 15): state, log and receipts in the server database
        from bot.pgstore.store import PgLogStore, PgStateStore

        log = cast(LogStore, PgLogStore(url))  # it has the LogStore methods the dialog uses (append, rows, ...)
        states = PgStateStore(url)
    else:
        log = LogStore(log_db or db)
        states = StateStore(db)
    factory = None
    if elicitation is not None:
        from bot.suggestion import elicitor_factory, parse_elicitation

        strategies = parse_elicitation(elicitation)
        if any(name != "none" for name in strategies.values()):
            # the bot's own opinions count too; a replay counts the released studies only
            records = log.records() if not study_files_left_out and hasattr(log, "records") else []
            factory = elicitor_factory(
                services, strategies.__getitem__, records=records, exclude_files=study_files_left_out
            )
    return DialogManager(
        services,
        states,
        log,
        session=session,
        to_check=compute_to_check,
        elicitation=factory,
        role_questions=role_questions,
        min_preferences=DEFAULT_MIN_PREFERENCES if min_preferences is None else min_preferences,
        domain_requests=domain_requests,
        hedge_questions=hedge_questions,
        dialogue_acts=dialogue_acts,
        start_keeps_dialog=start_keeps_dialog,
    )


def database_url() -> str | None:
    """``$CORSBOT_DATABASE_URL`` when it is a PostgreSQL URL, else None (SQLite under ``$CORSBOT_HOME``).

    Raises:
        ConfigError: the variable is set to something else than ``postgresql://...``.
    """
    import os

    from corsbot_errors import ConfigError

    url = os.environ.get("CORSBOT_DATABASE_URL", "").strip()
    if not url:
        return None
    if not url.startswith(("postgresql://", "postgres://")):
        raise ConfigError("CORSBOT_DATABASE_URL must be a postgresql://user:password@host:port/dbname URL (or unset)")
    from urllib.parse import urlsplit

    from bot.redact import register_secret

    register_secret(urlsplit(url).password)
    return url
