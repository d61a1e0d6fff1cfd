"""Administration from the shell.

    python -m bot.admin verify [--db URL] [--game N]        replay games from their logs
    python -m bot.admin games [--db URL]                    list the games in the store
    python -m bot.admin migrate --from URL --to URL [--force]
        copy every game, log, seat, preference, meta, result, rating and follow row from one
        store to another (SQLite <-> PostgreSQL), then verify the copy by comparing and
        replaying it

A URL is a SQLite file path, `sqlite:///path` or `postgresql://…`. No command creates a
SQLite database it should read: a missing file is an error (exit status 2), so a typo in
`--db`, `--from` or DATABASE_URL does not quietly report "0 games". `migrate` refuses a
target that already holds rows unless `--force` (which replaces them).
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import time
from pathlib import Path

import asyncpg

from bot.replay import verify
from bot.settings import load_settings
from bot.store import COPY_TABLES, GameRecord, PostgresStore, SQLiteStore, StoreError, store_from_url

AnyStore = SQLiteStore | PostgresStore

#: the tables copied as they are (no replay checks them): compared row by row
SOCIAL_TABLES = ("game_results", "result_seats", "ratings", "follows")

HEADERS = ("#", "game", "status", "players", "moves/version", "channel", "last change")


def _cell(text: str, width: int = 40) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def games_table(rows: list[tuple[GameRecord, int]]) -> str:
    """The games as an aligned text table with a header line: (record, number of moves) each."""
    lines = [HEADERS]
    for g, moves in rows:
        players = ", ".join(f"{s.name} (AI)" if s.is_bot and not s.name.endswith("(AI)") else s.name
                            for s in sorted(g.seats, key=lambda s: s.position))
        # a game whose channel is gone shows as paused, and a message Discord has not taken yet as owed
        status = g.status + (" (paused)" if g.paused_at is not None else "") + \
            (" (message owed)" if g.announce_due is not None and g.announce_tries else "")
        lines.append((str(g.id), g.game_id, status, _cell(players), f"{moves}/{g.version}", str(g.channel_id),
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


async def _run(args: argparse.Namespace, store: AnyStore) -> int:
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


def _store(url: str) -> AnyStore:
    """The store a URL names; a SQLite file must exist already (StoreError if not)."""
    store = store_from_url(url)
    assert isinstance(store, SQLiteStore | PostgresStore)  # the two built-in backends
    if isinstance(store, SQLiteStore) and (store.path == ":memory:" or not Path(store.path).is_file()):
        raise StoreError(f"no database at {store.path!r}; nothing was created")
    return store


async def _migrate(source: AnyStore, target: AnyStore, *, force: bool) -> int:
    """Copy every row, then check the copy: same rows per table, the same games and logs read
    back, and every game replays to its stored state."""
    await source.open()
    try:
        await target.open()
        try:
            held = await target.row_counts(COPY_TABLES)
            if any(held.values()) and not force:
                print(f"python -m bot.admin: {target.path} is not empty ({held['games']} games,"
                      f" {sum(held.values())} rows): give --force to replace its contents", file=sys.stderr)
                return 2
            tables = []
            for table in COPY_TABLES:
                wanted = set(await target.columns(table))
                columns = [c for c in await source.columns(table) if c in wanted]
                tables.append((table, columns, await source.export_rows(table, columns)))
            await target.import_rows(tables, replace=force)
            problems = await _compare(source, target)
            for problem in problems:
                print(f"BAD {problem}")
            counts = ", ".join(f"{len(rows)} {table}" for table, _, rows in tables)
            print(f"copied {counts} from {source.path} to {target.path}; {len(problems)} problems")
            return 1 if problems else 0
        finally:
            await target.close()
    finally:
        await source.close()


async def _compare(source: AnyStore, target: AnyStore) -> list[str]:
    problems = []
    before, after = await source.row_counts(COPY_TABLES), await target.row_counts(COPY_TABLES)
    problems += [f"{t}: {before[t]} rows copied as {after[t]}" for t in COPY_TABLES if before[t] != after[t]]
    copies = {g.id: g for g in await target.games()}
    for game in await source.games():
        copy = copies.get(game.id)
        log = await source.actions(game.id)
        if copy != game or await target.actions(game.id) != log:
            problems.append(f"#{game.id} {game.game_id}: the copy differs from the original")
            continue
        report = verify(copy, log)
        if not report.ok:
            problems.append(f"#{game.id} {game.game_id}: {report.problem}")
    for table in SOCIAL_TABLES:  # results, ratings and follows: the same rows (order aside)
        columns = [c for c in await source.columns(table) if c in set(await target.columns(table))]
        mine, theirs = await source.export_rows(table, columns), await target.export_rows(table, columns)
        if sorted(mine, key=repr) != sorted(theirs, key=repr):
            problems.append(f"{table}: the copied rows differ from the original")
    for key in ("commands",):
        if await source.get_meta(key) != await target.get_meta(key):
            problems.append(f"meta {key!r} differs")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.admin")
    parser.add_argument("command", choices=["verify", "games", "migrate"])
    parser.add_argument("--db", help="SQLite file or database URL (default: DATABASE_URL from the environment/.env)")
    parser.add_argument("--game", type=int, help="only this game (its number)")
    parser.add_argument("--from", dest="source", help="migrate: the store to copy (a URL or SQLite file)")
    parser.add_argument("--to", dest="target", help="migrate: the store to copy into (created if needed)")
    parser.add_argument("--force", action="store_true", help="migrate: replace what the target holds")
    args = parser.parse_args(argv)
    try:
        if args.command == "migrate":
            if not args.source or not args.target:
                parser.error("migrate needs --from and --to")
            target = store_from_url(args.target)
            assert isinstance(target, SQLiteStore | PostgresStore)
            return asyncio.run(_migrate(_store(args.source), target, force=args.force))
        store = _store(args.db or load_settings().database_url)
        return asyncio.run(_run(args, store))
    except (StoreError, sqlite3.Error, asyncpg.PostgresError, OSError) as exc:
        print(f"python -m bot.admin: {exc} (give --db FILE or set DATABASE_URL)", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
