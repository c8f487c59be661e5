"""Which clause's opinion an entity takes (issue 24: split from ``nlu.sentiment``, whose module docstring gives
the method): the values of the clauses of a masked message and the scope rules over them.

An entity takes the polarity of its own clause; a clause with no cue inherits from the nearest clause before it
across plain boundaries, else from the nearest after it; a later clause outweighs the entity's own reading when it
refers back, follows a contrast or is a bare judgement going on from it; an opinion of a part is not one of the
whole, but of two parts judged across a contrast the last is the whole's ("X, the middle part dragged but the ending
blew me away"); the standard of a comparison has no opinion unless presupposed ("even better than Y").

Reads the clauses :class:`nlu.sentiment.SentimentRecognizer` cut (each with its :class:`Cue`); adds one
:class:`Polarity` per entity position. Also the masking both use (entity spans replaced by ``ENTITYn``).

Example:
    >>> mask("I like Heat", [(7, 11)])
    ('I like  ENTITY0 ', [8])
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from nlu.textnorm import contraction_repairs
from nlu.wording import family

__all__ = [
    "EVALUATIVE",
    "HEDGED",
    "PLACEHOLDER",
    "STATED",
    "VADER",
    "Clause",
    "Cue",
    "Polarity",
    "after_than",
    "discourse_marker",
    "fix_mojibake",
    "judged_through_a_part",
    "mask",
    "presupposed",
    "resolve",
    "scoped_negation",
]

PLACEHOLDER = "ENTITY"
"""What an entity span is replaced by before anything is scored (``ENTITY0``, ``ENTITY1``, ...: F24)."""
_CUES = family("opinion_cues")


class Polarity(Enum):
    """Opinion about one entity, as the dataset writes it (``"+"``, ``"-"``; ``"0"`` = no opinion)."""

    POSITIVE = "+"
    NEGATIVE = "-"
    NEUTRAL = "0"


STATED, HEDGED, EVALUATIVE, VADER = 3, 2.5, 2, 1
"""Strengths of a clause's cue: a stated preference ("I love", "can't stand") beats a hedge ("it was
okay"), which beats a judgement or slang ("great", "sick", "🔥"), which beats VADER's score."""


@dataclass(frozen=True, slots=True)
class Cue:
    """The opinion a clause states, and how strongly (:data:`STATED` ... :data:`VADER`)."""

    polarity: Polarity  # NEUTRAL only for a hedge: ask, never store
    strength: float
    leaning: Polarity | None = None  # a hedge's lean: "not bad", "not overrated", "better than I expected" (+)


@dataclass(frozen=True, slots=True)
class Clause:
    """One clause of a masked message: where it is, what opens it and what it says."""

    start: int  # offsets in the masked text
    end: int
    boundary_before: str  # "start" | "plain" | "contrast"
    cue: Cue | None  # None = no cue
    short: bool = False  # at most one word besides the entity: "but Avatar", "except Titanic"
    entities: bool = False  # holds an entity placeholder
    reference: bool = False  # refers back to an entity: "I loved it", "this one is great"
    words: int = 0  # words besides entity placeholders
    aspect: bool = False  # names a part of a work: "the story is boring"
    predicate: bool = False  # a bare judgement naming nothing, no subject of its own: "..., amazing", "and wonderful"
    degree: bool = False  # its only opinion is an aspect cue: "but way too long" (nlu.opinion_scope)
    exception: bool = False  # its entity is the exception to the opinion before: "X is the exception"
    after_colon: bool = False  # opens after a colon: "X: didn't do much for me" (a verdict on the name before it)

    @property
    def polarity(self) -> Polarity | None:
        return None if self.cue is None else self.cue.polarity


# A part of a person's or a band's work after the entity placeholder: the placeholder is the code's.
POSSESSED_PART = re.compile(
    rf"entity\d*\s*'s\s+(?:\w+\s+)?{_CUES.alternation('works_of')}\b",
    re.IGNORECASE,
)
"""A part of a person's or a band's work ("Muse's albums", "her later novels"): an opinion of it is not of the whole."""


_PART_OF = re.compile(
    rf"\b(?:the|its|their|his|her)\s+(?:{family('opinion_scope').alternation('aspect_parts')})\s+"
    r"(?:in|of|from|on)\s+(?:the\s+)?$"
)
"""A part of a work right before it ("the music in X", "the ending of X"): an opinion there is of the part only."""


