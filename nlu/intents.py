"""State-aware intent recognizer: a spaCy text classifier over the message and the dialog state.

What it predicts: the original DialogFlow agent's intent names as logged in the ConveRSE dataset
(``preference``, ``request_recommendation - skip``, ``smalltalk.greetings.hello``, ...; see
``logs.schema.Intent``). Like the original agent it uses the dialog state. The state is:

- ``contexts``: the contexts active *before* the message (the logged ``contexts`` of the same
  user's previous record), as in DESIGN.md;
- ``events`` (optional keyword): the system events of the previous turn (``question``,
  ``disambiguation``, ``recommendation``, ...): what the bot just asked. Worth ~3 points of
  accuracy, because the logged contexts often miss an open disambiguation question;
- ``domain`` (optional keyword): ``movie``/``book``/``music``. The three original agents differ
  (e.g. "I don't like" while a recommendation is shown is ``preference`` in the movie logs and
  ``request_recommendation - preference`` in the book and music logs). Worth ~1.5 points.

Unknown events/domain (``None``) are allowed: 20 % of the training examples are shown with their
events hidden (``event_dropout``), and the curated phrases have neither, so the model also works
for callers that only pass contexts (with lower accuracy).

Model (config in ``nlu/intent_config.cfg``): a blank English spaCy pipeline with one ``textcat``
(exclusive classes, ``spacy.TextCatBOW.v3``: a hashed bag of word uni- and bigrams feeding a
softmax), trained by our own minibatch loop (:meth:`IntentRecognizer._fit`: Adam, spaCy's squared
error on the softmax output, examples weighted by ``(n_max / n_intent) ** class_weight_power`` so
that rare intents are not drowned). The text the classifier sees is built by :func:`featurize`:

1. the message is repaired (UTF-8 read as cp1252, "donâ€™t": done by :func:`nlu.textnorm.normalize`), normalised
   (``nlu.textnorm.normalize``: NFKC, straight quotes, single spaces), lowercased, chat spellings
   respelt (``nlu.textnorm.chat_spelling``: "wat shoud i read" -> "what should i read", so one
   wording's training phrases cover its chat forms) and cut to
   ``max_chars`` characters (a 10,000-character message costs no more than a 300-character one;
   the released messages are at most 104 characters);
2. one *state token* per active context, event and the domain is prepended, e.g.
   ``ctx_request_recommendation_followup evt_question dom_movie`` (``ctx_none``/``evt_none`` when
   empty, ``evt_unknown`` when not given), so bigrams pair the state with the first word;
3. *state conjunctions*: for every state token ``s`` and word ``w`` a token ``s_w`` is appended.
   The linear model then learns that "skip" is ``request_recommendation - skip`` in a
   recommendation state and ``skip`` elsewhere, and that "yes" depends on which question is open;
4. *rare-word markers*: every word seen in fewer than ``rare_min_groups`` training conversations
   (and in no curated phrase) becomes ``xxrare`` in the conjunctions and adds an ``xxrare``
   token: names of people and films are rare, so the model learns what an unknown word means in
   each state (a name answering a disambiguation question is ``preference - disambiguation``;
   gibberish elsewhere is a fallback).

Extra training data (:func:`agent_examples`, :func:`smalltalk_examples`): the DialogFlow agent's
training phrases with the intent's input contexts as state, and our own small-talk phrases
(``nlu/intent_smalltalk.json``; DialogFlow's prebuilt small talk is not in the export).

Fallback (out of scope / low confidence): when the classifier's top probability is below
``fallback_threshold`` the recognizer answers the fallback intent of the current state, as the
original agent did: ``request_recommendation - fallback`` while a recommendation is on screen
(context ``request_recommendation-followup``), else ``Default Fallback Intent``. The threshold is
chosen on held-out conversations by :func:`choose_threshold`: ``corsbot nlu evaluate`` picks one
per fold on the other folds' out-of-fold predictions and reports them; the shipped value in the
config is their (rounded) median. Messages without any letter or digit (empty, whitespace, emoji
only, "???") get the fallback with confidence 1.0 without calling the classifier.

Deterministic rules (the original agent was deterministic there): ``/start`` (also ``\\start``) is
``start`` and ``/help`` is ``help``, confidence 1.0.

Example:
    >>> rec = IntentRecognizer.train(examples)                       # doctest: +SKIP
    >>> rec.predict("skip", ["request_recommendation-followup"], events=["question"], domain="movie")  # doctest: +SKIP
    IntentPrediction(intent='request_recommendation - skip', confidence=0.99, alternatives=(...))
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from nlu.errors import NluError
from nlu.intent_bow import BOW_FILE, BowScorer, bow_fingerprint, bow_layers
from nlu.intent_data import SMALLTALK_PATH, IntentExample, agent_examples, intent_counts, smalltalk_examples
from nlu.intent_features import (
    DOMAINS,
    FEATURE_TOKENIZER,
    featurize,
    message_words,
    register_feature_tokenizer,
    repair_text,
)
from nlu.textnorm import chat_spelling, has_letters, normalize

__all__ = [
    "CONFIG_PATH",
    "DEFAULT_FALLBACK",
    "REC_FALLBACK",
    "IntentExample",
    "IntentPrediction",
    "IntentRecognizer",
    "SMALLTALK_PATH",
    "agent_examples",
    "intent_counts",
    "smalltalk_examples",
    "repair_text",
    "choose_threshold",
    "fallback_intent",
    "featurize",
    "load_options",
]

logger = logging.getLogger(__name__)

CONFIG_PATH = Path(__file__).with_name("intent_config.cfg")
"""The spaCy config shipped with the package."""

DEFAULT_FALLBACK = "Default Fallback Intent"
REC_FALLBACK = "request_recommendation - fallback"
REC_CONTEXT = "request_recommendation-followup"
MODEL_FORMAT = "corsbot-intent-1"
_META_FILE = "recognizer.json"
_PIPELINE_DIR = "spacy"

_RULES: Mapping[str, str] = {"/start": "start", "\\start": "start", "/help": "help", "\\help": "help"}


@dataclass(frozen=True, slots=True)
class IntentPrediction:
    """What the recognizer decided for one message.

    Attributes:
        intent: the chosen intent (may be a fallback intent even if the classifier ranked another).
        confidence: probability in [0, 1] of ``intent`` (1.0 for rules and no-letter messages; for
            a low-confidence fallback, 1 - the classifier's top probability).
        alternatives: the classifier's top-k ``(intent, probability)`` pairs, best first
            (empty when no classifier was consulted).
    """

    intent: str
    confidence: float
    alternatives: tuple[tuple[str, float], ...]


def load_options(path: Path = CONFIG_PATH) -> tuple[Any, dict[str, Any]]:
    """Read a recognizer config file.

    Returns:
        ``(spacy_config, options)``: the spaCy part (``[nlp]``, ``[components]``) as a
        ``thinc.api.Config`` and the ``[corsbot]`` section as a plain dict.

    Raises:
        NluError: if the file is missing or not a valid config.
    """
    from spacy.util import load_config

    try:
        config = load_config(path)
    except Exception as exc:  # noqa: BLE001 - any parse error becomes one clear message
        raise NluError(f"cannot read intent config {path}: {exc}") from exc
    options = dict(config.get("corsbot", {}))
    spacy_part = config.copy()
    spacy_part.pop("corsbot", None)
    return spacy_part, options


def fallback_intent(contexts: Sequence[str]) -> str:
    """The intent the original agent gave to a message it did not understand in this state."""
    return REC_FALLBACK if REC_CONTEXT in contexts else DEFAULT_FALLBACK


def choose_threshold(
    gold: Sequence[str],
    predicted: Sequence[str],
    confidence: Sequence[float],
    fallbacks: Sequence[str],
    *,
    grid: Iterable[float] = tuple(np.round(np.arange(0.0, 0.81, 0.02), 2)),
) -> float:
    """Pick the fallback threshold that maximises accuracy on held-out predictions.

    Args:
        gold: true intents of the held-out messages.
        predicted: the classifier's top intents (before any fallback).
        confidence: the classifier's top probabilities, in [0, 1].
        fallbacks: the fallback intent of each message's state (:func:`fallback_intent`).
        grid: candidate thresholds; ties go to the smallest.

    Returns:
        The best threshold (0.0 when ``gold`` is empty).
    """
    if not gold:
        return 0.0
    g = np.asarray(gold, dtype=object)
    p = np.asarray(predicted, dtype=object)
    f = np.asarray(fallbacks, dtype=object)
    c = np.asarray(confidence, dtype=float)
    best, best_acc = 0.0, -1.0
    for t in grid:
        acc = float(np.mean(np.where(c < t, f, p) == g))
        if acc > best_acc + 1e-12:
            best, best_acc = float(t), acc
    return best


class IntentRecognizer:
    """spaCy ``textcat`` over :func:`featurize` text, plus rules and the fallback threshold.

    Build with :meth:`train` or :meth:`load`; then :meth:`predict`. Thread-safe for prediction
    only if spaCy is (one recognizer per process is the intended use).
    """

    def __init__(
        self,
        nlp: Any,
        *,
        known_words: frozenset[str],
        options: Mapping[str, Any],
        scorer: BowScorer | None = None,
        source: Path | None = None,
        labels: Sequence[str] = (),
    ) -> None:
        """Wrap a trained spaCy pipeline (use :meth:`train` or :meth:`load` instead).

        ``nlp`` may be None when ``scorer`` (the numpy forward pass) predicts: the pipeline is then
        loaded from ``source`` only if training or saving needs it; ``labels`` are the textcat's."""
        self._pipeline = nlp
        self._scorer = scorer
        self._source = source
        self._known = known_words
        self.options: dict[str, Any] = dict(options)
        self.labels: tuple[str, ...] = tuple(labels) if nlp is None else tuple(nlp.get_pipe("textcat").labels)

    @property
    def _nlp(self) -> Any:
        """The spaCy pipeline (loaded on first use when the numpy scorer predicts)."""
        if self._pipeline is None:
            import spacy

            assert self._source is not None, "a recognizer without a pipeline is loaded from a folder"
            register_feature_tokenizer()
            self._pipeline = spacy.load(self._source / _PIPELINE_DIR, exclude=["tokenizer"], config=FEATURE_TOKENIZER)
        return self._pipeline

    @property
    def _textcat(self) -> Any:
        return self._nlp.get_pipe("textcat")

    # ------------------------------------------------------------------ training
    @classmethod
    def train(
        cls,
        examples: Sequence[IntentExample],
        *,
        config_path: Path = CONFIG_PATH,
        validation: Sequence[IntentExample] = (),
        **options: Any,
    ) -> IntentRecognizer:
        """Train a recognizer.

        Args:
            examples: labelled messages (at least two distinct intents).
            config_path: spaCy config with a ``[corsbot]`` section (default: the shipped one).
            validation: held-out messages (other conversations); when given, the fallback
                threshold is chosen on them with :func:`choose_threshold`, otherwise the
                config's ``fallback_threshold`` is used.
            **options: overrides of the ``[corsbot]`` options (``epochs``, ``batch_size``,
                ``learn_rate``, ``seed``, ``max_chars``, ``rare_min_groups``,
                ``context_conjunctions``, ``char_ngrams``, ``fallback_threshold``, ``top_k``).

        Returns:
            The trained recognizer; ``options["fallback_threshold"]`` holds the threshold used and
            ``options["train_seconds"]`` the wall time of training.

        Raises:
            NluError: on fewer than two intents or an unreadable config.
        """
        import spacy
        from spacy.util import load_model_from_config

        started = time.perf_counter()
        spacy_config, opts = load_options(config_path)
        unknown = set(options) - set(opts)
        if unknown:
            raise NluError(f"unknown intent-recognizer options: {', '.join(sorted(unknown))}")
        opts.update(options)
        labels = sorted({e.intent for e in examples})
        if len(labels) < 2:
            raise NluError(f"intent training needs at least two intents, got {len(labels)}")

        # rare words: seen in fewer than `rare_min_groups` conversations; the words of curated
        # phrases (examples without dialog state, events None: agent and small-talk phrases) are
        # always known
        groups_per_word: dict[str, set[str]] = {}
        curated: set[str] = set()
        for e in examples:
            words = set(message_words(chat_spelling(normalize(e.text, max_chars=opts["max_chars"]).lower())))
            if e.events is None:
                curated |= words
            for w in words:
                groups_per_word.setdefault(w, set()).add(e.group)
        known = frozenset(curated | {w for w, g in groups_per_word.items() if len(g) >= opts["rare_min_groups"]})

        nlp = load_model_from_config(spacy_config, auto_fill=True, validate=True)
        if not isinstance(nlp, spacy.language.Language) or "textcat" not in nlp.pipe_names:
            raise NluError(f"{config_path}: the pipeline must contain a 'textcat' component")
        textcat = nlp.get_pipe("textcat")
        for label in labels:
            textcat.add_label(label)  # type: ignore[attr-defined]
        recognizer = cls(nlp, known_words=known, options=opts)
        rng = random.Random(opts["seed"])
        dropout = float(opts["event_dropout"])
        docs = [
            recognizer._doc(
                recognizer._features(
                    e.text,
                    e.contexts,
                    None if rng.random() < dropout else e.events,
                    e.domain if e.domain in DOMAINS else None,
                )
            )
            for e in examples
        ]
        index = {label: i for i, label in enumerate(labels)}
        truth = np.zeros((len(examples), len(labels)), dtype="float32")
        truth[np.arange(len(examples)), [index[e.intent] for e in examples]] = 1.0
        # class weights from the labelled conversations and curated phrases only: generated phrases
        # (nlu/augment.py, groups "augment:*") add wordings, not prior mass to their intents
        freq = Counter(e.intent for e in examples if not e.group.startswith("augment:"))
        for e in examples:
            freq.setdefault(e.intent, 1)
        # small talk is context-free in DialogFlow (it can fire in any state): our small-talk
        # phrases are also shown in `smalltalk_states` dialog states drawn from the conversations
        stateful = [e for e in examples if e.events is not None]
        copies = int(opts["smalltalk_states"]) if stateful else 0
        augmented = [
            replace(e, contexts=s.contexts, events=s.events, domain=s.domain)
            for e in examples
            if e.events is None and not e.contexts and e.intent.startswith("smalltalk.")
            for s in rng.sample(stateful, min(copies, len(stateful)))
        ]
        if augmented:
            docs.extend(
                recognizer._doc(recognizer._features(e.text, e.contexts, e.events, e.domain)) for e in augmented
            )
            examples = [*examples, *augmented]
            extra_truth = np.zeros((len(augmented), len(labels)), dtype="float32")
            extra_truth[np.arange(len(augmented)), [index[e.intent] for e in augmented]] = 1.0
            truth = np.vstack([truth, extra_truth])
        top = max(freq.values())
        power = float(opts["class_weight_power"])
        weights = np.asarray(
            [
                (
                    float(opts["augment_weight"])
                    if e.group.startswith("augment:")
                    else (1.0 if e.validated else float(opts["unvalidated_weight"]))
                )
                * (top / freq[e.intent]) ** power
                for e in examples
            ],
            dtype="float32",
        )
        weights /= weights.mean()
        recognizer._fit(docs, truth, labels, weights)
        recognizer.labels = tuple(textcat.labels)  # type: ignore[attr-defined]

        if validation:
            scores = [recognizer._scores(e.text, e.contexts, e.events, e.domain) for e in validation]
            best = [max(s, key=s.__getitem__) for s in scores]
            opts["fallback_threshold"] = choose_threshold(
                [e.intent for e in validation],
                best,
                [s[b] for s, b in zip(scores, best, strict=True)],
                [fallback_intent(e.contexts) for e in validation],
            )
        opts["train_seconds"] = round(time.perf_counter() - started, 2)
        recognizer.options = opts
        logger.info(
            "trained intent recognizer on %d examples, %d intents, %d known words in %.1f s",
            len(examples),
            len(labels),
            len(known),
            opts["train_seconds"],
        )
        return recognizer

    def _fit(self, docs: list[Any], truth: np.ndarray, labels: Sequence[str], weights: np.ndarray) -> None:
        """Our minibatch loop on the textcat model (Adam, squared error on the softmax output as
        spaCy's textcat does). No ``Example`` copies, and for the bag-of-n-grams model the n-gram
        keys of every doc are extracted once instead of once per epoch: ~5x faster than
        ``nlp.update`` for the same result."""
        from spacy.training import Example
        from thinc.api import Adam

        o = self.options
        nlp, model = self._nlp, self._textcat.model
        sample = [
            Example.from_dict(d, {"cats": {lab: float(v) for lab, v in zip(labels, row, strict=True)}})
            for d, row in zip(docs[:50], truth[:50], strict=True)
        ]
        nlp.initialize(lambda: sample)
        if tuple(self._textcat.labels) != tuple(labels):
            raise NluError("textcat label order differs from the training labels")
        optimizer = Adam(float(o["learn_rate"]), use_averages=bool(o["use_averages"]))
        cross_entropy = str(o["loss"]) == "cross_entropy"
        rng = random.Random(int(o["seed"]))
        order = list(range(len(docs)))
        batch_size = int(o["batch_size"])
        layers = bow_layers(model)
        if layers is not None:
            ngrams, linear, softmax = layers
            keys, vals, lengths = ngrams.predict(docs)
            ends = np.cumsum(lengths)
            starts = ends - lengths
            per_doc = [(keys[s:e], vals[s:e]) for s, e in zip(starts, ends, strict=True)]
        for epoch in range(int(o["epochs"])):
            rng.shuffle(order)
            loss = 0.0
            for start in range(0, len(order), batch_size):
                idx = order[start : start + batch_size]
                if layers is not None:
                    x = (
                        np.concatenate([per_doc[i][0] for i in idx]),
                        np.concatenate([per_doc[i][1] for i in idx]),
                        np.asarray([lengths[i] for i in idx], dtype="int32"),
                    )
                    hidden, back_linear = linear(x, is_train=True)
                    scores, back_softmax = softmax(hidden, is_train=True)
                    d_scores = (scores - truth[idx]) * weights[idx, None]
                    # cross-entropy: the softmax's logit gradient is (p - y); otherwise spaCy's
                    # squared error, back-propagated through the softmax
                    back_linear(d_scores if cross_entropy else back_softmax(d_scores))
                else:
                    scores, backprop = model.begin_update([docs[i] for i in idx])
                    d_scores = (scores - truth[idx]) * weights[idx, None]
                    backprop(d_scores)
                loss += float((d_scores**2).sum())
                model.finish_update(optimizer)
            logger.debug("epoch %d loss %.3f", epoch, loss)
        if optimizer.averages:  # keep the averaged weights (as spaCy does at the end of training)
            for node in model.walk():
                for name in node.param_names:
                    if (node.id, name) in optimizer.averages:
                        node.set_param(name, optimizer.averages[(node.id, name)].copy())

    # ------------------------------------------------------------------ inference
    def _features(
        self, text: str, contexts: Sequence[str], events: Sequence[str] | None, domain: str | None = None
    ) -> str:
        o = self.options
        return featurize(
            text,
            contexts,
            events,
            domain=domain if o["use_domain"] else None,
            known_words=self._known,
            max_chars=int(o["max_chars"]),
            context_conjunctions=str(o["context_conjunctions"]),
            char_ngrams=bool(o["char_ngrams"]),
        )

    def _doc(self, features: str) -> Any:
        """A spaCy Doc of the feature tokens (already tokenised: no tokenizer pass, ~3x faster)."""
        from spacy.tokens import Doc

        return Doc(self._nlp.vocab, words=features.split())

    def _scores(
        self, text: str, contexts: Sequence[str], events: Sequence[str] | None = None, domain: str | None = None
    ) -> dict[str, float]:
        features = self._features(text, contexts, events, domain)
        if self._scorer is not None:
            return dict(zip(self.labels, self._scorer.scores(features), strict=True))
        return dict(self._textcat(self._doc(features)).cats)

    def predict(
        self,
        text: str,
        contexts: Sequence[str] = (),
        *,
        events: Sequence[str] | None = None,
        domain: str | None = None,
    ) -> IntentPrediction:
        """Recognise the intent of one message.

        Args:
            text: the raw user message (any length; ``None``/empty allowed).
            contexts: the contexts active before the message (order does not matter).
            events: the system events of the previous turn (``question``, ``disambiguation``,
                ...), ``()`` for none, ``None`` (default) when the caller does not track them.
                Passing them adds ~3 points of accuracy (the bot's last question is state).
            domain: the conversation's domain (``movie``, ``book``, ``music``) or ``None``.

        Returns:
            :class:`IntentPrediction`; never raises on odd text.
        """
        contexts = tuple(c for c in contexts if c)
        clean = normalize(text or "", max_chars=int(self.options["max_chars"]))
        if not has_letters(clean):
            return IntentPrediction(fallback_intent(contexts), 1.0, ())
        rule = _RULES.get(clean.lower())
        if rule is not None:
            return IntentPrediction(rule, 1.0, ())
        scores = self._scores(clean, contexts, events, domain)
        ranked = sorted(scores.items(), key=lambda kv: kv[1], reverse=True)
        top = tuple((label, round(float(p), 6)) for label, p in ranked[: int(self.options["top_k"])])
        best, p_best = ranked[0]
        if p_best < float(self.options["fallback_threshold"]):
            fallback = fallback_intent(contexts)
            return IntentPrediction(fallback, float(max(scores.get(fallback, 0.0), 1.0 - p_best)), top)
        return IntentPrediction(best, float(p_best), top)

    # ------------------------------------------------------------------ persistence
    def save(self, path: Path) -> None:
        """Write the model to the folder ``path`` (created; existing model files replaced).

        Layout: ``path/spacy/`` (spaCy ``nlp.to_disk``) and ``path/recognizer.json`` (format,
        options incl. the fallback threshold, labels, known words). :meth:`load` adds
        ``path/textcat_bow.npz``, the numpy copy of the weights it predicts with (a cache).
        """
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        self._nlp.to_disk(path / _PIPELINE_DIR)
        (path / BOW_FILE).unlink(missing_ok=True)  # the numpy copy of the old weights (made again at load)
        meta = {
            "format": MODEL_FORMAT,
            "options": self.options,
            "labels": list(self.labels),
            "known_words": sorted(self._known),
        }
        (path / _META_FILE).write_text(json.dumps(meta, indent=1, ensure_ascii=False), encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> IntentRecognizer:
        """Load a model written by :meth:`save`.

        Raises:
            NluError: if the folder or a file is missing, or the files are corrupt or of another
                format (message names the path and says how to rebuild: ``corsbot nlu train``).
        """
        path = Path(path)
        hint = "run `corsbot nlu train` to build it"
        meta_file = path / _META_FILE
        if not meta_file.is_file() or not (path / _PIPELINE_DIR).is_dir():
            raise NluError(f"no intent model at {path} ({hint})")
        try:
            meta = json.loads(meta_file.read_text(encoding="utf-8"))
            if not isinstance(meta, dict) or meta.get("format") != MODEL_FORMAT:
                raise ValueError(f"unknown format {meta.get('format') if isinstance(meta, dict) else meta!r}")
            known, options = frozenset(meta["known_words"]), meta["options"]
            fingerprint = bow_fingerprint(path / _PIPELINE_DIR)
            scorer = BowScorer.load(path / BOW_FILE, fingerprint)
            if scorer is not None and list(meta.get("labels", [])):
                # the numpy copy of these very files: no spaCy import, no pipeline (~1.3 s of a start)
                recognizer = cls(
                    None, known_words=known, options=options, scorer=scorer, source=path, labels=meta["labels"]
                )
            else:
                recognizer = cls(None, known_words=known, options=options, source=path)
                textcat = recognizer._textcat  # loads the spaCy pipeline
                recognizer.labels = tuple(textcat.labels)
                recognizer._scorer = BowScorer.from_textcat(textcat)
                if recognizer._scorer is not None and list(recognizer.labels) == list(meta.get("labels", [])):
                    try:
                        recognizer._scorer.save(path / BOW_FILE, fingerprint)
                    except OSError as exc:  # a read-only model folder: spaCy is loaded at each start
                        logger.info("could not store %s (%s)", path / BOW_FILE, exc)
        except NluError:
            raise
        except Exception as exc:  # noqa: BLE001 - corrupt files of any kind
            raise NluError(f"corrupt intent model at {path}: {exc} ({hint})") from exc
        if list(recognizer.labels) != list(meta.get("labels", [])):
            raise NluError(f"corrupt intent model at {path}: labels differ from {_META_FILE} ({hint})")
        return recognizer
