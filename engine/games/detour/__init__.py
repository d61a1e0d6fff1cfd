"""`detour`: Around the Worlds in 80 Days, the print-and-play card game (2–4 players)."""

from engine import registry

from .ai import choose
from .rules import DetourRules, DetourState

RULES = registry.register(DetourRules(policy=choose))

__all__ = ["RULES", "DetourRules", "DetourState", "choose"]
