"""Step 5 of linking: the decision on each ranked span: link, ask, or drop.

Reads: a span's ranked candidates and features (:class:`nlu.linking.scoring.Ranked`), the message's
context (:class:`nlu.linking.values.LinkContext`) and the KB's popularity and credits. Adds: a
:class:`Decision` (the linker makes the :class:`nlu.linking.values.Mention`; ``ASK`` sets
``Mention.ambiguous``, and the dialog manager then asks with :mod:`nlu.disambiguation`).

Ask (``ambiguous``) when at least two candidates remain and the second one scores within
``AMBIGUITY_MARGIN`` (0.08) of the first; when two or more recommendable items carry the typed words as
their own name ("Inside Out" 2015 and 2011, "The Avengers" 2012 and 1998), whatever their popularity;
when a lone name is also the first or last name of a person at least as popular as the top candidate;
for a short word that is the whole object of a like-verb ("I like sia": F29 says ask) or a lone word of
titles ("I like lebowski"); for a typo of a little-known person's surname only; and for a one-word
match glued to an unknown word ("Laura Prepon"). Link (not ambiguous) when the context singles out the
top candidate and not the second: the focus item, an earlier mention, the year named in the message
("Inside Out (2011)"; items of another year count as no homonyms), the punctuation typed ("Mother!"),
a cue of age ("the new Lion King") or a person credited ("peter jackson's king kong"); and when the
popularity prior settles it (a far better-known entity carrying the name itself, or an artist before
works of the same name) or the priors of namesakes take one (:mod:`nlu.linking.namesakes`: a clear
popularity margin, recency). Drop a match that is only part of a longer Title Cased title
the KB lacks ("Spider-Man" of "Spider-Man: No Way Home") or a word of the subject opening an opinion
("Clair" of "Clair de lune is the most beautiful piece").

Example:
    "I love the Avengers" (2012 and 1998 films, both named so) -> Decision.ASK
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from enum import Enum
from typing import Any

from nlu.linking.filters import dangling, fragment, subject_fragment
from nlu.linking.mention_model import MentionGate
from nlu.linking.scoring import Ranked
from nlu.linking.syntax import apposed_work, emphasis, predicate_of_a_name
from nlu.linking.tokens import Token, boundary, name_key
from nlu.linking.values import (
    AMBIGUITY_MARGIN,
    DOMINANT_MIN_POPULARITY,
    DOMINANT_RATIO,
    PERSON_ROLES,
    QID,
    SIM_ALIAS,
    SIM_FOREIGN_ALIAS,
    SIM_MAIN_TITLE,
    SIM_NAMESAKE,
    SIM_VARIANT,
    Candidate,
    LinkContext,
    credited,
    entity_year,
    is_kind,
)
from nlu.linking.words import (
    KIND_NOUNS,
    LIKE_VERBS,
    PREDICATES,
    ROLE_OR_TYPE_WORDS,
    common_words,
    is_everyday,
    stop_words,
    zipf,
)
from nlu.name_index import NameIndex

NOTABLE_QUANTILE = 0.9
"""An item more popular than this share of its domain's items, credited to a person, wins over
same-named items with no edge at all without a question (:meth:`Decider._dominant`)."""


DOMAIN_CREATORS = {"movie": frozenset({"P57"}), "book": frozenset({"P50"}), "music": frozenset({"P175"})}
"""The makers of each domain's works: director, author, performer."""

DATE_PREPOSITIONS = frozenset("in since from until till by around during of back".split())
"""Words before a year that say when something happened, not which work ("i saw heat in 2010")."""

KNOWN_QUANTILE = 0.8
"""A fuzzy match whose typed words are all English spelled right (:func:`spelled_right`) is kept only for an
entity more popular than this share of its domain's items (:meth:`Decider._known`)."""

FAMOUS_PERSON_POPULARITY = 10.0
"""A person at least this popular is known (``scoring.FAMOUS_MIN_POPULARITY``: John Coltrane 12)."""

SPELLED_RIGHT_ZIPF = 3.0
"""``wordfreq`` Zipf frequency from which a typed word is an English word spelled right ("right", "summer";
not "atack", "theif", "kno")."""

