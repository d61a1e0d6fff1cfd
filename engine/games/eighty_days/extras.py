"""Move handlers of `eighty-days` besides the main actions: the additional actions
(complete, search, give back, Jill), the assistants' actions (Paul, Leonard, Mary, Luigi)
and the answers to waiting decisions (drafts, the Observer, a joker, Albert, a free trip,
a swap). Same (check, do) convention as `moves`.
"""

from __future__ import annotations

from typing import Any

from engine.core import Action, Event, IllegalAction

from . import content as C
from . import flow as F
from .moves import _assistant, _item, _line_from, _line_payment, _main, _pay_line, keys
from .state import DaysState


# -- additional actions ------------------------------------------------------------------------
def check_complete(state: DaysState, i: int, a: Action) -> Any:
    keys(a)
    if not state.adventure[i]:
        raise IllegalAction("no_adventure", "You hold no adventure card.")
    if not F.can_complete(state, i):
        raise IllegalAction("cannot_complete", "You do not meet the conditions of your adventure here.")


def do_complete(state: DaysState, i: int, a: Action, plan: Any, events: list[Event]) -> None:
    """Hand in, then the rulebook's steps in order: 1. the bonus at once, 2. the card into
    the diary, 3. a new draft. A free trip of the bonus counts the diary without this card
    (`flow.trip_diary`), so a 4th adventure's trip cannot enter London."""
    card = state.adventure[i]
    _market, needs, coins, points, bonus = C.CARD_NEEDS[card]
    for k, n in enumerate(needs):
        if n:
            F.hand_in(state, i, k, n)
    state.coins[i] -= coins
    state.adventure[i] = ""
    events.append({"type": "complete", "seat": state.seats[i], "card": card, "points": points})
    F.apply_bonus(state, i, bonus, events)
    state.diary[i].append(card)
    F.draw_adventures(state, i, F.draw_count(state, i), events, "complete")


def check_search(state: DaysState, i: int, a: Action) -> Any:
    keys(a)
    if state.coins[i] < C.SEARCH_COST:
        raise IllegalAction("no_coins", "You do not have enough coins.", need=C.SEARCH_COST)
    if not (state.london_deck if state.in_london[i] else state.deck):
        raise IllegalAction("deck_empty", "There are no adventure cards left to draw.")


def do_search(state: DaysState, i: int, a: Action, plan: Any, events: list[Event]) -> None:
    """Pay 2, draw 2 (Alex: 3); the held card goes under the pile after the draw, so the
    seat keeps one of the new cards."""
    state.coins[i] -= C.SEARCH_COST
    F.draw_adventures(state, i, F.draw_count(state, i), events, "search")
    F.drop_adventure(state, i)


def check_give_back(state: DaysState, i: int, a: Action) -> Any:
    keys(a, "item")
    item = _item(a)
    if not state.items[i][item]:
        raise IllegalAction("not_held", "You have no such item in your suitcase.", item=a["item"])
    return item


def do_give_back(state: DaysState, i: int, a: Action, item: Any, events: list[Event]) -> None:
    state.items[i][item] -= 1
    state.supply[item] += 1
    events.append({"type": "give_back", "seat": state.seats[i], "item": C.ITEMS[item]})
    F.check_overflow(state, i)


def check_swap_pair(state: DaysState, i: int, a: Action) -> tuple[int, int]:
    give, take = _item(a, "give"), _item(a, "take")
    if give == take:
        raise IllegalAction("same_item", "Swap for a different item.")
    if not state.items[i][give]:
        raise IllegalAction("not_held", "You have no such item in your suitcase.", item=a["give"])
    if not state.supply[take]:
        raise IllegalAction("sold_out", "None of that item is left in the supply.", item=a["take"])
    counts = list(state.items[i])
    counts[give] -= 1
    counts[take] += 1
    if not F.fits(state, i, tuple(counts)):
        raise IllegalAction("does_not_fit", "That item does not fit in your suitcase.", item=a["take"])
    return give, take


