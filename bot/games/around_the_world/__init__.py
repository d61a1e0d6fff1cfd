"""Presentation of around-the-world (Around the World in 80 Days): the `/atw` command group,
labels, channel lines, status and hand texts.

`commands.py` declares the command group, `ui.py` the labels and texts (the `GameUI`), and
`locales/` the en/de/fr catalogs. The registry (`bot.games.spec`) looks up `UI` here.
"""

from __future__ import annotations

from bot.games.around_the_world.ui import UI

__all__ = ["UI"]
