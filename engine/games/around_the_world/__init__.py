"""Around the World in 80 Days (Michael Rieneck, Kosmos 2004): 2-6 players race round the globe."""

from engine import registry
from engine.games.around_the_world.rules import AroundTheWorldRules, State, leg_days

RULES = registry.register(AroundTheWorldRules())

__all__ = ["RULES", "AroundTheWorldRules", "State", "leg_days"]
