"""Which clause an opinion belongs to, beyond the connectives (issue 22; used by :mod:`nlu.sentiment`).

``nlu.sentiment`` cuts a message into clauses and gives each entity the opinion of its own clause, or
one it inherits across "and" or takes from a later clause that goes on about it. People's chat has
three more kinds of clause that change where an opinion goes; each is read here from the words, as data:

- **aspect cues** judge one dimension of a work, its length, pace, volume or exposure ("way too long",
  "a bit slow", "overplayed"): an opinion of the whole outweighs them ("it was great but way too
  long" is a like), alone they still count ("it was way too long");
- **concessions** ("even if", "even though", "although", "though", "despite", "in spite of", "albeit")
  open an aside: it never outweighs the opinion of the clause it qualifies and passes none on ("Can't
  Stop is great, even if it's a bit overplayed" is a like);
- **own subjects**: a clause whose subject is a name the linker did not find ("... but tenet was a
  mess", typed in lower case; the capitalised case is ``nlu.sentiment._names_something``) is about
  that name: its opinion never moves to an entity named before it ("I like Inception and Interstellar
  but Tenet was a mess": Interstellar stays liked, and nothing is said of Tenet if the KB lacks it).

Example:
    >>> degree_phrases("it was great but way too long")
    ['way too long']
    >>> opens_own_subject(" tenet was a mess")
    True
    >>> opens_own_subject(" the ending was a mess")   # a part of the work: about the entity
    False
"""

from __future__ import annotations

import re

__all__ = ["CONCESSIVE_OPENERS", "CONCESSIVE_WORDS", "degree_phrases", "opens_concession", "opens_own_subject"]

_DEGREE_ADJECTIVES = (
    "long|short|slow|fast|quick|loud|quiet|soft|late|early|polished|mainstream|commercial|poppy|glossy|busy"
    "|wordy|dense|much|many|repetitive|predictable|simple|complicated|complex|niche|old|young|cheesy|sweet|dark"
    "|violent|gory|sad|heavy|weird|strange|artsy|experimental|noisy|clean|safe|hyped"
)
_DEGREE = re.compile(
    r"\b(?:(?:way|far|much|a\s+bit|a\s+little|a\s+tad|slightly|kinda|kind\s+of|sort\s+of|somewhat|just|maybe"
    r"|perhaps|probably|bit)\s+)*too\s+(?:" + _DEGREE_ADJECTIVES + r")\b(?!\s+for\s+(?:me|my|us|our))"
    r"|\b(?:over-?played|over-?long|lengthy|long-winded|drawn[\s-]out|drags?(?:\s+on)?|dragged(?:\s+on)?)\b"
    r"|\b(?:(?:a\s+bit|a\s+little|a\s+tad|slightly|kinda|kind\s+of|sort\s+of|somewhat|rather|quite|pretty)\s+)"
    r"(?:long|slow|loud|short)\b"
)
"""Aspect cues (data): a degree of one dimension ("way too long", "a bit slow", "overplayed", "too polished").
"too ... for me" is not one: it says the user's own dislike ("a bit too sad for me")."""

CONCESSIVE_WORDS = frozenset({"although", "though"})
"""Connectives of ``nlu.sentiment``'s contrast boundaries that open a concession, not a contrast."""
CONCESSIVE_OPENERS = re.compile(
    r"^\W*(?:even\s+(?:if|though|when|so)|despite|in\s+spite\s+of|albeit|granted|admittedly)\b", re.IGNORECASE
)
"""Words opening a concessive clause after a comma ("..., even if it's a bit overplayed")."""

_SUBJECT_VERBS = (
    r"was|is|were|are|sucks|sucked|slaps|slapped|rocks|rocked|rules|ruled|bores|bored|felt|feels|seemed|seems"
    r"|sounds|sounded|looks|looked|gets|got|has\s+been|had\s+been|wasn't|wasnt|isn't|isnt|weren't|werent|aren't|arent"
)
_OWN_SUBJECT = re.compile(
    r"^\W*(?P<subject>[a-z0-9][\w'&.-]*?(?:\s+[a-z0-9][\w'&.-]*?){0,4}?)(?:'s|\s+(?:" + _SUBJECT_VERBS + r"))\b"
)
_NOT_A_SUBJECT = frozenset(
    """it it's its this that that's thats these those he she they them him her i i'm im we you u there here which who
    what whatever everything nothing anything something all both either neither each one ones mine yours ours theirs
    his hers their our my your so then also just really honestly tbh imo btw still overall yeah yes no nah ok okay
    well oh and but or though although plus too""".split()
)
"""Words that cannot open a name: pronouns, references, discourse words ("honestly it was great")."""
_WORK_WORDS = frozenset(
    """movie film book novel song track album record series show band artist one story plot ending end rest acting
    cast music soundtrack lyrics writing prose characters character dialogue visuals effects pacing beginning start
    middle voice vocals songs production premise execution script direction chorus beat melody director author singer
    actor actress lead half act part chapter season episode""".split()
)
"""Nouns that make a subject the entity itself or a part of it ("the movie", "the ending", "the film's ending",
"the second half"): the clause is about the entity, not about a name of its own."""
_PLACEHOLDER = re.compile(r"\bentity\d*\b")


def degree_phrases(clause: str) -> list[str]:
    """The aspect cues of ``clause`` (lower case), in order: "way too long", "overplayed"."""
    return [m.group(0) for m in _DEGREE.finditer(clause.lower())]


def without_degrees(clause: str) -> str:
    """``clause`` (lower case) with its aspect cues blanked, to see what opinion is left."""
    return _DEGREE.sub(lambda m: " " * len(m.group(0)), clause.lower())


def opens_concession(clause: str) -> bool:
    """The clause opens with a concessive ("even if it's a bit overplayed", "despite the ending")."""
    return bool(CONCESSIVE_OPENERS.match(clause))


def opens_own_subject(clause: str) -> bool:
    """The clause opens with a subject of its own that names something, not an entity placeholder, a
    pronoun, a reference to the entity or a part of it ("tenet was a mess", "the remake is garbage",
    "my brother is a huge fan"; not "it was a mess", "the ending was a mess", "this one is great").

    Args:
        clause: a clause of a masked message (entities replaced by ``ENTITYn``), connective removed.
    """
    low = clause.lower().strip()
    match = _OWN_SUBJECT.match(low)
    if match is None:
        return False
    subject = match.group("subject").strip(" .,'")
    words = subject.split()
    if not words or _PLACEHOLDER.search(subject) or words[0] in _NOT_A_SUBJECT:
        return False
    if any(w.removesuffix("'s").removesuffix("s") in _WORK_WORDS or w in _WORK_WORDS for w in words):
        return False
    return not all(w in _NOT_A_SUBJECT for w in words)
