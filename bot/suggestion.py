"""The successor study's suggestion protocol: reading the user's answer about a suggested item (issue 13).

After a preference, once the user has given :data:`FREE_TEXT_PREFERENCES` preferences in free text (3
stored preferences, or 3 preference messages when some named nothing the bot could store), the bot
asks about one suggested item ("Do you like Scarface?", with like / dislike / skip buttons in mixed
mode), until the user has rated :data:`MAX_RATED_SUGGESTIONS` of them (skips do not count). The next
message may answer it, or do something else: ``nlu.suggestion_answer.read_answer`` decides which.

The counts are the original system's configuration (``numFreeTextPreferences`` = 3,
``numSuggestedItems`` = 5 in ``configuration.json`` of aiovine/conversational-recommender-jiis; the
original counted stored preferences, which with our linker can lag behind what the user said, hence
"or 3 preference messages", a count its dialog state also kept).

Example:
    >>> parse_elicitation("movie=item2item")["movie"]
    'item2item'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

DEFAULT_STRATEGIES: dict[str, str] = {"movie": "highest", "book": "none", "music": "none"}
"""The strategy of each domain unless set: none (the first study's behaviour) for books and music, where
no study of the protocol exists; for movies ``highest``, the best of ``corsbot rec elicitation-eval`` at
K = 5 on its dev users (HR@10 0.560, tied with popularity, the others 0.525-0.550; NDCG@10 0.323 against
0.277-0.302; rated share 0.116 against 0.029-0.047), confirmed on the held-back users (HR@10 0.589, tied
with popularity; NDCG@10 0.367 against 0.316-0.349; rated share 0.121)."""
ENV_VARIABLE = "CORSBOT_ELICITATION"
"""The deployment's setting when ``--elicitation`` is not given (same syntax)."""

FREE_TEXT_PREFERENCES = 3
"""Preferences the user gives in free text before the first suggestion."""
MAX_RATED_SUGGESTIONS = 5
"""Suggested items the user rates before the bot stops suggesting (skips do not count)."""


def parse_elicitation(text: str | None) -> dict[str, str]:
    """The strategy per domain from a setting: one strategy for every domain (``"popularity"``,
    ``"nosuggestions"``) or ``domain=strategy`` pairs (``"movie=item2item,book=none"``; domains not
    named keep :data:`DEFAULT_STRATEGIES`). None or empty: the defaults.

    Raises:
        ConfigError: an unknown strategy or domain (the message lists the valid names).
    """
    from bot.paths import DOMAINS
    from corsbot_errors import ConfigError
    from recommender.elicitation import strategy_name

    out = dict(DEFAULT_STRATEGIES)
    text = (text or "").strip()
    if not text:
        return out
    if "=" not in text:
        return dict.fromkeys(DOMAINS, strategy_name(text))
    for part in text.split(","):
        domain, sep, name = part.partition("=")
        domain = domain.strip()
        if not sep or domain not in DOMAINS:
            raise ConfigError(
                f"bad elicitation setting {part.strip()!r}: use a strategy, or domain=strategy pairs "
                f"with a domain among {', '.join(DOMAINS)}"
            )
        out[domain] = strategy_name(name)
    return out


def elicitor_factory(
    services: object,
    strategy: Callable[[str], str],
    *,
    records: Sequence[object] = (),
    exclude_files: Sequence[object] = (),
) -> Callable[[str], object | None]:
    """``domain -> Elicitor | None`` for the dialog manager, built once per domain on first use.

    Args:
        services: :class:`bot.services.Services` (the domain's recommender).
        strategy: ``domain -> strategy name`` (``"none"``: no suggestions in that domain).
        records: the bot's logged records (their opinions count for popularity).
        exclude_files: study files left out of the counts (the file being replayed).
    """
    import threading

    from bot.likes import logged_ratings
    from recommender.elicitation import Elicitor, strategy_name

    built: dict[str, object | None] = {}
    lock = threading.Lock()

    def get(domain: str) -> object | None:
        with lock:
            if domain not in built:
                name = strategy_name(strategy(domain))
                built[domain] = (
                    None
                    if name == "none"
                    else Elicitor(
                        services.domain(domain).recommender,  # type: ignore[attr-defined]
                        logged_ratings(domain, records=records, exclude_files=exclude_files),  # type: ignore[arg-type]
                        strategy=name,
                    )
                )
            return built[domain]

    return get


__all__ = [
    "DEFAULT_STRATEGIES",
    "ENV_VARIABLE",
    "FREE_TEXT_PREFERENCES",
    "MAX_RATED_SUGGESTIONS",
    "elicitor_factory",
    "parse_elicitation",
]
