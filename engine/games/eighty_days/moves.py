"""The move handlers of `eighty-days`: one (check, do) pair per action type.

`check(state, i, action)` validates everything and raises `IllegalAction` with a stable
code; it never mutates, so `is_legal` is `check` without the `do`. `do` carries the move
out. The common checks (malformed, game over, whose turn, a decision waiting) are made by
the rules object before it dispatches through `MOVES`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core import Action, Event, IllegalAction

from . import content as C
from . import flow as F
from .state import DaysState

Check = Callable[[DaysState, int, Action], Any]
Do = Callable[[DaysState, int, Action, Any, list[Event]], None]


def keys(action: Action, *names: str) -> None:
    """Exactly `type` and these keys (a plain loop: this runs on every `apply`)."""
    if len(action) != len(names) + 1:
        raise IllegalAction("malformed", "That is not a valid move.")
    for n in names:
        if n not in action:
            raise IllegalAction("malformed", "That is not a valid move.")


def _item(action: Action, key: str = "item") -> int:
    name = action.get(key)
    k = C.ITEM_INDEX.get(name) if isinstance(name, str) else None
    if k is None:
        raise IllegalAction("bad_item", "There is no such item.")
    return k


def _main(state: DaysState) -> None:
    if state.acted:
        raise IllegalAction("already_acted", "You have already taken your action this turn; end your turn.")


def _assistant(state: DaysState, i: int, name: str, once: bool = False) -> None:
    if state.assistant[i] != name:
        raise IllegalAction("no_assistant", "You do not have that assistant.", assistant=name)
    if once and state.turned[i]:
        raise IllegalAction("assistant_used", "That assistant was already used this period.", assistant=name)


def _line_from(state: DaysState, i: int, action: Action) -> str:
    """The line named by the action, leaving the seat's city, whose far end it may enter."""
    if state.in_london[i]:
        raise IllegalAction("no_travel_in_london", "You have arrived in London: no more travelling.")
    line = action.get("line")
    if not isinstance(line, str) or line not in C.LINES or state.city[i] not in C.LINES[line][:2]:
        raise IllegalAction("bad_line", "No such line leaves your city.")
    if not F.can_enter(state, i, F.other_end(line, state.city[i])):
        raise IllegalAction("london_closed", "You need 4 completed adventures to enter London.",
                            need=C.LONDON_ENTRY)
    return line


def _line_payment(state: DaysState, i: int, line: str, extra: int) -> tuple[int, int]:
    """Check the seat can pay `extra` coins plus the line's cost; (item or -1, coins)."""
    item, coins = F.line_coin_cost(state, line)
    if state.coins[i] < extra + coins:
        raise IllegalAction("no_coins", "You do not have enough coins.", need=extra + coins)
    if item >= 0 and F.item_count(state, i, item) < 1:
        raise IllegalAction("line_item", "This line costs an item you do not have.", item=C.ITEMS[item])
    return item, coins


def _pay_line(state: DaysState, i: int, item: int, coins: int) -> None:
    state.coins[i] -= coins
    if item >= 0:
        F.hand_in(state, i, item)


# -- main actions ----------------------------------------------------------------------------
def check_travel(state: DaysState, i: int, a: Action) -> Any:
    keys(a, "line", "area")
    _main(state)
    line = _line_from(state, i, a)
    kind = C.LINES[line][2]
    area = a["area"]
    sunday = F.newspaper(state) == "sunday_express"
    if area != kind and not (area == C.SPECIAL and sunday):
        raise IllegalAction("bad_area", "That travel area does not serve this line.")
    # The Guardian: a train line needs a revolver (not handed in for it)
    if kind == C.TRAIN and F.newspaper(state) == "guardian" and F.item_count(state, i, C.REVOLVER) < 1:
        raise IllegalAction("need_revolver", "The Guardian: you need a revolver to travel by train.")
    cost = F.area_cost(state, area)
    return (line, area, cost, *_line_payment(state, i, line, cost))


def do_travel(state: DaysState, i: int, a: Action, plan: Any, events: list[Event]) -> None:
    line, area, _cost, item, coins = plan
    paid = F.pay_area(state, i, area)
    _pay_line(state, i, item, coins)
    state.acted = True
    events.append({"type": "pay", "seat": state.seats[i], "area": area, "coins": paid,
                   "line_coins": coins, "line_item": C.ITEMS[item] if item >= 0 else None})
    F.move_pawn(state, i, line, events, area)


def check_buy(state: DaysState, i: int, a: Action) -> Any:
    keys(a, "market", "item")
    _main(state)
    market = a["market"]
    if market not in ("boutique", "bazaar"):
        raise IllegalAction("bad_market", "There is no such market.")
    if market not in F.markets_at(state, i):
        raise IllegalAction("market_closed", "Your city has no such market.", market=market)
    item = _item(a)
    if item not in F.sells(state, market):
        raise IllegalAction("not_sold", "That market does not sell this item.", item=a["item"], market=market)
    if state.supply[item] == 0:
        raise IllegalAction("sold_out", "None of that item is left in the supply.", item=a["item"])
    cost = F.area_cost(state, market)
    if state.coins[i] < cost:
        raise IllegalAction("no_coins", "You do not have enough coins.", need=cost)
    return item


