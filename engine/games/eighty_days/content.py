"""Content of `eighty-days` as data: the project's own map, items, suitcases and cards.

The rulebook lists the newspapers, assistants and pass tiles; it does not print the map,
the item shapes, the suitcases, the adventure or the arrival cards, so those are designed
here within the project's settled constraints. Titles are not part of the engine: every
card has a stable id and the UI catalogs carry its en/de/fr title (the short English
working title in the comment next to each card is for the catalog writer).
"""

from __future__ import annotations

from collections import deque
from typing import Any

# -- items -------------------------------------------------------------------------------
ITEMS: tuple[str, ...] = ("shoes", "revolver", "hat", "umbrella", "coat")
ITEM_INDEX: dict[str, int] = {name: k for k, name in enumerate(ITEMS)}
SHOES, REVOLVER, HAT, UMBRELLA, COAT = range(5)
#: the general supply at the start (rulebook: 12 shoes, 8 of each other item)
ITEM_COUNTS: tuple[int, ...] = (12, 8, 8, 8, 8)
#: item shapes as (row, col) cells; rotations and reflections are free
SHAPES: tuple[tuple[tuple[int, int], ...], ...] = (
    ((0, 0), (0, 1)),                                  # shoes: a domino
    ((0, 0), (1, 0), (1, 1)),                          # revolver: an L of three
    ((0, 0), (0, 1), (1, 0), (1, 1)),                  # hat: a 2x2 box
    ((0, 0), (0, 1), (0, 2), (0, 3)),                  # umbrella: a bar of four
    ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0)),          # coat: a P of five
)
#: the black market die: the five items and the joker (any item)
DIE_FACES: tuple[str, ...] = (*ITEMS, "joker")
#: what each market sells (the Guardian adds revolvers to the boutique for its period)
MARKET_ITEMS: dict[str, tuple[int, ...]] = {"boutique": (SHOES, HAT, COAT), "bazaar": (SHOES, REVOLVER, UMBRELLA)}

# -- character suitcases ----------------------------------------------------------------
#: four character boards (the rulebook names none): each suitcase is a grid, '#' = space.
#: All hold 20 cells in different outlines, so seats are equal but packings differ.
SUITCASES: dict[str, tuple[str, ...]] = {
    "explorer": ("#####", "#####", "#####", "#####"),           # The Explorer: square trunk
    "reporter": ("#######", "#######", "######."),               # The Reporter: long carpet bag
    "heiress": (".####.", "######", "######", ".####."),       # The Heiress: round hatbox case
    "inventor": ("###.##", "###.##", "###.##", "###.##"),       # The Inventor: case with a divider
}
CHARACTERS: tuple[str, ...] = tuple(SUITCASES)
#: Jean's second suitcase, drawn right of the first with one empty column between
JEAN_CASE: tuple[str, ...] = ("###", "###")

# -- map -----------------------------------------------------------------------------------
START, ARRIVAL = "london", "london_arrival"
BOUTIQUE, BAZAAR, BOTH = "boutique", "bazaar", "both"
#: city -> (market symbol, x, y) on a 1000 x 500 board; London appears at both edges
CITIES: dict[str, tuple[str, int, int]] = {
    START: (BOTH, 38, 150),
    "paris": (BOUTIQUE, 90, 170),
    "lisbon": (BAZAAR, 60, 290),
    "turin": (BOUTIQUE, 144, 200),
    "brindisi": (BOTH, 171, 270),
    "istanbul": (BAZAAR, 225, 190),
    "suez": (BAZAAR, 243, 300),
    "tehran": (BOUTIQUE, 297, 200),
    "aden": (BOUTIQUE, 288, 370),
    "bombay": (BOTH, 360, 320),
    "delhi": (BAZAAR, 378, 230),
    "calcutta": (BOUTIQUE, 432, 270),
    "singapore": (BAZAAR, 468, 400),
    "bangkok": (BOUTIQUE, 486, 320),
    "hong_kong": (BOTH, 540, 290),
    "shanghai": (BAZAAR, 558, 220),
    "yokohama": (BOUTIQUE, 612, 210),
    "honolulu": (BAZAAR, 695, 320),
    "san_francisco": (BOTH, 765, 230),
    "salt_lake_city": (BOUTIQUE, 825, 175),
    "new_orleans": (BOUTIQUE, 850, 310),
    "chicago": (BAZAAR, 880, 160),
    "new_york": (BOTH, 915, 235),
    "liverpool": (BAZAAR, 950, 125),
    ARRIVAL: (BOTH, 990, 185),
}

