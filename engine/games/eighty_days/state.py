"""The state of an `eighty-days` game and the typed shapes of its actions.

The state is one dataclass of JSON-safe fields (lists, dicts of str, ints, bools) so
the core's `dump`/`load` copy them cheaply and the hot paths index plain lists. Seats are indexed
0..n-1 in turn order; items are counts indexed like `content.ITEMS`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypedDict

SETUP, PLAY, OVER = "setup", "play", "over"


@dataclass
class DaysState:
    seats: list[str]
    #: side ("A"/"B"), assistants (bool), colors_festival (bool)
    options: dict[str, Any]
    characters: list[str]
    phase: str
    #: 1..5 once play starts (0 during the setup drafts)
    period: int
    #: the five newspapers of the game, for periods I..V (future ones are face down)
    newspapers: list[str]
    #: the four newspapers left in the box (hidden)
    newspaper_box: list[str]
    #: seat holding the start marker; seat whose turn it is; whether it took its action
    start: int
    current: int
    acted: bool
    passed: list[bool]
    #: everybody has passed: the period ends once no decision is pending
    period_over: bool
    coins: list[int]
    #: item counts per seat (the suitcase) and in the general supply
    items: list[list[int]]
    supply: list[int]
    city: list[str]
    #: arrival card points taken per seat (0: not arrived)
    arrival: list[int]
    in_london: list[bool]
    arrival_cards: list[int]
    #: the adventure card each seat holds ("" for none) - secret
    adventure: list[str]
    diary: list[list[str]]
    #: adventure decks, top = last element; returned cards go to index 0
    deck: list[str]
    london_deck: list[str]
    #: coin stacks on each travel and market area
    stacks: dict[str, list[int]]
    fix: list[str]
    juggler: list[int]
    #: side B: line id -> line tile id; pass tiles on the board with their coins
    line_tiles: dict[str, str]
    pass_tiles: list[str]
    pass_coins: dict[str, int]
    pass_box: list[str]
    #: pass tile taken this period per seat ("" for none)
    taken_tile: list[str]
    assistant: list[str]
    assistant_box: list[str]
    turned: list[bool]
    matilda: list[int]
    #: per seat: decisions waiting, first one first (see rules.PENDING_KINDS)
    pending: list[list[dict[str, Any]]]
    #: the last black market / bonus die roll shown on the board
    last_roll: dict[str, Any]
    rng: int


# -- action shapes --------------------------------------------------------------------------
Area = Literal["ship", "train", "special"]
Market = Literal["boutique", "bazaar"]
ItemName = Literal["shoes", "revolver", "hat", "umbrella", "coat"]


class TravelAction(TypedDict):
    type: Literal["travel"]
    line: str
    area: Area


class BuyAction(TypedDict):
    type: Literal["buy"]
    market: Market
    item: ItemName


class StackAction(TypedDict):
    """`juggle`: take the coins of juggler stack 0, 1 or 2 (side A)."""
    type: Literal["juggle"]
    stack: int


class PassAction(TypedDict, total=False):
    """`pass`; on side B in periods I-IV with the pass tile taken."""
    type: Literal["pass"]
    tile: str


class LineAction(TypedDict):
    """`leonard`, `mary` and `free_travel`: move along this line."""
    type: Literal["leonard", "mary", "free_travel"]
    line: str


class ItemAction(TypedDict):
    """`give_back` an item, or `take_item` (a joker or a bonus: any item)."""
    type: Literal["give_back", "take_item"]
    item: ItemName


class SwapAction(TypedDict, total=False):
    """`jill` or `swap` (pass tile): give one item, take another; `swap` alone declines."""
    type: Literal["jill", "swap"]
    give: ItemName
    take: ItemName


class KeepAdventureAction(TypedDict):
    """Keep this card of the adventure cards drawn."""
    type: Literal["keep_adventure"]
    card: str


class KeepAssistantAction(TypedDict):
    """Keep this assistant of the two dealt."""
    type: Literal["keep_assistant"]
    assistant: str


class ObserverAction(TypedDict, total=False):
    """The Observer: with `item`, 13 coins and that item back; without, 10 coins."""
    type: Literal["observer"]
    item: ItemName


class AlbertAction(TypedDict):
    type: Literal["albert"]
    keep: bool


class SimpleAction(TypedDict):
    """`black_market`, `complete`, `search`, `end_turn`, `luigi`, `paul`."""
    type: Literal["black_market", "complete", "search", "end_turn", "luigi", "paul"]
