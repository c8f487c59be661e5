"""Wording as data (issue 24): the phrasings the understanding reads, in one TOML file per family,
read by one matcher.

People say the same thing in many words; each kind of wording the bot reads (opinion cues, hedges, slang,
requests for a list, the phrasings of the other intents, domain words, the cues of a turn in the
conversation, answers and card words) is a *family*: a file ``nlu/wording/<family>.toml`` beside this
module, in the spirit of spaCy's ``EntityRuler``/``Matcher`` patterns kept as data next to the code that
applies them. A file holds:

- ``about``: what the family is;
- ``[lists]``: word lists (``negations = ["not", "never", ...]``), used as sets by the code and as
  slots ``{negations}`` by the templates of the same file;
- ``[tables]``: mappings (``card_commands = {why = "request_recommendation - why", ...}``);
- ``[patterns.<name>]``: ``phrases`` (templates, :mod:`nlu.wording.templates`), ``about``, optional
  ``ignore_case``, the ``intent`` the phrases ask for and the dialog ``state`` they belong to (``card``: a
  recommendation on screen; ``start``: nothing open; ``any``: either); ``train = true`` when the phrases are
  whole messages whose intent the classifier learns from them (:mod:`nlu.augment`; not the requests for a list,
  which the rules find anywhere in a message and let overrule the classifier); ``examples`` the pattern must
  find and ``counter`` examples it must not (each family's tests read them: ``tests/nlu/test_wording.py``).

The code keeps only what data cannot say: the structure of a sentence (a clause before "but", the seeds
after a request's marker), offsets and the order in which the dialog's state lets a reading win; each such
rule says why in a comment and reads its words from here.

Example:
    >>> phrasings = family("phrasings")
    >>> bool(phrasings.pattern("why").search("what made you pick it for me?"))
    True
    >>> "not" in family("opinion_scope").words("negations")
    True
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nlu.wording.templates import TemplateError, compile_template, expand, regex_source

__all__ = ["FAMILIES", "Family", "PatternSpec", "TemplateError", "family", "phrase_regex"]

FOLDER = Path(__file__).parent
FAMILIES = tuple(sorted(p.stem for p in FOLDER.glob("*.toml")))
"""Every family of wording (a ``.toml`` file of this folder)."""
_PATTERN_KEYS = frozenset({"phrases", "about", "ignore_case", "intent", "state", "train", "examples", "counter"})
_STATES = frozenset({"card", "start", "any"})


@dataclass(frozen=True, slots=True)
class PatternSpec:
    """One pattern of a family as written: its templates and what they are for (module docstring)."""

    name: str
    phrases: tuple[str, ...]
    about: str = ""
    ignore_case: bool = False
    intent: str | None = None
    state: str = "start"
    train: bool = False
    examples: tuple[str, ...] = ()
    counter: tuple[str, ...] = ()


class Family:
    """The wording of one file: its lists, tables and patterns (compiled on first use, then kept).

    Raises (at construction):
        TemplateError: the file is missing, is no TOML, or has an entry of the wrong shape (named with the file).
    """

    def __init__(self, name: str, path: Path | None = None) -> None:
        self.name = name
        self.path = path or FOLDER / f"{name}.toml"
        try:
            data = tomllib.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise TemplateError(f"wording family {self.path}: {exc}") from exc
        self.about = str(data.get("about", ""))
        self._lists = {k: self._strings(v, f"lists.{k}") for k, v in data.get("lists", {}).items()}
        self._tables: dict[str, Mapping[str, Any]] = dict(data.get("tables", {}))
        self._specs = {k: self._spec(k, v) for k, v in data.get("patterns", {}).items()}
        self._compiled: dict[str, re.Pattern[str]] = {}

    def _strings(self, value: object, where: str) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise TemplateError(f"wording family {self.path}: {where} must be a list of strings")
        return tuple(value)

    def _spec(self, name: str, raw: object) -> PatternSpec:
        if not isinstance(raw, dict) or "phrases" not in raw or set(raw) - _PATTERN_KEYS:
            raise TemplateError(
                f"wording family {self.path}: patterns.{name} needs 'phrases' and only {sorted(_PATTERN_KEYS)}"
            )
        state = str(raw.get("state", "start"))
        if state not in _STATES:
            raise TemplateError(
                f"wording family {self.path}: patterns.{name}: state {state!r} not in {sorted(_STATES)}"
            )
        return PatternSpec(
            name,
            self._strings(raw["phrases"], f"patterns.{name}.phrases"),
            str(raw.get("about", "")),
            bool(raw.get("ignore_case", False)),
            raw.get("intent"),
            state,
            bool(raw.get("train", False)),
            self._strings(raw.get("examples", []), f"patterns.{name}.examples"),
            self._strings(raw.get("counter", []), f"patterns.{name}.counter"),
        )

    # ------------------------------------------------------------------ reading

    def words(self, name: str) -> tuple[str, ...]:
        """The list ``name`` as written.

        Raises:
            KeyError: no such list (a typo in the code, found by the tests).
        """
        return self._lists[name]

    def phrases(self, name: str) -> tuple[str, ...]:
        """Every phrase the entries of the list ``name`` stand for (templates expanded), in the order
        written, each once ("{wasn't|isn't} {judged}" -> "wasn't bad", "wasn't terrible", ...)."""
        out: dict[str, None] = {}
        for entry in self._lists[name]:
            out.update(dict.fromkeys(sorted(expand(entry, self._lists))))
        return tuple(out)

    def word_set(self, name: str) -> frozenset[str]:
        """The list ``name`` as a set."""
        return frozenset(self._lists[name])

    def table(self, name: str) -> Mapping[str, Any]:
        """The table ``name`` (a mapping of the file's ``[tables]``)."""
        return self._tables[name]

    def alternation(self, name: str) -> str:
        """Regex source matching one entry of the list ``name`` (its entries are templates), for the few
        structures the code keeps (a lead-in, a clause splitter), without word edges."""
        return "(?:" + "|".join(regex_source(entry, self._lists, edges=False) for entry in self._lists[name]) + ")"

    def source(self, name: str, *, after_lead: bool = False) -> str:
        """Regex source of the pattern ``name`` (its phrases as alternatives, each with its word edges); with
        ``after_lead``, each phrase without its start, to follow a lead the code matches (a request's fillers)."""
        spec = self._specs[name]
        return "|".join(regex_source(p, self._lists, after_lead=after_lead) for p in spec.phrases)

    def pattern(self, name: str) -> re.Pattern[str]:
        """The pattern ``name`` compiled: any of its phrases (alternatives in the order written).

        Raises:
            KeyError: no such pattern; TemplateError: a phrase that cannot be read.
        """
        compiled = self._compiled.get(name)
        if compiled is None:
            spec = self._specs[name]
            if len(spec.phrases) == 1:
                compiled = compile_template(spec.phrases[0], self._lists, ignore_case=spec.ignore_case)
            else:
                try:
                    compiled = re.compile(self.source(name), re.IGNORECASE if spec.ignore_case else 0)
                except re.error as exc:
                    raise TemplateError(f"wording family {self.path}: patterns.{name}: {exc}") from exc
            self._compiled[name] = compiled
        return compiled

    def specs(self) -> Iterator[PatternSpec]:
        """Every pattern as written, in file order."""
        return iter(self._specs.values())

    @property
    def lists(self) -> Mapping[str, tuple[str, ...]]:
        """Every list of the file (the slots its templates may name)."""
        return self._lists


@functools.cache
def family(name: str) -> Family:
    """The family ``name`` (``nlu/wording/<name>.toml``), read once per process.

    Raises:
        TemplateError: no such file, or a malformed one.
    """
    return Family(name)


def phrase_regex(phrases: Iterable[str]) -> re.Pattern[str]:
    """Any of ``phrases`` (lower case), as whole words between letters: the lexicon's phrase matcher (the role
    of spaCy's ``PhraseMatcher``). Longer phrases first, so "sick of" wins over "sick"; a space matches any run
    of spaces; digits and signs are no letters ("10/10", "<3")."""
    alternatives = sorted({re.escape(p).replace(r"\ ", r"\s+") for p in phrases}, key=len, reverse=True)
    return re.compile(r"(?<![a-z'])(?:" + "|".join(alternatives) + r")(?![a-z'])")
