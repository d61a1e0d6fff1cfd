"""eighty-days' AI levels (see `engine.ai`): today's greedy planner (`ai.choose`) with its blind
spots fixed (normal), seeded near-best mistakes (easy) and a late-game search (hard).

Today's AI never gives an item back (a full suitcase makes every purchase worth -9, so it buys
nothing more for its adventure), searches by a fixed rule (3 items missing), values a card with
too little weight on the items it still needs, and spends its last coins in period V on
purchases and adventures while one or two lines short of London (-5 a line, no arrival card).
Normal:

- **give back**: when the best move is a purchase the held adventure needs that does not fit,
  it first gives back the spare item (one the adventure does not need) that makes room;
- **search**: it compares the held adventure with the expected best of the cards a search draws
  from the cards it has not seen (each valued by `card_worth`: points and bonus against the
  items, coins, market, supply and time it still takes) and pays 2 coins for a clear gain
  (`SEARCH_MARGIN`); coins are worth little late, so most of its searches come in period V;
- **the way home**: in period V, with the adventures to enter London, coins the cheapest way home
  needs (`coins_home`) are not spent on other purchases, adventures or searches, nor items the
  next line home costs handed in for an adventure, unless that is worth the points at stake;
- drafts keep the card with the best `card_worth`.

Everything else is today's choice; normal is about as fast (it runs in hard's playouts).

Easy plays normal's move, except with chance `MISTAKE` another of `near_best` (moves within
`NEAR` points of the best, never one today's AI values as absurd). Hard searches from period
`HARD_FROM` on, over `shortlist` (normal's move and its three nearest rivals, 0.23 s CPU), each played out
with normal from the same sampled worlds and scored by `evaluate` (a win plus the score margin:
the game is won on points, and the margin is less noisy than the win alone). Earlier, a playout
runs to the end of a long game, few rounds fit the budget and their noise cost more than the
search found (measured with bench/bench_ai_levels.py), so hard plays normal's move there.
"""

from __future__ import annotations

from typing import Any

from engine.ai import HardConfig

from . import content as C
from .ai import ITEM_VALUE, _decide, _Me, _next_lines, _pass_value, _route_items, _value, distances_home

Action = dict[str, Any]


#: points an item still missing costs (an action and some coins), by period I..V
ITEM_COST = (2.8, 2.9, 3.1, 3.3, 4.0)
#: value of an adventure bonus in points
BONUS_VALUE = {"coins": 0.0, "roll": 1.0, "item": 1.8, "travel": 2.5}
#: points off a card per missing item the supply has run out of (it waits for someone to hand one in)
SOLD_OUT = 3.0
#: a search must gain this many points over keeping the card
SEARCH_MARGIN = 2.0
#: points lost giving back a spare item (it might serve a later card or a line)
SPARE_LOSS = 0.5
#: coins per line for the stacks added on the way home (by player count), and for a line item
HOME_SURCHARGE = {2: 0.7, 3: 1.0, 4: 1.3}
ITEM_COINS = 3.0
#: share of the points at stake counted against spending the coins for the way home
HOME_WEIGHT = 0.8


def _bonus_value(me: _Me, bonus: Any) -> float:
    if not bonus:
        return 0.0
    if bonus[0] == "coins":
        return me.coin * bonus[1]
    if bonus[0] == "travel" and (me.me["in_london"] or me.view["period"] >= 5):
        return 0.5
    return BONUS_VALUE[bonus[0]]


def card_worth(me: _Me, card: dict[str, Any]) -> float:
    """What holding `card` is worth in points: its points and bonus, less the items, coins and
    market still needed, less when the game is nearly over."""
    return _worth(me, card["id"])


