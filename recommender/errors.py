"""Errors raised on purpose by the recommender package (knowledge base, SPARQL, PageRank)."""

from __future__ import annotations

from logs.errors import CorsbotError


class KnowledgeBaseError(CorsbotError):
    """No backend could answer, or a snapshot is missing or unreadable."""
