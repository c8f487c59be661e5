"""``python -m bot.channels.fake_bot_api``: serve the fake Bot API on asyncio in this process (prints
``PORT <n>``, serves until stdin closes); what ``corsbot bench telegram`` starts in a subprocess."""

from __future__ import annotations

from bot.channels.fake_bot_api.server import FakeTelegram


def main() -> None:
    """Serve in this process on asyncio (for benchmarks): prints ``PORT <n>``, serves until stdin closes."""
    import asyncio  # noqa: PLC0415
    import sys  # noqa: PLC0415

    async def run() -> None:
        fake = FakeTelegram(port=0)
        fake._server.server_close()  # the threaded transport is not used here
        server = await fake.serve_async()
        print(f"PORT {server.sockets[0].getsockname()[1]}", flush=True)  # noqa: T201 - the parent reads it
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        fake._closing = True
        server.close()

    asyncio.run(run())


if __name__ == "__main__":
    main()
