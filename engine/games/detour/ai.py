"""A heuristic AI for detour. It decides from the seat's own view only (positions, hands and
played cards are public; the AI knows its own secret choice) plus the static map.

The core is a table computed once from the map: ROUNDS[space][hand] = how many rounds a
pawn standing on `space` with the cards `hand` still to play needs to come home if nobody
hindered it, playing its cards in the best order (hands picked up again after four rounds),
minus a small bonus for the Move value kept in hand on arrival (the end-of-game tie-break).
It captures the whole-connection rule and the wasted days exactly.

Every possible use of a card is scored as
    - (own rounds to go afterwards) + sum over hit pawns of (their extra rounds) x threat
where the threat of an opponent's pawn is high for the one closest to home (the one that
would end the game and win) and small for the others. When choosing a card the AI scores
each card in hand by its best use at the current positions, minus the value an action card
typically has later in the cycle. Deterministic: ties go to the first legal action.
"""

from __future__ import annotations

from typing import Any

from . import mapdata as M

_DEST = M.DEST
_PREV = M.PREV
_RED = M.RED
_FIN = M.FIN
_BIT = {10: 1, 8: 2, 6: 4, 5: 8}
_FULL = 15

#: rounds a block costs its target when its next card is not known yet (the target, knowing
#: it is blocked, will mostly play an action card): small
BLOCK_HARM = 0.1
#: value (in rounds) an action card keeps for later in the cycle if it is not used now
KEEP = {10: 0.0, 8: 0.35, 6: 0.2, 5: 0.3}
#: weight of an opponent's lost rounds: far behind me, near me, ahead of me; extra for the
#: opponent closest to home and for one about to come home
THREAT_FAR, THREAT_NEAR, THREAT_AHEAD, THREAT_LEAD, THREAT_HOME = 0.05, 0.3, 0.6, 0.3, 0.7
#: rounds-to-go bonus per day of Move value kept in hand when coming home
TIEBREAK = 0.004


def _rounds_table() -> list[list[float]]:
    n = M.N_SPACES + 1
    big = 99.0
    table = [[big] * 16 for _ in range(n)]
    table[_FIN] = [0.0] * 16
    for _ in range(60):
        changed = False
        for s in range(M.N_SPACES):
            row = table[s]
            for mask in range(16):
                hand = mask or _FULL
                best = big
                for c, bit in _BIT.items():
                    if hand & bit:
                        rest = hand & ~bit
                        end = _DEST[s][c]
                        if end == _FIN:
                            value = 1.0 - TIEBREAK * sum(v for v, b in _BIT.items() if rest & b)
                        else:
                            value = 1.0 + table[end][rest]
                        best = min(best, value)
                if best < row[mask] - 1e-12:
                    row[mask] = best
                    changed = True
        if not changed:
            break
    return table


ROUNDS: list[list[float]] = _rounds_table()


def _mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= _BIT[c]
    return m


