"""Prediction without spaCy (issue 24: split from ``nlu.intents``): the textcat's bag-of-ngrams weights copied
into numpy (``textcat_bow.npz`` beside the model) and scored with spaCy's hashing reproduced bit for bit, so a
start need not import spaCy and build its pipeline.

Reads a trained ``spacy.TextCatBOW.v3`` exclusive textcat (or the stored copy); adds the softmax scores of a
feature string (:meth:`BowScorer.scores`).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from nlu.intent_features import featurize

logger = logging.getLogger(__name__)

__all__ = ["BOW_FILE", "BowScorer", "bow_fingerprint", "bow_layers"]


def bow_layers(model: Any) -> tuple[Any, Any, Any] | None:
    """(extract_ngrams, linear, softmax) of a ``spacy.TextCatBOW.v3`` exclusive model, else None."""
    try:
        inner, output = model.layers
        ngrams, linear = inner.layers[0].layers
        softmax = output.layers[0]
    except (ValueError, IndexError, AttributeError):
        return None
    if ngrams.name != "extract_ngrams" or softmax.name != "softmax_activation":
        return None
    return ngrams, linear, softmax


BOW_FILE = "textcat_bow.npz"
"""Load-ready copy of the textcat's weights beside ``spacy/`` (a cache, written at the first spaCy
load of a model, rebuilt when the model files or the spaCy/thinc/murmurhash versions change)."""
_BOW_FORMAT = "corsbot-bow-1"
_U64 = 0xFFFFFFFFFFFFFFFF
_M64 = 0xC6A4A7935BD1E995
_PROBES = (
    "i like the matrix",
    "skip",
    "yes",
    "no thanks",
    "why",
    "mark my words, the nsubj of this prep is a punct",
    "i don't like horror films directed by christopher nolan",
    "hello",
    "reset everything",
    "show my profile",
)
"""Messages whose scores the numpy forward pass must reproduce bit for bit before it is stored."""


def _murmur64a(data: bytes, seed: int) -> int:
    """MurmurHash64A (``murmurhash``'s ``hash64``: spaCy's string ids and thinc's n-gram keys)."""
    n = len(data)
    h = (seed ^ (n * _M64)) & _U64
    end = n - (n & 7)
    for i in range(0, end, 8):
        k = (int.from_bytes(data[i : i + 8], "little") * _M64) & _U64
        k = ((k ^ (k >> 47)) * _M64) & _U64
        h = ((h ^ k) * _M64) & _U64
    if n & 7:
        h = ((h ^ int.from_bytes(data[end:], "little")) * _M64) & _U64
    h = ((h ^ (h >> 47)) * _M64) & _U64
    return h ^ (h >> 47)


class BowScorer:
    """The forward pass of a ``spacy.TextCatBOW.v3`` exclusive textcat in numpy, without spaCy.

    Reproduces spaCy/thinc bit for bit (checked on :data:`_PROBES` before the copy is stored, and
    on the 9,276 released messages when this was written): a word's key is spaCy's string id (a
    symbol's fixed id, else MurmurHash64A of its UTF-8, seed 1), an n-gram's the MurmurHash64A of
    its keys (seed 0); the unique keys, in sorted order, add ``count * W[:, idx]`` for the two
    indices ``MurmurHash3_x86_32(key, seed 0 and 1) & (length - 1)`` (``SparseLinear.v2``) in float32
    to the bias; then softmax. Importing spaCy is most of a start (~1 s), and prediction needs only this.
    """

    def __init__(self, weights: np.ndarray, bias: np.ndarray, ngram_size: int, symbols: Mapping[str, int]) -> None:
        self._weights = np.ascontiguousarray(weights.T, dtype=np.float32)  # (length, nO): one row per index
        self._bias = np.asarray(bias, dtype=np.float32)
        self._ngram_size = ngram_size
        self._mask = self._weights.shape[0] - 1
        self._symbols = dict(symbols)
        self._ids: dict[str, int] = dict(self._symbols)
        from murmurhash.mrmr import hash_bytes  # spaCy's own hashing library (a dependency of spaCy)

        self._hash32 = hash_bytes

    def _id(self, word: str) -> int:
        found = self._ids.get(word)
        if found is None:
            if len(self._ids) > 200_000:  # a long-running bot: words of user messages
                self._ids = dict(self._symbols)
            found = self._ids[word] = _murmur64a(word.encode("utf-8"), 1)
        return found

    def scores(self, features: str) -> list[float]:
        """The class probabilities of ``features`` (the :func:`featurize` text), in label order."""
        keys = [self._id(w) for w in features.split()]
        raw = [k.to_bytes(8, "little") for k in keys]
        for n in range(2, self._ngram_size + 1):
            keys.extend(_murmur64a(b"".join(raw[i : i + n]), 0) for i in range(len(raw) - n + 1))
        unique, counts = np.unique(np.asarray(keys, dtype=np.uint64), return_counts=True)
        out = self._bias.copy()
        weights, mask, hash32 = self._weights, self._mask, self._hash32
        for key, value in zip(unique.tolist(), counts.astype(np.float32), strict=True):
            data = key.to_bytes(8, "little")
            out += weights[hash32(data, 0) & mask] * value
            out += weights[hash32(data, 1) & mask] * value
        x = out.reshape(1, -1)
        e = np.exp(x - np.max(x, axis=-1, keepdims=True))
        e /= e.sum(axis=-1, keepdims=True)
        return [float(p) for p in e[0].tolist()]

    @classmethod
    def from_textcat(cls, textcat: Any) -> BowScorer | None:
        """The scorer of a loaded spaCy textcat, or None if its model is not a bag of n-grams this
        class reproduces (other architecture, attribute, indexing, or any probe scored differently)."""
        from spacy.attrs import ORTH
        from spacy.symbols import IDS
        from spacy.tokens import Doc

        layers = bow_layers(textcat.model)
        if layers is None or not textcat.model.has_ref("output_layer"):
            return None
        ngrams = layers[0]
        linear = textcat.model.get_ref("output_layer")  # the SparseLinear inside its resizable wrapper
        length = int(linear.get_dim("length"))
        if (
            linear.name != "sparse_linear"
            or ngrams.attrs.get("attr") != ORTH
            or linear.attrs.get("v1_indexing", True)
            or length & (length - 1)
            or textcat.model.attrs.get("multi_label")
        ):
            return None
        n_out = int(linear.get_dim("nO"))
        scorer = cls(
            np.asarray(linear.get_param("W"), dtype=np.float32).reshape(n_out, length),
            np.asarray(linear.get_param("b"), dtype=np.float32),
            int(ngrams.attrs["ngram_size"]),
            {str(k): int(v) for k, v in IDS.items()},
        )
        for probe in _PROBES:
            features = featurize(probe, ("preference-followup",), ("question",), domain="movie")
            expected = textcat.model.predict([Doc(textcat.vocab, words=features.split())])[0]
            if [float(p) for p in np.asarray(expected, dtype=np.float32).tolist()] != scorer.scores(features):
                logger.info("numpy textcat differs from spaCy's on %r: predicting with spaCy", probe)
                return None
        return scorer

    def save(self, path: Path, fingerprint: str) -> None:
        """Write the copy to ``path`` (atomically)."""
        tmp = path.with_name(path.name + ".tmp")
        with tmp.open("wb") as fh:
            np.savez(
                fh,
                fingerprint=np.asarray(fingerprint),
                weights=self._weights,
                bias=self._bias,
                ngram_size=np.asarray(self._ngram_size),
                symbol_names=np.asarray(list(self._symbols), dtype=str),
                symbol_ids=np.asarray(list(self._symbols.values()), dtype=np.uint64),
            )
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path, fingerprint: str) -> BowScorer | None:
        """The copy at ``path`` if it was made from the same model files and library versions."""
        try:
            with np.load(path, allow_pickle=False) as data:
                if str(data["fingerprint"]) != fingerprint:
                    return None
                symbols = dict(zip(data["symbol_names"].tolist(), data["symbol_ids"].tolist(), strict=True))
                return cls(data["weights"].T, data["bias"], int(data["ngram_size"]), symbols)
        except (OSError, ValueError, KeyError):  # missing, partial or foreign file: load with spaCy
            return None


def bow_fingerprint(pipeline_dir: Path) -> str:
    """What the numpy copy depends on: the textcat's files and the versions of the hashing code."""
    from importlib.metadata import PackageNotFoundError, version

    digest = hashlib.sha256(_BOW_FORMAT.encode())
    for name in ("spacy", "thinc", "murmurhash"):
        try:
            digest.update(f"{name} {version(name)}\n".encode())
        except PackageNotFoundError:  # pragma: no cover - declared dependencies
            digest.update(f"{name} none\n".encode())
    for part in ("model", "cfg"):
        digest.update((pipeline_dir / "textcat" / part).read_bytes())
    return digest.hexdigest()