PREDICATE_ZIPF = 3.0
"""... and, said of a name before ("teardrop is hypnotic": "hypnotic", 3.1), from this frequency."""


def _another_first_name(
    text: str,
    tokens: list[Token],
    i: int,
    cands: Sequence[Candidate],
    scored: dict[str, float],
    covered: AbstractSet[int],
) -> bool:
    """The span names persons by their last name only (a particle surname: "de sica") right after another word
    of the name that is none of theirs ("christian de sica"): a namesake the KB lacks (issue 22-E)."""
    if i == 0 or i - 1 in covered or boundary(text, tokens, i) or not cands:
        return False
    if not all(math.isclose(scored.get(c.qid, 0.0), SIM_NAMESAKE) for c in cands):
        return False
    before = tokens[i - 1].key
    if before in common_words() or before in LIKE_VERBS or before in ROLE_OR_TYPE_WORDS or not before.isalpha():
        return False
    return not any(before in name_key(c.label) for c in cands)


def _another_last_name(
    text: str,
    tokens: list[Token],
    i: int,
    cands: Sequence[Candidate],
    scored: dict[str, float],
    covered: AbstractSet[int],
) -> bool:
    """The span is one word, an alias of persons that is no word of their label (a given name or nickname:
    "Jonathan" of Johnny Clegg), right before another word of a name ("more like jonathan strange"): a person or
    a hero the KB lacks, not them."""
    j = i + 1
    if j >= len(tokens) or j in covered or boundary(text, tokens, j) or not cands:
        return False
    word, after = tokens[i].key, tokens[j].key
    if not all(PERSON_ROLES.intersection(c.roles) and math.isclose(scored.get(c.qid, 0.0), SIM_ALIAS) for c in cands):
        return False
    if any(word in name_key(c.label) for c in cands):
        return False
    if after in stop_words() or after in LIKE_VERBS or after in PREDICATES or not after.isalpha() or len(after) < 3:
        return False
    return not any(after in name_key(c.label) for c in cands)


def _says_which_one(tokens: Sequence[Token], i: int, j: int, cands: Sequence[Candidate]) -> bool:
    """ "the PERSON one" / "the PERSON version": the person only says which single work is meant (the plural,
    "the Nolan ones", is their works at large, which is an opinion of the person)."""
    return (
        i > 0
        and j < len(tokens)
        and tokens[i - 1].key == "the"
        and tokens[j].key in ("one", "version")
        and all(PERSON_ROLES.intersection(c.roles) and not c.is_item for c in cands)
    )


def _adjacent_kind(tokens: Sequence[Token], i: int, j: int) -> str | None:
    """The kind a type noun right next to the name says ("the album X", "X album", "X the album"), or None."""
    after = [t.key for t in tokens[j : j + 2]]
    if after[:1] and after[0] in KIND_NOUNS:
        return KIND_NOUNS[after[0]]
    if after[:1] == ["the"] and len(after) == 2 and after[1] in KIND_NOUNS:
        return KIND_NOUNS[after[1]]
    return KIND_NOUNS.get(tokens[i - 1].key) if i > 0 else None


def spelled_right(
    tokens: Sequence[Token], person_name: Callable[[str], bool] = lambda _w: False, min_zipf: float = SPELLED_RIGHT_ZIPF
) -> bool:
    """Every token is a lowercase English word (a stop word or one of Zipf frequency
    :data:`SPELLED_RIGHT_ZIPF` or more): the words mean what they say unless a well-known name is
    typo'd so ("right now" is no typo of the film "Alright Now"; "the dark night" may be "The Dark Knight"),
    and never when said of a name before ("teardrop is hypnotic" is no typo of "Hypnotico"); capitals for
    emphasis count as lowercase ("an ANTHEM"). ``person_name``: a word that is a person's name, no English
    ("j.m. rowling")."""
    stop = stop_words()
    return all(
        (t.raw.islower() or emphasis(t)) and (t.key in stop or (zipf(t.key) >= min_zipf and not person_name(t.key)))
        for t in tokens
    )


