"""Seeded whole games through `TableService`, digested reply by reply: the proof that a
rewrite of the service changes nothing players get (run it on two commits, compare).

    .venv/bin/python -m tests.support.service_digest --out /tmp/after.json
    .venv/bin/python -m tests.support.service_digest --compare /tmp/before.json /tmp/after.json

Each game: a host with a fixed seed, a second human, an AI seat and a follower by DM; moves
by the menu's private buttons (what the AI would choose), an undo now and then, a reminder and
a stand-in turn through the scheduler, status/hand/log asks, to the end. Only the service's
public methods and the custom ids it sends are used, so the script runs on any version.
Each reply is digested from what a person gets: destination, recipient, text, files' bytes,
buttons (labels and ids), pings.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from bot.replies import Button, Reply, Select, User, Where
from bot.service import TableService, action_hash
from bot.settings import Settings
from bot.store import SQLiteStore
from engine import registry

GAMES = ("detour", "around-the-world", "rails-and-sails", "eighty-days")
ALICE, BOB, CAROL = User(11, "Alice", "en"), User(12, "Bob", "de"), User(13, "Carol", "fr")
HERE = Where(channel_id=500, guild_id=900, guild_locale="en")


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def digest(reply: Reply) -> str:
    """One reply as the person gets it (the fields every version of `Reply` has)."""
    parts: list[Any] = [reply.to, reply.user_id, reply.channel_id, reply.text, sorted(reply.mentions),
                        reply.follow, [[f.filename, hashlib.sha256(f.data).hexdigest()] for f in reply.files],
                        [e.title for e in reply.embeds], [e.description for e in reply.embeds]]
    for row in reply.rows:
        parts.append([[c.label, c.custom_id, c.style, c.emoji, c.disabled] if isinstance(c, Button)
                      else [c.custom_id, c.placeholder, [(o.label, o.value) for o in c.options]]
                      for c in row if isinstance(c, (Button, Select))])
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:16]


async def play(game: str, seed: int, db: Path, max_moves: int) -> list[list[str]]:
    """The digests of every call's replies, in order."""
    clock = Clock()
    store = SQLiteStore(str(db))
    await store.open()
    service = TableService(store, Settings(), clock=clock, render_in_thread=False)
    service.memories = False
    steps: list[list[str]] = []
    users = {u.id: u for u in (ALICE, BOB)}

    async def call(replies: list[Reply]) -> list[Reply]:
        # a follower's copy is marked, so a comparison can tell copies apart from the rest
        steps.append([("f:" if r.follow is not None else "") + digest(r) for r in replies])
        return replies

    try:
        await call(await service.new_game(ALICE, HERE, game, seed=seed))
        await call(await service.join(BOB, HERE))
        await call(await service.addbot(ALICE, HERE))
        await call(await service.follow(CAROL, HERE))
        await call(await service.start(ALICE, HERE))
        rules = registry.get(game)
        for n in range(max_moves):
            record = await store.active_game(HERE.channel_id)
            if record is None or record.status != "running":
                break
            state = rules.load(record.state)
            humans = [s for s in record.seats if not s.is_bot and s.seat in rules.to_act(state)]
            if not humans:
                break
            seat = humans[0]
            user = users[seat.user_id]
            if n % 23 == 5:
                await call(await service.status(user, HERE))
                await call(await service.hand(user, HERE))
                await call(await service.log_(user, HERE))
            if n % 37 == 20:  # nobody moves: a reminder, then a stand-in turn
                clock.now += 13 * 3600
                await call(await service.tick())
                clock.now += 37 * 3600
                await call(await service.tick())
                continue
            own = await store.seat_action_count(record.id, seat.seat or "")
            await call(await service.menu(user, HERE))
            action = rules.ai_action(state, seat.seat or "")
            replies = await call(await service.component(
                user, HERE, f"pp:{record.id}:{own}:pact:{action_hash(action)}"))
            undo = next((c for r in replies for row in r.rows for c in row
                         if isinstance(c, Button) and c.custom_id.split(":")[3:4] == ["undo"]), None)
            if undo is not None and n % 5 == 0:
                await call(await service.component(user, HERE, undo.custom_id))
            clock.now += 60
        await call(await service.log_(ALICE, HERE, count=50))
    finally:
        await store.close()
    return steps


async def run(seeds: int, max_moves: int) -> dict[str, list[list[str]]]:
    out: dict[str, list[list[str]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for game in GAMES:
            for seed in range(1, seeds + 1):
                out[f"{game}:{seed}"] = await play(game, seed, Path(tmp) / f"{game}-{seed}.sqlite3", max_moves)
    return out


def compare(a: dict[str, list[list[str]]], b: dict[str, list[list[str]]], *, new_copies: bool = False) -> int:
    """How many games differ. `new_copies`: calls where `b` only adds follower copies (a
    change that now reaches followers, e.g. an undo) count as equal, and are reported."""
    differ = 0
    for key in sorted(set(a) | set(b)):
        x, y = a.get(key, []), b.get(key, [])
        added = 0
        if new_copies and len(x) == len(y):
            for i, (p, q) in enumerate(zip(x, y, strict=True)):
                if p != q and p == [r for r in q if not r.startswith("f:")] and \
                        not any(r.startswith("f:") for r in p):
                    y = y[:i] + [p] + y[i + 1:]
                    added += 1
        first = next((i for i, (p, q) in enumerate(zip(x, y, strict=False)) if p != q), None)
        if first is None and len(x) == len(y):
            extra = f"; {added} calls now also send follower copies" if added else ""
            print(f"{key}: {len(x)} calls, {sum(map(len, x))} replies, identical{extra}")
            continue
        differ += 1
        print(f"{key}: differs at call {first if first is not None else min(len(x), len(y))} "
              f"({len(x)} vs {len(y)} calls)")
    return differ


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.support.service_digest")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--seeds", type=int, default=1)
    parser.add_argument("--max-moves", type=int, default=400)
    parser.add_argument("--compare", nargs=2, type=Path)
    parser.add_argument("--new-copies", action="store_true",
                        help="calls that only add follower copies count as equal (and are counted)")
    args = parser.parse_args()
    if args.compare:
        a, b = (json.loads(p.read_text()) for p in args.compare)
        return 1 if compare(a, b, new_copies=args.new_copies) else 0
    result = asyncio.run(run(args.seeds, args.max_moves))
    text = json.dumps(result)
    if args.out:
        args.out.write_text(text)
    else:
        sys.stdout.write(text)
    print(f"{len(result)} games, {sum(len(v) for v in result.values())} calls", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