def _worth(me: _Me, cid: str) -> float:
    market, needs, coins, points, bonus = C.CARD_NEEDS[cid]
    london = cid in C.LONDON_ADVENTURES
    usable = me.usable
    missing = [max(0, need - have) for need, have in zip(needs, usable, strict=True)]
    n = sum(missing)
    period = me.period
    value = points + _bonus_value(me, bonus) - ITEM_COST[period - 1] * n - me.coin * coins
    if coins > me.coins:
        value -= 0.3 * (coins - me.coins)
    here_ok = london == me.me["in_london"] and (london or C.market_allows(C.CITIES[me.me["city"]][0], market))
    if here_ok:
        value += 0.5
    elif market == C.BOTH and not london:
        value -= 0.5  # fewer cities show both markets
    if period >= 5 and n > 1:
        value -= 1.5 * (n - 1)  # too little time to gather several items
    supply = me.view["supply"]
    short = sum(max(0, m - supply[name]) for m, name in zip(missing, C.ITEMS, strict=True))
    return value - SOLD_OUT * short


def _unseen(me: _Me) -> list[str]:
    """The adventure cards this seat has not seen in a diary or its hand, of the deck it
    draws from (London's once arrived)."""
    london = me.me["in_london"]
    pool = C.LONDON_ADVENTURES if london else C.ADVENTURES
    seen = {c["id"] for p in me.view["players"] for c in p["diary"]}
    if me.card:
        seen.add(me.card["id"])
    return [cid for cid in pool if cid not in seen]


def search_gain(me: _Me) -> float:
    """Expected points of searching now (the best of two unseen cards, the held one gone) over
    keeping the held card, its 2 coins counted."""
    values = sorted(_worth(me, c) for c in _unseen(me))
    n = len(values)
    if n < 2:
        return -9.0
    draw = 3 if me.me.get("assistant") == "alex" else 2
    if draw == 3 and n >= 3:
        pairs = n * (n - 1) * (n - 2) / 6
        expected = sum(v * (k * (k - 1) / 2) for k, v in enumerate(values)) / pairs
    else:
        pairs = n * (n - 1) / 2
        expected = sum(v * k for k, v in enumerate(values)) / pairs
    held = card_worth(me, me.card) if me.card else -5.0
    return expected - held - me.coin * C.SEARCH_COST


def _room_for(me: _Me, item: int) -> int | None:
    """The held item to give back so that `item` fits (the one the adventure needs least), or
    None when nothing spare makes room."""
    need = me.card["items"] if me.card else {}
    spare = [k for k in range(5) if me.items[k] > need.get(C.ITEMS[k], 0)]
    spare.sort(key=lambda k: (-C.ITEM_COUNTS[k], -k))  # shoes last: they are small and common
    for k in sorted(spare, key=lambda k: -len(C.SHAPES[k])):
        if me.fits_with(item, minus=k):
            return k
    return None


def coins_home(me: _Me) -> float:
    """Coins the cheapest way to the arrival London costs from here this period: every line its
    travel area's next cost plus a surcharge for the stacks others (and the seat itself) add on
    the way, its line coins, and for a line item the seat does not hold a purchase in the city
    the line leaves (if its market sells it; else the black market's gamble, dearer)."""
    areas = me.view["areas"]
    surcharge = HOME_SURCHARGE[min(4, len(me.view["seats"]))]

    def weight(line: str, other: str) -> float:
        cost = me.line_costs[line]
        w = areas[C.LINES[line][2]]["next_cost"] + surcharge
        if cost:
            if cost["kind"] == "coins":
                w += cost["coins"]
            elif me.usable[C.ITEM_INDEX[cost["item"]]] == 0:
                w += ITEM_COINS if _sold_in(other, C.ITEM_INDEX[cost["item"]]) else 3 * ITEM_COINS
        return float(w)

    dist = distances_home(weight)
    return dist.get(me.me["city"], 99.0)


def _sold_in(city: str, item: int) -> bool:
    market = C.CITIES[city][0]
    return any(item in C.MARKET_ITEMS[m] for m in (("boutique", "bazaar") if market == C.BOTH else (market,)))


