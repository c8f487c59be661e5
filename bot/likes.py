"""Users' likes for the recommender's collaborative edges, read from dataset-format logs.

Also the logged opinions the elicitation strategies count (:func:`logged_ratings`) and the study users
the elicitation evaluation simulates (:func:`study_opinions`); both also read the successor study's
conditions (``$CORSBOT_SHARED/jiis/<condition>/messages.json``, movie domain).

The recommender (``recommender.recommend.Recommender(kb, interactions=...)``) can add one node per
user linked to the items and values that user liked. This module gathers those likes from the
released ConveRSE study (``$CORSBOT_SHARED/converse/<domain>/messages_*.json``) and from the bot's
own session log; both the bot (:mod:`bot.compose`) and the CLI (``corsbot rec``, :mod:`bot.cli.rec`)
use it. It lives in ``bot`` because it reads ``logs`` records, which ``recommender`` never imports,
and it imports no evaluation code (``recommender.rec_eval``): the live bot runs it.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from bot import paths
from corsbot_errors import ConfigError

if TYPE_CHECKING:
    from logs.record import LogRecord, ReadResult
    from recommender.elicitation import RatingCounts

logger = logging.getLogger(__name__)


def _read_released(path: Path) -> ReadResult:
    """A released study file's records, read once per process while the file is unchanged (the
    collaborative edges and the elicitation counts of a domain both need them at its first use)."""
    stat = path.stat()
    return _read_released_cached(path.resolve(), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=16)
def _read_released_cached(path: Path, _mtime_ns: int, _size: int) -> ReadResult:
    from logs.record import read_records

    return read_records(path)


RATING_INTENT_PREFIXES = ("preference", "request_recommendation")
"""Turns whose ``recognizedObjects`` are the user's ratings: preference acquisition (incl.
disambiguation and confirmation) and rating/critiquing a recommended item."""


def study_likes(domain: str, files: Sequence[Path] | None = None) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """The released study's users of ``domain`` with their liked and disliked QIDs.

    A user is one ``userID`` of one file (the nl and mixed files have separate users). Opinions
    come from ``recognizedObjects`` of turns whose intent starts with one of
    :data:`RATING_INTENT_PREFIXES`, in timestamp order; a later opinion on the same QID wins.

    Args:
        domain: ``"movie"``, ``"book"`` or ``"music"``.
        files: dataset files to read (default: the released files of ``domain``).

    Returns:
        user key (``"<file>#<userID>"``) -> (liked QIDs, disliked QIDs), each in first-mention
        order; users with no opinion are left out. ``corsbot rec evaluate`` wraps them as
        ``recommender.rec_eval.StudyUser`` (evaluation code, which the live bot never imports).

    Raises:
        ConfigError: if no released file of the domain exists.
    """
    from logs.record import conversations
    from logs.schema import parse_objects

    if files is None:
        files = [p for p in paths.released_files() if p.parent.name == domain]
    files = [f for f in files if f.exists()]
    if not files:
        raise ConfigError(f"no released messages for {domain} under {paths.converse_dir()}")
    users: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    for path in files:
        result = _read_released(path)
        for problem in result.problems[:5]:
            logger.warning("%s: %s", path.name, problem)
        for user_id, records in sorted(conversations(result.records).items()):
            opinion: dict[str, str] = {}
            for rec in records:
                if not rec.intent.startswith(RATING_INTENT_PREFIXES):
                    continue
                for qid, polarity in parse_objects(rec.recognized_objects):
                    opinion.pop(qid, None)
                    opinion[qid] = polarity
            liked = tuple(q for q, p in opinion.items() if p == "+")
            disliked = tuple(q for q, p in opinion.items() if p == "-")
            if liked or disliked:
                users[f"{path.name}#{user_id}"] = (liked, disliked)
    return users


def interactions_for(
    domain: str, *, records: Sequence[LogRecord] = (), include_study: bool = True
) -> dict[str, tuple[str, ...]]:
    """Likes for ``Recommender(kb, interactions=...)``: the released study's and the bot's own.

    - study users (if the released files exist): key ``"<file>#<userID>"``, their liked QIDs
      (:func:`study_likes`);
    - the bot's logged turns ``records`` (``LogRecord``s, e.g. ``LogStore.records()``): key
      ``"bot#<user_id>"``, every QID logged with ``+`` in ``recognized_objects`` of a rating turn
      (a later ``-`` on the same QID removes it). Records of other domains may be passed: QIDs
      that are not nodes of the domain's graph are ignored by the recommender.

    Missing study files are not an error here (the bot still starts, with fewer user edges).

    Args:
        domain: the domain whose study files are read.
        records: the bot's logged ``LogRecord``s (any domain).
        include_study: False to use the bot's own likes only.

    Returns:
        user key -> liked QIDs (first-mention order).
    """
    from logs.record import conversations
    from logs.schema import parse_objects

    out: dict[str, tuple[str, ...]] = {}
    if include_study:
        try:
            out.update((key, liked) for key, (liked, _) in study_likes(domain).items() if liked)
        except ConfigError as exc:
            logger.warning("no study likes for %s: %s", domain, exc)
    for user_id, recs in conversations(records).items():
        opinion: dict[str, str] = {}
        for rec in recs:
            if not rec.intent.startswith(RATING_INTENT_PREFIXES):
                continue
            for qid, polarity in parse_objects(rec.recognized_objects):
                opinion[qid] = polarity
        liked = tuple(q for q, p in opinion.items() if p == "+")
        if liked:
            out[f"bot#{user_id}"] = liked
    return out


def file_key(path: Path) -> str:
    """The prefix of a study user's key for a dataset file: its name (``messages_nl.json``), with its
    folder when the name alone is not telling (``popularity/messages.json`` of the successor study)."""
    path = Path(path)
    return f"{path.parent.name}/{path.name}" if path.name == "messages.json" else path.name


def study_files(domain: str, *, include_jiis: bool = True) -> list[Path]:
    """The released message files of ``domain`` that exist: the ConveRSE study's and, for movies,
    the successor study's conditions (``include_jiis``)."""
    files = [p for p in paths.released_files() if p.parent.name == domain]
    if include_jiis and domain == "movie":
        files += paths.jiis_files()
    return [f for f in files if f.exists()]


