"""around-the-world's AI levels (see `engine.ai`): normal is today's heuristic (`ai.choose`)
with the weaknesses measured from outside fixed, and its pieces scored so that easy and hard
can see which moves are close to the best.

What normal changes (each measured with bench/bench_ai_levels.py against `today`):

- gold is spent: a travel card is bought whenever the seat cannot pay the leg (today waited for
  3 gold), or whenever the next legs are expected to save more days than the coins are worth;
  a coin is worth less as London nears (gold left at the end is worth nothing), so the last
  coins go on re-rolls and cards. Re-rolls are an optimal stop over the coins held.
- a display card's event is declined when the draw is bad: the event deck always holds both
  grey cards (a grey card rebuilds the whole deck), so a thin deck is likely to turn one over,
  discarding the seat's own event cards and costing days against those already home.
- heads-up (the first home wins, so a lost turn loses the race) it travels whenever it can,
  and values a display card by whether it lets it pay the next legs at all, gold (which buys
  cards) more highly; with more players it keeps today's par for a leg.

Easy is normal playing, with the chance `MISTAKE`, another move within `NEAR` days of the best
(`near`). Hard is `search.Hard`, this game's own search, with `shortlist`'s candidates and the
settings of `HARD`; heads-up it never weighs staying where normal does not stay (`shortlist`),
and it starts from, and plays out, its own heuristic `keen`: normal weighing the rounds its
hand's card kinds leave to London (`route`: ships are scarce, and a hand of trains before the
two-ship legs loses a turn) when it takes, buys, discards and chooses the cards to travel with,
the ship it leaves the other traveller, and playing its event cards as soon as they pay
(`KEEN`); keen alone scores 66-67 % against normal. The rows measured against normal, 2 and 4
players, are in docs/games/around-the-world.md. At 0.2 s a decision the few sampled worlds
leave most of the gain of a better move unseen (see `search.Z`; `HARD` for what else was
measured).
"""

from __future__ import annotations

from collections import Counter
from itertools import chain
from typing import Any

from engine.ai import HardConfig

from . import data as D
from .ai import (
    PAR,
    _action_bonus,
    _choose_discard,
    _Ctx,
    _find,
    _travel_at_par,
    _travel_cost,
)
from .ai import choose_in as today_in
from .keen import KEEN, Keen, card_days, discard_plan, event_to_play, journey_plan, left_to_next, paying
from .plans import _PLANS_MAX, _TABLES_MAX, _fast_set, _plan_cost
from .route import kinds, rounds_after_take, rounds_before_take

Action = dict[str, Any]
NLOC = len(D.LOCATIONS)

#: heads-up, days a leg may cost above today's par and still be travelled (a turn spent waiting
#: is a turn behind in the race)
TEMPO_2P = 6.0
#: days charged for a next leg the hand cannot pay (weighted 1 for this turn's leg, 0.5 for the
#: one after): heads-up a lost turn, with more players a wait
STUCK_2P = 5.0
STUCK_MANY = 4.0
#: the gold display card's bonus in coins (heads-up gold buys the cards a race needs)
GOLD_BONUS_2P = 2.0
GOLD_BONUS_MANY = 0.8
#: a coin's worth in days while `COIN_LEGS` or more legs remain, falling to `COIN_END` on the last
COIN = 1.0
COIN_END = 0.1
COIN_LEGS = 4
#: a non-grey event card's worth in days, on average, when drawn
EVENT_DRAW = 1.5
#: easy's alternatives: moves within this many days of the best
NEAR = 2.0
#: easy's chance per decision to play one of them instead (measured against normal, 1000 seeded
#: games each: 0.25 scored 30 % heads-up and 25 % with 4 players, 0.3 scores 27 % and 19 %)
MISTAKE = 0.3


#: `_plan`'s costs by (hand, progress, heads-up)
_STUCK: dict[tuple[tuple[str, ...], int], float] = {}


def _heads_up(view: dict[str, Any]) -> bool:
    return len(view["seats"]) == 2


def _coin(ctx: _Ctx) -> float:
    """A gold coin's worth in days: full while many legs remain to be paid for, little on the
    last legs (gold left at the end is worth nothing)."""
    left = D.HOME - ctx.progress
    if left >= COIN_LEGS:
        return COIN
    return COIN_END + (COIN - COIN_END) * max(0, left - 1) / (COIN_LEGS - 1)


