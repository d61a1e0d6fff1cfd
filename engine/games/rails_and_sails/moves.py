"""How Rails & Sails moves are checked (the refusal codes players see) and carried out."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.core import Action, Event, IllegalAction, Move, malformed, not_a_player, not_your_turn

from .board import (
    DRAW_SOURCES,
    DRAW_TICKETS,
    HARBOR_CITIES,
    MAX_SHIPS,
    MAX_TRAINS,
    MIN_TRAINS,
    PIECES_TOTAL,
    ROUTES_AT,
    SETUP_KEEP,
)
from .legal import LegalMoves
from .mapdata import (
    CITIES,
    ROUTE_POINTS,
    ROUTES_BY_ID,
    WILD,
)
from .payments import (
    _held_cards,
    _pays_route,
    check_harbor_payment,
)
from .state import RSState


class MoveHandlers(LegalMoves):
    """The move half of `RailsAndSails` (a mixin)."""

    if TYPE_CHECKING:
        # provided by `Rules`, which `RailsAndSails` mixes this class with
        def to_act(self, state: RSState) -> list[str]: ...

        def passes_check(self, state: RSState, seat: str, action: Action) -> bool: ...

    # -- checks (never mutate; the refusal codes players see) -----------------------------------
    def is_legal(self, state: RSState, seat: str, action: Action) -> bool:
        """The same answer as `action in legal_actions`, without listing every claim."""
        return self.passes_check(state, seat, action)

    def check(self, state: RSState, seat: str, action: Action) -> None:
        if seat not in state.seats:
            raise not_a_player()
        i = state.seats.index(seat)
        kind = action["type"]
        move = _CHECKS.get(kind)
        if move is None:
            raise IllegalAction("unknown_action", f"Unknown move '{kind}'.", action=kind)
        if state.phase == "play":
            if i != state.current:
                raise not_your_turn()
        elif seat not in self.to_act(state):
            raise not_your_turn()
        move(self, state, i, action)

    def _check_keep(self, state: RSState, i: int, action: Action) -> None:
        _keys(action, _KEYS_IDS)
        pending = state.pending[i]
        if not pending:
            raise IllegalAction("no_tickets_to_keep", "You have no tickets to choose from.")
        ids = action["ids"]
        if not isinstance(ids, list) or not all(isinstance(x, str) for x in ids):
            raise malformed()
        if len(set(ids)) != len(ids) or any(x not in pending for x in ids):
            raise IllegalAction("bad_tickets", "Choose among the tickets you were dealt.")
        minimum = SETUP_KEEP if state.phase == "setup_tickets" else 1
        if len(ids) < minimum:
            raise IllegalAction("keep_more", f"Keep at least {minimum} of the tickets.", min=minimum)

    def _check_mix(self, state: RSState, i: int, action: Action) -> None:
        _keys(action, _KEYS_TRAINS)
        if state.phase != "setup_pieces":
            raise IllegalAction("wrong_phase", "You cannot choose your pieces now.")
        t = action["trains"]
        if not isinstance(t, int) or isinstance(t, bool) or not MIN_TRAINS <= t <= MAX_TRAINS:
            raise IllegalAction(
                "bad_mix", f"Choose {MIN_TRAINS}–{MAX_TRAINS} trains (the rest of the 60 pieces are ships).",
                min=MIN_TRAINS, max=MAX_TRAINS,
            )

    def _require_turn_start(self, state: RSState, i: int) -> None:
        if state.phase != "play":
            raise IllegalAction("wrong_phase", "That move is only possible during play.")
        if state.pending[i]:
            raise IllegalAction("choose_tickets_first", "First choose which of the drawn tickets to keep.")
        if state.drawn:
            raise IllegalAction("finish_drawing", "Take your second transport card first.")

    def _check_draw(self, state: RSState, i: int, action: Action) -> None:
        if state.phase != "play":
            raise IllegalAction("wrong_phase", "That move is only possible during play.")
        if state.pending[i]:
            raise IllegalAction("choose_tickets_first", "First choose which of the drawn tickets to keep.")
        source = action.get("source")
        if source not in DRAW_SOURCES:
            raise IllegalAction("bad_source", "Take a face-up card or draw from the train or ship deck.")
        if not _cards_to_take(state):
            raise IllegalAction(
                "no_cards_to_take", "Both decks and both discard piles are empty: no cards can be taken."
            )
        if source != "face_up":
            _keys(action, _KEYS_SOURCE)
            if not (state.train_deck if source == "train_deck" else state.ship_deck):
                raise IllegalAction("deck_empty", "That deck is empty.")
            return
        self._check_face_up(state, action)

    @staticmethod
    def _check_face_up(state: RSState, action: Action) -> None:
        """The face-up half of `_check_draw`: the slot, the card it names, the refill deck."""
        _keys(action, _KEYS_SOURCE_SLOT_CARD_REFILL)
        slot = action["slot"]
        refill = action["refill"]
        if not isinstance(slot, int) or isinstance(slot, bool) or not 0 <= slot < 6:
            raise IllegalAction("bad_slot", "Choose one of the six face-up cards.")
        card = state.face_up[slot]
        if card is None:
            raise IllegalAction("empty_slot", "There is no card in that place.")
        if action["card"] != card:  # the action names the card, so a stale choice cannot take another one
            raise IllegalAction("card_gone", "That card is no longer on display.")
        if card == WILD and state.drawn == 1:
            raise IllegalAction("wild_second", "A face-up wild can only be taken as your first card.")
        if refill == "train":
            can_refill = bool(state.train_deck)
        elif refill == "ship":
            can_refill = bool(state.ship_deck)
        else:
            raise malformed()
        if not can_refill:
            raise IllegalAction("bad_refill", "That deck cannot replace the card; choose another.")

    def _check_claim(self, state: RSState, i: int, action: Action) -> None:
        self._require_turn_start(state, i)
        _keys(action, _KEYS_ROUTE_CARDS)
        rid = action["route"]
        route = ROUTES_BY_ID.get(rid) if isinstance(rid, str) else None
        if route is None:
            raise IllegalAction("unknown_route", "There is no such route.")
        if rid in state.claimed:
            raise IllegalAction("route_taken", "That route is already taken.")
        if route.double is not None and route.double in state.claimed:
            owner = state.claimed[route.double]
            if owner == i:
                raise IllegalAction("both_doubles", "You cannot claim both routes of a double route.")
            if len(state.seats) <= 3:
                raise IllegalAction(
                    "double_closed", "With 2 or 3 players only one route of a double route can be used."
                )
        cards, _ = _held_cards(state, i, action)
        if not _pays_route(tuple(sorted(cards)), route.kind, route.colour, route.length, route.rough):
            raise IllegalAction("bad_payment", "Those cards do not pay for that route.", route=rid)
        pieces = state.trains[i] if route.kind == "train" else state.ships[i]
        if pieces < route.length:
            raise IllegalAction("no_pieces", "You do not have enough pieces of that kind.", kind=route.kind)

    def _check_tickets(self, state: RSState, i: int, action: Action) -> None:
        self._require_turn_start(state, i)
        _keys(action, _KEYS_TYPE)
        if not state.ticket_deck:
            raise IllegalAction("no_tickets_left", "There are no destination tickets left.")

    def _check_harbor(self, state: RSState, i: int, action: Action) -> None:
        self._require_turn_start(state, i)
        _keys(action, _KEYS_CITY_CARDS)
        city = action["city"]
        if not isinstance(city, str) or city not in CITIES:
            raise IllegalAction("unknown_city", "There is no such city.")
        if city not in HARBOR_CITIES:
            raise IllegalAction("not_harbor_city", "Harbors can only be built in harbor (blue) cities.", city=city)
        if city in state.harbors:
            raise IllegalAction("harbor_taken", "That city already has a harbor.", city=city)
        if state.harbors_left[i] <= 0:
            raise IllegalAction("no_harbors_left", "You have built all three of your harbors.")
        if not any(state.claimed.get(rid) == i for rid in ROUTES_AT[city]):
            raise IllegalAction("no_route_to_city", "You need a route into that city first.", city=city)
        cards, _ = _held_cards(state, i, action)
        if not check_harbor_payment(cards):
            raise IllegalAction(
                "bad_harbor_payment",
                "A harbor costs 2 train and 2 ship cards of one colour with the harbor symbol (wilds replace any).",
            )

    def _check_exchange(self, state: RSState, i: int, action: Action) -> None:
        self._require_turn_start(state, i)
        _keys(action, _KEYS_TRAINS)
        n = action["trains"]
        if not isinstance(n, int) or isinstance(n, bool) or n == 0:
            raise IllegalAction("bad_exchange", "Say how many trains to take (negative: give trains back).")
        if n > 0 and (n > state.box_trains[i] or n > state.ships[i]):
            raise IllegalAction(
                "exchange_too_many", "You cannot swap that many pieces.",
                most=min(state.box_trains[i], state.ships[i]),
            )
        if n < 0 and (-n > state.box_ships[i] or -n > state.trains[i]):
            raise IllegalAction(
                "exchange_too_many", "You cannot swap that many pieces.",
                most=min(state.box_ships[i], state.trains[i]),
            )

    def _check_pass(self, state: RSState, i: int, action: Action) -> None:
        self._require_turn_start(state, i)
        _keys(action, _KEYS_TYPE)
        if self.legal_actions(state, state.seats[i]) != [{"type": "pass"}]:
            raise IllegalAction("cannot_pass", "You can only pass when no other move is possible.")

    # -- moves (called once the action is known legal) -------------------------------------------------
    def _keep(self, state: RSState, seat: str, action: Action) -> list[Event]:
        i = state.seats.index(seat)
        ids = action["ids"]
        pending = state.pending[i]
        returned = [t for t in pending if t not in ids]
        state.tickets[i].extend(t for t in pending if t in ids)
        state.pending[i] = []
        # returned tickets go under the deck (index 0), in the order they were drawn
        for t in reversed(returned):
            state.ticket_deck.insert(0, t)
        events: list[Event] = [{"type": "tickets_kept", "seat": seat, "count": len(ids), "returned": len(returned)}]
        if state.phase == "setup_tickets":
            state.last = {"seat": seat, "type": "keep_tickets", "count": len(ids)}
            if not any(state.pending):
                state.phase = "setup_pieces"
                events.append({"type": "choose_mix_now"})
            return events
        state.last = {"seat": seat, "type": "tickets", "count": len(ids)}
        self._end_turn(state, i, False, events)
        return events

    def _choose_mix(self, state: RSState, seat: str, action: Action) -> list[Event]:
        state.mix[state.seats.index(seat)] = action["trains"]
        events: list[Event] = [{"type": "mix_chosen", "seat": seat}]
        state.last = {"seat": seat, "type": "choose_mix"}
        if all(m is not None for m in state.mix):
            for j, s in enumerate(state.seats):
                tj = state.mix[j]
                assert tj is not None
                state.trains[j] = tj
                state.ships[j] = PIECES_TOTAL - tj
                state.box_trains[j] = MAX_TRAINS - tj
                state.box_ships[j] = MAX_SHIPS - (PIECES_TOTAL - tj)
                events.append({"type": "mix_revealed", "seat": s, "trains": tj, "ships": PIECES_TOTAL - tj})
            state.phase = "play"
            state.current = 0
            state.turn = 1
            events.append({"type": "turn", "seat": state.seats[0]})
        return events

    def _draw(self, state: RSState, seat: str, action: Action) -> list[Event]:
        """Take a transport card (half the moves of a game, so written for speed: the seat is
        `state.current`, as a draw is only legal for the seat to move during play; the take's
        event comes first, any reshuffle and face-up reset after it)."""
        i = state.current
        second = state.drawn == 1
        events: list[Event]
        taken: dict[str, str]
        if action["source"] == "face_up":
            card = action["card"]
            slot = action["slot"]
            kind = action["refill"]
            deck = state.train_deck if kind == "train" else state.ship_deck
            new = deck.pop()
            events = [{"type": "take_face_up", "seat": seat, "card": card, "slot": slot, "new": new}]
            if not deck:
                self._reshuffle(state, kind, events)
            face_up = state.face_up
            face_up[slot] = new
            if face_up.count(WILD) >= 3:
                self._check_wilds(state, events)
            ends = second or card == WILD
            taken = {"face_up": card}
            seen = state.seen[i]
            seen[card] = seen.get(card, 0) + 1
        else:
            kind = "train" if action["source"] == "train_deck" else "ship"
            events = [{"type": "draw_blind", "seat": seat, "deck": kind}]
            card = self._pop(state, kind, events)
            ends = second
            taken = {"blind": kind}
        hand = state.hands[i]
        hand[card] = hand.get(card, 0) + 1
        if second:
            assert state.last is not None
            state.last["cards"].append(taken)
        else:
            state.last = {"seat": seat, "type": "draw", "cards": [taken]}
        if ends or not _cards_to_take(state):  # no card can be taken as the second one
            self._end_turn(state, i, False, events)
        else:
            state.drawn = 1
        return events

    def _claim(self, state: RSState, seat: str, action: Action) -> list[Event]:
        """Claim a route. The seat is `state.current` (claims are only legal for the seat to
        move) and the cards are known held (`push` only takes listed actions, `apply` checked)."""
        i = state.current
        rid = action["route"]
        route = ROUTES_BY_ID[rid]
        cards = action["cards"]
        paid = sorted(cards)
        self._discard(state, state.hands[i], cards)
        if state.seen[i]:
            _unsee(state.seen[i], cards)
        length = route.length
        if route.kind == "train":
            state.trains[i] -= length
        else:
            state.ships[i] -= length
        points = ROUTE_POINTS[length]
        state.scores[i] += points
        state.claimed[rid] = i
        events: list[Event] = [{
            "type": "claim", "seat": seat, "route": rid, "a": route.a, "b": route.b, "kind": route.kind,
            "length": length, "colour": route.colour, "points": points, "cards": paid,
        }]
        state.last = {"seat": seat, "type": "claim", "route": rid, "cards": list(paid), "points": points}
        self._after_discard(state, events)
        self._end_turn(state, i, True, events)
        return events

    def _tickets(self, state: RSState, seat: str, action: Action) -> list[Event]:
        i = state.seats.index(seat)
        n = min(DRAW_TICKETS, len(state.ticket_deck))
        drawn = [state.ticket_deck.pop() for _ in range(n)]
        state.pending[i] = drawn
        state.last = {"seat": seat, "type": "draw_tickets", "count": n}  # "tickets" with the kept count follows
        return [{"type": "tickets_drawn", "seat": seat, "count": n}]

    def _harbor(self, state: RSState, seat: str, action: Action) -> list[Event]:
        """Build a harbor (the seat is `state.current` and the cards are known held, as in `_claim`)."""
        i = state.current
        city = action["city"]
        cards = action["cards"]
        self._discard(state, state.hands[i], cards)
        if state.seen[i]:
            _unsee(state.seen[i], cards)
        state.harbors[city] = i
        state.harbors_left[i] -= 1
        paid = sorted(cards)
        events: list[Event] = [{"type": "harbor", "seat": seat, "city": city, "cards": paid}]
        state.last = {"seat": seat, "type": "harbor", "city": city, "cards": list(paid)}
        self._after_discard(state, events)
        self._end_turn(state, i, True, events)
        return events

    def _exchange(self, state: RSState, seat: str, action: Action) -> list[Event]:
        """Swap pieces with the box (the seat is `state.current`: only legal for the seat to move)."""
        i = state.current
        n = action["trains"]
        cost = n if n > 0 else -n
        state.trains[i] += n
        state.box_trains[i] -= n
        state.ships[i] -= n
        state.box_ships[i] += n
        state.scores[i] -= cost
        state.last = {"seat": seat, "type": "exchange", "trains": n}
        events: list[Event] = [{"type": "exchange", "seat": seat, "trains": n, "ships": -n, "cost": cost}]
        self._end_turn(state, i, False, events)
        return events

    def _pass(self, state: RSState, seat: str, action: Action) -> list[Event]:
        state.last = {"seat": seat, "type": "pass"}
        events: list[Event] = [{"type": "pass", "seat": seat}]
        self._end_turn(state, state.seats.index(seat), False, events)
        return events


#: the keys of each kind of action (`_keys`)
_KEYS_IDS = frozenset({"type", "ids"})
_KEYS_TRAINS = frozenset({"type", "trains"})
_KEYS_SOURCE_SLOT_CARD_REFILL = frozenset({"type", "source", "slot", "card", "refill"})
_KEYS_SOURCE = frozenset({"type", "source"})
_KEYS_ROUTE_CARDS = frozenset({"type", "route", "cards"})
_KEYS_TYPE = frozenset({"type"})
_KEYS_CITY_CARDS = frozenset({"type", "city", "cards"})


def _cards_to_take(state: RSState) -> bool:
    """Whether transport cards can be taken at all: not when both decks and both discard piles
    are empty (rulebook). The face-up cards do not count: each taken one must be replaced from a
    deck, and an emptied deck takes its discards at once, so in practice this is "a deck has
    cards", which is what `_draw_options` offers."""
    return bool(state.train_deck or state.ship_deck or state.train_discard or state.ship_discard)


