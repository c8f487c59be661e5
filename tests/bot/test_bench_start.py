"""corsbot bench start: a broken runtime folder is a one-line error, not a fast start."""

from __future__ import annotations

import pytest

from bot.cli import build_parser
from bot.cli.bench_start import ONE_DOMAIN, THREE_DOMAINS, start_once
from corsbot_errors import ConfigError


def test_bench_start_is_a_bench_subcommand_next_to_telegram():
    parser = build_parser()
    args = parser.parse_args(["bench", "start", "--runs", "2"])
    assert args.runs == 2 and args.warmup == 1
    assert parser.parse_args(["bench", "telegram"]).handler.__name__ == "_bench_cli"
    assert {d for d, _ in THREE_DOMAINS} == {"movie", "book", "music"} and ONE_DOMAIN[0][0] == "movie"


def test_a_missing_model_fails_the_run(tmp_path, monkeypatch):
    monkeypatch.setenv("CORSBOT_HOME", str(tmp_path))
    (tmp_path / "kb").mkdir()
    (tmp_path / "models" / "intent").mkdir(parents=True)
    with pytest.raises(ConfigError, match="the chat process failed or timed out"):
        start_once(ONE_DOMAIN, timeout=60)