def _grey_chance(view: dict[str, Any]) -> float:
    """The chance the next event card drawn is grey: the event deck always holds both grey cards
    (a grey card rebuilds the whole deck), so 2 in the deck's size."""
    size = view["event_deck"]
    if size <= 0:
        return 0.0
    return min(1.0, len(D.GREY_DAYS) / size)


def _held_event_value(ctx: _Ctx, card: str) -> float:
    if card == "elephant":
        return 2.0 if ctx.progress <= D.ELEPHANT_LEG else 0.8
    return _HELD.get(card, 1.0)


#: a held event card's worth in days (the elephant's depends on the leg)
_HELD = {"balloon": 2.0, "offer": 2.5, "propeller_train": 1.5, "submarine": 1.5,
         "connections": 2.0, "detective": 1.0, "princess": 1.0}


def event_draw_value(ctx: _Ctx, keen: Keen | None = None) -> float:
    """Days an event card drawn now is worth: a kept card (with `keen`, its own worth), unless it
    is grey, which discards the seat's event cards (and the opponents': good for it) and costs
    days against seats already home."""
    v = ctx.view
    if not v["event_deck"] and not v["event_discard"]:
        return 0.0
    pg = _grey_chance(v)
    mine = sum(_held_event_value(ctx, e) for e in ctx.events)
    theirs = sum(v["hands"][s]["event"] for s in ctx.opponents) / max(1, len(ctx.opponents))
    days = 1.5 if any(v["arrived"].values()) else 0.0
    draw = EVENT_DRAW if keen is None else keen.event
    return (1 - pg) * draw - pg * (mine - theirs + days)


def _plan(ctx: _Ctx, hand: list[str]) -> float:
    """Today's plan cost, plus a penalty for the first of the next two legs the hand cannot pay
    (memoised like `_plan_cost`)."""
    heads_up = _heads_up(ctx.view)
    key = (tuple(hand), ctx.progress + (100 if heads_up else 0))
    cost = _STUCK.get(key)
    if cost is None:
        if len(_STUCK) >= _PLANS_MAX:
            _STUCK.clear()
        cost = _STUCK[key] = _stuck_plan(hand, ctx.progress, STUCK_2P if heads_up else STUCK_MANY)
    return cost


def _stuck_plan(hand: list[str], progress: int, pen: float) -> float:
    cost = _plan_cost(hand, progress)
    remaining = list(hand)
    for k, w in enumerate((1.0, 0.5)):
        leg = progress + k
        if leg >= D.HOME:
            break
        if leg == D.ELEPHANT_LEG:
            continue
        _, cards = _fast_set(remaining, leg)
        if cards is None:
            cost += pen * w
            break
        for c in cards:
            remaining.remove(c)
    return cost


def take_scores(ctx: _Ctx, keen: Keen | None = None) -> list[float]:
    """Every legal take's worth in days (higher is better): how much the card lowers the plan,
    plus its action's bonus (and with `keen`, the rounds the hand then leaves)."""
    v = ctx.view
    heads_up = _heads_up(v)
    key = (tuple(ctx.hand), ctx.progress, heads_up, ctx.gold > 0)
    table = _TAKES.get(key)
    if table is None:
        if len(_TAKES) >= _TABLES_MAX:
            _TAKES.clear()
        table = _TAKES[key] = ({}, {})
    plans, balloons = table
    base = plans.get(None)
    if base is None:
        base = plans[None] = _plan(ctx, ctx.hand)
    gold_bonus = GOLD_BONUS_2P if heads_up else GOLD_BONUS_MANY
    out = []
    for a in ctx.legal:
        if a["type"] == "take_top":
            out.append(0.7)
            continue
        space = v["display"][a["slot"]]
        card = space["card"]
        plan = plans.get(card)
        if plan is None:
            plan = plans[card] = _plan(ctx, sorted(ctx.hand + [card]))
        score = base - plan
        action = space["action"]
        if action == "gold":
            score += gold_bonus * _coin(ctx) if v["gold_supply"] > 0 else 0.0
        elif action == "event":
            score += max(0.0, event_draw_value(ctx, keen))
        elif action == "balloon":
            bonus = balloons.get(card)
            if bonus is None:
                bonus = balloons[card] = _action_bonus(ctx, action, sorted(ctx.hand + [card]))
            score += bonus
        else:
            score += _action_bonus(ctx, action, sorted(ctx.hand + [card]))
        if keen is not None:
            score -= keen.take * rounds_after_take(ctx.progress, *kinds([*ctx.hand, card]))
            score -= keen.keep * card_days([card])
            score += keen.deny * left_to_next(ctx, a["slot"])
        out.append(score)
    return out


