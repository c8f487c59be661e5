"""Linear text classifiers fitted at build time and scored with numpy at run time (issue: cold start).

The dialogue-act classifier (:mod:`nlu.acts`) and the hedge reader (:mod:`nlu.opinion_hedge`) are logistic
regressions over n-gram features, fitted with scikit-learn. Importing scikit-learn and fitting took most of a
second at the first turn of every process, so ``corsbot nlu train-classifiers`` fits them once and stores each
as ``$CORSBOT_HOME/models/<name>/classifier.npz``: the n-gram recipe of each feature block (sklearn's analyzers
reproduced here), its vocabulary or hashing width, the IDF weights, the coefficients and the classes, with the
fingerprint of the training data and recipe (:func:`recipe_fingerprint`). A process loads the file (a few
milliseconds, numpy only) when its fingerprint is the current one; otherwise it fits in memory, as before, and
says so once (:func:`stored`).

The scores equal scikit-learn's to rounding (``tests/nlu/test_text_classifier.py``): the features are built
exactly as ``HashingVectorizer`` / ``TfidfVectorizer`` build them (lower case, ``char_wb`` or word n-grams,
MurmurHash3 columns for the hashed blocks, sublinear TF, IDF, l2 norm of the whole row or of each block), then
``softmax(x @ coef.T + intercept)`` (several classes) or the logistic of the decision (two classes).

Example::

    scorer = TextClassifier.from_sklearn_union(pipeline)     # at build time, from a fitted pipeline
    scorer.save(path, fingerprint="3f2a...")
    TextClassifier.load(path).probabilities(["i loved x"])  # array([[0.93, 0.07]])
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import re
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "CLASSIFIER_FILE",
    "NgramBlock",
    "TextClassifier",
    "recipe_fingerprint",
    "stored",
]

logger = logging.getLogger(__name__)

CLASSIFIER_FILE = "classifier.npz"
"""File name of a stored classifier, in ``<models>/<name>/``."""
_FORMAT = "corsbot-text-classifier-1"
_WHITE_SPACES = re.compile(r"\s\s+")  # sklearn's VectorizerMixin._white_spaces
_INT32_MIN = -(2**31)


def _murmur3(text: str) -> int:
    """Signed 32-bit MurmurHash3 (seed 0) of the UTF-8 of ``text``: sklearn's ``murmurhash3_32``."""
    from murmurhash.mrmr import hash as murmur  # spaCy's dependency; a small C extension

    return int(murmur(text))


