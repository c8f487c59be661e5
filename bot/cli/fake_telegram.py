"""``corsbot fake-telegram``: the fake Telegram Bot API server on 127.0.0.1, with you as its user.

For trying the bot without a token or a network: this command serves the fake Bot API
(:mod:`bot.channels.fake_bot_api`, what the tests and the benchmarks use) and turns each line you
type into a message from a fake user; the bot's answers are printed (buttons as ``[label]``; type
``/press N`` to tap the N-th button of the last answer). Run the bot in another terminal with the
token and ``--base-url`` this command prints.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from typing import TYPE_CHECKING, Any

from bot.cli.args import port as port_number

if TYPE_CHECKING:
    from bot.channels.fake_bot_api import FakeTelegram

USER = 1


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``fake-telegram`` to the top-level parser."""
    p = sub.add_parser("fake-telegram", help="a local fake Telegram Bot API to try the bot without a token",
                       description=__doc__.split("\n\n")[1].replace("\n", " "))  # fmt: skip
    p.add_argument("--port", type=port_number, default=8081, help="port on 127.0.0.1 (default 8081)")
    p.set_defaults(handler=_cli)


def _cli(args: argparse.Namespace) -> int:
    from bot.channels.fake_bot_api import TOKEN, FakeTelegram  # noqa: PLC0415
    from bot.errors import bind_error  # noqa: PLC0415

    # update ids from the current time: a bot whose database holds an earlier run's updates (ids from
    # the same kind of start) takes these for new ones, not for those
    try:
        fake = FakeTelegram(port=args.port, first_update_id=int(time.time() * 1000))
    except OSError as exc:
        raise bind_error("127.0.0.1", args.port, exc) from None
    with fake:
        print(f"fake Telegram Bot API on http://127.0.0.1:{fake.port}; in another terminal run:\n"
              f"  TELEGRAM_BOT_TOKEN={TOKEN} corsbot telegram --base-url http://127.0.0.1:{fake.port}/bot\n"
              "then type messages here (Ctrl-D quits; /press N taps the N-th button of the last answer)",
              flush=True)  # fmt: skip
        last: dict[str, Any] | None = None
        for line in sys.stdin:
            text = line.rstrip("\n")
            if not text.strip():
                continue
            seen = len(fake.events)
            if text.startswith("/press ") and last and last.get("buttons"):
                buttons = [b for row in last["buttons"] for b in row]
                try:
                    label, data = buttons[int(text.split()[1]) - 1]
                except (ValueError, IndexError):
                    print("  (no such button)")
                    continue
                fake.push_callback(USER, last["message_id"], data)
            else:
                fake.push_text(USER, text)
            deadline = time.monotonic() + 30
            fake.wait_for(functools.partial(_events_after, fake, seen), timeout=30)
            time.sleep(0.3)  # a reply may come in several messages
            if len(fake.events) == seen and time.monotonic() >= deadline:
                print("  (no answer within 30 s: is the bot running with the --base-url above?)")
            for event in fake.events[seen:]:
                body = event["text"] if event["text"] is not None else (event["caption"] or "")
                shown = "  ".join(f"[{label}]" for row in event["buttons"] for label, _ in row)
                print(f"bot> {body}" + (f"\n     {shown}" if shown else ""), flush=True)
                last = event
    return 0


def _events_after(fake: FakeTelegram, seen: int) -> bool:
    """The bot sent or edited a message since ``seen`` events."""
    return len(fake.events) > seen