#: `take_scores`' plans and balloon bonuses by (hand, progress, heads-up, gold held): `_plan`
#: of the hand (None) and of the hand with a card, the display balloon's `_action_bonus` with
#: a card (bounded: `_TABLES_MAX`)
_TAKES: dict[tuple[tuple[str, ...], int, bool, bool], tuple[dict[str | None, float], dict[str, float]]] = {}


def _pending(ctx: _Ctx, keen: Keen | None = None) -> Action | None:
    """An event draw is declined when it is expected to cost more than it brings; the other
    display actions as today."""
    if ctx.turn.get("pending") in ("event", "chit_event"):
        if event_draw_value(ctx, keen) < 0:
            return _find(ctx.legal, type="skip_action")
        return _find(ctx.legal, type="use_action")
    return None


def _reroll_worth(ctx: _Ctx) -> float:
    """Days a re-roll is expected to save over keeping the die, net of the coin: positive means
    roll again (an optimal stop over the coins held, each coin at its worth)."""
    rolls = ctx.view.get("last_roll") or [1]
    die = rolls[-1]
    if ctx.gold < 1:
        return -1.0
    coin = _coin(ctx)
    expect = 3.5  # rolling once more with no coin left after it
    for _ in range(ctx.gold - 1):
        expect = sum(min(d, expect + coin) for d in range(1, 7)) / 6
    return die - expect - coin


def _roll(ctx: _Ctx) -> Action | None:
    if _reroll_worth(ctx) > 0:
        return _find(ctx.legal, type="reroll")
    return _find(ctx.legal, type="keep")


def _unseen_travel(ctx: _Ctx) -> dict[str, int]:
    """The travel cards the seat has not seen (the deck and the other hands' unknown cards),
    by card in the deck's order."""
    v = ctx.view
    known = v["known_travel"]
    shown = Counter(chain([d["card"] for d in v["display"]], v["travel_discard_pile"], ctx.hand,
                          *[known[s] for s in v["seats"] if s != ctx.seat]))
    return {c: n - shown[c] for c, n in _DECK.items() if n > shown[c]}


#: the travel deck's cards, how many of each
_DECK = Counter(D.travel_deck())


def buy_gain(ctx: _Ctx, keen: Keen | None = None) -> float:
    """Days the next legs are expected to save with one more card off the travel deck (with
    `keen`, and the rounds a card of either kind saves)."""
    pool = _unseen_travel(ctx)
    total = sum(pool.values())
    if not total or ctx.progress >= D.HOME:
        return 0.0
    gains = _card_gains(ctx.hand, ctx.progress)
    gain = 0.0
    for card, n in pool.items():
        gain += n * gains[card]
    gain /= total
    if keen is not None:
        rounds = rounds_after_take if ctx.turn.get("travels", 0) == 0 else rounds_before_take
        p = ctx.progress
        ships, trains = kinds(ctx.hand)
        either = 0.5 * (rounds(p, ships + 1, trains) + rounds(p, ships, trains + 1))
        gain += keen.buy * (rounds(p, ships, trains) - either)
    return gain


#: `_card_gains` by (hand, progress) (bounded: `_TABLES_MAX`)
_GAINS: dict[tuple[tuple[str, ...], int], dict[str, float]] = {}


def _card_gains(hand: list[str], progress: int) -> dict[str, float]:
    """Days each travel card would save the hand's plan (memoised)."""
    key = (tuple(hand), progress)
    gains = _GAINS.get(key)
    if gains is None:
        if len(_GAINS) >= _TABLES_MAX:
            _GAINS.clear()
        base = _plan_cost(hand, progress)
        gains = _GAINS[key] = {card: base - _plan_cost(sorted(hand + [card]), progress) for card in _DECK}
    return gains


