"""`eighty-days`: 80 Days by Emanuele Briano (Piatnik), 2-4 players."""

from engine import registry

from .rules import EightyDaysRules
from .state import DaysState

RULES = registry.register(EightyDaysRules())

__all__ = ["RULES", "DaysState", "EightyDaysRules"]
