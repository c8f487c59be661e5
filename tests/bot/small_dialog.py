"""A real :class:`~bot.dialog.DialogManager` on the hand-made knowledge base of :mod:`tests.bot.dialog_fakes`
(8 films, stand-in NLU, the real recommender), its stores chosen by the composition root as in
production (PostgreSQL when ``CORSBOT_DATABASE_URL`` is set): the webhook-worker tests run it in
each worker process (``python -m bot.cli.durability_bot --handler tests.bot.small_dialog:build``)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from bot.compose import build_dialog_manager
from bot.dialog import DialogManager
from bot.services import DomainServices, Services
from recommender.recommend import Recommender
from tests.bot.dialog_fakes import FakeIntents, FakeKB, FakeLinker, FakeSentiment


def build(session: str) -> DialogManager:
    """The dialog manager (state, log and receipts in ``$CORSBOT_DATABASE_URL``'s database)."""
    kb = FakeKB()
    domain = DomainServices(kb=kb, linker=FakeLinker(kb), recommender=Recommender(kb))
    services = Services(FakeIntents(), FakeSentiment(), lambda name: domain)
    assert os.environ.get("CORSBOT_DATABASE_URL"), "the small-KB worker is meant for PostgreSQL"
    return build_dialog_manager(db=Path(tempfile.mkdtemp()) / "unused.sqlite3", session=session, services=services)