def _unsee(seen: dict[str, int], cards: list[str]) -> None:
    """Paid cards leave the hand's known part (one copy each, if known)."""
    for c in cards:
        n = seen.get(c)
        if n:
            if n > 1:
                seen[c] = n - 1
            else:
                del seen[c]


def _keys(action: Action, allowed: frozenset[str]) -> None:
    if action.keys() != allowed:
        raise malformed()


Check = Callable[[MoveHandlers, RSState, int, Action], None]
#: action type -> its check (`MoveHandlers.check`)
_CHECKS: dict[str, Check] = {
    "keep_tickets": MoveHandlers._check_keep,
    "choose_mix": MoveHandlers._check_mix,
    "draw": MoveHandlers._check_draw,
    "claim": MoveHandlers._check_claim,
    "tickets": MoveHandlers._check_tickets,
    "harbor": MoveHandlers._check_harbor,
    "exchange": MoveHandlers._check_exchange,
    "pass": MoveHandlers._check_pass,
}
#: action type -> move handler (`Rules.apply` dispatches through it)
MOVES: dict[str, Move] = {
    "keep_tickets": MoveHandlers._keep,
    "choose_mix": MoveHandlers._choose_mix,
    "draw": MoveHandlers._draw,
    "claim": MoveHandlers._claim,
    "tickets": MoveHandlers._tickets,
    "harbor": MoveHandlers._harbor,
    "exchange": MoveHandlers._exchange,
    "pass": MoveHandlers._pass,
}
