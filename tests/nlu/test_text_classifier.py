"""Text classifiers fitted at build time, scored with numpy at run time (nlu.text_classifier): the scores equal
scikit-learn's, the stored file is used only when fitted from the current data and recipe, a missing or stale one
is fitted in memory (said once), the Makefile refits on the same files, and a start imports no scikit-learn."""

from __future__ import annotations

import logging
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from nlu import acts, opinion_hedge
from nlu.text_classifier import CLASSIFIER_FILE, NgramBlock, TextClassifier, recipe_fingerprint, stored

ROOT = Path(__file__).resolve().parents[2]
UNSEEN = (
    "Wh@t else ya got??",
    "zzzz qqqq",
    "",
    "   ",
    "a",
    "Ünïcödé Straße — très bien 🔥🔥",
    "i   kinda   liked  ENTITY0 , not sure",
)
"""Texts of no training file: unknown n-grams, short words, accents, emoji, runs of spaces, nothing at all."""


@pytest.fixture(scope="module")
def sklearn_acts() -> acts.SklearnActs:
    return acts.fit_sklearn(acts.load_examples(acts.TRAIN_PATH))


@pytest.fixture(scope="module")
def hedge_pipeline():
    return opinion_hedge.fit_pipeline()


def test_numpy_act_scores_equal_sklearns_on_the_training_texts_and_others(sklearn_acts):
    texts = [*sklearn_acts.texts, *UNSEEN]
    numpy_scores = acts.ActClassifier(sklearn_acts.scorer()).probabilities(texts)
    assert numpy_scores.shape == (len(texts), len(acts.ACTS))
    np.testing.assert_allclose(numpy_scores, sklearn_acts.probabilities(texts), rtol=0, atol=1e-9)


def test_numpy_hedge_scores_equal_sklearns_on_the_training_texts_and_others(hedge_pipeline):
    texts = [opinion_hedge._normal(t) for t in [*opinion_hedge.examples()[0], *UNSEEN]]
    scorer = TextClassifier.from_sklearn_union(hedge_pipeline)
    np.testing.assert_allclose(scorer.probabilities(texts), hedge_pipeline.predict_proba(texts), rtol=0, atol=1e-9)


@pytest.mark.parametrize(
    "params",
    [
        {"analyzer": "char_wb", "ngram_range": (2, 5)},
        {"analyzer": "char_wb", "ngram_range": (1, 3)},
        {"analyzer": "word", "ngram_range": (1, 3), "token_pattern": r"[^\s]+"},
        {"analyzer": "word", "ngram_range": (2, 2), "token_pattern": r"(?u)\b\w\w+\b"},
    ],
    ids=["char_wb-2-5", "char_wb-1-3", "word-1-3", "word-bigrams"],
)
def test_the_ngrams_are_sklearns(params):
    from sklearn.feature_extraction.text import CountVectorizer

    analyzer = CountVectorizer(**params).build_analyzer()
    block = NgramBlock(params["analyzer"], params["ngram_range"], params.get("token_pattern", ""))
    for text in (*UNSEEN, "I'd LOVE  another one, pls!", "ok", "to be or not to be"):
        assert Counter(block.grams(text)) == Counter(analyzer(text)), text


def test_a_saved_classifier_scores_as_before(tmp_path, hedge_pipeline):
    scorer = TextClassifier.from_sklearn_union(hedge_pipeline)
    path = tmp_path / "hedge" / CLASSIFIER_FILE
    scorer.save(path, fingerprint="0123456789abcdef")
    loaded, fingerprint = TextClassifier.load(path)
    texts = ["i think i liked x , not sure", "x was superb", *UNSEEN]
    assert fingerprint == "0123456789abcdef" and loaded.classes == scorer.classes == ("0", "1")
    np.testing.assert_array_equal(loaded.probabilities(texts), scorer.probabilities(texts))


def test_an_unsupported_vectorizer_option_is_refused():
    from sklearn.feature_extraction.text import TfidfVectorizer

    with pytest.raises(ValueError, match="unsupported"):
        NgramBlock.of_vectorizer(TfidfVectorizer(strip_accents="unicode"))


def test_the_fingerprint_follows_the_content_of_every_recipe_file(tmp_path):
    data, code = tmp_path / "data.toml", tmp_path / "recipe.py"
    data.write_text("[more]\nexamples = ['another one']\n")
    code.write_text("C = 10.0\n")
    before = recipe_fingerprint(data, code)
    assert re.fullmatch(r"[0-9a-f]{16}", before) and before == recipe_fingerprint(data, code)
    code.write_text("C = 1.0\n")
    assert recipe_fingerprint(data, code) != before
    assert re.fullmatch(r"[0-9a-f]{16}", acts.fingerprint()) and acts.fingerprint() != opinion_hedge.fingerprint()