def home_at_stake(me: _Me) -> float:
    """Points the seat loses if it spends the coins it needs to get home this (last) period: the
    penalty for its distance and the arrival card (0 when it is not going home anyway)."""
    if me.period < C.PERIODS or me.me["in_london"] or me.me["adventures"] < C.LONDON_ENTRY:
        return 0.0
    cards = me.view["arrival_cards"]
    return C.CITY_PENALTY * C.DISTANCE[me.me["city"]] + (cards[0] if cards else 0)


def _spend_penalty(me: _Me, coins: float, home: float, stake: float) -> float:
    """Points lost by spending `coins` now, in the last period, when the rest is short of the way home."""
    if not stake or me.coins - coins >= home:
        return 0.0
    return HOME_WEIGHT * stake


def _uses_route_item(me: _Me, card: dict[str, Any]) -> bool:
    """Whether completing `card` hands in the last of an item the next line home costs."""
    for line in _next_lines(me):
        cost = me.line_costs[line]
        if cost and cost["kind"] == "item":
            k = C.ITEM_INDEX[cost["item"]]
            if me.usable[k] - card["items"].get(cost["item"], 0) < 1 <= me.usable[k]:
                return True
    return False


def _main_values(me: _Me, legal: list[Action]) -> list[tuple[float, Action]]:
    """Today's valuation of the main actions (and passing), in legal order, with purchases that
    fit once a spare item is given back: those count as that give-back (played first; the
    purchase follows on the next decision). Coins spent in period V that the way home needs
    cost the points at stake."""
    out: list[tuple[float, Action]] = []
    needed = {k for k, n in enumerate(me.missing) if n}
    give_backs = {a["item"]: a for a in legal if a["type"] == "give_back"}
    stake = home_at_stake(me)
    home = coins_home(me) if stake else 0.0
    areas = me.view["areas"]
    route_items = _route_items(me)
    for a in legal:
        t = a["type"]
        if t == "pass":
            v = _pass_value(me, a)
        elif t in ("give_back", "search", "jill", "complete", "end_turn"):
            continue
        else:
            v = _value(me, a)
            if stake and (t == "black_market" or (t == "buy" and C.ITEM_INDEX[a["item"]] not in route_items)):
                v -= _spend_penalty(me, areas[a.get("market", "black")]["next_cost"], home, stake)
            if t == "buy" and v <= -9.0 and C.ITEM_INDEX[a["item"]] in needed:
                item = C.ITEM_INDEX[a["item"]]
                spare = _room_for(me, item)
                if spare is not None and C.ITEMS[spare] in give_backs:
                    cost = areas[a["market"]]["next_cost"]
                    v = ITEM_VALUE - me.coin * cost - SPARE_LOSS
                    a = give_backs[C.ITEMS[spare]]
        out.append((v, a))
    return out


def _main_choice(me: _Me, legal: list[Action]) -> Action:
    """The best main action (the first of equals), or a give-back that makes room for it."""
    values = _main_values(me, legal)
    if not values:
        return legal[0]
    return max(values, key=lambda va: va[0])[1]


def _keep(me: _Me, legal: list[Action]) -> Action:
    cards = {c["id"]: c for c in (me.view.get("private") or {}).get("draft", [])}
    return max(legal, key=lambda a: card_worth(me, cards[a["card"]]) if a["card"] in cards else -99.0)


def normal(view: dict[str, Any], seat: str, legal: list[Action]) -> Action:
    """Today's choice with search and give-back used when they pay (see the module doc)."""
    if len(legal) == 1:
        return legal[0]
    me = _Me(view, seat)
    kind = legal[0]["type"]
    free = any(a["type"] in ("pass", "end_turn") for a in legal)
    if not free:
        if kind == "keep_adventure":
            return _keep(me, legal)
        return _decide(me, legal)
    by_type: dict[str, list[Action]] = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append(a)
    stake = home_at_stake(me)
    home = coins_home(me) if stake else 0.0
    if "complete" in by_type:
        card = me.card or {"coins": 0, "points": 0}
        if not stake or card["points"] >= _spend_penalty(me, card["coins"], home, stake) + (
                HOME_WEIGHT * stake if _uses_route_item(me, card) else 0.0):
            return by_type["complete"][0]
    if "search" in by_type and search_gain(me) - _spend_penalty(me, C.SEARCH_COST, home, stake) > SEARCH_MARGIN:
        return by_type["search"][0]
    if "end_turn" in by_type:
        return by_type["end_turn"][0]
    return _main_choice(me, legal)


