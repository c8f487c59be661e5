"""Training data and fit of the mention gate (:mod:`nlu.linking.mention_model`; ``corsbot nlu train-mentions``).

Every span the linker would link or ask about becomes one example, labelled by what the text means:

- positive: a span read as the gold entity of a realistic dev sentence (``tests/data/realistic/dev.jsonl``) or
  of a released study's audited preference message (the recognized objects);
- negative: a span of a realistic dev sentence that names none of its gold entities, or covers the mention of
  an entity the KB lacks (its opinion must not land on a namesake); every span of the ordinary chat lines
  (``data/ordinary.txt``: greetings, requests, comments in many registers, written to name nothing);
- synthetic, from KB names that are common English words (:func:`common_word_names`): each one in title
  positions of a few sentence frames (positive) and used as a plain word inside a noun phrase (negative).

A stable fifth of the texts (by a hash of the text) is held back and scored, never fitted.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nlu.linking.decision import Decision
from nlu.linking.mention_model import (
    DROP_BELOW,
    FEATURES,
    PHRASE_BAR,
    WEIGHTS_PATH,
    MentionGate,
    features,
    gated,
    inside_phrase,
)
from nlu.linking.tokens import name_key, tokenize
from nlu.linking.values import SIM_VARIANT
from nlu.linking.words import stop_words, zipf
from nlu.textnorm import MAX_CHARS

ORDINARY_PATH = Path(__file__).with_name("data") / "ordinary.txt"

TITLE_FRAMES = (
    "i loved {}",
    "{} was amazing",
    "honestly {} is one of my favourites",
    "not a fan of {} tbh",
    "I thought {} was brilliant.",
    "{} bored me to death",
    "my all time fav is {}",
    "What about {}? Really enjoyed it",
    "{} and nothing else",
    "cant stand {}",
)
"""Frames with a title's slot (positive examples)."""

WORD_FRAMES = (
    "the {} bits were the best part",
    "i want more {} stuff please",
    "it had a really {} feel to it",
    "anything with {} characters in it?",
    "not much of a {} person honestly",
    "too many {} scenes for me",
    "I enjoy a good {} story now and then.",
    "something {} for the weekend maybe",
)
"""Frames where the same words are a plain word inside a noun phrase (negative examples)."""

LIST_FRAMES = (
    "{} and {} are both great",
    "loved {}, {} too",
    "{} and {} were boring",
    "fav ones: {}, {}",
)
"""Frames naming two titles in a list (both positive)."""


@dataclass(slots=True)
class Example:
    """One span: its features, its label (1: a mention of the entity), the text it came from."""

    vector: list[float]
    label: int
    text: str
    source: str


@dataclass(slots=True)
class FitReport:
    """The fitted weights and the held-back figures."""

    weights: list[float]
    threshold: float
    counts: dict[str, int] = field(default_factory=dict)
    heldout: dict[str, float] = field(default_factory=dict)

    def line(self) -> str:
        """The command's last line."""
        pairs = {**self.counts, **{k: f"{v:.3f}" for k, v in self.heldout.items()}}
        return "mentions: " + " ".join(f"{k}={v}" for k, v in pairs.items())


@dataclass(frozen=True, slots=True)
class _Covered:
    """The part of a link context the features read: the tokens the proposed spans cover."""

    covered: frozenset[int]


def _held_back(text: str) -> bool:
    return hashlib.sha1(text.encode("utf-8")).digest()[0] % 5 == 0


def span_examples(linker: Any, text: str, label_of: Any, source: str) -> list[Example]:
    """The linker's linked or asked spans of ``text`` (the gate open), each labelled by ``label_of(step)``
    (1, 0, or None to skip)."""
    kb = linker.kb
    out = []
    steps = linker.trace(text, gate=False)
    context = _Covered(frozenset(k for st in steps for k in range(st.ranked.span.start, st.ranked.span.end)))
    credited = {st.ranked.span.end for st in steps if st.credit_end is not None}
    for step in steps:
        if step.decision is Decision.DROP or step.ranked.relation or step.ranked.span.kind == "ref":
            continue
        label = label_of(step)
        if label is None:
            continue
        ranked = step.ranked
        top = ranked.candidates[0]
        i, j = ranked.span.start, ranked.span.end
        tokens = tokenize(text[:MAX_CHARS])
        if not gated(tokens[i:j], ranked.candidates) or ranked.span.end in credited:
            continue  # the gate never decides it
        vector = features(
            text,
            tokens,
            i,
            j,
            top,
            ranked.scored.get(top.qid, SIM_VARIANT),
            ranked.span.kind,
            kb,
            context,
            step.decision is Decision.ASK,
            lambda w: bool(linker.names.namesakes(w)),
        )
        out.append(Example(vector, label, text, source))
    return out


def _overlaps(step: Any, start: int, end: int) -> bool:
    return step.start < end and start < step.end


def realistic_examples(linker: Any, sentences: Iterable[Any], canonical: Any) -> list[Example]:
    """Examples of the realistic dev sentences of the linker's domain (module docstring)."""
    out = []
    for s in sentences:
        if s.domain != linker.kb.domain:
            continue
        golds = []
        for e in s.entities:
            at = s.text.casefold().find(e.mention.casefold()) if e.mention else -1
            golds.append((canonical(e.qid) if e.qid and linker.kb.has(e.qid) else None, at, at + len(e.mention)))

        def label(step: Any, golds: list[tuple[str | None, int, int]] = golds) -> int | None:
            top = canonical(step.ranked.candidates[0].qid)
            if any(q == top for q, _a, _b in golds):
                return 1
            hits = [(q, a, b) for q, a, b in golds if a >= 0 and _overlaps(step, a, b)]
            if not hits:
                return 0  # names nothing the sentence means
            return 0 if all(q is None for q, _a, _b in hits) else None  # a title the KB lacks; else a ranking slip

        out += span_examples(linker, s.text, label, "realistic")
    return out


