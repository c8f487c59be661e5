"""A learned classifier of dialogue acts (issue 22, fifth round): what a message that is no preference does, in
wordings no rule lists ("giv me somthin to wach", "what do you have on file about me?", "later dude").

The acts are a closed set (:data:`ACTS`), trained on wordings written from general knowledge in many registers
(``nlu/wording/acts/train.toml``) plus noisy variants of them (:mod:`nlu.act_noise`); ``heldout.toml`` holds
other wordings, never trained on, for ``corsbot nlu evaluate-acts``. The model is a logistic regression over
TF-IDF weighted character n-grams (``char_wb``, 2-5) and word n-grams (1-2), hashed (no vocabulary to store):
trained in memory on first use (one to two seconds), so nothing is loaded from a file.

It sits beside the spaCy intent classifier, which learned the released study's wording and stays as it is:
:mod:`nlu.act_choice` lets a confident act decide only where the rules and that classifier leave doubt.

Example::

    acts = ActClassifier.trained()
    acts.predict("nother one pls")   # ActGuess(act='more', probability=0.9...)
"""

from __future__ import annotations

import functools
import re
import threading
import tomllib
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from nlu.act_noise import compounds, noisy_variants

if TYPE_CHECKING:
    from scipy import sparse
    from sklearn.linear_model import LogisticRegression

__all__ = [
    "ACTS",
    "CARD_ACTS",
    "HELDOUT_PATH",
    "TRAIN_PATH",
    "ActClassifier",
    "ActGuess",
    "ActModel",
    "TrainedOnUse",
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


@functools.cache
def _vectorizers() -> tuple[Any, Any]:
    """The hashed character (``char_wb`` 2-5) and word (1-2) n-gram counters; scikit-learn is imported here, at the
    first prediction, never at start (it takes seconds to import)."""
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
    """TF-IDF (hashed character and word n-grams) and a multinomial logistic regression over :data:`ACTS`."""

    def __init__(self, idf: np.ndarray, model: LogisticRegression) -> None:
        from scipy import sparse  # imported at the first prediction, never at start

        self._idf = sparse.diags(idf)
        self._model = model
        self.classes: tuple[str, ...] = tuple(model.classes_)

    @staticmethod
    def _counts(texts: Sequence[str]) -> sparse.csr_matrix:
        from scipy import sparse

        prepared = [_prepare(t) for t in texts]
        chars, words = _vectorizers()
        return sparse.hstack([chars.transform(prepared), words.transform(prepared)]).tocsr()

    @classmethod
    def fit(cls, examples: Sequence[tuple[str, str]], *, noise: int = 2, seed: int = 0) -> ActClassifier:
        """Train on ``(text, act)`` pairs, two-clause compounds of them (:func:`nlu.act_noise.compounds`) and
        ``noise`` noisy variants of each (:func:`nlu.act_noise.noisy_variants`)."""
        from scipy import sparse
        from sklearn.exceptions import ConvergenceWarning
        from sklearn.linear_model import LogisticRegression

        texts, labels = [], []
        examples = [*examples, *compounds(list(examples), 25, seed=seed)]
        for index, (text, act) in enumerate(examples):
            for variant in (text, *noisy_variants(text, noise, seed=seed + index)):
                texts.append(variant)
                labels.append(act)
        counts = cls._counts(texts)
        df = np.bincount(counts.indices, minlength=counts.shape[1])
        idf = np.log((1 + len(texts)) / (1 + df)) + 1.0
        features = _normalized(counts @ sparse.diags(idf))
        # saga, a few epochs: about a second on sparse n-grams (lbfgs took half a minute), same held-back score
        model = LogisticRegression(C=10.0, solver="saga", max_iter=30, tol=1e-3)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model.fit(features, labels)
        return cls(idf, model)

    @classmethod
    def trained(cls) -> ActClassifier:
        """The classifier trained on ``train.toml``, once per process (thread-safe)."""
        global _TRAINED
        with _LOCK:
            if _TRAINED is None:
                _TRAINED = cls.fit(load_examples(TRAIN_PATH))
            return _TRAINED

    def probabilities(self, texts: Sequence[str]) -> np.ndarray:
        """One row of act probabilities per text, columns in :attr:`classes` order."""
        features = _normalized(self._counts(texts) @ self._idf)
        return np.asarray(self._model.predict_proba(features))

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
    """The process's :meth:`ActClassifier.trained`, trained at the first prediction: a start, and every turn the
    rules or the intent classifier decide alone, cost nothing."""

    def predict(
        self, text: str, *, allowed: frozenset[str] | None = None, prior: Mapping[str, float] | None = None
    ) -> ActGuess:
        """:meth:`ActClassifier.predict` of the trained classifier."""
        return ActClassifier.trained().predict(text, allowed=allowed, prior=prior)


def _normalized(matrix: sparse.csr_matrix) -> sparse.csr_matrix:
    """Rows scaled to unit length (TF-IDF's l2 norm)."""
    from scipy import sparse

    norms = np.sqrt(np.asarray(matrix.multiply(matrix).sum(axis=1)).ravel())
    norms[norms == 0] = 1.0
    return sparse.diags(1.0 / norms) @ matrix


_LOCK = threading.Lock()
_TRAINED: ActClassifier | None = None
