"""Board, cards, chits and event deck of Around the World in 80 Days.

See shared/rules/around-the-world.md for which parts come from the rulebooks and which
are project decisions (the rulebooks name the legs and cards but print no full list).
"""

from __future__ import annotations

GAME_ID = "around-the-world"
TITLE = "Around the World in 80 Days"

LOCATIONS: list[str] = [
    "london", "paris", "brindisi", "suez", "bombay",
    "calcutta", "hong_kong", "yokohama", "san_francisco", "new_york",
]
#: progress value of a traveller back in London
HOME = len(LOCATIONS)
BOMBAY = LOCATIONS.index("bombay")
ELEPHANT_LEG = BOMBAY  # leg index Bombay -> Calcutta
WALK_DAYS = 12
ELEPHANT_BASE = 6

#: leg i goes from LOCATIONS[i] to LOCATIONS[(i + 1) % 10]; each option is the card kinds needed
LEG_OPTIONS: list[list[tuple[str, ...]]] = [
    [("ship", "train")],              # London -> Paris (rulebook example)
    [("train",)],                     # Paris -> Brindisi
    [("ship",)],                      # Brindisi -> Suez
    [("ship", "ship")],               # Suez -> Bombay (rulebook example)
    [],                               # Bombay -> Calcutta: no cards (12 days or elephant)
    [("ship",)],                      # Calcutta -> Hong Kong
    [("ship", "ship"), ("train", "ship")],  # Hong Kong -> Yokohama: two arrows
    [("ship", "ship")],               # Yokohama -> San Francisco
    [("train", "train")],             # San Francisco -> New York
    [("ship", "ship", "train")],      # New York -> London (rulebook example)
]
#: the same as (ships, trains) counts
LEG_REQS: list[list[tuple[int, int]]] = [
    sorted({(opt.count("ship"), opt.count("train")) for opt in options}) for options in LEG_OPTIONS
]

TRAIN_COUNTS = {2: 5, 3: 6, 4: 7, 5: 8, 6: 4}
SHIP_COUNTS = {4: 4, 5: 6, 6: 7, 7: 8, 8: 5}


_TRAVEL_DECK: tuple[str, ...] = (*(f"train:{v}" for v, n in TRAIN_COUNTS.items() for _ in range(n)),
                                  *(f"ship:{v}" for v, n in SHIP_COUNTS.items() for _ in range(n)))


def travel_deck() -> list[str]:
    """A fresh, unshuffled travel deck (a new list each time: the caller shuffles it)."""
    return list(_TRAVEL_DECK)


#: card string -> (kind, days)
CARD_INFO: dict[str, tuple[str, int]] = {
    c: (c.split(":")[0], int(c.split(":")[1])) for c in set(travel_deck())
}

EVENT_COUNTS: dict[str, int] = {
    "delay": 1, "bad_weather": 1, "balloon": 2, "elephant": 2, "propeller_train": 2,
    "submarine": 2, "offer": 2, "connections": 1, "detective": 1, "princess": 1,
}
GREY_DAYS = {"delay": 1, "bad_weather": 2}
EVENT_IDS = list(EVENT_COUNTS)


_EVENT_DECK: tuple[str, ...] = tuple(e for e, n in EVENT_COUNTS.items() for _ in range(n))


def event_deck(players: int) -> list[str]:
    """A fresh, unshuffled event deck for this many players."""
    cards = list(_EVENT_DECK)
    if players == 2:
        cards.remove("connections")  # removed in the 2-player game
    return cards


#: per colour: 3 gold, 2 event, 2 travel, 2 "all others lose 1 day"
CHIT_SET: list[str] = ["gold"] * 3 + ["event"] * 2 + ["travel"] * 2 + ["others_lose_day"] * 2

#: the action display, left to right
DISPLAY_ACTIONS: list[str] = ["gold", "balloon", "event", "detective", "first_player", "exchange"]

GOLD_TOTAL = 24
START_GOLD = 1
START_CARDS = 3
HAND_LIMIT = 6
DETECTIVE_START = LOCATIONS.index("brindisi")
DETECTIVE_DAYS = 2
BUY_COST = 2
TARGET_DAYS = 80


def display_size(travelling: int) -> int:
    """Cards laid out for this many players still travelling (rulebook table)."""
    if travelling <= 2:
        return 3
    if travelling == 3:
        return 4
    if travelling == 4:
        return 5
    return 6


def legs_view() -> list[dict]:
    legs = []
    for i, options in enumerate(LEG_OPTIONS):
        leg: dict = {"from": LOCATIONS[i], "to": LOCATIONS[(i + 1) % len(LOCATIONS)],
                     "options": [list(o) for o in options]}
        if not options:
            leg["days"] = WALK_DAYS
        legs.append(leg)
    return legs
