"""A learned classifier of dialogue acts (issue 22, fifth round): what a message that is no preference does, in
wordings no rule lists ("giv me somthin to wach", "what do you have on file about me?", "later dude").

The acts are a closed set (:data:`ACTS`), trained on wordings written from general knowledge in many registers
(``nlu/wording/acts/train.toml``) plus noisy variants of them (:mod:`nlu.act_noise`); ``heldout.toml`` holds
other wordings, never trained on, for ``corsbot nlu evaluate-acts``. The model is a logistic regression over
TF-IDF weighted character n-grams (``char_wb``, 2-5) and word n-grams (1-2), hashed (no vocabulary to store):
fitted with scikit-learn by ``corsbot nlu train-classifiers`` into ``$CORSBOT_HOME/models/acts/classifier.npz``
and scored with numpy (:mod:`nlu.text_classifier`); where that file is missing or stale, fitted in memory at the
first use (one to two seconds).

It sits beside the spaCy intent classifier, which learned the released study's wording and stays as it is:
:mod:`nlu.act_choice` lets a confident act decide only where the rules and that classifier leave doubt.

Example::

    acts = ActClassifier.trained()
    acts.predict("nother one pls")   # ActGuess(act='more', probability=0.9...)
"""

from __future__ import annotations

import re
import tomllib
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from nlu import act_noise, text_classifier
from nlu.act_noise import compounds, noisy_variants
from nlu.text_classifier import TextClassifier, recipe_fingerprint, stored

if TYPE_CHECKING:
    from scipy import sparse
    from sklearn.linear_model import LogisticRegression

__all__ = [
    "ACTS",
    "CARD_ACTS",
    "HELDOUT_PATH",
    "RECIPE",
    "TRAIN_PATH",
    "ActClassifier",
    "ActGuess",
    "ActModel",
    "SklearnActs",
    "TrainedOnUse",
    "fingerprint",
    "fit_scorer",
    "fit_sklearn",
    "load_examples",
]

ACTS = (
    "request",  # a new list of recommendations
    "more",  # the next card, another one
    "profile",  # show what is stored
    "reset",  # forget everything
    "why",  # why this card
    "details",  # about the card
    "trailer",  # a preview of the card
    "help",  # how this works
    "bye",  # leaving (closes a list)
    "stop",  # no more recommendations, without leaving
    "smalltalk",  # greetings, thanks, chit-chat
    "card_like",  # the card rated up
    "card_dislike",  # the card rated down
    "card_seen",  # the card known, no verdict
    "card_hedge",  # the card judged neither way
    "card_skip",  # the card passed over (unknown to the user, or just skipped)
    "statement",  # an opinion or mention of named things: the preference path's, not the acts'
)
"""The closed set of acts; ``statement`` is the negative class (named things, requests of a kind)."""

CARD_ACTS = frozenset(
    {"why", "details", "trailer", "card_like", "card_dislike", "card_seen", "card_hedge", "card_skip"}
)
"""Acts about the card on screen: impossible with no card."""

_WORDING = Path(__file__).parent / "wording" / "acts"
TRAIN_PATH = _WORDING / "train.toml"
HELDOUT_PATH = _WORDING / "heldout.toml"

_PUNCT = re.compile(r"[^\w\s']+")


def _vectorizers() -> tuple[Any, Any]:
    """The hashed character (``char_wb`` 2-5) and word (1-2) n-gram counters of the fit (scikit-learn is imported
    here, to fit; a process that loads the stored classifier never imports it)."""
    from sklearn.feature_extraction.text import HashingVectorizer

    chars = HashingVectorizer(analyzer="char_wb", ngram_range=(2, 5), n_features=2**15, alternate_sign=False, norm=None)
    words = HashingVectorizer(
        analyzer="word", ngram_range=(1, 2), n_features=2**13, alternate_sign=False, norm=None, token_pattern=r"[^\s]+"
    )
    return chars, words


def load_examples(path: Path = TRAIN_PATH) -> list[tuple[str, str]]:
    """``(text, act)`` pairs of a wording file (one table per act, its ``examples`` list)."""
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    unknown = set(data) - set(ACTS)
    if unknown:
        raise ValueError(f"{path.name}: unknown acts {sorted(unknown)}")
    return [(text, act) for act, table in data.items() for text in table["examples"]]


def _prepare(text: str) -> str:
    """Lowercase, emoji and punctuation kept apart as tokens of their own (the word n-grams see "?" and "🔥")."""
    return " ".join(_PUNCT.sub(lambda m: f" {m.group(0)} ", text.lower()).split())


@dataclass(frozen=True, slots=True)
class ActGuess:
    """The most likely act and its probability (the runner-up for the caller's doubt)."""

    act: str
    probability: float
    second: str = ""


