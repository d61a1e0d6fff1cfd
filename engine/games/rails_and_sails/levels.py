"""Rails & Sails' AI levels (see `engine.ai`): today's planner (`ai.choose`) with the habits
that cost it points fixed, measured with bench/habits_rails_and_sails.py.

Today's AI plans the cheapest chains for its tickets and claims only planned routes, so it
ended games with 16-24 cards in hand and unused ships, hardly ever exchanged pieces, and lost
7-11 % of its kept tickets. Normal keeps the plan but also:

- draws new tickets only while the opponents have pieces enough for the game to last (today
  drew them whenever its plan was done and it had 22 pieces, and was then caught by the end
  with tickets unfinished): with a finished plan and the end in sight it claims routes for
  points instead, and brings the end closer for an opponent still building;
- near the end (a seat with `NEAR_END` pieces or fewer) spends cards the plan does not need on
  routes that score, never with pieces the plan needs, and exchanges pieces when its hand can
  pay a route that scores more than the exchange costs (besides today's exchanges for the plan);
- draws the kind of card it has pieces for (no train cards once its trains are spoken for);
- keeps tickets as today, with a bonus for cities where it has a harbor or that its other
  tickets name (harbors score per completed ticket);
- when any claim will do, claims the one worth most, not the longest.

Measured and left out (each lost games to today): spending spare cards earlier in the game
(it takes pieces later tickets need), a ticket budget from the turns left (kept too few).

Easy is normal with seeded beginner's moves (`easy`): now and then it keeps every ticket offered,
or plays another sensible move than normal's.

Hard searches (see `engine.ai`) in 2-player games, where moves differ most (`shortlist`); in
bigger games it plays normal's move. It weighs which tickets to keep, whether to take new ones
once its plan is done, and near the end (`HARD_ENDGAME`: a seat with 14 pieces or fewer, or the
last round) a draw and the longest other claims against normal's move, each played out to the
end by normal at every seat from the same sampled worlds (`HARD`). `Planner` answers as
today's, faster (each route's cost worked out once per planner), which makes whole playouts
affordable: 15-40 ms from the start of a game. Against normal, heads-up: 64.0 % of 200 games
from seed 1000, 58.8 % from 5000, 62.5 % of 300 from 20000, 63.2 % from 40000 (46.2 % with the
playouts cut after 24 moves and scored by an estimate of the final margin, as before), 64.5 %
from 60000; 62.6 % [59.7, 65.4] of the 1,100; 16 ms a decision on average, 210 ms worst. In
4-player games it plays normal's moves (43 % [34 %, 53 %] of 100 games, seed 1000+: the seats'
luck).

Measured without gain over whole playouts (200 games from seed 5000): the endgame search from
24 pieces (57.5 %); 6 candidates, 5 ticket sets in 0.2 s (58.2 %). Before whole playouts were
affordable (cut playouts, 100 games on seeds 1000+ / 5000+): more rounds and candidates,
plans memoised across boards, searching the piece mix, face-up cards towards a harbor, worlds
dealing the opponent tickets that fit its routes, claims that block its likely routes (49-64 %
/ 49-57 %); every turn move weighed with cut playouts (18 %: the estimate gave cards in hand no
worth). A stronger base than normal for hard found nothing (each variant against normal,
600-800 games): normal's constants moved (ticket reserve 24-36 pieces, cost weight 0.4-0.8,
ticket-drawing thresholds: 45-51 %), harbor cards wanted more (50-53 %), payments sparing
harbor cards (50 %).
"""

from __future__ import annotations

from typing import Any

from engine.ai import HardConfig, view_seed
from engine.rng import Rng

from .ai import (
    HARBOR_CITIES,
    Planner,
    _best_claim,
    _deficits,
    _exchange_choice,
    _hand_counts,
    _harbor_choice,
    _harbor_wish,
    _last_resort,
    _open_tickets,
    decide,
)
from .ai import _pick_draw as today_pick_draw
from .mapdata import COLOURS, ROUTE_POINTS, ROUTES, ROUTES_BY_ID, TICKETS_BY_ID, WILD
from .payments import ship_payments, train_payment

