"""Writer process for the store's crash and multi-process tests (not a test module).

Run from the repository root:

    python -m tests.support.store_writer_proc burst  DB GAME_PK COUNT TAG [--durable]
    python -m tests.support.store_writer_proc hammer DB GAME_PK COUNT TAG [--durable]

DB is a SQLite file or any database URL (`postgresql://…` too).

`burst` commits COUNT actions back to back on game GAME_PK, keeping its own record
between commits. `hammer` first prints "ready" and waits for one line on stdin (so
several processes start together), then makes COUNT successful commits, re-reading the
game before each try and retrying on `VersionConflict`; at the end it prints
"done <conflicts>".

Both print "ack <version> <token>" and flush right after each `commit_action` returns, so
every line the parent reads is an acknowledged commit. The action carries the token and
the version it creates (`n`); the state written is `make_state(n, token)`, so a reader
can check that the stored state is exactly the last logged action's.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from bot.store import Store, VersionConflict, store_from_url

SEATS = ("p1", "p2", "p3", "p4")
CITIES = ("London", "Paris", "Suez", "Bombay", "Calcutta", "Hong Kong", "Yokohama", "San Francisco",
          "Omaha", "New York", "Liverpool", "Brindisi", "Aden", "Singapore", "Shanghai", "Chicago")


def make_state(n: int, token: str) -> dict[str, Any]:
    """A deterministic, game-like state (about 4 KB of JSON) for version `n`."""
    return {
        "n": n,
        "last_token": token,
        "turn": SEATS[n % len(SEATS)],
        "round": n // len(SEATS),
        "board": [{"city": c, "owner": SEATS[(i + n) % 4], "tokens": [(i * n + k) % 7 for k in range(6)],
                   "route": {"to": CITIES[(i + 1) % len(CITIES)], "cost": (i * 3 + n) % 11, "built": i % 3 == 0}}
                  for i, c in enumerate(CITIES)],
        "players": {s: {"coins": (n * 7 + j) % 50, "hand": [f"card-{(n + j * 13 + k) % 97}" for k in range(12)],
                         "score": n + j, "passed": False, "name": f"Phileas {j} 🌍"}
                    for j, s in enumerate(SEATS)},
        "deck": [f"card-{(k * 31 + n) % 97}" for k in range(60)],
        "log": [{"seat": SEATS[k % 4], "text": f"moved from {CITIES[k % 16]} to {CITIES[(k + 5) % 16]}"}
                for k in range(max(0, n - 12), n)],
    }


def make_action(n: int, token: str) -> dict[str, Any]:
    return {"type": "move", "n": n, "token": token, "to": CITIES[n % len(CITIES)]}


def ack(version: int, token: str) -> None:
    sys.stdout.write(f"ack {version} {token}\n")
    sys.stdout.flush()


async def burst(store: Store, game_pk: int, count: int, tag: str) -> None:
    game = await store.get_game(game_pk)
    assert game is not None, f"no game {game_pk}"
    for i in range(count):
        n = game.version + 1
        token = f"{tag}-{i}"
        version = await store.commit_action(
            game, expected_version=game.version, seat=SEATS[n % 4], action=make_action(n, token),
            events=[{"type": "moved", "n": n}], state=make_state(n, token), status="running", actor="human",
            remind_at=1_000.0 + n, timeout_at=2_000.0 + n,
        )
        ack(version, token)


async def hammer(store: Store, game_pk: int, count: int, tag: str) -> None:
    print("ready", flush=True)
    sys.stdin.readline()
    conflicts = 0
    done = 0
    while done < count:
        game = await store.get_game(game_pk)
        assert game is not None, f"no game {game_pk}"
        n = game.version + 1
        token = f"{tag}-{done}"
        try:
            version = await store.commit_action(
                game, expected_version=game.version, seat=SEATS[n % 4], action=make_action(n, token),
                events=[{"type": "moved", "n": n}], state=make_state(n, token), status="running", actor="human",
                remind_at=1_000.0 + n, timeout_at=2_000.0 + n,
            )
        except VersionConflict:
            conflicts += 1
            continue
        ack(version, token)
        done += 1
    print(f"done {conflicts}", flush=True)


async def main(argv: list[str]) -> None:
    mode, path, game_pk, count, tag = argv[:5]
    store = store_from_url(path, durable="--durable" in argv[5:])
    await store.open()
    try:
        if mode == "burst":
            await burst(store, int(game_pk), int(count), tag)
        elif mode == "hammer":
            await hammer(store, int(game_pk), int(count), tag)
        else:
            raise SystemExit(f"unknown mode {mode!r}")
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
