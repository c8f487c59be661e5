"""Opinion cues for talk about movies, books and music, by strength (data for :mod:`nlu.sentiment`).

The cues are data, in three families of ``nlu/wording/`` (issue 24): ``opinion_cues.toml`` (preference
verbs and judgements of the work, descriptions of its content), ``slang.toml`` (slang, chat spellings and
emoji) and ``hedges.toml`` (weak and comparative readings). This module gathers them by strength, because a
stated preference outweighs a description:

- ``STATED_*``: preference verbs and phrases ("love", "hate", "big fan", "my favourite", "can't stand",
  "would recommend", "luv"); negatable ("not a fan of");
- ``EVALUATIVE_*``: judgements of the work, slang and emoji ("great", "boring", "sick", "a banger", "mid",
  "🔥", "🤮", "😴"); negatable ("not great");
- VADER's score of the clause (in :mod:`nlu.sentiment`), the weakest.

``HEDGES`` mark a weak or comparative reading ("it was okay", "not the worst"): the polarity is neutral, so
the dialog asks instead of storing (issue 12, F22). ``DESCRIPTIVE`` words describe the content, not the
user's opinion of it ("made me cry", "scary"): removed before VADER scores a clause.

Each is a tuple of lower-case phrases (the entity linker's word lists read the same tuples).

Example:
    >>> "love" in STATED_POSITIVE and "sick" in EVALUATIVE_POSITIVE and "meh" in HEDGES
    True
"""

from __future__ import annotations

from nlu.wording import family

__all__ = [
    "DESCRIPTIVE",
    "EVALUATIVE_NEGATIVE",
    "EVALUATIVE_POSITIVE",
    "HEDGES",
    "STATED_NEGATIVE",
    "STATED_POSITIVE",
]

_CUES, _SLANG, _HEDGES = family("opinion_cues"), family("slang"), family("hedges")

STATED_POSITIVE: tuple[str, ...] = _CUES.phrases("stated_positive") + _SLANG.phrases("stated_positive")
STATED_NEGATIVE: tuple[str, ...] = _CUES.phrases("stated_negative")
EVALUATIVE_POSITIVE: tuple[str, ...] = _CUES.phrases("evaluative_positive") + _SLANG.phrases("evaluative_positive")
EVALUATIVE_NEGATIVE: tuple[str, ...] = _CUES.phrases("evaluative_negative") + _SLANG.phrases("evaluative_negative")
HEDGES: tuple[str, ...] = _HEDGES.phrases("hedges")
DESCRIPTIVE: tuple[str, ...] = _CUES.phrases("descriptive")
