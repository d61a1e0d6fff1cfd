"""Around the World in 80 Days (Michael Rieneck, Kosmos 2004) as a pure rules object.

A turn is several actions by the player whose turn it is:

    take (a display card)  ->  [action: use/skip the card's action]  ->
    travel phase: travel one leg (cards, maybe balloon) / stay, play events, buy, sell an
    elephant; a balloon or elephant ride rolls the die (reroll for gold / keep)  ->
    done  ->  [discard down to 6]

The detective penalty, chits, arrivals, rounds and the end are applied automatically.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from engine.core import Action, Event, IllegalAction, Rules, View
from engine.rng import Rng

from . import data as D

CARD_INFO = D.CARD_INFO
VALUE = {c: v for c, (_, v) in CARD_INFO.items()}
LEG_REQS = D.LEG_REQS
NLOC = len(D.LOCATIONS)
REROLL_COST = 1  # gold paid for each re-roll of the balloon or elephant die
MODIFIERS = ("balloon", "propeller_train", "submarine", "offer")


@dataclass
class State:
    seats: list[str]
    options: dict[str, Any]
    rng: int
    round: int = 1
    phase: str = "take"  # take | action | travel | roll | discard | over
    first: int = 0  # seat index with the first-player marker this round
    new_first: int = -1  # who took the first-player action this round
    order: list[int] = field(default_factory=list)  # seat indices playing this round, in order
    turn: int = 0  # index into order
    progress: list[int] = field(default_factory=list)  # 0..10; 10 = back in London
    days: list[int] = field(default_factory=list)
    gold: list[int] = field(default_factory=list)
    gold_supply: int = 0
    detective: int = D.DETECTIVE_START
    chits: list[list[str | None]] = field(default_factory=list)  # [red, blue] for locations 1..9
    display: list[str | None] = field(default_factory=list)
    travel_deck: list[str] = field(default_factory=list)
    travel_discard: list[str] = field(default_factory=list)
    event_deck: list[str] = field(default_factory=list)
    event_discard: list[str] = field(default_factory=list)
    hand: list[list[str]] = field(default_factory=list)  # travel cards per seat (sorted)
    events: list[list[str]] = field(default_factory=list)  # event cards per seat (sorted)
    arrival_order: list[int] = field(default_factory=list)
    arrival_round: list[int] = field(default_factory=list)  # 0: not arrived
    last_roll: list[int] | None = None
    # -- the turn in progress
    taken: str | None = None  # display action taken this turn ("top": 6-player top card)
    pending: str | None = None  # optional action awaiting use/skip
    balloon: bool = False  # the display balloon is available for one leg this turn
    armed: list[str] = field(default_factory=list)  # event effects waiting for a leg
    travels: int = 0  # legs travelled this turn
    extra: bool = False  # Connections played this turn
    last_leg: int = -1  # the last leg travelled this turn
    roll: dict[str, Any] | None = None  # {"kind", "fixed", "to", "cards"} while rolling
    result: dict[str, Any] | None = None


_LIST_OF_LISTS = {"chits", "hand", "events"}


def _multiset_combos(items: list[str], k: int) -> list[tuple[str, ...]]:
    """Distinct k-card sub-multisets of the sorted list `items`."""
    if k == 0:
        return [()]
    if k == 1:
        return [(c,) for c in dict.fromkeys(items)]
    out: list[tuple[str, ...]] = []
    n = len(items)
    if k == 2:
        prev = None
        for a in range(n - 1):
            c = items[a]
            if c == prev:
                continue
            prev = c
            prev2 = None
            for b in range(a + 1, n):
                d = items[b]
                if d != prev2:
                    out.append((c, d))
                    prev2 = d
        return out

    def rec(start: int, chosen: tuple[str, ...]) -> None:
        if len(chosen) == k:
            out.append(chosen)
            return
        prev = None
        for i in range(start, n):
            card = items[i]
            if card == prev:
                continue
            prev = card
            rec(i + 1, chosen + (card,))

    rec(0, ())
    return out


def leg_days(cards: list[str] | tuple[str, ...], replaced: dict[int, int] | None = None) -> int:
    """Days for the given travel cards: the sum, except that two identical cards of one kind
    count once (unless either was replaced by balloon / propeller train / submarine).
    `replaced` maps a card index to its new value."""
    if not replaced:
        n = len(cards)
        if n == 1:
            return VALUE[cards[0]]
        if n == 2:
            a, b = cards
            return VALUE[a] if a == b else VALUE[a] + VALUE[b]
        if n == 0:
            return 0
    total = 0
    by_kind: dict[str, list[tuple[int, bool]]] = {}
    for i, card in enumerate(cards):
        kind, value = CARD_INFO[card]
        if replaced and i in replaced:
            by_kind.setdefault(kind, []).append((replaced[i], True))
        else:
            by_kind.setdefault(kind, []).append((value, False))
    for group in by_kind.values():
        if len(group) == 2 and not group[0][1] and not group[1][1] and group[0][0] == group[1][0]:
            total += group[0][0]
        else:
            total += sum(v for v, _ in group)
    return total


def best_modified(cards: tuple[str, ...], balloon_idx: int | None, armed: list[str]) -> tuple[int, list[str]]:
    """(fixed days, modifiers used) for a leg: the balloon card counts 0 here (its die is added
    later); an armed propeller train / submarine is applied to the card where it saves most
    days, and only if it saves any."""
    base_rep: dict[int, int] = {}
    if balloon_idx is not None:
        base_rep[balloon_idx] = 0
    choices: list[tuple[str, list[int | None]]] = []
    for mod, kind, _value in (("propeller_train", "train", 1), ("submarine", "ship", 2)):
        if mod in armed:
            idxs: list[int | None] = [None]
            idxs += [i for i, c in enumerate(cards) if CARD_INFO[c][0] == kind and i != balloon_idx]
            choices.append((mod, idxs))
    best = leg_days(cards, base_rep or None)
    best_used: list[str] = []
    if not choices:
        return best, best_used
    values = {"propeller_train": 1, "submarine": 2}

    def rec(k: int, rep: dict[int, int], used: list[str]) -> None:
        nonlocal best, best_used
        if k == len(choices):
            d = leg_days(cards, rep or None)
            if d < best or (d == best and len(used) < len(best_used)):
                best, best_used = d, list(used)
            return
        mod, idxs = choices[k]
        for idx in idxs:
            if idx is None:
                rec(k + 1, rep, used)
            else:
                rec(k + 1, {**rep, idx: values[mod]}, used + [mod])

    rec(0, dict(base_rep), [])
    return best, best_used


class AroundTheWorldRules(Rules):
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

    # ------------------------------------------------------------------ setup
    def new_game(self, seats: list[str], seed: int, options: dict[str, Any] | None = None) -> State:
        self.check_seats(seats)
        opts = self.validate_options(options)
        n = len(seats)
        rng = Rng.from_seed(seed)
        travel = D.travel_deck()
        rng.shuffle(travel)
        events = D.event_deck(n)
        rng.shuffle(events)
        red = list(D.CHIT_SET)
        blue = list(D.CHIT_SET)
        rng.shuffle(red)
        rng.shuffle(blue)
        hands = []
        for _ in range(n):
            hand = [travel.pop() for _ in range(D.START_CARDS)]
            hand.sort()
            hands.append(hand)
        st = State(
            seats=list(seats), options=opts, rng=0,
            progress=[0] * n, days=[0] * n, gold=[D.START_GOLD] * n,
            gold_supply=D.GOLD_TOTAL - D.START_GOLD * n,
            chits=[[red[i], blue[i]] for i in range(NLOC - 1)],
            travel_deck=travel, event_deck=events,
            hand=hands, events=[[] for _ in range(n)], arrival_round=[0] * n,
        )
        st.rng = rng.state
        self._start_round(st, [])
        return st

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _rng_do(st: State, fn: str, *args: Any) -> Any:
        rng = Rng(st.rng)
        out = getattr(rng, fn)(*args)
        st.rng = rng.state
        return out

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
            self._rng_do(st, "shuffle", st.travel_deck)

    def _give_travel(self, st: State, i: int, card: str) -> None:
        hand = st.hand[i]
        hand.append(card)
        hand.sort()

    def _draw_event(self, st: State, i: int, source: str, events: list[Event]) -> None:
        if not st.event_deck and st.event_discard:
            st.event_deck = st.event_discard
            st.event_discard = []
            self._rng_do(st, "shuffle", st.event_deck)
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
            self._rng_do(st, "shuffle", deck)
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

    def _compute_result(self, st: State) -> dict[str, Any]:
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

    # ------------------------------------------------------------------ contract
    def to_act(self, state: State) -> list[str]:
        if state.phase == "over":
            return []
        return [state.seats[state.order[state.turn]]]

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def result(self, state: State) -> dict[str, Any]:
        if state.result is None:
            raise IllegalAction("not_over", "The game is not over yet.")
        return state.result

    def dump(self, state: State) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(State):
            v = getattr(state, f.name)
            if f.name in _LIST_OF_LISTS:
                v = [list(x) for x in v]
            elif isinstance(v, list):
                v = list(v)
            elif isinstance(v, dict):
                v = _copy_json(v)
            out[f.name] = v
        return out

    def load(self, data: dict[str, Any]) -> State:
        kwargs = {}
        for f in fields(State):
            v = data[f.name]
            if f.name in _LIST_OF_LISTS:
                v = [list(x) for x in v]
            elif isinstance(v, list):
                v = list(v)
            elif isinstance(v, dict):
                v = _copy_json(v)
            kwargs[f.name] = v
        return State(**kwargs)

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
            "result": _copy_json(st.result) if st.result is not None else None,
            "options": dict(st.options),
            "turn": {
                "taken": st.taken,
                "pending": st.pending,
                "balloon": st.balloon,
                "armed": list(st.armed),
                "travels": st.travels,
                "extra_leg": st.extra,
                "roll": _copy_json(st.roll) if st.roll is not None else None,
            },
            "order": [seats[k] for k in st.order],
            "new_first_player": seats[st.new_first] if st.new_first >= 0 else None,
        }
        if seat is not None and seat in seats:
            k = seats.index(seat)
            v["private"] = {"travel": list(st.hand[k]), "events": list(st.events[k])}
        return v

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, state: State, seat: str) -> list[Action]:
        st = state
        if st.phase == "over" or st.seats[st.order[st.turn]] != seat:
            return []
        i = st.order[st.turn]
        phase = st.phase
        if phase == "take":
            return self._take_actions(st, i)
        if phase == "action":
            return self._pending_actions(st, i)
        if phase == "travel":
            return self._travel_phase_actions(st, i)
        if phase == "roll":
            out: list[Action] = []
            if st.gold[i] >= REROLL_COST:
                out.append({"type": "reroll"})
            out.append({"type": "keep", "roll": st.last_roll[-1] if st.last_roll else 0})
            return out
        if phase == "discard":
            cards = sorted(set(st.hand[i])) + sorted(set(st.events[i]))
            return [{"type": "discard", "card": c} for c in cards]
        return []

    def _take_actions(self, st: State, i: int) -> list[Action]:
        out: list[Action] = []
        for j, card in enumerate(st.display):
            if card is None:
                continue
            if D.DISPLAY_ACTIONS[j] == "first_player" and i == st.first:
                continue
            out.append({"type": "take", "slot": j, "card": card})
        if (len(st.seats) == 6 and st.turn == len(st.order) - 1
                and (st.travel_deck or st.travel_discard)):
            out.append({"type": "take_top"})
        return out

    def _pending_actions(self, st: State, i: int) -> list[Action]:
        p = st.pending
        out: list[Action] = []
        if p == "detective":
            out = [{"type": "detective", "location": D.LOCATIONS[loc]} for loc in range(1, NLOC)
                   if loc != st.detective]
        elif p == "exchange":
            hand = st.hand[i]
            for k in (1, 2, 3):
                for combo in _multiset_combos(hand, k):
                    out.append({"type": "exchange", "cards": list(combo)})
        else:
            out.append({"type": "use_action", "action": p})
        out.append({"type": "skip_action", "action": p})
        out.extend(self._gold_actions(st, i))
        return out

    def _gold_actions(self, st: State, i: int) -> list[Action]:
        """Buying (2 gold) and selling an Elephant (1 gold): any time once the display card is taken."""
        out: list[Action] = []
        if "elephant" in st.events[i] and st.gold_supply > 0:
            out.append({"type": "elephant_gold"})
        if st.gold[i] >= D.BUY_COST:
            if st.travel_deck or st.travel_discard:
                out.append({"type": "buy", "deck": "travel"})
            if st.event_deck or st.event_discard:
                out.append({"type": "buy", "deck": "event"})
        return out

    def _can_travel(self, st: State, i: int) -> bool:
        return st.progress[i] < D.HOME and st.travels < 1 + st.extra

    def _travel_options(self, st: State, i: int) -> list[Action]:
        p = st.progress[i]
        to = D.LOCATIONS[(p + 1) % NLOC]
        if p == D.ELEPHANT_LEG:
            return [{"type": "travel", "cards": [], "days": D.WALK_DAYS, "to": to}]
        hand = st.hand[i]
        ships = [c for c in hand if c[0] == "s"]
        trains = [c for c in hand if c[0] == "t"]
        reqs = LEG_REQS[p]
        offer = "offer" in st.armed
        wanted: list[tuple[int, int]] = list(reqs)
        if offer:
            for s, t in reqs:
                if s and (s - 1, t) not in wanted:
                    wanted.append((s - 1, t))
                if t and (s, t - 1) not in wanted:
                    wanted.append((s, t - 1))
        sets: list[tuple[str, ...]] = []
        seen = set()
        for s, t in wanted:
            if s > len(ships) or t > len(trains):
                continue
            for sc in _multiset_combos(ships, s):
                for tc in _multiset_combos(trains, t):
                    combo = sc + tc
                    if combo not in seen:
                        seen.add(combo)
                        sets.append(combo)
        balloon = st.balloon or "balloon" in st.armed
        out: list[Action] = []
        simple = not any(m in st.armed for m in ("propeller_train", "submarine"))
        for combo in sets:
            days = leg_days(combo) if simple else best_modified(combo, None, st.armed)[0]
            out.append({"type": "travel", "cards": list(combo), "days": days, "to": to})
            if balloon:
                prev = None
                for card in combo:
                    if card != prev:
                        out.append({"type": "travel", "cards": list(combo), "balloon": card, "to": to})
                        prev = card
        return out

    def _valid_travel(self, st: State, i: int, action: Action) -> bool:
        """The same answer as `action in legal_actions` for a travel action, without listing them all."""
        if not self._can_travel(st, i):
            return False
        keys = action.keys()
        cards = action.get("cards")
        if type(cards) is not list:
            return False
        p = st.progress[i]
        to = D.LOCATIONS[(p + 1) % NLOC]
        if p == D.ELEPHANT_LEG:
            return action == {"type": "travel", "cards": [], "days": D.WALK_DAYS, "to": to}
        balloon = "balloon" in keys
        if len(keys) != 4 or action.get("to") != to or ("days" not in keys and not balloon):
            return False
        pool = list(st.hand[i])
        ships = 0
        for c in cards:
            if type(c) is not str or c not in pool:
                return False
            pool.remove(c)
            if c[0] == "s":
                ships += 1
        if cards != sorted(cards):
            return False
        req = (ships, len(cards) - ships)
        reqs = LEG_REQS[p]
        if req not in reqs:
            if "offer" not in st.armed:
                return False
            if not any((s and (s - 1, t) == req) or (t and (s, t - 1) == req) for s, t in reqs):
                return False
        if balloon:
            return (st.balloon or "balloon" in st.armed) and action["balloon"] in cards
        simple = "propeller_train" not in st.armed and "submarine" not in st.armed
        days = leg_days(cards) if simple else best_modified(tuple(cards), None, st.armed)[0]
        return action["days"] == days

    def _event_playable(self, st: State, i: int, card: str) -> bool:
        can_travel = self._can_travel(st, i)
        p = st.progress[i]
        allow = st.options.get("elephant_leg_events", False)
        if card == "balloon":
            return can_travel and p != D.ELEPHANT_LEG and not st.balloon and "balloon" not in st.armed
        if card in ("propeller_train", "submarine"):
            return can_travel and card not in st.armed
        if card == "offer":
            return can_travel and "offer" not in st.armed and (allow or p != D.ELEPHANT_LEG)
        if card == "connections":
            return (st.travels >= 1 and not st.extra and p < D.HOME
                    and (allow or (p != D.ELEPHANT_LEG and st.last_leg != D.ELEPHANT_LEG)))
        if card == "elephant":
            return can_travel and p == D.ELEPHANT_LEG
        return card == "detective"

    def _travel_phase_actions(self, st: State, i: int, with_travel: bool = True) -> list[Action]:
        out: list[Action] = []
        if with_travel and self._can_travel(st, i):
            out.extend(self._travel_options(st, i))
        out.append({"type": "stay", "location": D.LOCATIONS[st.progress[i] % NLOC]} if st.travels == 0
                   else {"type": "done"})
        seen = set()
        for card in st.events[i]:
            if card in seen:
                continue
            seen.add(card)
            if card == "princess":
                top = st.event_discard[-1] if st.event_discard else None
                if top is not None and top != "princess" and self._event_playable(st, i, top):
                    if top == "detective":
                        out.extend({"type": "event", "card": "princess", "as": top, "location": D.LOCATIONS[loc]}
                                   for loc in range(1, NLOC) if loc != st.detective)
                    else:
                        out.append({"type": "event", "card": "princess", "as": top})
            elif self._event_playable(st, i, card):
                if card == "detective":
                    out.extend({"type": "event", "card": "detective", "location": D.LOCATIONS[loc]}
                               for loc in range(1, NLOC) if loc != st.detective)
                else:
                    out.append({"type": "event", "card": card})
        out.extend(self._gold_actions(st, i))
        return out

    # ------------------------------------------------------------------ apply
    def apply(self, state: State, seat: str, action: Action) -> list[Event]:
        st = state
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("malformed", "That is not a valid move.")
        if st.phase == "over":
            raise IllegalAction("game_over", "The game is over.")
        if seat not in st.seats or st.seats[st.order[st.turn]] != seat:
            raise IllegalAction("not_your_turn", "It is not your turn.")
        t = action["type"]
        if t not in _PHASE_OF:
            raise IllegalAction("unknown_action", f"Unknown move '{t}'.", action=t)
        if st.phase not in _PHASE_OF[t]:
            raise IllegalAction("wrong_phase", "You cannot do that at this point of your turn.", action=t)
        i = st.order[st.turn]
        if t == "travel":
            ok = self._valid_travel(st, i, action)
        elif t == "take":
            slot = action.get("slot")
            ok = (len(action) == 3 and type(slot) is int and 0 <= slot < len(st.display)
                  and st.display[slot] is not None and action.get("card") == st.display[slot]
                  and not (i == st.first and D.DISPLAY_ACTIONS[slot] == "first_player"))
        elif t == "stay":
            ok = len(action) == 2 and st.travels == 0 and action.get("location") == D.LOCATIONS[st.progress[i] % NLOC]
        elif t == "done":
            ok = len(action) == 1 and st.travels > 0
        elif t == "keep":
            ok = len(action) == 2 and st.last_roll is not None and action.get("roll") == st.last_roll[-1]
        elif t == "discard":
            card = action.get("card")
            ok = len(action) == 2 and type(card) is str and (card in st.hand[i] or card in st.events[i])
        elif st.phase == "travel":
            ok = action in self._travel_phase_actions(st, i, with_travel=False)
        else:
            ok = action in self.legal_actions(st, seat)
        if not ok:
            self._explain_refusal(st, i, action)
        events: list[Event] = []
        getattr(self, "_do_" + t)(st, i, action, events)
        return events

    def _explain_refusal(self, st: State, i: int, action: Action) -> None:
        t = action["type"]
        if t == "take":
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

    # -- take
    def _do_take(self, st: State, i: int, action: Action, events: list[Event]) -> None:
        slot = action["slot"]
        card = st.display[slot]
        assert card is not None
        st.display[slot] = None
        self._give_travel(st, i, card)
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
        cards = tuple(action["cards"])
        p = st.progress[i]
        st.travels += 1
        st.last_leg = p
        if p == D.ELEPHANT_LEG:
            self._move(st, i, D.WALK_DAYS, [], events, None)
            return
        hand = st.hand[i]
        for c in cards:
            hand.remove(c)
            st.travel_discard.append(c)
        ships = sum(1 for c in cards if c[0] == "s")
        if (ships, len(cards) - ships) not in LEG_REQS[p]:
            st.armed.remove("offer")
        balloon_card = action.get("balloon")
        b_idx = cards.index(balloon_card) if balloon_card is not None else None
        if b_idx is None and not st.armed:
            fixed, used = leg_days(cards), []
        else:
            fixed, used = best_modified(cards, b_idx, st.armed)
        for m in used:
            st.armed.remove(m)
        if balloon_card is not None:
            if st.balloon:
                st.balloon = False
            else:
                st.armed.remove("balloon")
            die = self._rng_do(st, "die")
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
        others = [k for k in range(len(st.seats)) if k != i]
        pair = st.chits[loc - 1]
        colour = None
        if all(st.progress[k] < loc for k in others):
            colour = 0
        elif all(st.progress[k] >= loc for k in others):
            colour = 1
        if colour is None or pair[colour] is None:
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
            hit = [k for k in others if st.progress[k] < D.HOME]
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
        st.events[i] = []
        st.armed = []
        events.append({"type": "arrive", "seat": st.seats[i], "days": st.days[i], "place": len(st.arrival_order)})
        self._next_turn(st, events)

    def _do_reroll(self, st: State, i: int, action: Action, events: list[Event]) -> None:
        st.gold[i] -= REROLL_COST
        st.gold_supply += REROLL_COST
        die = self._rng_do(st, "die")
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
            die = self._rng_do(st, "die")
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
        else:
            st.events[i].remove(card)
            st.event_discard.append(card)
        events.append({"type": "discard", "seat": st.seats[i], "card": card})
        if len(st.hand[i]) + len(st.events[i]) <= D.HAND_LIMIT:
            self._next_turn(st, events)

    # ------------------------------------------------------------------ AI
    def ai_action(self, state: State, seat: str) -> Action:
        from .ai import choose

        view = self.view(state, seat)
        legal = self.legal_actions(state, seat)
        return choose(view, seat, legal)


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


def _copy_json(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _copy_json(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_copy_json(x) for x in v]
    return v


_PHASE_OF: dict[str, tuple[str, ...]] = {
    "take": ("take",), "take_top": ("take",),
    "use_action": ("action",), "skip_action": ("action",), "detective": ("action",), "exchange": ("action",),
    "travel": ("travel",), "stay": ("travel",), "done": ("travel",), "event": ("travel",),
    "elephant_gold": ("action", "travel"), "buy": ("action", "travel"),
    "reroll": ("roll",), "keep": ("roll",),
    "discard": ("discard",),
}
