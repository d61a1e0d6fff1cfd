"""Around the World in 80 Days (Michael Rieneck, Kosmos 2004): 2-6 players race round the globe."""

from engine import registry
from engine.games.around_the_world.ai import choose
from engine.games.around_the_world.cards import leg_days
from engine.games.around_the_world.rules import AroundTheWorldRules, State

RULES = registry.register(AroundTheWorldRules(policy=choose))

__all__ = ["RULES", "AroundTheWorldRules", "State", "choose", "leg_days"]