Action = dict[str, Any]

#: near the end, spend spare cards on an unplanned route worth at least this (route points
#: less the cost of the wilds and planned cards it takes); earlier, spending lost games
SPEND_MIN_NEAR_END = 2.0
#: the game is near its end when some seat has this many pieces or fewer
NEAR_END = 12
#: a wild spent on an unplanned route costs this much; a card the plan needs, this much
WILD_COST = 2.0
PLANNED_CARD_COST = 3.0
#: ticket keeping: pieces held back, more per extra player, weight of the cost, harbor bonus
KEEP_RESERVE = 32
KEEP_CROWD = 8
KEEP_COST = 0.6
HARBOR_BONUS = 6.0
#: new tickets only with this many pieces and the opponents' fewest pieces at least this
TICKETS_MIN_PIECES = 22
TICKETS_MIN_OTHERS = {2: 34, 3: 30, 4: 28, 5: 28}


class _Ctx:
    """What a turn's choice reads: the plan of the open tickets, the hand, pieces and the end."""

    def __init__(self, view: dict[str, Any], seat: str) -> None:
        self.view = view
        self.seat = seat
        self.planner = Planner(view, seat)
        self.tickets = view["private"]["tickets"]
        self.open_ids = _open_tickets(view)
        _, self.needed, self.feasible = self.planner.plan(self.open_ids)
        self.hand_list: list[str] = view["private"]["hand"]
        self.hand = _hand_counts(self.hand_list)
        self.final = view["final_turns_left"] is not None
        self.trains = self.planner.trains
        self.ships = self.planner.ships
        self.t_need = sum(ROUTES_BY_ID[r].length for r in self.needed if ROUTES_BY_ID[r].kind == "train")
        self.s_need = sum(ROUTES_BY_ID[r].length for r in self.needed if ROUTES_BY_ID[r].kind == "ship")
        self.spare_t = self.trains - self.t_need
        self.spare_s = self.ships - self.s_need
        others = [
            p["trains"] + p["ships"] for s, p in view["pieces"].items() if s != seat and p is not None
        ]
        self.others_min = min(others, default=60)
        self.mine = self.trains + self.ships
        self.near_end = self.final or min(self.others_min, self.mine) <= NEAR_END
        self.players = len(view["seats"])
        self.short = _shortfall(self.needed, self.hand)


def _shortfall(needed: set[str], hand: dict[str, int]) -> int:
    """Cards the planned routes still lack: colour deficits and grey needs beyond the spare
    cards of the kind, less the wilds."""
    def_t, def_s, any_t, any_s = _deficits(needed, hand)
    need_t = dict.fromkeys(COLOURS, 0)
    need_s = dict.fromkeys(COLOURS, 0)
    for rid in needed:
        r = ROUTES_BY_ID[rid]
        if r.colour != "grey" and not r.rough:
            (need_t if r.kind == "train" else need_s)[r.colour] += r.length
    spare_t = sum(max(0, hand.get(f"t:{c}", 0) + hand.get(f"t:{c}:h", 0) - need_t[c]) for c in COLOURS)
    spare_s = sum(max(0, hand.get(f"s:{c}", 0) + 2 * hand.get(f"s:{c}:2", 0) - need_s[c]) for c in COLOURS)
    total = sum(def_t.values()) + sum(def_s.values()) + max(0, any_t - spare_t) + max(0, any_s - spare_s)
    return max(0, total - hand.get(WILD, 0))


def _after(hand: dict[str, int], cards: list[str]) -> dict[str, int]:
    out = dict(hand)
    for c in cards:
        out[c] = out.get(c, 0) - 1
    return out


