"""A mention that is a piece of a longer capitalised name (``nlu.mention_context``, issue 22)."""

from __future__ import annotations

import pytest

from nlu.mention_context import in_longer_name


@pytest.mark.parametrize(
    ("text", "mention", "inside"),
    [
        ("The Joshua Tree yes, Songs of Innocence no", "Innocence", True),
        ("Midnight's Childen is dense but brilliant", "Midnight", True),
        ("Loved Heat so much", "Heat", False),  # a capitalised opener names nothing
        ("I loved Misery", "Misery", False),
        ("Heat and Drive are great", "Heat", False),  # "and" joins two names
        ("misery was great", "misery", False),
        ("Which Tom Hanks movie should I watch?", "Tom Hanks", False),
        ("anything by kurt vonnegut tbh", "kurt vonnegut", False),
        ("i'm a big fan of stephen king", "stephen king", False),
        ("can you show me more of radiohead", "radiohead", False),
        ("I like a song of ice and fire", "ice", True),
        ("I like harry potter and death of the hallow", "death", True),
        ("misery was so good", "misery", False),
    ],
)
def test_a_piece_of_a_longer_name(text, mention, inside):
    start = text.index(mention)
    assert in_longer_name(text, start, start + len(mention)) is inside