SHIP, TRAIN, SPECIAL = "ship", "train", "special"
TRAVEL_AREAS: tuple[str, ...] = (SHIP, TRAIN, SPECIAL)
MARKET_AREAS: tuple[str, ...] = ("boutique", "bazaar", "black")
AREAS: tuple[str, ...] = TRAVEL_AREAS + MARKET_AREAS

#: a line cost: ("item", name) or ("coins", n); None = no cost
Cost = tuple[str, Any] | None
#: line id -> (city, city, kind, side-A printed cost, side-B tile space)
LINES: dict[str, tuple[str, str, str, Cost, bool]] = {
    "l01": (START, "paris", TRAIN, None, False),
    "l02": (START, "paris", SHIP, None, False),
    "l03": (START, "lisbon", SHIP, ("coins", 1), True),
    "l04": ("paris", "turin", TRAIN, None, False),
    "l05": ("paris", "lisbon", SPECIAL, ("item", "hat"), True),
    "l06": ("lisbon", "brindisi", SHIP, None, False),
    "l07": ("turin", "brindisi", TRAIN, None, False),
    "l08": ("turin", "istanbul", TRAIN, ("item", "revolver"), True),
    "l09": ("brindisi", "suez", SHIP, None, False),
    "l10": ("istanbul", "suez", SPECIAL, ("item", "umbrella"), True),
    "l11": ("istanbul", "tehran", TRAIN, None, False),
    "l12": ("suez", "aden", SHIP, None, False),
    "l13": ("tehran", "bombay", SPECIAL, ("coins", 2), True),
    "l14": ("tehran", "delhi", TRAIN, None, False),
    "l15": ("aden", "bombay", SHIP, None, False),
    "l16": ("bombay", "delhi", TRAIN, None, False),
    "l17": ("bombay", "calcutta", SPECIAL, ("item", "shoes"), True),
    "l18": ("delhi", "calcutta", TRAIN, None, False),
    "l19": ("bombay", "singapore", SHIP, ("coins", 1), False),
    "l20": ("calcutta", "singapore", SHIP, None, False),
    "l21": ("calcutta", "bangkok", SPECIAL, ("item", "coat"), True),
    "l22": ("singapore", "bangkok", TRAIN, None, False),
    "l23": ("singapore", "hong_kong", SHIP, None, True),
    "l24": ("bangkok", "hong_kong", SPECIAL, ("coins", 1), False),
    "l25": ("hong_kong", "shanghai", SHIP, None, False),
    "l26": ("hong_kong", "yokohama", SHIP, ("coins", 2), False),
    "l27": ("shanghai", "yokohama", SPECIAL, None, False),
    "l28": ("yokohama", "honolulu", SHIP, None, False),
    "l29": ("yokohama", "san_francisco", SHIP, ("item", "umbrella"), True),
    "l30": ("shanghai", "honolulu", SPECIAL, ("item", "coat"), True),
    "l31": ("honolulu", "san_francisco", SHIP, None, False),
    "l32": ("san_francisco", "salt_lake_city", TRAIN, None, False),
    "l33": ("salt_lake_city", "chicago", TRAIN, ("item", "revolver"), True),
    "l34": ("salt_lake_city", "new_orleans", SPECIAL, None, False),
    "l35": ("chicago", "new_york", TRAIN, None, False),
    "l36": ("chicago", "new_orleans", SHIP, None, True),
    "l37": ("new_orleans", "new_york", SHIP, None, False),
    "l38": ("new_york", "liverpool", SHIP, None, True),
    "l39": ("new_york", ARRIVAL, SPECIAL, ("coins", 2), True),
    "l40": ("liverpool", ARRIVAL, TRAIN, None, False),
    "l41": ("san_francisco", "chicago", SPECIAL, ("item", "hat"), True),
    "l42": ("liverpool", ARRIVAL, SHIP, ("item", "shoes"), False),
    "l43": ("suez", "bombay", SHIP, ("coins", 1), True),
    "l44": ("san_francisco", "new_york", TRAIN, ("item", "revolver"), False),
    "l45": ("hong_kong", "shanghai", SPECIAL, None, False),
}
#: side B: the 16 line tiles (the same kinds of costs as side A prints), dealt at random
LINE_TILES: dict[str, tuple[str, Any]] = {
    "t01": ("coins", 1), "t02": ("coins", 1), "t03": ("coins", 1), "t04": ("coins", 1),
    "t05": ("coins", 2), "t06": ("coins", 2), "t07": ("coins", 2), "t08": ("coins", 3),
    "t09": ("item", "shoes"), "t10": ("item", "shoes"), "t11": ("item", "revolver"),
    "t12": ("item", "revolver"), "t13": ("item", "hat"), "t14": ("item", "umbrella"),
    "t15": ("item", "umbrella"), "t16": ("item", "coat"),
}
TILE_SPACES: tuple[str, ...] = tuple(lid for lid, line in LINES.items() if line[4])