def _spend_value(ctx: _Ctx, action: Action) -> float | None:
    """An unplanned claim's worth: its points less the wilds and the planned cards it takes;
    None when it takes pieces the plan needs (outside the last round)."""
    r = ROUTES_BY_ID[action["route"]]
    spare = ctx.spare_t if r.kind == "train" else ctx.spare_s
    if r.length > spare and not ctx.final:
        return None
    cards = action["cards"]
    extra = _shortfall(ctx.needed, _after(ctx.hand, cards)) - ctx.short if ctx.needed else 0
    wilds = cards.count(WILD)
    waste = 0.0
    if r.kind == "ship":  # a double ship paying one space is half lost
        waste = 0.3 * max(0, sum(2 if c.endswith(":2") else 1 for c in cards if c != WILD) + wilds - r.length)
    return ROUTE_POINTS[r.length] - WILD_COST * wilds - PLANNED_CARD_COST * extra - waste


def _spend_choice(ctx: _Ctx, claims: list[Action]) -> Action | None:
    """The best unplanned claim when it is worth a turn: near the end or in the last round."""
    if ctx.final:
        floor = 0.5
    elif ctx.near_end:
        floor = SPEND_MIN_NEAR_END
    else:
        return None
    best, best_v = None, floor - 1e-9
    for a in claims:
        v = _spend_value(ctx, a)
        if v is not None and v > best_v:
            best, best_v = a, v
    return best


def _best_spend(ctx: _Ctx, claims: list[Action]) -> Action:
    """The claim worth most (today: the longest), when any claim will do."""
    return max(claims, key=lambda a: (_spend_value(ctx, a) or -99.0, -len(a["cards"])))


def _free_route(ctx: _Ctx, rid: str) -> bool:
    return ctx.planner.usable(rid)


def _exchange_for_cards(ctx: _Ctx, exchanges: list[Action]) -> Action | None:
    """Pieces of the kind the hand can pay a route with but lacks, when the route scores more
    than the pieces swapped cost (and the other kind has spare pieces)."""
    options = {a["trains"] for a in exchanges}
    best: tuple[float, int] | None = None
    for r in ROUTES:
        if r.length < 3 or not _free_route(ctx, r.id):
            continue
        have = ctx.trains if r.kind == "train" else ctx.ships
        missing = r.length - max(0, have - (ctx.t_need if r.kind == "train" else ctx.s_need))
        if missing <= 0:
            continue
        other_spare = ctx.spare_s if r.kind == "train" else ctx.spare_t
        if other_spare < missing:
            continue
        n = missing if r.kind == "train" else -missing
        if n not in options:
            continue
        if r.kind == "train":
            colours = COLOURS if r.colour == "grey" else (r.colour,)
            pays = any(train_payment(ctx.hand, c, r.length, r.rough) is not None for c in colours)
        else:
            colours = COLOURS if r.colour == "grey" else (r.colour,)
            pays = any(ship_payments(ctx.hand, c, r.length) for c in colours)
        if not pays:
            continue
        gain = ROUTE_POINTS[r.length] - missing
        if gain >= 3 and (best is None or gain > best[0]):
            best = (gain, n)
    if best is None:
        return None
    return {"type": "exchange", "trains": best[1]}


def _prefer(ctx: _Ctx, t_def: int, s_def: int, t_cards: int, s_cards: int) -> str:
    """The deck to draw from: the kind the plan lacks most (today), else the kind with pieces
    to spare beyond the cards held; never a kind whose cards already outnumber its pieces."""
    if t_def or s_def:
        prefer = "train" if t_def >= s_def and t_def > 0 else "ship"
    else:
        prefer = "ship" if ctx.spare_s - s_cards >= ctx.spare_t - t_cards else "train"
    t_full = t_cards >= ctx.trains + 2
    s_full = s_cards >= ctx.ships + 2
    if prefer == "train" and t_full and not s_full:
        return "ship"
    if prefer == "ship" and s_full and not t_full:
        return "train"
    return prefer


