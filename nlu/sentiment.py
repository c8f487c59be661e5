"""Polarity of each mentioned entity, not of the whole message (issue 5; field cases F21, F23, F24).

Method, per message:

1. **Apostrophes** ’ ‘ ʼ ′ ´ are mapped to ``'`` (length-preserving, so spans stay valid): F21.
2. **Masking.** Each entity span is replaced by a neutral placeholder before anything is scored,
   so the words of "Die Hard", "Bad Boys", "Happy Feet", "Good Will Hunting" carry no opinion (F24).
3. **Clauses.** The masked text is cut at sentence punctuation, commas, semicolons and the
   connectives "and", "or", "nor", "but", "however", "although", "though", "whereas", "while",
   "except" (F23). "but"/"however"/... are *contrast* boundaries, the others *plain* ones.
4. **Cues per clause.** Likes/dislikes phrases decide first: positive ("like", "love", "enjoy",
   "adore", "fan of", "favourite", "prefer", "into" ...), negative ("hate", "dislike",
   "can't stand", "detest", "sick of" ...); a negation ("not", "n't", "never", "no", "don't",
   "dont", "nor", "neither", "without" ...) within three words before the cue flips it ("I don't
   like", "not a fan of", "I don’t like"); a negation before the cue's subject does not count
   ("No, I dislike it", "No I like it"). A clause with a negation and no cue ("but not X") is
   negative, unless it only says the entity was not seen/read/heard ("I haven't seen it").
   Otherwise VADER's compound score of the masked clause decides (>= 0.05 positive, <= -0.05
   negative), without the verbs of what the user did ("played", "watched": VADER scores "played"
   as positive), and never in a clause saying what the user did with the entity ("I read X on
   holiday": no opinion, asked about). A clause with none of these has *no cue*. A clause with a
   capitalised word not opening a sentence names something the linker does not know ("... but hate
   Raditude", "X is overplayed but Perfect is lovely"): its opinion is about that name.
   Hedges (issue 12, F22): the lexicon's ("meh", "it was ok", "less so") and mild comparisons ("less
   bad than", "slightly better than", "wasn't as good as") are ``Polarity.NEUTRAL``, never a strong
   opinion; litotes and beaten expectations ("not overrated", "isn't bad at all", "better than I
   expected") lean to a like, which a like said next confirms ("..., it's brilliant").
5. **Scope.** An entity takes the polarity of its own clause; a clause with no cue inherits from
   the nearest clause before it across plain boundaries ("I love X and Y"), else from the nearest
   clause after it across plain boundaries ("X and Y are great"); nothing is inherited across a
   contrast boundary, except that a short clause after a contrast takes the opposite of the clause
   before it ("I like everything except Titanic", "I like Titanic but Avatar"). Inherited
   judgements of both signs ("Great premise, boring execution, that's Station Eleven for me") are
   mixed: ``Polarity.NEUTRAL``. A later clause outweighs the entity's own reading when it refers
   back ("X made me cry, I loved it"), follows a contrast ("X was slow but brilliant") or is a bare
   judgement going on from it ("X haunted me for weeks, what a film", "messy and wonderful"); an
   opinion of a part ("but I hated the ending") is not one of the whole. Only a bare list item
   borrows a later subject's predicate ("X and Y are great"). The standard of a comparison ("as good
   as Y", "less bad than Y") has no opinion (:meth:`SentimentRecognizer.comparison_standards`: the
   dialog neither stores nor asks about it), unless presupposed ("even better than Y": good). Chat's own
   scoping (``nlu.opinion_scope``, issue 22): an aspect cue ("way too long") never outweighs an opinion of
   the whole, a concession ("even if it's overplayed") is an aside, and a clause whose subject is a name
   the linker did not find ("... but tenet was a mess") keeps its opinion, a clause opening with a refusal of a
   name ("please no opera", "nothing by X") dislikes it; a one-word cue typed with a
   slip of the keyboard is read as that cue ("giid": ``nlu.cue_spelling``). Still nothing:
   ``Polarity.NEUTRAL`` ("I watched Inception"), which the
   dialog manager confirms with a yes/no question instead of guessing.

Whole messages about the item on screen ("I don't like it", "Dislike", "No"):
:meth:`SentimentRecognizer.message_polarity` (the first reference "it"/"this movie" is scored as
the entity; else the first clause with a cue; a bare yes/no answer counts). Misspelt cues are read only
in opinions about named titles ("X and Y were giid"), not in these answers: "Likr" at a card stays
unclear, as the released study's agent read it.

VADER: Hutto & Gilbert, "VADER: A Parsimonious Rule-based Model for Sentiment Analysis of Social
Media Text", ICWSM 2014 (package ``vaderSentiment``).

Example:
    >>> s = SentimentRecognizer()
    >>> text = "I like Stephen King, but I don't like The Shining"
    >>> s.polarities(text, [(7, 19), (38, 49)])
    (<Polarity.POSITIVE: '+'>, <Polarity.NEGATIVE: '-'>)
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from pathlib import Path

from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

from nlu import sentiment_lexicon as lex
from nlu.cue_spelling import CueSpeller
from nlu.errors import NluError
from nlu.opinion_clauses import (
    EVALUATIVE,
    HEDGED,
    PLACEHOLDER,
    STATED,
    VADER,
    Clause,
    Cue,
    Polarity,
    after_than,
    discourse_marker,
    fix_mojibake,
    judged_through_a_part,
    mask,
    presupposed,
    resolve,
    scoped_negation,
)
from nlu.opinion_hedge import unhedged
from nlu.opinion_scope import (
    CONCESSIVE_WORDS,
    EMOJI_BREAK,
    LIKE_WORD,
    degree_phrases,
    like_as_preposition,
    opens_concession,
    opens_own_subject,
    refuses,
    states_exception,
    third_party,
    without_degrees,
)
from nlu.textnorm import repair_contractions
from nlu.turn_cues import retracts
from nlu.wording import family, phrase_regex

logger = logging.getLogger(__name__)

__all__ = ["Polarity", "SentimentRecognizer", "VADER_THRESHOLD"]

VADER_THRESHOLD = 0.05
"""|compound| at or above which VADER's score of a clause counts (Hutto & Gilbert's own cut-off)."""
MAX_LEANING_WORDS = 3
"""A hedge of at most this many words answers "Do you like it?" with its lean ("meh", "not bad": issue 22-F)."""
NEGATION_WINDOW = 3
"""A negation this many words (or fewer) before a cue flips it."""

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u2032": "'", "\u00b4": "'", "`": "'"})

_SCOPE = family("opinion_scope")
_CUES = family("opinion_cues")
_HEDGED = family("hedges")
# Clauses end at sentence signs, commas, semicolons, new lines and the connectives of the data; a colon before
# lowercase words ends a clause ("great voice, boring songs: that's X"), one inside a title ("Spider-Man: No Way
# Home") does not: the signs are the structure, the connectives data.
_SPLIT = re.compile(
    rf"(?P<punct>[.;!?]+(?:\s|$)|:(?=\s+(?-i:[a-z]))|,|\n|{EMOJI_BREAK})"
    rf"|\b(?P<contrast>{_SCOPE.alternation('contrast')})\b|\b(?P<plain>{_SCOPE.alternation('plain')})\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[a-z']+|" + PLACEHOLDER.lower() + r"\d*")

_NEGATIONS = _SCOPE.word_set("negations")
_REFERENCE = _SCOPE.pattern("reference")
"""A reference to the item being discussed ("it", "this movie"), for :meth:`SentimentRecognizer.message_polarity`."""
_YES_ANSWERS = _SCOPE.word_set("yes_answers")
_NO_ANSWERS = _SCOPE.word_set("no_answers")
_EXPERIENCE_VERBS = _SCOPE.word_set("experience_verbs")
"""Not having seen/read/heard something is no opinion about it ("I haven't seen it")."""
_SUBJECTS = _SCOPE.word_set("subjects")
"""A negation before the subject of the cue's clause does not negate the cue ("No I dislike it")."""
_INTENSIFIER_NEGATIONS = _SCOPE.word_set("intensifiers")