def do_buy(state: DaysState, i: int, a: Action, item: Any, events: list[Event]) -> None:
    paid = F.pay_area(state, i, a["market"])
    state.acted = True
    events.append({"type": "pay", "seat": state.seats[i], "area": a["market"], "coins": paid})
    F.gain_item(state, i, item, events, "buy")


def check_black_market(state: DaysState, i: int, a: Action) -> Any:
    keys(a)
    _main(state)
    cost = F.area_cost(state, "black")
    if state.coins[i] < cost:
        raise IllegalAction("no_coins", "You do not have enough coins.", need=cost)
    return cost


def do_black_market(state: DaysState, i: int, a: Action, plan: Any, events: list[Event]) -> None:
    """Albert rolls up to three times, keeping only the last roll he stops at."""
    paid = F.pay_area(state, i, "black")
    state.acted = True
    events.append({"type": "pay", "seat": state.seats[i], "area": "black", "coins": paid})
    face = F.roll_die(state, i, events, "black_market")
    if state.assistant[i] == "albert":
        state.pending[i].insert(0, {"kind": "albert", "face": face, "rolls": C.ALBERT_ROLLS - 1})
    else:
        F.take_face(state, i, face, events, "black_market")


def check_juggle(state: DaysState, i: int, a: Action) -> Any:
    keys(a, "stack")
    _main(state)
    if state.options["side"] != "A":
        raise IllegalAction("no_juggler", "There is no juggler on side B.")
    k = a["stack"]
    # compared as `legal_actions` compares (==), so True counts as stack 1
    if not isinstance(k, int) or not 0 <= k < len(state.juggler) or not state.juggler[k]:
        raise IllegalAction("bad_stack", "Take one of the juggler's stacks that still has coins.")
    return k


def do_juggle(state: DaysState, i: int, a: Action, k: Any, events: list[Event]) -> None:
    coins = state.juggler[k]
    state.juggler[k] = 0
    state.coins[i] += coins
    state.acted = True
    events.append({"type": "juggle", "seat": state.seats[i], "stack": k, "coins": coins})


def tile_required(state: DaysState) -> bool:
    return state.options["side"] == "B" and state.period < C.PERIODS and bool(state.pass_tiles)


def check_pass(state: DaysState, i: int, a: Action) -> Any:
    _main(state)
    if not tile_required(state):
        keys(a)
        return ""
    keys(a, "tile")
    if a["tile"] not in state.pass_tiles:
        raise IllegalAction("bad_tile", "Take one of the pass tiles on the board.")
    return a["tile"]


def do_pass(state: DaysState, i: int, a: Action, tile: Any, events: list[Event]) -> None:
    """Side A: the first to pass takes the start marker. Side B: take a pass tile with its
    coins and carry out its effect (none in period V)."""
    seat = state.seats[i]
    ev: Event = {"type": "pass", "seat": seat}
    if state.options["side"] == "A" and not any(state.passed):
        state.start = i
        ev["start_marker"] = True
    state.passed[i] = True
    events.append(ev)
    if tile:
        state.pass_tiles.remove(tile)
        state.taken_tile[i] = tile
        coins = state.pass_coins[tile]
        state.pass_coins[tile] = 0
        state.coins[i] += coins
        ev.update(tile=tile, coins=coins)
        PASS_EFFECTS[tile](state, i, events)
    F.next_turn(state)


def _tile_me_first(state: DaysState, i: int, events: list[Event]) -> None:
    state.start = i


def _tile_new_adventures(state: DaysState, i: int, events: list[Event]) -> None:
    """Draw 3 (London's once arrived), then the held card goes under its pile (so it cannot
    come straight back); keep 1 of the three."""
    F.draw_adventures(state, i, 3, events, "pass_tile")
    F.drop_adventure(state, i)


def _tile_and_bye(state: DaysState, i: int, events: list[Event]) -> None:
    F.offer_free_travel(state, i, C.SPECIAL, events, "pass_tile")


def _tile_money(state: DaysState, i: int, events: list[Event]) -> None:
    state.coins[i] += C.MONEY_TILE_COINS
    events.append({"type": "coins", "seat": state.seats[i], "coins": C.MONEY_TILE_COINS, "why": "pass_tile"})


def _tile_offer(state: DaysState, i: int, events: list[Event]) -> None:
    F.roll_and_take(state, i, events, "pass_tile")


def _tile_swap(state: DaysState, i: int, events: list[Event]) -> None:
    if any(state.items[i]):
        state.pending[i].insert(0, {"kind": "swap"})


PASS_EFFECTS: dict[str, Callable[[DaysState, int, list[Event]], None]] = {
    "me_first": _tile_me_first, "new_adventures": _tile_new_adventures, "and_bye": _tile_and_bye,
    "give_me_the_money": _tile_money, "on_offer": _tile_offer, "swap": _tile_swap,
}


def check_end_turn(state: DaysState, i: int, a: Action) -> Any:
    keys(a)
    if not state.acted:
        raise IllegalAction("action_first", "Take your action (or pass) before ending your turn.")


def do_end_turn(state: DaysState, i: int, a: Action, plan: Any, events: list[Event]) -> None:
    events.append({"type": "end_turn", "seat": state.seats[i]})
    F.next_turn(state)