@dataclass(frozen=True, slots=True)
class NgramBlock:
    """One vectorizer's n-grams: ``char_wb`` or ``word`` (with ``token_pattern``), in ``ngram_range``; columns
    hashed into ``n_features`` (``HashingVectorizer``), or looked up in a vocabulary (``n_features`` 0)."""

    analyzer: str
    ngram_range: tuple[int, int]
    token_pattern: str = ""
    n_features: int = 0
    sublinear_tf: bool = False

    def grams(self, text: str) -> list[str]:
        """The n-grams of ``text`` as sklearn's analyzer yields them (lower-cased first)."""
        low, high = self.ngram_range
        text = text.lower()
        if self.analyzer == "char_wb":
            grams: list[str] = []
            for word in _WHITE_SPACES.sub(" ", text).split():
                padded = f" {word} "
                for n in range(low, high + 1):
                    grams.extend(padded[i : i + n] for i in range(max(1, len(padded) - n + 1)))
                    if len(padded) <= n:  # a short word is counted once, at its shortest n
                        break
            return grams
        tokens = re.findall(self.token_pattern, text)
        grams = list(tokens) if low == 1 else []
        for n in range(max(low, 2), min(high, len(tokens)) + 1):
            grams.extend(" ".join(tokens[i : i + n]) for i in range(len(tokens) - n + 1))
        return grams

    def column(self, gram: str) -> int:
        """The hashed column of ``gram`` (sklearn's ``FeatureHasher`` without alternate signs)."""
        h = _murmur3(gram)
        if h == _INT32_MIN:
            return (2**31 - 1 - (self.n_features - 1)) % self.n_features
        return abs(h) % self.n_features

    def to_json(self) -> dict[str, Any]:
        """The block's recipe as stored in the file's metadata."""
        return {
            "analyzer": self.analyzer,
            "ngram_range": list(self.ngram_range),
            "token_pattern": self.token_pattern,
            "n_features": self.n_features,
            "sublinear_tf": self.sublinear_tf,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> NgramBlock:
        """The block of :meth:`to_json`."""
        low, high = data["ngram_range"]
        return cls(
            data["analyzer"], (int(low), int(high)), data["token_pattern"], data["n_features"], data["sublinear_tf"]
        )

    @classmethod
    def of_vectorizer(cls, vectorizer: Any) -> NgramBlock:
        """The block of a fitted sklearn ``HashingVectorizer`` or ``TfidfVectorizer``.

        Raises:
            ValueError: an option this module does not reproduce (accents stripped, stop words, signs, ...).
        """
        params = vectorizer.get_params()
        expected: dict[str, object] = {
            "lowercase": True,
            "strip_accents": None,
            "stop_words": None,
            "preprocessor": None,
        }
        expected |= {"tokenizer": None, "binary": False, "input": "content"}
        if "alternate_sign" in params:
            expected |= {"alternate_sign": False, "norm": None}
        else:
            expected |= {"norm": "l2", "use_idf": True, "smooth_idf": True, "max_df": 1.0, "min_df": 1}
            expected |= {"max_features": None, "vocabulary": None}
        wrong = {k: params.get(k) for k, v in expected.items() if params.get(k) != v}
        if wrong or params["analyzer"] not in ("char_wb", "word"):
            raise ValueError(f"unsupported vectorizer options: {wrong or params['analyzer']}")
        if params["analyzer"] == "word" and re.compile(params["token_pattern"]).groups > 1:
            raise ValueError("a token pattern with more than one group")
        return cls(
            params["analyzer"],
            tuple(params["ngram_range"]),
            params["token_pattern"] if params["analyzer"] == "word" else "",
            int(params.get("n_features", 0)) if "alternate_sign" in params else 0,
            bool(params.get("sublinear_tf", False)),
        )


class TextClassifier:
    """A logistic regression over blocks of n-gram TF-IDF features, scored with numpy.

    Args:
        blocks: the feature blocks, their columns side by side in this order.
        vocabularies: per block, ``gram -> column`` within the block (None for a hashed block).
        idf: (d,) IDF weight of every column (1 where the features were not IDF-weighted).
        coef: (k, d) coefficients; k = 1 for two classes (the second class's decision).
        intercept: (k,) intercepts.
        classes: the k (or 2) class names, in the order of the probabilities' columns.
        block_norm: l2-normalise each block apart (sklearn's ``FeatureUnion`` of ``TfidfVectorizer``), else
            the whole row (one ``normalize`` after the blocks are stacked).
    """

    def __init__(
        self,
        blocks: Sequence[NgramBlock],
        vocabularies: Sequence[dict[str, int] | None],
        idf: np.ndarray,
        coef: np.ndarray,
        intercept: np.ndarray,
        classes: Sequence[str],
        *,
        block_norm: bool,
    ) -> None:
        self.blocks = tuple(blocks)
        self._vocabularies = tuple(vocabularies)
        widths = [b.n_features or len(v or ()) for b, v in zip(self.blocks, self._vocabularies, strict=True)]
        self._offsets = tuple(int(x) for x in np.cumsum([0, *widths]))
        if self._offsets[-1] != len(idf) or coef.shape[1] != len(idf):
            raise ValueError(f"{self._offsets[-1]} feature columns, {len(idf)} IDF weights, coef {coef.shape}")
        self._idf = np.asarray(idf, dtype=np.float64)
        self._coef = np.asarray(coef, dtype=np.float64)
        self._intercept = np.asarray(intercept, dtype=np.float64)
        self.classes = tuple(str(c) for c in classes)
        self._block_norm = block_norm

    def _row(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        """The text's non-zero feature columns and values (TF-IDF, normalised)."""
        columns: list[int] = []
        values: list[float] = []
        for block, vocabulary, offset in zip(self.blocks, self._vocabularies, self._offsets, strict=False):
            if vocabulary is None:
                counts = Counter(block.column(g) for g in block.grams(text))
            else:
                counts = Counter(vocabulary[g] for g in block.grams(text) if g in vocabulary)
            cols = [offset + c for c in sorted(counts)]
            tf = [float(counts[c]) for c in sorted(counts)]
            if block.sublinear_tf:
                tf = [1.0 + math.log(v) for v in tf]
            weighted = np.asarray(tf) * self._idf[cols]
            if self._block_norm:
                weighted = _unit(weighted)
            columns.extend(cols)
            values.extend(weighted.tolist())
        vals = np.asarray(values, dtype=np.float64)
        return np.asarray(columns, dtype=np.intp), vals if self._block_norm else _unit(vals)

    def decisions(self, texts: Sequence[str]) -> np.ndarray:
        """(n, k) decision values (``x @ coef.T + intercept``)."""
        out = np.empty((len(texts), self._coef.shape[0]))
        for i, text in enumerate(texts):
            cols, vals = self._row(text)
            out[i] = self._coef[:, cols] @ vals + self._intercept
        return out

    def probabilities(self, texts: Sequence[str]) -> np.ndarray:
        """(n, classes) probabilities, columns in :attr:`classes` order (sklearn's ``predict_proba``)."""
        decision = self.decisions(texts)
        if decision.shape[1] == 1:
            positive = 1.0 / (1.0 + np.exp(-decision[:, 0]))
            return np.stack([1.0 - positive, positive], axis=1)
        shifted = np.exp(decision - decision.max(axis=1, keepdims=True))
        return shifted / shifted.sum(axis=1, keepdims=True)

    @classmethod
    def from_sklearn_union(cls, pipeline: Any) -> TextClassifier:
        """The classifier of a fitted ``make_pipeline(make_union(TfidfVectorizer, ...), LogisticRegression)``."""
        union, model = pipeline.steps[0][1], pipeline.steps[-1][1]
        vectorizers = [v for _name, v in union.transformer_list]
        vocabularies = [{str(g): int(c) for g, c in v.vocabulary_.items()} for v in vectorizers]
        idf = np.concatenate([v.idf_ for v in vectorizers])
        blocks = [NgramBlock.of_vectorizer(v) for v in vectorizers]
        return cls(blocks, vocabularies, idf, model.coef_, model.intercept_, model.classes_, block_norm=True)

    @classmethod
    def from_sklearn_hashing(cls, vectorizers: Sequence[Any], idf: np.ndarray, model: Any) -> TextClassifier:
        """The classifier of ``HashingVectorizer`` counts stacked side by side, weighted by ``idf``, normalised
        as a whole row, and a fitted ``LogisticRegression`` on them."""
        blocks = [NgramBlock.of_vectorizer(v) for v in vectorizers]
        return cls(blocks, [None] * len(blocks), idf, model.coef_, model.intercept_, model.classes_, block_norm=False)

    def save(self, path: Path, *, fingerprint: str, about: dict[str, Any] | None = None) -> None:
        """Write the classifier to ``path`` (``.npz``, atomically), stamped with ``fingerprint``."""
        meta = {
            "format": _FORMAT,
            "fingerprint": fingerprint,
            "blocks": [b.to_json() for b in self.blocks],
            "block_norm": self._block_norm,
            **(about or {}),
        }
        arrays: dict[str, np.ndarray] = {
            "meta": np.array(json.dumps(meta)),
            "idf": self._idf,
            "coef": self._coef,
            "intercept": self._intercept,
            "classes": np.array(self.classes),
        }
        for k, vocabulary in enumerate(self._vocabularies):
            if vocabulary is not None:
                terms = [""] * len(vocabulary)
                for gram, column in vocabulary.items():
                    terms[column] = gram
                arrays[f"vocabulary{k}"] = np.array(terms)
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        with partial.open("wb") as handle:
            np.savez(handle, **arrays)  # type: ignore[arg-type]
        os.replace(partial, path)

    @classmethod
    def load(cls, path: Path) -> tuple[TextClassifier, str]:
        """The classifier stored at ``path`` and the fingerprint it was stamped with.

        Raises:
            OSError: no readable file. ValueError: not a file of this format.
        """
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if meta.get("format") != _FORMAT:
                raise ValueError(f"{path}: format {meta.get('format')!r}, not {_FORMAT}")
            blocks = [NgramBlock.from_json(b) for b in meta["blocks"]]
            vocabularies: list[dict[str, int] | None] = []
            for k in range(len(blocks)):
                key = f"vocabulary{k}"
                terms = data[key].tolist() if key in data else None
                vocabularies.append({g: c for c, g in enumerate(terms)} if terms is not None else None)
            scorer = cls(
                blocks,
                vocabularies,
                data["idf"],
                data["coef"],
                data["intercept"],
                data["classes"].tolist(),
                block_norm=bool(meta["block_norm"]),
            )
        return scorer, str(meta["fingerprint"])


def _unit(values: np.ndarray) -> np.ndarray:
    """``values`` scaled to unit l2 length (unchanged when all zero, as sklearn's ``normalize``)."""
    norm = math.sqrt(float(values @ values)) if len(values) else 0.0
    return values / norm if norm > 0 else values


def recipe_fingerprint(*sources: Path) -> str:
    """SHA-256 (hex, 16 chars) of the files a classifier is fitted from: its training data and the source of the
    code that builds its examples and features (a stored classifier fitted otherwise is not used)."""
    h = hashlib.sha256(_FORMAT.encode())
    for source in sources:
        h.update(source.name.encode() + b"\x00" + source.read_bytes() + b"\x01")
    return h.hexdigest()[:16]


_LOCK = threading.Lock()
_LOADED: dict[tuple[str, str], TextClassifier] = {}


def stored(name: str, folder: Path | None, fingerprint: str, fit: Callable[[], TextClassifier]) -> TextClassifier:
    """The process's classifier ``name``, made once (thread-safe): loaded from ``folder/name/classifier.npz`` when
    that file was fitted from the current data and recipe (``fingerprint``), else fitted in memory by ``fit`` (a
    second or two, scikit-learn imported), with one warning when ``folder`` was given (a missing or stale file:
    ``corsbot nlu train-classifiers`` writes it). ``folder`` None: always fitted (the tests' default)."""
    key = (name, str(folder))
    with _LOCK:
        if key in _LOADED:
            return _LOADED[key]
        scorer = _from_file(name, folder, fingerprint) if folder is not None else None
        if scorer is None:
            scorer = fit()
        _LOADED[key] = scorer
        return scorer


def _from_file(name: str, folder: Path, fingerprint: str) -> TextClassifier | None:
    """The stored classifier when current, else None (with the warning of :func:`stored`)."""
    path = folder / name / CLASSIFIER_FILE
    try:
        scorer, stamped = TextClassifier.load(path)
    except FileNotFoundError:
        why = "is missing"
    except (OSError, ValueError, KeyError) as exc:
        why = f"is unreadable ({exc})"
    else:
        if stamped == fingerprint:
            return scorer
        why = "was fitted from other training data or another recipe"
    logger.warning(
        "the %s classifier %s %s: fitting it in memory (a second or two at the first use); "
        "`corsbot nlu train-classifiers` (or make) writes it",
        name,
        path,
        why,
    )
    return None
