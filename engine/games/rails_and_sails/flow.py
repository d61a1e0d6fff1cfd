"""The flow of a Rails & Sails game between moves: decks and discards, three face-up wilds,
the end of a turn, the last round and the final scoring."""

from __future__ import annotations

from typing import Any

from engine.core import (
    Event,
)
from engine.rng import Rng

from .board import (
    END_PIECES,
    HARBOR_POINTS,
    IDLE_TURNS_PER_PLAYER,
    MAX_REDEALS,
    UNBUILT_HARBOR_PENALTY,
)
from .mapdata import (
    ROUTES,
    TICKETS_BY_ID,
    WILD,
)
from .network import components, network, ticket_points, ticket_status
from .state import RSState


class Flow:
    """Helpers the moves and the rules share (a mixin of `RailsAndSails`)."""

    def _pop(self, state: RSState, kind: str, events: list[Event]) -> str:
        deck = state.train_deck if kind == "train" else state.ship_deck
        card = deck.pop()
        if not deck:
            self._reshuffle(state, kind, events)
        return card

    def _reshuffle(self, state: RSState, kind: str, events: list[Event]) -> None:
        discard = state.train_discard if kind == "train" else state.ship_discard
        if not discard:
            return
        rng = Rng(state.rng)
        rng.shuffle(discard)
        state.rng = rng.state
        if kind == "train":
            state.train_deck, state.train_discard = discard, []
        else:
            state.ship_deck, state.ship_discard = discard, []
        events.append({"type": "reshuffle", "deck": kind})

    def _discard(self, state: RSState, hand: dict[str, int], cards: list[str]) -> None:
        """Move paid `cards` from the hand onto their discard piles, kind by kind in the order
        each first appears in the payment: the order the piles have always grown in, which
        the later reshuffles depend on."""
        for c in dict.fromkeys(cards):
            n = cards.count(c)
            left = hand[c] - n
            if left:
                hand[c] = left
            else:
                del hand[c]
            pile = state.train_discard if c[0] == "t" else state.ship_discard
            if n == 1:
                pile.append(c)
            else:
                pile.extend([c] * n)

    def _after_discard(self, state: RSState, events: list[Event]) -> None:
        """Discards may refill an empty deck and an empty face-up place."""
        if not state.train_deck:
            self._reshuffle(state, "train", events)
        if not state.ship_deck:
            self._reshuffle(state, "ship", events)
        if None in state.face_up:
            for slot, card in enumerate(state.face_up):
                if card is None:
                    if state.train_deck:
                        state.face_up[slot] = self._pop(state, "train", events)
                    elif state.ship_deck:
                        state.face_up[slot] = self._pop(state, "ship", events)
            if state.face_up.count(WILD) >= 3:
                self._check_wilds(state, events)

    def _check_wilds(self, state: RSState, events: list[Event]) -> None:
        for _ in range(MAX_REDEALS):
            if state.face_up.count(WILD) < 3:
                return
            for card in state.face_up:
                if card is not None:
                    (state.train_discard if card[0] == "t" else state.ship_discard).append(card)
            layout: list[str | None] = []
            for kind in ("train", "train", "train", "ship", "ship", "ship"):
                deck = state.train_deck if kind == "train" else state.ship_deck
                if not deck:
                    self._reshuffle(state, kind, events)
                    deck = state.train_deck if kind == "train" else state.ship_deck
                if not deck:  # this deck is exhausted: use the other one
                    other = "ship" if kind == "train" else "train"
                    odeck = state.train_deck if other == "train" else state.ship_deck
                    if not odeck:
                        self._reshuffle(state, other, events)
                        odeck = state.train_deck if other == "train" else state.ship_deck
                    layout.append(self._pop(state, other, events) if odeck else None)
                else:
                    layout.append(self._pop(state, kind, events))
            state.face_up = layout
            events.append({"type": "face_up_reset"})

    def _end_turn(self, state: RSState, i: int, progress: bool, events: list[Event]) -> None:
        """Close seat `i`'s turn: idle count, the last round (or the game) and the next seat,
        its events appended to the move's `events` (every move but a ticket draw ends here)."""
        state.drawn = 0
        idle = state.idle = 0 if progress else state.idle + 1
        seats = state.seats
        n = len(seats)
        final_left = state.final_left
        if final_left is None:
            pieces = state.trains[i] + state.ships[i]
            if pieces <= END_PIECES:
                state.final_left = [2] * n
                events.append({"type": "final_round", "seat": seats[i], "pieces": pieces})
            elif idle >= IDLE_TURNS_PER_PLAYER * n or (progress and not self._any_route_open(state)):
                state.final_left = [2] * n
                events.append({"type": "final_round_stalled", "seat": seats[i]})
            nxt = i + 1 if i + 1 < n else 0  # nobody has finished yet
        else:
            final_left[i] -= 1
            if not any(final_left):
                events += self._finish(state)
                return
            nxt = (i + 1) % n
            while final_left[nxt] == 0:
                nxt = (nxt + 1) % n
        state.current = nxt
        state.turn += 1
        events.append({"type": "turn", "seat": seats[nxt]})

    def _any_route_open(self, state: RSState) -> bool:
        """Whether a route can still be claimed: one not claimed and, with 2-3 players, not the
        twin of a claimed one."""
        few = len(state.seats) <= 3
        claimed = state.claimed
        for r in ROUTES:
            if r.id in claimed:
                continue
            if few and r.double is not None and r.double in claimed:
                continue
            return True
        return False

    def _finish(self, state: RSState) -> list[Event]:
        state.phase = "over"
        state.final_left = [0] * len(state.seats)
        rows: list[dict[str, Any]] = []
        routes_of: dict[int, list[str]] = {}  # one pass over the claims, in claim order
        for rid, o in state.claimed.items():
            if o in routes_of:
                routes_of[o].append(rid)
            else:
                routes_of[o] = [rid]
        for i, seat in enumerate(state.seats):
            adj = network(routes_of.get(i, []))
            comp = components(adj)
            ticket_total = 0
            completed = 0
            done_cities: dict[str, int] = {}
            tickets = []
            for tid in state.tickets[i]:
                status = ticket_status(tid, adj, comp)
                pts = ticket_points(tid, status)
                ticket_total += pts
                tickets.append({"id": tid, "status": status, "points": pts})
                if status != "open":
                    completed += 1
                    for c in TICKETS_BY_ID[tid].cities:
                        done_cities[c] = done_cities.get(c, 0) + 1
            harbor_total = 0
            for city, owner in state.harbors.items():
                if owner == i:
                    harbor_total += HARBOR_POINTS[min(3, done_cities.get(city, 0))]
            harbor_total -= UNBUILT_HARBOR_PENALTY * state.harbors_left[i]
            total = state.scores[i] + ticket_total + harbor_total
            rows.append({
                "seat": seat, "score": total, "routes": state.scores[i], "tickets": ticket_total,
                "harbors": harbor_total, "completed": completed, "ticket_detail": tickets,
            })
        order = sorted(rows, key=lambda r: (-r["score"], -r["completed"]))
        rank = 0
        prev = None
        for pos, row in enumerate(order, start=1):
            key = (row["score"], row["completed"])
            if key != prev:
                rank = pos
                prev = key
            row["rank"] = rank
        winners = [r["seat"] for r in order if r["rank"] == 1]
        state.result = {"ranking": order, "winners": winners}
        return [{"type": "game_over", "winners": winners, "scores": {r["seat"]: r["score"] for r in order}}]
