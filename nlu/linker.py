"""Entity recognition and linking against one domain's knowledge base (issue 5, field cases F26-F30).

:class:`EntityLinker` runs a pipeline of small steps (:mod:`nlu.linking`), each reading the values
of the one before and adding its own:

====  ===========================  ======================================================================
step  module                       reads -> adds
====  ===========================  ======================================================================
0     ``nlu.linking.tokens``       the message -> tokens with offsets and folded keys (F21, F26, F27);
                                   ``nlu.linking.verb_typos``: "luved" read as "loved"
1     ``nlu.linking.matching``     tokens, the name index -> spans with their entities (exact, skeleton,
                                   references to the focus, lone title words), behind the F29 guard
                                   (``nlu.linking.guard``); ``nlu.linking.fuzzy``: typo'd names;
                                   ``nlu.linking.typo_windows``: names typed with a slip anywhere
2     ``nlu.linking.works``        spans, the KB's credits -> the work of "TITLE by PERSON", "PERSON's
                                   TITLE" in place of the person, who only says which;
                                   ``nlu.linking.possessives``: "PERSON's TITLE" among the person's works
3     ``nlu.linking.filters``      spans -> spans without genres that only describe, acronym readings;
                                   ``nlu.linking.namesakes``: "the remake" -> another reading of a title
4     ``nlu.linking.scoring``      a span, the context -> ranked candidates and features (``Ranked``);
                                   ``nlu.linking.namesakes``: the namesake the message or the priors take
5     ``nlu.linking.decision``     ranked candidates -> link, ask (``Mention.ambiguous``) or drop;
                                   ``nlu.linking.mention_model``: a learned gate drops everyday words
                                   that mean what they say ("the band behind it": no song "Behind")
====  ===========================  ======================================================================

The name index the steps look names up in is built by ``nlu.linking.index_build`` (stored beside the
snapshot: :mod:`nlu.name_index`). Messages are cut at ``textnorm.MAX_CHARS``; text in brackets
("(2012)", "(song)") is a hint, never a mention; commands ("skip", "show me the trailer", "not sure, up
to you") link nothing. The public values are :class:`Candidate` and :class:`Mention`
(``docs/DESIGN.md``); :meth:`EntityLinker.trace` shows each span's ranked candidates and decision
(the evaluation of the steps: :mod:`nlu.link_eval`).

Assumptions: the KB is one domain (``kb.domain``); labels are mostly English (``kb.label`` falls
back to another language or the QID itself, which is indexed like any other name).

Example:
    >>> linker = EntityLinker(kb)                      # doctest: +SKIP
    >>> [m.candidates[0].label for m in linker.link("I love Schindler’s List")]  # doctest: +SKIP
    ["Schindler's List"]
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from nlu.linking.decision import Decider, Decision
from nlu.linking.filters import SpanFilter, sequels
from nlu.linking.fuzzy import FuzzyMatcher
from nlu.linking.guard import SpanGuard
from nlu.linking.index_build import IndexBuilder, index_fingerprint
from nlu.linking.matching import SpanMatcher
from nlu.linking.namesakes import age_references
from nlu.linking.ordinals import ranked_parts
from nlu.linking.possessives import PossessiveResolver
from nlu.linking.scoring import CandidateRanker, Ranked
from nlu.linking.tokens import Token, bracketed_tokens, name_key, tokenize
from nlu.linking.typo_windows import TypoWindows
from nlu.linking.values import (
    AMBIGUITY_MARGIN,
    FUZZY_CUTOFF,
    PERSON_ROLES,
    PID,
    QID,
    SAYS_WHICH,
    SIM_ALIAS,
    SIM_TITLE_WORD,
    Candidate,
    LinkContext,
    Mention,
    Span,
    entity_year,
)
from nlu.linking.verb_typos import verb_typos
from nlu.linking.words import COMMAND_PATTERNS, common_words, everyday_words, person_role_words, use_everyday_words
from nlu.linking.works import WorkResolver
from nlu.name_index import DictNameIndex, NameIndex, stored_index
from nlu.textnorm import MAX_CHARS, normalize

logger = logging.getLogger(__name__)

__all__ = [
    "AMBIGUITY_MARGIN",
    "FUZZY_CUTOFF",
    "PID",
    "QID",
    "Candidate",
    "EntityLinker",
    "Mention",
    "Step",
    "entity_year",
    "everyday_words",
    "index_fingerprint",
    "name_key",
    "tokenize",
]

MAX_TEXT_CHARS = MAX_CHARS
"""Longer messages are cut (``textnorm.MAX_CHARS``, as every NLU component does)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One span through scoring and decision (:meth:`EntityLinker.trace`).

    Attributes:
        ranked: its ranked candidates and features.
        decision: link, ask or drop.
        start: character offset of the mention it makes (of the role word for "the director of X").
        end: character offset after it.
        guessed: linked, the top candidate taken among same-named works by the priors
            (:meth:`nlu.linking.decision.Decider.guessed`, ``Mention.taken``).
        credit_end: ``Mention.credit_end``: after "by PERSON" saying which work it is, or None.
    """

    ranked: Ranked
    decision: Decision
    start: int
    end: int
    guessed: bool = False
    credit_end: int | None = None


class EntityLinker:
    """Find and rank KB entities named in a message (see the module docstring for the steps).

    The index is mapped from the snapshot folder (or built, a few seconds for the largest domain)
    in ``__init__``; :meth:`link` takes milliseconds (tens of ms when the fuzzy fallback runs).

    Args:
        kb: a ``recommender.kb.KnowledgeBase`` (or any object with ``names``, ``label``,
            ``aliases``, ``roles``, ``popularity``, ``is_item``, ``description``, ``domain``).
        names: the name index to use (default: the one stored beside the snapshot, built if stale).
    """

    def __init__(self, kb: Any, *, names: NameIndex | None = None) -> None:
        common_words()  # load the word lists (spaCy stop words, VADER lexicon) once per process
        started = time.perf_counter()
        self.kb = kb
        self.domain: str = getattr(kb, "domain", "")
        self._role_words = person_role_words(self.domain or None)
        # the index the rules of nlu.linking.index_build build, mapped from the snapshot folder when stored there
        self._names: NameIndex = names or stored_index(kb, index_fingerprint(), self.build_index)
        use_everyday_words(self._names.everyday())
        self._matcher = SpanMatcher(self._names, SpanGuard(kb))
        self._fuzzy = FuzzyMatcher(
            self._names, self._role_words, lambda q: bool(PERSON_ROLES.intersection(kb.roles(q) or ()))
        )
        self._windows = TypoWindows(self._names, lambda q: "P136" in (kb.roles(q) or ()) and not kb.is_item(q))
        self._works = WorkResolver(kb, self._names)
        self._possessives = PossessiveResolver(kb, self._names)
        self._filter = SpanFilter(kb)
        self._ranker = CandidateRanker(kb, self._names, self._role_words)
        self._decider = Decider(kb, self._names)
        self.build_seconds = time.perf_counter() - started
        n_keys, n_entities, n_fuzzy = self._names.stats()
        logger.info(
            "entity index for %s: %d keys, %d entities, %d fuzzy names in %.2f s (%s)",
            self.domain or "?",
            n_keys,
            n_entities,
            n_fuzzy,
            self.build_seconds,
            type(self._names).__name__,
        )

    @property
    def names(self) -> NameIndex:
        """The name index in use."""
        return self._names

    def build_index(self) -> DictNameIndex:
        """Build the name index of ``self.kb`` (:mod:`nlu.linking.index_build`; seconds for a real
        domain; :func:`nlu.name_index.stored_index` keeps it for the next start)."""
        return IndexBuilder(self.kb).build()

    def link(
        self,
        text: str,
        *,
        focus: QID | None = None,
        history: Sequence[QID] = (),
    ) -> tuple[Mention, ...]:
        """Find the entities named in ``text``.

        Args:
            text: the user message as typed (any length; cut at ``textnorm.MAX_CHARS``).
            focus: the item being discussed (on screen); "it", "this movie" ... refer to it.
            history: QIDs mentioned earlier in the dialog (ranking bonus; its persons say which of a
                title's namesakes is meant, :mod:`nlu.linking.namesakes`).

        Returns:
            Mentions in text order, non-overlapping; each has at least one candidate. Empty for
            commands, small talk and texts without a name.
        """
        tokens = self._tokens(text)
        if not tokens:
            return ()
        text = text[:MAX_TEXT_CHARS]
        mentions = []
        for step in self._steps(text, tokens, focus, history):
            if step.decision is Decision.DROP:
                continue
            ranked = step.ranked
            mentions.append(
                Mention(
                    text[step.start : step.end],
                    step.start,
                    step.end,
                    ranked.candidates,
                    step.decision is Decision.ASK,
                    partial=ranked.span.kind == "ask" and all(v == SIM_TITLE_WORD for v in ranked.scored.values()),
                    taken=step.guessed,
                    credit_end=step.credit_end,
                )
            )
        return tuple(mentions)

    def trace(
        self, text: str, *, focus: QID | None = None, history: Sequence[QID] = (), gate: bool = True
    ) -> tuple[Step, ...]:
        """Every span that reached scoring, with its ranked candidates and the decision, in text order
        (dropped ones included): what :meth:`link` builds its mentions from (for evaluating the steps).
        ``gate=False``: the decisions without the mention gate (:mod:`nlu.linking.mention_model`; its training)."""
        tokens = self._tokens(text)
        return tuple(self._steps(text[:MAX_TEXT_CHARS], tokens, focus, history, gate)) if tokens else ()

    # ------------------------------------------------------------------ the pipeline
    @staticmethod
    def _tokens(text: str) -> list[Token]:
        """The tokens of the message cut at ``MAX_TEXT_CHARS``; none for an empty message or a
        command ("skip", "up to you")."""
        if not text or not text.strip():
            return []
        text = text[:MAX_TEXT_CHARS]
        if COMMAND_PATTERNS.match(normalize(text).casefold().strip()):
            return []
        return verb_typos(tokenize(text))  # "i luved X": the verb's object is where a name is expected

    def _propose(
        self, text: str, tokens: list[Token], focus: QID | None
    ) -> tuple[list[Span], set[int], set[int], set[str], dict[int, str]]:
        """Steps 1-3: the spans to rank (in text order), the tokens of persons who only say which work
        is meant, the end tokens of works named by their person, the persons the message names, and
        the cues of age titles take from "the remake" / "the original" (:mod:`nlu.linking.namesakes`)."""
        bracketed = bracketed_tokens(text, tokens)
        spans = [s for s in self._matcher.exact_spans(text, tokens) if not bracketed.issuperset(range(s[0], s[1]))]
        spans = self._filter.drop_empty_genres(tokens, spans)  # "since I was a child": a topic no item has as its genre
        spans += self._matcher.reference_spans(tokens, spans, focus)
        spans += self._fuzzy.fuzzy_spans(text, tokens, spans)  # may drop exact spans a typo'd whole replaces
        spans += self._windows.spans(text, tokens, spans)  # "i red cloud atlus": a typo'd name anywhere
        spans += self._matcher.title_word_spans(text, tokens, spans)
        spans = [s for s in spans if not bracketed.issuperset(range(s[0], s[1]))]
        spans = self._works.resolve(text, tokens, spans)
        spans = self._possessives.resolve(text, tokens, spans)  # "kerouac's on the road": among his works
        explained = {k for s in spans if s.kind == SAYS_WHICH for k in range(s.start, s.end)}  # "Spielberg's Hook"
        # works named by their person ("Flowers by Miley Cyrus"): no namesake person of the title's word
        says_which = {t.start for t in spans if t.kind == SAYS_WHICH}
        credited = {s.end for s in spans if s.kind != SAYS_WHICH and s.end + 1 in says_which}
        people = set()
        for s in spans:  # named by their own name, saying which, or by a last name only ("tarkovsky")
            persons = {q for q in s.scored if PERSON_ROLES.intersection(self.kb.roles(q))}
            alone = s.kind == SAYS_WHICH or len(persons) == len(s.scored)
            people |= {q for q in persons if alone or s.scored[q] >= SIM_ALIAS}
        spans = [s for s in spans if s.kind != SAYS_WHICH]
        spans = self._filter.drop_genre_attributes(tokens, spans, text)
        spans = self._filter.drop_acronym_readings(tokens, spans)
        spans = sequels(self.kb, self._names, tokens, spans)  # "the godfather ... part II": its sequel
        spans = ranked_parts(self.kb, tokens, spans)  # "the first harry potter movie": the series' first part
        spans, ages = age_references(self.kb, text, tokens, spans)  # "Oldboy ..., the remake is garbage"
        spans.sort(key=lambda s: s.start)
        return spans, explained, credited, people, ages

    def _steps(
        self, text: str, tokens: list[Token], focus: QID | None, history: Sequence[QID], gate: bool = True
    ) -> list[Step]:
        """Steps 4-5 over the proposed spans."""
        spans, explained, credited, people, ages = self._propose(text, tokens, focus)
        years = {int(t.key) for t in tokens if t.key.isdigit() and len(t.key) == 4 and 1880 <= int(t.key) <= 2100}
        context = LinkContext(
            focus=focus,
            history=frozenset(history),
            years=years,
            spans=spans,
            explained=explained,
            credited=credited,
            covered={k for s in spans for k in range(s.start, s.end)} | explained,
            people=people,
            ages=ages,
        )
        steps = []
        for span in spans:
            ranked = self._ranker.candidates(text, tokens, span, context)
            if ranked is not None:
                decision = self._decider.decide(text, tokens, ranked, context, gate=gate)
                guessed = decision is Decision.LINK and self._decider.guessed(ranked, context)
                credit = span.end + 1  # "chandelier by sia": the person saying which is how the work was named
                while span.end in credited and credit in explained:
                    credit += 1
                credit_end = tokens[credit - 1].end if credit > span.end + 1 else None
                steps.append(
                    Step(ranked, decision, tokens[ranked.first].start, tokens[span.end - 1].end, guessed, credit_end)
                )
        return steps
