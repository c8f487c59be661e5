"""Issue 22, fourth round, second pass (22-R2) through the real dialog of ``corsbot chat``: the dialog at a card
and at open questions (skipped when the snapshots and the intent model are not built). Other items and wordings
than the conversation sets' and the fresh user's chat (``/work/findings/fresh6.md``).
"""

from __future__ import annotations

import pytest

from tests.bot.real_dialog import Chat, card_of, real_dialog_manager


@pytest.fixture(scope="module")
def real_dm(tmp_path_factory):
    """The dialog manager as ``corsbot chat`` builds it, on a scratch database."""
    return real_dialog_manager(tmp_path_factory, "none")


@pytest.mark.parametrize(
    ("domain", "like", "bye"),
    [
        ("movie", "I loved Jurassic Park", "bye, thanks a lot!"),
        ("book", "I love Dune", "ok gotta head out, cheers"),
        ("music", "I love ABBA", "see ya later, thx"),
        ("movie", "I loved Jurassic Park", "im off now, thank you so much"),
    ],
)
def test_a_goodbye_with_thanks_after_it_at_a_card_closes_the_list_and_rates_nothing(real_dm, domain, like, bye):
    # fresh6 fault 2: a goodbye followed by thanks rated the card (or answered "why") deep in a list
    chat = Chat(real_dm, domain)
    chat.say(like)
    chat.say("recommend me something")
    assert card_of(chat.say("next one")) is not None
    before = chat.profile()
    reply = chat.say(bye)
    assert card_of(reply) is None and chat.state.focus is None, reply.text
    assert chat.profile() == before and chat.intent() == "smalltalk.greetings.bye", reply.text