#: city -> [(line id, other city)], in line order
NEIGHBOURS: dict[str, list[tuple[str, str]]] = {c: [] for c in CITIES}
for _lid, (_a, _b, *_rest) in LINES.items():
    NEIGHBOURS[_a].append((_lid, _b))
    NEIGHBOURS[_b].append((_lid, _a))


def _distances(target: str) -> dict[str, int]:
    """Fewest lines from every city to `target` (breadth-first over all lines)."""
    dist = {target: 0}
    todo = deque([target])
    while todo:
        city = todo.popleft()
        for _lid, other in NEIGHBOURS[city]:
            if other not in dist:
                dist[other] = dist[city] + 1
                todo.append(other)
    return dist


#: cities from the arrival London by the fewest lines (the end-of-game penalty counts
#: these; the start London is a separate place on the west edge, far from the arrival)
DISTANCE: dict[str, int] = _distances(ARRIVAL)

# -- newspapers, assistants, pass tiles (rulebook) -------------------------------------------
#: newspaper -> coins for everyone (the Observer: option b; option a gives 13 and an item back)
NEWSPAPERS: dict[str, int] = {
    "stormy_today": 12, "broken_mirror": 12, "foggy_journal": 13, "good_times": 14, "santa_express": 11,
    "independent": 12, "sunday_express": 11, "guardian": 12, "observer": 10,
}
OBSERVER_TRADE = 13
#: newspapers that pre-place a stack of two coins on a travel area
PRESET_STACK: dict[str, str] = {"stormy_today": SHIP, "broken_mirror": TRAIN, "foggy_journal": SPECIAL}
PERIODS = 5
NEWSPAPERS_PER_GAME = 5

ASSISTANTS: tuple[str, ...] = ("paul", "leonard", "mary", "jill", "luigi", "albert", "alex", "amelie", "jean",
                               "matilda")
#: assistants that turn over after their once-per-period use
ONCE_PER_PERIOD: frozenset[str] = frozenset({"mary", "jill", "luigi"})
PAUL_COST, LEONARD_COST, SEARCH_COST = 2, 3, 2
ALBERT_ROLLS = 3
MATILDA_REVOLVERS = 2
#: Amelie: completed adventures -> points (project table), +4 per adventure beyond 8
AMELIE: dict[int, int] = {3: 1, 4: 2, 5: 4, 6: 6, 7: 9, 8: 12}

