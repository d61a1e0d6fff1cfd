"""What may be done in Around the World: the legal actions of the seat to act, and the
cheap checks `apply` uses instead of listing them (the same answers)."""

from __future__ import annotations

from engine.core import Action

from . import data as D
from .cards import best_modified, leg_days, multiset_combos
from .flow import Flow
from .state import State

LEG_REQS = D.LEG_REQS

NLOC = len(D.LOCATIONS)
REROLL_COST = 1  # gold paid for each re-roll of the balloon or elephant die


def _wanted(reqs: list[tuple[int, int]], offer: bool) -> list[tuple[int, int]]:
    """The (ships, trains) counts that pay a leg: its requirements, and with the offer armed
    each of them with one card fewer of either kind."""
    wanted: list[tuple[int, int]] = list(reqs)
    if offer:
        for s, t in reqs:
            if s and (s - 1, t) not in wanted:
                wanted.append((s - 1, t))
            if t and (s, t - 1) not in wanted:
                wanted.append((s, t - 1))
    return wanted


def _card_sets(ships: list[str], trains: list[str], wanted: list[tuple[int, int]]) -> list[tuple[str, ...]]:
    """The distinct card sets of the hand (ships, then trains) with one of the `wanted` counts,
    in the order of `wanted`."""
    sets: list[tuple[str, ...]] = []
    seen = set()
    for s, t in wanted:
        if s > len(ships) or t > len(trains):
            continue
        for sc in multiset_combos(ships, s):
            for tc in multiset_combos(trains, t):
                combo = sc + tc
                if combo not in seen:
                    seen.add(combo)
                    sets.append(combo)
    return sets


def _meets_leg(req: tuple[int, int], reqs: list[tuple[int, int]], offer: bool) -> bool:
    """Whether a (ships, trains) count pays the leg: one of its requirements, or with the
    offer armed one card fewer of either kind (the same sets as `_wanted`)."""
    if req in reqs:
        return True
    if not offer:
        return False
    return any((s and (s - 1, t) == req) or (t and (s, t - 1) == req) for s, t in reqs)


class LegalMoves(Flow):
    """The legal-action half of `AroundTheWorldRules` (a mixin: the methods read `self`'s
    other helpers)."""

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
            key = (j, card)
            action = _TAKE_ACTIONS.get(key)
            if action is None:
                action = _TAKE_ACTIONS[key] = {"type": "take", "slot": j, "card": card}
            out.append(action)
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
                for combo in multiset_combos(hand, k):
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
        sets = _card_sets(ships, trains, _wanted(LEG_REQS[p], "offer" in st.armed))
        balloon = st.balloon or "balloon" in st.armed
        out: list[Action] = []
        simple = not any(m in st.armed for m in ("propeller_train", "submarine"))
        for combo in sets:
            if simple:  # the days follow from the cards alone: the action is built once, shared
                key = (combo, to)
                action = _TRAVEL_ACTIONS.get(key)
                if action is None:
                    if len(_TRAVEL_ACTIONS) >= _MEMO_MAX:
                        _TRAVEL_ACTIONS.clear()
                    action = _TRAVEL_ACTIONS[key] = {
                        "type": "travel", "cards": list(combo), "days": leg_days(combo), "to": to,
                    }
                out.append(action)
            else:
                days = best_modified(combo, None, st.armed)[0]
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
        if not _meets_leg((ships, len(cards) - ships), LEG_REQS[p], "offer" in st.armed):
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



#: shared actions, built once (callers only read a listing): (slot, card) -> take action, and
#: (cards, destination) -> the travel action without modifiers (its days follow from the cards);
#: the travel memo is bounded (cleared when full)
_TAKE_ACTIONS: dict[tuple[int, str], Action] = {}
_TRAVEL_ACTIONS: dict[tuple[tuple[str, ...], str], Action] = {}
_MEMO_MAX = 1 << 15
