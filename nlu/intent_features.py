"""What the intent classifier sees (issue 24: split from ``nlu.intents``, whose module docstring gives the
features): the message repaired, normalised and respelt, one state token per active context, event and the
domain, state conjunctions and rare-word markers; and the whitespace tokenizer a loaded model gets.

Reads a message and its dialog state; adds one space-separated token string (:func:`featurize`).

Example:
    >>> featurize("skip", ["request_recommendation-followup"], ["question"], domain="movie")
    'ctx_request_recommendation_followup evt_question dom_movie skip | ctx_request_recommendation_followup_skip evt_question_skip dom_movie_skip'
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence
from typing import Any

from nlu.textnorm import chat_spelling, normalize, repair_mojibake

__all__ = [
    "DOMAINS",
    "FEATURE_TOKENIZER",
    "MAX_WORDS",
    "RARE_TOKEN",
    "featurize",
    "message_words",
    "register_feature_tokenizer",
    "repair_text",
]

_WORD = re.compile(r"\w+(?:'\w+)?")
_TOKEN = re.compile(r"\w+(?:'\w+)?|[^\w\s]")
_NON_ALNUM = re.compile(r"[^a-z0-9]+")
RARE_TOKEN = "xxrare"
DOMAINS = ("movie", "book", "music")
MAX_WORDS = 60
"""At most this many words of a message get conjunction/rare features."""


def _context_token(name: str) -> str:
    return "ctx_" + (_NON_ALNUM.sub("_", name.lower()).strip("_") or "empty")


def message_words(text: str) -> list[str]:
    return _WORD.findall(text)[:MAX_WORDS]


def repair_text(text: str) -> str:
    """Undo UTF-8-read-as-cp1252 mojibake ("donâ€™t" -> "don’t"); other text is returned as is
    (:func:`nlu.textnorm.repair_mojibake`, which :func:`nlu.textnorm.normalize` also applies)."""
    return repair_mojibake(text)


def featurize(
    text: str,
    contexts: Sequence[str] = (),
    events: Sequence[str] | None = None,
    *,
    domain: str | None = None,
    known_words: frozenset[str] | set[str] | None = None,
    max_chars: int = 300,
    context_conjunctions: str = "each",
    char_ngrams: bool = False,
) -> str:
    """Build the classifier's input text from a message and its dialog state (see module docstring).

    Args:
        text: raw user message (any length; cut to ``max_chars`` after normalisation).
        contexts: active context names (order does not matter).
        events: the system events of the previous turn (``question``, ``disambiguation``, ...;
            empty = none), or ``None`` when unknown.
        domain: ``movie``/``book``/``music`` or ``None`` (unknown): the original agents of the
            three domains differ (e.g. "I don't like" while a recommendation is shown is
            ``preference`` in the movie logs, ``request_recommendation - preference`` elsewhere).
        known_words: words that are not rare; ``None`` disables the rare-word markers.
        max_chars: characters of the normalised message kept.
        context_conjunctions: ``"each"`` (a ``<state token>_<word>`` token for every state token
            and word), ``"state"`` (one key for the whole state set), ``"both"`` or ``"none"``.
        char_ngrams: add character-trigram tokens ``cg_abc`` of every word (typo robustness).

    Returns:
        A space-separated token string, e.g. ``"ctx_none evt_none i like tom cruise | ..."``.
    """
    body = chat_spelling(normalize(text or "", max_chars=max_chars).lower())
    state = [_context_token(c) for c in sorted(set(contexts))] or ["ctx_none"]
    if events is None:
        state.append("evt_unknown")
    else:
        state.extend(["evt_" + _NON_ALNUM.sub("_", e.lower()).strip("_") for e in sorted(set(events))] or ["evt_none"])
    if domain:
        state.append("dom_" + _NON_ALNUM.sub("_", domain.lower()))
    words = message_words(body)
    extra: list[str] = []
    marked = list(words)
    if known_words is not None:
        marked = [w if w in known_words else RARE_TOKEN for w in words]
        extra.extend(RARE_TOKEN for w in words if w not in known_words)
    if not marked:
        marked = ["xxnoword"]
    if context_conjunctions in ("state", "both"):
        key = f"s{zlib.crc32('|'.join(state).encode('utf-8')):08x}"
        extra.append(key)
        extra.extend(f"{key}_{w}" for w in marked)
    if context_conjunctions in ("each", "both"):
        extra.extend(f"{s}_{w}" for s in state for w in marked)
    if char_ngrams:
        for w in words:
            padded = f"<{w}>"
            extra.extend("cg_" + padded[i : i + 3] for i in range(len(padded) - 2))
    return " ".join([*state, *_TOKEN.findall(body)[: 2 * MAX_WORDS], "|", *extra])


FEATURE_TOKENIZER = {"nlp": {"tokenizer": {"@tokenizers": "corsbot.feature_tokenizer.v1"}}}
"""spaCy config override of :meth:`IntentRecognizer.load`: the recognizer never tokenises text with
spaCy (:meth:`IntentRecognizer._doc` builds the Doc from the feature tokens), so a loaded model gets
a plain whitespace tokenizer (:func:`_feature_tokenizer`) instead of building and deserialising the
English one (~2,700 special cases: 0.4-0.6 s of every start). Predictions are the same."""


def register_feature_tokenizer() -> None:
    """Register ``corsbot.feature_tokenizer.v1`` in spaCy's tokenizer registry (idempotent)."""
    from spacy.util import registry

    if "corsbot.feature_tokenizer.v1" not in registry.tokenizers:
        registry.tokenizers("corsbot.feature_tokenizer.v1", func=_feature_tokenizer)


def _feature_tokenizer() -> Any:
    """A spaCy tokenizer factory: whitespace splitting only (no prefixes, suffixes, special cases)."""
    from spacy.tokenizer import Tokenizer

    def create(nlp: Any) -> Any:
        return Tokenizer(nlp.vocab)

    return create
