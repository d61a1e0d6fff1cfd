"""Rails & Sails AI levels (engine/games/rails_and_sails/levels.py): normal exchanges pieces when
its plan needs the other kind, keeps no ticket it cannot finish, answers the same view the same
way; easy plays legal moves that now and then differ from normal's."""

from __future__ import annotations

import copy
import heapq

from engine import registry
from engine.ai import policy
from engine.games.rails_and_sails import levels
from engine.games.rails_and_sails.ai import ADJ, SCARCE, Planner
from engine.games.rails_and_sails.mapdata import ROUTES_BY_ID
from engine.games.rails_and_sails.state import RSState
from tests.support.levels import moves_unlike_normal

R = registry.get("rails-and-sails")
SEATS = ["p1", "p2"]


def started(seed: int = 1) -> RSState:
    s = R.new_game(SEATS, seed)
    for i, seat in enumerate(SEATS):
        R.apply(s, seat, {"type": "keep_tickets", "ids": list(s.pending[i][:3])})
    for seat in SEATS:
        R.apply(s, seat, {"type": "choose_mix", "trains": 20})
    assert s.phase == "play"
    s.current = 0
    return s


def ask(s: RSState, seat: str = "p1") -> dict:
    legal = R.legal_actions(s, seat)
    action = levels.normal(R.view(s, seat), seat, legal)
    assert action in legal
    return action


def test_normal_exchanges_ships_for_the_trains_its_plan_needs() -> None:
    """Its ticket needs train routes, it has no trains left, ships to spare and trains in the
    box: taking trains (a point each) beats drawing cards it could never use."""
    s = started()
    s.tickets[0] = ["mumbai-beijing"]
    s.hands[0] = {}
    s.trains[0], s.ships[0] = 0, 40
    s.box_trains[0], s.box_ships[0] = 5, 10
    action = ask(s)
    assert action["type"] == "exchange" and action["trains"] > 0


def test_normal_does_not_exchange_when_the_pieces_fit_the_plan() -> None:
    s = started()
    s.tickets[0] = ["mumbai-beijing"]
    s.hands[0] = {}
    s.trains[0], s.ships[0] = 20, 40
    s.box_trains[0], s.box_ships[0] = 5, 10
    assert ask(s)["type"] != "exchange"


def test_normal_keeps_no_ticket_it_cannot_finish() -> None:
    """Toamasina's two routes are the opponent's: a Toamasina ticket can only fail."""
    s = started()
    for rid in ("toamasina-cape_town-ship", "toamasina-dar_es_salaam-ship"):
        assert rid in ROUTES_BY_ID
        s.claimed[rid] = 1
    s.tickets[0] = []
    s.pending[0] = ["moskva-toamasina", "mumbai-beijing", "hong_kong-jakarta", "bangkok-tokyo"]
    action = ask(s)
    assert action["type"] == "keep_tickets"
    assert "moskva-toamasina" not in action["ids"]
    assert action["ids"]


def test_normal_answers_the_same_view_the_same_way() -> None:
    s = R.new_game(SEATS, 11)
    normal = policy("rails-and-sails", "normal")
    steps = 0
    while not R.is_over(s) and steps < 120:
        seat = R.to_act(s)[0]
        legal = R.legal_actions(s, seat)
        view = R.view(s, seat)
        action = normal(view, seat, legal)
        assert normal(copy.deepcopy(view), seat, copy.deepcopy(legal)) == action
        R.apply(s, seat, action)
        steps += 1


def test_easy_plays_legal_moves_that_sometimes_differ_from_normal() -> None:
    differ, decisions = moves_unlike_normal("rails-and-sails", SEATS, 5)
    assert 0 < differ < decisions


def test_normal_takes_new_tickets_only_while_the_game_will_last() -> None:
    """Its plan is done (no open ticket): with the opponent far from the end it draws new
    tickets; with the opponent near it (few pieces left) it does not."""
    s = started()
    s.tickets[0] = []
    s.hands[0] = {}
    s.trains[0], s.ships[0] = 15, 25
    s.trains[1], s.ships[1] = 15, 30
    assert ask(s)["type"] == "tickets"
    s.trains[1], s.ships[1] = 8, 12
    assert ask(s)["type"] != "tickets"


