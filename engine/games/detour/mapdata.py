"""The detour world map as data: four map cards, a main path, side paths, red lines, a blue area.

The rulebook's pictures are missing, so the map is the project's own design within what the
text fixes (see docs/games/detour.md): four map cards of 4–6 main spaces each, day costs
1–8, side paths that leave the main path at a red line and rejoin it later (each longer in
days than the main stretch it bypasses), a blue middle area on map cards 2–3, and the
8-day last leg from the end of map card 4 back to the start.

Every space has exactly one forward connection, so movement is a walk along `NEXT` and
everything the engine needs per move is precomputed into flat tables at import.
"""

from __future__ import annotations

#: main-path spaces, in travel order: (name, map card). Space 0 is the start (and the goal).
MAIN: tuple[tuple[str, int], ...] = (
    ("London", 1), ("Paris", 1), ("Turin", 1), ("Suez", 1),
    ("Bombay", 2), ("Calcutta", 2), ("Singapore", 2), ("Hong Kong", 2),
    ("Shanghai", 3), ("Yokohama", 3), ("Midway", 3), ("San Francisco", 3),
    ("Omaha", 4), ("Chicago", 4), ("New York", 4), ("Liverpool", 4),
)

#: day cost of main connection i -> i+1 (the last entry is Liverpool -> London, the 8-day last leg)
MAIN_COSTS: tuple[int, ...] = (
    2, 4, 3,     # card 1: London, Paris, Turin, Suez
    4,           # Suez -> Bombay (card 1 -> 2)
    2, 4, 1,     # card 2: Bombay, Calcutta, Singapore, Hong Kong
    2,           # Hong Kong -> Shanghai (card 2 -> 3)
    4, 5, 4,     # card 3: Shanghai, Yokohama, Midway, San Francisco
    2,           # San Francisco -> Omaha (card 3 -> 4)
    4, 1, 3,     # card 4: Omaha, Chicago, New York, Liverpool
    8,           # Liverpool -> London: the last leg
)

#: side paths: (red-line space, ((name, map card, column), ...), costs along the side path
#: from its first space to the rejoin space, rejoin main space).
#: A detoured pawn is put on the side path's first space; it then travels the side path.
SIDE_PATHS: tuple[tuple[int, tuple[tuple[str, int, int], ...], tuple[int, ...], int], ...] = (
    (1, (("Genoa", 1, 1), ("Brindisi", 1, 2)), (5, 5), 3),
    (5, (("Rangoon", 2, 5), ("Saigon", 2, 6)), (4, 5), 7),
    (12, (("St. Louis", 4, 12), ("Washington", 4, 13)), (4, 5), 14),
)

#: main spaces of the blue middle area (end of map card 2, start of map card 3)
BLUE: frozenset[int] = frozenset({6, 7, 8, 9})

#: card values -> action: the number is both the Move and the resolution order
CARDS: tuple[int, ...] = (10, 8, 6, 5)
CARD_ACTION: dict[int, str | None] = {10: None, 8: "block", 6: "detour", 5: "backward"}
#: days the owner also moves when using the action (Detour: only on the blue area, as its Move)
ACTION_BONUS: dict[int, int] = {8: 3, 5: 5}
MAX_DAYS = max(CARDS)

N_MAIN = len(MAIN)


def _build() -> dict[str, list]:
    names: list[str] = [n for n, _ in MAIN]
    card: list[int] = [c for _, c in MAIN]
    col: list[int] = list(range(N_MAIN))  # main space i is in column i
    side_path: list[int] = [-1] * N_MAIN  # index into SIDE_PATHS, -1 on the main path
    nxt: list[int] = list(range(1, N_MAIN + 1))  # the last one leads to FIN (= len(spaces))
    cost: list[int] = list(MAIN_COSTS)
    prev: list[int] = [i - 1 for i in range(N_MAIN)]  # backward one segment; -1: impossible
    red: list[int] = [-1] * N_MAIN  # main space -> first space of its side path
    for k, (at, spaces, costs, rejoin) in enumerate(SIDE_PATHS):
        first = len(names)
        red[at] = first
        for j, (name, mcard, column) in enumerate(spaces):
            sid = len(names)
            names.append(name)
            card.append(mcard)
            col.append(column)
            side_path.append(k)
            nxt.append(sid + 1 if j + 1 < len(spaces) else rejoin)
            cost.append(costs[j])
            prev.append(-1 if j == 0 else sid - 1)
            red.append(-1)
    fin = len(names)
    for i, n in enumerate(nxt):
        if n == N_MAIN:  # Liverpool -> London is the goal
            nxt[i] = fin
    return {"names": names, "card": card, "col": col, "side_path": side_path, "next": nxt, "cost": cost,
            "prev": prev, "red": red}


_T = _build()
NAMES: tuple[str, ...] = tuple(_T["names"])
#: map card (1–4) of each space
MAP_CARD: tuple[int, ...] = tuple(_T["card"])
#: position on the map (left to right): main space i is in column i, a side-path space in the
#: column of the main space it runs beside (the 2-player "last on the track" rule compares these)
COLUMN: tuple[int, ...] = tuple(_T["col"])
#: side path index of a space, -1 on the main path
SIDE_OF: tuple[int, ...] = tuple(_T["side_path"])
#: the single forward connection of each space and its day cost
NEXT: tuple[int, ...] = tuple(_T["next"])
COST: tuple[int, ...] = tuple(_T["cost"])
#: one segment backward (-1: not possible: the start, the first space of a side path, or home)
PREV: tuple[int, ...] = tuple(_T["prev"]) + (-1,)
#: main space with a red line -> first space of its side path (-1: no red line); indexable by FIN
RED: tuple[int, ...] = tuple(_T["red"]) + (-1,)
N_SPACES = len(NAMES)
#: pseudo-space of a pawn that has come back to the start (the goal)
FIN = N_SPACES
START = 0
LAST_LEG = MAIN_COSTS[-1]


def _dest_table() -> tuple[tuple[int, ...], ...]:
    """DEST[space][days] = where a move of `days` ends (whole connections only)."""
    table = []
    for s in range(N_SPACES + 1):
        row = []
        for days in range(MAX_DAYS + 1):
            at, left = s, days
            while at != FIN and COST[at] <= left:
                left -= COST[at]
                at = NEXT[at]
            row.append(at)
        table.append(tuple(row))
    return tuple(table)


DEST: tuple[tuple[int, ...], ...] = _dest_table()


def _dist() -> tuple[int, ...]:
    """Days still to travel from each space to the goal (along its own path)."""
    out = [0] * (N_SPACES + 1)
    for s in range(N_SPACES):
        at, total = s, 0
        while at != FIN:
            total += COST[at]
            at = NEXT[at]
        out[s] = total
    return tuple(out)


DIST: tuple[int, ...] = _dist()
TOTAL_DAYS = DIST[START]
IS_BLUE: tuple[bool, ...] = tuple(s in BLUE for s in range(N_SPACES)) + (False,)