def do_swap_pair(state: DaysState, i: int, pair: tuple[int, int], events: list[Event], why: str) -> None:
    give, take = pair
    state.items[i][give] -= 1
    state.supply[give] += 1
    state.items[i][take] += 1
    state.supply[take] -= 1
    events.append({"type": "swap", "seat": state.seats[i], "give": C.ITEMS[give], "take": C.ITEMS[take],
                   "why": why})


def check_jill(state: DaysState, i: int, a: Action) -> Any:
    keys(a, "give", "take")
    _assistant(state, i, "jill", once=True)
    return check_swap_pair(state, i, a)


def do_jill(state: DaysState, i: int, a: Action, pair: Any, events: list[Event]) -> None:
    state.turned[i] = True
    do_swap_pair(state, i, pair, events, "jill")


# -- assistants as the action -----------------------------------------------------------------
def check_paul(state: DaysState, i: int, a: Action) -> Any:
    keys(a)
    _main(state)
    _assistant(state, i, "paul")
    if state.coins[i] < C.PAUL_COST:
        raise IllegalAction("no_coins", "You do not have enough coins.", need=C.PAUL_COST)
    if not state.supply[C.HAT]:
        raise IllegalAction("sold_out", "None of that item is left in the supply.", item="hat")


def do_paul(state: DaysState, i: int, a: Action, plan: Any, events: list[Event]) -> None:
    state.coins[i] -= C.PAUL_COST
    state.acted = True
    F.gain_item(state, i, C.HAT, events, "paul")


def check_leonard(state: DaysState, i: int, a: Action) -> Any:
    keys(a, "line")
    _main(state)
    _assistant(state, i, "leonard")
    line = _line_from(state, i, a)
    return (line, *_line_payment(state, i, line, C.LEONARD_COST))


def do_leonard(state: DaysState, i: int, a: Action, plan: Any, events: list[Event]) -> None:
    """Leonard: 3 coins to the supply and any line, its line cost paid."""
    line, item, coins = plan
    state.coins[i] -= C.LEONARD_COST
    _pay_line(state, i, item, coins)
    state.acted = True
    F.move_pawn(state, i, line, events, "leonard")


def check_mary(state: DaysState, i: int, a: Action) -> Any:
    keys(a, "line")
    _main(state)
    _assistant(state, i, "mary", once=True)
    if not state.items[i][C.UMBRELLA]:
        raise IllegalAction("line_item", "Mary needs an umbrella from your suitcase.", item="umbrella")
    return _line_from(state, i, a)


def do_mary(state: DaysState, i: int, a: Action, line: Any, events: list[Event]) -> None:
    state.items[i][C.UMBRELLA] -= 1
    state.supply[C.UMBRELLA] += 1
    state.turned[i] = True
    state.acted = True
    F.move_pawn(state, i, line, events, "mary")


def check_luigi(state: DaysState, i: int, a: Action) -> Any:
    keys(a)
    _assistant(state, i, "luigi", once=True)
    if not state.acted:
        raise IllegalAction("action_first", "Luigi gives another turn after your action.")


def do_luigi(state: DaysState, i: int, a: Action, plan: Any, events: list[Event]) -> None:
    state.turned[i] = True
    state.acted = False
    events.append({"type": "luigi", "seat": state.seats[i]})


# -- answers to waiting decisions -----------------------------------------------------------
def check_keep_adventure(state: DaysState, i: int, a: Action) -> Any:
    keys(a, "card")
    if a["card"] not in state.pending[i][0]["cards"]:
        raise IllegalAction("bad_card", "Keep one of the cards you drew.")


def do_keep_adventure(state: DaysState, i: int, a: Action, plan: Any, events: list[Event]) -> None:
    cards = state.pending[i].pop(0)["cards"]
    card = a["card"]
    F.drop_adventure(state, i)
    state.adventure[i] = card
    deck = state.london_deck if card in C.LONDON_ADVENTURES else state.deck
    for other in cards:
        if other != card:
            deck.insert(0, other)
    events.append({"type": "keep_adventure", "seat": state.seats[i], "returned": len(cards) - 1,
                   "private": {"card": card}})


