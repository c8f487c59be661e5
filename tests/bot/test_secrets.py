"""Issue 17.2: the bot token (and the webhook secret) never appear in any output of any error path.

Each case runs ``corsbot -vv telegram --echo`` as a real process (so logging is configured as in
production, debug lines of python-telegram-bot and aiohttp included) and greps everything it printed
on stdout and stderr, plus every file it left in its ``CORSBOT_HOME``.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.channels.telegram import InstanceLock, lock_path_for
from bot.redact import redact, register_secret
from tests.bot.fake_telegram import TOKEN, FakeTelegram

WRONG = "123456789:SECRETWRONGsecretwrong"
WEBHOOK_SECRET = "WEBHOOKSECRETvalue42"
SECRETS = ("SECRETWRONG", "secretwrong", TOKEN.split(":", 1)[1], WEBHOOK_SECRET)


def _corsbot(home: Path, token: str, *args: str, stop_after: str | None = None, timeout: float = 40.0) -> str:
    env = dict(os.environ, CORSBOT_HOME=str(home), TELEGRAM_BOT_TOKEN=token, TELEGRAM_WEBHOOK_SECRET=WEBHOOK_SECRET)
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "-vv", "telegram", "--echo", "--processes", "0", *args],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True,
    )  # fmt: skip
    if stop_after is not None:  # a running bot: stop it with SIGTERM once the line shows up
        lines = []
        deadline = time.monotonic() + timeout
        assert proc.stdout is not None
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            if stop_after in line:
                time.sleep(1.0)
                proc.send_signal(signal.SIGTERM)
        out = "".join(lines) + proc.communicate(timeout=timeout)[0]
    else:
        out = proc.communicate(timeout=timeout)[0]
    files = "".join(p.read_text(errors="replace") for p in home.rglob("*") if p.is_file() and p.suffix != ".sqlite3")
    files += "".join(p.read_bytes().decode("latin-1") for p in home.rglob("*.sqlite3*") if p.is_file())
    return out + files


def _leaks(text: str) -> list[str]:
    return [s for s in SECRETS if s in text]


@pytest.fixture()
def fake():
    with FakeTelegram() as tg:
        yield tg


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_redact_masks_registered_secrets_and_secret_shapes():
    register_secret("987654:AnotherSecretValue")
    assert redact("x 987654:AnotherSecretValue y AnotherSecretValue") == "x 987654:<redacted> y <redacted>"
    assert "pw" not in redact("postgresql://bob:pw@127.0.0.1/db").split("@")[0].split(":")[-1]
    assert redact("http://h/bot1:abc/getMe") == "http://h/bot1:<redacted>/getMe"


def test_wrong_token(tmp_path, fake):
    out = _corsbot(tmp_path, WRONG, "--base-url", fake.base_url)
    assert "refused the bot token" in out and _leaks(out) == []


@pytest.mark.parametrize("base", ["http://127.0.0.1:notaport/bot", "http://127.0.0.1:{free}/bot", "ftp://x/bot"])
def test_unreachable_or_malformed_bot_api(tmp_path, base):
    out = _corsbot(tmp_path, WRONG, "--base-url", base.format(free=_free_port()))
    assert "corsbot: error:" in out and _leaks(out) == [], out


def test_malformed_token(tmp_path, fake):
    out = _corsbot(tmp_path, "SECRETWRONGsecretwrong", "--base-url", fake.base_url)
    assert "malformed" in out and _leaks(out) == []


def test_second_instance(tmp_path, fake):
    with InstanceLock(lock_path_for(TOKEN, tmp_path)):
        out = _corsbot(tmp_path, TOKEN, "--base-url", fake.base_url)
    assert "already running" in out and _leaks(out) == []


def test_webhook_port_in_use(tmp_path, fake):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        out = _corsbot(tmp_path, TOKEN, "--base-url", fake.base_url, "--webhook-url", "https://bot.example/hook",
                       "--listen", "127.0.0.1", "--port", str(port))  # fmt: skip
    assert "corsbot: error:" in out and _leaks(out) == [], out


def test_a_running_bot_with_failing_calls_and_a_conflict(tmp_path, fake):
    """-vv debug lines, a failing setMyCommands, a 502 on getUpdates, a send refused (traceback), 409."""
    fake.fail("setMyCommands", 500, "Internal Server Error")
    fake.fail("getUpdates", 502, "Bad Gateway")
    fake.fail("sendMessage", 400, "Bad Request: chat not found")
    fake.push_text(7, "hello")
    fake.fail("getUpdates", 409, "Conflict: terminated by other getUpdates request", times=1,
              when=lambda params: bool(fake.calls_of("sendMessage")))  # fmt: skip
    out = _corsbot(tmp_path, TOKEN, "--base-url", fake.base_url, timeout=60)
    assert any(line.startswith("telegram: serving") for line in out.splitlines()) and "409" in out, out
    assert _leaks(out) == [], [line for line in out.splitlines() if _leaks(line)][:5]


def test_serving_is_printed_only_after_getme(tmp_path, fake):
    out = _corsbot(tmp_path, WRONG, "--base-url", fake.base_url)
    assert not any(line.startswith("telegram: serving") for line in out.splitlines())