def _pick_draw(ctx: _Ctx, draws: list[Action], wanted: dict[str, float]) -> Action | None:
    """Today's draw, but a kind of card the pieces cannot use is worth nothing, and with no
    deficit the kind with spare pieces (and cards toward a long route) is preferred."""
    if not draws:
        return None
    hand = ctx.hand
    def_t, def_s, any_t, any_s = _deficits(ctx.needed, hand)
    t_cards = sum(k for c, k in hand.items() if c[0] == "t" and c != WILD)
    s_cards = sum(k * (2 if c.endswith(":2") else 1) for c, k in hand.items() if c[0] == "s")
    t_full = t_cards >= ctx.trains + 2
    s_full = s_cards >= ctx.ships + 2
    prefer = _prefer(ctx, sum(def_t.values()) + any_t, sum(def_s.values()) + any_s, t_cards, s_cards)
    return today_pick_draw(draws, ctx.needed, hand, ctx.view, wanted, prefer=prefer, full=(t_full, s_full))


def _want_tickets(ctx: _Ctx) -> bool:
    if ctx.final or ctx.mine < TICKETS_MIN_PIECES:
        return False
    return ctx.others_min >= TICKETS_MIN_OTHERS.get(ctx.players, 30)


def _turn(view: dict[str, Any], seat: str, legal: list[Action]) -> Action:
    by_type: dict[str, list[Action]] = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append(a)
    ctx = _Ctx(view, seat)
    claims = by_type.get("claim", [])
    draws = by_type.get("draw", [])
    wanted = _harbor_wish(view, seat, ctx.tickets, ctx.feasible, ctx.hand)
    if view["drawn"]:
        return _pick_draw(ctx, draws, wanted) or legal[0]

    harbors = by_type.get("harbor", [])
    if harbors:
        harbor = _harbor_choice(harbors, ctx.tickets, ctx.feasible, ctx.final, ctx.planner)
        if harbor is not None:
            return harbor

    planned = [a for a in claims if a["route"] in ctx.needed]
    if planned:
        return _best_claim(planned)
    return _turn_unplanned(ctx, legal, by_type, wanted)


def _turn_unplanned(ctx: _Ctx, legal: list[Action], by_type: dict[str, list[Action]],
                    wanted: dict[str, float]) -> Action:
    """No harbor to build, no planned route to claim: tickets, points, pieces or cards."""
    claims = by_type.get("claim", [])
    draws = by_type.get("draw", [])
    if not ctx.needed:
        if by_type.get("tickets") and _want_tickets(ctx):
            return by_type["tickets"][0]
        if claims:  # nothing to plan: points
            return _best_spend(ctx, claims)
    elif ctx.final and claims:
        return _best_spend(ctx, claims)

    exchanges = by_type.get("exchange", [])
    if exchanges and ctx.needed:
        exchange = _exchange_choice(exchanges, ctx.needed, ctx.planner)
        if exchange is not None:
            return exchange
    other = _spend_choice(ctx, claims)
    if other is None and exchanges and ctx.near_end:
        other = _exchange_for_cards(ctx, exchanges)
    if other is None:
        other = _pick_draw(ctx, draws, wanted)
    return other if other is not None else _last_resort(legal, by_type, ctx.final)


def _keep(view: dict[str, Any], seat: str, legal: list[Action]) -> Action:
    """The kept set scored best by `_keep_scores`."""
    scores = _keep_scores(view, seat, legal)
    return legal[scores.index(max(scores))]


def _keep_scores(view: dict[str, Any], seat: str, legal: list[Action]) -> list[float]:
    """Today's worth of each set of tickets to keep (points less cost, a budget of pieces), plus
    a bonus for the cities a harbor of mine or another of my tickets names (harbors score per
    ticket)."""
    planner = Planner(view, seat)
    setup = view["phase"] == "setup_tickets"
    base_cost, base_plan, _ = planner.plan(_open_tickets(view)) if not setup else (0.0, set(), [])
    pieces = 60 if setup else planner.trains + planner.ships
    crowd = KEEP_CROWD * (len(view["seats"]) - 2)
    budget = max(0.0, pieces - KEEP_RESERVE - crowd - base_cost)
    built = {c for c, s in view["harbors"].items() if s == seat}
    named: dict[str, int] = {}
    for t in view["private"]["tickets"]:
        for c in t["cities"]:
            named[c] = named.get(c, 0) + 1
    out = []
    for action in legal:
        ids = sorted(action["ids"], key=lambda t: -TICKETS_BY_ID[t].points[0])
        cost, _, feasible = planner.plan(ids, base_plan)
        points = sum(TICKETS_BY_ID[t].points[0] for t in feasible)
        lost = sum(TICKETS_BY_ID[t].points[-1] for t in ids if t not in feasible)
        score = points - KEEP_COST * cost - 2 * lost
        if cost > budget:
            score -= 3 * (cost - budget) + 20
        if HARBOR_BONUS:
            cities: dict[str, int] = {}
            for t in feasible:
                for c in TICKETS_BY_ID[t].cities:
                    if c in HARBOR_CITIES:
                        cities[c] = cities.get(c, 0) + 1
            for c, k in cities.items():
                if c in built:
                    score += HARBOR_BONUS * k
                elif named.get(c, 0) + k >= 2 and c not in view["harbors"]:
                    score += 0.5 * HARBOR_BONUS * (named.get(c, 0) + k - 1)
        out.append(score)
    return out


