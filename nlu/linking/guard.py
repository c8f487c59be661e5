"""The guard of span proposal (field case F29): a weak span is a name only with a strong signal.

Reads: a run of tokens the name index matched, the entities it matched (their label and roles) and
the message. Adds: whether the run may be proposed as a name (:meth:`SpanGuard.strong_enough`), is
a short name to ask about (:meth:`SpanGuard.short_object`: "I like sia"), or was typed with its
label's closing "!" or "?" (:func:`typed_as_label`: "Mother!").

A span whose words are all common words (spaCy stop words, chat and command words, and for one-word
spans VADER lexicon words: "it", "up", "her", "us", "nope") or that has fewer than 4 letters is
*weak*. A weak span is linked only with a strong signal: it is quoted, it is capitalised mid-sentence
in a message that is not Title Cased throughout, or it follows "the movie/book/song ..." ("the movie
It"). Genre words ("horror") are not weak. The subject opening an opinion is a signal too: a word
that cannot be a subject ("Her is such a beautiful film", "Up made me cry"), a capitalised or long run
of words ("Me Before You made me cry", "come as you are is my favourite song"), a word heading a list
of names ("Heat and Collateral"); so are an acronym in a message not shouted ("BTS") and a title typed
with its label's "!" or "?" ("Help! is my favourite Beatles song"). The pronoun "I" is never a capital
signal. Everyday English words alone ("kids", "spirit") need such a signal, and the words of an opinion
("big fan", "gives me chills") never name a title.

Where a name is expected (issue 22, :func:`nlu.linking.syntax.name_slot`: the whole object of a
like-verb or of "fan of", "similar to", "more"; the subject opening a clause before its verb; a clause
adding only "too"; a title opening the message before "i loved"; a name listed after another), a full
name typed in lowercase is taken unless its words are the chat's own (:meth:`SpanGuard._fits_slot`).
Never a title: the pronoun of a question ("Can You recommend ..."), an English word after a name's copula
("... is just noise"), the sentence's first word and a capitalised one with nothing else to show the
message is not Title Cased ("Happy Holidays!"); an article and a common word typed in lowercase ("a thriller": not the alias "A Thriller"
of a title). A genre word after a request's verb is the genre asked for ("i want a comedy", issue 22-D).
Issue 22-E: never a title either: an English word typed in capitals for emphasis ("is a BANGER"), the user's
own "i DON'T like", a pronoun before the sentence's "!" ("read it!"), the greeting opening the message and
the farewell closing it (the wording's ``hello`` / ``bye``: "Hola! I love ...", "thanks, goodnight"), "like"
that compares ("a book like that"), a date ("last summer"), and an English word a clause says of its subject
("teardrop is hypnotic", "he's the exception") unless the KB knows it well.

Example:
    >>> SpanGuard(kb).strong_enough("I watched it", tokenize("I watched it"), 2, 3, {"Q...": 1.0})  # doctest: +SKIP
    False
"""

from __future__ import annotations

from collections.abc import Container
from typing import Any

from nlu.linking.syntax import (
    PREDICATE_FILLERS,
    acronym,
    calendar_word,
    emphasis,
    inside_opinion_phrase,
    listed_with_a_name,
    name_slot,
    opinion_subject,
    predicate_noun,
    predicate_of_a_name,
    subject_title,
    whole_message,
)
from nlu.linking.tokens import Token, boundary, name_key
from nlu.linking.values import DOMINANT_MIN_POPULARITY, MIN_STRONG_CHARS
from nlu.linking.words import (
    ADDITION_WORDS,
    ARGUMENT_LEADS,
    AUXILIARIES,
    CLAUSE_STOP,
    COPULAS,
    DETERMINERS,
    LABEL_PUNCTUATION,
    LIKE_VERBS,
    NOT_TITLE_OPENERS,
    NOUN_DETERMINERS,
    OBJECT_WORDS,
    PREDICATES,
    PREPOSITIONS,
    PRONOUNS,
    QUOTES,
    RARE_ZIPF,
    REQUEST_VERBS,
    ROLE_OR_TYPE_WORDS,
    SPAN_STOP,
    TYPE_NOUNS_SINGULAR,
    TYPE_WORDS,
    common_words,
    is_everyday,
    opinion_phrases,
    opinion_words,
    stop_words,
    zipf,
)
from nlu.textnorm import normalize
from nlu.wording import family