def judged_through_a_part(masked: str, clause: Clause, pos: int) -> bool:
    """The entity at ``pos`` is named only as the owner of a part judged ("The music in Finding Nemo is gorgeous"):
    no opinion of the whole is said (asked about, issue 22)."""
    return bool(_PART_OF.search(masked[clause.start : pos].lower()))


def after_than(masked: str, clause: Clause, pos: int) -> bool:
    """The entity at ``pos`` is the standard of a comparison ("more than Tenet", "better than X",
    "wasn't as good as X")."""
    before = masked[clause.start : pos].lower()
    return bool(re.search(r"\b(?:than|as\s+(?:\w+\s+){1,2}as)\s+(?:the\s+)?$", before))


_PRESUPPOSING = re.compile(
    r"\b(?:even|still)\s+(?:(?P<good>better|more fun)|(?P<bad>worse|more boring))\s+than\s+(?:the\s+)?$"
)
"""'even better than X' presupposes that X is good ('even worse than X': bad)."""


def presupposed(before: str) -> Polarity:
    """The polarity a comparison presupposes of its standard (``before``: the clause up to it)."""
    match = _PRESUPPOSING.search(before.lower())
    if match is None:
        return Polarity.NEUTRAL
    return Polarity.POSITIVE if match.group("good") else Polarity.NEGATIVE


# "A > B", "A >>> B": the sign of a comparison typed between two names, read as its words (issue 22)
_GREATER_SIGN = re.compile(r"(?<=[\w)'])\s*>+=?\s*(?=[\w(])")


def fix_mojibake(text: str, spans: Sequence[tuple[int, int]]) -> tuple[str, list[tuple[int, int]]]:
    """Apply :func:`nlu.textnorm.contraction_repairs` ("donâ€™t", "don t" -> "don't"), read a greater-than sign
    between two words as "is better than" ("hybrid theory > meteora": the greater one is liked, the other only the
    standard of a comparison) and shift the spans."""
    repairs = contraction_repairs(text)
    taken = [(a, b) for a, b, _new in repairs]
    for match in _GREATER_SIGN.finditer(text):
        if not any(a < match.end() and match.start() < b for a, b in taken):
            repairs.append((match.start(), match.end(), " is better than "))
    if not repairs:
        return text, list(spans)
    repairs.sort()

    def shift(pos: int) -> int:
        return pos + sum(len(new) - (end - start) for start, end, new in repairs if end <= pos)

    pieces: list[str] = []
    cursor = 0
    for start, end, new in repairs:
        pieces.extend((text[cursor:start], new))
        cursor = end
    return "".join(pieces) + text[cursor:], [(shift(a), shift(b)) for a, b in spans]


def mask(text: str, spans: Sequence[tuple[int, int]]) -> tuple[str, list[int]]:
    """Replace spans by ``ENTITYn``; return the masked text and each span's position in it."""
    order = sorted(range(len(spans)), key=lambda k: spans[k][0])
    pieces: list[str] = []
    positions = [0] * len(spans)
    cursor, length = 0, 0
    for k in order:
        start, end = max(spans[k][0], cursor), min(max(spans[k][1], cursor), len(text))
        start = min(start, len(text))
        chunk = text[cursor:start]
        pieces.append(chunk)
        length += len(chunk)
        token = f" {PLACEHOLDER}{k} "
        positions[k] = length + 1
        pieces.append(token)
        length += len(token)
        cursor = max(cursor, end)
    pieces.append(text[cursor:])
    return "".join(pieces), positions


