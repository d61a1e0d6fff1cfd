"""detour's AI levels (see `engine.ai`): today's heuristic (`ai.choose`) scored move by move, so
that normal can break near-ties at random (seeded from the view: today's AI, always taking the
first of equal moves, let 4-player self-play be decided by seat order and always attacked the
first seat) and easy and hard can see which moves are close to the best. Heads-up, normal also
weighs an opponent ahead of its best pawn more (today's weight lost 2-player games by holding back
its attacks; in 4-player games the old weight is the better one, measured with
bench/bench_ai_levels.py)."""

from __future__ import annotations

from typing import Any

from engine.ai import HardConfig, view_seed
from engine.rng import Rng

from .ai import THREAT_AHEAD, _Ctx, _pawn_index

Action = dict[str, Any]
#: moves scoring within this many rounds of the best are equally good for normal
TIE = 0.02
#: easy's alternatives: moves within this many rounds of the best (a weaker, not absurd, move)
NEAR = 0.6
#: heads-up, the threat weight of an opponent's pawn ahead of my best one (today: THREAT_AHEAD)
AHEAD_2P = 1.0
#: with 3-4 players, today's threat weights scaled: hitting one opponent helps the others
THREAT_MANY = 0.3
#: hard: a quick game, searched briefly over normal's shortlist
HARD = HardConfig(budget=0.05, rounds=6, candidates=4)


class _Ctx2(_Ctx):
    """Today's context with the heads-up threat weight raised for pawns ahead of mine."""

    def __init__(self, view: dict[str, Any], me: str) -> None:
        super().__init__(view, me)
        if len({p["seat"] for p in self.pawns}) != 2:
            self.threat = [w * THREAT_MANY for w in self.threat]
            return
        mine = [self.togo[i] for i, p in enumerate(self.pawns) if p["seat"] == me and not p["finished"]]
        my_best = min(mine, default=0.0)
        for i, p in enumerate(self.pawns):
            if p["seat"] != me and not p["finished"] and self.togo[i] - my_best <= 0:
                self.threat[i] += AHEAD_2P - THREAT_AHEAD


def scores(view: dict[str, Any], seat: str, legal: list[Action]) -> list[float]:
    """Normal's value of every legal action (higher is better): today's AI's numbers, with the
    heads-up threat weight of `_Ctx2`."""
    ctx = _Ctx2(view, seat)
    if view["phase"] == "choose":
        return [ctx.card_value(_pawn_index(view, seat, a.get("colour")), a["card"]) for a in legal]
    res = view["resolving"]
    p = _pawn_index(view, seat, res["colour"])
    blocked = view["pawns"][p]["blocked"]
    rest = ctx.masks[p]
    out = []
    for a in legal:
        q = None if a["type"] == "move" else _pawn_index(view, a["target"], a.get("target_colour"))
        out.append(ctx.use_value(p, res["card"], a["type"], q, blocked, rest))
    return out


def normal(view: dict[str, Any], seat: str, legal: list[Action]) -> Action:
    """Today's choice, but a seeded pick among the moves tied with the best."""
    if len(legal) == 1:
        return legal[0]
    values = scores(view, seat, legal)
    top = max(values)
    tied = [a for a, v in zip(legal, values, strict=True) if v >= top - TIE]
    if len(tied) == 1:
        return tied[0]
    return tied[Rng.from_seed(view_seed(view, seat, "detour")).below(len(tied))]


def shortlist(view: dict[str, Any], seat: str, legal: list[Action]) -> list[tuple[float, Action]]:
    """The moves within `NEAR` rounds of the best, best first (easy's mistakes, hard's candidates)."""
    ranked = sorted(zip(scores(view, seat, legal), range(len(legal)), strict=True), reverse=True)
    top = ranked[0][0]
    return [(v, legal[i]) for v, i in ranked if v >= top - NEAR]


#: easy's chance per decision of a beginner's move, and how far below the best it may be
EASY_CHANCE = {2: 0.25, 3: 0.6, 4: 0.8}
EASY_NEAR = 1.0


def easy(view: dict[str, Any], seat: str, legal: list[Action]) -> Action:
    """Today's scoring, but now and then (more often with more players, where single moves
    matter less) the weakest move within `EASY_NEAR` rounds of the best:
    plausible (never a move that throws a pawn back for nothing) yet clearly worse. Random picks
    among near-best moves were no mistake here: they beat normal."""
    if len(legal) == 1:
        return legal[0]
    values = _today_scores(view, seat, legal)
    rng = Rng.from_seed(view_seed(view, seat, "detour-easy"))
    top = max(values)
    if rng.below(1000) < EASY_CHANCE[len({p['seat'] for p in view['pawns']})] * 1000:
        near = [(v, i) for i, v in enumerate(values) if v >= top - EASY_NEAR]
        return legal[min(near)[1]]
    return legal[values.index(top)]


def _today_scores(view: dict[str, Any], seat: str, legal: list[Action]) -> list[float]:
    ctx = _Ctx(view, seat)
    if view["phase"] == "choose":
        return [ctx.card_value(_pawn_index(view, seat, a.get("colour")), a["card"]) for a in legal]
    res = view["resolving"]
    p = _pawn_index(view, seat, res["colour"])
    out = []
    for a in legal:
        q = None if a["type"] == "move" else _pawn_index(view, a["target"], a.get("target_colour"))
        out.append(ctx.use_value(p, res["card"], a["type"], q, view["pawns"][p]["blocked"], ctx.masks[p]))
    return out
