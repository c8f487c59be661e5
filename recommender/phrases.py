"""How the reasons of a recommendation are worded: one phrase per property (``recommender.explain``).

``LIKED_PHRASE`` names a liked value ("You like *Christopher Nolan, who directed it*"); ``IT_PHRASE``
states the item's claim ("like Inception, *it stars Tom Hardy*"). ``{x}`` is the value's label; a key
``~P..`` is the reversed claim (the item is the value: "You like Nevermind, *which it performs*");
:data:`CAMEO` is a cast claim about a person known for another role ("*Dee Marsh appears in it*").

Example:
    >>> IT_PHRASE["P57"].format(x="Agnès Varda")
    'it is directed by Agnès Varda'
"""

from __future__ import annotations

CAMEO = "P161?"
"""Pseudo-property of a cast claim about a person known for another role (a producer's cameo):
rendered "appears in it", never "stars"."""

LIKED_PHRASE: dict[str, str] = {
    "P57": "{x}, who directed it",
    "P161": "{x}, who stars in it",
    CAMEO: "{x}, who appears in it",
    "P58": "{x}, who wrote it",
    "P50": "{x}, who wrote it",
    "P86": "{x}, who composed its music",
    "P162": "{x}, who produced it",
    "P175": "{x}, who performs it",
    "P170": "{x}, who created it",
    "P272": "{x}, who produced it",
    "P264": "the label {x}",
    "P1040": "{x}, who edited it",
    "P344": "{x}, who shot it",
    "P1431": "{x}, who executive-produced it",
    "P676": "{x}, who wrote its lyrics",
    "P361": "{x}, the album it is on",
    "P463": "{x}, a band it belongs to",
    "P1303": "{x}, an instrument it plays",
    "P123": "{x}, its publisher",
    "P135": "the {x} movement",
    "P921": "{x}, its subject",
    "P179": "the {x} series",
    "P8345": "the {x} franchise",
    "P144": "{x}, which it is based on",
    "P155": "{x}, which it follows",
    "P156": "{x}, which follows it",
    # the item is the *value* of the claim (both ends are items: "~" marks the reversed edge)
    "~P175": "{x}, which it performs",
    "~P86": "{x}, which it composed",
    "~P676": "{x}, which it wrote the lyrics of",
    "~P361": "{x}, which is on it",
    "~P463": "{x}, one of its members",
    "~P144": "{x}, which is based on it",
    "~P155": "{x}, which follows it",
    "~P156": "{x}, which it follows",
}
"""How a liked value is named in "You like ..." (``{x}`` = its label)."""

IT_PHRASE: dict[str, str] = {
    "P57": "it is directed by {x}",
    "P161": "it stars {x}",
    CAMEO: "{x} appears in it",
    "P58": "it is written by {x}",
    "P50": "it is written by {x}",
    "P86": "it has music by {x}",
    "P162": "it is produced by {x}",
    "P272": "it is produced by {x}",
    "P175": "it is by {x}",
    "P170": "it is created by {x}",
    "P136": "its genre is {x}",
    "P495": "it comes from {x}",
    "P840": "it is set in {x}",
    "P921": "it is about {x}",
    "P179": "it belongs to {x}",
    "P264": "it is on the label {x}",
    "P364": "it is in {x}",
    "P407": "it is in {x}",
    "P166": "it won the {x}",
    "P1411": "it was nominated for the {x}",
    "P155": "it follows {x}",
    "P156": "it is followed by {x}",
    "P1431": "it is executive-produced by {x}",
    "P676": "it has lyrics by {x}",
    "P361": "it is on {x}",
    "P463": "it belongs to the band {x}",
    "P1303": "it plays the {x}",
    "P123": "it is published by {x}",
    "P135": "it belongs to the {x} movement",
    "P8345": "it is part of the {x} franchise",
    "P144": "it is based on {x}",
    "P1040": "it is edited by {x}",
    "P344": "it is shot by {x}",
    "~P175": "it performs {x}",
    "~P86": "it composed {x}",
    "~P676": "it wrote the lyrics of {x}",
    "~P361": "{x} is on it",
    "~P463": "{x} is one of its members",
    "~P144": "{x} is based on it",
    "~P155": "it is followed by {x}",
    "~P156": "it follows {x}",
}
"""How an item's value is stated ("like Inception, it stars Tom Hardy")."""


__all__ = ["CAMEO", "IT_PHRASE", "LIKED_PHRASE"]
