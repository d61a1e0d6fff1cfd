"""Rails & Sails constants and the static indexes over the map the rules and payments use."""

from __future__ import annotations

from typing import Any

from .mapdata import (
    CITIES,
    COLOURS,
    ROUTES,
    SHIP_CARDS,
    TRAIN_CARDS,
    WILD,
)

GAME_ID = "rails-and-sails"
PIECES_TOTAL = 60
MAX_TRAINS = 25
MAX_SHIPS = 50
MIN_TRAINS = PIECES_TOTAL - MAX_SHIPS  # 10
HARBORS_PER_PLAYER = 3
END_PIECES = 6
SETUP_TICKETS = 5
SETUP_KEEP = 3
DRAW_TICKETS = 4
#: consecutive turns (per player) without a claim or harbor after which the end is triggered
IDLE_TURNS_PER_PLAYER = 40
#: the face-up layout is redealt at most this often in a row (three wilds each time)
MAX_REDEALS = 5
#: search budget of the route-ticket order check (nodes visited)
ORDER_BUDGET = 100_000
HARBOR_POINTS = (0, 20, 30, 40)
UNBUILT_HARBOR_PENALTY = 4

# -- card helpers (card codes: "t:red", "t:red:h", "t:wild", "s:red", "s:red:2") ------------
TRAIN_PLAIN = {c: f"t:{c}" for c in COLOURS}
TRAIN_HARBOR = {c: f"t:{c}:h" for c in COLOURS}
SHIP_SINGLE = {c: f"s:{c}" for c in COLOURS}
SHIP_DOUBLE = {c: f"s:{c}:2" for c in COLOURS}
ALL_CARD_CODES = frozenset(TRAIN_CARDS) | frozenset(SHIP_CARDS)


def card_kind(card: str) -> str:
    return "train" if card[0] == "t" else "ship"


def card_colour(card: str) -> str | None:
    """Colour of a card, None for a wild."""
    if card == WILD:
        return None
    return card.split(":")[1]


# -- static map indexes -----------------------------------------------------------------------
ROUTE_INDEX = {r.id: i for i, r in enumerate(ROUTES)}
ROUTES_AT: dict[str, list[str]] = {}
for _r in ROUTES:
    ROUTES_AT.setdefault(_r.a, []).append(_r.id)
    ROUTES_AT.setdefault(_r.b, []).append(_r.id)
for _r in ROUTES:
    # the payment listing relies on it: a rough route is rough on every space (rulebook)
    if _r.rough not in (0, _r.length) or (_r.rough and _r.kind != "train"):
        raise ValueError(f"route {_r.id}: rough terrain must cover every space of a train route")
_groups: dict[tuple[str, str, int, bool], list[tuple[str, str | None]]] = {}
for _r in ROUTES:
    # a rough route's colour never matters (each space takes a pair of any colour): it is
    # listed with the grey routes
    _colour = "grey" if _r.rough else _r.colour
    _groups.setdefault((_r.kind, _colour, _r.length, bool(_r.rough)), []).append((_r.id, _r.double))
#: coloured train routes by colour: (length, [(id, twin)]) sorted by length
TRAIN_GROUPS: dict[str, list[tuple[int, list[tuple[str, str | None]]]]] = {c: [] for c in COLOURS}
#: coloured ship routes by colour: (length, [(id, twin)]) sorted by length
SHIP_GROUPS: dict[str, list[tuple[int, list[tuple[str, str | None]]]]] = {c: [] for c in COLOURS}
#: grey and rough routes: (kind, length, rough, [(id, twin)])
GREY_GROUPS: list[tuple[str, int, bool, list[tuple[str, str | None]]]] = []
for (_k, _c, _n, _rough), _routes in _groups.items():
    if _c == "grey":
        GREY_GROUPS.append((_k, _n, _rough, _routes))
    elif _k == "train":
        TRAIN_GROUPS[_c].append((_n, _routes))
    else:
        SHIP_GROUPS[_c].append((_n, _routes))
for _c in COLOURS:
    TRAIN_GROUPS[_c].sort(key=lambda g: g[0])
    SHIP_GROUPS[_c].sort(key=lambda g: g[0])
HARBOR_CITIES = frozenset(c.id for c in CITIES.values() if c.harbor)
DRAW_SOURCES = ("face_up", "train_deck", "ship_deck")
_COLOUR_INDEX = {c: k for k, c in enumerate(COLOURS)}


#: the face-up draw actions by (train deck not empty, ship deck not empty), slot and card
#: (`_draw_options` hands out these shared dicts: nobody mutates an action): one per deck
#: that can refill the slot. With both decks empty (so both discards too: an emptied deck
#: takes its discards at once) no card can be taken at all, face-up ones included
#: (rulebook, "Transportkarten nehmen").
_FACE_UP_DRAWS: dict[tuple[bool, bool], list[dict[str, tuple[dict[str, Any], ...]]]] = {
    (train, ship): [
        {
            card: tuple(
                {"type": "draw", "source": "face_up", "slot": slot, "card": card, "refill": refill}
                for refill in [k for k, ok in (("train", train), ("ship", ship)) if ok]
            )
            for card in sorted(set(TRAIN_CARDS) | set(SHIP_CARDS))
        }
        for slot in range(6)
    ]
    for train in (False, True) for ship in (False, True)
}
#: exchange actions, 1, 2, ... trains taken (`_EXCHANGE_UP`) or given back (`_EXCHANGE_DOWN`)
_EXCHANGE_UP = tuple({"type": "exchange", "trains": n} for n in range(1, PIECES_TOTAL + 1))
_EXCHANGE_DOWN = tuple({"type": "exchange", "trains": -n} for n in range(1, PIECES_TOTAL + 1))
#: per route the harbor cities at its ends
_HARBOR_ENDS = {r.id: tuple(c for c in (r.a, r.b) if c in HARBOR_CITIES) for r in ROUTES}
