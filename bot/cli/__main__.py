"""``python -m bot.cli``: the ``corsbot`` command."""

import sys

from bot.cli import main

sys.exit(main())