#: easy's alternatives and hard's candidates: moves valued within this many points of the best
NEAR = 2.5
#: easy's chance per decision of a near-best move instead of normal's
MISTAKE = 0.25


#: hard searches from this period on (earlier, playouts are long, few rounds fit the budget and
#: their noise costs more than the search finds: it plays normal's move)
HARD_FROM = 4


def shortlist(view: dict[str, Any], seat: str, legal: list[Action]) -> list[tuple[float, Action]]:
    """Hard's candidates: `near_best` from period `HARD_FROM` on, else normal's move alone."""
    if view["period"] < HARD_FROM:
        return [(0.0, normal(view, seat, legal))]
    return near_best(view, seat, legal)


def near_best(view: dict[str, Any], seat: str, legal: list[Action]) -> list[tuple[float, Action]]:
    """Moves normal values within `NEAR` points of its best, best first (easy's mistakes, hard's
    candidates): another main action, another draft card, searching or not. Never an absurd one
    (a move today's AI values at -9, or skipping an adventure normal would complete)."""
    if len(legal) == 1:
        return [(0.0, legal[0])]
    best = normal(view, seat, legal)
    me = _Me(view, seat)
    free = any(a["type"] in ("pass", "end_turn") for a in legal)
    scored: list[tuple[float, Action]]
    if not free:
        if legal[0]["type"] != "keep_adventure":
            return [(0.0, best)]
        cards = {c["id"]: c for c in (view.get("private") or {}).get("draft", [])}
        scored = [(card_worth(me, cards[a["card"]]), a) for a in legal if a["card"] in cards]
    elif best["type"] == "complete":
        return [(0.0, best)]
    else:
        search = next((a for a in legal if a["type"] == "search"), None)
        if any(a["type"] == "end_turn" for a in legal):
            scored = [(0.0, next(a for a in legal if a["type"] == "end_turn"))]
        else:
            scored = []
            for v, a in _main_values(me, legal):
                if v > -9.0 and all(a != b for _, b in scored):
                    scored.append((v, a))
        if search is not None:
            top = max((v for v, _ in scored), default=0.0)
            scored.append((top + search_gain(me) - SEARCH_MARGIN, search))
    scored.sort(key=lambda va: -va[0])
    top = max(v for v, _ in scored) if scored else 0.0
    out = [(top + 1.0, best)] + [(v, a) for v, a in scored if a != best and v >= top - NEAR]
    return out


#: easy plays, with the chance `MISTAKE`, another move of `near_best` (`engine.ai`; hard's
#: shortlist is narrower)
mistakes = near_best


def evaluate(rules: Any, state: Any, seat: str) -> float:
    """A finished playout's worth to `seat` for hard: a win (shared when tied) plus the score
    margin over the best other seat in tenths of points (a win by 1 and by 20 differ, and the
    margin varies less between sampled worlds than the win alone)."""
    result = rules.result(state)
    if result is None:
        return 0.0
    rows = {r["seat"]: r["score"] for r in result["ranking"]}
    mine = rows.pop(seat)
    margin = mine - max(rows.values())
    win = 1.0 / len(result["winners"]) if seat in result["winners"] else 0.0
    return win + EVAL_SCALE * max(-20.0, min(20.0, margin))


#: evaluate's units per point of score margin
EVAL_SCALE = 0.05
HARD = HardConfig(budget=0.23, rounds=20, candidates=4)