def resolve(clauses: list[Clause], index: int, masked: str = "", pos: int = 0) -> Polarity:
    """The polarity of the entity at ``pos`` of clause ``index`` (module docstring)."""
    if clauses[index].exception:
        return Polarity.NEUTRAL  # "I don't like musicals, X is the exception": not that dislike; asked about
    own = clauses[index].cue
    if own is not None and own.strength == VADER and clauses[index].short and clauses[index].boundary_before == "plain":
        before = clauses[index - 1].cue
        if before is not None and before.strength >= STATED:
            return before.polarity  # "no glam metal or nu metal please": VADER's "please" is no opinion of its own
    if own is not None and own.polarity is not Polarity.NEUTRAL and _contradicted(clauses, index, masked, pos):
        return Polarity.NEUTRAL  # "Avatar looks great but the story is boring": mixed, ask
    later = _later_opinion(clauses, index)
    if later is not None:
        return later.polarity  # "X made me cry, I loved it", "X was disturbing but I loved it"
    if own is not None:
        return own.polarity
    if (topic := _set_against(clauses, index)) is not None:
        return topic  # "..., the tusk album though, way too weird for me": not the opinion before it
    if (verdict := _colon_verdict(clauses, index)) is not None:
        return verdict  # "A: masterpiece. B: didn't do much for me": B's verdict follows its colon, not A's
    k = index  # backwards across plain boundaries
    while clauses[k].boundary_before == "plain" and k > 0:
        k -= 1
        if (found := clauses[k].polarity) is not None:
            if _mixed_before(clauses, k, found):
                return Polarity.NEUTRAL  # "Great premise, boring execution, that's Station Eleven for me"
            return found
    k = index  # forwards across plain boundaries
    while k + 1 < len(clauses) and clauses[k + 1].boundary_before == "plain":
        k += 1
        if clauses[k].entities and not clauses[index].short:
            # only a bare list item borrows the predicate of a later subject ("X and Y are great"), not a
            # clause with words of its own ("I read X and Y last October, X was way better")
            break
        if (found := clauses[k].polarity) is not None:
            return _after_parts(clauses, k, found)
    clause = clauses[index]
    if clause.boundary_before == "contrast" and index > 0 and clause.short:
        previous = clauses[index - 1].polarity  # "I like everything except Titanic", "... but Avatar"
        if previous is Polarity.POSITIVE:
            return Polarity.NEGATIVE
        if previous is Polarity.NEGATIVE:
            return Polarity.POSITIVE
    return Polarity.NEUTRAL


def _colon_verdict(clauses: list[Clause], index: int) -> Polarity | None:
    """A name with no opinion of its own followed by a colon takes the verdict after the colon ("High Noon: didn't do
    much for me", "X: loved it"): a list of verdicts is read name by name, never from the verdict on the name before
    (issue 22, r7); words after the colon that judge nothing say no opinion of it ("X: haven't seen it yet"). None
    when no verdict follows (a colon before names: "my faves: X, Y")."""
    verdict = index + 1
    if verdict >= len(clauses) or not clauses[verdict].after_colon or clauses[verdict].entities:
        return None
    if not clauses[verdict].words:
        return None
    found = clauses[verdict].polarity
    return Polarity.NEUTRAL if found is None else found


def _set_against(clauses: list[Clause], index: int) -> Polarity | None:
    """An entity named as a topic set against what came before ("the tusk album though, way too weird for me": its
    clause ends with a bare "though" or "however") takes the opinion said after the marker (issue 22-F), never the
    one before it; None when there is no such marker or no opinion after it."""
    marker = index + 1
    if marker >= len(clauses) or clauses[marker].boundary_before not in ("concession", "contrast"):
        return None
    if clauses[marker].words or clauses[marker].entities:
        return None  # "X though I liked Y": a clause of its own, not a bare marker
    for clause in clauses[marker + 1 :]:
        if clause.entities or clause.boundary_before != "plain":
            break
        if clause.polarity is not None:
            return clause.polarity
    return None


def _after_parts(clauses: list[Clause], k: int, found: Polarity) -> Polarity:
    """The opinion an entity with none of its own takes from clause ``k`` after it, unless ``k`` judges a part of
    it and a contrast after judges another part the other way: the last word is the whole's ("X, the middle part
    dragged but the ending blew me away": a like; issue 22-F)."""
    if not (clauses[k].aspect or clauses[k].degree) or found is Polarity.NEUTRAL:
        return found
    for clause in clauses[k + 1 :]:
        if clause.entities:
            break
        cue = clause.cue
        if clause.boundary_before == "contrast" and cue is not None and cue.polarity not in (found, Polarity.NEUTRAL):
            return cue.polarity
    return found


def _mixed_before(clauses: list[Clause], k: int, found: Polarity) -> bool:
    """Clauses before ``k`` (across plain boundaries, naming no entity) judge the opposite of ``found``:
    mixed judgements ("great voice, boring songs: that's Sam Smith"), asked about, never stored."""
    while clauses[k].boundary_before == "plain" and k > 0:
        k -= 1
        if clauses[k].entities:
            return False
        other = clauses[k].polarity
        if other is not None and other is not Polarity.NEUTRAL and other is not found:
            return True
    return False


