"""Which clause an opinion belongs to, beyond the connectives (issue 22; used by :mod:`nlu.sentiment`).

``nlu.sentiment`` cuts a message into clauses and gives each entity the opinion of its own clause, or
one it inherits across "and" or takes from a later clause that goes on about it. People's chat has
three more kinds of clause that change where an opinion goes; each is read here from the words, which are
data (``nlu/wording/opinion_scope.toml``, issue 24):

- **aspect cues** judge one dimension of a work, its length, pace, volume or exposure ("way too long",
  "a bit slow", "overplayed"): an opinion of the whole outweighs them ("it was great but way too
  long" is a like), alone they still count ("it was way too long");
- **concessions** ("even if", "even though", "although", "though", "despite", "in spite of", "albeit")
  open an aside: it never outweighs the opinion of the clause it qualifies and passes none on ("Can't
  Stop is great, even if it's a bit overplayed" is a like);
- **own subjects**: a clause whose subject is a name the linker did not find ("... but tenet was a
  mess", typed in lower case; the capitalised case is ``nlu.sentiment._names_something``) is about
  that name: its opinion never moves to an entity named before it ("I like Inception and Interstellar
  but Tenet was a mess": Interstellar stays liked, and nothing is said of Tenet if the KB lacks it);
- **refusals**: a clause opening with "no", "without", "nothing by", "none of" governing a name ("no zombie
  movies please", "please nothing by X, can't stand him", "Please no opera though") refuses it: a dislike,
  whatever the rest of the words say ("please" is no liking).

Example:
    >>> degree_phrases("it was great but way too long")
    ['way too long']
    >>> opens_own_subject(" tenet was a mess")
    True
    >>> opens_own_subject(" the ending was a mess")   # a part of the work: about the entity
    False
    >>> refuses(" please no entity0 movies")
    True
"""

from __future__ import annotations

import re

from nlu.wording import family

__all__ = [
    "LIKE_WORD",
    "like_as_preposition",
    "CONCESSIVE_OPENERS",
    "CONCESSIVE_WORDS",
    "EMOJI_BREAK",
    "degree_phrases",
    "opens_concession",
    "opens_own_subject",
    "refuses",
    "refuses_something",
    "states_exception",
    "third_party",
]

_WORDING = family("opinion_scope")
_DEGREE = _WORDING.pattern("degree")
"""Aspect cues (data): a degree of one dimension ("way too long", "a bit slow", "overplayed", "too polished").
"too ... for me" is not one: it says the user's own dislike ("a bit too sad for me")."""

CONCESSIVE_WORDS = _WORDING.word_set("concessive_words")
"""Connectives of ``nlu.sentiment``'s contrast boundaries that open a concession, not a contrast."""
CONCESSIVE_OPENERS = _WORDING.pattern("concession")
"""Words opening a concessive clause after a comma ("..., even if it's a bit overplayed")."""

# A clause's own subject: up to five words of a name (any characters of one) right before one of the subject
# verbs, or before "'s": a structure of the clause, the verbs from the data.
_OWN_SUBJECT = re.compile(
    r"^\W*(?P<subject>[a-z0-9][\w'&.-]*?(?:\s+[a-z0-9][\w'&.-]*?){0,4}?)"
    rf"(?:'s|\s+{_WORDING.alternation('subject_verbs')})\b"
)
_NOT_A_SUBJECT = _WORDING.word_set("not_a_subject")
"""Words that cannot open a name: pronouns, references, discourse words ("honestly it was great")."""
_WORK_WORDS = _WORDING.word_set("work_words")
"""Nouns that make a subject the entity itself or a part of it ("the movie", "the ending", "the film's ending",
"the second half"): the clause is about the entity, not about a name of its own."""
_PLACEHOLDER = re.compile(r"\bentity\d*\b")
# A refusal: the clause opens (after fillers such as "please", "ok") with a refusing word whose object is the
# masked name, a few function words apart at most ("no more of entity0"): the order is the code's, the words data.
_REFUSAL = re.compile(
    rf"^\W*(?:{_WORDING.alternation('refusal_openers')}\W+)*{_WORDING.alternation('refusals')}\s+"
    rf"(?:{_WORDING.alternation('refusal_fillers')}\s+)?entity\d+\b"
)


