"""Presentation of detour (Around the Worlds in 80 Days): the `/detour` command group, labels, texts.

`commands.py` declares the command group, `ui.py` the labels and texts (the `GameUI`), and
`locales/` the en/de/fr catalogs. The registry (`bot.games.spec`) looks up `UI` here.
"""

from __future__ import annotations

from bot.games.detour.ui import UI

__all__ = ["UI"]