PASS_TILES: tuple[str, ...] = ("me_first", "new_adventures", "and_bye", "give_me_the_money", "on_offer", "swap")
START_TILE = "me_first"
MONEY_TILE_COINS = 2

# -- setup constants -------------------------------------------------------------------------
#: areas with a fix coin by player count
FIX_COINS: dict[int, tuple[str, ...]] = {
    2: ("boutique", "bazaar", SHIP, TRAIN, SPECIAL), 3: ("boutique", "bazaar"), 4: (),
}
JUGGLER: tuple[int, ...] = (2, 1, 1)
LONDON_ENTRY = 4
ARRIVAL_CARDS: tuple[int, ...] = (8, 5, 3)
CITY_PENALTY = 5

# -- adventures --------------------------------------------------------------------------
#: a bonus: ("roll",), ("item",), ("coins", n) or ("travel", ship|train|special|any)
Bonus = tuple[Any, ...] | None
#: id -> (market symbol of the city, items handed in, coins handed in, points, bonus)
ADVENTURES: dict[str, tuple[str, dict[str, int], int, int, Bonus]] = {
    "adv01": (BOUTIQUE, {"shoes": 1}, 0, 1, ("coins", 2)),                 # New Boots in Paris
    "adv02": (BAZAAR, {"shoes": 1}, 0, 1, ("roll",)),                      # A Bargain in the Souk
    "adv03": (BOUTIQUE, {"hat": 1}, 0, 2, None),                           # The Hatter's Wager
    "adv04": (BAZAAR, {"umbrella": 1}, 0, 1, ("travel", SHIP)),            # Monsoon Passage
    "adv05": (BAZAAR, {"revolver": 1}, 0, 2, None),                        # Bandits at the Pass
    "adv06": (BOUTIQUE, {"coat": 1}, 0, 1, ("travel", SPECIAL)),                          # A Cold Night Aboard
    "adv07": (BOTH, {}, 4, 1, ("item",)),                                  # Bribing the Consul
    "adv08": (BOUTIQUE, {"shoes": 1, "hat": 1}, 0, 2, ("coins", 3)),       # The Governor's Ball
    "adv09": (BAZAAR, {"shoes": 1, "umbrella": 1}, 0, 3, None),            # Rain in the Market
    "adv10": (BAZAAR, {"revolver": 1, "umbrella": 1}, 0, 3, ("travel", TRAIN)),  # The Night Express
    "adv11": (BOUTIQUE, {"hat": 1, "coat": 1}, 0, 3, ("coins", 2)),                # Dinner at the Club
    "adv12": (BOUTIQUE, {"coat": 1, "revolver": 1}, 0, 3, ("roll",)),      # The Detective's Disguise
    "adv13": (BAZAAR, {"shoes": 2}, 0, 2, ("travel", SPECIAL)),            # Elephant Ride
    "adv14": (BOTH, {"hat": 1, "umbrella": 1}, 0, 3, ("roll",)),                # A Gentleman's Stroll
    "adv15": (BAZAAR, {"revolver": 1}, 3, 3, None),                        # Rescue at the Pyre
    "adv16": (BOUTIQUE, {"hat": 1}, 3, 2, ("coins", 2)),                   # Tea with the Maharaja
    "adv17": (BOTH, {"coat": 1, "umbrella": 1}, 0, 3, ("travel", "any")),  # Storm at Sea
    "adv18": (BAZAAR, {"revolver": 2}, 0, 4, None),                        # The Great Train Robbery
    "adv19": (BOUTIQUE, {"coat": 2}, 0, 4, ("travel", SHIP)),                          # Crossing the Mountains
    "adv20": (BOUTIQUE, {"shoes": 1, "hat": 1, "coat": 1}, 0, 4, ("item",)),  # Dressed for the Opera
    "adv21": (BAZAAR, {"shoes": 1, "revolver": 1, "umbrella": 1}, 0, 4, ("coins", 2)),  # Jungle Trek
    "adv22": (BOTH, {"revolver": 1, "hat": 1}, 2, 4, None),                # The Pirate Captain
    "adv23": (BAZAAR, {"umbrella": 2}, 2, 4, ("coins", 3)),                # The Typhoon
    "adv24": (BOUTIQUE, {"hat": 2}, 0, 3, ("travel", TRAIN)),              # Two Hats for the Twins
    "adv25": (BOTH, {"coat": 1}, 5, 4, None),                              # The Opium Den
    "adv26": (BAZAAR, {"revolver": 1, "shoes": 2}, 0, 5, ("coins", 3)),  # Sioux Attack
    "adv27": (BOUTIQUE, {"hat": 1, "shoes": 2}, 0, 4, ("roll",)),  # The Mormon Lecture
    "adv28": (BOTH, {"coat": 1, "revolver": 1, "umbrella": 1}, 0, 5, ("travel", "any")),  # Sail-sledge on the Prairie
    "adv29": (BAZAAR, {"revolver": 2, "umbrella": 1}, 1, 6, None),         # The Fort Kearney Rescue
    "adv30": (BOUTIQUE, {"coat": 2, "hat": 1}, 2, 6, ("item",)),           # Inspector Fix's Pursuit
}
#: London adventures: completed in the arrival London (every market symbol is there)
LONDON_ADVENTURES: dict[str, tuple[str, dict[str, int], int, int, Bonus]] = {
    "lon01": (BOTH, {"shoes": 1, "hat": 1}, 0, 5, ("coins", 2)),           # Back at the Reform Club
    "lon02": (BOTH, {"revolver": 1}, 2, 6, None),                          # Arrested at Liverpool
    "lon03": (BOTH, {"coat": 1, "umbrella": 1}, 0, 5, ("item",)),          # A Wet Welcome
    "lon04": (BOTH, {"hat": 1, "coat": 1}, 0, 6, None),                    # The Wedding Reception
    "lon05": (BOTH, {"umbrella": 1, "revolver": 1}, 0, 6, None),           # The Club's Last Minute
    "lon06": (BOTH, {}, 4, 5, None),                                       # Settling the Wager
    "lon07": (BOTH, {"coat": 2}, 3, 8, None),                              # Lecture at the Society
    "lon08": (BOTH, {"shoes": 1, "revolver": 1, "hat": 1}, 0, 8, None),  # Souvenirs for All
}
ALL_ADVENTURES = {**ADVENTURES, **LONDON_ADVENTURES}
#: card id -> (market, item counts by index, coins, points, bonus), for the hot paths
CARD_NEEDS: dict[str, tuple[str, tuple[int, ...], int, int, Bonus]] = {
    cid: (mk, tuple(items.get(name, 0) for name in ITEMS), coins, pts, bonus)
    for cid, (mk, items, coins, pts, bonus) in ALL_ADVENTURES.items()
}


def market_allows(city_market: str, card_market: str) -> bool:
    """Whether a city with `city_market` meets a card's market symbol. A two-coloured city
    counts as both a boutique and a bazaar city; a card asking for the circle needs one."""
    return city_market in (card_market, BOTH)


def card_info(card_id: str) -> dict[str, Any]:
    """One adventure card as JSON-safe data for views (the UI adds the title)."""
    market, items, coins, points, bonus = ALL_ADVENTURES[card_id]
    return {"id": card_id, "london": card_id in LONDON_ADVENTURES, "market": market, "items": dict(items),
            "coins": coins, "points": points, "bonus": list(bonus) if bonus else None}


def cost_info(cost: Cost) -> dict[str, Any] | None:
    if cost is None:
        return None
    if cost[0] == "coins":
        return {"kind": "coins", "coins": cost[1]}
    return {"kind": "item", "item": cost[1]}


def amelie_points(adventures: int) -> int:
    if adventures < 3:
        return 0
    if adventures <= 8:
        return AMELIE[adventures]
    return AMELIE[8] + 4 * (adventures - 8)
