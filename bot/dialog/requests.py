"""A request for a list that names what it should be like (issue 22): its names are stored as likes.

"more like Arrival", "anything similar to Dune?", "songs from Adele", "can you show me more Blur", "I
really liked Heat, can you recommend some more?": the understanding (``nlu.requests``, in
``TurnParse.request``) finds the request and its seeds; :func:`store_request` stores what the request
names, with no question (a request wants a list, not a quiz):

- a name in a request is a like when its polarity reads as neutral ("like X", "from Y", "which Blur
  album should I start with?"); a name with an opinion of its own is stored with it ("I really liked
  X", "but not Y"); a piece of a title or of a longer typed name is not stored on a guess; a genre with
  no opinion ("recommend me an action movie") is the kind of list asked for: a seed, not stored;
- of several readings of a name, the linker's best is taken and the reply says which ("say which one
  if you meant another": a follow-up "the 1984 one" or "not that one" refines it, as after any
  stored preference);
- a person gets the role its preposition gives ("songs by Y": performer), else its only role, else
  none (the recommender does not use roles);
- "anything like it?" refers to the names of the same message ("I watched Heat, anything like it?"), else
  to the card on screen (a seed, not stored: asking for more like it says nothing of having seen it) with what
  the previous turn stored, else to what the previous turn stored (already liked);
- a seed phrase the linker found nothing in is said ("I don't know "Tenet" yet"): its opinion never
  moves to another name; "anything like it?" right after a title that was not found says so (nothing to
  build on yet), before a list from the rest of the profile or the request for one thing liked.

The seeds (QIDs, first named first) go to the list (``bot.dialog.recommendations.new_list``), which
says what the list is based on.
"""

from __future__ import annotations

from typing import Any

from bot import messages as msg
from bot.dialog.acts import Outcome, PreferenceTask
from bot.dialog.context import TurnContext
from bot.dialog.preferences import tasks
from bot.dialog.render import display
from logs.schema import Event
from nlu.mention_context import in_longer_name
from nlu.requests import asked_moods
from nlu.stop_words import STOP_WORDS
from nlu.switching import DOMAIN_WORDS
from nlu.textnorm import chat_spelling, fold
from nlu.understand import Reading
from recommender.genres import genre_names

_FILLER_WORDS = frozenset("please pls plz thanks thank you then now too also again".split())
"""Words that may end a seed phrase without naming anything ("more like Tenet please")."""


def store_request(ctx: TurnContext, outcome: Outcome) -> list[str]:
    """Store the names of the turn's request as preferences (module docstring); the request's seeds.

    Args:
        ctx: the turn (``ctx.parse.request`` is not None).
        outcome: the reply so far: gets the "Got it" line, notes and the stored objects.

    Returns:
        The QIDs the list should be like (liked items, people, genres), in the order named; empty
        when the request names nothing (a list from the whole profile).
    """
    request, parse = ctx.parse.request, ctx.parse
    if request is None:
        return []
    named = [r for r in parse.readings if _is_named(ctx, r) or _is_asked_kind(ctx, r)]
    stored: list[str] = []
    seeds: list[str] = []
    notes: list[str] = []
    for reading, task in zip(named, tasks(ctx, named), strict=True):
        asked_for = request.covers(reading.mention.start, reading.mention.end)  # "i want a comedy"
        if (task.polarity not in ("+", "-") or asked_for) and _is_kind_of_list(ctx, task.qid):
            seeds.append(task.qid)  # "recommend me a drama film": what the list is, not a like to keep
            continue
        if task.polarity not in ("+", "-"):
            task.polarity = "+"  # named in a request for more like it
        if task.ambiguous and len(task.candidates) > 1:
            notes.append(msg.REQUEST_TOOK.format(name=display(ctx, task.qid), mention=task.mention))
        task.ambiguous = False
        task.role = _role(ctx, task, reading)
        _store(ctx, task, outcome)
        shown = f"{msg.POLARITY_MARKS[task.polarity]} {display(ctx, task.qid)}"
        if shown not in stored:
            stored.append(shown)
        if task.polarity == "+" and task.qid not in seeds:
            seeds.append(task.qid)
    if not seeds and request.refers_back:
        seeds = _referred(ctx)
        if not seeds and tuple(ctx.state.logged_events) == (Event.PREFERENCE,) and not ctx.refinable:
            # "like it" right after a title not found: why the list is not built on it
            notes.append(msg.REFERRED_NOT_FOUND if ctx.state.profile() else msg.REFERRED_NOT_FOUND_EMPTY)
    unknown = _unknown_seeds(ctx)
    lines = [msg.STORED.format(items=", ".join(stored))] if stored else []
    lines += [msg.REQUEST_UNKNOWN.format(name=name) for name in unknown] + notes
    if lines:
        outcome.text = "\n".join([*lines, outcome.text] if outcome.text else lines)
    return seeds


def required_seeds(ctx: TurnContext, seeds: list[str]) -> list[str]:
    """The seeds every item of the list must have: a genre asked for ("recommend me a comedy") and a
    person named with the preposition of a role ("songs by Adele", "books from Pratchett"); an item
    or a person named "like" is only what the list should resemble."""
    request, kb = ctx.parse.request, ctx.kb
    role = request.role if request is not None else None
    return [
        q for q in seeds if _is_kind_of_list(ctx, q) or (role is not None and not kb.is_item(q) and role in kb.roles(q))
    ]


def _is_kind_of_list(ctx: TurnContext, qid: str) -> bool:
    """A genre named with no opinion in a request ("an action movie", "a thriller novel"): the kind of
    list asked for, a seed of this list only; the profile keeps the items and people a request names."""
    kb = ctx.kb
    kind = getattr(kb, "kind", None)
    if callable(kind):
        return bool(kind(qid) == "genre")
    return not kb.is_item(qid) and "P136" in kb.roles(qid)


