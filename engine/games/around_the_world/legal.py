"""What may be done in Around the World: the legal actions of the seat to act, and the
cheap checks `apply` uses instead of listing them (the same answers)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection

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
    in the order of `wanted` (each count once, so no set comes twice)."""
    sets: list[tuple[str, ...]] = []
    for s, t in wanted:
        if s > len(ships) or t > len(trains):
            continue
        train_combos = multiset_combos(trains, t)
        for sc in multiset_combos(ships, s):
            for tc in train_combos:
                sets.append(sc + tc)
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
        phase = st.phase
        if phase == "over":
            return []
        i = st.order[st.turn]
        if st.seats[i] != seat:
            return []
        if phase == "travel":
            return self._travel_phase_actions(st, i)
        if phase == "take":
            return self._take_actions(st, i)
        if phase == "action":
            return self._pending_actions(st, i)
        if phase == "roll":
            roll = st.last_roll[-1] if st.last_roll else 0
            keep = _KEEP.get(roll) or {"type": "keep", "roll": roll}
            return [_REROLL, keep] if st.gold[i] >= REROLL_COST else [keep]
        if phase == "discard":
            cards = sorted(set(st.hand[i])) + sorted(set(st.events[i]))
            return [_DISCARD.get(c) or {"type": "discard", "card": c} for c in cards]
        return []

    def _take_actions(self, st: State, i: int) -> list[Action]:
        display = st.display
        skip = i == st.first and len(display) > _FIRST_PLAYER_SLOT
        try:
            out: list[Action] = (
                [_TAKE[j][card] for j, card in enumerate(display) if card is not None and j != _FIRST_PLAYER_SLOT]
                if skip else [_TAKE[j][card] for j, card in enumerate(display) if card is not None])
        except KeyError:  # a card from no deck of the game (a hand-built position): the same actions
            out = [{"type": "take", "slot": j, "card": card} for j, card in enumerate(display)
                   if card is not None and not (skip and j == _FIRST_PLAYER_SLOT)]
        if (len(st.seats) == 6 and st.turn == len(st.order) - 1
                and (st.travel_deck or st.travel_discard)):
            out.append(_TAKE_TOP)
        return out

    def _pending_actions(self, st: State, i: int) -> list[Action]:
        p = st.pending
        out: list[Action]
        if p == "detective":
            out = list(_DETECTIVE_MOVES[st.detective])
        elif p == "exchange":
            hand = tuple(st.hand[i])
            exchanges = _EXCHANGES.get(hand)
            if exchanges is None:
                if len(_EXCHANGES) >= _MEMO_MAX:
                    _EXCHANGES.clear()
                exchanges = _EXCHANGES[hand] = tuple(
                    {"type": "exchange", "cards": list(combo)}
                    for k in (1, 2, 3) for combo in multiset_combos(st.hand[i], k))
            out = list(exchanges)
        else:
            out = [_USE_ACTION.get(p) or {"type": "use_action", "action": p}]
        out.append(_SKIP_ACTION.get(p) or {"type": "skip_action", "action": p})
        out.extend(self._gold_actions(st, i))
        return out

    def _gold_actions(self, st: State, i: int) -> tuple[Action, ...]:
        """Buying (2 gold) and selling an Elephant (1 gold): any time once the display card is taken."""
        sell = "elephant" in st.events[i] and st.gold_supply > 0
        if st.gold[i] < D.BUY_COST:
            return _GOLD_ACTIONS[sell]
        return _GOLD_ACTIONS[sell + (2 if st.travel_deck or st.travel_discard else 0)
                             + (4 if st.event_deck or st.event_discard else 0)]

    def _can_travel(self, st: State, i: int) -> bool:
        return st.progress[i] < D.HOME and st.travels < 1 + st.extra

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
        """The travel phase: travel (the leg's actions are memoised on what they depend on and
        shared between states: leg, display balloon, armed events and the cards that matter for
        the leg, each kind as its distinct cards, at most two of a card when the leg takes two
        of that kind; armed events and the two kinds of cards never share a name), then stay
        or done, events, gold."""
        p = st.progress[i]
        travels = st.travels
        after = _STAY[p % NLOC] if travels == 0 else _DONE
        if not with_travel or p >= _HOME or travels >= 1 + st.extra:
            out = [after]
        elif p == _ELEPHANT_LEG:
            out = [_WALK, after]
        else:
            hand = st.hand[i]
            split = bisect_left(hand, "t")  # the hand is sorted: ships, then trains
            ship_cap, train_cap = _CAPS[p]
            ships: Collection[str] = hand[:split] if ship_cap else ()
            if len(ships) > ship_cap:
                ships = dict.fromkeys(ships) if ship_cap == 1 else _two_each(ships)
            trains: Collection[str] = hand[split:] if train_cap else ()
            if len(trains) > train_cap:
                trains = dict.fromkeys(trains) if train_cap == 1 else _two_each(trains)
            key = (p, st.balloon, *st.armed, *ships, *trains)
            listed = _TRAVEL_LISTS.get(key)
            if listed is None:
                if len(_TRAVEL_LISTS) >= _MEMO_MAX:
                    _TRAVEL_LISTS.clear()
                listed = _TRAVEL_LISTS[key] = _travel_list(p, hand, st.armed, st.balloon)
            out = [*listed, after]
        events = st.events[i]
        if events:
            self._event_actions(st, i, out)
            sell = "elephant" in events and st.gold_supply > 0
        else:
            sell = False
        if st.gold[i] >= _BUY_COST:
            out += _GOLD_ACTIONS[sell + (2 if st.travel_deck or st.travel_discard else 0)
                                 + (4 if st.event_deck or st.event_discard else 0)]
        elif sell:
            out.append(_ELEPHANT_GOLD)
        return out

    def _event_actions(self, st: State, i: int, out: list[Action]) -> None:
        """Append the event cards `i` may play now, each distinct card once, in hand order."""
        seen = set()
        for card in st.events[i]:
            if card in seen:
                continue
            seen.add(card)
            if card == "princess":
                top = st.event_discard[-1] if st.event_discard else None
                if top is not None and top != "princess" and self._event_playable(st, i, top):
                    if top == "detective":
                        out.extend(_PRINCESS_DETECTIVE[st.detective])
                    else:
                        out.append(_PRINCESS_AS[top])
            elif self._event_playable(st, i, card):
                if card == "detective":
                    out.extend(_EVENT_DETECTIVE[st.detective])
                else:
                    out.append(_EVENT[card])


