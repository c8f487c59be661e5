"""What the typed words around a linked mention say about it (issue 22).

:func:`in_longer_name`: the mention is one part of a longer name the user typed ("Innocence" in "Songs of
Innocence", "Midnight" in "Midnight's Childen", "ice" in "a song of ice and fire"): a name the
knowledge base may lack, of which the linker matched a piece. The dialog then still asks about a lone
unsure candidate instead of taking it (``bot.dialog.preferences``), so that an opinion about an unknown
title does not land on a neighbour; erring on the side of "a piece" only costs the question the dialog
asked before issue 22.

Example:
    >>> text = "The Joshua Tree yes, Songs of Innocence no"
    >>> in_longer_name(text, text.index("Innocence"), text.index("Innocence") + 9)
    True
    >>> in_longer_name("I loved Misery", 8, 14)
    False
"""

from __future__ import annotations

import re

from nlu.stop_words import STOP_WORDS

__all__ = ["in_longer_name"]

_CONNECTORS = r"(?:of|the|a|an|in|on|to|for|from|de|la|le|del|von|van)"
"""Small words inside titles ("Songs of Innocence"); not "and", which also joins two names."""
_NAME_BEFORE = re.compile(rf"[A-Z0-9][\w'’.-]*(?:\s+{_CONNECTORS})*\s+$")
"""A capitalised word right before the mention, maybe with connectors ("Songs of ")."""
_NAME_AFTER = re.compile(rf"^(?:['’]s\s+[A-Z0-9]|:\s*[A-Z0-9]|(?:\s+{_CONNECTORS})*\s+[A-Z0-9])")
"""A capitalised word right after the mention, maybe after "'s", ":" or connectors ("'s Childen")."""
_OPENERS = frozenset(
    (
        "i i'm i've i'd my the a an it this that these those we you he she they what why how who which where when"
        " is are was were do does did can could would will should have has any some also and but so oh hey hi ok"
        " okay well yes yeah no not just really honestly actually anyway loved liked love like hated hate enjoyed"
        " watched read saw heard recommend suggest more please"
    ).split()
)
"""Capitalised words that open a sentence and name nothing ("Loved Heat", "The ...")."""


_JOINED = r"(?:of|della|delle|dello|del|di|da|de|du|des|sull'\w+|dell'\w+)"
_JOINED_AFTER = re.compile(rf"^\s+{_JOINED}\s+[^\W\d]", re.I)
"""A name-joining word and a word after the mention, typed lowercase too ("death" of "death of the
hallows", "la casa" of "la casa della prateria"); not "and", which also joins two names ("Heat and Drive")."""
_JOINED_BEFORE = re.compile(r"([^\W\d][\w']*)\s+(?:of|della|delle|dello|del|di|da|du|des)\s+$", re.I)
"""A word and "of" (or its Italian, French, Spanish kin) right before the mention ("song of ice")."""
_QUANTITIES = frozenset("fan fans lot lots kind sort type bit couple bunch lover lovers".split())
"""Words before "of" that measure or qualify, not title words ("a big fan of X", "more of X" with the stop words)."""


def in_longer_name(text: str, start: int, end: int) -> bool:
    """The mention at ``text[start:end]`` is a piece of a longer name the user typed: capitalised words
    around it, or a joining word ("of", "della") and a word on one side, lowercase too."""
    before = _NAME_BEFORE.search(text[:start])
    if before is not None:
        word = before.group(0).split()[0].lower()
        sentence_start = not text[: before.start()].strip() or text[: before.start()].rstrip()[-1] in ".!?"
        if not (sentence_start and word in _OPENERS):
            return True
    after = text[end:]
    if _NAME_AFTER.match(after) or _JOINED_AFTER.match(after):
        return True
    joined = _JOINED_BEFORE.search(text[:start])
    return joined is not None and joined.group(1).lower() not in STOP_WORDS | _QUANTITIES
