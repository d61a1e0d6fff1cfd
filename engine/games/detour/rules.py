"""Rules of `detour` ("Around the Worlds in 80 Days", the print-and-play card game).

The unit of play is a *pawn* (a colour). With 3–4 players each seat has one pawn; with 2
players each seat has two pawns (colours), seated alternately round the table
(p1 blue, p2 orange, p1 green, p2 purple), each with its own four cards.

A round: every pawn's owner secretly chooses one card from that pawn's hand (`choose`);
when all have chosen the cards are revealed and resolved from the highest value to the
lowest, ties in pawn order from the first-player marker on. When a card resolves its owner
decides how to use it (`move`, or the card's action against a target); a card with only one
possible use resolves by itself. After the round the marker passes left; after four rounds
the hands are picked up again. The game ends after the round in which a pawn came back to
the start. See docs/games/detour.md for every decision the rulebook leaves open.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import compress
from operator import not_
from typing import Any, ClassVar

from engine.core import (
    Action,
    Event,
    IllegalAction,
    Move,
    Result,
    Rules,
    View,
    dump_typed,
    load_typed,
    malformed,
    not_a_player,
)
from engine.rng import Rng

from . import mapdata as M
from . import tables as T
from .summary import DetourSummary

CARDS = M.CARDS  # (10, 8, 6, 5)
_BIT = T.BIT
_FULL = T.FULL
COLOURS = T.COLOURS
_DEST = M.DEST
_DIST = M.DIST
_PREV = M.PREV
_RED = M.RED
_FIN = M.FIN
_BLUE = M.IS_BLUE
_BONUS_BLOCK = M.ACTION_BONUS[8]
_BONUS_BACKWARD = M.ACTION_BONUS[5]

_KIND = M.CARD_ACTION
_ACTION_OF = T.ACTION_OF
_ACTION_KINDS = frozenset({"move", "detour", "backward", "block"})
_HITS = T.HITS
_HAND_CARDS = T.HAND_CARDS
_MOVE, _CHOOSE, _CHOOSE_COLOUR = T.MOVE, T.CHOOSE, T.CHOOSE_COLOUR

CHOOSE, RESOLVE, OVER = "choose", "resolve", "over"


@dataclass
class DetourState:
    seats: list[str]
    #: seat index owning each pawn
    owner: list[int]
    #: space of each pawn (mapdata.FIN once back at the start)
    pos: list[int]
    #: bitmask of the cards still in each pawn's hand (10:1, 8:2, 6:4, 5:8)
    hand: list[int]
    #: a block waits on this pawn's next resolved card
    blocked: list[bool]
    #: card chosen this round (0: not yet); secret until every pawn has chosen
    chosen: list[int]
    #: pawns whose revealed cards still have to resolve this round, in resolution order
    queue: list[int]
    #: pawn holding the first-player marker
    first: int
    round: int
    phase: str
    #: pawns that came back to the start, in order of arrival
    arrivals: list[int]
    rng: int

    def __post_init__(self) -> None:
        """Lookups derived from the seating alone (which never changes in a game), built by
        every construction (`new_game`, `load`) so moves need not search lists for them.
        Not fields: they are neither dumped nor compared."""
        #: seat name -> seat index; pawn -> its seat's name; pawn -> the other seats' pawns;
        #: action kind -> pawn -> the shared action against that pawn; prebuilt events to copy
        (self.seat_index, self.pawn_seat, self.rivals, self.against,
         self.move_events, self.auto_events, self.reveal_cards, self.action_events) = T.lookups(self.seats, self.owner)
        #: two seats with two pawns each; the number of pawns; pawn orders from each first pawn
        self.two = len(self.seats) == 2
        self.pawns = len(self.owner)
        self.rotation = T.ROTATION[self.pawns]


def _hand_list(mask: int) -> list[int]:
    return list(_HAND_CARDS[mask])


def _hand_value(mask: int) -> int:
    return sum(_HAND_CARDS[mask])


class DetourRules(DetourSummary, Rules):
    id = "detour"
    title = "Around the Worlds in 80 Days (Detour)"
    min_players = 2
    max_players = 4
    option_defaults: ClassVar[dict[str, Any]] = {}
    option_choices: ClassVar[dict[str, Any]] = {}

    # -- life cycle -----------------------------------------------------------
    def new_game(self, seats: list[str], seed: int, options: dict[str, Any] | None = None) -> DetourState:
        self.check_seats(seats)
        if options:  # (no options: nothing to refuse)
            self.validate_options(options)
        n = len(seats)
        owner = T.seating(n)
        rng = Rng.from_seed(seed)
        pawns = len(owner)
        # "Select a first player": drawn from the seed (in the 2-player game a first colour).
        first = rng.below(pawns)
        return DetourState(
            seats=list(seats), owner=owner, pos=[M.START] * pawns, hand=[_FULL] * pawns,
            blocked=[False] * pawns, chosen=[0] * pawns, queue=[], first=first, round=1,
            phase=CHOOSE, arrivals=[], rng=rng.state,
        )

    def to_act(self, state: DetourState) -> list[str]:
        phase = state.phase
        if phase == CHOOSE:
            seats, chosen = state.seats, state.chosen
            if not state.two:  # one pawn per seat, pawn index = seat index
                waiting = chosen.count(0)
                if waiting == state.pawns:
                    return list(seats)
                if waiting == 1:
                    return [seats[chosen.index(0)]]
                return list(compress(seats, map(not_, chosen)))
            # two seats: pawns 0 and 2 are the first seat's, 1 and 3 the second's (`new_game`)
            return [s for i, s in enumerate(seats) if not (chosen[i] and chosen[i + 2])]
        if phase == RESOLVE:
            return [state.pawn_seat[state.queue[0]]]
        return []

    def may_act(self, state: DetourState, seat: str) -> bool:
        """`seat in to_act(state)` without building the list (`apply` asks on every move)."""
        phase = state.phase
        if phase == RESOLVE:
            return state.seats[state.owner[state.queue[0]]] == seat
        if phase != CHOOSE or seat not in state.seats:
            return False
        i = state.seats.index(seat)
        chosen = state.chosen
        return not chosen[i] or (len(chosen) == 4 and len(state.seats) == 2 and not chosen[i + 2])

    def is_over(self, state: DetourState) -> bool:
        return state.phase == OVER

    # -- what may be done ---------------------------------------------------------
    @staticmethod
    def _targets(state: DetourState, p: int, card: int) -> list[int]:
        """Pawns the action of `card` (played for pawn p) can hit: opponents' pawns still
        travelling, for which the action does something."""
        hits = _HITS.get(card)
        if hits is None:
            return []
        pos = state.pos
        if card == 8:
            blocked = state.blocked
            return [q for q in state.rivals[p] if hits[pos[q]] and not blocked[q]]
        return [q for q in state.rivals[p] if hits[pos[q]]]

    @staticmethod
    def _options(state: DetourState, p: int) -> list[Action]:
        """The uses of pawn p's resolving card: its Move (unless blocked), then its action
        against each pawn it can hit, in pawn order."""
        card = state.chosen[p]
        blocked = state.blocked
        acts: list[Action] = [] if blocked[p] else [_MOVE]
        if card == 10:
            return acts
        hits = _HITS[card]
        against = state.against[_ACTION_OF[card]]
        pos = state.pos
        if card == 8:
            for q in state.rivals[p]:
                if hits[pos[q]] and not blocked[q]:
                    acts.append(against[q])
        else:
            for q in state.rivals[p]:
                if hits[pos[q]]:
                    acts.append(against[q])
        return acts

    def _target_of(self, state: DetourState, p: int, action: Action) -> int:
        """The pawn an action card's action names, if it is a legal target now (else -1)."""
        seats = state.seats
        target = action.get("target")
        if target not in seats:
            return -1
        if len(seats) == 2:
            if len(action) != 3 or action.get("target_colour") not in COLOURS:
                return -1
            q = COLOURS.index(action["target_colour"])
            if seats[state.owner[q]] != target:
                return -1
        else:
            if len(action) != 2:
                return -1
            q = seats.index(target)
        return q if q in self._targets(state, p, state.chosen[p]) else -1

    def legal_actions(self, state: DetourState, seat: str) -> list[Action]:
        phase = state.phase
        if phase == CHOOSE:
            si = state.seat_index.get(seat)
            if si is None:
                return []
            chosen = state.chosen
            if not state.two:  # one pawn per seat: pawn index = seat index
                if chosen[si]:
                    return []
                return list(_CHOOSE[state.hand[si]])
            acts: list[Action] = []
            for p in (si, si + 2):
                if not chosen[p]:
                    acts += _CHOOSE_COLOUR[p][state.hand[p]]
            return acts
        if phase == RESOLVE:
            p = state.queue[0]
            if state.pawn_seat[p] != seat:
                return []
            return self._options(state, p)
        return []

    # -- doing it -------------------------------------------------------------------
    def is_legal(self, state: DetourState, seat: str, action: Action) -> bool:
        """`passes_check`, inlined: `apply` asks it on every move."""
        if type(action) is not dict or type(action.get("type")) is not str or state.phase == OVER:
            return self.passes_check(state, seat, action)  # the rare odd input: the general path
        try:
            self.check(state, seat, action)
        except IllegalAction:
            return False
        return True

    def check(self, state: DetourState, seat: str, action: Action) -> None:
        """The game's own refusal codes, in the order players have always seen them."""
        if seat not in state.seats:
            raise not_a_player()
        kind = action["type"]
        if state.phase == CHOOSE:
            if kind != "choose":
                if kind in _ACTION_KINDS:
                    raise IllegalAction("not_resolving", "Cards are being chosen: pick a card first.")
                raise IllegalAction("unknown_action", "That is not a move of this game.")
            self._choice_pawn(state, seat, action)
            return
        if kind == "choose":
            raise IllegalAction("already_revealed", "The cards of this round are already revealed.")
        if kind not in _ACTION_KINDS:
            raise IllegalAction("unknown_action", "That is not a move of this game.")
        self._check_resolving(state, seat, kind, action)

    def _check_resolving(self, state: DetourState, seat: str, kind: str, action: Action) -> None:
        """The refusals of an action card's action while the round's cards resolve."""
        p = state.queue[0]
        if state.seats[state.owner[p]] != seat:
            raise IllegalAction("not_your_turn", "It is not your card that resolves now.")
        if kind == "move":
            if len(action) != 1:
                raise malformed()
            if state.blocked[p]:
                raise IllegalAction("blocked", "You are blocked: this card cannot use its Move.")
            return
        if _KIND[state.chosen[p]] != kind:
            raise IllegalAction("wrong_card", "Your card does not have that action.", card=state.chosen[p])
        if self._target_of(state, p, action) < 0:
            raise IllegalAction("bad_target", "That pawn cannot be targeted by this action now.")

    def _choice_pawn(self, state: DetourState, seat: str, action: Action) -> int:
        """The pawn a legal `choose` action plays for; raises the refusal otherwise."""
        si = state.seats.index(seat)
        card = action.get("card")
        two = len(state.seats) == 2
        if len(action) != (3 if two and "colour" in action else 2) or type(card) is not int or card not in _BIT:
            raise IllegalAction("bad_card", "Choose one of the cards 10, 8, 6 or 5.")
        if two:
            colour = action.get("colour")
            if colour not in COLOURS:
                raise IllegalAction("need_colour", "Say which of your colours plays this card.")
            p = COLOURS.index(colour)
            if state.owner[p] != si:
                raise IllegalAction("not_your_colour", "That colour is not yours.", colour=colour)
        else:
            p = si
        if state.chosen[p]:
            raise IllegalAction("already_chosen", "You have already chosen a card this round.")
        if not state.hand[p] & _BIT[card]:
            raise IllegalAction("card_played", "That card is already played; it comes back when all four are.",
                                card=card)
        return p

    def push(self, state: DetourState, seat: str, action: Action) -> list[Event]:
        """`Rules.push` without the table lookup: a listed action goes straight to its move."""
        kind = action["type"]
        if kind == "choose":
            if state.two:
                return self._do_choose(state, seat, action)
            # `_do_choose` for one pawn per seat, inlined: three moves in four are choices
            chosen = state.chosen
            chosen[state.seat_index[seat]] = action["card"]
            events: list[Event] = [{"type": "chose", "seat": seat}]
            if 0 not in chosen:
                self._reveal(state, events)
                self._advance(state, events)
            return events
        if kind in _ACTION_KINDS:
            return self._do_card(state, seat, action)
        return self.apply(state, seat, action)

    def _do_choose(self, state: DetourState, seat: str, action: Action) -> list[Event]:
        """A legal `choose` (checked by `apply`, or listed for `push`): its pawn read, not re-checked."""
        if len(state.seats) == 2:
            p = COLOURS.index(action["colour"])
            events: list[Event] = [{"type": "chose", "seat": seat, "colour": COLOURS[p]}]
        else:
            p = state.seat_index[seat]
            events = [{"type": "chose", "seat": seat}]
        chosen = state.chosen
        chosen[p] = action["card"]
        if 0 not in chosen:  # every pawn has chosen
            self._reveal(state, events)
            self._advance(state, events)
        return events

    def _do_card(self, state: DetourState, seat: str, action: Action) -> list[Event]:
        """The resolving card used as a move or as its action (`detour`, `backward`, `block`)."""
        queue = state.queue
        p = queue[0]
        kind = action["type"]
        events: list[Event] = []
        # a legal action (checked by `apply`, or listed for `push`): its pawn read, not re-checked
        if kind == "move":
            card = state.chosen[p]
            was_blocked = state.blocked[p]
            self._move(state, p, card, events, card)
            if was_blocked:
                self._unblock(state, p, events)
        else:
            q = COLOURS.index(action["target_colour"]) if state.two else state.seat_index[action["target"]]
            self._resolve(state, p, kind, q, events)
        del queue[0]
        self._advance(state, events)
        return events

    moves: ClassVar[Mapping[str, Move]] = {
        "choose": _do_choose, "move": _do_card, "detour": _do_card, "backward": _do_card, "block": _do_card,
    }
    #: a secret choice may be taken back until the cards are revealed, a card's use until the
    #: round ends (nothing hidden comes out of resolving a revealed card)
    undoable_moves: ClassVar[frozenset[str]] = frozenset({"choose", "move", "detour", "backward", "block"})
    revealing_events: ClassVar[frozenset[str]] = frozenset({"reveal", "round_end", "game_over"})

    def _reveal(self, state: DetourState, events: list[Event]) -> None:
        """Turn the chosen cards over: highest first, ties from the first-player marker on
        (a stable sort of the pawns in marker order keeps the ties' order)."""
        chosen = state.chosen
        order = sorted(state.rotation[state.first], key=chosen.__getitem__, reverse=True)
        state.queue = order
        hand, unbit, templates = state.hand, T.UNBIT, state.reveal_cards
        cards = []
        for q in order:  # the played cards leave the hands
            card = chosen[q]
            hand[q] &= unbit[card]
            cards.append(templates[q][card].copy())
        events.append({"type": "reveal", "round": state.round, "cards": cards})
        state.phase = RESOLVE

    def _move(self, state: DetourState, p: int, days: int, events: list[Event], card: int) -> None:
        pos = state.pos
        start = pos[p]
        end = pos[p] = _DEST[start][days]
        # the prebuilt event names the card of these days (`tables.MOVE_CARD`): `card` is that one
        events.append(state.move_events[p][start][days].copy())
        if end == _FIN:
            state.arrivals.append(p)
            events.append({"type": "arrived", "seat": state.pawn_seat[p], "colour": COLOURS[p], "round": state.round})

    def _unblock(self, state: DetourState, p: int, events: list[Event]) -> None:
        """The block on pawn p is used up by the card that just resolved."""
        state.blocked[p] = False
        events.append({"type": "block_spent", "seat": state.pawn_seat[p], "colour": COLOURS[p]})

    def _resolve(self, state: DetourState, p: int, kind: str, q: int, events: list[Event]) -> None:
        """Carry out pawn p's card as its action `kind` against pawn q, already known legal
        (the Move alone is `_move`)."""
        card = state.chosen[p]
        was_blocked = state.blocked[p]
        pos = state.pos
        base = state.action_events[kind][p][q].copy()
        if kind == "block":
            state.blocked[q] = True
            events.append(base)
            self._move(state, p, _BONUS_BLOCK, events, card)
        elif kind == "backward":
            frm = pos[q]
            to = pos[q] = _PREV[frm]
            base["from"], base["to"] = frm, to
            events.append(base)
            self._move(state, p, _BONUS_BACKWARD, events, card)
        else:  # detour
            on_blue = _BLUE[pos[p]] and not was_blocked
            frm = pos[q]
            to = pos[q] = _RED[frm]
            base["from"], base["to"] = frm, to
            base["blue"] = on_blue
            events.append(base)
            if on_blue:
                self._move(state, p, card, events, card)
        if was_blocked:
            self._unblock(state, p, events)

    def _advance(self, state: DetourState, events: list[Event]) -> None:
        """Resolve forced cards by themselves until a card needs its owner's decision; then
        end the round (and perhaps the game)."""
        queue = state.queue
        chosen, blocked, pos = state.chosen, state.blocked, state.pos
        while queue:
            p = queue[0]
            card = chosen[p]
            if blocked[p]:  # no Move: the action against its one target, or nothing
                targets = self._targets(state, p, card)
                if len(targets) > 1:
                    return  # a real choice: the owner decides
                if targets:
                    events.append(state.auto_events[p][card].copy())
                    self._resolve(state, p, _ACTION_OF[card], targets[0], events)
                else:
                    events.append({"type": "no_effect", "seat": state.pawn_seat[p], "colour": COLOURS[p],
                                   "card": card, "blocked": True})
                    blocked[p] = False
            else:  # the Move, unless the card's action can hit someone
                if card != 10:
                    hits = _HITS[card]
                    for q in state.rivals[p]:
                        if hits[pos[q]] and (card != 8 or not blocked[q]):
                            return  # a real choice: the owner decides
                # `_move` inlined: most cards that resolve by themselves just move
                start = pos[p]
                end = pos[p] = _DEST[start][card]
                events.append(state.auto_events[p][card].copy())
                events.append(state.move_events[p][start][card].copy())
                if end == _FIN:
                    state.arrivals.append(p)
                    events.append({"type": "arrived", "seat": state.pawn_seat[p], "colour": COLOURS[p],
                                   "round": state.round})
            del queue[0]
        self._end_round(state, events)

    def _end_round(self, state: DetourState, events: list[Event]) -> None:
        n = len(state.owner)
        state.chosen = [0] * n
        if state.arrivals:
            state.phase = OVER
            res = self._standing(state)
            ev = {"type": "game_over", "winners": res["winners"], "round": state.round}
            if len(state.seats) == 2:  # which 2-player win condition decided it
                ev["rule"] = res["ranking"][0]["rule"]
                ev["winner"] = res["winners"][0]
            events.append(ev)
            return
        first = state.first = (state.first + 1) % n
        state.round += 1
        refill = state.hand[0] == 0
        if refill:
            state.hand = [_FULL] * n
        state.phase = CHOOSE
        events.append({"type": "round_end", "next_round": state.round, "refill": refill,
                       "first_seat": state.pawn_seat[first], "first_colour": COLOURS[first]})

    # -- reading it ---------------------------------------------------------------------
    def view(self, state: DetourState, seat: str | None) -> View:
        seats = state.seats
        choosing = state.phase == CHOOSE
        pawns = []
        for p, sp in enumerate(state.pos):
            mask = state.hand[p]
            pawns.append({
                "seat": seats[state.owner[p]], "colour": COLOURS[p], "index": p, "space": sp,
                "finished": sp == _FIN, "blocked": state.blocked[p],
                "hand": _hand_list(mask), "played": [c for c in CARDS if not mask & _BIT[c]],
                "chosen": bool(state.chosen[p]),
                # the revealed card of this round (None while cards are being chosen)
                "card": None if choosing or not state.chosen[p] else state.chosen[p],
                "days_left": M.DIST[sp],
            })
        resolving = None
        if state.phase == RESOLVE:
            p = state.queue[0]
            resolving = {"seat": seats[state.owner[p]], "colour": COLOURS[p], "card": state.chosen[p]}
        v: View = {
            "game": self.id, "seats": list(seats), "to_act": self.to_act(state), "over": state.phase == OVER,
            "phase": state.phase, "round": state.round, "pawns": pawns,
            "first": {"seat": seats[state.owner[state.first]], "colour": COLOURS[state.first]},
            "resolving": resolving,
            "queue": [{"seat": seats[state.owner[q]], "colour": COLOURS[q], "card": state.chosen[q]}
                      for q in state.queue] if state.phase == RESOLVE else [],
            "arrivals": [{"seat": seats[state.owner[q]], "colour": COLOURS[q]} for q in state.arrivals],
            "two_colours": len(seats) == 2,
        }
        if state.phase == OVER:
            v["result"] = self._standing(state)
        if seat is not None and seat in seats:
            si = seats.index(seat)
            mine = [p for p in range(len(state.owner)) if state.owner[p] == si]
            v["private"] = {
                "colours": [COLOURS[p] for p in mine],
                "chosen": {COLOURS[p]: state.chosen[p] for p in mine if state.chosen[p] and choosing},
            }
        return v

    def result(self, state: DetourState) -> Result | None:
        if state.phase != OVER:
            return None
        return self._standing(state)

    def _standing(self, state: DetourState) -> Result:
        if len(state.seats) == 2:
            return self._result_two(state)
        return self._result_multi(state)

    def _result_multi(self, state: DetourState) -> Result:
        seats = state.seats
        arrived = set(state.arrivals)
        rows: list[dict[str, Any]] = []
        for p, sp in enumerate(state.pos):
            rows.append({"seat": seats[p], "score": M.TOTAL_DAYS - M.DIST[sp], "days_left": M.DIST[sp],
                         "finished": p in arrived, "hand_value": _hand_value(state.hand[p]) if p in arrived else 0})
        # finishers: most Move value left in hand, then earliest arrival; then the others by days left
        arrival_rank = {p: i for i, p in enumerate(state.arrivals)}
        order = sorted(range(len(rows)), key=lambda p: (
            0 if p in arrived else 1, -rows[p]["hand_value"], arrival_rank.get(p, 0), rows[p]["days_left"]))
        ranking: list[dict[str, Any]] = []
        prev_key = None
        rank = 0
        for i, p in enumerate(order):
            key = ("f", p) if p in arrived else ("t", rows[p]["days_left"])
            if key != prev_key:
                rank = i + 1
                prev_key = key
            ranking.append({**rows[p], "rank": rank})
        winners = [r["seat"] for r in ranking if r["rank"] == 1] if state.phase == OVER else []
        return {"ranking": ranking, "winners": winners}

    @staticmethod
    def _track_key(sp: int) -> tuple[int, int]:
        """Position on the map for the 2-player 'last on the track' rule: the column; on a tie a
        pawn on a side path counts as farther back. Back at the start = past everything."""
        if sp == _FIN:
            return (10_000, 1)
        return (M.COLUMN[sp], 0 if M.SIDE_OF[sp] >= 0 else 1)

    def _result_two(self, state: DetourState) -> Result:
        seats = state.seats
        pawns_of = {0: [0, 2], 1: [1, 3]}
        enders = [s for s in (0, 1) if any(p in state.arrivals for p in pawns_of[s])]
        winner: int | None = None
        rule = 0
        if state.phase == OVER and enders:
            # rule 1: the ender's other colour on the last map card (or home too) wins
            rule1 = [s for s in enders
                     if all(state.pos[p] == _FIN or M.MAP_CARD[state.pos[p]] == 4 for p in pawns_of[s])]
            if len(rule1) == 1:
                winner, rule = rule1[0], 1
            else:
                # rule 2: the player whose pawn is last on the track loses; compare each player's
                # pawns from the rearmost forward; a full tie goes to the (first) ender
                keys = {s: sorted(self._track_key(state.pos[p]) for p in pawns_of[s]) for s in (0, 1)}
                if keys[0] != keys[1]:
                    winner = 0 if keys[0] > keys[1] else 1
                else:
                    first_home = state.arrivals[0]
                    winner = state.owner[first_home]
                rule = 2
        ranking = []
        for s in (0, 1):
            ps = pawns_of[s]
            ranking.append({
                "seat": seats[s],
                "rank": 1 if winner is None or winner == s else 2,
                "score": sum(M.TOTAL_DAYS - M.DIST[state.pos[p]] for p in ps),
                "days_left": [M.DIST[state.pos[p]] for p in ps],
                "ended": s in enders, "rule": rule,
            })
        ranking.sort(key=lambda r: r["rank"])
        return {"ranking": ranking, "winners": [seats[winner]] if winner is not None else []}

    # -- storage ---------------------------------------------------------------------
    state_class = DetourState

    def dump(self, state: DetourState) -> dict[str, Any]:
        """The store's copy after every move: field by field as annotated (`dump_typed`)."""
        return dump_typed(state)

    def load(self, data: dict[str, Any]) -> DetourState:
        state: DetourState = load_typed(DetourState, data)
        return state

    def determinize(self, view: View, seat: str | None, seed: int) -> DetourState:
        """Hands are open (the played cards are public), so the only secret is the card a pawn
        has chosen before the reveal: the seat's own come from its private view, every other
        chosen pawn's is drawn from the cards still in that pawn's hand. Everything else is
        read off the view; the generator (unused after the set-up) is seeded anew."""
        rng = Rng.from_seed(seed)
        seats = list(view["seats"])
        pawns = view["pawns"]
        phase = view["phase"]
        mine: dict[str, int] = (view.get("private") or {}).get("chosen", {}) if seat is not None else {}
        chosen = []
        for pawn in pawns:
            if phase == RESOLVE:
                chosen.append(pawn["card"])
            elif phase == CHOOSE and pawn["chosen"]:
                own = mine.get(pawn["colour"])
                chosen.append(own if own else rng.choice(pawn["hand"]))
            else:
                chosen.append(0)
        return DetourState(
            seats=seats, owner=T.seating(len(seats)), pos=[pawn["space"] for pawn in pawns],
            hand=[sum(_BIT[c] for c in pawn["hand"]) for pawn in pawns],
            blocked=[pawn["blocked"] for pawn in pawns], chosen=chosen,
            queue=[COLOURS.index(q["colour"]) for q in view["queue"]],
            first=COLOURS.index(view["first"]["colour"]), round=view["round"], phase=phase,
            arrivals=[COLOURS.index(a["colour"]) for a in view["arrivals"]], rng=rng.next64(),
        )