class SentimentRecognizer:
    """Per-entity polarity with clause scoping, entity masking, negation and an opinion lexicon.

    Stateless after construction (the VADER analyser is built once); thread-safe for reading. ``models``: the
    folder of the stored hedge reader (``<models>/hedge/``, :mod:`nlu.opinion_hedge`); None: fitted at first use.
    """

    def __init__(self, models: Path | None = None) -> None:
        self._models = models
        self._vader = SentimentIntensityAnalyzer()
        self._cues = [
            (phrase_regex(lex.STATED_NEGATIVE), Polarity.NEGATIVE, STATED),
            (phrase_regex(lex.STATED_POSITIVE), Polarity.POSITIVE, STATED),
            (phrase_regex(lex.EVALUATIVE_NEGATIVE), Polarity.NEGATIVE, EVALUATIVE),
            (phrase_regex(lex.EVALUATIVE_POSITIVE), Polarity.POSITIVE, EVALUATIVE),
        ]
        self._hedges = phrase_regex(lex.HEDGES)
        self._descriptive = phrase_regex(lex.DESCRIPTIVE)
        groups = (lex.STATED_POSITIVE, lex.STATED_NEGATIVE, lex.EVALUATIVE_POSITIVE, lex.EVALUATIVE_NEGATIVE)
        signs = {w: "+" for w in (*lex.STATED_POSITIVE, *lex.EVALUATIVE_POSITIVE)}
        signs.update({w: "-" for w in (*lex.STATED_NEGATIVE, *lex.EVALUATIVE_NEGATIVE) if w not in signs})
        self._speller = CueSpeller((w for group in groups for w in group), signs=signs)  # "giid" -> "good" (issue 22)

    def polarities(self, text: str, spans: Sequence[tuple[int, int]], *, respell: bool = True) -> tuple[Polarity, ...]:
        """Polarity of each entity span of ``text``.

        Args:
            text: the message as typed (the spans' offsets refer to it).
            spans: ``(start, end)`` character offsets of the mentioned entities (e.g. from
                ``Mention.start``/``Mention.end``); overlapping or out-of-range spans are clipped.
            respell: read a misspelt one-word cue as the cue ("giid": ``nlu.cue_spelling``).

        Returns:
            One :class:`Polarity` per span, in the order given.

        Raises:
            NluError: if a span is malformed (start > end or negative).
        """
        text, spans = fix_mojibake((text or "").translate(_APOSTROPHES), spans)
        for start, end in spans:
            if start < 0 or end < start:
                raise NluError(f"bad entity span ({start}, {end}) for a text of {len(text)} characters")
        masked, positions = mask(text, spans)
        clauses = self._clauses(masked, respell=respell)
        out = []
        for pos in positions:
            index = next((i for i, c in enumerate(clauses) if c.start <= pos < c.end), len(clauses) - 1)
            if not clauses:
                out.append(Polarity.NEUTRAL)
            elif judged_through_a_part(masked, clauses[index], pos):
                out.append(Polarity.NEUTRAL)  # "the music in X is gorgeous": a part judged, X asked about
            elif after_than(masked, clauses[index], pos):
                # "better than Tenet": a comparison, not an opinion of Tenet; "even better than Parasite" says both are good
                out.append(presupposed(masked[clauses[index].start : pos]))
            else:
                out.append(unhedged(resolve(clauses, index, masked, pos), clauses, index, masked, models=self._models))
        return tuple(out)

    def message_polarity(self, text: str) -> Polarity:
        """Polarity of a whole message about the item being discussed (the one on screen).

        For messages that name no entity and refer to the focus item: "I don't like it", "I love this
        movie", "Dislike", "not for me", "I like it but I don't like the actors".

        Method: the first reference to the item ("it", "this", "that", "this/the movie|film|book|
        song|album|one|track|record|series|novel") is taken as the entity span and scored with
        :meth:`polarities` (so "I like it but I don't like the actors" is positive about *it*). With
        no reference, the first clause that has a cue decides ("Dislike", "I like but the ending
        is bad"); a bare "yes"/"no"-style answer ("Yes", "No", "nope", "not really") to "did you
        like it?" counts as positive/negative. Otherwise ``Polarity.NEUTRAL``.

        Args:
            text: the message as typed.

        Returns:
            The message's :class:`Polarity` about the focus item.
        """
        text = repair_contractions((text or "").translate(_APOSTROPHES))
        match = _REFERENCE.search(text)
        if match is not None:
            # a misspelt verb of the item ("lovd it") is read when it refers to it; "Likr" alone stays unclear
            own_object = _OWN_OBJECT.search(text) is not None
            said = self.polarities(text, [(match.start(), match.end())], respell=own_object)[0]
            if said is not Polarity.NEUTRAL:
                return said
        # a hedge yields to an opinion said after it ("meh. not really for me"); past a reference read as a hedge,
        # only to a stated one of the whole ("read it, meh, not my cup of tea"; not "it was ok, the cast was great")
        cues = [
            c.cue
            for c in self._clauses(text, respell=False)
            if c.cue is not None and (match is None or (c.cue.strength >= STATED and not c.aspect))
        ]
        stated = next((cue.polarity for cue in cues if cue.polarity is not Polarity.NEUTRAL), None)
        if stated is not None:
            return stated
        if cues or match is not None:
            return self._lean(text)
        answer = " ".join(_WORD.findall(text.lower()))
        if answer in _YES_ANSWERS:
            return Polarity.POSITIVE
        if answer in _NO_ANSWERS:
            return Polarity.NEGATIVE
        return Polarity.NEUTRAL

    def leans(self, text: str) -> bool:
        """The message holds a hedge of the data that leans one way ("meh", "nothing special", "not bad": issue
        22-F), which answers "Do you like it?" at a card; a shrug of interest ("not my thing") is none."""
        low = repair_contractions((text or "").translate(_APOSTROPHES)).lower()
        return bool(_LEANS_POSITIVE.search(low) or _LEANS_NEGATIVE.search(low))

    def _lean(self, text: str) -> Polarity:
        """The lean of a short litotes answering "Do you like it?" ("not bad, i've seen it": issue 22-F), else
        NEUTRAL; a longer one stays a hedge ("Not the worst film I've seen"), and so does a shrug ("meh", "read it,
        meh": no dislike said, asked about or passed over, issue 22)."""
        if not self.leans(text):
            return Polarity.NEUTRAL  # only the hedges of the data lean so ("didn't hate it" stays a hedge)
        low = repair_contractions((text or "").translate(_APOSTROPHES)).lower()
        if _LEANS_POSITIVE.search(low) and _LEANS_NEGATIVE.search(low):
            return Polarity.NEUTRAL  # "not bad, not amazing either": leaning both ways is the middle, asked about
        for clause in self._clauses(text, respell=False):
            cue = clause.cue
            if cue is not None and cue.leaning is Polarity.POSITIVE and clause.words <= MAX_LEANING_WORDS:
                return cue.leaning
        return Polarity.NEUTRAL

    def states_opinion(self, text: str, spans: Sequence[tuple[int, int]]) -> bool:
        """True if the message says something about the entities at ``spans``: an opinion cue of
        any strength or a hedge in some clause ("X is great", "X bored me", "X was okay"), or that
        the user watched/read/heard one ("I watched X": no opinion yet, but a preference to ask
        about). Entity words are masked first, as in :meth:`polarities` ("I watched Good Will
        Hunting" has no cue of its own).

        Args:
            text: the message as typed; spans: the entity spans (offsets into ``text``).
        """
        text, spans = fix_mojibake((text or "").translate(_APOSTROPHES), spans)
        if not spans:
            return False
        masked, _positions = mask(text, spans)
        if any(c.cue is not None for c in self._clauses(masked)) or self._descriptive.search(masked.lower()):
            return True  # a cue, a hedge, or a description of the effect ("X made me sob")
        words = _WORD.findall(masked.lower())
        if len(words) > 1 and words[0].startswith(PLACEHOLDER.lower()) and words[1] in _SUBJECT_PREDICATES:
            return True  # "Sigur Rós are otherworldly", "The Cure got me through my teens"
        return any(w in _EXPERIENCE_VERBS for w in words)

    def has_cue(self, text: str, *, strong: bool = False, respell: bool = True) -> bool:
        """True if ``text`` holds an opinion cue of the lexicon or one of its phrase patterns ("loved it",
        "mid", "not my style", "too weird for me", "could watch it again"), VADER's score left out: the
        message states an opinion ("no thanks" does not, though VADER scores "thanks"), or a hedge ("it's ok
        i guess"). With ``strong``, only a stated or judging word of the lexicon counts ("hated", "boring",
        "mid"), not a lack of interest ("not my thing", "not for me") nor a hedge ("meh"). Without ``respell``,
        a misspelt cue ("giid") does not count."""
        low = repair_contractions((text or "").translate(_APOSTROPHES)).lower()
        low = self._speller.respell(low) if respell else low
        if strong:
            shrug = [m.span() for m in _NOT_FOR_ME.finditer(low)]
            judged = any(not any(a <= f[0] and f[1] <= b + 1 for a, b in shrug) for f in self._matches(low))
            return judged or bool(_TOO_FOR_ME.search(low))  # "too poppy for me" judges, "not for me" declines
        patterns = (self._hedges, _NOT_FOR_ME, _TOO_FOR_ME, _WOULD_AGAIN)
        return bool(self._matches(low)) or any(p.search(low) for p in patterns)

    def comparison_standards(self, text: str, spans: Sequence[tuple[int, int]]) -> tuple[bool, ...]:
        """Per span: True when the entity is only the standard a comparison measures another by ("Glass
        Onion wasn't as good as Knives Out", "X is less bad than Y", "slightly better than Y"): no
        opinion of it was said, so the dialog neither stores it nor asks about it. A standard the
        comparison presupposes good or bad ("even better than Parasite") is not one: it has a polarity.

        Args:
            text: the message as typed; spans: the entity spans (offsets into ``text``).
        """
        text, spans = fix_mojibake((text or "").translate(_APOSTROPHES), spans)
        masked, positions = mask(text, spans)
        clauses = self._clauses(masked)
        out = []
        for pos in positions:
            clause = next((c for c in clauses if c.start <= pos < c.end), None)
            out.append(
                clause is not None
                and after_than(masked, clause, pos)
                and presupposed(masked[clause.start : pos]) is Polarity.NEUTRAL
            )
        return tuple(out)

    def clause_polarity(self, clause: str) -> Polarity | None:
        """Polarity of one (already masked) clause, or None when it has no cue (see module docstring)."""
        cue = self._clause_cue(clause)
        return None if cue is None else cue.polarity

    # ------------------------------------------------------------------ internals
    def _clause_cue(self, clause: str, *, respell: bool = True) -> Cue | None:
        low = clause.lower().translate(_APOSTROPHES)
        low = self._speller.respell(low) if respell else low
        words = _WORD.findall(low)
        found = self._matches(low)
        if refuses(low):
            return Cue(Polarity.NEGATIVE, STATED)  # "no zombie movies please", "please nothing by X"
        if retracts(low):
            return None  # "scratch what i said about X", "i never said i liked X": a take-back, no opinion of X
        if third_party(low):
            return None  # "my kids loved X": their opinion, not the user's (issue 22)
        verdict = _verdict_after_name(words)
        if verdict is not None:
            return Cue(verdict, EVALUATIVE)  # "Jaws yes, Titanic no", "Prometheus not at all"
        if (nothing := _NOTHING_LIKE.search(low)) is not None:
            # "no one sings like X", "nothing beats X": X is the best; "no book has bored me like X": the worst
            between = [f for f in found if nothing.start() <= f[0] < nothing.end() and f[2] is Polarity.NEGATIVE]
            return Cue(Polarity.NEGATIVE if between else Polarity.POSITIVE, STATED)
        if _TOO_FOR_ME.search(low) or _NOT_FOR_ME.search(low):
            return Cue(Polarity.NEGATIVE, STATED)  # "too weird for me", "wasn't for me", "isn't really my thing"
        if (again := _WOULD_AGAIN.search(low)) is not None:
            # "I could watch X a hundred times", "I'd read X again"; "I would never watch X again"
            negated = again.group("never") or again.group("modal").endswith(("n't", "nt"))
            return Cue(Polarity.NEGATIVE if negated else Polarity.POSITIVE, STATED)
        hedges = [(m.start(), m.end()) for m in self._hedges.finditer(low) if not discourse_marker(low, m.span())]
        softened = self._softened_dislike(low, found, hedges)
        if softened is not None:
            return softened  # "X kinda annoys me": criticism said politely is still a dislike (issue 22-F)
        if hedges or _COMPARATIVE_HEDGE.search(low):
            # a hedge weakens even a stated cue of its clause ("I kind of liked X", "I guess I like X");
            # so does a mild comparison ("less bad than", "slightly better than", "not as good as")
            return Cue(Polarity.NEUTRAL, HEDGED, _leaning(low))
        for level in (STATED, EVALUATIVE):
            cues = [f for f in found if f[3] == level]
            if cues:
                start, _end, polarity, _ = max(cues, key=lambda f: (f[0], f[1] - f[0]))
                negated = self._negate(low, start, polarity)
                if polarity is Polarity.NEGATIVE and negated is Polarity.POSITIVE:
                    # "I didn't hate it", "not overrated": no strong like, but one a later "it's brilliant" confirms
                    return Cue(Polarity.NEUTRAL, HEDGED, Polarity.POSITIVE)
                return Cue(negated, level)
        if not words:
            return None
        if scoped_negation(words) and not any(w in _EXPERIENCE_VERBS for w in words):
            return Cue(Polarity.NEGATIVE, EVALUATIVE)  # "but not The Shining", "neither X" (not "I haven't seen X")
        # a mid-clause "no" is mostly part of a title or an idiom ("No Way Home", "no idea"), not an opinion
        if self._descriptive.search(low):
            return None  # "made me cry", "tense", "devastating": the content, not an opinion of it
        if any(w in _EXPERIENCE_VERBS for w in words) and any(w.startswith(PLACEHOLDER.lower()) for w in words):
            # "I read X on holiday", "I heard X on the radio today": what the user did, not how it was (VADER
            # scores "holiday", "party", "friends" as positive); asked about, never stored
            return None
        plain = _MID_NO.sub(" ", low)
        plain = LIKE_WORD.sub(lambda m: " " if like_as_preposition(plain, m.start()) else m.group(), plain)
        # "played", "watched", "read" say what the user did, not how it was (VADER scores "played" +1.4)
        plain = " ".join(w for w in plain.split() if w.strip(".,!?;:") not in _EXPERIENCE_VERBS)
        compound = self._vader.polarity_scores(plain)["compound"]
        if compound >= VADER_THRESHOLD:
            return Cue(Polarity.POSITIVE, VADER)
        if compound <= -VADER_THRESHOLD:
            return Cue(Polarity.NEGATIVE, VADER)
        return None

    def _softened_dislike(
        self, low: str, found: list[tuple[int, int, Polarity, float]], hedges: list[tuple[int, int]]
    ) -> Cue | None:
        """A dislike only softened ("kinda annoys me", "sort of boring"): every hedge of the clause is a softener of
        the data and its strongest cue is a plain (unnegated) dislike; a like so softened stays a hedge ("I kind of
        liked X")."""
        if not hedges or any(low[a:b] not in _SOFTENERS for a, b in hedges) or _COMPARATIVE_HEDGE.search(low):
            return None
        for level in (STATED, EVALUATIVE):
            cues = [f for f in found if f[3] == level]
            if cues:
                start, _end, polarity, _ = max(cues, key=lambda f: (f[0], f[1] - f[0]))
                negated = self._negate(low, start, polarity)
                plain_dislike = polarity is Polarity.NEGATIVE and negated is Polarity.NEGATIVE
                return Cue(Polarity.NEGATIVE, EVALUATIVE) if plain_dislike else None
        return None

    def cue_spans(self, text: str) -> list[tuple[int, int]]:
        """Spans (character offsets of ``text``) of the lexicon's opinion cues in it ("a banger", "not my cup of
        tea"): words that judge, which a caller may keep from being read as a title (issue 22-H)."""
        return [(a, b) for a, b, _p, _l in self._matches(text.lower().translate(_APOSTROPHES))]

    def _matches(self, low: str) -> list[tuple[int, int, Polarity, float]]:
        """Every cue match, minus those inside a longer match ("sick" inside "sick of")."""
        found = [
            (m.start(), m.end(), polarity, level)
            for pattern, polarity, level in self._cues
            for m in pattern.finditer(low)
        ]
        return [
            f
            for f in found
            if not any(g is not f and g[0] <= f[0] and f[1] <= g[1] and g[1] - g[0] > f[1] - f[0] for g in found)
            and not like_as_preposition(low, f[0])
        ]

    def _negate(self, low: str, start: int, polarity: Polarity) -> Polarity:
        """``polarity`` flipped when a negation stands within :data:`NEGATION_WINDOW` words before the cue; a cue
        that is a sign ("🤮", "10/10") is a reaction of its own, never negated ("ew no 🤮")."""
        if not low[start : start + 1].isalpha():
            return polarity
        if polarity is Polarity.NEGATIVE and re.match(r"(?:do\s+)?not\s+(?:like|for|my)|dont\s+like", low[start:]):
            return Polarity.NEGATIVE  # already a negated phrase
        before = _WORD.findall(low[:start])
        subject = max((k for k, w in enumerate(before) if w in _SUBJECTS), default=-1)
        before = before[subject + 1 :]  # "No, I dislike it": an answer's "no" does not negate the verb
        before = [w for w in before if not w.startswith(PLACEHOLDER.lower())]  # a "no" inside a title never negates
        window = [w for w in before[-(NEGATION_WINDOW + 2) :] if w not in _INTENSIFIER_NEGATIONS][-NEGATION_WINDOW:]
        if any(w in _NEGATIONS or w.endswith("n't") for w in window):
            return Polarity.NEGATIVE if polarity is Polarity.POSITIVE else Polarity.POSITIVE
        return polarity

    def _clauses(self, masked: str, *, respell: bool = True) -> list[Clause]:
        spans: list[tuple[int, int, str, bool, bool]] = []
        start, boundary, opens = 0, "start", True  # opens: the clause opens a sentence (capitals name nothing)
        colon = False  # the clause opens after a colon: a verdict on the name before it ("X: loved it")
        # a hedge with a connective inside ("hit or miss", "I can take or leave X") is one judgement, not two clauses
        whole = [m.span() for m in self._hedges.finditer(masked.lower().translate(_APOSTROPHES))]
        for match in _SPLIT.finditer(masked):
            if any(a < match.start() and match.end() < b for a, b in whole):
                continue
            spans.append((start, match.start(), boundary, opens, colon))
            contrast = match.group("contrast")
            boundary = "plain" if not contrast else "concession" if contrast.lower() in CONCESSIVE_WORDS else "contrast"
            opens = bool(match.group("punct")) and match.group("punct").strip() not in (",", ":")
            colon = (match.group("punct") or "").strip() == ":"
            start = match.end()
        spans.append((start, len(masked) + 1, boundary, opens, colon))
        out = []
        placeholder = PLACEHOLDER.lower()
        for a, b, kind, opens, colon in spans:
            piece = masked[a:b]
            words = _WORD.findall(piece.lower())
            named = (
                any(w.startswith(placeholder) for w in words)
                or _names_something(piece, opens_sentence=opens)
                or opens_own_subject(piece)  # "... but tenet was a mess": about a name the linker did not find
            )
            own_words = [w for w in words if not w.startswith(placeholder)]
            kind = "concession" if kind != "start" and opens_concession(piece) else kind
            cue = self._clause_cue(piece, respell=respell)
            out.append(
                Clause(
                    a,
                    b,
                    kind,
                    cue,
                    short=len(own_words) <= 1,
                    entities=named,
                    reference=bool(_BACK_REFERENCE.search(piece)),
                    words=len(own_words),
                    aspect=bool(_ASPECT.search(piece)),
                    exception=states_exception(piece),
                    after_colon=colon,
                    predicate=(
                        kind == "plain"
                        and not named
                        and 0 < len(own_words) <= 4
                        and own_words[0] not in _SUBJECTS
                        and not _BACK_REFERENCE.search(piece)
                    ),
                    degree=(
                        cue is not None
                        and cue.polarity is not Polarity.NEUTRAL
                        and bool(degree_phrases(piece))
                        and self._clause_cue(without_degrees(piece), respell=respell) is None
                    ),
                )
            )
        return out