class ActClassifier:
    """TF-IDF (hashed character and word n-grams) and a multinomial logistic regression over :data:`ACTS`, scored
    with numpy (:class:`nlu.text_classifier.TextClassifier`)."""

    def __init__(self, scorer: TextClassifier) -> None:
        self.scorer = scorer
        self.classes: tuple[str, ...] = scorer.classes

    @classmethod
    def fit(cls, examples: Sequence[tuple[str, str]], *, noise: int = 2, seed: int = 0) -> ActClassifier:
        """Train on ``(text, act)`` pairs (:func:`fit_sklearn`)."""
        return cls(fit_sklearn(examples, noise=noise, seed=seed).scorer())

    @classmethod
    def trained(cls, models: Path | None = None) -> ActClassifier:
        """The process's classifier of ``train.toml``: stored in ``models/acts/`` by ``corsbot nlu
        train-classifiers`` when current, else fitted once per process (:func:`nlu.text_classifier.stored`)."""
        return cls(stored("acts", models, fingerprint(), fit_scorer))

    def probabilities(self, texts: Sequence[str]) -> np.ndarray:
        """One row of act probabilities per text, columns in :attr:`classes` order."""
        return self.scorer.probabilities([_prepare(t) for t in texts])

    def predict(
        self, text: str, *, allowed: frozenset[str] | None = None, prior: Mapping[str, float] | None = None
    ) -> ActGuess:
        """The most likely act of ``text`` among ``allowed`` (all by default: the dialog's state rules acts out, a
        card act with no card on screen), with its probability among all acts: the mass of the acts ruled out is
        doubt, never moved to the rest ("what do you propose me?" at an open question is no profile). ``prior``:
        weights of acts the state makes likelier (a card on screen: the next one, why), applied before the
        probabilities are normalised again (Bayes' rule with the training wordings' prior taken as flat)."""
        row = self.probabilities([text])[0]
        if prior:
            row = row * np.array([prior.get(c, 1.0) for c in self.classes])
            row = row / row.sum()
        if allowed is not None:
            row = np.where([c in allowed for c in self.classes], row, 0.0)
        order = np.argsort(row)[::-1]
        return ActGuess(str(self.classes[order[0]]), float(row[order[0]]), str(self.classes[order[1]]))


class ActModel(Protocol):
    """What the act choice needs of a classifier (:class:`ActClassifier`, :class:`TrainedOnUse` or a stand-in)."""

    def predict(
        self, text: str, *, allowed: frozenset[str] | None = None, prior: Mapping[str, float] | None = None
    ) -> ActGuess: ...


class TrainedOnUse:
    """The process's :meth:`ActClassifier.trained`, made at the first prediction: a start, and every turn the
    rules or the intent classifier decide alone, cost nothing.

    Args:
        models: the models folder of the stored classifier (``<models>/acts/``); None: fitted in memory.
    """

    def __init__(self, models: Path | None = None) -> None:
        self._models = models

    def predict(
        self, text: str, *, allowed: frozenset[str] | None = None, prior: Mapping[str, float] | None = None
    ) -> ActGuess:
        """:meth:`ActClassifier.predict` of the trained classifier."""
        return ActClassifier.trained(self._models).predict(text, allowed=allowed, prior=prior)


@dataclass(frozen=True, slots=True)
class SklearnActs:
    """A fit of scikit-learn (:func:`fit_sklearn`): its training texts, n-gram counters, IDF and model."""

    texts: tuple[str, ...]
    vectorizers: tuple[Any, Any]
    idf: np.ndarray
    model: LogisticRegression

    def probabilities(self, texts: Sequence[str]) -> np.ndarray:
        """scikit-learn's act probabilities of ``texts`` (what the numpy :meth:`scorer` reproduces)."""
        from scipy import sparse

        counts = _counts(self.vectorizers, texts)
        return np.asarray(self.model.predict_proba(_normalized(counts @ sparse.diags(self.idf))))

    def scorer(self) -> TextClassifier:
        """The numpy copy of this fit."""
        return TextClassifier.from_sklearn_hashing(self.vectorizers, self.idf, self.model)


def fit_sklearn(examples: Sequence[tuple[str, str]], *, noise: int = 2, seed: int = 0) -> SklearnActs:
    """Fit on ``(text, act)`` pairs, two-clause compounds of them (:func:`nlu.act_noise.compounds`) and ``noise``
    noisy variants of each (:func:`nlu.act_noise.noisy_variants`); deterministic for a ``seed``."""
    from scipy import sparse
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegression

    texts, labels = [], []
    examples = [*examples, *compounds(list(examples), 25, seed=seed)]
    for index, (text, act) in enumerate(examples):
        for variant in (text, *noisy_variants(text, noise, seed=seed + index)):
            texts.append(variant)
            labels.append(act)
    vectorizers = _vectorizers()
    counts = _counts(vectorizers, texts)
    df = np.bincount(counts.indices, minlength=counts.shape[1])
    idf = np.log((1 + len(texts)) / (1 + df)) + 1.0
    features = _normalized(counts @ sparse.diags(idf))
    # saga, a few epochs: about a second on sparse n-grams (lbfgs took half a minute), same held-back score
    model = LogisticRegression(C=10.0, solver="saga", max_iter=30, tol=1e-3, random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(features, labels)
    return SklearnActs(tuple(texts), vectorizers, idf, model)


def _counts(vectorizers: tuple[Any, Any], texts: Sequence[str]) -> sparse.csr_matrix:
    """The hashed n-gram counts of ``texts``, character and word blocks side by side."""
    from scipy import sparse

    prepared = [_prepare(t) for t in texts]
    return sparse.hstack([v.transform(prepared) for v in vectorizers]).tocsr()


RECIPE = (TRAIN_PATH, Path(__file__), Path(act_noise.__file__), Path(text_classifier.__file__))
"""What the classifier is fitted from: its wordings, this module (the recipe), the noise and the features' code
(the Makefile's ``ACTS_RECIPE``)."""


def fingerprint() -> str:
    """The fingerprint of :data:`RECIPE` (a stored classifier fitted otherwise is refitted)."""
    return recipe_fingerprint(*RECIPE)


def fit_scorer() -> TextClassifier:
    """The classifier of ``train.toml``, fitted (what ``corsbot nlu train-classifiers`` stores)."""
    return fit_sklearn(load_examples(TRAIN_PATH)).scorer()


def _normalized(matrix: sparse.csr_matrix) -> sparse.csr_matrix:
    """Rows scaled to unit length (TF-IDF's l2 norm)."""
    from scipy import sparse

    norms = np.sqrt(np.asarray(matrix.multiply(matrix).sum(axis=1)).ravel())
    norms[norms == 0] = 1.0
    return sparse.diags(1.0 / norms) @ matrix
