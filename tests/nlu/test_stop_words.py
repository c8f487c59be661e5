"""The linker's copy of spaCy's English stop words (nlu/stop_words.py) is spaCy's list."""

from __future__ import annotations

import pytest

from nlu.stop_words import STOP_WORDS


def test_the_copy_is_spacys_list():
    spacy_stop_words = pytest.importorskip("spacy.lang.en.stop_words")
    assert frozenset(spacy_stop_words.STOP_WORDS) == STOP_WORDS


def test_the_linker_starts_without_spacy():
    import subprocess
    import sys

    code = "import sys, nlu.linker, nlu.linking.words as w; w.stop_words(); print('spacy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
