"""`detour`: Around the Worlds in 80 Days, the print-and-play card game (2–4 players)."""

from engine import registry

from .rules import DetourRules, DetourState

RULES = registry.register(DetourRules())

__all__ = ["RULES", "DetourRules", "DetourState"]
