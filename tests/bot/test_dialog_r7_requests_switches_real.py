"""Issue 22, seventh round (r7dlg) through the real dialog of ``corsbot chat``: requests that name a person in
a question ("which books do you have by X?", "some songs of X?"), a domain named in a sentence with more said
after it, resets said with more after them, questions about a title not on screen (skipped when the snapshots
and the intent model are not built). Other items and wordings than the conversation sets' and the tester's.
"""

from __future__ import annotations

import pytest

from tests.bot.real_dialog import Chat, real_dialog_manager
from tests.bot.real_dialog import card_of as _card


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    """The dialog manager as ``corsbot chat`` builds it, on a scratch database."""
    return real_dialog_manager(tmp_path_factory, "none")


@pytest.mark.parametrize(
    ("domain", "text", "liked"),
    [
        ("book", "Which novels do you have by Terry Pratchett?", "Terry Pratchett"),
        ("music", "u got some songs of Shakira? she is great", "Shakira"),
        ("movie", "what films do you have with Tilda Swinton", "Tilda Swinton"),
        ("book", "anything else in the spirit of Ursula K. Le Guin?", "Ursula K. Le Guin"),
    ],
)
def test_a_request_naming_a_person_stores_the_person_and_shows_a_list(real_dm, domain, text, liked):
    chat = Chat(real_dm, domain)
    reply = chat.say(text)
    assert chat.labels().get(liked) == "+", reply.text
    assert _card(reply) is not None, reply.text
