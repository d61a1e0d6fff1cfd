"""The flow of an Around the World game between moves: drawing and reshuffling, gold,
rounds and turns, arrivals and the final standing."""

from __future__ import annotations

from bisect import insort
from typing import Any

from engine.core import Event, Result
from engine.rng import Rng

from . import data as D
from .state import State


def shuffle(rng: int, items: list[str]) -> int:
    """`Rng(rng).shuffle(items)`, returning the generator's next state (the decks are shuffled
    at every start and reshuffled often; `Rng.shuffle` has `below` inlined)."""
    generator = Rng(rng)
    generator.shuffle(items)
    return generator.state


class Flow:
    """Helpers the moves and the rules share (a mixin: `AroundTheWorldRules` is built from
    `Flow`, `LegalMoves` and `MoveHandlers`)."""

    @staticmethod
    def _rng_die(st: State) -> int:
        """A die roll from the state's generator (which moves on)."""
        rng = Rng(st.rng)
        out = rng.die()
        st.rng = rng.state
        return out

    @staticmethod
    def _rng_shuffle(st: State, items: list[str]) -> None:
        """Shuffle `items` in place with the state's generator (which moves on)."""
        st.rng = shuffle(st.rng, items)

    def _draw_travel(self, st: State) -> str | None:
        if not st.travel_deck:
            self._reshuffle_travel(st)
            if not st.travel_deck:
                return None
        card = st.travel_deck.pop()
        if not st.travel_deck:
            self._reshuffle_travel(st)
        return card

    def _reshuffle_travel(self, st: State) -> None:
        if st.travel_discard:
            st.travel_deck = st.travel_discard
            st.travel_discard = []
            self._rng_shuffle(st, st.travel_deck)

    def _give_travel(self, st: State, i: int, card: str) -> None:
        insort(st.hand[i], card)  # the hand stays sorted

    def _draw_event(self, st: State, i: int, source: str, events: list[Event]) -> None:
        if not st.event_deck and st.event_discard:
            st.event_deck = st.event_discard
            st.event_discard = []
            self._rng_shuffle(st, st.event_deck)
        if not st.event_deck:
            events.append({"type": "event_deck_empty", "seat": st.seats[i]})
            return
        card = st.event_deck.pop()
        if card in D.GREY_DAYS:
            lose = D.GREY_DAYS[card]
            hit = [s for k, s in enumerate(st.seats) if st.progress[k] < D.HOME]
            for k in range(len(st.seats)):
                if st.progress[k] < D.HOME:
                    st.days[k] += lose
            lost = {st.seats[k]: len(st.events[k]) for k in range(len(st.seats)) if st.events[k]}
            for k in range(len(st.seats)):
                st.events[k] = []
            deck = D.event_deck(len(st.seats))
            self._rng_shuffle(st, deck)
            st.event_deck = deck
            st.event_discard = []
            events.append({"type": "grey_event", "seat": st.seats[i], "card": card, "days": lose,
                           "seats": hit, "discarded": lost, "source": source})
        else:
            ev = st.events[i]
            ev.append(card)
            ev.sort()
            events.append({"type": "draw_event", "seat": st.seats[i], "source": source})

    def _gain_gold(self, st: State, i: int) -> int:
        if st.gold_supply > 0:
            st.gold_supply -= 1
            st.gold[i] += 1
            return 1
        return 0

    def _travelling(self, st: State) -> list[int]:
        return [k for k in range(len(st.seats)) if st.progress[k] < D.HOME]

    def _start_round(self, st: State, events: list[Event]) -> None:
        n = len(st.seats)
        active = self._travelling(st)
        if st.arrival_order and st.arrival_round[st.arrival_order[0]] < st.round:
            for k in active:
                st.days[k] += 1
            events.append({"type": "time_pressure", "seats": [st.seats[k] for k in active]})
        st.order = [(st.first + j) % n for j in range(n) if st.progress[(st.first + j) % n] < D.HOME]
        st.turn = 0
        st.new_first = -1
        size = D.display_size(len(active))
        deck = st.travel_deck
        if len(deck) > size:  # no reshuffle on the way: the cards straight off the deck
            st.display = [deck.pop() for _ in range(size)]
        else:
            st.display = []
            for _ in range(size):
                st.display.append(self._draw_travel(st))
        events.append({"type": "round", "round": st.round, "first": st.seats[st.first]})
        self._start_turn(st)

    def _start_turn(self, st: State) -> None:
        st.phase = "take"
        st.taken = None
        st.pending = None
        st.balloon = False
        if st.armed:
            st.armed = []
        st.travels = 0
        st.extra = False
        st.last_leg = -1
        st.roll = None
        st.last_roll = None

    def _current(self, st: State) -> int:
        return st.order[st.turn]

    def _end_turn(self, st: State, i: int, events: list[Event]) -> None:
        """Detective penalty, then discard down to 6 (if needed), then the next player."""
        if st.progress[i] < D.HOME and st.progress[i] == st.detective:
            st.days[i] += D.DETECTIVE_DAYS
            events.append({"type": "detective_penalty", "seat": st.seats[i], "days": D.DETECTIVE_DAYS,
                           "location": D.LOCATIONS[st.detective]})
        if len(st.hand[i]) + len(st.events[i]) > D.HAND_LIMIT:
            st.phase = "discard"
            st.pending = None
            st.roll = None
            return
        self._next_turn(st, events)

    def _next_turn(self, st: State, events: list[Event]) -> None:
        st.turn += 1
        if st.turn < len(st.order):
            self._start_turn(st)
            return
        # end of round
        for card in st.display:
            if card is not None:
                st.travel_discard.append(card)
        st.display = []
        n = len(st.seats)
        arrived = len(st.arrival_order)
        over = (n == 2 and arrived >= 1) or (3 <= n <= 5 and arrived >= n - 1) or (n == 6 and arrived >= 4)
        if over or not self._travelling(st):
            self._finish(st, events)
            return
        if st.new_first >= 0 and st.progress[st.new_first] < D.HOME:
            st.first = st.new_first
        else:
            base = st.new_first if st.new_first >= 0 else st.first
            for j in range(1, n + 1):
                k = (base + j) % n
                if st.progress[k] < D.HOME:
                    st.first = k
                    break
        st.round += 1
        self._start_round(st, events)

    def _finish(self, st: State, events: list[Event]) -> None:
        st.phase = "over"
        st.order = []
        st.turn = 0
        st.result = self._compute_result(st)
        events.append({"type": "game_over", "winners": list(st.result["winners"])})

    def _compute_result(self, st: State) -> Result:
        n = len(st.seats)
        seats = st.seats
        rows: list[dict[str, Any]] = []
        arrived = st.arrival_order
        place = {k: j + 1 for j, k in enumerate(arrived)}
        if n == 2:
            a = arrived[0]
            b = 1 - a
            if st.arrival_round[b] and st.arrival_round[b] == st.arrival_round[a]:
                ka = (st.days[a], -st.gold[a])
                kb = (st.days[b], -st.gold[b])
                order = [a, b] if ka <= kb else [b, a]
                ranks = [1, 1 if ka == kb else 2]
            elif st.days[a] <= D.TARGET_DAYS or st.options.get("two_player_end") == "english":
                order, ranks = [a, b], [1, 2]
            else:
                order, ranks = [b, a], [1, 2]
            for k, r in zip(order, ranks, strict=True):
                rows.append({"seat": seats[k], "rank": r, "score": st.days[k] if st.progress[k] >= D.HOME else None,
                             "days": st.days[k],
                             "arrived": st.progress[k] >= D.HOME, "arrival": place.get(k), "gold": st.gold[k]})
        else:
            in_time = sorted((k for k in arrived if st.days[k] <= D.TARGET_DAYS), key=lambda k: (st.days[k], place[k]))
            late = [k for k in arrived if st.days[k] > D.TARGET_DAYS]
            ordered = in_time + late
            rank = 0
            for rank, k in enumerate(ordered, start=1):
                rows.append({"seat": seats[k], "rank": rank, "score": st.days[k], "days": st.days[k],
                             "arrived": True, "arrival": place[k], "gold": st.gold[k]})
            out = [k for k in range(n) if k not in place]
            out.sort(key=lambda k: (-st.progress[k], st.days[k], k))
            for k in out:
                rows.append({"seat": seats[k], "rank": rank + 1, "score": None, "days": st.days[k],
                             "arrived": False, "arrival": None, "gold": st.gold[k]})
        winners = [r["seat"] for r in rows if r["rank"] == 1]
        return {"ranking": rows, "winners": winners}