class SpanGuard:
    """The F29 guard over one domain's KB (module docstring).

    Args:
        kb: the domain's knowledge base (``label``, ``roles``).
    """

    def __init__(self, kb: Any) -> None:
        self.kb = kb

    def strong_enough(
        self,
        text: str,
        tokens: list[Token],
        i: int,
        j: int,
        hit: dict[str, float],
        ends: Container[int] = (),
        titles: Container[int] = (),
    ) -> bool:
        """F29 guard: weak spans (common words / < 4 letters) need a strong signal. ``ends``: where
        the names matched before this span end (exclusive token indexes); ``titles``: the ends of those
        that may name a work."""
        words = [t.key for t in tokens[i:j]]
        content = words[1:] if words[0] == "the" and len(words) > 1 else words
        common = common_words() if len(content) == 1 else stop_words()
        letters = sum(len(w) for w in words)
        if words == ["i"]:
            return False
        if j - i == 1 and words[0] in PRONOUNS and 0 < i <= 2 and tokens[i - 1].key in AUXILIARIES:
            if not (text[: tokens[i].start].rstrip().endswith(tuple(QUOTES))):
                return False  # "Can You recommend me a Book?": the question's subject, not the novel "You"
        if own_verb_phrase(tokens, i, j):
            return False  # "i love hip hop", "i DON'T like muse": the user's own words, not "I Love Hip Hop"
        before, after = text[: tokens[i].start].rstrip(), text[tokens[j - 1].end :].lstrip()
        quoted = before.endswith(tuple(QUOTES)) and after.startswith(tuple(QUOTES))
        typed = (  # "the movie It", not "the movies she acted in"
            i > 1
            and tokens[i - 1].key in TYPE_NOUNS_SINGULAR
            and tokens[i - 2].key in ("the", "a", "an", "that")
            and not boundary(text, tokens, i)  # "love the song, not a fan of ...": no "the song Not"
            and words[0] not in PREPOSITIONS
            and words[0] != "like"  # "a book like that": a comparison, not "the movie Like"
        )
        if not (quoted or typed) and work_part(tokens, i, j):
            return False  # "the beat is great but ...", "the chorus slaps": a part of a work, no title "The Beat"
        if words[0] == "like" and i > 0 and tokens[i - 1].key in COMPARED_HEADS and not quoted:
            if not tokens[i].raw[:1].isupper():
                return False  # "recommend me a book like that", "something like the martian": no "Like That"
        if all(w.isdigit() for w in content):  # "2012", "300": only "the movie 300", quoted, or liked ("i loved 1984")
            return quoted or typed or name_slot(text, tokens, i, j, ends) in ("object", "list", "comma", "rated")
        if (
            i > 0
            and tokens[i - 1].key in COPULAS
            and words[0] in stop_words()
            and words[0] != "the"
            and not (quoted or typed)
            and not any(t.raw[:1].isupper() for t in tokens[i:j])
        ):
            return False  # "Spiegel im Spiegel is so peaceful": a predicate, not the song "So Peaceful"
        if (
            not (quoted or typed)
            and all(t.raw.islower() and zipf(t.key) >= RARE_ZIPF for t in tokens[i:j])
            and predicate_of_a_name(text, tokens, i, ends)
        ):
            return False  # "Gone Girl was twisted", "Yeezus ... is just noise to me": what the named subject is
        if (
            not (quoted or typed)
            and len(content)
            <= MAX_PREDICATE_WORDS  # (a long title is no chance English: "it was the catcher in the rye")
            and all((t.raw.islower() or emphasis(t)) and zipf(t.key) >= PREDICATE_ZIPF for t in tokens[i:j])
            and (predicate_of_a_name(text, tokens, i, ends) or pronoun_predicate(text, tokens, i))
            and max((self.kb.popularity(q) for q in hit), default=0.0) < DOMINANT_MIN_POPULARITY
        ):
            return False  # "teardrop is hypnotic", "he's the exception": an English word said of the subject
        if not (quoted or typed) and greeting_or_farewell(text, tokens, i, j):
            return False  # "Hola! I love Bad Bunny", "thanks, goodnight": small talk at the edges, no title
        subject = opinion_subject(text, tokens, i, j)
        if typed_as_label(self.kb, text, tokens, i, j, hit) and (
            subject or (i > 0 and tokens[i - 1].key in LIKE_VERBS)
        ):
            return True  # "Help! is my favourite Beatles song": typed as its label is spelled
        if subject and len(content) == 1 and content[0] in OBJECT_WORDS and tokens[i].raw[:1].isupper():
            return True  # "Her is such a beautiful film", "Up made me cry": no subject pronoun, a title
        if j - i == 1 and content[0] in OBJECT_WORDS and j < len(tokens) and tokens[j].key in ("is", "was"):
            opener = next((k for k in range(i - 1, -1, -1) if boundary(text, tokens, k + 1)), -1) + 1
            if all(t.key in ADDITION_WORDS | {"oh"} for t in tokens[opener:i]):
                return True  # "oh and her is a banger": an object pronoun before "is" opening a clause, a title
        if subject and len(content) > 1 and subject_title(tokens, i, j, content):
            return True  # "Me Before You made me cry", "come as you are is my favourite song"
        if j - i == 1 and acronym(tokens, i) and content[0] not in stop_words():
            return True  # "BTS and Blackpink are both amazing", "I love MGMT"
        whole = whole_message(text, tokens, i, j)
        if " ".join(content) in opinion_phrases() and not (quoted or typed):
            return False  # "Big fan of ...", "a must read": the words of an opinion, not a title
        if not (quoted or typed) and inside_opinion_phrase(tokens, i, j):
            return False  # "chills" of "gives me chills", "jam" of "is my jam"
        slot = name_slot(text, tokens, i, j, ends)
        if slot is not None and self._fits_slot(content, slot, hit, listed=slot == "list" and i - 1 in titles):
            return True  # "a big fan of stephen king", "lady bird too", "numb and in the end are ..." (issue 22)
        if len(content) == 1 and content[0] in opinion_words():
            return quoted or typed  # "favourite", "love", a bare "Like" (a rating): never a title on their own
        if calendar_word(tokens, i, j) and not (quoted or typed or whole):
            return False  # "on Friday", "last October": a date, not the film "Friday"
        if (
            subject
            and len(content) == 1
            and letters >= MIN_STRONG_CHARS
            and content[0] not in stop_words()
            and not is_everyday(content[0])
        ):
            return True  # "Joker was well acted", "Beloved was hard going": a rarer word opening an opinion
        if (
            j - i == 2
            and words[0] in ("a", "an")
            and all(t.raw.islower() for t in tokens[i:j])
            and zipf(words[1]) >= RARE_ZIPF
            and not (quoted or typed)
        ):
            return False  # "i want a thriller": an article and a common noun, not the alias "A Thriller" of a title
        asked_for = letters >= MIN_STRONG_CHARS and any(t.key in REQUEST_VERBS for t in tokens[max(0, i - 4) : i])
        if asked_for and not all(w in stop_words() for w in content) and any("P136" in self.kb.roles(q) for q in hit):
            return True  # "i want a comedy", "suggest me a thriller": the genre a request asks for (issue 22-D)
        if (
            len(content) == 1
            and j - i == 1
            and i > 0
            and tokens[i - 1].key in NOUN_DETERMINERS
            and tokens[i].raw.islower()
            and not (quoted or typed)
            and not (i > 1 and tokens[i - 2].key in LIKE_VERBS)  # "I like a thriller now and then"
        ):
            return False  # "my teens", "what a twist": a common noun after a determiner, not the genre "teen"
        if not (quoted or typed) and predicate_noun(text, tokens, i, j, ends):
            return False  # "Neil Gaiman is a wonderful storyteller": what the named subject is, no title
        if (
            letters >= MIN_STRONG_CHARS
            and not all(w in stop_words() for w in content)
            and any("P136" in self.kb.roles(q) for q in hit)
        ):
            return True  # a genre word: "I like horror"
        if (
            letters >= 2
            and not any(w in stop_words() or is_everyday(w) for w in content)
            and any("P136" in self.kb.roles(q) and self.kb.popularity(q) >= DOMINANT_MIN_POPULARITY for q in hit)
        ):
            return True  # a short name of a well-known genre: "emo kid here", "no emo stuff pls"
        if (
            len(content) > 1
            and not (quoted or typed or whole)
            and all(is_everyday(w) or w in stop_words() for w in content)
            # "By the way, ...", "how I feel" (the pronoun is always capitalised)
            and not any(t.raw[:1].isupper() and t.key != "i" for k, t in enumerate(tokens[i:j], i) if k > 0)
            and not (i > 0 and tokens[i - 1].key in LIKE_VERBS)
            and not (i > 1 and tokens[i - 1].key == "the" and tokens[i - 2].key in LIKE_VERBS)
        ):
            return False  # "by the way", "for the record", "my childhood": everyday words, not a title
        if (
            len(content) == 1
            and j - i == 1
            and i > 0
            and not tokens[i].raw[:1].isupper()
            and not (quoted or typed or whole)
            and tokens[i - 1].key not in ARGUMENT_LEADS
            and not boundary(text, tokens, i)
            and zipf(content[0]) >= RARE_ZIPF
        ):
            return False  # "start over from scratch": a lowercase word where no title is expected
        if len(content) == 1 and is_everyday(content[0]) and not (quoted or typed or whole):
            if i > 0 and tokens[i - 1].key in DETERMINERS:
                return False  # "my kids", "a queen"
            opens = i == 0 or (before.endswith((".", "!", "?")) and tokens[i].raw[:1].isupper())
            if (
                opens
                and j < len(tokens)
                and (tokens[j].key in PREDICATES or subject)
                and content[0] not in stop_words()
            ):
                return True  # "Frozen was great", "... it was dumb. Heat is more my thing" (not "We had to read ...")
            if (
                i == 0
                and letters >= MIN_STRONG_CHARS
                and content[0] not in stop_words()
                and listed_with_a_name(text, tokens, j)
            ):
                return True  # "Heat and Collateral, Michael Mann at his best"
            common = common | {content[0]}  # only a capitalised title (below) names something
        if letters >= MIN_STRONG_CHARS and not all(w in common for w in content):
            return True
        # quoted
        before, after = text[: tokens[i].start].rstrip(), text[tokens[j - 1].end :].lstrip()
        if before.endswith(tuple(QUOTES)) and after.startswith(tuple(QUOTES)):
            return True
        if typed:  # after a type word: "the movie It", "the song Help"
            return True
        # capitalised mid-sentence in a message that is not Title Cased throughout; a role or type
        # word is never a title so ("Woody Allen as Actors")
        if all(w in ROLE_OR_TYPE_WORDS for w in content):
            return False
        first = tokens[i].raw
        if tokens[i].key == "i":  # the pronoun is always capitalised: "..., I love it" is no title "I Love It"
            first = tokens[i + 1].raw if j - i > 1 else ""
        sentence_start = i == 0 or before.endswith((".", "!", "?", ":", ";", "\n"))
        emphasised = all(emphasis(t) for t in tokens[i:j])  # "that chorus is an ANTHEM": no capital signal
        if first[:1].isupper() and not sentence_start and letters >= 2 and not emphasised:
            others = [
                t.raw for k, t in enumerate(tokens) if k and not i <= k < j and t.raw[:1].isalpha() and t.key != "i"
            ]
            # with no other word but a capitalised first one, nothing shows the message is not Title Cased
            # ("Happy Holidays!" names no film "Holidays")
            title_cased = all(w[:1].isupper() for w in others) and (bool(others) or tokens[0].raw[:1].isupper())
            shouting = all(t.raw.isupper() for t in tokens if t.raw[:1].isalpha() and t.key != "i")
            return not title_cased and not shouting
        return False

    def _fits_slot(self, content: list[str], slot: str, hit: dict[str, float], *, listed: bool = False) -> bool:
        """A full name typed in any case where a name is expected (:func:`nlu.linking.syntax.name_slot`):
        taken unless its words are the chat's own (F29). One word: no stop word, no everyday word but
        alone ("heat too") or listed after a title (``listed``: "sofia and bags are my comfort songs"; the
        other rules weigh the rest: "heat was great", "I like drive" asks), no opinion word unless it opens a
        clause before its verb ("stan is his best song") or is a genre liked ("i don't like poetry");
        only function words: a title-like run of them that is the subject of a verb or listed with a
        name ("numb and in the end are still perfect songs")."""
        letters = sum(len(w) for w in content)
        if slot == "fan" and len(content) == 1:  # "a huge bts fan": short names (acronyms) too, no everyday word
            genre = any("P136" in self.kb.roles(q) for q in hit)  # "a big pop fan"
            return letters >= 2 and content[0] not in stop_words() and (genre or not is_everyday(content[0]))
        if content[0] == "i" and len(content) < 3:
            return False  # the pronoun, always capitalised: "I've had X on repeat" names no "I've ..."
        if len(content) == 1:
            word = content[0]
            if (
                letters < MIN_STRONG_CHARS
                or word in stop_words()
                or (is_everyday(word) and not (slot == "alone" or listed))
            ):
                return False  # ("heat too", "also heat": alone, as the whole message; "sofia and bags": after a title)
            if word in opinion_words():
                genre = any("P136" in self.kb.roles(q) for q in hit)
                return slot == "subject" or (slot == "object" and genre)
            return True
        if all(w in stop_words() for w in content):
            if slot == "rated":  # an emoji closes each name: "one day 🤮, call me by your name 😍" (issue 22)
                return letters >= 6
            return slot in ("subject", "list") and letters >= 6 and content[0] not in NOT_TITLE_OPENERS
        return True

    def short_object(self, text: str, tokens: list[Token], i: int, j: int) -> bool:
        """A short (< 4 letters) non-stop word that is the whole object of a like-verb ("I like
        sia", "I love tex"): linked, but always asked about (F29: otherwise ask)."""
        words = [t.key for t in tokens[i:j]]
        if len(words) == 2 and words[0] == "the":
            words = words[1:]  # "I like the house"
        letters = sum(len(w) for w in words)
        everyday = len(words) == 1 and is_everyday(words[0]) and words[0] not in opinion_words()
        if any(w in stop_words() for w in words) or not (2 <= letters < MIN_STRONG_CHARS or everyday):
            return False
        if i == 0 or tokens[i - 1].key not in LIKE_VERBS:
            return False
        return (
            j == len(tokens) or boundary(text, tokens, j) or tokens[j].key in SPAN_STOP | CLAUSE_STOP | CLOSING_COMMENTS
        )