def study_examples(linker: Any, tasks: Iterable[Any], canonical: Any) -> list[Example]:
    """Positive examples of the released studies' audited preference messages (their gold objects)."""
    out = []
    for t in tasks:
        gold = {canonical(q) for q, _sign in t.gold}
        out += span_examples(
            linker,
            t.text,
            lambda step, gold=gold: 1 if canonical(step.ranked.candidates[0].qid) in gold else None,
            "study",
        )
    return out


def ordinary_lines(path: Path = ORDINARY_PATH) -> list[str]:
    """The ordinary chat lines (comments and blank lines left out)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [ln.strip() for ln in lines if ln.strip() and not ln.startswith("#")]


def ordinary_examples(linker: Any, lines: Iterable[str]) -> list[Example]:
    """Negative examples: every span the linker takes in the ordinary lines."""
    out = []
    for line in lines:
        out += span_examples(linker, line, lambda _step: 0, "ordinary")
    return out


def common_word_names(kb: Any, limit: int, seed: int = 7) -> list[str]:
    """Up to ``limit`` KB labels of one or two words, all common English (Zipf >= 4) and not all stop words."""
    stop = stop_words()
    names = []
    for qid in getattr(kb, "items", ()):
        words = name_key(kb.label(qid))
        if 1 <= len(words) <= 2 and all(zipf(w) >= 4.0 for w in words) and any(w not in stop for w in words):
            names.append(kb.label(qid))
    rng = random.Random(seed)
    rng.shuffle(names)
    return sorted(set(names[:limit]))


def synthetic_examples(linker: Any, names: Sequence[str], seed: int = 11) -> list[Example]:
    """Each name in two title frames (positive when read as a name of its own words) and two word frames
    (negative), lowercase or as labelled at random."""
    rng = random.Random(seed)
    out = []
    for name in names:
        key = name_key(name)
        for frames, label in ((TITLE_FRAMES, 1), (WORD_FRAMES, 0)):
            for frame in rng.sample(frames, 2):
                # a word used as a word is typed lowercase; a title either way
                typed = name if label and rng.random() < 0.5 else name.lower()
                text = frame.format(typed)

                def of(step: Any, key: tuple[str, ...] = key, label: int = label) -> int | None:
                    return label if name_key(step.ranked.candidates[0].label) == key else None

                out += span_examples(linker, text, of, "synthetic")
    for first, second in zip(names[::2], names[1::2], strict=False):
        keys = {name_key(first), name_key(second)}
        text = rng.choice(LIST_FRAMES).format(first.lower(), second.lower())

        def listed(step: Any, keys: set[tuple[str, ...]] = keys) -> int | None:
            return 1 if name_key(step.ranked.candidates[0].label) in keys else None

        out += span_examples(linker, text, listed, "synthetic")
    return out


def fit(examples: Sequence[Example], min_recall: float = 0.985) -> FitReport:
    """A logistic regression on the examples not held back; the threshold of spans standing alone the probability
    that keeps ``min_recall`` of the held-back positives (not the study's), at most :data:`DROP_BELOW`; the
    held-back figures with it and :data:`PHRASE_BAR`."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    train = [e for e in examples if not _held_back(e.text)]
    test = [e for e in examples if _held_back(e.text)]
    x = np.array([e.vector[1:] for e in train])
    y = np.array([e.label for e in train])
    model = LogisticRegression(C=1.0, class_weight="balanced", max_iter=2000).fit(x, y)
    weights = [float(model.intercept_[0]), *(float(w) for w in model.coef_[0])]
    gate = MentionGate(tuple(weights))
    probs = [(gate.probability(e.vector), e.label) for e in test]
    positives = sorted(gate.probability(e.vector) for e in test if e.label == 1 and e.source != "study")
    cut = positives[int((1 - min_recall) * len(positives))] if positives else 0.5
    threshold = min(DROP_BELOW, round(cut - 1e-3, 3))
    kept = [
        (p >= (PHRASE_BAR if inside_phrase(e.vector) else threshold), e.label)
        for e, (p, _lab) in zip(test, probs, strict=True)
    ]
    report = FitReport(weights, threshold)
    report.counts = {
        "train": len(train),
        "heldout": len(test),
        "positives": sum(e.label for e in examples),
        "negatives": sum(1 - e.label for e in examples),
    }
    pos = [k for k, lab in kept if lab == 1]
    neg = [k for k, lab in kept if lab == 0]
    report.heldout = {
        "accuracy": sum(k == bool(lab) for k, lab in kept) / max(1, len(kept)),
        "mention_recall": sum(pos) / max(1, len(pos)),
        "spurious_dropped": sum(not k for k in neg) / max(1, len(neg)),
        "threshold": threshold,
    }
    return report


def save(report: FitReport, path: Path = WEIGHTS_PATH) -> None:
    """Write the weights, the threshold and the held-back figures as the gate loads them."""
    data = {
        "features": list(FEATURES),
        "weights": [round(w, 5) for w in report.weights],
        "threshold": report.threshold,
        "counts": report.counts,
        "heldout": {k: round(v, 4) for k, v in report.heldout.items()},
    }
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