def _contradicted(clauses: list[Clause], index: int, masked: str, pos: int) -> bool:
    """The entity's own opinion meets the opposite opinion of a part of it after a contrast ("... but
    the ending was awful") while it is itself only a judgement ("looks great") or about a part
    ("I liked the first half of X"): a mixed reading, asked about. A stated like of the whole ("I
    like it but not the actors") stands."""
    own = clauses[index].cue
    if own is None:
        return False
    part_of = bool(
        re.search(r"\b(?:half|part|start|beginning|end|ending|rest|middle)\s+of\s+(?:the\s+)?$", masked[:pos])
        or POSSESSED_PART.match(masked[pos:])
    )
    if own.strength > EVALUATIVE and not part_of:
        return False
    if part_of and clauses[index].boundary_before == "contrast":
        # "Great live band, but I never liked Muse's albums": the whole judged against one part of it
        for clause in reversed(clauses[:index]):
            if clause.entities:
                break
            cue = clause.cue
            if cue is not None and cue.strength >= EVALUATIVE and cue.polarity not in (own.polarity, Polarity.NEUTRAL):
                return True
    for clause in clauses[index + 1 :]:
        if clause.entities:
            break
        cue = clause.cue
        if (
            clause.boundary_before == "contrast"
            and clause.aspect
            and cue is not None
            and cue.strength >= EVALUATIVE
            and cue.polarity not in (own.polarity, Polarity.NEUTRAL)
        ):
            return True
    return False


def _later_opinion(clauses: list[Clause], index: int) -> Cue | None:
    """The last opinion stated after the entity's clause about the same thing, if it outweighs the
    clause's own: a following clause that names no entity and refers back to it ("X made me cry, I
    loved it"; at least as strong), follows a contrast ("X was slow but brilliant"; stronger, or
    as strong and short: "but I don't like the actors" is about the actors), or is a bare judgement
    going on from it ("X melts my brain, amazing", "messy and wonderful"; stronger, and one as strong
    of the other sign makes the reading mixed). A hedge is outweighed only by an opinion of its own
    lean ("not overrated, it's brilliant"; "better than I expected, still not my thing" stays a
    hedge), except by a stated one referring back ("it was ok, I hated it"). An opinion of a part
    ("but I hated the ending") is not one of the whole. The clause that names the next entity ends
    the search."""
    own = clauses[index].cue
    found = None
    for clause in clauses[index + 1 :]:
        if clause.entities:
            break
        cue = clause.cue
        if cue is None or (clause.aspect and not clause.reference) or clause.boundary_before == "concession":
            continue  # a part of the work, or an aside ("even if it's a bit overplayed")
        current = found or own
        if clause.degree and current is not None and current.polarity is not Polarity.NEUTRAL:
            continue  # "great but way too long": the length does not outweigh the whole
        hedge = own is not None and own.polarity is Polarity.NEUTRAL
        leaning = hedge and own is not None and cue.polarity is own.leaning and cue.polarity is not Polarity.NEUTRAL
        if clause.reference and (own is None or cue.strength >= own.strength or leaning):
            found = cue
        elif clause.predicate and own is None and found is None:
            found = cue  # "read it, great book but way too long": the first judgement after a bare mention
        elif clause.predicate and own is not None:
            if hedge:
                if leaning:
                    found = cue
            elif cue.strength > own.strength:
                found = cue
            elif cue.strength == own.strength and cue.polarity not in (own.polarity, Polarity.NEUTRAL):
                found = Cue(Polarity.NEUTRAL, HEDGED)  # "great, boring though": mixed, ask
        elif clause.boundary_before == "contrast" and (
            own is None
            or leaning
            or (
                not (hedge and own.leaning is not None)
                and (cue.strength > own.strength or (cue.strength == own.strength and clause.words <= 3))
            )
        ):
            found = cue
    return found


SCOPED_NEGATIONS = family("opinion_scope").word_set("scoped_negations")


def scoped_negation(words: list[str]) -> bool:
    """A negation that governs the entity itself ("but not X", "neither X nor Y", "never X again"):
    within two words before a placeholder. A "no" is not one: inside a title ("No Way Home") it is
    masked, elsewhere it is mostly an answer ("no, Inception")."""
    placeholder = PLACEHOLDER.lower()
    for k, w in enumerate(words):
        if w.startswith(placeholder) and any(v in SCOPED_NEGATIONS for v in words[max(0, k - 2) : k]):
            return True
    return False


def discourse_marker(low: str, hedge: tuple[int, int]) -> bool:
    """ "ok"/"okay"/"alright" opening a clause ("ok I love X") is a discourse marker, not a hedge (the match
    ``hedge`` of a hedge pattern in the lowercased ``low``)."""
    word = low[hedge[0] : hedge[1]]
    return word in ("ok", "okay", "alright", "all right", "fine") and not low[: hedge[0]].strip()