def test_hard_weighs_ticket_decisions_and_turns_only_near_the_end() -> None:
    """Hard's candidates: several ticket sets at the setup, normal's move alone on a turn whose
    plan still needs cards (a few playouts cannot tell one card from another), but near the
    end (a seat with `HARD_ENDGAME` pieces or fewer) a draw or another claim too."""
    s = R.new_game(SEATS, 3)
    legal = R.legal_actions(s, "p1")
    view = R.view(s, "p1")
    ranked = levels.shortlist(view, "p1", legal)
    assert ranked[0][1] == levels.normal(view, "p1", legal) and len(ranked) > 1
    s = started()
    s.tickets[0] = ["mumbai-beijing"]
    s.hands[0] = {}
    legal = R.legal_actions(s, "p1")
    assert [a for _, a in levels.shortlist(R.view(s, "p1"), "p1", legal)] == [ask(s)]
    s.trains[1], s.ships[1] = 4, levels.HARD_ENDGAME - 4
    s.hands[0] = {"t:red": 4, "t:black": 3, "s:blue": 4, "s:green:2": 2}
    legal = R.legal_actions(s, "p1")
    ranked = levels.shortlist(R.view(s, "p1"), "p1", legal)
    assert ranked[0][1] == ask(s) and len(ranked) > 1
    assert all(a in legal for _, a in ranked)


def _step_cost(planner: Planner, rid: str, planned: set[str]) -> float | None:
    """A route's cost as a search asking at every step would work it out."""
    if planner.claimed.get(rid) == planner.seat or rid in planned:
        return 0.0
    if not planner.usable(rid):
        return None
    r = ROUTES_BY_ID[rid]
    have = planner.trains if r.kind == "train" else planner.ships
    return float(r.length + r.rough + (SCARCE * r.length if have < r.length else 0))


class _StepPlanner(Planner):
    """The planner searching with `_step_cost` (the reference for `route_costs`)."""

    def path(self, a: str, b: str, planned: set[str]) -> tuple[float, list[str]] | None:
        dist, prev, heap = {a: 0.0}, {}, [(0.0, a)]
        while heap:
            d, node = heapq.heappop(heap)
            if node == b:
                break
            if d > dist[node]:
                continue
            for nb, rid in ADJ[node]:
                c = _step_cost(self, rid, planned)
                if c is not None and d + c < dist.get(nb, 1e18):
                    dist[nb], prev[nb] = d + c, (node, rid)
                    heapq.heappush(heap, (d + c, nb))
        if b not in dist:
            return None
        routes, node = [], b
        while node != a:
            node, rid = prev[node]
            routes.append(rid)
        return dist[b], routes


def test_the_planner_costs_each_route_once_and_plans_as_costing_it_per_step() -> None:
    """`Planner.route_costs` is worked out once per planner; its plans are those of a search
    that costs every route at every step (free when planned or mine, never when not usable),
    on the boards of a played game, asked twice."""
    s = R.new_game(SEATS, 21)
    checked = 0
    while not R.is_over(s):
        seat = R.to_act(s)[0]
        legal = R.legal_actions(s, seat)
        view = R.view(s, seat)
        if view["phase"] == "play" and view["turn"] % 5 == 0:
            tickets = [t["id"] for t in view["private"]["tickets"]] + ["mumbai-beijing", "bangkok-tokyo"]
            planner = Planner(view, seat)
            for _ in range(2):
                assert planner.plan(tickets) == _StepPlanner(view, seat).plan(tickets)
            checked += 1
        R.apply(s, seat, levels.normal(view, seat, legal))
    assert checked > 5


def test_hard_scores_a_finished_playout_by_the_win_then_the_margin() -> None:
    """Hard plays its playouts to the end: a win counts one, each point of the margin over the
    best other seat a hundredth, for the winner and against the loser."""
    s = R.new_game(SEATS, 5)
    while not R.is_over(s):
        seat = R.to_act(s)[0]
        R.apply(s, seat, levels.normal(R.view(s, seat), seat, R.legal_actions(s, seat)))
    result = R.result(s)
    assert result is not None and len(result["winners"]) == 1
    scores = {r["seat"]: r["score"] for r in result["ranking"]}
    winner = result["winners"][0]
    loser = next(seat for seat in SEATS if seat != winner)
    margin = (scores[winner] - scores[loser]) / 100
    assert levels.evaluate(R, s, winner) == 1.0 + margin
    assert levels.evaluate(R, s, loser) == -margin
