"""The turn context every handler receives: the state it may change, the turn, its one parse, the services."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.dialog.acts import PreferenceTask
from bot.services import DomainServices, KnowledgeBaseLike, Services
from bot.state import DialogState
from bot.turns import Turn
from nlu.understand import TurnParse

DEFAULT_MIN_PREFERENCES = 1
"""Preferences needed before recommending in chat and Telegram: a list from the first evidence (one liked
item, a person, a genre, the seed of "more like X"; issue 22: in a public corpus of recommendation
dialogues 6 seekers in 10 never named a third title)."""
STUDY_MIN_PREFERENCES = 3
"""The original ConveRSE system's rule, part of its user study's protocol: the replays of the released
studies (``corsbot replay``) are configured with it."""
DEFAULT_LIST_SIZE = 5
"""Items per recommendation list, presented one at a time (as in the paper)."""


@dataclass(frozen=True, slots=True)
class DialogConfig:
    """Settings of the dialog policy.

    Attributes:
        min_preferences: preferences needed before recommending (:data:`DEFAULT_MIN_PREFERENCES` in chat
            and Telegram, :data:`STUDY_MIN_PREFERENCES` in a study's replay).
        list_size: items per recommendation list.
        elicitation: ``domain -> Elicitor | None``, the strategy that suggests items to rate
            (``bot.suggestion.elicitor_factory``; issue 13); None: no suggestions in any domain.
        role_questions: ask "as actor or producer?" about a person with several roles (the successor
            study's system did not: its replay sets False, and the person is stored without a role).
        domain_requests: a request for another domain's items ("recommend me a book" while talking about
            films) switches to that domain (issue 22); the released studies' bots each served one domain,
            where such words meant the bot's own items: their replays set False.
        hedge_questions: a hedge at a card ("meh", "it's ok i guess") asks "Did you like X?" (issue 22); the released
            studies' agents passed over it: their replays set False.
        dialogue_acts: the learned dialogue acts (``nlu.acts``) decide where the intent classifier leaves doubt
            (issue 22); a study's replay sets False, its agent heard the study's intents alone.
        start_keeps_dialog: /start only greets: the open question (a suggestion too), the list and the session's
            constraints stay. The successor study's system did so (its StartHandler only said the introduction:
            "Yes" after a /start still answered the question before it); its replay sets True.
    """

    min_preferences: int = DEFAULT_MIN_PREFERENCES
    list_size: int = DEFAULT_LIST_SIZE
    elicitation: Callable[[str], Any] | None = None
    role_questions: bool = True
    domain_requests: bool = True
    hedge_questions: bool = True
    dialogue_acts: bool = True
    start_keeps_dialog: bool = False


@dataclass(slots=True)
class TurnContext:
    """One turn as a handler sees it.

    Attributes:
        state: the user's dialog state (the handler changes it; the manager saves it).
        turn: the channel's input.
        parse: what the turn says (:func:`nlu.understand.understand`, called once per turn).
        services: the shared NLU and recommender components.
        config: the dialog settings.
        refinable: the preference tasks the previous turn stored (a follow-up may refine them).
    """

    state: DialogState
    turn: Turn
    parse: TurnParse
    services: Services
    config: DialogConfig
    refinable: list[PreferenceTask] = field(default_factory=list)

    @property
    def domain(self) -> DomainServices:
        """The services of the conversation's domain (knowledge base, linker, recommender)."""
        return self.services.domain(self.state.domain)

    @property
    def kb(self) -> KnowledgeBaseLike:
        return self.domain.kb

    @property
    def text(self) -> str:
        """The normalised text (what a card's like/dislike button says, for a press)."""
        return self.parse.text
