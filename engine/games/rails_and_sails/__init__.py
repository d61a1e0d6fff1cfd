"""Rails & Sails: world-map route building with trains, ships and harbors."""

from engine import registry

from .rules import RailsAndSails, RSState

RULES = registry.register(RailsAndSails())

__all__ = ["RULES", "RSState", "RailsAndSails"]
