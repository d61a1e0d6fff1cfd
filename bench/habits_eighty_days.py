"""How often an eighty-days AI level uses search and give-back (a script, not a test).

    .venv/bin/python bench/habits_eighty_days.py --policy today --games 40 --players 2
    .venv/bin/python bench/habits_eighty_days.py --policy normal --games 40 --players 4

Self-play with one policy in every seat (seeded games, default options). Counted on a seat's
own turns (no decision waiting): how many decisions had `search` legal and how many chose it,
the same for a voluntary `give_back` (an overflow's forced give-back is not counted) and for
the positions where a give-back pays (a purchase the held adventure needs is on offer but does
not fit, and giving back a spare item makes room), and per
game and seat the mean score, adventures completed and the share arriving in London.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_ai_levels import make_player  # noqa: E402

from engine import registry  # noqa: E402
from engine.games.eighty_days import content as C  # noqa: E402
from engine.games.eighty_days.ai import _Me  # noqa: E402
from engine.games.eighty_days.levels import _room_for  # noqa: E402


def blocked(view: dict, seat: str, legal: list[dict]) -> bool:
    """A purchase of an item the held adventure still misses is on offer but does not fit, and
    giving back a spare item would make room: the position where a give-back pays."""
    me = _Me(view, seat)
    for a in legal:
        if a["type"] == "buy":
            k = C.ITEM_INDEX[a["item"]]
            if me.missing[k] and not me.fits_with(k) and _room_for(me, k) is not None:
                return True
    return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--policy", default="today", help="today, easy, normal, hard")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    rules = registry.get("eighty-days")
    choose = make_player("eighty-days", args.policy, None)
    legal_n = {"search": 0, "give_back": 0, "blocked": 0}
    chosen = {"search": 0, "give_back": 0, "blocked": 0}
    score = adventures = arrived = 0.0
    for g in range(args.games):
        seats = [f"p{i + 1}" for i in range(args.players)]
        state = rules.new_game(seats, args.seed + g)
        while not rules.is_over(state):
            seat = rules.to_act(state)[0]
            legal = rules.legal_actions(state, seat)
            action = choose(rules.view(state, seat), seat, legal)
            free = any(a["type"] in ("end_turn", "pass") for a in legal)
            if free:
                if blocked(rules.view(state, seat), seat, legal):
                    legal_n["blocked"] += 1
                    chosen["blocked"] += action["type"] == "give_back"
                for kind in ("search", "give_back"):
                    if any(a["type"] == kind for a in legal):
                        legal_n[kind] += 1
                        chosen[kind] += action["type"] == kind
            rules.push(state, seat, action)
        result = rules.result(state)
        assert result is not None
        for row in result["ranking"]:
            score += row["score"]
            adventures += row["adventures"]
            arrived += row["distance"] == 0
    n = args.games * args.players
    print(f"{args.policy:7} {args.players}p {args.games} games: "
          + "  ".join(f"{k} chosen {chosen[k]}/{legal_n[k]} ({chosen[k] / max(1, legal_n[k]):.1%})"
                      for k in ("search", "give_back"))
          + f"  give_back when a needed purchase does not fit: {chosen['blocked']}/{legal_n['blocked']}"
          + f"  searches per seat and game: {chosen['search'] / (args.games * args.players):.2f}"
          + f"  | per seat: score {score / n:.1f}, adventures {adventures / n:.2f}, arrived {arrived / n:.0%}")


if __name__ == "__main__":
    main()