CLOSING_COMMENTS = frozenset(
    "actually honestly really though tho too anyway anyways personally either tbh imo imho ngl lol lmao rn fr smh".split()
)
"""A comment closing the clause after a short object ("i hate pop actually", "i like sia tbh"): no word of the name,
so the object is still the whole object of the like-verb (fresh tester: "pop" was dropped and the card disliked)."""


def typed_as_label(kb: Any, text: str, tokens: list[Token], i: int, j: int, hit: Any) -> frozenset[str]:
    """Candidates whose label ends with the "!" or "?" typed right after the span, the words
    being those of the label ("Mother!" of Aronofsky, not Albert Brooks's "Mother"; "Help!"): the
    user typed the title as it is spelled, a signal as strong as a year (a title of function words only
    with its capital: "It!", not "read it!")."""
    mark = text[tokens[j - 1].end : tokens[j - 1].end + 1]
    if not mark or mark not in LABEL_PUNCTUATION:
        return frozenset()
    words = tuple(t.key for t in tokens[i:j])
    if all(w in stop_words() for w in words) and not tokens[i].raw[:1].isupper():
        return frozenset()  # "read it!": a pronoun and a "!" of the sentence, not "It!" (typed as spelled: "It!")
    out = set()
    for qid in hit:
        label = kb.label(qid).rstrip()
        if label.endswith(mark) and name_key(label) in (words, ("the", *words)):
            out.add(qid)
    return frozenset(out) if len(out) < len(hit) or len(out) == 1 else frozenset()


