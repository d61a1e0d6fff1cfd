"""How moves of Around the World are checked and carried out: the refusal codes players
see, and one handler per action type (the rules' `moves` table)."""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable
from typing import Any

from engine.core import Action, Event, IllegalAction, Move, not_your_turn

from . import data as D
from .cards import CARD_INFO, best_modified, leg_days
from .legal import NLOC, REROLL_COST, LegalMoves
from .state import State

LEG_REQS = D.LEG_REQS
MODIFIERS = ("balloon", "propeller_train", "submarine", "offer")


class MoveHandlers(LegalMoves):
    """The move half of `AroundTheWorldRules` (a mixin over the flow helpers of the rules)."""

    def is_legal(self, st: State, seat: str, action: Action) -> bool:
        """The same answer as `action in legal_actions`, without listing travel sets."""
        if (not isinstance(action, dict) or not isinstance(action.get("type"), str) or st.phase == "over"
                or seat not in st.seats or st.seats[st.order[st.turn]] != seat):
            return False
        t = action["type"]
        if t not in _PHASE_OF or st.phase not in _PHASE_OF[t]:
            return False
        i = st.order[st.turn]
        if t == "travel":
            return self._valid_travel(st, i, action)
        if t == "take":
            slot = action.get("slot")
            return (len(action) == 3 and type(slot) is int and 0 <= slot < len(st.display)
                    and st.display[slot] is not None and action.get("card") == st.display[slot]
                    and not (i == st.first and D.DISPLAY_ACTIONS[slot] == "first_player"))
        if t == "stay":
            return (len(action) == 2 and st.travels == 0
                    and action.get("location") == D.LOCATIONS[st.progress[i] % NLOC])
        if t == "done":
            return len(action) == 1 and st.travels > 0
        if t == "keep":
            return len(action) == 2 and st.last_roll is not None and action.get("roll") == st.last_roll[-1]
        if t == "discard":
            card = action.get("card")
            return len(action) == 2 and type(card) is str and (card in st.hand[i] or card in st.events[i])
        if st.phase == "travel":
            return action in self._travel_phase_actions(st, i, with_travel=False)
        return action in self.legal_actions(st, seat)

    def check(self, st: State, seat: str, action: Action) -> None:
        """The refusal codes of this game, in the order players have always seen them."""
        if seat not in st.seats or st.seats[st.order[st.turn]] != seat:
            raise not_your_turn()
        t = action["type"]
        if t not in _PHASE_OF:
            raise IllegalAction("unknown_action", f"Unknown move '{t}'.", action=t)
        if st.phase not in _PHASE_OF[t]:
            raise IllegalAction("wrong_phase", "You cannot do that at this point of your turn.", action=t)
        if not self.is_legal(st, seat, action):
            self._explain_refusal(st, st.order[st.turn], action)

    def _explain_refusal(self, st: State, i: int, action: Action) -> None:
        t = action["type"]
        if t == "take":
            self._explain_take(st, i, action)
        if t in ("travel",):
            if not self._can_travel(st, i):
                raise IllegalAction("cannot_travel", "You cannot travel any further this turn.")
            raise IllegalAction("bad_cards", "Those cards do not fit the next leg of your journey.")
        if t == "take_top":
            raise IllegalAction("no_take_top", "Only the last player of a round in a 6-player game may do that.")
        if t == "reroll" and st.gold[i] < REROLL_COST:
            raise IllegalAction("reroll_gold", f"You need {REROLL_COST} gold to re-roll; you have {st.gold[i]}.",
                                need=REROLL_COST, have=st.gold[i])
        if t == "buy" and st.gold[i] < D.BUY_COST:
            raise IllegalAction("not_enough_gold", f"You need {D.BUY_COST} gold to buy a card; you have {st.gold[i]}.",
                                need=D.BUY_COST, have=st.gold[i])
        if t == "event":
            card = action.get("card")
            if card not in st.events[i]:
                raise IllegalAction("event_not_held", "You do not hold that event card.")
            raise IllegalAction("event_not_playable", "That event card cannot be played now.")
        if t in ("discard", "exchange") and not _held(st, i, action):
            raise IllegalAction("card_not_held", "You do not hold that card.")
        raise IllegalAction("illegal", "That move is not allowed now.")

    @staticmethod
    def _explain_take(st: State, i: int, action: Action) -> None:
        """Why a refused `take` is refused, when it is the slot or the card it names."""
        slot = action.get("slot")
        if not isinstance(slot, int) or isinstance(slot, bool) or not 0 <= slot < len(st.display):
            raise IllegalAction("bad_slot", "There is no such card in the display.")
        if st.display[slot] is None:
            raise IllegalAction("slot_taken", "That card has already been taken.")
        if D.DISPLAY_ACTIONS[slot] == "first_player" and i == st.first:
            raise IllegalAction("first_player_card", "The first player may not take the first-player card.")
        if action.get("card") != st.display[slot]:
            raise IllegalAction("wrong_card", "That card is not in that space of the display.",
                                card=str(action.get("card")))

    # -- take
    def _do_take(self, st: State, i: int, action: Action, events: list[Event]) -> None:
        slot = action["slot"]
        card = st.display[slot]
        assert card is not None
        st.display[slot] = None
        insort(st.hand[i], card)  # `_give_travel`
        insort(st.seen[i], card)  # taken in the open: everyone knows it is in this hand
        act = D.DISPLAY_ACTIONS[slot]
        st.taken = act
        events.append({"type": "take", "seat": st.seats[i], "slot": slot, "action": act, "card": card})
        if act == "gold":
            got = self._gain_gold(st, i)
            events.append({"type": "gold", "seat": st.seats[i], "amount": got})
            st.phase = "travel"
        elif act == "balloon":
            st.balloon = True
            st.phase = "travel"
        elif act == "event" and not (st.event_deck or st.event_discard):
            st.phase = "travel"
        else:
            st.pending = act
            st.phase = "action"

    def _do_take_top(self, st: State, i: int, action: Action, events: list[Event]) -> None:
        card = self._draw_travel(st)
        assert card is not None
        self._give_travel(st, i, card)
        st.taken = "top"
        events.append({"type": "take_top", "seat": st.seats[i]})
        st.phase = "travel"

    # -- the display action
    def _do_use_action(self, st: State, i: int, action: Action, events: list[Event]) -> None:
        p = st.pending
        st.pending = None
        st.phase = "travel"
        if p == "event":
            self._draw_event(st, i, "action", events)
        elif p == "chit_event":
            self._draw_event(st, i, "chit", events)
        elif p == "first_player":
            st.new_first = i
            events.append({"type": "first_player", "seat": st.seats[i]})

    def _do_skip_action(self, st: State, i: int, action: Action, events: list[Event]) -> None:
        events.append({"type": "skip_action", "seat": st.seats[i], "action": st.pending})
        st.pending = None
        st.phase = "travel"

    def _do_detective(self, st: State, i: int, action: Action, events: list[Event]) -> None:
        st.detective = D.LOCATIONS.index(action["location"])
        st.pending = None
        st.phase = "travel"
        events.append({"type": "detective", "seat": st.seats[i], "location": action["location"]})

    def _do_exchange(self, st: State, i: int, action: Action, events: list[Event]) -> None:
        cards = action["cards"]
        hand = st.hand[i]
        for c in cards:
            hand.remove(c)
            st.travel_discard.append(c)
        _unsee(st.seen[i], cards)
        got = 0
        for _ in cards:
            card = self._draw_travel(st)
            if card is None:
                break
            hand.append(card)
            got += 1
        hand.sort()
        st.pending = None
        st.phase = "travel"
        events.append({"type": "exchange", "seat": st.seats[i], "count": len(cards), "drawn": got})

    # -- travelling
    def _do_travel(self, st: State, i: int, action: Action, events: list[Event]) -> None:
        cards = action["cards"]
        p = st.progress[i]
        st.travels += 1
        st.last_leg = p
        if p == D.ELEPHANT_LEG:
            self._move(st, i, D.WALK_DAYS, [], events, None)
            return
        hand = st.hand[i]
        for c in cards:
            hand.remove(c)
        st.travel_discard += cards
        if st.seen[i]:
            _unsee(st.seen[i], cards)
        balloon_card = action.get("balloon")
        armed = st.armed
        if balloon_card is None and not armed:  # the common leg: cards only
            self._move(st, i, leg_days(cards), list(cards), events, None)
            return
        cards = tuple(cards)
        ships = sum(1 for c in cards if c[0] == "s")
        if (ships, len(cards) - ships) not in LEG_REQS[p]:
            armed.remove("offer")
        b_idx = cards.index(balloon_card) if balloon_card is not None else None
        used: list[str] = []
        if b_idx is None and not armed:
            fixed = leg_days(cards)
        else:
            fixed, used = best_modified(cards, b_idx, armed)
        for m in used:
            armed.remove(m)
        if balloon_card is not None:
            if st.balloon:
                st.balloon = False
            else:
                armed.remove("balloon")
            die = self._rng_die(st)
            st.last_roll = [die]
            st.roll = {"kind": "balloon", "fixed": fixed, "cards": list(cards), "card": balloon_card, "leg": p}
            st.phase = "roll"
            events.append({"type": "roll", "seat": st.seats[i], "kind": "balloon", "roll": die, "card": balloon_card})
            return
        self._move(st, i, fixed, list(cards), events, None)

    def _move(self, st: State, i: int, days: int, cards: list[str], events: list[Event],
              ride: str | None, extra: dict[str, Any] | None = None) -> None:
        p = st.progress[i]
        st.days[i] += days
        to = p + 1
        st.progress[i] = to
        ev: dict[str, Any] = {"type": "travel", "seat": st.seats[i], "from": D.LOCATIONS[p],
                              "to": D.LOCATIONS[to % NLOC], "cards": cards, "days": days, "total": st.days[i]}
        if ride:
            ev["ride"] = ride
        if extra:
            ev.update(extra)
        events.append(ev)
        st.phase = "travel"
        if to >= D.HOME:
            self._arrive_london(st, i, events)
            return
        self._chits(st, i, to, events)

    def _chits(self, st: State, i: int, loc: int, events: list[Event]) -> None:
        pair = st.chits[loc - 1]
        if pair[0] is None and pair[1] is None:
            return
        progress = st.progress
        others = progress[:i] + progress[i + 1:]
        if max(others) < loc:
            colour = 0
        elif min(others) >= loc:
            colour = 1
        else:
            return
        if pair[colour] is None:
            return
        chit = pair[colour]
        pair[colour] = None
        events.append({"type": "chit", "seat": st.seats[i], "location": D.LOCATIONS[loc],
                       "colour": "red" if colour == 0 else "blue", "chit": chit})
        if chit == "gold":
            got = self._gain_gold(st, i)
            events.append({"type": "gold", "seat": st.seats[i], "amount": got})
        elif chit == "travel":
            card = self._draw_travel(st)
            if card is not None:
                self._give_travel(st, i, card)
        elif chit == "event":
            if st.event_deck or st.event_discard:
                st.pending = "chit_event"
                st.phase = "action"
        elif chit == "others_lose_day":
            hit = [k for k in range(len(st.seats)) if k != i and st.progress[k] < D.HOME]
            for k in hit:
                st.days[k] += 1
            events.append({"type": "others_lose_day", "seat": st.seats[i], "seats": [st.seats[k] for k in hit]})

    def _arrive_london(self, st: State, i: int, events: list[Event]) -> None:
        st.arrival_order.append(i)
        st.arrival_round[i] = st.round
        # remaining hand cards go to the bottom of their discard piles
        st.travel_discard[:0] = st.hand[i]
        st.event_discard[:0] = st.events[i]
        st.hand[i] = []
        st.seen[i] = []
        st.events[i] = []
        st.armed = []
        events.append({"type": "arrive", "seat": st.seats[i], "days": st.days[i], "place": len(st.arrival_order)})
        self._next_turn(st, events)

    def _do_reroll(self, st: State, i: int, action: Action, events: list[Event]) -> None:
        st.gold[i] -= REROLL_COST
        st.gold_supply += REROLL_COST
        die = self._rng_die(st)
        assert st.last_roll is not None and st.roll is not None
        st.last_roll.append(die)
        events.append({"type": "reroll", "seat": st.seats[i], "kind": st.roll["kind"], "roll": die})

    def _do_keep(self, st: State, i: int, action: Action, events: list[Event]) -> None:
        roll = st.roll
        assert roll is not None and st.last_roll is not None
        die = st.last_roll[-1]
        st.roll = None
        extra = {"balloon": roll["card"], "roll": die} if roll["kind"] == "balloon" else {"roll": die}
        self._move(st, i, roll["fixed"] + die, roll.get("cards", []), events, roll["kind"], extra)

    def _do_stay(self, st: State, i: int, action: Action, events: list[Event]) -> None:
        events.append({"type": "stay", "seat": st.seats[i], "location": D.LOCATIONS[st.progress[i]]})
        self._end_turn(st, i, events)

    def _do_done(self, st: State, i: int, action: Action, events: list[Event]) -> None:
        self._end_turn(st, i, events)

    # -- events, gold
    def _do_event(self, st: State, i: int, action: Action, events: list[Event]) -> None:
        card = action["card"]
        st.events[i].remove(card)
        effect = card
        if card == "princess":
            effect = st.event_discard[-1]
        st.event_discard.append(card)
        ev: dict[str, Any] = {"type": "play_event", "seat": st.seats[i], "card": card}
        if card == "princess":
            ev["as"] = effect
        events.append(ev)
        if effect in MODIFIERS:
            st.armed.append(effect)
        elif effect == "connections":
            st.extra = True
        elif effect == "detective":
            st.detective = D.LOCATIONS.index(action["location"])
            events.append({"type": "detective", "seat": st.seats[i], "location": action["location"]})
        elif effect == "elephant":
            st.travels += 1
            st.last_leg = st.progress[i]
            die = self._rng_die(st)
            st.last_roll = [die]
            st.roll = {"kind": "elephant", "fixed": D.ELEPHANT_BASE, "cards": [], "leg": st.progress[i]}
            st.phase = "roll"
            events.append({"type": "roll", "seat": st.seats[i], "kind": "elephant", "roll": die})

    def _do_elephant_gold(self, st: State, i: int, action: Action, events: list[Event]) -> None:
        st.events[i].remove("elephant")
        st.event_discard.append("elephant")
        got = self._gain_gold(st, i)
        events.append({"type": "elephant_gold", "seat": st.seats[i], "amount": got})

    def _do_buy(self, st: State, i: int, action: Action, events: list[Event]) -> None:
        st.gold[i] -= D.BUY_COST
        st.gold_supply += D.BUY_COST
        if action["deck"] == "travel":
            card = self._draw_travel(st)
            assert card is not None
            self._give_travel(st, i, card)
            events.append({"type": "buy", "seat": st.seats[i], "deck": "travel"})
        else:
            events.append({"type": "buy", "seat": st.seats[i], "deck": "event"})
            self._draw_event(st, i, "buy", events)

    def _do_discard(self, st: State, i: int, action: Action, events: list[Event]) -> None:
        card = action["card"]
        if card in CARD_INFO:
            st.hand[i].remove(card)
            st.travel_discard.append(card)
            _unsee(st.seen[i], [card])
        else:
            st.events[i].remove(card)
            st.event_discard.append(card)
        events.append({"type": "discard", "seat": st.seats[i], "card": card})
        if len(st.hand[i]) + len(st.events[i]) <= D.HAND_LIMIT:
            self._next_turn(st, events)