class _Fits:
    """A stand-in fit: counts its calls, returns a tiny classifier."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> TextClassifier:
        self.calls += 1
        block = NgramBlock("word", (1, 1), r"\w+")
        vocabulary = {"good": 0, "bad": 1}
        return TextClassifier(
            [block], [vocabulary], np.ones(2), np.array([[2.0, -2.0]]), np.zeros(1), ["neg", "pos"], block_norm=True
        )


def test_a_current_stored_classifier_is_loaded_without_fitting(tmp_path):
    _Fits()().save(tmp_path / "tiny" / CLASSIFIER_FILE, fingerprint="f1")
    fits = _Fits()
    scorer = stored("tiny", tmp_path, "f1", fits)
    assert fits.calls == 0 and scorer.probabilities(["good"])[0][1] > 0.8


@pytest.mark.parametrize("stale", [False, True], ids=["missing", "stale"])
def test_a_missing_or_stale_file_is_fitted_in_memory_and_said_once(tmp_path, caplog, stale):
    if stale:
        _Fits()().save(tmp_path / "tiny" / CLASSIFIER_FILE, fingerprint="fitted-from-older-data")
    fits = _Fits()
    with caplog.at_level(logging.WARNING, logger="nlu.text_classifier"):
        first = stored("tiny", tmp_path, "current", fits)
        again = stored("tiny", tmp_path, "current", fits)
    assert first is again and fits.calls == 1
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and "train-classifiers" in said[0]
    assert ("other training data" in said[0]) is stale


def test_the_bot_works_without_stored_classifiers(tmp_path):
    """No models folder content: the act and hedge readers are fitted at first use and still read."""
    assert acts.ActClassifier.trained(tmp_path).predict("gimme another one pls").act == "more"
    assert opinion_hedge.HedgeModel.trained(tmp_path).hedged("ENTITY0 is on my to-read pile, is it any good?")


def test_train_classifiers_writes_then_keeps_an_up_to_date_file(tmp_path, monkeypatch, capsys):
    from bot.cli import main

    monkeypatch.setenv("CORSBOT_HOME", str(tmp_path))
    assert main(["nlu", "train-classifiers", "--only", "hedge"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "classifiers: acts=skipped hedge=written"
    assert TextClassifier.load(tmp_path / "models" / "hedge" / CLASSIFIER_FILE)[1] == opinion_hedge.fingerprint()
    assert main(["nlu", "train-classifiers", "--only", "hedge"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "classifiers: acts=skipped hedge=up-to-date"


@pytest.mark.parametrize(("variable", "module"), [("ACTS_RECIPE", acts), ("HEDGE_RECIPE", opinion_hedge)])
def test_the_makefile_refits_when_a_fingerprinted_file_changes(variable, module):
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    found = re.search(rf"^{variable} := (.*)$", makefile, re.M)
    assert found is not None
    assert set(found.group(1).split()) == {str(p.resolve().relative_to(ROOT)) for p in module.RECIPE}
    name = "acts" if module is acts else "hedge"
    assert re.search(rf"^\$\(CORSBOT_HOME\)/models/{name}/classifier\.npz: .*\$\({variable}\)", makefile, re.M)
    assert re.search(r"^test: .*\$\(CLASSIFIERS\)", makefile, re.M)
    assert re.search(r"^run: .*classifiers", makefile, re.M)


def test_a_start_with_stored_classifiers_imports_neither_scikit_learn_nor_scipy(tmp_path):
    """The stored classifiers are read with numpy alone: scikit-learn (and scipy.stats, which it imports) cost
    most of a second of every start before; scipy.sparse (~0.1 s) waits for the first graph the recommender builds."""
    models = tmp_path / "models"
    acts.ActClassifier.fit(acts.load_examples(acts.TRAIN_PATH)[::7]).scorer.save(
        models / "acts" / CLASSIFIER_FILE, fingerprint=acts.fingerprint()
    )
    opinion_hedge.fit_scorer().save(models / "hedge" / CLASSIFIER_FILE, fingerprint=opinion_hedge.fingerprint())
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "import bot.compose, bot.dialog.manager, bot.cli.chat, recommender.recommend, recommender.elicitation\n"
        "from nlu.acts import TrainedOnUse\n"
        "from nlu.sentiment import SentimentRecognizer\n"
        f"models = Path({str(models)!r})\n"
        "TrainedOnUse(models).predict('another one please')\n"
        "SentimentRecognizer(models).polarities('I think I liked Heat, not sure', [(16, 20)])\n"
        "print(sorted(m for m in sys.modules if m.startswith(('sklearn', 'scipy'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]", out.stderr