OWN_VERB_FILLERS = frozenset("don t dont do did didn didnt really just also still never always".split())
"""Words between the pronoun "i" and a like-verb in the user's own clause ("i don't like", "i really love")."""


def own_verb_phrase(tokens: list[Token], i: int, j: int) -> bool:
    """Tokens ``i:j`` open with the pronoun "i", maybe a negation or an adverb, then a like-verb typed as
    the message's words, in lowercase or capitals for emphasis ("i love hip hop", "i DON'T like muse"):
    the user's own clause, not a title "I Love ..." / "I Don't Like" (one typed Title Cased still is)."""
    words = [t.key for t in tokens[i:j]]
    if len(words) < 2 or words[0] != "i":
        return False
    k = 1
    while k < len(words) - 1 and words[k] in OWN_VERB_FILLERS:
        k += 1
    if words[k] not in LIKE_VERBS:
        return False
    return all(t.raw.islower() or t.raw.isupper() for t in tokens[i + 1 : i + k + 1])


_PHRASINGS = family("phrasings")

WORK_PARTS = family("opinion_scope").word_set("work_words") - family("opinion_scope").word_set("reference_nouns")
"""Parts and people of a work ("the plot", "the beat", "the singer"): the opinion scope's work words but the nouns
that name the work itself."""