def asked_kinds(ctx: TurnContext) -> list[str]:
    """The genres a request the understanding found no seeds in names with no opinion ("i'm in the mood for a
    horror movie tonight", "recommend me some pop": words of the KB's genre names, :func:`genre_words`) or asks
    for by a mood a genre gives ("something funny": comedy): the kind of list asked for (fresh6 fault 8: a list
    from older likes instead)."""
    named = [r.qid for r in ctx.parse.readings if r.polarity.value == "0" and _is_asked_kind(ctx, r)]
    for word in asked_moods(ctx.parse.text, ctx.state.domain):
        genres = [str(c.qid) for m in ctx.domain.linker.link(word) for c in m.candidates[:1]]
        named += [q for q in genres if _is_kind_of_list(ctx, q) and q not in named]
    if not named:  # a genre word the linker left unread in a request ("some pop": the song "Pop" or the genre)
        named = [q for q in genre_words(ctx, ctx.parse.text) if _is_kind_of_list(ctx, q)]
    return named


_GENRE_WORDS_MAX = 4
"""The longest genre name read in a request, in words ("progressive rock", "science fiction comedy")."""
_NOT_GENRE_WORDS = STOP_WORDS | {word for words in DOMAIN_WORDS.values() for word in words}


def genre_words(ctx: TurnContext, text: str) -> list[str]:
    """The genres the words of ``text`` name (the KB's genre names, ``recommender.genres.genre_names``), longest
    name first and each word read once; words of the language or of the domain alone name none ("some", "music").
    Not a name's piece: words inside a linked name of an item or a person are left to it."""
    vocabulary = genre_names(ctx.kb)
    words = chat_spelling(fold(text)).split()
    words = [w.strip('.,;:!?"()') for w in words]
    found: list[str] = []
    start = 0
    while start < len(words):
        for size in range(min(_GENRE_WORDS_MAX, len(words) - start), 0, -1):
            name = " ".join(words[start : start + size])
            qid = vocabulary.get(name)
            if qid is not None and name not in _NOT_GENRE_WORDS:
                if qid not in found:
                    found.append(qid)
                start += size
                break
        else:
            start += 1
    return found


def _is_asked_kind(ctx: TurnContext, reading: Reading) -> bool:
    """A genre named whole in a request, also inside a longer phrase ("some 80s synthpop": the decade says
    which synthpop, and names no other genre)."""
    return not reading.mention.partial and _is_kind_of_list(ctx, reading.qid)


def _is_named(ctx: TurnContext, reading: Reading) -> bool:
    """A reading the request stores: a whole name (a seed, "which Blur album should I start with?", or one
    the message states an opinion of, "I really liked X, recommend more"); not a piece of a title the
    linker matched (a partial mention) or of a longer name typed around it."""
    mention = reading.mention
    return not mention.partial and (not reading.embedded or not _in_longer_name_past_marks(ctx, mention))


def _in_longer_name_past_marks(ctx: TurnContext, mention: Any) -> bool:
    """The mention is a piece of a longer typed name once the request's own words are blanked: "songs of" in
    "you have some songs of Juanes?" asks, it is no title "Songs of Juanes" (``nlu.mention_context``)."""
    request, text = ctx.parse.request, ctx.parse.text
    marks = request.marks if request is not None else ()
    if not any(end <= mention.start and not text[end : mention.start].strip() for _, end in marks):
        return True
    blanked = list(text)
    for start, end in marks:
        blanked[start:end] = " " * (end - start)
    return in_longer_name("".join(blanked), mention.start, mention.end)


def _role(ctx: TurnContext, task: PreferenceTask, reading: Reading) -> str | None:
    """The role of a person named in a request: its preposition's ("songs by Y"), its only one, or none."""
    kb = ctx.kb
    qid = task.qid
    if kb.is_item(qid):
        return None
    roles = list(kb.roles(qid))
    request = ctx.parse.request
    said = reading.stated_role or (request.role if request is not None else None)
    if said and said in roles:
        return said
    return roles[0] if len(roles) == 1 else None


def _store(ctx: TurnContext, task: PreferenceTask, outcome: Outcome) -> None:
    state = ctx.state
    state.profile()[task.qid] = {"polarity": task.polarity, "role": task.role}
    state.last_stored.append(task)  # "the 1984 one" / "not that one" next turn refines it
    outcome.objects.append((task.qid, task.polarity))
    if Event.PREFERENCE not in outcome.events:
        outcome.events.append(Event.PREFERENCE)


def _referred(ctx: TurnContext) -> list[str]:
    """What "like it" refers to: the card on screen, and the likes the previous turn stored ("more like those"
    after "i also loved X" said at the card). The card is a seed, not a like: asking for more like it says
    nothing of having seen it (issue 22-G: "more like that" stored the card as liked)."""
    state = ctx.state
    told = [t.qid for t in ctx.refinable if t.polarity == "+" and t.qid in state.profile()]
    focus = state.focus
    return [focus, *(q for q in told if q != focus)] if focus is not None else told


def _unknown_seeds(ctx: TurnContext) -> list[str]:
    """The seed phrases in which the linker found no name ("more like Tenet" when the KB lacks it)."""
    request, text = ctx.parse.request, ctx.parse.text
    if request is None:
        return []
    unknown = []
    for start, end in request.seeds:
        if any(start < r.mention.end and r.mention.start < end for r in ctx.parse.readings):
            continue
        words = text[start:end].strip(" .,!?;:'\"").split()
        while words and words[-1].lower().strip(".,!?") in _FILLER_WORDS:
            words.pop()
        if words:
            unknown.append(" ".join(words))
    return unknown
