"""The typed shapes of Rails & Sails' actions (what `legal_actions` lists, `apply` takes)."""

from __future__ import annotations

from typing import Literal, TypedDict


class KeepTicketsAction(TypedDict):
    """Keep these of the tickets dealt (at least 3 at the setup, 1 later)."""
    type: Literal["keep_tickets"]
    ids: list[str]


class TrainsAction(TypedDict):
    """`choose_mix`: trains of the 60 pieces (the rest ships); `exchange`: trains taken
    (negative: given back), one point each."""
    type: Literal["choose_mix", "exchange"]
    trains: int


class FaceUpDrawAction(TypedDict):
    """Take the face-up card in `slot` (naming it) and refill the slot from that deck."""
    type: Literal["draw"]
    source: Literal["face_up"]
    slot: int
    card: str
    refill: Literal["train", "ship"]


class BlindDrawAction(TypedDict):
    type: Literal["draw"]
    source: Literal["train_deck", "ship_deck"]


class ClaimAction(TypedDict):
    type: Literal["claim"]
    route: str
    cards: list[str]


class HarborAction(TypedDict):
    type: Literal["harbor"]
    city: str
    cards: list[str]


class SimpleAction(TypedDict):
    """`tickets` (draw destination tickets) or `pass` (only when nothing else is possible)."""
    type: Literal["tickets", "pass"]


RailsAction = (KeepTicketsAction | TrainsAction | FaceUpDrawAction | BlindDrawAction | ClaimAction
               | HarborAction | SimpleAction)
