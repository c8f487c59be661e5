"""The role vocabulary: the words users say for a property's role and the domain-free role names.

A *role* is what a property value is to an item ("director" for P57, "actor" for P161). Users name roles
("Tom Cruise as a producer", "not the director", "the writer"): :data:`ROLE_WORDS` maps those words to
properties in every domain, :data:`DOMAIN_ROLE_WORDS` the words whose property differs by domain; the whole
project reads them through :func:`role_words_for`. The names the bot says for a role come from the domain's
schema (``recommender.schema.role_name``), else from :func:`generic_role_name`.

Ids are plain strings here (``"P57"``; a ``recommender.schema.PID`` is one): this module imports nothing of
the project, so the schema types can use it.

Example:
    >>> role_words_for("book")["writer"], role_words_for("movie")["writer"]
    ('P50', 'P58')
    >>> generic_role_name("P57"), generic_role_name("P9999")
    ('director', 'related (P9999)')
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

_ROLE_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "P57": "director",
        "P161": "actor",
        "P58": "screenwriter",
        "P162": "producer",
        "P1431": "executive producer",
        "P86": "composer",
        "P136": "genre",
        "P50": "author",
        "P175": "performer",
        "P264": "record label",
        "P463": "band",
        "P179": "series",
        "P8345": "franchise",
        "P144": "source work",
        "P921": "subject",
        "P272": "production company",
        "P1040": "film editor",
        "P344": "cinematographer",
        "P155": "prequel",
        "P156": "sequel",
        "P676": "lyricist",
        "P1303": "instrument",
        "P361": "collection",
        "P135": "movement",
        "P123": "publisher",
        "P170": "creator",
        "P737": "influence",
        "P31": "type",
        "P495": "country",
        "P840": "setting",
        "P110": "illustrator",
        "P655": "translator",
        "P407": "language",
        "P364": "original language",
        "P166": "award",
    }
)


ROLE_WORDS: Mapping[str, str] = MappingProxyType(
    {
        "director": "P57",
        "directed": "P57",
        "directors": "P57",
        "actor": "P161",
        "actors": "P161",
        "actress": "P161",
        "actresses": "P161",
        "protagonist": "P161",
        "protagonists": "P161",
        "cast": "P161",
        "acting": "P161",
        "star": "P161",
        "screenwriter": "P58",
        "writer": "P58",
        "script": "P58",
        "screenplay": "P58",
        "producer": "P162",
        "producers": "P162",
        "composer": "P86",
        "soundtrack": "P86",
        "music": "P86",
        "genre": "P136",
        "genres": "P136",
        "theme": "P921",
        "subject": "P921",
        "author": "P50",
        "writers": "P50",
        "performer": "P175",
        "singer": "P175",
        "band": "P175",
        "label": "P264",
        "series": "P179",
        "saga": "P179",
        "album": "P361",
        "lyricist": "P676",
        "lyrics": "P676",
        "instrument": "P1303",
        "publisher": "P123",
        "movement": "P135",
        "franchise": "P8345",
        "cinematographer": "P344",
        "editor": "P1040",
        # also understood by the linker ("the actor Tom Cruise"), answers and critiques
        "filmmaker": "P57",
        "regista": "P57",
        "starring": "P161",
        "stars": "P161",
        "cast member": "P161",
        "wrote": "P58",
        "writing": "P58",
        "novelist": "P50",
        "authors": "P50",
        "artist": "P175",
        "rapper": "P175",
        "musician": "P175",
        "group": "P175",
        "dj": "P175",
        "production company": "P272",
        "studio": "P272",
        "record label": "P264",
        "style": "P136",
        "country": "P495",
        "language": "P407",
        "topic": "P921",
        "setting": "P840",
        "location": "P840",
        "illustrator": "P110",
        "translator": "P655",
        # answers to "as actor or producer?" ("as a performance", "the directing one")
        "performance": "P161",
        "directing": "P57",
        "direction": "P57",
        "produced": "P162",
        "producing": "P162",
        "composed": "P86",
        "sings": "P175",
        "kind": "P136",
    }
)
"""Words a user says for a role ("Tom Cruise as a producer", "actor", "the director") -> its PID, in
every domain unless :data:`DOMAIN_ROLE_WORDS` says otherwise. The one role vocabulary of the project:
understanding (``nlu.understand``), the linker's role hints (``nlu.linker``), answers to role questions
(``nlu.disambiguation``) and critiques (``recommender.critique.role_values``) all read it through
:func:`role_words_for`."""

DOMAIN_ROLE_WORDS: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {
        "movie": MappingProxyType({"language": "P364"}),
        "book": MappingProxyType(
            {"writer": "P50", "writers": "P50", "wrote": "P50", "writing": "P50", "series": "P179"}
        ),
        "music": MappingProxyType(
            {"writer": "P676", "writers": "P676", "wrote": "P676", "songwriter": "P676", "music": "P86"}
        ),
    }
)
"""Words whose role differs by domain: a "writer" is the screenwriter of a film (P58), the author of a
book (P50), the lyricist of a song (P676)."""


def role_words_for(domain: str | None = None) -> Mapping[str, str]:
    """The role words of ``domain`` (word -> PID): :data:`ROLE_WORDS` with the domain's own
    (:data:`DOMAIN_ROLE_WORDS`); None (or an unknown domain) for the general ones."""
    own = DOMAIN_ROLE_WORDS.get(domain or "", {})
    return {**ROLE_WORDS, **own} if own else ROLE_WORDS


def role_pattern(domain: str | None = None) -> str:
    """A regular-expression alternation of every role word of ``domain`` (escaped, longest first)."""
    return "|".join(map(re.escape, sorted(role_words_for(domain), key=len, reverse=True)))


def role_words(pid: str, domain: str | None = None) -> tuple[str, ...]:
    """The role words of ``domain`` that name ``pid``."""
    return tuple(word for word, p in role_words_for(domain).items() if p == str(pid))


def generic_role_name(pid: str) -> str:
    """The domain-free role name of a property (``"director"`` for P57), or ``"related (P123)"`` for a
    property no table names, so a user never sees a bare PID alone."""
    return _ROLE_NAMES.get(str(pid), f"related ({pid})")


__all__ = [
    "DOMAIN_ROLE_WORDS",
    "ROLE_WORDS",
    "generic_role_name",
    "role_pattern",
    "role_words",
    "role_words_for",
]
