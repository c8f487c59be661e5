"""Channels: adapters that turn what a platform receives into :class:`bot.turns.Turn` values and
render :class:`bot.turns.Reply` values back (DialogueKit's platforms, Rasa's input/output channels).

- :mod:`bot.channels.render`: platform-neutral text helpers (HTML escaping, splitting at a size limit).
- :mod:`bot.channels.users`: the SQLite table of channel users (active / inactive).
- :mod:`bot.channels.telegram`: the Telegram adapter, the only package of the project that imports
  ``telegram`` (python-telegram-bot v22).
- :mod:`bot.channels.fake_bot_api`: a fake Telegram Bot API server on 127.0.0.1 (tests, the
  benchmark, trying the bot without a token). Import it explicitly; this package does not, so that
  importing :mod:`bot.channels` stays cheap.
"""
