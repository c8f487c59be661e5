"""A learned hedge reader (issue 22, fifth round, 22-O): does a sentence about a work state a verdict on it, or
only a hedge (uncertainty, a lost memory, a work not yet consumed, a question about its worth, ambivalence)?

Hedges come in open-ended wordings ("I remember almost nothing about X", "X is next on my list, is it any good?",
"as an author I'm honestly ambivalent about X"), so a phrase list misses most of them. A small linear model
(word 1-2-grams and character 2-4-grams in word boundaries, logistic regression) is fitted on the sentences of
``nlu/opinion_data/hedge_examples.toml``, written from general knowledge in many registers; every fifth one is held
back to measure it. The work's name is masked (``X`` in the data, ``ENTITYn`` in a message). ``corsbot nlu
train-classifiers`` fits it and stores it in ``$CORSBOT_HOME/models/hedge/``, which the bot scores with numpy
(:mod:`nlu.text_classifier`); where that file is missing or stale, it is fitted at the first use.

The sentiment model asks it only when the clauses say a like: the like is read as a hedge (the dialog asks
instead of storing) when the model is confident.

Example:
    >>> model = HedgeModel.trained()
    >>> model.hedged("ENTITY0 is on my to-read pile, is it any good?"), model.hedged("ENTITY0 was brilliant")
    (True, False)
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from nlu import text_classifier
from nlu.opinion_clauses import Clause, Polarity
from nlu.text_classifier import TextClassifier, recipe_fingerprint, stored

__all__ = [
    "HEDGE_THRESHOLD",
    "RECIPE",
    "HedgeModel",
    "examples",
    "fingerprint",
    "fit_pipeline",
    "fit_scorer",
    "unhedged",
]

HEDGE_THRESHOLD = 0.85
"""Probability of a hedge above which a verdict is read as one: a missed hedge stores a like the user can undo,
a false one only asks, but asks about a clear opinion."""

_DATA = Path(__file__).parent / "opinion_data" / "hedge_examples.toml"
_ENTITY = re.compile(r"\bentity\d*\b", re.IGNORECASE)


def examples(*, heldout: bool = False) -> tuple[list[str], list[int]]:
    """The training sentences and labels (1 = hedge), or with ``heldout`` the held-back ones."""
    data = tomllib.loads(_DATA.read_text(encoding="utf-8"))
    every = int(data["heldout_every"])
    texts: list[str] = []
    labels: list[int] = []
    for label, name in ((1, "hedge"), (0, "verdict")):
        for k, text in enumerate(data[name]):
            if (k % every == every - 1) == heldout:
                texts.append(text)
                labels.append(label)
    if not heldout:
        verdicts = _lexicon_verdicts(data["verdict_frames"])
        texts += verdicts
        labels += [0] * len(verdicts)
        for label, tails in ((1, data["hedge_tails"]), (0, data["verdict_tails"])):
            composed = _with_tails(data["roles_and_tails_cues"], tails)
            texts += composed
            labels += [label] * len(composed)
    return texts, labels


def _with_tails(cues: list[str], tails: list[str]) -> list[str]:
    """Each tail after a verdict, the cues taken in turn ("i loved X, not sure though")."""
    return [f"i {cues[k % len(cues)]} X, {tail}" for k, tail in enumerate(tails * 2)]


def _lexicon_verdicts(frames: list[str]) -> list[str]:
    """Verdicts built from the opinion lexicon's cues in the data's frames ("I {stated} X", "X is {evaluative}"):
    the model learns that every cue of the lexicon says a verdict, not only the ones in the sentences written."""
    from nlu import sentiment_lexicon as lex

    stated = [*lex.STATED_POSITIVE, *lex.STATED_NEGATIVE]
    evaluative = [*lex.EVALUATIVE_POSITIVE, *lex.EVALUATIVE_NEGATIVE]
    out = []
    for k, cue in enumerate(c for c in stated if "{" not in c and "<" not in c):
        out.append(frames[k % 3].replace("{cue}", cue))
    for k, cue in enumerate(c for c in evaluative if "{" not in c and "<" not in c):
        out.append(frames[3 + k % 3].replace("{cue}", cue))
    return out


def _normal(text: str) -> str:
    """Lower case, the masked names as one token (``X`` of the data)."""
    return _ENTITY.sub("X", text.replace("\u2019", "'")).lower()


class HedgeModel:
    """Probability that a sentence about a (masked) work is a hedge, not a verdict."""

    def __init__(self, scorer: TextClassifier) -> None:
        self._scorer = scorer
        self._hedge = scorer.classes.index("1")

    @classmethod
    def trained(cls, models: Path | None = None) -> HedgeModel:
        """The process's model: stored in ``models/hedge/`` by ``corsbot nlu train-classifiers`` when current,
        else fitted on the data's training part (once per process; :func:`nlu.text_classifier.stored`)."""
        return cls(stored("hedge", models, fingerprint(), fit_scorer))

    def probability(self, text: str) -> float:
        """P(hedge) of ``text``."""
        return float(self._scorer.probabilities([_normal(text)])[0][self._hedge])

    def hedged(self, text: str, threshold: float = HEDGE_THRESHOLD) -> bool:
        """True when ``text`` is a hedge with probability at least ``threshold``."""
        return self.probability(text) >= threshold


RECIPE = (_DATA, Path(__file__), Path(__file__).with_name("sentiment_lexicon.py"), Path(text_classifier.__file__))
"""What the model is fitted from: its sentences, this module (the recipe, the lexicon's verdicts), the lexicon,
the features' code (the Makefile's ``HEDGE_RECIPE``)."""


def fingerprint() -> str:
    """The fingerprint of :data:`RECIPE` (a stored model fitted otherwise is refitted)."""
    return recipe_fingerprint(*RECIPE)


def fit_scorer() -> TextClassifier:
    """The model fitted on :func:`examples` (what ``corsbot nlu train-classifiers`` stores)."""
    return TextClassifier.from_sklearn_union(fit_pipeline())


def fit_pipeline(*, seed: int = 0) -> Any:
    """The scikit-learn pipeline fitted on :func:`examples` (word and character TF-IDF, logistic regression)."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline, make_union

    texts, labels = examples()
    features = make_union(
        TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True, token_pattern=r"[a-z0-9']+|[?]"),
        TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 4), sublinear_tf=True),
    )
    model = LogisticRegression(C=10.0, solver="liblinear", class_weight="balanced", random_state=seed)
    pipeline = make_pipeline(features, model)
    pipeline.fit([_normal(t) for t in texts], labels)
    return pipeline


def unhedged(said: Polarity, clauses: list[Clause], index: int, masked: str, *, models: Path | None = None) -> Polarity:
    """``said`` of the entity in clause ``index`` of the masked message, or NEUTRAL for a like when the model reads
    that clause with the clauses after it that name nothing ("I saw X ages ago, but I remember nothing of it", "I
    think I liked X, not sure") as a hedge; a dislike stays (the model reads "not for me" as doubt too often)."""
    if said is not Polarity.POSITIVE:
        return said
    end = index + 1
    while end < len(clauses) and not clauses[end].entities:
        end += 1
    return (
        Polarity.NEUTRAL
        if HedgeModel.trained(models).hedged(masked[clauses[index].start : clauses[end - 1].end])
        else said
    )
