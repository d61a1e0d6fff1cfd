"""Rules of Rails & Sails (world map), as the bot plays them.

See docs/games/rails-and-sails.md for the decisions the rulebook leaves open.
Hot paths (`legal_actions`, `apply`) work on plain lists and dicts; the state
is one dataclass of JSON-safe fields so `dump` is a shallow conversion.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from engine.core import (
    Move,
    Result,
    Rules,
    View,
    dump_typed,
    json_copy,
    load_typed,
)
from engine.rng import Rng

from .board import (
    GAME_ID,
    HARBORS_PER_PLAYER,
    MAX_TRAINS,
    MIN_TRAINS,
    PIECES_TOTAL,
    SETUP_TICKETS,
)
from .mapdata import (
    SHIP_CARDS,
    TICKETS,
    TICKETS_BY_ID,
    TRAIN_CARDS,
)
from .moves import MOVES, MoveHandlers
from .network import components, network, ticket_status
from .state import RSState
from .summary import RailsSummary


class RailsAndSails(MoveHandlers, RailsSummary, Rules):
    id = GAME_ID
    title = "Rails & Sails"
    min_players = 2
    max_players = 5
    option_defaults: ClassVar[dict[str, Any]] = {}
    option_choices: ClassVar[dict[str, Any]] = {}
    moves: ClassVar[Mapping[str, Move]] = MOVES
    #: moves that take no card from a deck; a draw, a reshuffle, the face-up reset or the
    #: pieces' reveal make a move final
    undoable_moves: ClassVar[frozenset[str]] = frozenset({
        "keep_tickets", "choose_mix", "claim", "harbor", "exchange", "pass"})
    revealing_events: ClassVar[frozenset[str]] = frozenset({
        "mix_revealed", "tickets_drawn", "take_face_up", "draw_blind", "reshuffle", "face_up_reset", "game_over"})
    #: any valid payment is accepted; `legal_actions` lists a capped, sensible set of them
    sampled_types: ClassVar[frozenset[str]] = frozenset({"claim", "harbor"})

    # -- life cycle -------------------------------------------------------------------------------
    def new_game(self, seats: list[str], seed: int, options: dict[str, Any] | None = None) -> RSState:
        self.check_seats(seats)
        self.validate_options(options)
        rng = Rng.from_seed(seed)
        train = list(TRAIN_CARDS)
        ship = list(SHIP_CARDS)
        tickets = [t.id for t in TICKETS]
        rng.shuffle(train)
        rng.shuffle(ship)
        rng.shuffle(tickets)
        n = len(seats)
        hands: list[dict[str, int]] = []
        pending: list[list[str]] = []
        for _ in seats:
            hand: dict[str, int] = {}
            for _ in range(3):
                c = train.pop()
                hand[c] = hand.get(c, 0) + 1
            for _ in range(7):
                c = ship.pop()
                hand[c] = hand.get(c, 0) + 1
            hands.append(hand)
            pending.append([tickets.pop() for _ in range(SETUP_TICKETS)])
        face_up: list[str | None] = [*(train.pop() for _ in range(3)), *(ship.pop() for _ in range(3))]
        state = RSState(
            seats=list(seats), rng=rng.state, phase="setup_tickets", current=0, turn=0, drawn=0,
            train_deck=train, ship_deck=ship, train_discard=[], ship_discard=[], face_up=face_up,
            ticket_deck=tickets, hands=hands, tickets=[[] for _ in seats], pending=pending,
            mix=[None] * n, trains=[0] * n, ships=[0] * n, box_trains=[0] * n, box_ships=[0] * n,
            harbors_left=[HARBORS_PER_PLAYER] * n, claimed={}, harbors={}, scores=[0] * n,
            final_left=None, last=None, idle=0, result=None,
        )
        self._check_wilds(state, [])
        return state

    def to_act(self, state: RSState) -> list[str]:
        phase = state.phase
        if phase == "play":
            return [state.seats[state.current]]
        if phase == "setup_tickets":
            return [s for i, s in enumerate(state.seats) if state.pending[i]]
        if phase == "setup_pieces":
            return [s for i, s in enumerate(state.seats) if state.mix[i] is None]
        return []

    def is_over(self, state: RSState) -> bool:
        return state.phase == "over"

    def result(self, state: RSState) -> Result | None:
        return None if state.result is None else json_copy(state.result)

    state_class = RSState

    def dump(self, state: RSState) -> dict[str, Any]:
        """The store's copy after every move: field by field as annotated (`dump_typed`)."""
        return dump_typed(state)

    def load(self, data: dict[str, Any]) -> RSState:
        state: RSState = load_typed(RSState, data)
        return state

    # -- views ----------------------------------------------------------------------------------------------
    def view(self, state: RSState, seat: str | None) -> View:
        # long: one flat literal of the public view, field by field
        seats = state.seats
        revealed = state.phase in ("play", "over")
        chosen = None
        if state.phase == "setup_tickets":
            chosen = {s: not state.pending[j] for j, s in enumerate(seats)}
        elif state.phase == "setup_pieces":
            chosen = {s: state.mix[j] is not None for j, s in enumerate(seats)}
        v: View = {
            "game": GAME_ID,
            "seats": list(seats),
            "to_act": self.to_act(state),
            "over": state.phase == "over",
            "phase": state.phase,
            "current": seats[state.current] if state.phase == "play" else None,
            "turn": state.turn,
            "drawn": state.drawn,
            "final_turns_left": (
                {s: state.final_left[j] for j, s in enumerate(seats)} if state.final_left is not None else None
            ),
            "claimed": {rid: seats[o] for rid, o in state.claimed.items()},
            "harbors": {c: seats[o] for c, o in state.harbors.items()},
            "scores": {s: state.scores[j] for j, s in enumerate(seats)},
            "pieces": {
                s: ({"trains": state.trains[j], "ships": state.ships[j]} if revealed else None)
                for j, s in enumerate(seats)
            },
            "box": {
                s: ({"trains": state.box_trains[j], "ships": state.box_ships[j]} if revealed else None)
                for j, s in enumerate(seats)
            },
            "harbors_left": {s: state.harbors_left[j] for j, s in enumerate(seats)},
            "hand_sizes": {s: sum(state.hands[j].values()) for j, s in enumerate(seats)},
            "ticket_counts": {s: len(state.tickets[j]) for j, s in enumerate(seats)},
            "pending_counts": {s: len(state.pending[j]) for j, s in enumerate(seats)},
            "face_up": list(state.face_up),
            "decks": {
                "train": len(state.train_deck), "ship": len(state.ship_deck),
                "train_discard": len(state.train_discard), "ship_discard": len(state.ship_discard),
                "tickets": len(state.ticket_deck),
            },
            "last": dict(state.last) if state.last is not None else None,
            "chosen": chosen,
            "result": json_copy(state.result) if state.result is not None else None,
        }
        if v["last"] is not None and "cards" in v["last"]:
            v["last"]["cards"] = list(v["last"]["cards"])
        if seat is not None and seat in seats:
            j = seats.index(seat)
            mine = [rid for rid, o in state.claimed.items() if o == j]
            adj = network(mine)
            comp = components(adj)
            hand = []
            for card in sorted(state.hands[j]):
                hand.extend([card] * state.hands[j][card])
            tickets = []
            for tid in state.tickets[j]:
                t = TICKETS_BY_ID[tid]
                tickets.append({
                    "id": tid, "cities": list(t.cities), "points": list(t.points),
                    "status": ticket_status(tid, adj, comp),
                })
            pending = [
                {"id": tid, "cities": list(TICKETS_BY_ID[tid].cities), "points": list(TICKETS_BY_ID[tid].points)}
                for tid in state.pending[j]
            ]
            m = state.mix[j]
            v["private"] = {
                "hand": hand,
                "tickets": tickets,
                "pending_tickets": pending,
                "mix": {"trains": m, "ships": None if m is None else PIECES_TOTAL - m},
            }
        return v

    # -- hidden information -----------------------------------------------------------------------------
    def resample_hidden(self, state: RSState, seed: int) -> RSState:
        """Re-deal what the public view does not show: train cards in hands and the train deck
        are shuffled together and dealt back (each seat keeps its number of train cards, as
        everyone saw which deck each card came from), the same for ship cards; kept, pending
        and undrawn tickets are shuffled together and dealt back by count; a piece mix chosen
        but not yet revealed is re-chosen; the generator is re-seeded. The face-up cards, the
        discard piles (paid in the open) and everything on the map stay."""
        out = self.load(self.dump(state))
        if out.phase == "over":
            return out
        rng = Rng.from_seed(seed)
        for kind in ("train", "ship"):
            deck = out.train_deck if kind == "train" else out.ship_deck
            held = [[c for c, n in sorted(hand.items()) if c[0] == kind[0] for _ in range(n)] for hand in out.hands]
            pool = [c for cards in held for c in cards] + deck
            rng.shuffle(pool)
            for hand, cards in zip(out.hands, held, strict=True):
                for c in cards:
                    left = hand[c] - 1
                    if left:
                        hand[c] = left
                    else:
                        del hand[c]
                for c in pool[:len(cards)]:
                    hand[c] = hand.get(c, 0) + 1
                pool = pool[len(cards):]
            if kind == "train":
                out.train_deck = pool
            else:
                out.ship_deck = pool
        tickets = [t for kept in out.tickets for t in kept] + [t for p in out.pending for t in p] + out.ticket_deck
        rng.shuffle(tickets)
        for group in (out.tickets, out.pending):
            for j, held_tickets in enumerate(group):
                group[j] = tickets[:len(held_tickets)]
                tickets = tickets[len(held_tickets):]
        out.ticket_deck = tickets
        if out.phase == "setup_pieces":
            out.mix = [None if m is None else rng.randint(MIN_TRAINS, MAX_TRAINS) for m in out.mix]
        out.rng = rng.next64()
        return out
