"""Step 4 of linking: features and scoring of the candidates of a span.

Reads: one span (its entities and their similarity), the message's tokens, the KB (popularity, roles,
years, credits), the dialog's focus item and earlier mentions. Adds: the ranked
:class:`nlu.linking.values.Candidate` tuple of the span (:class:`Ranked`), best first.

Each candidate gets ``score = 0.55*similarity + 0.35*popularity + 0.10*domain + context``.
Similarity: :mod:`nlu.linking.values` (1.0 for a label ... ``0.9*ratio/100`` of it for a typo).
Popularity: ``log1p(p)/log1p(max p)`` over the KB. Domain: 1 for a recommendable item of the KB; "the
movie/book/song ..." before the name adds 0.1 for items. Context: +0.3 for the focus item, +0.1 for
an earlier mention, +0.35 for an item of a year named in the message (-0.35 for an item of another
known year: "Ghostbusters 2016"), +0.35 for a title typed with its label's closing "!" or "?"
("Mother!"). A role word before the name ("the actor Sylvester Stallone") adds 0.1 to persons having
that role and narrows their ``roles`` to it; "the director of Terminator 2" links the item's
director(s) instead of the item (``kb.item_values``). A type noun next to the name ("the band Queen",
"Queen is my favourite band") lifts the candidates of that kind over the ambiguity margin; an artist
comes before works of their own name ("I love Weezer"), and a far better-known person whose alias
the name is before a work so named ("Elvis").

A lone word matched exactly that is also a person's first or last name ("Boccaccio": a novel and
Giovanni Boccaccio) gets those persons as further candidates (:meth:`CandidateRanker.namesakes`,
similarity 0.72).

Example:
    >>> [c.label for c in ranker.rank({"Q1": 1.0, "Q2": 0.95}, tokens, 2, None, frozenset())]  # doctest: +SKIP
    ['The Avengers', 'Avengers']
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from nlu.linking.guard import typed_as_label
from nlu.linking.namesakes import NamesakeResolver, Taken
from nlu.linking.syntax import kind_hint_of, name_slot
from nlu.linking.tokens import Token, boundary, name_key
from nlu.linking.values import (
    AMBIGUITY_MARGIN,
    DOMINANT_MIN_POPULARITY,
    DOMINANT_RATIO,
    MAX_CANDIDATES,
    PERSON_ROLES,
    PID,
    QID,
    SIM_ALIAS,
    SIM_FOREIGN_ALIAS,
    SIM_NAMESAKE,
    SIM_VARIANT,
    Candidate,
    LinkContext,
    Span,
    creators,
    entity_year,
    is_kind,
    qid_order,
    span_years,
)
from nlu.linking.words import CLAUSE_STOP, LIKE_VERBS, SPAN_STOP, TYPE_WORDS, is_everyday
from nlu.name_index import NameIndex

_W_SIM, _W_POP, _W_DOMAIN = 0.55, 0.35, 0.10
"""Weights of similarity, popularity and being a recommendable item (module docstring)."""

_FOCUS_BONUS, _HISTORY_BONUS, _ROLE_BONUS, _TYPE_BONUS, _YEAR_BONUS = 0.3, 0.1, 0.1, 0.1, 0.35
"""Context: the focus item, an earlier mention, the role word, the type noun, the year named."""

FAMOUS_MIN_POPULARITY = 10.0
"""A person at least this popular (``kb.popularity``: edges, + 2 for an English Wikipedia article; John Coltrane
12, Keanu Reeves 37) is the one a lone name of theirs means among far less known readings."""

MIN_KNOWN_PERFORMER = 2.0
"""The least popularity of a performer a type noun picks among its namesakes by popularity (an English article)."""

NAME_SLOTS = frozenset({"subject", "object", "alone", "list", "comma", "rated", "fan"})
"""Where a lowercase lone word is a name (:func:`nlu.linking.syntax.name_slot`): its persons are candidates."""

_TYPED_BONUS = 0.35  # the name typed with its label's closing punctuation ("Mother!", "Help!"): as strong as a year


@dataclass(frozen=True, slots=True)
class Ranked:
    """A span's ranked candidates and the features the decision reads.

    Attributes:
        span: the span as proposed.
        first: index of its first token, or of the role word's when a relation replaced it ("the
            director of Terminator 2" starts at "director").
        candidates: ranked, best first (at most ``MAX_CANDIDATES``); never empty.
        scored: QID -> similarity, with the namesakes added.
        namesakes: persons whose first or last name the span's one word is.
        picked: QIDs the dialog or the message singles out (earlier mentions, typed with the label's "!",
            a cue of age or a credit: :mod:`nlu.linking.namesakes`).
        kind_hint: the kind a type noun next to the span names ("performer", "album", "song"), or None.
        relation: the candidates are the values of "<role> of <item>", not what the span names.
        taken: the namesake taken by the message or the priors (first among the candidates), or None.
        years: the years typed that may single out a candidate (:func:`nlu.linking.values.span_years`).
    """

    span: Span
    first: int
    candidates: tuple[Candidate, ...]
    scored: dict[str, float]
    namesakes: frozenset[str]
    picked: frozenset[QID]
    kind_hint: str | None
    relation: bool
    taken: Taken | None = None
    years: frozenset[int] = frozenset()


class CandidateRanker:
    """Ranks the candidates of a span over one domain's KB (module docstring).

    Args:
        kb: the domain's knowledge base (``popularity``, ``roles``, ``is_item``, ``label``,
            ``description``; ``item_values`` when it has them).
        names: the domain's name index (its ``pop_scale`` and namesake table).
        role_words: the domain's person role words ("actor" -> "P161").
    """

    def __init__(self, kb: Any, names: NameIndex, role_words: Mapping[str, str]) -> None:
        self.kb = kb
        self.domain: str = getattr(kb, "domain", "")
        self._names = names
        self._pop_scale = names.pop_scale
        self._role_words = role_words
        self._namesakes = NamesakeResolver(kb)

    def candidates(self, text: str, tokens: list[Token], span: Span, context: LinkContext) -> Ranked | None:
        """Rank the candidates of one span in the message's context; None when none is left."""
        i, j, scored, kind = span
        namesakes = (
            self.namesakes(text, tokens, i, j, scored) if kind == "exact" and j not in context.credited else frozenset()
        )
        if namesakes:
            scored = {**scored, **{q: SIM_NAMESAKE for q in namesakes}}
        typed = typed_as_label(self.kb, text, tokens, i, j, scored) if kind == "exact" else frozenset()
        picked = frozenset(map(QID, context.history | typed))  # the message or the dialog singles these out
        years = span_years(self.kb, scored, context.years)
        cands = self.rank(scored, tokens, i, context.focus, context.history, years=years, typed=typed)
        if not cands:
            return None
        relation = self.relation(tokens, i, cands[0])
        if relation is not None:  # "the director of Terminator 2" -> James Cameron
            i, cands = relation
        kind_hint = kind_hint_of(text, tokens, i, j, self.domain) or self.sibling_kind(text, tokens, span, context)
        if kind_hint is not None and len(cands) > 1:  # "Queen is my favourite band": the band
            cands = self.prefer_kind(cands, kind_hint)
        singled = picked | {context.focus} if context.focus else picked
        dated = bool(years) and any(entity_year(self.kb, c.qid) in years for c in cands)
        if kind_hint not in ("album", "song", "work") and len(cands) > 1:
            words = tuple(t.key for t in tokens[i:j])
            # "I love Weezer": the band, not its album "Weezer" (the popularity prior only when nothing said which)
            prior = not dated and not singled.intersection(c.qid for c in cands)
            cands = self.artist_first(cands, scored, words, prior=prior)
        cands = self.genre_first(cands, scored)
        taken = None
        words = tuple(t.key for t in tokens[i:j])
        ids = {c.qid for c in cands}
        said = (set(typed) | {context.focus}) & ids  # the message's punctuation or the item on screen
        famous = None
        if relation is None and not singled.intersection(ids):
            famous = self.famous_namesake(cands, scored, namesakes, words, context.people)
        if famous is not None:  # "keanu is goated", "scorsese is a genius": the star, said so (issue 22-E)
            cands = _first(cands, famous)
            taken = Taken(famous, "popularity", False)
        elif relation is None and len(cands) > 1 and not said and not dated:
            # "the new Lion King", "Drive" (2011), "Joker" (2019): unless the dialog or the message said which
            taken = self._namesakes.take(tokens, text, i, j, cands, scored, context, kind_hint)
            if taken is not None and singled.intersection(ids) and not (taken.cue and taken.reason != "history"):
                taken = None  # the dialog's earlier mention says which, unless the words do ("the original X")
            if taken is not None:
                cands = _first(cands, taken.qid)
                if taken.cue:
                    picked = (picked - ids) | {QID(taken.qid)}
        return Ranked(span, i, cands, scored, namesakes, picked, kind_hint, relation is not None, taken, years)

    def rank(
        self,
        scored: dict[str, float],
        tokens: list[Token],
        i: int,
        focus: QID | None,
        history: frozenset[QID],
        *,
        years: AbstractSet[int] = frozenset(),
        typed: frozenset[str] = frozenset(),
    ) -> tuple[Candidate, ...]:
        """The candidates of ``scored`` (QID -> similarity) for a span starting at token ``i``, ranked
        by score (module docstring), then by :func:`nlu.linking.values.qid_order`."""
        kb = self.kb
        before = [t.key for t in tokens[max(0, i - 2) : i]]
        role_hint = next((self._role_words[w] for w in reversed(before) if w in self._role_words), None)
        type_hint = any(w in TYPE_WORDS for w in before)
        out = []
        for qid, sim in scored.items():
            is_item = bool(kb.is_item(qid))
            roles = tuple(kb.roles(qid))
            score = _W_SIM * sim + _W_POP * math.log1p(max(kb.popularity(qid), 0.0)) / self._pop_scale
            score += _W_DOMAIN * is_item
            if type_hint and is_item:
                score += _TYPE_BONUS
            if role_hint and role_hint in roles:
                score += _ROLE_BONUS
                roles = (PID(role_hint),)
            if years and len(scored) > 1:
                year = entity_year(kb, qid)
                if year in years:
                    score += _YEAR_BONUS  # "The Avengers (2012)"
                elif year is not None and is_item:
                    score -= _YEAR_BONUS  # "Ghostbusters 2016": not the 1984 film
            if qid in typed:
                score += _TYPED_BONUS  # "Mother!" typed with its label's punctuation
            if qid == focus:
                score += _FOCUS_BONUS
            elif qid in history:
                score += _HISTORY_BONUS
            label = kb.label(qid)
            out.append(Candidate(QID(qid), label, round(score, 6), is_item, roles, kb.description(qid)))
        out.sort(key=lambda c: (-c.score, qid_order(c.qid)))
        return tuple(out[:MAX_CANDIDATES])

    def relation(self, tokens: list[Token], i: int, item: Candidate) -> tuple[int, tuple[Candidate, ...]] | None:
        """ "<role> of <item>": the item's values for that role, most popular first (None if not so)."""
        if i < 2 or tokens[i - 1].key != "of" or tokens[i - 2].key not in self._role_words or not item.is_item:
            return None
        pid = self._role_words[tokens[i - 2].key]
        item_values = getattr(self.kb, "item_values", None)
        if item_values is None:
            return None
        values = [q for p, q in item_values(item.qid) if p == pid]
        if not values:
            return None
        kb = self.kb
        ranked = sorted(
            (
                Candidate(
                    QID(q),
                    kb.label(q),
                    round(_W_SIM + _W_POP * math.log1p(max(kb.popularity(q), 0.0)) / self._pop_scale, 6),
                    bool(kb.is_item(q)),
                    (PID(pid),),
                    kb.description(q),
                )
                for q in dict.fromkeys(values)
            ),
            key=lambda c: (-c.score, qid_order(c.qid)),
        )
        first = i - 3 if i >= 3 and tokens[i - 3].key in ("the", "a", "an", "his", "her", "its", "their") else i - 2
        return first, tuple(ranked[:MAX_CANDIDATES])

    def namesakes(self, text: str, tokens: list[Token], i: int, j: int, scored: dict[str, float]) -> frozenset[str]:
        """Persons whose first or last name is the one word matched exactly at ``i`` when that word
        names something else too ("Boccaccio": a book and Giovanni Boccaccio; "Disney": the
        company and Walt Disney); only for a capitalised word or the whole object of a like-verb.
        Persons already matched by the word (their label or alias) are not namesakes."""
        if j - i != 1:
            return frozenset()
        people = self._names.namesakes(tokens[i].key)
        if not people:
            return frozenset()
        whole_object = (
            i > 0
            and tokens[i - 1].key in LIKE_VERBS
            and (j == len(tokens) or boundary(text, tokens, j) or tokens[j].key in SPAN_STOP | CLAUSE_STOP)
        )
        slotted = not is_everyday(tokens[i].key) and name_slot(text, tokens, i, j) in NAME_SLOTS
        if not (tokens[i].raw[:1].isupper() or whole_object or slotted):
            return frozenset()  # (lowercase where a name is expected, no English word: "keanu is goated", issue 22-E)
        if any(q in scored for q in people):
            return frozenset()  # the word already names one of these persons ("Tolkien")
        return frozenset(people)

    def famous_namesake(
        self,
        cands: tuple[Candidate, ...],
        scored: dict[str, float],
        namesakes: frozenset[str],
        words: tuple[str, ...],
        named: AbstractSet[str] = frozenset(),
    ) -> str | None:
        """The person a lone first or last name names when one carrying it is well known
        (:data:`FAMOUS_MIN_POPULARITY`) and ``DOMINANT_RATIO`` times as popular as every other reading of the
        word ("keanu": Keanu Reeves, 37, not the film "Keanu", 0; "scorsese": Martin Scorsese, not his
        namesakes); None when the word names nobody so or no one stands out ("Hitchcock": the director, 32,
        and the film, 26, are asked about). A surname the person has as an alias that is a work's label counts too
        ("Borges": the writer, 52, not an unknown book "Borges"), unless a person ``named`` in the message is
        credited with one of the works."""
        persons = [
            c
            for c in cands
            if PERSON_ROLES.intersection(c.roles)
            and (
                c.qid in namesakes
                or math.isclose(scored.get(c.qid, 0.0), SIM_NAMESAKE)
                or (math.isclose(scored.get(c.qid, 0.0), SIM_FOREIGN_ALIAS) and self._own_name(c, scored, words))
            )
        ]
        if not persons or len(words) != 1:
            return None
        if named and any(c.is_item and creators(self.kb, c.qid) & set(named) for c in cands):
            return None  # "Elvis, the Baz Luhrmann one": the person named says which work
        if is_everyday(words[0]) and any(c.is_item and scored.get(c.qid, 0.0) >= SIM_VARIANT for c in cands):
            return None  # "Wonder made me cry": an English word that is a work's title, not Stevie Wonder
        pops = {c.qid: self.kb.popularity(c.qid) for c in cands}
        best = max(persons, key=lambda c: pops[c.qid])
        named_work = any(c.is_item and scored.get(c.qid, 0.0) >= SIM_VARIANT for c in cands)
        if pops[best.qid] < (DOMINANT_MIN_POPULARITY if named_work else FAMOUS_MIN_POPULARITY):
            return None  # (over a work of that very name, only a star: "keanu", not "Paterson" of Bill Paterson)
        if all(pops[best.qid] >= DOMINANT_RATIO * pops[c.qid] for c in cands if c is not best):
            return best.qid
        return None

    def genre_first(self, cands: tuple[Candidate, ...], scored: dict[str, float]) -> tuple[Candidate, ...]:
        """A well-known genre named by the typed words (label or alias) before works of that name the KB hardly
        knows, ``DOMINANT_RATIO`` times less popular ("classic punk is my jam": punk rock, 609, not an album
        "Punk", 1); a known work of the genre's name stays first and is asked about ("Thriller")."""
        pop = self.kb.popularity
        genres = [
            c
            for c in cands
            if not c.is_item
            and "P136" in self.kb.roles(c.qid)
            and scored.get(c.qid, 0.0) >= SIM_FOREIGN_ALIAS  # (an alias that is a work's label too: "Punk")
            and not math.isclose(scored.get(c.qid, 0.0), SIM_NAMESAKE)
            and pop(c.qid) >= DOMINANT_MIN_POPULARITY
        ]
        if not genres or cands[0] in genres or not cands[0].is_item:
            return cands
        genre = max(genres, key=lambda c: pop(c.qid))
        works = [c for c in cands if c.is_item]
        if all(pop(c.qid) < FAMOUS_MIN_POPULARITY and DOMINANT_RATIO * pop(c.qid) <= pop(genre.qid) for c in works):
            return _first(cands, genre.qid)
        return cands

    def sibling_kind(self, text: str, tokens: list[Token], span: Span, context: LinkContext) -> str | None:
        """``work`` or ``person`` when the span is listed ("and", "&", a comma) next to a name all of whose
        candidates are works or all persons: the items of a list are of one kind ("Feel Good Inc. and Clint
        Eastwood are classics": the song, not the actor; "Space Oddity, Starman and ..."); else None."""
        i, j = span[0], span[1]
        persons = {q for q in span.scored if PERSON_ROLES.intersection(self.kb.roles(q))}
        if not persons or not any(self.kb.is_item(q) and q not in persons for q in span.scored):
            return None  # it only tells works from persons (a genre listed with a work stays one: "X and cyberpunk")
        for other in context.spans:
            before = other.end == i - 1 and tokens[i - 1].key == "and"
            after = other.start == j + 1 and j < len(tokens) and tokens[j].key == "and"
            comma = (other.end == i and i > 0 and text[tokens[i - 1].end : tokens[i].start].strip() == ",") or (
                other.start == j and j < len(tokens) and text[tokens[j - 1].end : tokens[j].start].strip() == ","
            )
            if other is span or not (before or after or comma) or not other.scored:
                continue
            people = [bool(PERSON_ROLES.intersection(self.kb.roles(q))) for q in other.scored]
            if not any(people) and all(self.kb.is_item(q) for q in other.scored):
                return "work"
            if all(people):
                return "person"
        return None

    def _own_name(self, cand: Candidate, scored: dict[str, float], typed: tuple[str, ...]) -> bool:
        """The typed words are the entity's own name: its label or alias, or (an alias another entity has
        as its label) a short form of its label ("Elvis" of "Elvis Presley"; not "Starman" of David Bowie)."""
        sim = scored.get(cand.qid, 0.0)
        if sim >= SIM_ALIAS:
            return True
        if sim < SIM_FOREIGN_ALIAS or not typed:
            return False
        label = set(name_key(self.kb.label(cand.qid)))
        return set(typed) <= label

    def prefer_kind(self, cands: tuple[Candidate, ...], kind: str) -> tuple[Candidate, ...]:
        """Candidates of the kind a type noun names ("band", "album", "song") get :data:`_TYPE_BONUS`;
        when exactly the top one fits, the others drop below the ambiguity margin."""
        fits = {c.qid for c in cands if is_kind(self.kb, c, kind)}
        if kind == "performer" and len(fits) > 1:  # "Brahms was a genius composer": not the unknown band The Brahms
            fits = self._known_performer(fits)
        if not fits or len(fits) == len(cands):
            return cands
        bonus = AMBIGUITY_MARGIN + _TYPE_BONUS
        if len(fits) == 1:  # (one that fits leads the others by the margin, however far behind it started)
            bonus = max(bonus, max(c.score for c in cands) - min(c.score for c in cands) + AMBIGUITY_MARGIN + 0.01)
        boosted = [dataclasses.replace(c, score=round(c.score + bonus, 6)) if c.qid in fits else c for c in cands]
        boosted.sort(key=lambda c: (-c.score, qid_order(c.qid)))
        return tuple(boosted)

    def _known_performer(self, fits: set[QID]) -> set[QID]:
        """The one of the performers a type noun fits that the KB knows :data:`DOMINANT_RATIO` times as well as each
        other (and at least :data:`MIN_KNOWN_PERFORMER`): the clause says a performer, popularity says which."""
        pops = sorted(((self.kb.popularity(q), q) for q in fits), reverse=True)
        best, runner = pops[0][0], pops[1][0]
        return {pops[0][1]} if best >= MIN_KNOWN_PERFORMER and best >= DOMINANT_RATIO * runner else fits

    def artist_first(
        self, cands: tuple[Candidate, ...], scored: dict[str, float], typed: tuple[str, ...] = (), *, prior: bool = True
    ) -> tuple[Candidate, ...]:
        """Works named after their own author or performer ("Weezer" the album by Weezer, "Bon Jovi"
        by Bon Jovi) leave the candidates when the artist is one of them, and a name that is a far
        better-known person's alias ("Elvis", "Mozart") puts that person first: the popularity prior
        over every reading of the typed words (:data:`DOMINANT_RATIO`, :data:`DOMINANT_MIN_POPULARITY`).
        An alias that is another entity's label names the person only as a short form of their name
        (``typed``, the span's words: "Elvis" of "Elvis Presley"); a nickname or a former name ("Starman"
        for David Bowie, "Hybrid Theory" for Linkin Park) leaves the work of that label first (issue 22).
        ``prior`` false (a year typed, the item on screen, an earlier mention single one out): no popularity
        prior ("Solstice 2019" is not the better-known Solstice of 1994)."""
        item_values = getattr(self.kb, "item_values", None)
        own = {c.qid for c in cands if self._own_name(c, scored, typed)}
        if item_values is not None:
            kept = tuple(
                c
                for c in cands
                if PERSON_ROLES.intersection(c.roles)
                or not any(p in PERSON_ROLES and v in own and v != c.qid for p, v in item_values(c.qid))
                or scored.get(c.qid, 0.0) < SIM_VARIANT
            )
            if kept:
                cands = kept
        best_sim = max(scored.values(), default=0.0)
        named = [
            c
            for c in cands
            if (c.is_item or PERSON_ROLES.intersection(c.roles))  # artists are property values in music
            and (
                scored.get(c.qid, 0.0) >= (SIM_VARIANT if c.is_item else SIM_ALIAS)  # "Beethoven (I Love to ...)"
                or scored.get(c.qid, 0.0) >= best_sim - 1e-9 > 0.0  # the same typo'd name: "beyonse"
                # a person's alias that is also a work's label ("Elvis", "Mozart") still names the person
                or (
                    scored.get(c.qid, 0.0) >= SIM_FOREIGN_ALIAS
                    and scored.get(c.qid) != SIM_NAMESAKE  # a first or last name only ("Boccaccio") names no one
                    and PERSON_ROLES.intersection(c.roles)
                    and c.qid in own
                )
            )
        ]
        performers = [c for c in named if PERSON_ROLES.intersection(c.roles)]
        full_names = [c for c in performers if scored.get(c.qid, 0.0) >= SIM_ALIAS]
        if cands[0].is_item and scored.get(cands[0].qid, 0.0) < SIM_VARIANT and full_names:
            # a work named only by a part of its title gives way to an artist named in full ("Franz Ferdinand"
            # the band, not the album "Tonight: Franz Ferdinand"), by the margin: a part of a title is no rival
            full = full_names[0]
            top = dataclasses.replace(full, score=round(cands[0].score + AMBIGUITY_MARGIN + 0.01, 6))
            return (top, *(c for c in cands if c.qid != full.qid))
        if len(performers) == 1 and len(named) > 1 and performers[0] is not cands[0]:
            artist = performers[0]  # "I love Weezer": the band, not its album of the same name
            others = max(self.kb.popularity(c.qid) for c in named if c is not artist)
            pop = self.kb.popularity(artist.qid)
            weaker = scored.get(artist.qid, 0.0) < scored.get(cands[0].qid, 0.0)
            # a work of the artist's own name whose performer the KB does not know is likely the artist's
            # self-titled one ("Blink-182" the album, 9, and the band, 6)
            eponymous = not weaker and all(
                item_values is not None
                and not any(p in PERSON_ROLES for p, _v in item_values(c.qid))
                and DOMINANT_RATIO * pop >= self.kb.popularity(c.qid)
                for c in named
                if c is not artist
            )
            if (pop >= others or eponymous) and (not weaker or pop >= DOMINANT_RATIO * others):
                top = dataclasses.replace(artist, score=round(max(artist.score, cands[0].score) + 1e-6, 6))
                cands = (top, *(c for c in cands if c.qid != artist.qid))
        if len(named) > 1 and prior:  # (not over a year typed or the item on screen: "Solstice 2019")
            pops = {c.qid: self.kb.popularity(c.qid) for c in named}
            best = max(named, key=lambda c: pops[c.qid])
            if best.qid != cands[0].qid and pops[best.qid] >= DOMINANT_MIN_POPULARITY:
                if all(pops[best.qid] >= DOMINANT_RATIO * pops[c.qid] for c in named if c is not best):
                    top = dataclasses.replace(best, score=round(max(best.score, cands[0].score) + 1e-6, 6))
                    cands = (top, *(c for c in cands if c.qid != best.qid))
        return cands


def _first(cands: tuple[Candidate, ...], qid: str) -> tuple[Candidate, ...]:
    """``cands`` with ``qid`` first, scored just above the old first."""
    chosen = next(c for c in cands if c.qid == qid)
    if chosen is cands[0]:
        return cands
    top = dataclasses.replace(chosen, score=round(max(chosen.score, cands[0].score) + 1e-6, 6))
    return (top, *(c for c in cands if c.qid != qid))