def _par(ctx: _Ctx) -> float:
    p = ctx.progress
    return PAR[p % NLOC] + ctx.slack() + (TEMPO_2P if _heads_up(ctx.view) else 0.0)


def _travel(ctx: _Ctx, keen: Keen | None = None) -> Action | None:
    """Buy a card when stuck or when it pays, travel at a par (heads-up: nearly always), else
    today's ladder (events, the detective, staying)."""
    legal = ctx.legal
    p = ctx.progress
    if p >= D.HOME or p == D.ELEPHANT_LEG:
        return None
    can_travel = any(a["type"] == "travel" for a in legal)
    if keen is not None and ctx.turn.get("travels", 0) == 0:
        event = event_to_play(ctx, can_travel, keen)
        if event is not None:
            return event
    buy = _find(legal, type="buy", deck="travel")
    if buy is not None:
        if not can_travel and ctx.turn.get("travels", 0) == 0:
            return buy
        if buy_gain(ctx, keen) > D.BUY_COST * _coin(ctx):
            return buy
    if can_travel:
        events = [a for a in legal if a["type"] == "event"]
        if keen is None:
            return _travel_at_par(ctx, events, _par(ctx), _plan_cost)
        return _travel_at_par(ctx, paying(ctx, events, keen), _par(ctx), journey_plan(keen))
    return None


def normal(view: dict[str, Any], seat: str, legal: list[Action]) -> Action:
    """Today's choice, with gold spent, bad event draws declined and (heads-up) the race kept."""
    if len(legal) == 1:
        return legal[0]
    return normal_in(_Ctx(view, seat, legal))


def keen(view: dict[str, Any], seat: str, legal: list[Action]) -> Action:
    """Hard's own heuristic, the move its search starts from: normal, heads-up judging the
    hand's card kinds as well (`KEEN`)."""
    if len(legal) == 1:
        return legal[0]
    return normal_in(_Ctx(view, seat, legal), judge_of(view))


def judge_of(view: dict[str, Any]) -> Keen | None:
    """Keen's weights heads-up, where a lost turn loses the race; with more players none (keen
    is normal)."""
    return KEEN if _heads_up(view) else None


def normal_in(ctx: _Ctx, keen: Keen | None = None) -> Action:
    """`normal` of a built context (more than one legal action); with `keen`, hard's own."""
    legal = ctx.legal
    phase = ctx.view["phase"]
    act: Action | None = None
    if phase == "take":
        scores = take_scores(ctx, keen)
        act = legal[scores.index(max(scores))]
    elif phase == "action":
        act = _pending(ctx, keen)
    elif phase == "travel":
        act = _travel(ctx, keen)
    elif phase == "roll":
        act = _roll(ctx)
    elif phase == "discard" and keen is not None:
        act = _choose_discard(ctx, discard_plan(keen))
    if act is None or act not in legal:
        act = today_in(ctx)
    return act


def _travel_scored(ctx: _Ctx, keen: Keen | None = None) -> list[tuple[float, Action]]:
    """The travels against the par (with the rest of the hand's next legs), staying, buying."""
    par = _par(ctx)
    out: list[tuple[float, Action]] = []
    for a in ctx.legal:
        if a["type"] == "travel":
            rest = list(ctx.hand)
            for c in a["cards"]:
                rest.remove(c)
            out.append((par - _travel_cost(ctx, a) - 0.35 * _plan_cost(rest, ctx.progress + 1, 2), a))
        elif a["type"] in ("stay", "done"):
            out.append((0.0, a))
        elif a == {"type": "buy", "deck": "travel"}:
            out.append((buy_gain(ctx, keen) - D.BUY_COST * _coin(ctx), a))
    return out


def _discard_scored(ctx: _Ctx) -> list[tuple[float, Action]]:
    base = _plan_cost(ctx.hand, ctx.progress)
    out: list[tuple[float, Action]] = []
    for a in ctx.legal:
        card = a["card"]
        if card in D.CARD_INFO:
            rest = list(ctx.hand)
            rest.remove(card)
            out.append((base - _plan_cost(rest, ctx.progress), a))
        else:
            out.append((-_held_event_value(ctx, card), a))
    return out