def check_keep_assistant(state: DaysState, i: int, a: Action) -> Any:
    keys(a, "assistant")
    if a["assistant"] not in state.pending[i][0]["cards"]:
        raise IllegalAction("bad_assistant", "Keep one of the assistants you were dealt.")


def do_keep_assistant(state: DaysState, i: int, a: Action, plan: Any, events: list[Event]) -> None:
    """The kept assistant shows once every seat has chosen (the view hides it till then;
    Matilda's revolvers come then too, see `flow.reveal_assistants`)."""
    cards = state.pending[i].pop(0)["cards"]
    name = a["assistant"]
    state.assistant[i] = name
    state.assistant_box.extend(c for c in cards if c != name)
    events.append({"type": "keep_assistant", "seat": state.seats[i], "private": {"assistant": name}})


def check_observer(state: DaysState, i: int, a: Action) -> Any:
    if "item" not in a:
        keys(a)
        return -1
    return check_give_back(state, i, a)  # 13 coins for an item handed back: the same item check


def do_observer(state: DaysState, i: int, a: Action, item: Any, events: list[Event]) -> None:
    """The Observer: 13 coins and one item back, or 10 coins."""
    state.pending[i].pop(0)
    coins = C.NEWSPAPERS["observer"] if item < 0 else C.OBSERVER_TRADE
    if item >= 0:
        state.items[i][item] -= 1
        state.supply[item] += 1
    state.coins[i] += coins
    events.append({"type": "observer", "seat": state.seats[i], "coins": coins,
                   "item": C.ITEMS[item] if item >= 0 else None})


def check_take_item(state: DaysState, i: int, a: Action) -> Any:
    keys(a, "item")
    item = _item(a)
    if not state.supply[item]:
        raise IllegalAction("sold_out", "None of that item is left in the supply.", item=a["item"])
    return item


def do_take_item(state: DaysState, i: int, a: Action, item: Any, events: list[Event]) -> None:
    why = state.pending[i].pop(0)["why"]
    F.gain_item(state, i, item, events, why)


def check_albert(state: DaysState, i: int, a: Action) -> Any:
    keys(a, "keep")
    if a["keep"] not in (True, False):  # == like `legal_actions` (1 counts as True)
        raise IllegalAction("malformed", "That is not a valid move.")
    if not a["keep"] and not state.pending[i][0]["rolls"]:
        raise IllegalAction("no_rolls", "Albert has no roll left: take the item.")


def do_albert(state: DaysState, i: int, a: Action, plan: Any, events: list[Event]) -> None:
    """Keep the last roll, or roll again; the third roll is taken as it falls."""
    entry = state.pending[i].pop(0)
    if a["keep"] == True:  # noqa: E712 - 1 is True as in `legal_actions`
        F.take_face(state, i, entry["face"], events, "black_market")
        return
    face = F.roll_die(state, i, events, "black_market")
    if entry["rolls"] > 1:
        state.pending[i].insert(0, {"kind": "albert", "face": face, "rolls": entry["rolls"] - 1})
    else:
        F.take_face(state, i, face, events, "black_market")


def check_free_travel(state: DaysState, i: int, a: Action) -> Any:
    keys(a, "line")
    line = a["line"]
    entry = state.pending[i][0]
    if line not in F.free_travel_options(state, i, entry["travel"], F.trip_diary(state, i, entry)):
        raise IllegalAction("bad_line", "No such line leaves your city.")
    return line


def do_free_travel(state: DaysState, i: int, a: Action, line: Any, events: list[Event]) -> None:
    state.pending[i].pop(0)
    F.move_pawn(state, i, line, events, "free")


def check_swap(state: DaysState, i: int, a: Action) -> Any:
    if "give" not in a and "take" not in a:
        keys(a)
        return None
    keys(a, "give", "take")
    return check_swap_pair(state, i, a)


def do_swap(state: DaysState, i: int, a: Action, pair: Any, events: list[Event]) -> None:
    state.pending[i].pop(0)
    if pair is None:
        events.append({"type": "no_swap", "seat": state.seats[i]})
    else:
        do_swap_pair(state, i, pair, events, "pass_tile")
