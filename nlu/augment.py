"""Training-data augmentation for the intent recognizer (issue 12): our own phrasings of the
non-preference intents, in several wordings, for every domain.

The released study's users asked for trailers, explanations and the next item in few wordings, so
the recognizer learned those ("Can I watch the trailer?" fell back 28 times on a second study).
``nlu/intent_templates.json`` holds templates written from general knowledge of how people ask a
chat bot about movies, books and music (never from a test set): ``{a|b|c}`` are alternatives,
``{item}``, ``{items}``, ``{consume}``, ``{consumed}``, ``{maker}``, ``{made}``, ``{created}`` are
the domain's words ("film", "read", "author", "published", "sang" ...). Each template is expanded
per domain and at most :data:`MAX_VARIANTS` of its expansions are kept (a seeded sample), so no
template outweighs the others. A template's ``state`` is the dialog state its phrases belong to:
``card`` (a recommendation on screen: context ``request_recommendation-followup``), ``start``
(nothing open) or ``any`` (small talk: shown in sampled states by the trainer, see
:meth:`nlu.intents.IntentRecognizer.train`).

The wording the understanding reads is taught to the classifier where that makes its answer steadier without
moving other answers (issue 24, :func:`wording_examples`): every pattern of ``nlu/wording/`` marked ``train``
gives at most :data:`WORDING_VARIANTS` phrases per template and domain (drawn by a seeded generator: some
templates stand for millions of phrases), in the pattern's ``state``. Those are the frames of an opinion of a
name ("I loved X", "X is a masterpiece", "X blew my mind"; with nothing open a ``preference``, with a card on
screen the study's ``request_recommendation - preference``) and the questions about the card on screen (why,
details, trailer, skip, stop), so that the classifier's answer to them stays the same from one retrain to the
next (``corsbot nlu evaluate``'s steadiness figures). Not fed, each measured: the requests for a list (the rules
find them anywhere in a message and overrule any intent, :func:`nlu.requests.request_in_turn`; as training
phrases, "what should I read", "one more", they pulled "I've read Atonement" to a request and the card's "one
more" to a new list), and the other whole messages with nothing open (help, profile, reset, small talk about
the bot: "how do I rate things" taught "How about Coldplay?" to be a help question).

Example:
    >>> sorted({e.intent for e in augmented_examples()})[:2]   # doctest: +SKIP
    ['help', 'request_recommendation']
"""

from __future__ import annotations

import itertools
import json
import random
import re
import zlib
from pathlib import Path

from logs.schema import Intent, is_smalltalk
from nlu.errors import NluError
from nlu.intents import REC_CONTEXT, IntentExample

__all__ = ["TEMPLATES_PATH", "MAX_VARIANTS", "WORDING_VARIANTS", "augmented_examples", "expand", "wording_examples"]

TEMPLATES_PATH = Path(__file__).with_name("intent_templates.json")
MAX_VARIANTS = 8
"""Expansions kept per template and domain."""
WORDING_VARIANTS = 8
"""Phrases drawn per wording template and domain (:func:`wording_examples`)."""
DOMAIN_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "movie": {
        "item": ("movie", "film"),
        "items": ("movies", "films"),
        "consume": ("watch", "see"),
        "consumed": ("seen", "watched"),
        "maker": ("director",),
        "made": ("made", "released", "filmed"),
        "created": ("directed", "made"),
        "it": ("it",),
    },
    "book": {
        "item": ("book", "novel"),
        "items": ("books", "novels"),
        "consume": ("read",),
        "consumed": ("read",),
        "maker": ("author", "writer"),
        "made": ("written", "published"),
        "created": ("wrote", "wrote"),
        "it": ("it",),
    },
    "music": {
        "item": ("song", "album", "artist", "band", "track"),
        "items": ("songs", "albums", "artists", "bands", "music"),
        "consume": ("listen to", "hear"),
        "consumed": ("heard", "listened to"),
        "maker": ("artist", "singer", "band"),
        "made": ("released", "recorded", "made"),
        "created": ("sings", "sang", "made", "performed"),
        "it": ("it",),
    },
}
_GROUP = re.compile(r"\{([^{}]*)\}")


