"""The entity linker over a built KB snapshot of ``$CORSBOT_HOME`` for the linking tests on real data: one per
domain and test session (loading a snapshot takes seconds), skipped when the snapshot has not been built."""

from __future__ import annotations

import functools

import pytest

from bot import paths


def real_linker(domain: str):
    """The :class:`nlu.linker.EntityLinker` of ``domain``'s snapshot; skips the test when it is not built."""
    if not paths.kb_snapshot(domain).exists():
        pytest.skip(f"{domain} KB snapshot not built (corsbot kb build)")
    return _load(domain)


@functools.cache
def _load(domain: str):
    from nlu.linker import EntityLinker
    from recommender.kb import KnowledgeBase

    return EntityLinker(KnowledgeBase.load(paths.kb_snapshot(domain)))


def tops(linker, text: str) -> list[str]:
    """The QIDs the linker takes for ``text`` (each unambiguous mention's first candidate), in order."""
    return [m.candidates[0].qid for m in linker.link(text) if not m.ambiguous]
