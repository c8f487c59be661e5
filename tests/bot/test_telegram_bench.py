"""``corsbot bench telegram`` counting with a dialog handler other than the echo: every turn's reply
must reach its chat in order, whatever its shape (split long text, photo with caption), and a
turn answered by the channel's apology instead counts as lost."""

from __future__ import annotations

import pytest

from bot.cli import bench_telegram as cli_telegram
from bot.cli import telegram_common
from bot.turns import Reply, Turn


class _ShapedHandler:
    """Long replies (split in two messages) for one user, photos for another, plain text otherwise;
    raises on the turns whose text contains ``fail_on``."""

    def __init__(self, fail_on: str | None = None) -> None:
        self.fail_on = fail_on

    def handle(self, turn: Turn) -> Reply:
        if self.fail_on and self.fail_on in turn.text:
            raise RuntimeError("boom")
        if turn.user_id == "tg:100001":
            return Reply("line\n" * 1000)  # 5000 characters: two messages, the marker in the second
        if turn.user_id == "tg:100002":
            return Reply(f"poster of {turn.text}", image="https://example.org/poster.jpg")
        return Reply(f"ok {turn.text}")


@pytest.mark.parametrize(("fail_on", "lost"), [(None, 0), (cli_telegram.BENCH_TEXTS[1], 3)])
def test_bench_counts_every_reply_shape_and_apologies_as_lost(monkeypatch, fail_on, lost):
    monkeypatch.setattr(
        telegram_common, "real_dialog_manager", lambda db, session, processes=0, warmup=(): _ShapedHandler(fail_on)
    )
    result = cli_telegram.run_bench(users=3, per_user=3, timeout_s=60)
    assert result.handler.startswith("real DialogManager")
    assert (result.messages, result.lost) == (9, lost)  # BENCH_TEXTS[1]: each user's second turn fails
    assert result.cpu_s > 0 and result.msgs_per_s > 0


def test_bench_with_dialog_worker_processes_counts_every_reply(monkeypatch):
    from bot.dialog_pool import ProcessDialogHandler
    from tests.bot.pool_fakes import make_pid_handler

    made = []

    def workers(db, session, processes=0, warmup=()):
        handler = ProcessDialogHandler(make_pid_handler, processes=processes, warmup=warmup)
        handler.start()
        made.append(handler)
        return handler

    monkeypatch.setattr(telegram_common, "real_dialog_manager", workers)
    result = cli_telegram.run_bench(users=4, per_user=3, timeout_s=60, processes=2)
    assert result.handler.startswith("real DialogManager (2 worker processes")
    assert (result.messages, result.lost) == (12, 0)
    assert made and made[0].pids() == []  # the bench closed its workers


def test_a_turn_out_of_order_gets_no_marker():
    counting = cli_telegram._CountingHandler(_ShapedHandler(), mark=True)
    texts = cli_telegram.BENCH_TEXTS
    first = counting.handle(Turn("tg:7", texts[0]))
    swapped = counting.handle(Turn("tg:7", texts[2]))  # the user's second turn should be texts[1]
    assert first.text.endswith(cli_telegram._marker("tg:7", 0))
    assert swapped.text.endswith("[bench tg:7 out of order]") and counting.done == 2
