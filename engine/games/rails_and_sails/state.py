"""The state of a Rails & Sails game: one dataclass of JSON-safe fields."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any


@dataclass
class RSState:
    seats: list[str]
    rng: int
    phase: str  # setup_tickets | setup_pieces | play | over
    current: int
    turn: int
    drawn: int  # transport cards taken so far in the current turn (0 or 1)
    train_deck: list[str]  # top of a deck is the END of the list
    ship_deck: list[str]
    train_discard: list[str]
    ship_discard: list[str]
    face_up: list[str | None]
    ticket_deck: list[str]  # top is the end; returned tickets go to index 0 (under the deck)
    hands: list[dict[str, int]]
    tickets: list[list[str]]
    pending: list[list[str]]
    mix: list[int | None]  # trains chosen in the secret setup choice
    trains: list[int]
    ships: list[int]
    box_trains: list[int]
    box_ships: list[int]
    harbors_left: list[int]
    claimed: dict[str, int]  # route id -> seat index
    harbors: dict[str, int]  # city id -> seat index
    scores: list[int]  # route points minus exchange costs
    final_left: list[int] | None
    last: dict[str, Any] | None
    idle: int
    result: dict[str, Any] | None
    #: cards each seat is known to hold: taken face up and not seen paid since (card -> count;
    #: a lower bound of the hand, public)
    seen: list[dict[str, int]] = field(default_factory=list)


_FIELDS = [f.name for f in fields(RSState)]
