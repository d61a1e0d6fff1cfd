"""Around the World in 80 Days (Michael Rieneck, Kosmos 2004) as a pure rules object.

A turn is several actions by the player whose turn it is:

    take (a display card)  ->  [action: use/skip the card's action]  ->
    travel phase: travel one leg (cards, maybe balloon) / stay, play events, buy, sell an
    elephant; a balloon or elephant ride rolls the die (reroll for gold / keep)  ->
    done  ->  [discard down to 6]

The detective penalty, chits, arrivals, rounds and the end are applied automatically.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from engine.core import Action, Event, Move, Result, Rules, View, dump_typed, json_copy, load_typed
from engine.rng import Rng

from . import data as D
from .cards import CARD_INFO, VALUE, best_modified, leg_days, multiset_combos
from .flow import shuffle
from .legal import NLOC, REROLL_COST
from .moves import DO, MODIFIERS, MOVES, MoveHandlers
from .state import State
from .summary import AroundTheWorldSummary

__all__ = ["CARD_INFO", "MODIFIERS", "NLOC", "REROLL_COST", "VALUE", "AroundTheWorldRules", "State",
           "best_modified", "leg_days", "multiset_combos"]


class AroundTheWorldRules(MoveHandlers, AroundTheWorldSummary, Rules):
    id = D.GAME_ID
    title = D.TITLE
    min_players = 2
    max_players = 6
    #: where the English and French rulebooks disagree (shared/rules/around-the-world.md):
    #: elephant_leg_events - French: Offer and Connections may be used on Bombay -> Calcutta;
    #: two_player_end - "french": the first home wins only within 80 days, else the other;
    #:                  "english": the first home wins whatever his days.
    option_defaults = {"elephant_leg_events": False, "two_player_end": "french"}
    option_choices = {"elephant_leg_events": [False, True], "two_player_end": ["french", "english"]}
    moves: ClassVar[Mapping[str, Move]] = MOVES
    #: moves with open cards only; a draw, a die, a chit turned over or a new round's display
    #: make a move final
    undoable_moves: ClassVar[frozenset[str]] = frozenset({
        "take", "skip_action", "detective", "travel", "stay", "done", "event", "elephant_gold", "discard"})
    revealing_events: ClassVar[frozenset[str]] = frozenset({
        "roll", "reroll", "draw_event", "grey_event", "event_deck_empty", "chit", "round", "exchange",
        "take_top", "game_over"})

    # ------------------------------------------------------------------ setup
    def new_game(self, seats: list[str], seed: int, options: dict[str, Any] | None = None) -> State:
        self.check_seats(seats)
        opts = self.validate_options(options)
        n = len(seats)
        travel = D.travel_deck()
        rng = shuffle(Rng.from_seed(seed).state, travel)
        events = D.event_deck(n)
        rng = shuffle(rng, events)
        red = list(D.CHIT_SET)
        blue = list(D.CHIT_SET)
        rng = shuffle(rng, red)
        rng = shuffle(rng, blue)
        hands = []
        for _ in range(n):
            hand = [travel.pop() for _ in range(D.START_CARDS)]
            hand.sort()
            hands.append(hand)
        st = State(
            seats=list(seats), options=opts, rng=rng,
            progress=[0] * n, days=[0] * n, gold=[D.START_GOLD] * n,
            gold_supply=D.GOLD_TOTAL - D.START_GOLD * n,
            chits=[[red[i], blue[i]] for i in range(NLOC - 1)],
            travel_deck=travel, event_deck=events,
            hand=hands, events=[[] for _ in range(n)], arrival_round=[0] * n,
        )
        self._start_round(st, [])
        return st

    # ------------------------------------------------------------------ contract
    def to_act(self, state: State) -> list[str]:
        if state.phase == "over":
            return []
        return [state.seats[state.order[state.turn]]]

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def push(self, state: State, seat: str, action: Action) -> list[Event]:
        """`Rules.push` straight to the handler (no table closure in between): the same state
        change and events as `apply` for a listed action; any other type goes through `apply`."""
        do = DO.get(action["type"])
        if do is None:
            return self.apply(state, seat, action)
        events: list[Event] = []
        do(self, state, state.order[state.turn], action, events)
        return events

    def result(self, state: State) -> Result | None:
        return state.result

    state_class = State

    def dump(self, state: State) -> dict[str, Any]:
        """The store's copy after every move: field by field as annotated (`dump_typed`)."""
        return dump_typed(state)

    def load(self, data: dict[str, Any]) -> State:
        state: State = load_typed(State, data)
        return state

    def resample_hidden(self, state: State, seed: int) -> State:
        """Re-deal what the public view does not show: the travel cards in hands and in the
        deck are shuffled together and dealt back (each seat keeps its number of cards), the
        same for event cards (grey events never sit in a hand: they act when drawn, so they
        stay in the deck), and the generator (future dice and reshuffles) is re-seeded. The
        display, the discard piles (played in the open) and the turn in progress stay."""
        st = self.load(self.dump(state))
        if st.phase == "over":
            return st
        rng = Rng.from_seed(seed)
        travel = [c for hand in st.hand for c in hand] + st.travel_deck
        rng.shuffle(travel)
        for k, hand in enumerate(st.hand):
            st.hand[k] = sorted(travel[:len(hand)])
            travel = travel[len(hand):]
        st.travel_deck = travel
        held = [c for hand in st.events for c in hand] + [c for c in st.event_deck if c not in D.GREY_DAYS]
        grey = [c for c in st.event_deck if c in D.GREY_DAYS]
        rng.shuffle(held)
        for k, hand in enumerate(st.events):
            st.events[k] = sorted(held[:len(hand)])
            held = held[len(hand):]
        deck = held + grey
        rng.shuffle(deck)
        st.event_deck = deck
        st.rng = rng.next64()
        return st

    # ------------------------------------------------------------------ views
    def view(self, state: State, seat: str | None) -> View:
        st = state
        seats = st.seats
        n = len(seats)
        cur = None if st.phase == "over" else seats[st.order[st.turn]]
        chits = {}
        for j in range(1, NLOC):
            red, blue = st.chits[j - 1]
            chits[D.LOCATIONS[j]] = {"red": red, "blue": blue}
        display = [{"action": D.DISPLAY_ACTIONS[j], "card": c} for j, c in enumerate(st.display)]
        v: View = {
            "game": D.GAME_ID,
            "seats": list(seats),
            "to_act": [] if cur is None else [cur],
            "over": st.phase == "over",
            "phase": st.phase,
            "round": st.round,
            "first_player": seats[st.first],
            "current": cur,
            "player_count": n,
            "locations": list(D.LOCATIONS),
            "legs": D.legs_view(),
            "positions": {seats[k]: st.progress[k] % NLOC for k in range(n)},
            "arrived": {seats[k]: st.progress[k] >= D.HOME for k in range(n)},
            "arrival_order": [seats[k] for k in st.arrival_order],
            "days": {seats[k]: st.days[k] for k in range(n)},
            "gold": {seats[k]: st.gold[k] for k in range(n)},
            "gold_supply": st.gold_supply,
            "detective": D.LOCATIONS[st.detective],
            "chits": chits,
            "display": display,
            "travel_deck": len(st.travel_deck),
            "travel_discard": len(st.travel_discard),
            "travel_discard_top": st.travel_discard[-1] if st.travel_discard else None,
            "event_deck": len(st.event_deck),
            "event_discard_top": st.event_discard[-1] if st.event_discard else None,
            "hands": {seats[k]: {"travel": len(st.hand[k]), "event": len(st.events[k])} for k in range(n)},
            "last_roll": list(st.last_roll) if st.last_roll is not None else None,
            "result": json_copy(st.result) if st.result is not None else None,
            "options": dict(st.options),
            "turn": {
                "taken": st.taken,
                "pending": st.pending,
                "balloon": st.balloon,
                "armed": list(st.armed),
                "travels": st.travels,
                "extra_leg": st.extra,
                "roll": json_copy(st.roll) if st.roll is not None else None,
            },
            "order": [seats[k] for k in st.order],
            "new_first_player": seats[st.new_first] if st.new_first >= 0 else None,
        }
        if seat is not None and seat in seats:
            k = seats.index(seat)
            v["private"] = {"travel": list(st.hand[k]), "events": list(st.events[k])}
        return v