def _unsee(seen: list[str], cards: list[str]) -> None:
    """Cards that left a hand in the open leave its known part (one copy each, if known):
    what is still known to be there is what was taken in the open and not yet seen to go."""
    for c in cards:
        if c in seen:
            seen.remove(c)


def _held(st: State, i: int, action: Action) -> bool:
    cards = action.get("cards") if action["type"] == "exchange" else [action.get("card")]
    if not isinstance(cards, list):
        return False
    pool = list(st.hand[i]) + (list(st.events[i]) if action["type"] == "discard" else [])
    for c in cards:
        if c not in pool:
            return False
        pool.remove(c)
    return True


_PHASE_OF: dict[str, tuple[str, ...]] = {
    "take": ("take",), "take_top": ("take",),
    "use_action": ("action",), "skip_action": ("action",), "detective": ("action",), "exchange": ("action",),
    "travel": ("travel",), "stay": ("travel",), "done": ("travel",), "event": ("travel",),
    "elephant_gold": ("action", "travel"), "buy": ("action", "travel"),
    "reroll": ("roll",), "keep": ("roll",),
    "discard": ("discard",),
}

Do = Callable[[MoveHandlers, State, int, Action, list[Event]], None]


def _handler(do: Do) -> Move:
    """A table entry: the handler of one action type for the seat whose turn it is."""
    def handle(rules: MoveHandlers, st: State, seat: str, action: Action) -> list[Event]:
        events: list[Event] = []
        do(rules, st, st.order[st.turn], action, events)
        return events
    return handle


#: action type -> handler of the seat whose turn it is (the rules' `push` calls it directly)
DO: dict[str, Do] = {
    "take": MoveHandlers._do_take,
    "take_top": MoveHandlers._do_take_top,
    "use_action": MoveHandlers._do_use_action,
    "skip_action": MoveHandlers._do_skip_action,
    "detective": MoveHandlers._do_detective,
    "exchange": MoveHandlers._do_exchange,
    "travel": MoveHandlers._do_travel,
    "stay": MoveHandlers._do_stay,
    "done": MoveHandlers._do_done,
    "event": MoveHandlers._do_event,
    "elephant_gold": MoveHandlers._do_elephant_gold,
    "buy": MoveHandlers._do_buy,
    "reroll": MoveHandlers._do_reroll,
    "keep": MoveHandlers._do_keep,
    "discard": MoveHandlers._do_discard,
}
#: action type -> move handler (`Rules.apply` dispatches through it)
MOVES: dict[str, Move] = {t: _handler(do) for t, do in DO.items()}