def scored(view: dict[str, Any], seat: str, legal: list[Action]) -> list[tuple[float, Action]]:
    """The moves normal weighs at this decision, each with its worth in days (higher is
    better), best first: the takes; the travels (against the par), staying, buying; the
    discards; re-roll or keep. Elsewhere only normal's own choice."""
    ctx = _Ctx(view, seat, legal)
    phase = view["phase"]
    out: list[tuple[float, Action]] = []
    if phase == "take":
        out = list(zip(take_scores(ctx), legal, strict=True))
    elif phase == "travel" and ctx.progress < D.HOME and ctx.progress != D.ELEPHANT_LEG:
        out = _travel_scored(ctx)
    elif phase == "discard":
        out = _discard_scored(ctx)
    elif phase == "roll":
        worth = _reroll_worth(ctx)
        out = [(worth if a["type"] == "reroll" else 0.0, a) for a in legal]
    if not out:
        return [(0.0, normal(view, seat, legal))]
    out.sort(key=lambda sa: -sa[0])
    return out


def near(view: dict[str, Any], seat: str, legal: list[Action]) -> list[tuple[float, Action]]:
    """The moves within `NEAR` days of the best, best first: easy's mistakes."""
    ranked = scored(view, seat, legal)
    top = ranked[0][0]
    return [(s, a) for s, a in ranked if s >= top - NEAR]


#: easy plays, with the chance `MISTAKE`, another of the moves `near` the best (`engine.ai`)
mistakes = near


def shortlist(view: dict[str, Any], seat: str, legal: list[Action],
              keen: Keen | None = None) -> list[tuple[float, Action]]:
    """Hard's candidates, best first: the decisions that shape the race (which display card;
    travel with the best set, stay or buy first; draw an event or not). The others (the die,
    discards, where the detective goes) are left to normal: no search.

    Heads-up, staying is no candidate: hard stays only where normal does. Judged on 50
    decisions of normal's self-play where normal travels, plays an event card first or buys a
    card (200 worlds each), staying lost 0.26 of a win on average and gained in one (0.03); yet
    the few worlds of a decision let the search pick it now and then, a turn lost in a race
    where trailing at the end was hard's commonest loss (46 of its 70 losses in 200 games)."""
    phase = view["phase"]
    ctx = _Ctx(view, seat, legal)
    if phase == "take":
        return sorted(zip(take_scores(ctx, keen), legal, strict=True), key=lambda sa: -sa[0])
    if phase == "travel" and ctx.progress < D.HOME and ctx.progress != D.ELEPHANT_LEG:
        ranked = sorted(_travel_scored(ctx, keen), key=lambda sa: -sa[0])
        out: list[tuple[float, Action]] = []
        travel = False
        heads_up = _heads_up(view)
        for score, a in ranked:
            if heads_up and a["type"] == "stay":
                continue
            if a["type"] == "travel":
                if travel:
                    continue
                travel = True
            out.append((score, a))
        return out
    if phase == "action" and ctx.turn.get("pending") in ("event", "chit_event"):
        worth = event_draw_value(ctx, keen)
        return [(worth if a["type"] == "use_action" else 0.0, a) for a in legal
                if a["type"] in ("use_action", "skip_action")]
    return []


#: hard's own search (`search.Hard`, which `engine.ai` plays for this game): 0.2 CPU seconds per
#: decision counted from the call (normal's choice and the candidates included; a round starts
#: only when 1.25 times the slowest so far still fits, and the cyclic collector waits until the
#: search is over: collections of 20-40 ms landing inside a decision had pushed the worst one
#: to 0.29 s); at most 200 rounds of worlds. 0.22 s with `Z` 0.25 scored 66.0 % from seed 1000
#: and 60.0 % from seed 5000 (worst 234 ms): no clearer gain, less headroom. `engine.ai`'s
#: generic search (0.14 s, its clock after normal's choice, a playout's result scored by the
#: finish or a race estimate fitted to normal's self-play) scored 67 % from seed 1000 and
#: 54.0 % [44.3, 63.4] from seed 5000 (92 / 230-309 ms): no stronger, its worst over 0.25 s;
#: its playouts cut after 10 moves and scored by that estimate, 56.5 %
HARD = HardConfig(budget=0.2, rounds=200, candidates=3)