class _Ctx:
    """What the AI reads off the view once per decision."""

    def __init__(self, view: dict[str, Any], me: str) -> None:
        self.view = view
        self.me = me
        self.pawns = view["pawns"]
        self.two = view["two_colours"]
        self.masks = [_mask(p["hand"]) for p in self.pawns]
        #: pawns whose revealed card still resolves this round, after the current one
        self.pending: dict[int, int] = {}
        for entry in view["queue"][1:]:
            self.pending[_pawn_index(view, entry["seat"], entry["colour"])] = entry["card"]
        self.togo = [0.0 if p["finished"] else ROUNDS[p["space"]][self.masks[i]] for i, p in enumerate(self.pawns)]
        opp = [i for i, p in enumerate(self.pawns) if p["seat"] != me and not p["finished"]]
        mine = [i for i, p in enumerate(self.pawns) if p["seat"] == me and not p["finished"]]
        my_best = min((self.togo[i] for i in mine), default=0.0)
        lead = min((self.togo[i] for i in opp), default=99.0)
        self.threat = [0.0] * len(self.pawns)
        for i in opp:
            gap = self.togo[i] - my_best  # > 0: behind my best pawn
            w = THREAT_FAR if gap > 1.5 else (THREAT_NEAR if gap > 0 else THREAT_AHEAD)
            if self.togo[i] <= lead + 0.01:
                w += THREAT_LEAD
            if self.togo[i] <= 2.0:
                w += THREAT_HOME
            self.threat[i] = w
        # 2 players: rule 2 makes my rearmost pawn matter, and the opponent's rearmost too
        self.own_w = [1.0] * len(self.pawns)
        if self.two and len(mine) == 2:
            back = max(mine, key=lambda i: self.togo[i])
            self.own_w[back] = 1.25
        if self.two and len(opp) == 2:
            back = max(opp, key=lambda i: self.togo[i])
            self.threat[back] = max(self.threat[back], 0.8)

    def own(self, p: int, space: int, rest: int) -> float:
        if space == _FIN:
            return 3.0 + TIEBREAK * sum(v for v, b in _BIT.items() if (rest or 0) & b)
        return -ROUNDS[space][rest] * self.own_w[p]

    def harm_move(self, q: int, new_space: int) -> float:
        return (ROUNDS[new_space][self.masks[q]] - self.togo[q]) * self.threat[q]

    def use_value(self, p: int, card: int, kind: str, q: int | None, blocked: bool, rest: int) -> float:
        space = self.pawns[p]["space"]
        if kind == "move":
            return self.own(p, space if blocked else _DEST[space][card], rest)
        assert q is not None
        t = self.pawns[q]["space"]
        if kind == "block":
            pending = self.pending.get(q)
            if pending is None:
                harm = BLOCK_HARM
            else:  # its revealed card resolves later this round: it loses that Move
                m = self.masks[q]
                harm = ROUNDS[t][m] - ROUNDS[_DEST[t][pending]][m]
                if pending != 10:
                    harm *= 0.5  # it may still use the action
            return self.own(p, _DEST[space][3], rest) + harm * self.threat[q]
        if kind == "backward":
            return self.own(p, _DEST[space][5], rest) + self.harm_move(q, _PREV[t])
        moved = _DEST[space][card] if (M.IS_BLUE[space] and not blocked) else space
        return self.own(p, moved, rest) + self.harm_move(q, _RED[t])

    def targets(self, card: int) -> list[int]:
        out = []
        for q in self.pawns:
            if q["seat"] == self.me or q["finished"]:
                continue
            s = q["space"]
            if (card == 8 and not q["blocked"]) or (card == 6 and _RED[s] >= 0) or (card == 5 and _PREV[s] >= 0):
                out.append(q["index"])
        return out

    def card_value(self, p: int, card: int) -> float:
        blocked = self.pawns[p]["blocked"]
        rest = self.masks[p] & ~_BIT[card]
        best = self.use_value(p, card, "move", None, blocked, rest)
        kind = M.CARD_ACTION[card]
        if kind:
            for q in self.targets(card):
                best = max(best, self.use_value(p, card, kind, q, blocked, rest))
        if _DEST[self.pawns[p]["space"]][card] == _FIN and not blocked:
            return best  # the game ends this round: nothing is kept for later but the tie-break
        return best - KEEP[card]


def _pawn_index(view: dict[str, Any], seat: str, colour: str | None) -> int:
    for p in view["pawns"]:
        if p["seat"] == seat and (colour is None or p["colour"] == colour):
            return p["index"]
    raise ValueError("no such pawn")


def choose(view: dict[str, Any], seat: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
    if not legal:
        raise ValueError("no legal action")
    ctx = _Ctx(view, seat)
    best, best_score = legal[0], float("-inf")
    if view["phase"] == "choose":
        for a in legal:
            p = _pawn_index(view, seat, a.get("colour"))
            score = ctx.card_value(p, a["card"])
            if score > best_score + 1e-9:
                best, best_score = a, score
        return best
    res = view["resolving"]
    p = _pawn_index(view, seat, res["colour"])
    blocked = view["pawns"][p]["blocked"]
    rest = ctx.masks[p]  # the revealed card has already left the hand
    for a in legal:
        q = None if a["type"] == "move" else _pawn_index(view, a["target"], a.get("target_colour"))
        score = ctx.use_value(p, res["card"], a["type"], q, blocked, rest)
        if score > best_score + 1e-9:
            best, best_score = a, score
    return best
