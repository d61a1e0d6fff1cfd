"""Keen: hard's own heads-up judgement on top of normal's (`levels.normal_in` takes a `Keen`),
the heuristic around the world's search starts from and plays out. Heads-up the first home
wins, so a lost turn is a lost race: keen weighs the rounds a hand's card kinds leave to London
(`route`), the best card it leaves the other traveller, and plays its event cards as soon as
they pay. With more players keen is normal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import data as D
from .ai import _best_set, _Ctx, balloon_die
from .cards import leg_days
from .plans import _plan_cost
from .route import kinds, rounds_after_take, rounds_before_take

Action = dict[str, Any]


@dataclass(frozen=True)
class Keen:
    """Hard's own heads-up judgement on top of normal's: the rounds its hand's card kinds leave
    to London (`route`), each worth these days when it weighs a display card, a card bought and
    a discard; and, when the other traveller takes after it this round, the rounds the best
    card left to it leaves (`deny`: both race for the same scarce ships). Normal plans three
    legs ahead at card values and cannot see a hand of trains drifting towards the two-ship legs.
    Keen also plays its event cards sooner (`event_to_play`): an Offer that lets a hand one card
    short travel, a booster as soon as it saves `boost` days."""

    take: float
    buy: float
    discard: float
    deny: float
    #: a drawn event card's worth in days (normal's: `EVENT_DRAW`); keen plays its cards sooner
    event: float
    #: the fewest days a booster must save on this turn's journey for keen to play it now
    boost: float
    #: days in the plan of the cards a journey leaves for each round their kinds leave to London
    #: (`LeavePlan`: which cards to travel with)
    travel: float
    #: days in the plan for each day of the cards a hand holds (`LeavePlan`, a display card):
    #: where the plan's few legs cannot tell two hands apart, the cheaper cards are worth keeping
    keep: float


#: hard's weights, measured in normal's place against normal, 2 players, each deal played twice
#: with the seats swapped (normal against itself: exactly 50 %): without `deny` 58.6-59.9 % of
#: 4,000-6,000 games, flat for these weights from two thirds to one and a half times and for
#: the route model's `SUPPLY` 0.5-0.7 and `EXTRA` 0.15-0.45; with `deny` 60.4 % and 60.0 % where
#: it had scored 58.9 % and 58.6 % (4,000 games from seed 500000, 6,000 from 700000). Without
#: normal's penalty for a next leg the hand cannot pay: the same; a larger gold bonus (3-5
#: coins): 2-5 points less. With its event cards played sooner (8,000 games from seed 500000,
#: 8,000 from 700000): 64.2 % and 63.8 %, where it had scored 60.5 % and 60.3 %: the Offer when
#: stuck +0.8 and +1.0 points, boosters that save a day or more (normal: three) +2.1 and +1.9,
#: `event` 2.5 (normal's 1.5) +0.5; flat: `boost` from -1 to 1 day for the Balloon, 0.5 to 2
#: for the others, held event cards worth half or one and a half times more when discarding,
#: the display balloon's worth 0.7 and 1.5 times (-0.8). Its journeys weighing the kinds they
#: leave (`travel` 14): 64.6 %, 64.3 % and 64.7 % of 12,000 from 300000, where it had scored
#: 64.2 %, 63.8 % and 64.1 %; 25 the same.
#: Spending the dearest cards where the plan cannot tell (`keep` 0.1, with the boosters that save
#: nothing no longer played: `paying`): 67.1 %, 66.4 % and 67.1 %; `keep` 0.02-0.2 alike, and
#: again a plateau for `take`, `buy`, `discard`, `deny` and `travel` at about 2/3 and 1.5 times
#: (66.6-67.4 % of the 8,000 from 500000); `event` 2 or 3: 65.9 % and 66.4 %.
KEEN = Keen(take=6.0, buy=7.0, discard=6.0, deny=3.0, event=2.5, boost=0.5, travel=14.0, keep=0.1)


def left_to_next(ctx: _Ctx, slot: int) -> float:
    """Heads-up, when the other traveller takes after this seat this round: the rounds to London
    its hand leaves with the best display card left after this seat takes `slot` (its hand's
    kinds as far as seen, the unseen cards half of each), else 0."""
    v = ctx.view
    if v["first_player"] != ctx.seat or not ctx.opponents:
        return 0.0
    other = ctx.opponents[0]
    seen = v["known_travel"][other]
    unseen = v["hands"][other]["travel"] - len(seen)
    ships, trains = kinds(seen)
    ships, trains = ships + unseen // 2, trains + unseen - unseen // 2
    left = [kinds([space["card"]]) for k, space in enumerate(v["display"]) if k != slot and space["card"]]
    if not left:
        return 0.0
    p = ctx.progress_of(other)
    return min(rounds_after_take(p, ships + s, trains + t) for s, t in left)


@dataclass(frozen=True)
class LeavePlan:
    """Keen's plan of a hand: `_plan_cost` plus `weight` days for each round its kinds leave to
    London and `keep` days for each day of its cards. It judges the cards a journey leaves (of
    two sets that cost the same days, the one that keeps the ships the next legs need; where the
    plan's legs cannot tell, the cheaper cards: a Submarine or a balloon on the dearest ship) and
    the cards a discard keeps."""

    weight: float
    keep: float

    def __call__(self, hand: list[str], progress: int, legs: int = 3) -> float:
        if progress >= D.HOME:
            return 0.0
        return (_plan_cost(hand, progress, legs) + self.weight * rounds_before_take(progress, *kinds(hand))
                + self.keep * card_days(hand))


def card_days(cards: list[str]) -> int:
    """The days printed on `cards`."""
    return sum(D.CARD_INFO[c][1] for c in cards)


def journey_plan(keen: Keen) -> LeavePlan:
    """The plan keen chooses the cards to travel with by."""
    return LeavePlan(keen.travel, keen.keep)


def discard_plan(keen: Keen) -> LeavePlan:
    """The plan keen chooses a discard by."""
    return LeavePlan(keen.discard, keen.keep)


def event_to_play(ctx: _Ctx, can_travel: bool, keen: Keen) -> Action | None:
    """Keen's event card before its journey: an Offer (or the Princess as one) that lets a hand
    one card short travel at all, else a booster that saves at least `keen.boost` days on its
    best journey. A card held is often lost (a grey card discards every held card, the hand limit
    counts them), so keen plays one as soon as it pays; normal waits for a bigger saving and
    never looks at the Offer when it cannot travel."""
    events = [a for a in ctx.legal if a["type"] == "event"]
    if not events:
        return None
    if not can_travel:
        if _best_set(ctx.hand, ctx.progress, offer=True)[1] is None:
            return None
        return next((a for a in events if _acts_as(a) == "offer"), None)
    if ctx.turn.get("armed"):
        return None
    best = _boostable_journey(ctx, keen)
    if best is None:
        return None
    return next((a for a in events if _saving(ctx, best, _acts_as(a)) >= keen.boost), None)


def paying(ctx: _Ctx, events: list[Action], keen: Keen) -> list[Action]:
    """The event cards keen lets normal's ladder weigh before its journey: not a Propeller Train,
    Submarine or Balloon that saves nothing on its best journey (normal plays them on a dear card
    even in a pair: a pair of 🚢8 counts 8 days, with a Submarine on one 10, and the card is lost
    at the end of the turn)."""
    best = _boostable_journey(ctx, keen)
    if best is None:
        return events
    return [a for a in events if _acts_as(a) not in _DAY_BOOSTERS or _saving(ctx, best, _acts_as(a)) > 0]


def _boostable_journey(ctx: _Ctx, keen: Keen) -> Action | None:
    """Keen's best journey when a booster could lower its days: one on cards, not a balloon ride."""
    _, best = ctx.best_travel(journey_plan(keen))
    if best is None or not best["cards"] or "balloon" in best:
        return None
    return best


#: the event cards that lower a journey's days
_DAY_BOOSTERS = ("balloon", "propeller_train", "submarine")


def _acts_as(event: Action) -> str:
    """The event card an event action plays (the Princess names the card she acts as)."""
    card: str = event["card"]
    return str(event.get("as")) if card == "princess" else card


def _saving(ctx: _Ctx, travel: Action, card: str) -> float:
    """Days a booster saves on `travel` (a journey at fixed days): the Balloon the die for its
    dearest card (re-rolls with the gold held), the Propeller Train and the Submarine 1 and 2
    days for a train and a ship."""
    cards = travel["cards"]
    days = travel["days"]
    if card == "balloon":
        die = balloon_die(ctx.gold)
        return max(days - leg_days(cards, {i: 0}) - die for i in range(len(cards)))
    if card in _BOOSTED:
        kind, value = _BOOSTED[card]
        return float(max((days - leg_days(cards, {i: value}) for i, c in enumerate(cards)
                          if D.CARD_INFO[c][0] == kind), default=0))
    return 0.0


#: the kind of card a day booster applies to and the days it then counts
_BOOSTED = {"propeller_train": ("train", 1), "submarine": ("ship", 2)}