def _two_each(cards: Collection[str]) -> list[str]:
    """The sorted `cards` with at most two copies of each card."""
    out: list[str] = []
    for c in cards:
        if len(out) < 2 or out[-2] != c:
            out.append(c)
    return out


def _travel_list(p: int, hand: list[str], armed: list[str], display_balloon: bool) -> tuple[Action, ...]:
    """The travel actions of leg `p` for a hand (see `LegalMoves._travel_phase_actions`)."""
    to = D.LOCATIONS[(p + 1) % NLOC]
    split = bisect_left(hand, "t")
    sets = _card_sets(hand[:split], hand[split:], _wanted(LEG_REQS[p], "offer" in armed))
    balloon = display_balloon or "balloon" in armed
    simple = "propeller_train" not in armed and "submarine" not in armed
    out: list[Action] = []
    for combo in sets:
        key = (combo, to)
        shared = _TRAVEL_ACTIONS.get(key)
        if shared is None:
            if len(_TRAVEL_ACTIONS) >= _MEMO_MAX:
                _TRAVEL_ACTIONS.clear()
            shared = _TRAVEL_ACTIONS[key] = (
                {"type": "travel", "cards": list(combo), "days": leg_days(combo), "to": to},
                tuple({"type": "travel", "cards": list(combo), "balloon": card, "to": to}
                      for card in dict.fromkeys(combo)))
        if simple:  # the days follow from the cards alone
            out.append(shared[0])
        else:
            out.append({"type": "travel", "cards": list(combo), "days": best_modified(combo, None, armed)[0],
                        "to": to})
        if balloon:
            out += shared[1]
    return tuple(out)


