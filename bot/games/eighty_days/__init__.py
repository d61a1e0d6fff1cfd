"""Presentation of 80 Days: the `/days` command group, labels, channel lines and texts.

`commands.py` declares the command group, `ui.py` the labels and texts (the `GameUI`), and
`locales/` the en/de/fr catalogs. The registry (`bot.games.spec`) looks up `UI` here.
"""

from __future__ import annotations

from bot.games.eighty_days.ui import UI

__all__ = ["UI"]
