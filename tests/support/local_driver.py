"""Play whole games through the local table the way people would: slash commands to set
up, then only the buttons and menus the bot shows ("Your move", then a button or a select
option). A simulated person usually presses what the AI would choose (so games end in a
sensible number of turns) and sometimes a random legal option.

    .venv/bin/python -m tests.support.local_driver --game detour --humans 3 --bots 1 --out out/detour
    .venv/bin/python -m tests.support.local_driver --game rails-and-sails --humans 1 --bots 1 --level hard

Prints the final channel message; writes every image to --out.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import random
from pathlib import Path
from typing import Any

from bot.adapters.local import FakeClock, LocalTable
from bot.games import ui_for
from bot.i18n import Translator
from bot.replies import Button, Reply, Select
from bot.service import TableService, action_hash
from bot.settings import Settings
from bot.store import SQLiteStore
from engine import registry

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]


class Driver:
    def __init__(self, table: LocalTable, rng: random.Random, game_id: str, ai_share: float = 0.85,
                 lang: str = "en") -> None:
        self.table = table
        self.lang = lang
        self.game_id = game_id
        self.rng = rng
        self.ai_share = ai_share
        self.presses = 0

    async def say(self, line: str) -> list[Reply]:
        return await self.table.run_line(line)

    async def setup(self, game: str, humans: int, bots: int, options: str | None, lang: str | None,
                    level: str | None = None) -> None:
        host = NAMES[0]
        extra = f' options:"{options}"' if options else ""
        extra += f" language:{lang}" if lang else ""
        await self.say(f"{host} /game new game:{game}{extra}")
        join = Translator(self.lang)("button.join")
        for name in NAMES[1:humans]:
            await self.say(f"{name} !press {join}")
        if bots:
            await self.say(f"{host} /game addbot count:{bots}" + (f" level:{level}" if level else ""))
        await self.say(f"{host} /game start")

    async def play(self, max_steps: int = 5000) -> Reply:
        store = self.table.service.store
        for _ in range(max_steps):
            record = await store.active_game(self.table.where.channel_id)
            if record is None:
                break
            rules = registry.get(record.game_id)
            state = rules.load(record.state)
            humans = [s for s in record.seats if not s.is_bot and s.seat in rules.to_act(state)]
            assert humans, "the game waits for nobody"
            seat = humans[0]
            wanted = rules.ai_action(state, seat.seat) if self.rng.random() < self.ai_share else None
            await self.move(seat.name, wanted)
        return next(r for r in reversed(self.table.channel_log) if r.to == "channel")

    async def move(self, name: str, wanted: dict[str, Any] | None) -> None:
        """Open the move menu and click through it to `wanted` (or something random)."""
        replies = await self.say(f"{name} !press {Translator(self.lang)('button.play')}")
        target = action_hash(wanted) if wanted else None
        for _ in range(6):
            menu = replies[-1]
            assert menu.to == "ephemeral" and menu.rows, menu.text
            options = [(c, None) for row in menu.rows for c in row if isinstance(c, Button)]
            selects = [(c, o) for row in menu.rows for c in row if isinstance(c, Select) for o in c.options]
            acts = [(c, o) for c, o in selects if target and o.value == target]
            acts += [(c, None) for c, _ in options if target and c.custom_id.endswith(":" + target)]
            if acts:
                chosen = acts[0]
            else:
                final = [(c, o) for c, o in selects] + [(c, None) for c, _ in options
                                                        if ":act:" in c.custom_id or ":pact:" in c.custom_id]
                groups = [(c, None) for c, _ in options if ":menu:g=" in c.custom_id]
                if target and groups:
                    # open the group the wanted action belongs to
                    ui = ui_for(self.game_id)
                    group = ui.menu_group(wanted) if wanted else ""
                    chosen = next(((c, o) for c, o in groups if f"g={group[:40]};" in c.custom_id), groups[0])
                elif final:
                    chosen = self.rng.choice(final)
                else:
                    chosen = self.rng.choice(groups)
            self.presses += 1
            comp, option = chosen
            if option is not None:
                assert isinstance(comp, Select)
                replies = await self.table.service.component(self.table.user(name), self.table.where,
                                                             comp.custom_id, [option.value])
            else:
                replies = await self.table.service.component(self.table.user(name), self.table.where, comp.custom_id)
            replies = await self.table._deliver(replies)
            if not any(":menu:" in c.custom_id for r in replies[-1:] for row in r.rows for c in row
                       if isinstance(c, Button)) or any(r.to == "channel" for r in replies):
                return
        raise AssertionError("the menu never reached a move")


async def run_lines(tmp_path: Path, lines: list[str], *, memories: bool = False) -> list[dict[str, Any]]:
    """Run script lines through a fresh local table; the JSON objects it printed. `memories`:
    make a game's summary and timelapse when it ends (off unless a test is about them)."""
    store = SQLiteStore(tmp_path / "local.sqlite3")
    await store.open()
    clock = FakeClock()
    out = io.StringIO()
    service = TableService(store, Settings(), clock=clock, render_in_thread=False)
    service.memories = memories
    table = LocalTable(service, clock, out_dir=tmp_path / "img", emit=out)
    try:
        for line in lines:
            await table.run_line(line)
    finally:
        await store.close()
    return [json.loads(x) for x in out.getvalue().splitlines()]


