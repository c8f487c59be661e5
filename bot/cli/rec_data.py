"""What the ``corsbot rec`` commands share: the released study's users, the domain's recommender, the
report folder. Its own module, so that ``rec``, ``rec_audit`` and ``rec_bench`` import it and not
each other (tests replace :func:`load_recommender` here)."""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict, Unpack

from bot import paths
from bot.likes import study_likes

if TYPE_CHECKING:
    from recommender.rec_eval import StudyUser
    from recommender.recommend import Recommender
    from recommender.weighting import GraphWeighting


class RecommenderOptions(TypedDict, total=False):
    """The options of ``recommender.recommend.Recommender`` a ``rec`` command may set (absent: its default)."""

    damping: float
    prior_mass: float
    method: str
    weighting: GraphWeighting
    interactions: Mapping[str, Iterable[str]] | None  # user key -> liked QIDs (collaborative edges)


def study_users(domain: str, files: Sequence[Path] | None = None) -> list[StudyUser]:
    """The released study's users of ``domain`` as the evaluation's :class:`StudyUser` values
    (:func:`bot.likes.study_likes`: key, liked and disliked QIDs in first-mention order).

    Raises:
        ConfigError: if no released file of the domain exists.
    """
    from recommender.rec_eval import StudyUser

    return [StudyUser(key, liked, disliked) for key, (liked, disliked) in study_likes(domain, files).items()]


def load_recommender(domain: str, **options: Unpack[RecommenderOptions]) -> Recommender:
    """Load the domain's KB snapshot and build its recommender.

    Raises:
        KnowledgeBaseError: with a clear message if the snapshot is missing (run ``corsbot kb build``).
    """
    from recommender.kb import KnowledgeBase
    from recommender.recommend import Recommender

    kb = KnowledgeBase.load(paths.kb_snapshot(domain))
    return Recommender(kb, **options)


def out_dir(args: argparse.Namespace) -> Path:
    """The report folder of a ``rec`` command (``--out``, default ``<home>/reports/rec``), created."""
    out = args.out or paths.reports_dir() / "rec"
    out.mkdir(parents=True, exist_ok=True)
    return out


__all__ = ["RecommenderOptions", "load_recommender", "out_dir", "study_users"]
