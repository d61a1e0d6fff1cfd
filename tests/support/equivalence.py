"""Seeded equivalence runs: the proof that engine optimisations change no behaviour.

Each game plays many seeded games (mixed player counts and options; one seat in three games
follows the AI, the rest pick a random legal action). Every step feeds a running sha256:
who may act, the acting seat's legal actions (canonical JSON, in their listed order, which
the UI shows), the action, the events, the dumped state, whether mutated actions are legal
and why `apply` refuses them; every few steps also the public and the seat's view, a
`resample_hidden` copy and a `load(dump(s))` swap (so no cache can survive a reload).
The recorded digests (`tests/data/equivalence.json`) come from the code before
optimising; `tests/test_engine_equivalence.py` replays and compares.

    .venv/bin/python -m tests.support.equivalence --record [--games 200]   # write the digests
    .venv/bin/python -m tests.support.equivalence [--games 30]              # compare, print mismatches
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import sys
import time
from pathlib import Path
from typing import Any

from engine import IllegalAction, Rng, registry
from engine.core import Rules

DATA = Path(__file__).resolve().parent / "data" / "equivalence.json"
GAMES = ("detour", "around-the-world", "rails-and-sails", "eighty-days")
RECORDED_GAMES = 200
MAX_STEPS = 20_000


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def setup(rules: Rules, index: int) -> tuple[list[str], dict[str, Any]]:
    """The seats and options of game `index`: player counts cycle, options cycle more slowly."""
    counts = range(rules.min_players, rules.max_players + 1)
    players = counts[index % len(counts)]
    keys = sorted(k for k, v in rules.option_choices.items() if isinstance(v, list))
    combos = list(itertools.product(*(rules.option_choices[k] for k in keys)))
    options = dict(zip(keys, combos[(index // len(counts)) % len(combos)], strict=True)) if keys else {}
    return [f"p{k + 1}" for k in range(players)], options


def mutations(action: dict[str, Any]) -> list[dict[str, Any]]:
    """Moves that differ from `action` in one field (mostly illegal ones)."""
    out = []
    for key, value in action.items():
        if key == "type":
            continue
        changed = json.loads(canonical(action))
        if isinstance(value, bool):
            changed[key] = not value
        elif isinstance(value, int):
            changed[key] = value + 1
        elif isinstance(value, str):
            changed[key] = value + "-x"
        elif isinstance(value, list):
            changed[key] = value[1:] if value else ["x"]
        else:
            changed[key] = None
        out.append(changed)
    return out


def play(rules: Rules, index: int) -> tuple[int, str]:  # long: one loop feeding every observable to the digest
    """Play game `index` of `rules`; return (steps, hex digest of everything observed)."""
    seats, options = setup(rules, index)
    state = rules.new_game(seats, 1_000 + index, options)
    rng = Rng.from_seed(index * 7 + 3)
    ai_seat = seats[index % len(seats)] if index % 3 == 0 else None
    digest = hashlib.sha256(canonical([rules.id, seats, options]))
    feed = digest.update
    steps = 0
    while not rules.is_over(state):
        if steps >= MAX_STEPS:
            raise AssertionError(f"{rules.id} game {index} did not end in {MAX_STEPS} steps")
        acting = rules.to_act(state)
        feed(canonical(acting))
        seat = acting[rng.below(len(acting))]
        legal = rules.legal_actions(state, seat)
        feed(canonical(legal))
        if steps % 10 == 0:
            feed(canonical(rules.view(state, None)))
            feed(canonical(rules.view(state, seat)))
        if steps % 25 == 0:
            twin = rules.resample_hidden(state, steps)
            feed(canonical(rules.dump(twin)))
            feed(canonical(rules.legal_actions(twin, seat)))
        action = rules.ai_action(state, seat) if seat == ai_seat else legal[rng.below(len(legal))]
        for k, changed in enumerate(mutations(action)):
            ok = rules.is_legal(state, seat, changed)
            feed(b"1" if ok else b"0")
            if not ok and k == 0 and steps % 5 == 0:
                try:
                    rules.apply(state, seat, changed)
                except IllegalAction as exc:
                    feed(canonical([exc.code, exc.params]))
                else:
                    raise AssertionError("apply accepted an action is_legal refused")
        feed(canonical(action))
        # every other step through the unchecked `push`: the digests prove push ≡ apply on legal actions
        feed(canonical((rules.push if steps % 2 else rules.apply)(state, seat, action)))
        dumped = canonical(rules.dump(state))
        feed(dumped)
        steps += 1
        if steps % 20 == 0:
            state = rules.load(json.loads(dumped))
    feed(canonical(rules.result(state)))
    feed(canonical(rules.view(state, None)))
    return steps, digest.hexdigest()[:32]


def run(game_id: str, games: int) -> list[list[Any]]:
    """[steps, digest] per game index."""
    rules = registry.get(game_id)
    return [list(play(rules, index)) for index in range(games)]


def load_recorded() -> dict[str, list[list[Any]]]:
    data: dict[str, list[list[Any]]] = json.loads(DATA.read_text())["games"]
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--record", action="store_true", help="write tests/data/equivalence.json")
    parser.add_argument("--games", type=int, default=RECORDED_GAMES, help="games per game id")
    parser.add_argument("--only", choices=GAMES, action="append", help="only these games (compare mode)")
    args = parser.parse_args()
    recorded = {} if args.record else load_recorded()
    out: dict[str, list[list[Any]]] = {}
    failed = False
    for game_id in args.only or GAMES:
        t0 = time.perf_counter()
        out[game_id] = run(game_id, args.games)
        took = time.perf_counter() - t0
        steps = sum(s for s, _ in out[game_id])
        if not args.record:
            bad = [i for i, row in enumerate(out[game_id]) if row != recorded[game_id][i]]
            failed |= bool(bad)
            print(f"{game_id}: {len(bad)} of {args.games} games differ {bad[:20]}")
        print(f"{game_id}: {args.games} games, {steps} steps, {took:.1f} s", file=sys.stderr)
    if args.record:
        DATA.parent.mkdir(exist_ok=True)
        text = json.dumps({"version": 1, "games": out}, separators=(",", ":"))
        DATA.write_text(text.replace('],[', '],\n[') + "\n")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