def normal(view: dict[str, Any], seat: str, legal: list[Action]) -> Action:
    """Today's planner with its card, piece, exchange and ticket habits fixed (module doc)."""
    return decide(view, seat, legal, keep=_keep, turn=_turn)



def _alternatives(view: dict[str, Any], seat: str, legal: list[Action]) -> list[Action]:
    """Sensible moves other than normal's `best` (easy's mistakes): other ticket sets by
    their worth; on a turn the best unplanned claim, new tickets, the blind draws and the
    face-up cards (one per card)."""
    best = normal(view, seat, legal)
    kind = legal[0]["type"]
    if kind == "choose_mix":
        return []
    if kind == "keep_tickets":
        scores = _keep_scores(view, seat, legal)
        ranked = sorted(range(len(legal)), key=lambda i: -scores[i])
        return [legal[i] for i in ranked if legal[i] != best][:4]
    out: list[Action] = []

    def add(action: Action | None) -> None:
        if action is not None and action != best and action not in out:
            out.append(action)

    by_type: dict[str, list[Action]] = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append(a)
    if not view["drawn"]:
        ctx = _Ctx(view, seat)
        claims = by_type.get("claim", [])
        if claims:
            add(_best_spend(ctx, claims))
        if by_type.get("tickets") and not ctx.final:
            add(by_type["tickets"][0])
    cards: set[str] = set()
    for a in by_type.get("draw", []):
        if a["source"] != "face_up":
            add(a)
        elif a["card"] != WILD and a["card"] not in cards:
            cards.add(a["card"])
            add(a)
    return out


def shortlist(view: dict[str, Any], seat: str, legal: list[Action]) -> list[tuple[float, Action]]:
    """Hard's candidates, best first: normal's move, and where a choice weighs most (which
    tickets to keep, whether to take new ones; near the end, a draw or another claim,
    `_end_alternatives`) the close alternatives; elsewhere, and in games of more than
    `HARD_MAX_PLAYERS`, normal's move alone (a few playouts cannot tell one card from another,
    and with more players a playout takes most of the budget: 4-player search lost to normal,
    44 % of 100 games)."""
    best = normal(view, seat, legal)
    out: list[tuple[float, Action]] = [(1.0, best)]
    kind = legal[0]["type"]
    if len(view["seats"]) > HARD_MAX_PLAYERS:
        return out
    if kind == "keep_tickets":
        scores = _keep_scores(view, seat, legal)
        top = max(abs(max(scores)), 1.0)
        ranked = sorted(range(len(legal)), key=lambda i: -scores[i])
        out += [(scores[i] / top, legal[i]) for i in ranked if legal[i] != best][:HARD_KEEP_OPTIONS]
    elif kind != "choose_mix" and not view["drawn"] and _endgame(view):
        out += [(0.5, a) for a in _end_alternatives(view, seat, legal, best)]
    elif kind != "choose_mix" and not view["drawn"] and view["final_turns_left"] is None:
        tickets = [a for a in legal if a["type"] == "tickets"]
        if tickets and best["type"] != "tickets":
            if HARD_TICKETS and not _Ctx(view, seat).needed:  # plan done: new tickets or not
                out.append((0.5, tickets[0]))
        elif tickets:  # normal takes tickets: the alternative is its best claim or draw
            ctx = _Ctx(view, seat)
            claims = [a for a in legal if a["type"] == "claim"]
            draws = [a for a in legal if a["type"] == "draw"]
            other = _best_spend(ctx, claims) if claims else _pick_draw(ctx, draws, {})
            if other is not None:
                out.append((0.5, other))
    return out