def work_part(tokens: list[Token], i: int, j: int) -> bool:
    """Tokens ``i:j`` are "the" and one part of a work typed in lowercase, the subject of a verb ("the beat is
    great", "the chorus slaps"), the article inside the span or just before it; as an object it may be a name
    ("I like the script": the band)."""
    if j >= len(tokens) or tokens[j].key not in PREDICATES:
        return False
    words = [t.key for t in tokens[i:j]]
    if words[0] == "the":
        words = words[1:]
    elif i == 0 or tokens[i - 1].key != "the":
        return False
    return len(words) == 1 and words[0] in WORK_PARTS and all(t.raw.islower() for t in tokens[i:j])


COMPARED_HEADS = TYPE_WORDS | frozenset("something anything stuff more others ones one".split())
"""Words after which "like" compares ("a book like that", "something like X"): a preposition, no title word."""


def greeting_or_farewell(text: str, tokens: list[Token], i: int, j: int) -> bool:
    """Tokens ``i:j`` are the greeting opening the message before a sign ("Hola! I love ...", "hello, ...")
    or the farewell closing it after a sign ("thanks, goodnight"; not "i love goodnight"), as the wording's
    ``hello`` and ``bye`` patterns say (``nlu/wording/phrasings.toml``; "Hey Jude is my favourite" has no sign after the greeting)."""
    if (
        j == len(tokens)
        and (i == 0 or boundary(text, tokens, i))
        and _PHRASINGS.pattern("bye").fullmatch(normalize(text[tokens[i].start :]).casefold().strip())
    ):
        return True
    if i != 0 or j == len(tokens) or not boundary(text, tokens, j):
        return False
    return bool(_PHRASINGS.pattern("hello").fullmatch(normalize(text[: tokens[j - 1].end]).casefold().strip()))


