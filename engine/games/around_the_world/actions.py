"""The typed shapes of Around the World's actions (what `legal_actions` lists, `apply` takes)."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict


class TakeAction(TypedDict):
    """Take the card in display slot `slot` (naming it, so a stale choice cannot take another)."""
    type: Literal["take"]
    slot: int
    card: str


class SimpleAction(TypedDict):
    """`take_top` (6 players, last of the round), `done`, `reroll`, `elephant_gold`."""
    type: Literal["take_top", "done", "reroll", "elephant_gold"]


class DisplayAction(TypedDict):
    """Use or skip the action of the display card taken (`event`, `chit_event`, `first_player`, ...)."""
    type: Literal["use_action", "skip_action"]
    action: str


class LocationAction(TypedDict):
    """`detective`: move the detective there; `stay`: end the turn where one is."""
    type: Literal["detective", "stay"]
    location: str


class ExchangeAction(TypedDict):
    type: Literal["exchange"]
    cards: list[str]


class TravelAction(TypedDict):
    """Travel one leg with these cards: `days` when fixed, or `balloon` naming the card the
    balloon replaces (the die decides)."""
    type: Literal["travel"]
    cards: list[str]
    to: str
    days: NotRequired[int]
    balloon: NotRequired[str]


class KeepAction(TypedDict):
    type: Literal["keep"]
    roll: int


#: play an event card; the princess copies the top discard (`as`); a detective names a place
#: (functional form: `as` is a Python keyword)
EventAction = TypedDict("EventAction", {
    "type": Literal["event"], "card": str, "as": NotRequired[str], "location": NotRequired[str],
})


class BuyAction(TypedDict):
    type: Literal["buy"]
    deck: Literal["travel", "event"]


class DiscardAction(TypedDict):
    type: Literal["discard"]
    card: str


AtwAction = (TakeAction | SimpleAction | DisplayAction | LocationAction | ExchangeAction | TravelAction
             | KeepAction | EventAction | BuyAction | DiscardAction)