def _endgame(view: dict[str, Any]) -> bool:
    """The last round, or some seat has `HARD_ENDGAME` pieces or fewer: playouts to the end
    are short enough to play whole."""
    if view["final_turns_left"] is not None:
        return True
    return min((p["trains"] + p["ships"] for p in view["pieces"].values() if p is not None), default=60) <= HARD_ENDGAME


def _end_alternatives(view: dict[str, Any], seat: str, legal: list[Action], best: Action) -> list[Action]:
    """Near the end, the moves hard weighs against normal's: a draw (normal's pick), and the
    longest claims of other routes (fewest wilds, fewest cards)."""
    out: list[Action] = []
    draws = [a for a in legal if a["type"] == "draw"]
    if best["type"] != "draw" and draws:
        draw = _pick_draw(_Ctx(view, seat), draws, {})
        if draw is not None:
            out.append(draw)
    routes = {best.get("route")}
    claims = sorted((a for a in legal if a["type"] == "claim"),
                    key=lambda a: (-ROUTES_BY_ID[a["route"]].length, a["cards"].count(WILD), len(a["cards"])))
    for a in claims:
        if a["route"] not in routes:
            routes.add(a["route"])
            out.append(a)
    return out


def evaluate(rules: Any, state: Any, seat: str) -> float:
    """A whole playout's worth to `seat` for hard: a win (shared when tied) plus the score
    margin over the best other seat, a hundred points counting as a win."""
    result = rules.result(state)
    if result is None:  # not reached: `engine.ai.playout` plays to the end
        return 0.0
    scores = {r["seat"]: r["score"] for r in result["ranking"]}
    mine = scores.pop(seat, 0)
    win = 1.0 / len(result["winners"]) if seat in result["winners"] else 0.0
    return win + (mine - max(scores.values(), default=0)) / 100.0


#: hard: CPU seconds per decision, rounds of sampled worlds, candidates. Playouts go to the end
#: (15-40 ms from the start, a few from the end): scoring cut playouts by an estimate of the
#: final margin had made hard no better than normal; a round starts only while it likely fits
#: the budget, so the worst decision stays near 0.21 s
HARD = HardConfig(budget=0.18, rounds=30, candidates=4)
HARD_KEEP_OPTIONS = 3
#: whether hard weighs new tickets against normal's move once its plan is done
HARD_TICKETS = True
#: hard searches games of at most this many players (else it plays normal's moves)
HARD_MAX_PLAYERS = 2
#: from when some seat has this many pieces or fewer (or the last round), hard also weighs
#: turn moves (`_end_alternatives`)
HARD_ENDGAME = 14


#: easy: its chance per turn of another sensible move than normal's, and of keeping every
#: ticket offered (a beginner's greed)
EASY_CHANCE = 0.1
EASY_KEEP_ALL = 0.2


def easy(view: dict[str, Any], seat: str, legal: list[Action]) -> Action:
    """Normal, but now and then a beginner's move: keeps every ticket offered, or plays another
    move of `shortlist` (a draw, new tickets, another claim) than normal's best."""
    if len(legal) == 1:
        return legal[0]
    rng = Rng.from_seed(view_seed(view, seat, "rails-easy"))
    kind = legal[0]["type"]
    if kind == "keep_tickets" and rng.below(1000) < EASY_KEEP_ALL * 1000:
        return max(legal, key=lambda a: len(a["ids"]))
    best = normal(view, seat, legal)
    if kind in ("keep_tickets", "choose_mix") or rng.below(1000) >= EASY_CHANCE * 1000:
        return best
    others = _alternatives(view, seat, legal)
    return others[rng.below(len(others))] if others else best