def study_opinions(files: Sequence[Path]) -> list[tuple[str, tuple[tuple[str, str], ...]]]:
    """Each user's opinions in the order first given: ``[(key, ((qid, "+"|"-"), ...)), ...]``.

    A user is one ``userID`` of one file, keyed ``"<file_key>#<userID>"`` (:func:`file_key`).
    Opinions come from ``recognizedObjects`` of turns whose intent starts with one of
    :data:`RATING_INTENT_PREFIXES` (in the successor study, rating a suggested item is a
    ``preference`` turn); a later opinion on a QID changes its polarity, not its position.
    Unreadable records are skipped with a warning; users without any opinion are left out.

    Raises:
        RecordError: a file cannot be read as a JSON array.
    """
    from logs.record import conversations
    from logs.schema import parse_objects

    out = []
    for path in files:
        result = _read_released(path)
        for problem in result.problems[:5]:
            logger.warning("%s: %s", path, problem)
        for user_id, records in sorted(conversations(result.records).items()):
            opinion: dict[str, str] = {}
            for rec in records:
                if rec.intent.startswith(RATING_INTENT_PREFIXES):
                    for qid, polarity in parse_objects(rec.recognized_objects):
                        opinion[qid] = polarity
            if opinion:
                out.append((f"{file_key(path)}#{user_id}", tuple(opinion.items())))
    return out


def logged_ratings(
    domain: str,
    *,
    records: Sequence[LogRecord] = (),
    include_study: bool = True,
    exclude_files: Sequence[Path] = (),
) -> RatingCounts:
    """Logged likes and dislikes per QID for the elicitation strategies (popularity, variance).

    Counts distinct users: the released studies' users of ``domain`` (:func:`study_files`, minus
    ``exclude_files``, e.g. the file being replayed, whose answers would otherwise leak into its own
    suggestions) and the bot's own logged users (``records``: ``LogRecord``s of any domain; QIDs
    outside the domain's graph are ignored by the strategies). Missing study files are not an error.

    Returns:
        :class:`recommender.elicitation.RatingCounts`.
    """
    from logs.record import conversations
    from logs.schema import parse_objects
    from recommender.elicitation import RatingCounts

    users: list[tuple[list[str], list[str]]] = []
    if include_study:
        skip = {Path(f).resolve() for f in exclude_files}
        files = [f for f in study_files(domain) if f.resolve() not in skip]
        for _key, opinions in study_opinions(files):
            users.append(([q for q, p in opinions if p == "+"], [q for q, p in opinions if p == "-"]))
    for _user_id, recs in conversations(records).items():
        opinion: dict[str, str] = {}
        for rec in recs:
            if rec.intent.startswith(RATING_INTENT_PREFIXES):
                for qid, polarity in parse_objects(rec.recognized_objects):
                    opinion[qid] = polarity
        if opinion:
            users.append(([q for q, p in opinion.items() if p == "+"], [q for q, p in opinion.items() if p == "-"]))
    return RatingCounts.from_opinions(users)