def greeting(word: str) -> bool:
    """The word is a greeting of the wording's ``hello`` pattern ("hiii", "heyyy", "yo")."""
    return bool(_PHRASINGS.pattern("hello").fullmatch(word.casefold()))


MAX_PREDICATE_WORDS = 3
"""Words (a leading "the" aside) of a predicate the guard reads as English said of the subject, not a title."""

PREDICATE_ZIPF = 3.0
"""``wordfreq`` Zipf frequency from which a lowercase word said of a subject is English, not a little-known title."""

PREDICATE_SUBJECTS = frozenset("he she it they this that".split())
"""Pronouns whose copula's predicate describes them ("he's the exception", "it's a banger")."""


def pronoun_predicate(text: str, tokens: list[Token], i: int) -> bool:
    """Token ``i`` follows "PRONOUN is (a/the/so ...)" opening the message or a clause ("he's the exception",
    "it was pure magic", "that one is magnetic"): the predicate of a pronoun, no title."""
    k = i - 1
    while (
        k > 0 and (tokens[k].key in PREDICATE_FILLERS or tokens[k].key == "the") and not boundary(text, tokens, k + 1)
    ):
        k -= 1
    if k <= 0 or tokens[k].key not in COPULAS or boundary(text, tokens, k + 1):
        return False
    s = k - 1
    if s > 0 and tokens[s - 1].key in ("this", "that") and not boundary(text, tokens, s):
        s -= 1  # "that one is magnetic", "this song was pure joy"
    return tokens[s].key in PREDICATE_SUBJECTS and (s == 0 or boundary(text, tokens, s))
