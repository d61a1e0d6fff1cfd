"""Around the World: the habits of an AI level in self-play, the weaknesses issue 24 names.

    .venv/bin/python bench/habits_around_the_world.py --player today --games 100 --players 2
    .venv/bin/python bench/habits_around_the_world.py --player normal --games 100 --players 4

Every seat plays the same policy (`today`: the registered `choose`; or a level of
`engine.ai.policy`). Printed per player count: the share of seats that end the game holding
unspent gold (any, and enough to buy a card; the mean gold left), how often a display card's action was declined
(``skip_action`` among the display-action decisions that offered a choice), gold spent on
buying and on re-rolls per seat, and the days of the winner and of every seat that arrived.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from statistics import mean

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import registry  # noqa: E402
from engine.core import Policy  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_ai_levels import make_player  # noqa: E402

GAME = "around-the-world"


def player(name: str) -> Policy:
    """`today` (the registered AI) or a level."""
    return make_player(GAME, name, None)


def habits(name: str, players: int, games: int, seed0: int) -> str:
    rules = registry.get(GAME)
    choose = player(name)
    seats = [f"p{i + 1}" for i in range(players)]
    left_gold: list[int] = []
    offered: Counter[str] = Counter()
    declined: Counter[str] = Counter()
    spent = Counter[str]()
    winner_days: list[int] = []
    arrived_days: list[int] = []
    rounds: list[int] = []
    for g in range(games):
        state = rules.new_game(seats, seed0 + g)
        while not rules.is_over(state):
            seat = rules.to_act(state)[0]
            legal = rules.legal_actions(state, seat)
            action = choose(rules.view(state, seat), seat, legal)
            assert action in legal, action
            if state.phase == "action" and any(a["type"] == "skip_action" for a in legal):
                offered[state.pending or "?"] += 1
                if action["type"] == "skip_action":
                    declined[state.pending or "?"] += 1
            if action["type"] == "buy":
                spent["buy_" + action["deck"]] += 2
            elif action["type"] == "reroll":
                spent["reroll"] += 1
            rules.push(state, seat, action)
        result = rules.result(state)
        assert result is not None
        rounds.append(state.round)
        left_gold += state.gold
        for row in result["ranking"]:
            if row["arrived"]:
                arrived_days.append(row["days"])
            if row["seat"] in result["winners"] and row["arrived"]:
                winner_days.append(row["days"])
    n_seats = len(left_gold)
    holding = sum(1 for g in left_gold if g > 0) / n_seats
    buying = sum(1 for g in left_gold if g >= 2) / n_seats
    total_off = sum(offered.values())
    total_dec = sum(declined.values())
    per_action = ", ".join(f"{k} {declined[k]}/{offered[k]}" for k in sorted(offered))
    gold_use = ", ".join(f"{k} {v / n_seats:.2f}" for k, v in sorted(spent.items()))
    return (f"{name:>6} {players}p {games} games: seats ending with gold {holding:.1%} "
            f"(2+ coins, enough to buy a card: {buying:.1%}; mean left {mean(left_gold):.2f}); "
            f"display actions declined {total_dec}/{total_off} "
            f"({total_dec / max(1, total_off):.1%}: {per_action}); gold spent per seat: {gold_use or 'none'}; "
            f"winner days {mean(winner_days) if winner_days else float('nan'):.1f}, arrived days "
            f"{mean(arrived_days):.1f}, rounds {mean(rounds):.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--player", action="append", help="today, easy, normal, hard (default: today, normal)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, action="append", help="default 2 and 4")
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    for name in args.player or ("today", "normal"):
        for players in args.players or (2, 4):
            print(habits(name, players, args.games, args.seed), flush=True)


if __name__ == "__main__":
    main()