EMOJI_BREAK = r"(?<=[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0f])\s+(?=[^\W\d_])"
"""Emoji before a new word end a clause, as a full stop does: people type them as punctuation ("X and Y are my faves
💕 Z is a bit too loud for me"); the emoji stays with the clause before."""
_THIRD_PARTY = _WORDING.pattern("third_party")
_EXCEPTION = _WORDING.pattern("exception")


def third_party(clause: str) -> bool:
    """The clause (lower case) opens with someone else as the subject of its opinion ("my kids loved entity0",
    "but everyone raves about it"): their opinion, not the user's, so none of the user's is read in it."""
    return bool(_THIRD_PARTY.match(clause))


def states_exception(clause: str) -> bool:
    """The clause says its entity is the exception to the opinion said before ("entity1 is the exception"): not
    that opinion, and no other stated either (asked about)."""
    return bool(_EXCEPTION.search(clause.lower()))


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


# The same refusal before words the linker did not find ("no pop please" at a card): its object is any word but
# the ones that make "no" an answer or an idiom ("no thanks", "no way", "no i don't", "no it's fine").
_REFUSED_WORD = re.compile(
    rf"^\W*(?:{_WORDING.alternation('refusal_openers')}\W+)*{_WORDING.alternation('refusals')}\s+"
    rf"(?:{_WORDING.alternation('refusal_fillers')}\s+)?(?!{_WORDING.alternation('not_refused')}\b)[a-z0-9]"
)


def refuses(clause: str) -> bool:
    """The clause opens with a refusal of the entity it names ("no entity0 movies please", "please nothing by
    entity0", "and no more entity1"): the user does not want it (a dislike; ``nlu.phrasings.for_this_time`` says
    when it is only for now). A "no" elsewhere is not one ("no wait", "entity0, no", "no doubt entity0 ...").

    Args:
        clause: a clause of a masked message (entities replaced by ``ENTITYn``), connective removed.
    """
    return bool(_REFUSAL.match(clause.lower()))


def refuses_something(folded: str) -> bool:
    """The message opens with a refusal of something, named or not ("no pop please", "nothing by him either",
    "please no country music"): about that thing, never a rating of the card on screen. Not an answer or an
    idiom opened by "no" ("no thanks", "no way", "no, not for me", "no i didn't like it").

    Args:
        folded: the message (after its lead-in), folded to lower case.
    """
    return bool(_REFUSED_WORD.match(folded))


_PERCEPTION_VERBS = _WORDING.word_set("perception_verbs")
_SUCH_AS_NOUNS = _WORDING.word_set("such_as_nouns")
LIKE_WORD = re.compile(r"\blikes?\b")
_DEGREE_BEFORE_LIKE = frozenset({"just", "more", "much", "really", "almost", "exactly", "bit", "little", "a", "kinda"})
_WORDS = re.compile(r"[a-z']+")


def like_as_preposition(low: str, start: int) -> bool:
    """ "like" at ``start`` of the lower-case ``low`` after a verb of perception or seeming ("it felt like a slog",
    "sounds a bit like filler") compares, and after a plural noun of works ("westerns like Shane") it means "such
    as": it is no verb of liking, so no opinion cue (issue 22, fifth round)."""
    if not LIKE_WORD.match(low, start):
        return False
    before = _WORDS.findall(low[:start])[-4:]
    while before and before[-1] in _DEGREE_BEFORE_LIKE:
        before.pop()
    if before and before[-1] in _SUCH_AS_NOUNS:
        return True  # "westerns like Shane bore me": "such as"
    return bool(before) and (before[-1] in _PERCEPTION_VERBS or " ".join(before[-2:]) in _PERCEPTION_VERBS)
