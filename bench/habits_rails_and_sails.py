"""Rails & Sails AI habits: how a policy uses exchanges, spends its pieces and cards, and keeps
and completes tickets, over seeded self-play games.

    .venv/bin/python bench/habits_rails_and_sails.py --player today --games 40 --players 2
    .venv/bin/python bench/habits_rails_and_sails.py --player normal --games 40 --players 4

Every seat plays `--player` (a level of `engine.ai.policy`, or `today`, the registered `choose`),
or with `--against B` every other seat plays B (the first seat alternating between the two) and
only the player's seats are counted.
Printed per run: the share of turns offering an exchange on which it was taken; the mean trains,
ships and cards left at the end (and how many seats ended with 10+ cards); the mean tickets kept,
the share of kept tickets failed; the mean final score and decision CPU time.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import registry  # noqa: E402
from engine.core import Policy  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_ai_levels import make_player  # noqa: E402

GAME = "rails-and-sails"


def player(name: str) -> Policy:
    """`today` (the registered AI) or a level."""
    return make_player(GAME, name, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--player", default="today")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--against", help="the other seats' player (default: self-play)")
    args = parser.parse_args()
    rules = registry.get(GAME)
    choose = player(args.player)
    other = player(args.against) if args.against else choose
    offers = taken = 0
    trains = ships = cards = 0
    heavy = 0
    kept = failed = 0
    score = 0
    seats_n = 0
    decisions, cpu = 0, 0.0
    for g in range(args.games):
        seats = [f"p{i + 1}" for i in range(args.players)]
        mine = {s for i, s in enumerate(seats) if not args.against or (i + g) % 2 == 0}
        state = rules.new_game(seats, args.seed + g)
        while not rules.is_over(state):
            seat = rules.to_act(state)[0]
            legal = rules.legal_actions(state, seat)
            if len(legal) == 1:
                action = legal[0]
            else:
                t0 = time.thread_time()
                action = (choose if seat in mine else other)(rules.view(state, seat), seat, legal)
                if seat in mine:
                    cpu += time.thread_time() - t0
                    decisions += 1
            if seat in mine and any(a["type"] == "exchange" for a in legal):
                offers += 1
                taken += action["type"] == "exchange"
            rules.push(state, seat, action)
        result = rules.result(state)
        assert result is not None
        for i, row in enumerate(sorted(result["ranking"], key=lambda r: seats.index(r["seat"]))):
            if seats[i] not in mine:
                continue
            trains += state.trains[i]
            ships += state.ships[i]
            held = sum(state.hands[i].values())
            cards += held
            heavy += held >= 10
            kept += len(row["ticket_detail"])
            failed += sum(t["status"] == "open" for t in row["ticket_detail"])
            score += row["score"]
            seats_n += 1
    name = f"{args.player} vs {args.against}" if args.against else args.player
    print(f"{name:>6} {args.players}p {args.games} games: exchange {taken}/{offers} offers "
          f"({taken / max(1, offers):.1%}); left: {trains / seats_n:.1f} trains, {ships / seats_n:.1f} ships, "
          f"{cards / seats_n:.1f} cards ({heavy / seats_n:.0%} of seats 10+); tickets kept {kept / seats_n:.1f}, "
          f"failed {failed}/{kept} ({failed / max(1, kept):.1%}); score {score / seats_n:.1f}; "
          f"{cpu / max(1, decisions) * 1000:.1f} ms/decision")


if __name__ == "__main__":
    main()
