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
    unseen,
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
            final_left=None, last=None, idle=0, result=None, seen=[{} for _ in seats],
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
        if "seen" not in data:  # stored before the known cards were kept: none known
            data = {**data, "seen": [{} for _ in data["seats"]]}
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
        sizes, kinds = _hand_counts(seats, state.hands)
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
            "hand_sizes": sizes,
            # everyone saw which deck each card came from and which cards were paid
            "hand_kinds": kinds,
            # cards taken face up and not seen paid since (card -> count)
            "known_cards": {s: dict(state.seen[j]) for j, s in enumerate(seats)},
            "ticket_counts": {s: len(state.tickets[j]) for j, s in enumerate(seats)},
            "pending_counts": {s: len(state.pending[j]) for j, s in enumerate(seats)},
            "face_up": list(state.face_up),
            "decks": {
                "train": len(state.train_deck), "ship": len(state.ship_deck),
                "train_discard": len(state.train_discard), "ship_discard": len(state.ship_discard),
                "tickets": len(state.ticket_deck),
            },
            # the discard piles are paid in the open: every card on them was seen, bottom first
            "discards": {"train": list(state.train_discard), "ship": list(state.ship_discard)},
            "mixes": {s: state.mix[j] for j, s in enumerate(seats)} if revealed else None,
            "idle": state.idle,
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
    def determinize(self, view: View, seat: str | None, seed: int) -> RSState:
        """The map, the scores, the pieces, the face-up cards, both discard piles, each seat's
        numbers of train and ship cards and the cards it took face up come from the view.
        Hidden: the other hands' cards beyond the known ones and both decks, dealt kind by kind
        from the 140 cards minus every card the view shows; the other seats' kept and pending
        tickets and the ticket deck, from the 65 minus the seat's own (once the game is over the
        result names every ticket); a piece mix chosen but not yet revealed, drawn anew; the
        generator (future reshuffles), seeded anew."""
        rng = Rng.from_seed(seed)
        seats = list(view["seats"])
        n = len(seats)
        phase = view["phase"]
        private = view.get("private") if seat is not None else None
        mine = seats.index(seat) if private is not None and seat is not None else -1
        known = [dict(view["known_cards"][s]) for s in seats]
        hands = [_counts(private["hand"]) if private is not None and j == mine else dict(known[j]) for j in range(n)]
        face_up: list[str | None] = list(view["face_up"])
        train_discard, ship_discard = list(view["discards"]["train"]), list(view["discards"]["ship"])
        decks = _deal_cards(view, hands, mine, rng)
        tickets, pending, ticket_deck = _deal_tickets(view, private, mine, rng)
        mix = _mixes(view, private, mine, rng)
        pieces, box = view["pieces"], view["box"]
        final_left = view["final_turns_left"]
        state = RSState(
            seats=seats, rng=0, phase=phase, current=seats.index(view["current"]) if view["current"] else 0,
            turn=view["turn"], drawn=view["drawn"], train_deck=decks["train"], ship_deck=decks["ship"],
            train_discard=train_discard, ship_discard=ship_discard, face_up=face_up, ticket_deck=ticket_deck,
            hands=hands, tickets=tickets, pending=pending, mix=mix,
            trains=[pieces[s]["trains"] if pieces[s] else 0 for s in seats],
            ships=[pieces[s]["ships"] if pieces[s] else 0 for s in seats],
            box_trains=[box[s]["trains"] if box[s] else 0 for s in seats],
            box_ships=[box[s]["ships"] if box[s] else 0 for s in seats],
            harbors_left=[view["harbors_left"][s] for s in seats],
            claimed={rid: seats.index(o) for rid, o in view["claimed"].items()},
            harbors={c: seats.index(o) for c, o in view["harbors"].items()},
            scores=[view["scores"][s] for s in seats],
            final_left=[final_left[s] for s in seats] if final_left is not None else None,
            last=json_copy(view["last"]), idle=view["idle"], result=json_copy(view["result"]), seen=known,
        )
        state.rng = rng.next64()
        return state


def _deal_cards(view: View, hands: list[dict[str, int]], mine: int, rng: Rng) -> dict[str, list[str]]:
    """Fill the hidden hands (in place) up to their numbers of train and ship cards from the cards
    the view does not show, kind by kind; the rest, shuffled, are the two decks."""
    seats = view["seats"]
    shown = [c for c in view["face_up"] if c is not None] + view["discards"]["train"] + view["discards"]["ship"]
    shown += [c for hand in hands for c, k in hand.items() for _ in range(k)]
    decks = {}
    for kind, content in (("train", TRAIN_CARDS), ("ship", SHIP_CARDS)):
        pool = unseen(content, [c for c in shown if c[0] == kind[0]])
        rng.shuffle(pool)
        for j, hand in enumerate(hands):
            if j != mine:
                held = sum(k for c, k in hand.items() if c[0] == kind[0])
                for c in _take(pool, view["hand_kinds"][seats[j]][kind] - held):
                    hand[c] = hand.get(c, 0) + 1
        decks[kind] = pool
    return decks


def _deal_tickets(view: View, private: View | None, mine: int,
                  rng: Rng) -> tuple[list[list[str]], list[list[str]], list[str]]:
    """(kept, pending, deck): the seat's own from its private view, every ticket once the final
    scoring showed them, the others dealt by count from the tickets the view does not show."""
    seats = view["seats"]
    tickets: list[list[str]] = [[] for _ in seats]
    pending: list[list[str]] = [[] for _ in seats]
    if private is not None:
        tickets[mine] = [t["id"] for t in private["tickets"]]
        pending[mine] = [t["id"] for t in private["pending_tickets"]]
    result = view["result"]
    if result is not None:
        for row in result["ranking"]:
            tickets[seats.index(row["seat"])] = [t["id"] for t in row["ticket_detail"]]
    pool = unseen([t.id for t in TICKETS], *tickets, *pending)
    rng.shuffle(pool)
    for j, s in enumerate(seats):
        if j != mine:
            if result is None:
                tickets[j] = _take(pool, view["ticket_counts"][s])
            pending[j] = _take(pool, view["pending_counts"][s])
    return tickets, pending, pool


def _mixes(view: View, private: View | None, mine: int, rng: Rng) -> list[int | None]:
    """The piece mixes: revealed ones as shown, the seat's own, others chosen in secret drawn anew."""
    revealed = view["mixes"]
    out: list[int | None] = []
    for j, s in enumerate(view["seats"]):
        if revealed is not None:
            out.append(revealed[s])
        elif j == mine and private is not None:
            out.append(private["mix"]["trains"])
        elif view["phase"] == "setup_pieces" and view["chosen"][s]:
            out.append(rng.randint(MIN_TRAINS, MAX_TRAINS))
        else:
            out.append(None)
    return out


def _hand_counts(seats: list[str], hands: list[dict[str, int]]) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
    """Each seat's number of cards, and of train and ship cards (one pass: every view asks)."""
    sizes: dict[str, int] = {}
    kinds: dict[str, dict[str, int]] = {}
    for s, hand in zip(seats, hands, strict=True):
        total = sum(hand.values())
        trains = sum([k for c, k in hand.items() if c[0] == "t"])
        sizes[s] = total
        kinds[s] = {"train": trains, "ship": total - trains}
    return sizes, kinds


def _counts(cards: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in cards:
        out[c] = out.get(c, 0) + 1
    return out


def _take(pool: list[str], count: int) -> list[str]:
    """The last `count` items of a shuffled pool, removed from it."""
    if count <= 0:
        return []
    taken = pool[-count:]
    del pool[-count:]
    return taken