_BACK_REFERENCE = _SCOPE.pattern("back_reference")
_ASPECT = _SCOPE.pattern("aspect")
"""A part of a work ("the story", "the ending"): an opinion of it is not an opinion of the whole."""
"""A clause that names no entity but refers back to one ("I loved it", "the film is a masterpiece")."""
_SUBJECT_PREDICATES = _SCOPE.word_set("subject_predicates")
"""A verb after a named subject that opens the message: the message says something about it."""
# The structures below place the data's words around an entity placeholder ("ENTITY's albums", "nothing beats
# ENTITY"), after a negation glued to its verb ("wasn't") or a few words apart ("I'd watch it again"): what
# comes before and after the entity is the code's, the words are data.
_NOTHING_LIKE = re.compile(
    r"\b(?:no one|nobody|nothing|none|no other \w+|no (?!(?:i|we|you|it|not|way|idea)\b)[a-z]+)\b.{0,30}\b"
    rf"{_CUES.alternation('extremes')}\s+(?:the\s+)?entity"
)
"""X as the extreme of its kind: "nothing beats X", "no one sings like X" (the best), "no book has bored me like X"
(the worst: the sign of the verb in between)."""
_NEGATED = r"(?:\bnot|n't|\bisnt|\bwasnt|\barent|\bwerent|\baint)\s+"
"""A negation, also glued to its verb ("wasn't"), before the words it negates."""
_NOT_FOR_ME = re.compile(_NEGATED + f"(?:{_CUES.source('not_for_me', after_lead=True)})")
_WOULD_AGAIN = re.compile(
    rf"\b(?P<modal>{_CUES.alternation('modals')})\s+"
    r"(?P<never>never\s+|not\s+)?(?:happily\s+|gladly\s+|totally\s+)?(?:re)?"
    rf"{_CUES.alternation('again_verbs')}\b[^.!?]{{0,40}}?\b{_CUES.alternation('again')}\b"
)
"""Wanting to watch/read/hear a work again: a like; never again: a dislike."""
_COMPARATIVE_HEDGE = re.compile(
    _HEDGED.source("comparative") + "|" + _NEGATED + f"(?:{_HEDGED.source('as_good_as', after_lead=True)})"
)
"""A mild comparison: the subject is judged only relative to something else, so the reading is a hedge (F22)."""
_LEANS_POSITIVE = re.compile(
    r"(?:\bnot|n't|\bisnt|\bwasnt|\baint|\bnever)\s+"
    + f"(?:{_HEDGED.source('leaning_negated', after_lead=True)})|"
    + _HEDGED.source("leaning")
)
"""Hedges that lean to a like ("not bad", "isn't overrated", "better than I expected"): a like said next confirms them."""
_LEANS_NEGATIVE = _HEDGED.pattern("leaning_negative")
"""Hedges that lean to a dislike ("meh", "nothing special"): the answer to "Do you like it?" at a card."""
_TOO_FOR_ME = _CUES.pattern("too_for_me")
_SOFTENERS = _HEDGED.word_set("softeners")
"""Hedges that only soften what follows ("kinda", "sort of"): a dislike so softened stays one (issue 22-F)."""
_OWN_OBJECT = re.compile(r"\b[a-z]{3,}\s+(?:it|this|this one|that one)\b(?!\s*\w)", re.IGNORECASE)
"""A verb with the item as its object at a clause's end ("lovd it", "hatd this one"): a misspelt verb there is read."""
_MID_NO = re.compile(r"(?<=\S)\s+no\b")
_CAPITAL_WORD = re.compile(r"(?<![\w'])[A-Z][\w'!-]*")
_NOT_NAMES = _SCOPE.word_set("not_names")


