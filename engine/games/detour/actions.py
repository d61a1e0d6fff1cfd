"""The typed shapes of `detour`'s actions (what `legal_actions` lists, `apply` takes)."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

Colour = Literal["blue", "orange", "green", "purple"]


class ChooseAction(TypedDict):
    """Secretly choose a card (10, 8, 6, 5) for a pawn; with 2 players name the colour."""
    type: Literal["choose"]
    card: int
    colour: NotRequired[Colour]


class MoveAction(TypedDict):
    """Use the resolving card's Move."""
    type: Literal["move"]


class TargetAction(TypedDict):
    """Use the resolving card's action against a seat (with 2 players: one of its colours)."""
    type: Literal["detour", "backward", "block"]
    target: str
    target_colour: NotRequired[Colour]


DetourAction = ChooseAction | MoveAction | TargetAction
