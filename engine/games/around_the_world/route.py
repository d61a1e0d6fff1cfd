"""How many rounds a hand's card kinds leave a traveller to London, heads-up.

Heads-up the first home wins, and a turn without the cards for the leg is a round lost. Ships
are the scarce kind: the route asks for about ten ships and five trains, the deck holds thirty
of each, and both travellers want the ships the display shows. A hand of trains before a
two-ship leg is the commonest way to lose a turn: of 1,157 forced stays in 1,000 games of
normal's self-play, 1,029 were before Suez, Yokohama or New York, mostly with four to seven
cards in hand and one ship or none. The plan cost (`ai.plan_cost`) looks three legs ahead at
card values and cannot see it.

This model looks only at kinds, to London: every round the traveller takes one card, of the
kind it wants with the chance `SUPPLY` (else the other kind), and now and then (`EXTRA`) one
more of either kind (a bought card, a bonus chit); it travels whenever the hand pays the leg
(the cheapest arrow for what remains), else stays; the hand holds `D.HAND_LIMIT` cards at the
end of a turn, the kind it can spare discarded. The expected rounds are solved once, backwards
from London, for every leg and (ships, trains) held.
"""

from __future__ import annotations

import functools

from . import data as D

#: the chance the display offers the kind the traveller wants, and of one more card a round
#: (tuned against normal's self-play, 2 players: `keen.KEEN`)
SUPPLY = 0.6
EXTRA = 0.3
#: the most cards a table reaches (a hand after its take, a card bought or a chit)
_TOP = D.HAND_LIMIT + 2

Tables = tuple[dict[tuple[int, int, int], float], dict[tuple[int, int, int], float]]


def _needs(leg: int) -> list[tuple[int, int]]:
    return D.LEG_REQS[leg] or [(0, 0)]


@functools.cache
def _tables() -> Tables:
    """(after the take, before it): expected rounds from (leg, ships, trains) to London,
    the round in progress included."""
    after: dict[tuple[int, int, int], float] = {}
    before: dict[tuple[int, int, int], float] = {}
    counts = [(s, t) for s in range(_TOP + 1) for t in range(_TOP + 1 - s)]
    for s, t in counts:
        before[D.HOME, s, t] = 0.0

    def kept(p: int, s: int, t: int) -> float:
        """`before` of the hand after discarding down to the limit, the better kind kept."""
        while s + t > D.HAND_LIMIT:
            drop_ship = before[p, s - 1, t] if s else 1e9
            drop_train = before[p, s, t - 1] if t else 1e9
            s, t = (s - 1, t) if drop_ship <= drop_train else (s, t - 1)
        return before[p, s, t]

    for p in range(D.HOME - 1, -1, -1):
        for s, t in counts:
            before[p, s, t] = 2.0 * D.HOME
        # staying keeps the leg: iterate to the fixed point (a few dozen sweeps)
        for _ in range(200):
            change = 0.0
            for s, t in counts:
                paid = [kept(p + 1, s - a, t - b) for a, b in _needs(p) if s >= a and t >= b]
                after[p, s, t] = 1.0 + (min(paid) if paid else kept(p, s, t))
            for s, t in counts:
                if s + t + 1 > _TOP:
                    continue
                value = _take(after, p, s, t)
                if s + t + 2 <= _TOP:
                    value = (1 - EXTRA) * value + EXTRA * 0.5 * (_take(after, p, s + 1, t) + _take(after, p, s, t + 1))
                change = max(change, abs(value - before[p, s, t]))
                before[p, s, t] = value
            if change < 1e-9:
                break
    return after, before


def _take(after: dict[tuple[int, int, int], float], p: int, s: int, t: int) -> float:
    """One take: the wanted kind with the chance `SUPPLY`, else the other."""
    ship, train = after[p, s + 1, t], after[p, s, t + 1]
    return SUPPLY * min(ship, train) + (1 - SUPPLY) * max(ship, train)


def kinds(cards: list[str]) -> tuple[int, int]:
    """How many ships and how many trains among `cards`."""
    ships = sum(1 for c in cards if c[0] == "s")
    return ships, len(cards) - ships


def _fit(ships: int, trains: int, top: int) -> tuple[int, int]:
    """The counts within the tables' `top` cards, the larger kind cut first."""
    while ships + trains > top:
        if ships > trains:
            ships -= 1
        else:
            trains -= 1
    return ships, trains


def rounds_after_take(progress: int, ships: int, trains: int) -> float:
    """Expected rounds to London holding these kinds just after this round's take (this round
    counts)."""
    if progress >= D.HOME:
        return 0.0
    return _tables()[0][(progress, *_fit(ships, trains, _TOP))]


def rounds_before_take(progress: int, ships: int, trains: int) -> float:
    """Expected rounds to London holding these kinds before the next take (at a turn's end: the
    discard, the cards a journey leaves)."""
    if progress >= D.HOME:
        return 0.0
    return _tables()[1][(progress, *_fit(ships, trains, _TOP - 1))]