def _names_something(piece: str, *, opens_sentence: bool = True) -> bool:
    """A clause that names something the linker does not know: a capitalised word ("... but hate
    Raditude"), in a clause not Title Cased throughout; its first word counts only inside a sentence
    ("X is overplayed but Perfect is lovely", "X was brilliant, Porno less so"), not where a capital
    opens a sentence. Its opinion is about that name, not about an entity before it."""
    words = _CAPITAL_WORD.findall(piece)
    first = re.match(r"\W*([\w'!-]+)", piece)
    opener = first.group(1) if first and opens_sentence else ""
    lower = re.findall(r"(?<![\w'])[a-z][\w']*", piece)
    return bool(lower) and any(w not in _NOT_NAMES and not w.startswith(PLACEHOLDER) and w != opener for w in words)


def _verdict_after_name(words: list[str]) -> Polarity | None:
    """A name followed only by a yes/no answer ("Jaws yes", "Titanic no", "Prometheus not at all"):
    that answer is the verdict on it, in a list of verdicts."""
    placeholder = PLACEHOLDER.lower()
    if len(words) < 2 or not words[0].startswith(placeholder):
        return None
    rest = [w for w in words if not w.startswith(placeholder)]
    said = " ".join(rest)
    if not rest or len(rest) != len(words) - 1:
        return None
    if said in _YES_ANSWERS:
        return Polarity.POSITIVE
    if said in _NO_ANSWERS:
        return Polarity.NEGATIVE
    return None


def _leaning(low: str) -> Polarity | None:
    """The lean of a hedged clause: positive for litotes and beaten expectations ("not bad at all",
    "better than I expected"), negative for a shrug ("meh", "nothing special"; issue 22-F), else None (no lean:
    "it was ok", "less so", "not as good as X")."""
    if _LEANS_POSITIVE.search(low):
        return Polarity.POSITIVE
    return Polarity.NEGATIVE if _LEANS_NEGATIVE.search(low) else None
