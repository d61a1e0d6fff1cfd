"""Pure game rules: no I/O, no asyncio, no Discord, no Pillow."""

from engine import registry
from engine.core import Action, Event, IllegalAction, Rules, View
from engine.rng import Rng

__all__ = ["Action", "Event", "IllegalAction", "Rng", "Rules", "View", "registry"]
