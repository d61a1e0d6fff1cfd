"""Administration from the shell.

    python -m bot.admin verify [--db FILE] [--game N]   replay games from their logs
    python -m bot.admin games [--db FILE]               list the games in the store

Neither command creates a database: a missing file is an error (exit status 2), so a typo in
`--db` or DATABASE_URL does not quietly report "0 games".
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import time
from pathlib import Path

from bot.replay import verify
from bot.settings import load_settings
from bot.store import GameRecord, SQLiteStore, StoreError, store_from_url

HEADERS = ("#", "game", "status", "players", "moves/version", "channel", "last change")


def _cell(text: str, width: int = 40) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def games_table(rows: list[tuple[GameRecord, int]]) -> str:
    """The games as an aligned text table with a header line: (record, number of moves) each."""
    lines = [HEADERS]
    for g, moves in rows:
        players = ", ".join(f"{s.name} (AI)" if s.is_bot and not s.name.endswith("(AI)") else s.name
                            for s in sorted(g.seats, key=lambda s: s.position))
        lines.append((str(g.id), g.game_id, g.status, _cell(players), f"{moves}/{g.version}", str(g.channel_id),
                      time.strftime("%Y-%m-%d %H:%M", time.localtime(g.updated_at))))
    widths = [max(len(line[i]) for line in lines) for i in range(len(HEADERS))]
    numeric = {0, 4, 5}
    out = []
    for n, line in enumerate(lines):
        cells = [c.rjust(w) if i in numeric and n else c.ljust(w) for i, (c, w) in enumerate(zip(line, widths,
                                                                                                  strict=True))]
        out.append("  ".join(cells).rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


async def _run(args: argparse.Namespace, store: SQLiteStore) -> int:
    await store.open()
    try:
        games = await store.games()
        if args.game is not None:
            games = [g for g in games if g.id == args.game]
        if args.command == "games":
            if not games:
                print(f"no games in {store.path}")
                return 0
            print(games_table([(g, len(await store.actions(g.id))) for g in games]))
            return 0
        failures = 0
        for g in games:
            report = verify(g, await store.actions(g.id))
            mark = "ok " if report.ok else "BAD"
            print(f"{mark} #{g.id} {g.game_id} ({g.status}, {report.actions} actions)"
                  + (f": {report.problem}" if report.problem else ""))
            failures += not report.ok
        print(f"{len(games)} games checked, {failures} problems")
        return 1 if failures else 0
    finally:
        await store.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.admin")
    parser.add_argument("command", choices=["verify", "games"])
    parser.add_argument("--db", help="SQLite file (default: DATABASE_URL from the environment/.env)")
    parser.add_argument("--game", type=int, help="only this game (its number)")
    args = parser.parse_args(argv)
    try:
        store = SQLiteStore(args.db) if args.db else store_from_url(load_settings().database_url)
    except StoreError as exc:
        print(f"python -m bot.admin: {exc}", file=sys.stderr)
        return 2
    if store.path == ":memory:" or not Path(store.path).is_file():
        print(f"python -m bot.admin: no database at {store.path!r} (give --db FILE or set DATABASE_URL);"
              " nothing was created", file=sys.stderr)
        return 2
    try:
        return asyncio.run(_run(args, store))
    except (sqlite3.Error, StoreError) as exc:
        print(f"python -m bot.admin: cannot read {store.path!r}: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