def expand(template: str, words: dict[str, tuple[str, ...]]) -> list[str]:
    """Every phrase a template stands for (innermost groups first; spaces tidied).

    Raises:
        NluError: an unknown ``{slot}``.
    """
    phrases = [template]
    out: list[str] = []
    while phrases:
        phrase = phrases.pop()
        match = _GROUP.search(phrase)
        if match is None:
            out.append(re.sub(r"\s+([,?!.])", r"\1", re.sub(r"\s+", " ", phrase)).strip())
            continue
        inner = match.group(1)
        if "|" in inner:
            options: tuple[str, ...] = tuple(inner.split("|"))
        elif inner in words:
            options = words[inner]
        else:
            raise NluError(f"unknown slot {{{inner}}} in intent template {template!r}")
        phrases.extend(phrase[: match.start()] + o + phrase[match.end() :] for o in options)
    return sorted(set(out))


def _rng(seed: int, *keys: str) -> random.Random:
    """A generator of its own for one template (and domain): a phrase added to one template, or a new template,
    leaves the phrases drawn for every other one as they were, so a retrain after a change of wording moves only
    what the change is about (issue 24: the classifier's answers should not swing between retrains)."""
    return random.Random(zlib.crc32("\x1f".join((str(seed), *keys)).encode("utf-8")))


def augmented_examples(path: Path = TEMPLATES_PATH, *, seed: int = 12, wording: bool = True) -> list[IntentExample]:
    """The templates' phrases as training examples (``validated`` False: weighed as the agent's phrases; events
    unknown), and with ``wording`` those of the wording families (:func:`wording_examples`).

    Raises:
        NluError: the file is missing or malformed.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise NluError(f"cannot read intent templates {path}: {exc}") from exc
    out: list[IntentExample] = []
    for intent, spec in data.items():
        if intent.startswith("_"):
            continue
        state = spec.get("state", "start")
        contexts = (REC_CONTEXT,) if state == "card" else ()
        for template, domain in itertools.product(spec["templates"], DOMAIN_WORDS):
            phrases = expand(template, DOMAIN_WORDS[domain])
            if len(phrases) > MAX_VARIANTS:
                phrases = _rng(seed, intent, template, domain).sample(phrases, MAX_VARIANTS)
            out.extend(
                IntentExample(text, contexts, intent, f"augment:{intent}", domain, False, None) for text in phrases
            )
    return out + wording_examples() if wording else out


_STATE_CONTEXTS: dict[tuple[str, bool], tuple[tuple[str, ...], ...]] = {
    ("card", False): ((REC_CONTEXT,),),
    ("card", True): ((REC_CONTEXT,),),
    ("start", False): ((),),
    ("start", True): ((),),
    # small talk is shown in sampled dialog states by the trainer; another intent of any state (an opinion of a
    # name) is said both with nothing open and with a card on screen, where the card's questions would win
    ("any", True): ((),),
    ("any", False): ((), (REC_CONTEXT,)),
}
"""The dialog contexts of a wording pattern's training phrases, by its ``state`` and whether it is small talk."""


def _intent_in(intent: str, contexts: tuple[str, ...]) -> str:
    """The study's label of ``intent`` said in ``contexts``: with a card on screen an opinion is the follow-up
    intent of the request (DialogFlow's ``request_recommendation - preference``), as the study labels it."""
    if intent == Intent.PREFERENCE and REC_CONTEXT in contexts:
        return Intent.REC_PREFERENCE.value
    return intent


def wording_examples(*, seed: int = 24) -> list[IntentExample]:
    """The phrases of every wording pattern marked ``train`` (``nlu/wording/``) as training examples: at most
    :data:`WORDING_VARIANTS` per template and domain, drawn with ``seed``; a ``<name>`` is said as the classifier's
    marker of a word it does not know (``nlu.intent_features.RARE_TOKEN``: what a title or a person's name is to
    it), a template with another word that must be there but is not written (``<w>``) gives none. Groups
    ``augment:<family>.<pattern>``; events unknown.

    Raises:
        TemplateError: a family that cannot be read.
    """
    from nlu.intent_features import RARE_TOKEN
    from nlu.wording import FAMILIES, family
    from nlu.wording.templates import sample

    out: list[IntentExample] = []
    for name in FAMILIES:
        wording = family(name)
        for spec in wording.specs():
            if spec.intent is None or not spec.train:
                continue
            group = f"augment:{name}.{spec.name}"
            for template, domain in itertools.product(spec.phrases, DOMAIN_WORDS):
                rng = _rng(seed, group, template, domain)
                phrases = sorted(sample(template, wording.lists, rng, n=WORDING_VARIANTS, name=RARE_TOKEN))
                out.extend(
                    IntentExample(text, contexts, _intent_in(spec.intent, contexts), group, domain, False, None)
                    for contexts in _STATE_CONTEXTS[spec.state, is_smalltalk(spec.intent)]
                    for text in phrases
                )
    return out
