"""The state of an Around the World game (one dataclass of JSON-safe fields)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core import Result

from . import data as D


@dataclass
class State:
    seats: list[str]
    options: dict[str, Any]
    rng: int
    round: int = 1
    phase: str = "take"  # take | action | travel | roll | discard | over
    first: int = 0  # seat index with the first-player marker this round
    new_first: int = -1  # who took the first-player action this round
    order: list[int] = field(default_factory=list)  # seat indices playing this round, in order
    turn: int = 0  # index into order
    progress: list[int] = field(default_factory=list)  # 0..10; 10 = back in London
    days: list[int] = field(default_factory=list)
    gold: list[int] = field(default_factory=list)
    gold_supply: int = 0
    detective: int = D.DETECTIVE_START
    chits: list[list[str | None]] = field(default_factory=list)  # [red, blue] for locations 1..9
    display: list[str | None] = field(default_factory=list)
    travel_deck: list[str] = field(default_factory=list)
    travel_discard: list[str] = field(default_factory=list)
    event_deck: list[str] = field(default_factory=list)
    event_discard: list[str] = field(default_factory=list)
    hand: list[list[str]] = field(default_factory=list)  # travel cards per seat (sorted)
    events: list[list[str]] = field(default_factory=list)  # event cards per seat (sorted)
    arrival_order: list[int] = field(default_factory=list)
    arrival_round: list[int] = field(default_factory=list)  # 0: not arrived
    last_roll: list[int] | None = None
    # -- the turn in progress
    taken: str | None = None  # display action taken this turn ("top": 6-player top card)
    pending: str | None = None  # optional action awaiting use/skip
    balloon: bool = False  # the display balloon is available for one leg this turn
    armed: list[str] = field(default_factory=list)  # event effects waiting for a leg
    travels: int = 0  # legs travelled this turn
    extra: bool = False  # Connections played this turn
    last_leg: int = -1  # the last leg travelled this turn
    roll: dict[str, Any] | None = None  # {"kind", "fixed", "to", "cards"} while rolling
    result: Result | None = None
    #: travel cards each seat is known to hold: taken from the display in the open and not
    #: seen to leave since (sorted; a lower bound of the hand, public)
    seen: list[list[str]] = field(default_factory=list)