class RecordingTable(LocalTable):
    """A local table that also keeps every channel message, for the driver."""

    async def _deliver(self, replies: list[Reply]) -> list[Reply]:
        self.channel_log.extend(r for r in replies if r.to == "channel")
        return await super()._deliver(replies)


async def play_game(game: str, humans: int, bots: int, *, seed: int = 0, out: Path | None = None,
                    db: Path | None = None, options: str | None = None, lang: str | None = None,
                    emit: Any = None, level: str | None = None,
                    settings: Settings | None = None) -> tuple[Reply, SQLiteStore, int]:
    """A whole game: `humans` driven people and `bots` AI seats (at `level`, default normal)."""
    store = SQLiteStore(db or ":memory:")
    await store.open()
    clock = FakeClock()
    service = TableService(store, settings or Settings(), clock=clock, render_in_thread=False)
    service.memories = False  # whole games by the hundred: no summary and timelapse for each
    table = RecordingTable(service, clock, out_dir=out, emit=emit or io.StringIO())
    for name in NAMES[:humans]:
        table.user(name)
    driver = Driver(table, random.Random(seed), game, lang=lang or "en")
    await driver.setup(game, humans, bots, options, lang, level)
    final = await driver.play()
    return final, store, driver.presses


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", required=True)
    parser.add_argument("--humans", type=int, default=2)
    parser.add_argument("--bots", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out")
    parser.add_argument("--options")
    parser.add_argument("--lang")
    parser.add_argument("--jsonl", help="also write every reply as JSON lines to this file")
    parser.add_argument("--level", choices=("easy", "normal", "hard"), help="the AI seats' level")
    args = parser.parse_args()

    async def run() -> None:
        emit = open(args.jsonl, "w", encoding="utf-8") if args.jsonl else io.StringIO()  # noqa: SIM115
        final, store, presses = await play_game(args.game, args.humans, args.bots, seed=args.seed,
                                                out=Path(args.out) if args.out else None, options=args.options,
                                                lang=args.lang, emit=emit, level=args.level)
        game = await store.last_game(1)
        actions = await store.actions(game.id)
        print(final.text)
        print(json.dumps({"status": game.status, "actions": len(actions), "button_presses": presses,
                          "by": {k: sum(a.actor == k for a in actions) for k in ("human", "ai", "timeout")}}))
        await store.close()

    asyncio.run(run())


if __name__ == "__main__":
    main()

