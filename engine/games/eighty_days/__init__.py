"""`eighty-days`: 80 Days by Emanuele Briano (Piatnik), 2-4 players."""

from engine import registry

from .ai import choose
from .rules import EightyDaysRules
from .state import DaysState

RULES = registry.register(EightyDaysRules(policy=choose))

__all__ = ["RULES", "DaysState", "EightyDaysRules", "choose"]
