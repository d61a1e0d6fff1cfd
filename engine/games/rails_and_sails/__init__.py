"""Rails & Sails: world-map route building with trains, ships and harbors."""

from engine import registry

from .ai import choose
from .rules import RailsAndSails, RSState

RULES = registry.register(RailsAndSails(policy=choose))

__all__ = ["RULES", "RSState", "RailsAndSails", "choose"]