class Decision(Enum):
    """What the linker does with a ranked span."""

    LINK = "link"
    """A mention whose top candidate is taken as meant."""
    ASK = "ask"
    """A mention to ask about (``Mention.ambiguous``)."""
    DROP = "drop"
    """No mention: part of a name the KB lacks."""


def homonyms(cands: Sequence[Candidate], scored: dict[str, float]) -> int:
    """How many candidates carry the typed words as their own name (label, alias or derived
    variant, not a fuzzy or foreign-alias match): "Inside Out" (2015 film) and "Inside Out" (2011
    film) are homonyms whatever their popularity, so the user is asked (issue 5: "The Avengers
    (2012 film)", "The Avengers (1998 film)")."""
    return sum(c.is_item and scored.get(c.qid, 0.0) >= SIM_VARIANT for c in cands)


class Decider:
    """Decides link / ask / drop over one domain's KB (module docstring).

    Args:
        kb: the domain's knowledge base (``popularity``, ``roles``; ``items`` and ``item_values``
            when it has them).
    """

    def __init__(self, kb: Any, names: NameIndex | None = None) -> None:
        self.kb = kb
        self._names = names
        self._notable: float | None = None  # _notable_popularity, computed at its first use
        self._known_popularity: float | None = None  # _known, the same
        self.gate = MentionGate.load()

    def decide(
        self, text: str, tokens: list[Token], ranked: Ranked, context: LinkContext, *, gate: bool = True
    ) -> Decision:
        """The decision on one ranked span of ``text`` (module docstring); ``gate``: drop what the mention gate
        finds no mention (:mod:`nlu.linking.mention_model`)."""
        i, j, _scored, kind = ranked.span
        cands, scored, namesakes, picked = ranked.candidates, ranked.scored, ranked.namesakes, ranked.picked
        focus, years, relation = context.focus, ranked.years, ranked.relation
        ambiguous = kind == "ask" or (len(cands) > 1 and cands[0].score - cands[1].score < AMBIGUITY_MARGIN)
        if kind != "ask" and not relation and len(cands) > 1:
            if self._dominant(cands, scored) and not self._surname_person(cands, namesakes, tokens[i:j]):
                ambiguous = False  # "I love Taylor Swift": the star, not her album of the same name
            elif self.context_pick(cands[0], focus, picked, years):
                # the dialog or the message singles the top one out ("Inside Out (2011)", "Mother!", "the new X")
                ambiguous = ambiguous and self.context_pick(cands[1], focus, picked, years)
            elif ranked.taken is not None and not self._namesake_person(cands, namesakes):
                ambiguous = False  # the priors take one of the namesakes ("Drive": 2011; "Joker": 2019)
            elif kind == "exact":
                if ambiguous and self._own_name_over_parts(cands, scored):
                    ambiguous = False  # "The Fast and the Furious": that film, not Tokyo Drift, whose main title it is
                hint = ranked.kind_hint
                fitting = [c for c in cands if hint is None or is_kind(self.kb, c, hint)]
                if years:  # "Ghostbusters 2016": not the 1984 film
                    fitting = [c for c in fitting if entity_year(self.kb, c.qid) in (None, *years)]
                ambiguous = ambiguous or homonyms(fitting or cands, scored) >= 2
                # a lone name that is also the first or last name of a person at least as
                # popular as what it names ("I like Boccaccio": a novel and Giovanni Boccaccio)
                ambiguous = ambiguous or self._namesake_person(cands, namesakes)
        taken = ranked.taken
        if kind == "ask" and taken is not None and taken.reason in ("credit", "history") and cands[0].qid == taken.qid:
            ambiguous = False  # "heat" after "i love michael mann": a person the dialog named says which (issue 22-D)
        if (
            kind == "fuzzy"
            and not ambiguous
            and ranked.taken is None  # (a far better-known namesake is taken: "coltrane", issue 22-E)
            and all(v <= SIM_NAMESAKE + 1e-6 for v in scored.values())
            and self.kb.popularity(cands[0].qid) < DOMINANT_MIN_POPULARITY
        ):
            ambiguous = True  # "Oppenheimer was lit": only the surname of a little-known actor, asked
        # the name's very letters, its punctuation left out ("sugar were goin down"), are no English words misread
        # (its very words are: the guard refused them, "read it last summer")
        typed, named = tuple(t.key for t in tokens[i:j]), name_key(cands[0].label)
        glued = typed != named and "".join(typed) == "".join(named)
        if (
            kind == "fuzzy"
            and not relation
            and not glued
            and spelled_right(tokens[i:j], self._person_name, PREDICATE_ZIPF)
        ):
            ends = {s.end for s in context.spans if s.end <= i}
            english = spelled_right(tokens[i:j], self._person_name)
            if (english and not self._known(cands[0].qid)) or predicate_of_a_name(text, tokens, i, ends):
                return Decision.DROP  # "right now", "cup of tea", "teardrop is hypnotic": English, no typo'd title
        if kind == "exact" and not relation and _another_first_name(text, tokens, i, cands, scored, context.covered):
            return Decision.DROP  # "christian de sica": not Vittorio De Sica, a De Sica the KB lacks
        if kind == "exact" and j - i == 1 and _another_last_name(text, tokens, i, cands, scored, context.covered):
            return Decision.DROP  # "more like jonathan strange": not Johnny Clegg (alias "Jonathan")
        if kind != "ref" and not relation and self._other_kind(cands, _adjacent_kind(tokens, i, j)):
            return Decision.DROP  # "Back to Black the album": the KB has only the song, the album meant it lacks
        if not relation and _says_which_one(tokens, i, j, cands):
            return Decision.DROP  # "loved it, the Spielberg one from 1993": which film, no opinion of Spielberg
        if kind != "ref" and not relation and not any(c.is_item for c in cands) and apposed_work(text, tokens, j):
            return Decision.DROP  # "Columbus, the Kogonada film": a work the KB lacks, not Christopher Columbus
        if kind != "ref" and not relation and self._another_year(tokens, i, j, cands, ranked.years, context.covered):
            return Decision.DROP  # "smile, the 2022 horror one": the KB's Smile is of another year, not the one meant
        if kind != "ref" and not relation and fragment(text, tokens, i, j, context.spans, context.explained):
            return Decision.DROP  # "Spider-Man" and "Way Home" of "Spider-Man: No Way Home" (not in the KB)
        if kind in ("exact", "fuzzy") and not relation and subject_fragment(text, tokens, i, j, context.explained):
            return Decision.DROP  # "Clair" of "Clair de lune is the most beautiful piece" (not in the KB)
        if kind == "exact" and not relation and not ambiguous and not self.context_pick(cands[0], focus, picked, years):
            ambiguous = dangling(text, tokens, i, j, context.covered)
        if kind in ("exact", "fuzzy") and not relation and (ranked.taken is None or not ranked.taken.cue):
            if self._another_creators(cands, scored, self._named_persons(context)):
                return Decision.DROP  # the one meant is a work the KB lacks: its opinion moves to no namesake
        if gate and kind != "ref" and not relation and not self.context_pick(cands[0], focus, picked, years):
            if not self.gate.passes(text, tokens, i, j, ranked, self.kb, context, ambiguous, self._a_name):
                return Decision.DROP  # English words meaning what they say ("good evening", "the trio recordings")
        return Decision.ASK if ambiguous else Decision.LINK

    def guessed(self, ranked: Ranked, context: LinkContext) -> bool:
        """A linked span's top candidate was taken among works of the same name by the priors (a clear
        popularity margin, recency: :mod:`nlu.linking.namesakes`, or the popularity prior of
        :meth:`_dominant`), not singled out by the message or the dialog (``Mention.taken``)."""
        cands = ranked.candidates
        if ranked.relation or ranked.span.kind == "ref" or len(cands) < 2:
            return False
        if self.context_pick(cands[0], context.focus, ranked.picked, ranked.years):
            return False
        if ranked.taken is not None:
            return not ranked.taken.cue
        return cands[0].is_item and homonyms(cands, ranked.scored) >= 2

    @staticmethod
    def _own_name_over_parts(cands: Sequence[Candidate], scored: dict[str, float]) -> bool:
        """The top candidate carries the typed words as its whole name (label, alias or variant) and every close
        rival only as the opening of its own (a main title before a subtitle): a title typed
        in full names the work that has it, whatever the popularity of the longer titles that open with it. Not
        when anything else (a series, a namesake) has that whole name too."""
        top = cands[0]
        if not top.is_item or scored.get(top.qid, 0.0) < SIM_VARIANT:
            return False
        if any(scored.get(c.qid, 0.0) >= SIM_VARIANT for c in cands[1:]):
            return False  # "fast and furious": the film and the series of that name, asked
        close = [c for c in cands[1:] if top.score - c.score < AMBIGUITY_MARGIN]
        whole = name_key(top.label)
        return all(scored.get(c.qid, 0.0) <= SIM_MAIN_TITLE and name_key(c.label)[: len(whole)] == whole for c in close)

    def _surname_person(self, cands: Sequence[Candidate], namesakes: AbstractSet[str], typed: Sequence[Token]) -> bool:
        """:meth:`_namesake_person` by a last name ("Hitchcock": Alfred Hitchcock, as known as the film): asked,
        whatever the popularity prior says; a first name ("Rebecca", "Pink" of Pink Floyd) is not (issue 22-E)."""
        if len(typed) != 1 or not self._namesake_person(cands, namesakes):
            return False
        word = typed[0].key
        top = self.kb.popularity(cands[0].qid)
        return any(
            c.qid in namesakes and self.kb.popularity(c.qid) >= top and name_key(c.label)[-1:] == (word,)
            for c in cands[1:]
        )

    def _namesake_person(self, cands: Sequence[Candidate], namesakes: AbstractSet[str]) -> bool:
        """A person whose first or last name the lone word is, at least as popular as the top candidate."""
        return cands[0].qid not in namesakes and any(
            c.qid in namesakes and self.kb.popularity(c.qid) >= self.kb.popularity(cands[0].qid) for c in cands[1:]
        )

    def _dominant(self, cands: Sequence[Candidate], scored: dict[str, float]) -> bool:
        """The popularity prior settles it: the top candidate carries the typed words as its own
        name, is well known (popularity >= :data:`DOMINANT_MIN_POPULARITY`) and at least
        :data:`DOMINANT_RATIO` times as popular as every other close candidate ("Taylor Swift" the
        artist, 60, vs her album, 12; "The Lion King" 1994, 37, vs the 2019 film, 1)."""
        top = cands[0]
        person = bool(PERSON_ROLES.intersection(top.roles))
        own_name = scored.get(top.qid, 0.0) >= SIM_FOREIGN_ALIAS and scored.get(top.qid) != SIM_NAMESAKE
        if person and (top.is_item or own_name) and self._lone_artist(cands, scored):
            return True  # the band or singer among works of the same name ("Weezer", "Elvis")
        if self._genre_over_unknown_works(cands, scored):
            return True  # "not really into romance": the genre, not three books "Romance" the KB knows nothing of
        if scored.get(top.qid, 0.0) < (SIM_ALIAS if person else SIM_VARIANT) or not (top.is_item or person):
            return False  # genres, and people named by a first or last name only, are asked about as before
        pop = self.kb.popularity(top.qid)
        rivals = [
            c for c in cands[1:] if top.score - c.score < AMBIGUITY_MARGIN or scored.get(c.qid, 0.0) >= SIM_VARIANT
        ]
        if (
            top.is_item
            and all(self.kb.popularity(c.qid) == 0 for c in rivals)
            and pop > self._notable_popularity()
            and credited(self.kb, top.qid)
        ):
            return True  # "Dracula": Stoker's novel, among the best-known tenth, not a namesake with no edge at all
        if pop < DOMINANT_MIN_POPULARITY:
            return False
        if not person and any(not c.is_item and top.score - c.score < AMBIGUITY_MARGIN for c in rivals):
            return False
        return all(pop >= DOMINANT_RATIO * self.kb.popularity(c.qid) for c in rivals)

    def _genre_over_unknown_works(self, cands: Sequence[Candidate], scored: dict[str, float]) -> bool:
        """The top candidate is a genre named by the typed words, and every close rival is a work of that
        name with no edge at all in the KB (issue 22: "romance" is the genre, not an unknown book
        "Romance"; a known work, the album "Thriller", still makes it a question)."""
        top = cands[0]
        if top.is_item or "P136" not in self.kb.roles(top.qid) or scored.get(top.qid, 0.0) < SIM_VARIANT:
            return self._famous_genre(cands, scored)
        rivals = [c for c in cands[1:] if top.score - c.score < AMBIGUITY_MARGIN]
        return all(c.is_item and self.kb.popularity(c.qid) == 0 for c in rivals)

    def _famous_genre(self, cands: Sequence[Candidate], scored: dict[str, float]) -> bool:
        """The top candidate is a well-known genre named by an alias that is also a work's label, the close
        rivals works the KB hardly knows (``scoring.CandidateRanker.genre_first``: "classic punk is my jam")."""
        top, pop = cands[0], self.kb.popularity
        sim = scored.get(top.qid, 0.0)
        if (
            top.is_item
            or "P136" not in self.kb.roles(top.qid)
            or sim < SIM_FOREIGN_ALIAS
            or pop(top.qid) < DOMINANT_MIN_POPULARITY
        ):
            return False
        rivals = [c for c in cands[1:] if top.score - c.score < AMBIGUITY_MARGIN]
        return all(
            c.is_item and DOMINANT_RATIO * pop(c.qid) <= pop(top.qid) and pop(c.qid) < FAMOUS_PERSON_POPULARITY
            for c in rivals
        )

    def _another_year(
        self,
        tokens: list[Token],
        i: int,
        j: int,
        cands: Sequence[Candidate],
        years: AbstractSet[int],
        covered: AbstractSet[int] = frozenset(),
    ) -> bool:
        """A year typed next to the name ("X (2022)", "X, the 2022 one", "the 2016 X") and every candidate a
        work of a known other year: the work meant is one the KB lacks (issue 22-E)."""
        near = range(max(0, i - 2), min(len(tokens), j + 4))
        if not years or not any(
            tokens[k].key.isdigit()
            and len(tokens[k].key) == 4
            and not (k > 0 and tokens[k - 1].key in DATE_PREPOSITIONS)  # "i saw heat in 2010": when, not which
            for k in near
            if not i <= k < j and k not in covered  # (a title of digits is no year: "1984, animal farm")
        ):
            return False
        dated = [entity_year(self.kb, c.qid) if c.is_item else None for c in cands]
        return all(y is not None and y not in years for y in dated)

    def _other_kind(self, cands: Sequence[Candidate], hint: str | None) -> bool:
        """A type noun next to the name says "album" or "song" and every candidate is a work the KB knows to be
        of the other kind (``kb.kind``): the work meant is one the KB lacks (issue 22-E)."""
        kind_of = getattr(self.kb, "kind", None)
        if hint not in ("album", "song") or kind_of is None:
            return False
        kinds = [kind_of(c.qid) if c.is_item else None for c in cands]
        return all(k in ("album", "song") and k != hint for k in kinds)

    def _named_persons(self, context: LinkContext) -> set[str]:
        """The persons the message names as persons: not the person readings of a span that may also name a
        work ("Oliver Twist and David Copperfield": the novel, not the magician)."""
        persons = set()
        for person in context.people:
            spans = [s for s in context.spans if person in s.scored]
            if spans and all(all(PERSON_ROLES.intersection(self.kb.roles(q)) for q in s.scored) for s in spans):
                persons.add(person)  # (one who only says which, "Hurt by Johnny Cash", has no span: no rating)
        return persons

    def _another_creators(self, cands: Sequence[Candidate], scored: dict[str, float], people: AbstractSet[str]) -> bool:
        """The message names a maker of the domain's works (performer, author, director) credited with none of
        the readings, each of which another maker of that kind made and none well known ("phoebe bridgers is
        incredible, kyoto especially": the KB's "Kyoto" is Skrillex's): the one meant is a work the KB lacks
        (issue 22-E)."""
        roles = DOMAIN_CREATORS.get(getattr(self.kb, "domain", ""), frozenset())
        makers = {p for p in people if p not in scored and roles.intersection(self.kb.roles(p))}
        readings = [c for c in cands if c.is_item]
        item_values = getattr(self.kb, "item_values", None)
        if not makers or not readings or len(readings) < len(cands) or item_values is None:
            return False
        for c in readings:
            if self.kb.popularity(c.qid) >= DOMINANT_MIN_POPULARITY:
                return False  # a well-known work is likelier named for itself ("Tom Hanks and Forrest Gump but
                # not Steven Spielberg": a list of likes)
            made_by = {v for pid, v in item_values(c.qid) if pid in roles}
            if not made_by or makers & {v for pid, v in item_values(c.qid) if pid in PERSON_ROLES}:
                return False  # (credited to a maker named in any role: "Prince" writing "Purple Rain")
        return True

    def _person_name(self, word: str) -> bool:
        """A first or last name of a person of the KB ("rowling"), not an everyday English word."""
        return self._names is not None and not is_everyday(word) and bool(self._names.namesakes(word))

    def _a_name(self, word: str) -> bool:
        """A first or last name of a person of the KB, everyday word or not ("scott")."""
        return self._names is not None and bool(self._names.namesakes(word))

    def _known(self, qid: str) -> bool:
        """The entity is better known than :data:`KNOWN_QUANTILE` of the domain's items (16 for films, 1 for
        songs, 0 for books) or well known outright (``DOMINANT_MIN_POPULARITY``): a typo of its name is
        likelier than the same words meaning what they say. The quantile is of works: a person or a band is
        known from :data:`FAMOUS_PERSON_POPULARITY` ("choral" is no typo of the little-known singer "Chorão", 3)."""
        if not self.kb.is_item(qid) and PERSON_ROLES.intersection(self.kb.roles(qid)):
            return self.kb.popularity(qid) >= FAMOUS_PERSON_POPULARITY
        if self._known_popularity is None:
            items = getattr(self.kb, "items", ())
            pops = sorted(self.kb.popularity(q) for q in items)
            self._known_popularity = pops[int(KNOWN_QUANTILE * (len(pops) - 1))] if pops else math.inf
        pop = self.kb.popularity(qid)
        return pop > self._known_popularity or pop >= DOMINANT_MIN_POPULARITY

    def _notable_popularity(self) -> float:
        """The popularity above which an item is among the best-known tenth of the domain's items
        (:data:`NOTABLE_QUANTILE`): 0 in a KB where most works have no edge (books), 24 for films,
        where a film with no edge is mostly a recent one the shared dump lacks ("Suspiria" 2018)."""
        if self._notable is None:
            items = getattr(self.kb, "items", ())
            pops = sorted(self.kb.popularity(q) for q in items)
            self._notable = pops[int(NOTABLE_QUANTILE * (len(pops) - 1))] if pops else math.inf
        return self._notable

    def _lone_artist(self, cands: Sequence[Candidate], scored: dict[str, float]) -> bool:
        """The top candidate is the only performer or author among the close candidates and the
        other close ones are works at most as well known (an artist's eponymous album or song)."""
        top = cands[0]
        pop = self.kb.popularity(top.qid)
        for c in cands[1:]:
            if top.score - c.score >= AMBIGUITY_MARGIN and scored.get(c.qid, 0.0) < SIM_VARIANT:
                continue
            if not c.is_item or PERSON_ROLES.intersection(c.roles) or self.kb.popularity(c.qid) > pop:
                return False
        return True

    def context_pick(self, top: Candidate, focus: QID | None, history: frozenset[QID], years: AbstractSet[int]) -> bool:
        """The dialog or the message singles out the top candidate: it is the focus item, an earlier
        mention, or of a year named in the message ("The Avengers (2012)")."""
        return top.qid == focus or top.qid in history or bool(years and entity_year(self.kb, top.qid) in years)
