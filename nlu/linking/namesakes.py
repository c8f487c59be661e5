"""Step 4b of linking: which of a span's namesakes the message, the credits or the priors single out
(issue 22: "recency and popularity decide between namesakes when the margin is clear").

Reads: a span's ranked candidates (:mod:`nlu.linking.scoring`), the message's tokens, the persons named
in the message (:attr:`nlu.linking.values.LinkContext.people`) and the KB's years, credits and
popularity. Adds: the reading taken, put first, and why (:class:`Taken`); the decision
(:mod:`nlu.linking.decision`) then links instead of asking "which one?".

A span's *readings* are its recommendable items that carry the typed words as their own name (label,
alias or derived variant: similarity >= ``SIM_VARIANT``); a cue of age also reads an item named by an
alias another entity has as its label ("the Ocean's Eleven remake": "Ocean's 11" of 1960 is a reading
too). The first rule that applies decides:

0. *a type noun* next to the name that only one reading fits ("Born in the U.S.A. the song":
   :func:`nlu.linking.values.is_kind`);
1. *a cue of age* next to the name (:data:`NEWER_CUES`, :data:`OLDER_CUES`): "the new X", "the latest X",
   "X remake", "the remake of X" take the newest reading (every reading's year known; "new" and
   "latest", :data:`NEW_WORDS`, the newest of known year if of the KB's last years), "the original X",
   "the old X" the oldest; "the remake" / "the original" elsewhere in the message (:func:`age_references`)
   name the other reading of a title and give it the opposite cue ("Oldboy is a masterpiece, the remake
   is garbage");
2. *a credit*: a person named in the message (linked, saying which work is meant, or by a last name
   only) is credited with some readings and not the others ("peter jackson's king kong", "circe too,
   madeline miller is amazing"; "TITLE by PERSON" is settled earlier, by :mod:`nlu.linking.works`), else
   the creator of a work named unambiguously with it ("creep and high and dry"), else the one maker who made a
   reading of every other title listed with it, each with namesakes ("blue jeans and born to die": Lana Del Rey's
   two), else a person of the dialog's earlier mentions (``history``: "numb" after "i love linkin park");
3. *more of the name*: one reading's full label holds a word of the message beyond the typed name
   ("sunflower from the spiderverse movie": "Sunflower - Spider-Man: Into the Spider-Verse"; readings
   named by their main title count here);
4. *a clear popularity margin*: one reading well known to the KB (:data:`KNOWN_QUANTILE`,
   :data:`MIN_KNOWN_POPULARITY`) and ``DOMINANT_RATIO`` times as popular as each rival ("Drive": the
   2011 film, 20, not the 2019 one, 0). A reading matched by a weaker form of the name (a dropped "the",
   a longer label) that is also less popular is no rival ("heat": the 1995 "Heat", 41, not "The Heat",
   26); rivals of two kinds do not compare (an album's popularity counts its songs: "let it be" the
   album, 13, and the song, 1); a rival newer by :data:`RECENCY_GAP` years (or any dated rival when the
   better-known one's year is unknown) leaves a clear margin only to a reading among the domain's
   best-known tenth (:data:`NOTABLE_QUANTILE`: "The Lion King" of 1994, 37, over 2019's, 1; not a 1990
   film of 20 over a namesake of 2030 the KB knows nothing of yet);
5. *recency*: the newest reading by :data:`RECENCY_GAP` years or more (every year known) when the KB tells
   the others from it by nothing (no edge at all, or as popular): "Joker": 2019, not 2012, both 0; not
   "The Avengers" of 2012 over the one of 1998 (asked). The shared dump's edges thin out after 2005
   (median film popularity 0 from 2005 on, 88% of the films of 2019 with no edge), so a recent film
   unknown to the KB is no unknown film, and recent works are what people chat about.

Rules 0 to 3 are the message's words (:attr:`Taken.cue` true: the decision treats them as a year typed,
"Inside Out (2011)"); 4 and 5 are priors (the decision still asks about a name glued to an unknown word,
and the dialog says which reading it took, ``Mention.taken``). Otherwise nothing is taken and the
decision asks.

Example:
    "I saw the new Lion King" (1994, popularity 37; 2019, 1) -> Taken("Q27044293", "newer", cue=True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rapidfuzz.distance import OSA

from nlu.cue_spelling import KNOWN_ZIPF
from nlu.linking.syntax import is_verb
from nlu.linking.tokens import Token, boundary, name_key
from nlu.linking.values import (
    AMBIGUITY_MARGIN,
    DOMINANT_RATIO,
    PERSON_ROLES,
    SIM_FOREIGN_ALIAS,
    SIM_MAIN_TITLE,
    SIM_VARIANT,
    Candidate,
    LinkContext,
    Span,
    entity_year,
    is_kind,
)
from nlu.linking.words import stop_words, zipf

NEWER_CUES = frozenset("new newer newest latest recent remake remakes reboot modern".split())
NEW_WORDS = frozenset("new newest latest recent".split())
"""Cues that say the work is new, not only newer: its newest reading must be of the KB's last years
(:data:`NEW_YEARS`), else the work meant is one the KB lacks ("the new Ghostbusters": not the 2016
film, the KB's newest, in a KB that ends in 2019)."""
HORIZON_SAMPLE = 4000
"""Items whose years estimate the domain's latest years."""
NEW_YEARS = 2
"""A work is new within this many years of the domain's latest items (the 99th percentile of their years)."""
"""Words before the name ("the new X") or right after it ("X remake") that ask for its newest reading."""
OLDER_CUES = frozenset("original old older oldest".split())
"""Words right before the name ("the original X") that ask for its oldest reading ("first" and "classic"
say other things: "the first Harry Potter", "the classic Dracula")."""
AFTER_CUES = frozenset("remake reboot version".split())
"""Cue words that follow the name ("the Ocean's Eleven remake"); "version" takes the cue before it
("the new X version")."""
SLIP_MIN_CHARS = 6
"""A cue word of at least this many letters is read through one slip of the keyboard (:func:`age_word`)."""


def age_word(key: str) -> str:
    """``key`` as a cue of age: itself, or the one cue of :data:`SLIP_MIN_CHARS`+ letters it is one letter off
    (left out, added, replaced or swapped) when English has no such word ("origenal", "remkae"); else ``key``."""
    cues = NEWER_CUES | OLDER_CUES
    if key in cues or len(key) < SLIP_MIN_CHARS or not key.isalpha() or zipf(key) >= KNOWN_ZIPF:
        return key
    close = [c for c in cues if len(c) >= SLIP_MIN_CHARS and OSA.distance(key, c) == 1]
    return close[0] if len(close) == 1 else key


KNOWN_QUANTILE = 0.8
"""A reading is well known to the KB when more popular than this share of the domain's items
(``kb.popularity``: its edges, + 2 for an English Wikipedia article): 16 for films, 1 for songs and
albums, 0 for books (most have no edge at all)."""
MIN_KNOWN_POPULARITY = 2.0
"""... and at least this popular: one fact (a genre) tells no book from its namesakes."""
NOTABLE_QUANTILE = 0.9
"""... and far better known than a newer rival from this share on (24 for films)."""
RECENCY_GAP = 5
"""Years by which the newest of little-known readings must be newer than every other to be taken."""
MAX_READINGS = 8
"""Readings compared (the candidates kept per mention)."""


@dataclass(frozen=True, slots=True)
class Taken:
    """The reading taken among a span's namesakes.

    Attributes:
        qid: the reading taken (put first among the candidates).
        reason: ``kind`` (a type noun), ``newer``, ``older`` (a cue of age), ``credit`` (a person named
            in the message), ``history`` (a person of the dialog's earlier mentions), ``label`` (more of
            its name typed), ``popularity`` or ``recency`` (the priors).
        cue: the message's words single it out (rules 0 to 3), as a typed year does.
    """

    qid: str
    reason: str
    cue: bool


REFERENCE_CUES = {"remake": "newer", "reboot": "newer", "original": "older"}
"""Nouns that, after "the", name another reading of a title of the message ("Oldboy is a masterpiece,
the remake is garbage"), and the age of that reading."""
REFERENCE_DETERMINERS = frozenset({"the", "that", "this"})
REFERENCE_TAILS = frozenset({"one", "version", "film", "movie", "book", "novel", "song", "album"})
"""Words a reference may end with ("the original one", "the remake version")."""
OPPOSITE = {"newer": "older", "older": "newer"}


def age_references(kb: Any, text: str, tokens: list[Token], spans: list[Span]) -> tuple[list[Span], dict[int, str]]:
    """Step 3b: "the remake" / "the original" naming another reading of a title named in the message.

    "Oldboy is a masterpiece, the remake is garbage": "the remake" becomes a span of the title's newest
    reading, and the title, named without a cue, takes the oldest (and the other way round for "the
    original"); a cue word right after a title ("the Ocean's Eleven remake") is an attribute of it, no
    genre. Only for a title with two readings of known, different years.

    Returns:
        The spans (a cue word's own match, e.g. the genre "remake", gone) and the cue of age each title
        span takes from such a reference (its start token -> ``newer`` / ``older``).
    """
    cues: dict[int, str] = {}
    out = list(spans)
    for k, tok in enumerate(tokens):
        age = REFERENCE_CUES.get(tok.key)
        if age is None or (k + 1 < len(tokens) and tokens[k + 1].key == "of"):
            continue
        titles = [s for s in out if s.end <= k or s.start > k]
        after = next((s for s in titles if s.end == k and not boundary(text, tokens, k)), None)
        if after is not None and _dated(kb, after.scored):
            out = [s for s in out if not s.start <= k < s.end]  # "the Ocean's Eleven remake": no genre "remake"
            continue
        if k == 0 or tokens[k - 1].key not in REFERENCE_DETERMINERS or any(s.start == k + 1 for s in out):
            continue  # (not "the original King Kong": an adjective of the title, read by its ranking)
        title = next((s for s in sorted(titles, key=lambda s: abs(s.start - k)) if _dated(kb, s.scored)), None)
        if title is None:
            continue
        readings = sorted(_dated(kb, title.scored), reverse=age == "newer")
        end = k + 2 if k + 1 < len(tokens) and tokens[k + 1].key in REFERENCE_TAILS else k + 1
        out = [s for s in out if s.end <= k - 1 or s.start >= end]
        if title.end < k and _appositive(text, tokens, k - 1):
            cues[title.start] = age  # "The Italian Job is great, the original one with ...": the title's own cue
            continue
        if title.end < k and k >= 2 and tokens[k - 2].key == "not":
            cues[title.start] = OPPOSITE[age]  # "X with Y, not that remake": says which X, no opinion of the other
            continue
        out.append(Span(k - 1, end, {readings[0][1]: SIM_VARIANT}, "exact"))
        cues[title.start] = OPPOSITE[age]
    return out, cues


def _appositive(text: str, tokens: list[Token], k: int) -> bool:
    """The reference at token ``k`` opens a clause of its own after a comma with no verb in it ("..., the
    original one with Michael Caine"): it says which reading of the title before it is meant, naming no other
    ("Oldboy is a masterpiece, the remake is garbage" names the other)."""
    if not boundary(text, tokens, k):
        return False
    m = k + 1
    while m < len(tokens) and not boundary(text, tokens, m):
        if is_verb(tokens, m):
            return False
        m += 1
    return True


def _dated(kb: Any, scored: dict[str, float]) -> list[tuple[int, str]]:
    """(year, QID) of the items among ``scored`` named by their own name or an alias, when two or more
    have known and different years; else empty."""
    dated = []
    own = own_readings(scored)
    for qid in scored:
        year = entity_year(kb, qid) if qid in own and kb.is_item(qid) else None
        if year is not None:
            dated.append((year, qid))
    return dated if len({y for y, _q in dated}) >= 2 else []


def own_readings(scored: dict[str, float]) -> set[str]:
    """The entities of ``scored`` the typed words name: by their own name (:func:`_own_name`), or, when no name
    was typed right, the readings of the very name typed with a slip (the best fuzzy similarity, shared by
    namesakes: "magnificient seven")."""
    best = max(scored.values(), default=0.0)
    if best >= SIM_MAIN_TITLE:
        return {q for q, sim in scored.items() if _own_name(sim)}
    return {q for q, sim in scored.items() if sim >= best - 1e-9 > 0.0}


def _own_name(sim: float) -> bool:
    """The similarity of a name the entity carries (label, alias, derived variant, or an alias another
    entity has as its label: "Ocean's Eleven" of "Ocean's 11"), not of part of it ("The King of Kong")."""
    return sim >= SIM_VARIANT or math.isclose(sim, SIM_FOREIGN_ALIAS)


def credits(kb: Any, qid: str) -> set[str]:
    """The persons (and bands) credited with an item, its album's too (a song's performer is often on
    its album only in the shared dump)."""
    item_values = getattr(kb, "item_values", None)
    if item_values is None:
        return set()
    out: set[str] = set()
    for pid, value in item_values(qid):
        if pid in PERSON_ROLES:
            out.add(value)
        elif pid == "P361":
            out.update(v for p, v in item_values(value) if p in PERSON_ROLES)
    return out


class NamesakeResolver:
    """Takes one of a span's namesakes by the rules of the module docstring.

    Args:
        kb: the domain's knowledge base (``popularity``, ``is_item``; ``details`` / ``description`` for
            years; ``item_values`` for credits, without which rule 2 does nothing).
    """

    def __init__(self, kb: Any) -> None:
        self.kb = kb
        self._quantiles: dict[float, float] = {}
        self._horizon: int | None = None

    def _quantile(self, share: float) -> float:
        """The popularity under which ``share`` of the domain's items lie (computed once per share)."""
        if share not in self._quantiles:
            items = getattr(self.kb, "items", ())
            popularities = getattr(self.kb, "popularities", None)
            if popularities is not None:  # the KB's arrays: items are entities 0 .. len(items) - 1
                pops = sorted(float(p) for p in popularities()[: len(items)])
            else:
                pops = sorted(self.kb.popularity(q) for q in items)
            self._quantiles[share] = pops[int(share * (len(pops) - 1))] if pops else math.inf
        return self._quantiles[share]

    def take(
        self,
        tokens: list[Token],
        text: str,
        first: int,
        end: int,
        cands: Sequence[Candidate],
        scored: dict[str, float],
        context: LinkContext,
        kind_hint: str | None = None,
    ) -> Taken | None:
        """The reading the message or the priors take among ``cands`` (the span ``first:end``), or None.
        ``kind_hint``: the kind a type noun next to the name says ("the song X": :func:`is_kind`)."""
        readings = [c for c in cands[:MAX_READINGS] if c.is_item and scored.get(c.qid, 0.0) >= SIM_VARIANT]
        if kind_hint is not None:
            fitting = [c for c in readings if is_kind(self.kb, c, kind_hint)]
            if len(fitting) == 1 and len(readings) > 1:
                return Taken(fitting[0].qid, "kind", True)  # "Born in the U.S.A. the song"
            readings = fitting or readings
        named_so = own_readings(scored)  # (or the very name typed with a slip: "magnificient seven")

        def own(c: Candidate) -> bool:
            return c.qid in named_so

        cue = self._age_cue(tokens, text, first, end) or context.ages.get(first)
        if cue is not None:
            aged = [c for c in cands[:MAX_READINGS] if c.is_item and own(c)]
            taken = self._by_cue(aged, cue, new=first > 0 and tokens[first - 1].key in NEW_WORDS)
            if taken is not None:
                return Taken(taken, cue, True)
        pool = [c for c in cands[:MAX_READINGS] if c.is_item and scored.get(c.qid, 0.0) >= SIM_MAIN_TITLE]
        # an alias another entity has as its label may be what the credit says ("the black album": Metallica's)
        named = [c for c in cands[:MAX_READINGS] if c.is_item and own(c)]
        named = pool + [c for c in named if c not in pool]
        credited = self._credited(named, len(cands), scored, first, context) if named else None
        if credited is not None:
            return Taken(credited[0], "credit" if credited[1] else "history", True)
        if len(pool) < 2:
            return None
        further = self._named_further(tokens, first, end, cands, scored)
        if further is not None:
            return Taken(further, "label", True)
        if len(readings) < 2:
            return None
        best_score = max(c.score for c in readings)
        if any(c not in readings and best_score - c.score < AMBIGUITY_MARGIN for c in cands):
            return None  # another kind of entity is as likely (a person, a genre): the priors of works say nothing
        popular = self._by_popularity(readings, scored)
        if popular is not None:
            return Taken(popular, "popularity", False)
        recent = self._by_age(readings, newest=True, gap=RECENCY_GAP)
        if recent is not None and all(
            self.kb.popularity(c.qid) in (0.0, self.kb.popularity(recent)) for c in readings if c.qid != recent
        ):
            return Taken(recent, "recency", False)
        return None

    def _by_cue(self, readings: Sequence[Candidate], cue: str, *, new: bool) -> str | None:
        """The reading a cue of age takes: the newest or the oldest, every year known; for "the new X"
        (``new``) the newest of the readings of known year, if of the KB's last years ("the new suspiria":
        the 2018 film, whatever the year of Argento's, unknown to the KB)."""
        if cue != "newer" or not new:
            return self._by_age(readings, newest=cue == "newer")
        dated = [c for c in readings if entity_year(self.kb, c.qid) is not None]
        newest = self._by_age(dated, newest=True) if len(dated) > 1 else (dated[0].qid if dated else None)
        return newest if self._recent(newest) else None

    def _credited(
        self, works: Sequence[Candidate], n_cands: int, scored: dict[str, float], first: int, context: LinkContext
    ) -> tuple[str, bool] | None:
        """The work credited to a person the message names ("peter jackson's king kong", "X too, <author>
        is amazing", "Glass was not the worst Shyamalan movie": not the composer Philip Glass), when some
        other candidate is not; else the one credited to the creator of a work listed with it ("creep and
        high and dry": Radiohead's), when another reading is not; else one credited to a person of the
        dialog's history. Returns the work and whether the message's words said so (not the history)."""
        people = set(context.people).difference(scored)  # persons of other words than the title's own
        made = self._works_of(people)
        credited = [c for c in works if people and (c.qid in made or credits(self.kb, c.qid) & people)]
        if credited and len(credited) < n_cands:
            return max(credited, key=lambda c: c.score).qid, True
        listed = self._listed_credits(first, context)
        credited = [c for c in works if listed and credits(self.kb, c.qid) & listed]
        if credited and len(credited) < len(works):
            return max(credited, key=lambda c: c.score).qid, True
        # two titles listed together, each with namesakes ("numb and in the end"): the one reading of this one whose
        # maker also made a reading of every other title of the message (fresh tester, fault 18)
        shared = self._shared_credits(first, context)
        credited = [c for c in works if shared and credits(self.kb, c.qid) & shared]
        if len(credited) == 1 and len(works) > 1:
            return credited[0].qid, True
        # the conversation: a person the user named before ("i love linkin park" ... "numb is perfect")
        earlier = {str(q) for q in context.history if PERSON_ROLES.intersection(self.kb.roles(q))}
        # and the makers of the works named before ("master of puppets" ... "the black album": Metallica's)
        earlier |= {p for q in context.history if self.kb.is_item(q) for p in credits(self.kb, str(q))}
        earlier = earlier.difference(scored)
        made = self._works_of(earlier)
        credited = [c for c in works if earlier and (c.qid in made or credits(self.kb, c.qid) & earlier)]
        if credited and len(credited) < len(works):
            return max(credited, key=lambda c: c.score).qid, False
        return None

    def _shared_credits(self, first: int, context: LinkContext) -> set[str]:
        """The persons credited with a reading of every other title span of the message (none when there is no
        other span, or one of them has no credited reading)."""
        shared: set[str] | None = None
        for span in context.spans:
            if span.start == first:
                continue
            items = [q for q, sim in span.scored.items() if sim >= SIM_VARIANT and self.kb.is_item(q)]
            made: set[str] = set()
            for q in items:
                made |= credits(self.kb, q)
            shared = made if shared is None else shared & made
        return shared or set()

    def _listed_credits(self, first: int, context: LinkContext) -> set[str]:
        """The persons credited with the works the message names unambiguously elsewhere (one reading)."""
        out: set[str] = set()
        for span in context.spans:
            if span.start == first:
                continue
            items = [q for q, sim in span.scored.items() if sim >= SIM_VARIANT and self.kb.is_item(q)]
            if len(items) == 1 and len(span.scored) == 1:
                out |= credits(self.kb, items[0])
        return out

    def _named_further(
        self, tokens: list[Token], first: int, end: int, cands: Sequence[Candidate], scored: dict[str, float]
    ) -> str | None:
        """The one reading whose full label holds a word of the message beyond the typed name (or two of
        its words typed as one): "sunflower from the spiderverse movie" is "Sunflower - Spider-Man: Into
        the Spider-Verse", not the other song "Sunflower"."""
        stop = stop_words()
        typed = {t.key for t in tokens[first:end]}
        others = {t.key for k, t in enumerate(tokens) if not first <= k < end and len(t.key) >= 4 and t.key not in stop}
        if not others:
            return None
        hits = []
        for c in cands[:MAX_READINGS]:
            if not c.is_item or scored.get(c.qid, 0.0) < SIM_MAIN_TITLE:
                continue
            words = name_key(self.kb.label(c.qid))
            rest = {w for w in words if w not in typed} | {a + b for a, b in zip(words, words[1:], strict=False)}
            if any(len(w) >= 4 and w not in stop and w in others for w in rest):
                hits.append(c.qid)
        return hits[0] if len(hits) == 1 else None

    def _recent(self, qid: str | None) -> bool:
        """The item is of the domain's last :data:`NEW_YEARS` years (the 99th percentile of its items' years)."""
        if qid is None:
            return False
        if self._horizon is None:  # from a sample of the items (a percentile: a few thousand are plenty)
            items = sorted(getattr(self.kb, "items", ()))
            sample = items[:: max(1, len(items) // HORIZON_SAMPLE)]
            years = sorted(y for q in sample if (y := entity_year(self.kb, q)) is not None)
            self._horizon = years[int(0.99 * (len(years) - 1))] if years else 0
        year = entity_year(self.kb, qid)
        return year is not None and year >= self._horizon - NEW_YEARS

    def _works_of(self, people: set[str]) -> set[str]:
        """The items credited to ``people`` as the KB lists them from the person's side (``value_items``),
        with the songs of their albums."""
        value_items = getattr(self.kb, "value_items", None)
        if value_items is None or not people:
            return set()
        works = {w for p in people for pid, w in value_items(p) if pid in PERSON_ROLES}
        return works | {w for album in works for pid, w in value_items(album) if pid == "P361"}

    @staticmethod
    def _age_cue(tokens: list[Token], text: str, first: int, end: int) -> str | None:
        """``newer`` / ``older`` when a cue of age stands right before the name (an article or a
        possessive may open it: "the new", "Nolan's original") or a newer cue right after it, in the
        same clause."""
        k = first - 1
        if k >= 1 and tokens[k].key == "of" and age_word(tokens[k - 1].key) in AFTER_CUES - {"version"}:
            return "newer"  # "the remake of Oldboy"
        if k >= 0 and not boundary(text, tokens, first):
            word = age_word(tokens[k].key)
            if word in NEWER_CUES and word not in AFTER_CUES - {"version"}:
                return "newer"
            if word in OLDER_CUES:
                return "older"
        if end < len(tokens) and not boundary(text, tokens, end):
            word = age_word(tokens[end].key)
            if word in AFTER_CUES and word != "version":
                return "newer"
        return None

    def _by_age(self, readings: Sequence[Candidate], *, newest: bool, gap: int = 1) -> str | None:
        """The newest (or oldest) reading, newer (older) than every other by ``gap`` years; None when a
        year is unknown or two readings tie."""
        if len(readings) < 2:
            return None
        years = [(entity_year(self.kb, c.qid), c.qid) for c in readings]
        known = [(y, q) for y, q in years if y is not None]
        if len(known) < len(years):
            return None
        known.sort(reverse=newest)
        (y0, q0), (y1, _q1) = known[0], known[1]
        return q0 if abs(y0 - y1) >= gap else None

    def _by_popularity(self, readings: Sequence[Candidate], scored: dict[str, float]) -> str | None:
        """The reading that is well known and far better known than each rival; a rival matched by a
        weaker form of the name and less popular does not count."""
        pops = {c.qid: self.kb.popularity(c.qid) for c in readings}
        best = max(readings, key=lambda c: (pops[c.qid], scored.get(c.qid, 0.0)))
        top = pops[best.qid]
        if top <= self._quantile(KNOWN_QUANTILE) or top < MIN_KNOWN_POPULARITY:
            return None
        # "The Heat" for "heat", "Nevermind (What Was It Anyway)" for "nevermind": a weaker match, and less known
        rivals = [
            c
            for c in readings
            if c is not best and not (scored.get(c.qid, 0.0) < scored.get(best.qid, 0.0) and pops[c.qid] < top)
        ]
        kind = getattr(self.kb, "kind", None)
        if kind is not None and len({kind(c.qid) for c in (best, *rivals)}) > 1:
            return None  # an album's edges count its songs: popularities of two kinds do not compare
        year = entity_year(self.kb, best.qid)
        for c in rivals:
            if top < DOMINANT_RATIO * pops[c.qid] or math.isclose(top, pops[c.qid]):
                return None
            newer = entity_year(self.kb, c.qid)
            if (
                top <= self._quantile(NOTABLE_QUANTILE)
                and newer is not None
                and (year is None or newer - year >= RECENCY_GAP)
            ):
                return None  # recency says the other one: no clear margin unless far better known (module docstring)
        return best.qid
