"""The ConveRSE dataset's vocabulary: intent, context and event names, and list/object formats.

Names are exactly those of the released messages (``../shared/data/converse``) and of the original
DialogFlow agent (``../shared/data/dialogflow-agent/intents``). String conventions of the dataset:

- ``recognizedObjects``: ``"Q83495+, Q2263-"`` (QID + polarity, ``", "``-separated);
- ``events`` and ``contexts``: ``"question, recommendation"`` (``", "``-separated, may be empty).

Example:
    >>> parse_objects("Q83495+, Q2263-")
    (('Q83495', '+'), ('Q2263', '-'))
    >>> format_objects([("Q1", "+")])
    'Q1+'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import StrEnum

LIST_SEPARATOR = ", "


class Intent(StrEnum):
    """Intent names of the original agent, as logged in the dataset."""

    START = "start"
    HELP = "help"
    SKIP = "skip"
    FALLBACK = "Default Fallback Intent"
    WELCOME = "Default Welcome Intent"
    PREFERENCE = "preference"
    PREFERENCE_DISAMBIGUATION = "preference - disambiguation"
    PREFERENCE_HELP = "preference - help"
    PREFERENCE_YES = "preference - yes"
    PREFERENCE_NO = "preference - no"
    RECOMMENDATION = "request_recommendation"
    REC_PREFERENCE = "request_recommendation - preference"
    REC_SKIP = "request_recommendation - skip"
    REC_DETAILS = "request_recommendation - details"
    REC_TRAILER = "request_recommendation - trailer"
    REC_WHY = "request_recommendation - why"
    REC_YES_BUT = "request_recommendation - yes_but"
    REC_NO_BUT = "request_recommendation - no_but"
    REC_CRITIQUING_YES = "request_recommendation - critiquing - yes"
    REC_CRITIQUING_NO = "request_recommendation - critiquing - no"
    REC_CRITIQUING_DISAMBIGUATION = "request_recommendation - critiquing - disambiguation"
    REC_CRITIQUING_HELP = "request_recommendation - critiquing - help"
    REC_CRITIQUING_FALLBACK = "request_recommendation - critiquing - fallback"
    REC_STOP = "request_recommendation - stop"
    REC_HELP = "request_recommendation - help"
    REC_FALLBACK = "request_recommendation - fallback"
    SHOW_PROFILE = "show_profile"
    PROFILE_HELP = "show_profile - help"
    DELETE_PREFERENCE = "show_profile - delete_preference"
    DELETE_PREFERENCE_DISAMBIGUATION = "show_profile - delete_preference - disambiguation"
    DELETE_PREFERENCE_HELP = "show_profile - delete_preference - help"
    RESET_PROFILE = "reset_profile"
    RESET_PROFILE_CANCEL = "reset_profile - cancel"
    RESET_EVERYTHING = "reset - reset_everything"
    RESET_EVERYTHING_YES = "reset - reset_everything - yes"
    RESET_EVERYTHING_NO = "reset - reset_everything - no"
    RESET_ITEMS = "reset - reset_movies"
    RESET_ITEMS_YES = "reset - reset_movies - yes"
    RESET_ITEMS_NO = "reset - reset_movies - no"
    RESET_PROPERTIES = "reset - reset_properties"
    RESET_PROPERTIES_YES = "reset - reset_properties - yes"
    RESET_PROPERTIES_NO = "reset - reset_properties - no"


SMALLTALK_PREFIX = "smalltalk."


class Context(StrEnum):
    """Output context names of the original agent."""

    PREFERENCE = "preference-followup"
    PROPERTY_TYPE_DISAMBIGUATION = "property_type_disambiguation"
    CONFIRMATION = "confirmation"
    RECOMMENDATION = "request_recommendation-followup"
    REC_PREFERENCE = "request_recommendation-preference-followup"
    REC_CRITIQUING = "request_recommendation-critiquing-followup"
    SHOW_PROFILE = "show_profile-followup"
    DELETE_PREFERENCE = "show_profile-delete_preference-followup"
    RESET = "show_profile-reset-followup"
    RESET_PROFILE = "reset_profile-followup"
    RESET_EVERYTHING = "show_profile-reset-reset_everything-followup"
    RESET_ITEMS = "show_profile-reset-reset_movies-followup"
    RESET_PROPERTIES = "show_profile-reset-reset_properties-followup"


class Event(StrEnum):
    """System actions logged in ``events``."""

    PREFERENCE = "preference"
    QUESTION = "question"
    DISAMBIGUATION = "disambiguation"
    RECOMMENDATION = "recommendation"
    FINISHED_RECOMMENDATION = "finished_recommendation"
    SUGGESTION = "suggestion"
    """The successor study's (issue 13): the bot suggested an item to rate after this turn."""


def is_smalltalk(intent: str) -> bool:
    """True for DialogFlow prebuilt small-talk intents (``smalltalk.*``)."""
    return intent.startswith(SMALLTALK_PREFIX)


def parse_intent(raw: str) -> str:
    """Return ``raw`` if it is a known intent or a smalltalk intent, else the fallback intent name."""
    if raw in Intent._value2member_map_ or is_smalltalk(raw):
        return raw
    return Intent.FALLBACK.value


def split_list(raw: str | None) -> tuple[str, ...]:
    """Split a ``", "``-separated dataset field; empty or None gives ``()``."""
    if not raw:
        return ()
    return tuple(part.strip() for part in raw.split(",") if part.strip())


def join_list(values: Iterable[str]) -> str:
    """Join values the dataset's way (``"a, b"``)."""
    return LIST_SEPARATOR.join(values)


_OBJECT = re.compile(r"^(Q\d+)([+-])$")


def parse_objects(raw: str | None) -> tuple[tuple[str, str], ...]:
    """Parse ``recognizedObjects`` into ``((qid, "+"|"-"), ...)``; malformed parts are skipped."""
    out = []
    for part in split_list(raw):
        match = _OBJECT.match(part)
        if match:
            out.append((match.group(1), match.group(2)))
    return tuple(out)


def format_objects(objects: Iterable[tuple[str, str]]) -> str:
    """Format ``((qid, "+"|"-"), ...)`` as the dataset's ``"Q1+, Q2-"``."""
    return join_list(f"{qid}{polarity}" for qid, polarity in objects)
