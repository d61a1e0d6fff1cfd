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

from engine.core import Action, Event, Move, Result, Rules, View, dump_typed, json_copy, load_typed, unseen
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
            hand=hands, events=[[] for _ in range(n)], arrival_round=[0] * n, seen=[[] for _ in range(n)],
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
        if "seen" not in data:  # stored before the known cards were kept: none known
            data = {**data, "seen": [[] for _ in data["seats"]]}
        state: State = load_typed(State, data)
        return state

    def determinize(self, view: View, seat: str | None, seed: int) -> State:
        """Everything on the table comes from the view: the board, the display, both discard
        piles in order, the cards each seat took from the display in the open, the turn in
        progress. Hidden: the travel cards of the other hands (beyond their known ones) and the
        travel deck, dealt from the 60 cards minus every card the view shows; the event cards of
        the other hands and the event deck, dealt from the event cards minus the discard pile and
        the seat's own (grey events act when drawn, so never sit in a hand: they go to the deck);
        the generator (future dice and reshuffles), seeded anew."""
        rng = Rng.from_seed(seed)
        seats = list(view["seats"])
        n = len(seats)
        mine = seats.index(seat) if seat is not None and "private" in view else -1
        hands = view["hands"]
        known = [sorted(view["known_travel"][s]) for s in seats]
        display: list[str | None] = [d["card"] for d in view["display"]]
        travel_discard = list(view["travel_discard_pile"])
        event_discard = list(view["event_discard_pile"])
        hand = [list(view["private"]["travel"]) if k == mine else list(known[k]) for k in range(n)]
        events: list[list[str]] = [list(view["private"]["events"]) if k == mine else [] for k in range(n)]
        travel = unseen(D.travel_deck(), [c for c in display if c is not None], travel_discard, *hand)
        rng.shuffle(travel)
        for k in range(n):
            if k != mine:
                want = hands[seats[k]]["travel"] - len(hand[k])
                hand[k] = sorted(hand[k] + travel[len(travel) - want:]) if want else hand[k]
                del travel[len(travel) - want:]
        left = unseen(D.event_deck(n), event_discard, *events)
        held = [c for c in left if c not in D.GREY_DAYS]
        rng.shuffle(held)
        for k in range(n):
            if k != mine:
                want = hands[seats[k]]["event"]
                events[k] = sorted(held[len(held) - want:]) if want else []
                del held[len(held) - want:]
        event_deck = held + [c for c in left if c in D.GREY_DAYS]
        rng.shuffle(event_deck)
        turn = view["turn"]
        order = [seats.index(s) for s in view["order"]]
        current = view["current"]
        chits = view["chits"]
        st = State(
            seats=seats, options=dict(view["options"]), rng=0, round=view["round"], phase=view["phase"],
            first=seats.index(view["first_player"]),
            new_first=seats.index(view["new_first_player"]) if view["new_first_player"] is not None else -1,
            order=order, turn=order.index(seats.index(current)) if current is not None else 0,
            progress=[D.HOME if view["arrived"][s] else view["positions"][s] for s in seats],
            days=[view["days"][s] for s in seats], gold=[view["gold"][s] for s in seats],
            gold_supply=view["gold_supply"], detective=D.LOCATIONS.index(view["detective"]),
            chits=[[chits[D.LOCATIONS[j]]["red"], chits[D.LOCATIONS[j]]["blue"]] for j in range(1, NLOC)],
            display=display, travel_deck=travel, travel_discard=travel_discard, event_deck=event_deck,
            event_discard=event_discard, hand=hand, events=events,
            arrival_order=[seats.index(s) for s in view["arrival_order"]],
            arrival_round=[view["arrival_rounds"][s] for s in seats],
            last_roll=list(view["last_roll"]) if view["last_roll"] is not None else None,
            taken=turn["taken"], pending=turn["pending"], balloon=turn["balloon"], armed=list(turn["armed"]),
            travels=turn["travels"], extra=turn["extra_leg"], last_leg=turn["last_leg"],
            roll=json_copy(turn["roll"]), result=json_copy(view["result"]), seen=known,
        )
        st.rng = rng.next64()
        return st

    # ------------------------------------------------------------------ views
    def view(self, state: State, seat: str | None) -> View:
        # long: one flat literal of the public view, field by field
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
            "arrival_rounds": {seats[k]: st.arrival_round[k] for k in range(n)},
            "days": {seats[k]: st.days[k] for k in range(n)},
            "gold": {seats[k]: st.gold[k] for k in range(n)},
            "gold_supply": st.gold_supply,
            "detective": D.LOCATIONS[st.detective],
            "chits": chits,
            "display": display,
            "travel_deck": len(st.travel_deck),
            "travel_discard": len(st.travel_discard),
            "travel_discard_top": st.travel_discard[-1] if st.travel_discard else None,
            # both discard piles are face up: every card on them was seen, bottom first
            "travel_discard_pile": list(st.travel_discard),
            "event_discard_pile": list(st.event_discard),
            "event_deck": len(st.event_deck),
            "event_discard_top": st.event_discard[-1] if st.event_discard else None,
            "hands": {seats[k]: {"travel": len(st.hand[k]), "event": len(st.events[k])} for k in range(n)},
            # travel cards taken from the display and not seen to leave the hand since
            "known_travel": {seats[k]: list(st.seen[k]) for k in range(n)},
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
                "last_leg": st.last_leg,
                "roll": json_copy(st.roll) if st.roll is not None else None,
            },
            "order": [seats[k] for k in st.order],
            "new_first_player": seats[st.new_first] if st.new_first >= 0 else None,
        }
        if seat is not None and seat in seats:
            k = seats.index(seat)
            v["private"] = {"travel": list(st.hand[k]), "events": list(st.events[k])}
        return v

