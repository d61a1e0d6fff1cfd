"""Administration from the shell.

    python -m bot.admin verify [--db FILE] [--game N]   replay games from their logs
    python -m bot.admin games [--db FILE]               list the games in the store
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from bot.replay import verify
from bot.settings import load_settings
from bot.store import SQLiteStore, store_from_url


async def _run(args: argparse.Namespace) -> int:
    store = SQLiteStore(args.db) if args.db else store_from_url(load_settings().database_url)
    await store.open()
    try:
        games = await store.games()
        if args.game is not None:
            games = [g for g in games if g.id == args.game]
        if args.command == "games":
            for g in games:
                players = ", ".join(s.name for s in g.seats)
                print(f"#{g.id} {g.game_id:<18} {g.status:<9} v{g.version:<5} channel {g.channel_id}  {players}")
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
    return asyncio.run(_run(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