#: shared, never mutated actions (callers only read a listing; `legal_actions` returns a fresh
#: list of them): the constant ones, and memoised listings of take and travel actions keyed by
#: the values they depend on (bounded: cleared when full)
_MEMO_MAX = 1 << 15
_HOME, _ELEPHANT_LEG, _BUY_COST = D.HOME, D.ELEPHANT_LEG, D.BUY_COST
#: per display slot: card -> the take action
_TAKE: list[dict[str, Action]] = [
    {c: {"type": "take", "slot": j, "card": c} for c in sorted(D.CARD_INFO)} for j in range(len(D.DISPLAY_ACTIONS))]
_FIRST_PLAYER_SLOT = D.DISPLAY_ACTIONS.index("first_player")
_TRAVEL_LISTS: dict[tuple[object, ...], tuple[Action, ...]] = {}
#: per leg: how many cards of one kind (ships, trains) its payments take at most (with the
#: offer, fewer), so how many copies of a card in the hand can matter
_CAPS: list[tuple[int, int]] = [
    (max((s for s, _ in reqs), default=0), max((t for _, t in reqs), default=0)) for reqs in LEG_REQS]
#: (cards, destination) -> the travel action without modifiers (its days follow from the
#: cards) and the balloon rides with those cards (one per distinct card the balloon replaces)
_TRAVEL_ACTIONS: dict[tuple[tuple[str, ...], str], tuple[Action, tuple[Action, ...]]] = {}
_EXCHANGES: dict[tuple[str, ...], tuple[Action, ...]] = {}
_TAKE_TOP: Action = {"type": "take_top"}
_DONE: Action = {"type": "done"}
_REROLL: Action = {"type": "reroll"}
_KEEP: dict[int, Action] = {r: {"type": "keep", "roll": r} for r in range(7)}
_STAY: list[Action] = [{"type": "stay", "location": loc} for loc in D.LOCATIONS]
_WALK: Action = {"type": "travel", "cards": [], "days": D.WALK_DAYS, "to": D.LOCATIONS[D.ELEPHANT_LEG + 1]}
#: per detective location: the other places it may be moved to, as display action, event, princess
_DETECTIVE_MOVES: list[tuple[Action, ...]] = [
    tuple({"type": "detective", "location": D.LOCATIONS[loc]} for loc in range(1, NLOC) if loc != det)
    for det in range(NLOC)]
_EVENT_DETECTIVE: list[tuple[Action, ...]] = [
    tuple({"type": "event", "card": "detective", "location": D.LOCATIONS[loc]} for loc in range(1, NLOC)
          if loc != det)
    for det in range(NLOC)]
_PRINCESS_DETECTIVE: list[tuple[Action, ...]] = [
    tuple({"type": "event", "card": "princess", "as": "detective", "location": D.LOCATIONS[loc]}
          for loc in range(1, NLOC) if loc != det)
    for det in range(NLOC)]
_EVENT: dict[str, Action] = {e: {"type": "event", "card": e} for e in D.EVENT_IDS}
_PRINCESS_AS: dict[str, Action] = {e: {"type": "event", "card": "princess", "as": e} for e in D.EVENT_IDS}
_PENDING = (*D.DISPLAY_ACTIONS, "chit_event")
_USE_ACTION: dict[str | None, Action] = {a: {"type": "use_action", "action": a} for a in _PENDING}
_SKIP_ACTION: dict[str | None, Action] = {a: {"type": "skip_action", "action": a} for a in _PENDING}
_DISCARD: dict[str, Action] = {c: {"type": "discard", "card": c} for c in (*D.CARD_INFO, *D.EVENT_IDS)}
_ELEPHANT_GOLD: Action = {"type": "elephant_gold"}
_BUY_TRAVEL: Action = {"type": "buy", "deck": "travel"}
_BUY_EVENT: Action = {"type": "buy", "deck": "event"}
#: the gold actions by key: bit 1 sell an elephant, bit 2 buy travel, bit 4 buy event
_GOLD_ACTIONS: list[tuple[Action, ...]] = [
    tuple(a for bit, a in ((1, _ELEPHANT_GOLD), (2, _BUY_TRAVEL), (4, _BUY_EVENT)) if key & bit)
    for key in range(8)]
