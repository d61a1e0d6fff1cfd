"""Presentation of Rails & Sails: the `/rails` command group, labels and texts.

`commands.py` declares the command group, `ui.py` the labels and texts (the `GameUI`) and the
names of cards, routes and tickets, and `locales/` the en/de/fr catalogs. The registry
(`bot.games.spec`) looks up `UI` here; the names are re-exported for the tests that check them.
"""

from __future__ import annotations

from bot.games.rails_and_sails.ui import UI, cards_text, route_text, ticket_text

__all__ = ["UI", "cards_text", "route_text", "ticket_text"]
