"""Three bot processes on one database (tests/multiproc_driver.py each, as SHARD_IDS 0, 1, 2 of
SHARD_COUNT=3): 50 games of all four games, humans and AI; about 1,000 concurrent presses,
some of them double clicks of the same button sent to two processes; one process SIGKILLed
mid-burst and restarted. Then: every acknowledged move is stored exactly once (and every stored
human move was acknowledged, or was in flight in the killed process), no game is stuck, each
due reminder and timeout fires exactly once across the processes (controlled clock), and
`python -m bot.admin verify` replays every game cleanly.

Parametrized by the database URL: a SQLite file (WAL), and a fresh database on the embedded
PostgreSQL server (`postgres_url`, tests/conftest.py). Every process ticks, as every bot
process runs the scheduler: the leases in the store keep each reminder and timeout to one.
"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot import games
from bot.service import action_hash
from bot.store import GameRecord, Store, store_from_url
from tests.support.multiproc_driver import Lost
from tests.support.multiproc_driver import Process as Proc

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("detour", "around-the-world", "rails-and-sails", "eighty-days")
N_PROCS, N_GAMES, N_PRESSES = 3, 50, 1000
T0 = 1_800_000_000.0
REMIND_H, TIMEOUT_H = 12, 48
CHANNEL_BASE = 5000


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    return str(request.getfixturevalue("postgres_url"))  # a fresh database on the embedded server


@pytest.fixture
async def procs(database_url: str) -> AsyncIterator[list[Proc]]:
    env = {"REMINDER_HOURS": str(REMIND_H), "TIMEOUT_HOURS": str(TIMEOUT_H), "LOBBY_IDLE_HOURS": "0"}
    started = [Proc(database_url, shard, N_PROCS, env=env, now=T0, render=False) for shard in range(N_PROCS)]
    await started[0].start()  # the first one creates the schema
    await asyncio.gather(*(p.start() for p in started[1:]))
    yield started
    await asyncio.gather(*(p.stop() for p in started))


async def _open_table(home: Proc, i: int) -> None:
    channel, host = CHANNEL_BASE + i, 100 * i + 1
    assert (await home.call(op="new", channel=channel, user=host, game=GAMES[i % len(GAMES)], seed=i + 1))["ok"]
    assert (await home.call(op="join", channel=channel, user=host + 1))["ok"]
    if i % 2 == 0:
        assert (await home.call(op="addbot", channel=channel, user=host, count=1))["ok"]
    assert (await home.call(op="start", channel=channel, user=host))["ok"]


async def _tick_everywhere(procs: list[Proc], now: float) -> Counter[tuple[str, int]]:
    """One tick sent to every process at once (each runs the scheduler, as the adapter does);
    what fired across them, as (kind, channel) counts: a count above 1 is a double reminder."""
    answers = await asyncio.gather(*(p.call(op="tick", now=now) for p in procs))
    return Counter((f["kind"], f["channel"]) for a in answers for f in a["fired"])


def _humans_waiting(record: GameRecord) -> list[str]:
    rules = games.get(record.game_id).rules
    state = rules.load(record.state)
    if rules.is_over(state):
        return []
    return [s for s in rules.to_act(state) if (r := record.seat_record(s)) is not None and not r.is_bot]


async def _running(store: Store) -> list[GameRecord]:
    return [g for g in await store.games(status="running") if CHANNEL_BASE <= g.channel_id < CHANNEL_BASE + N_GAMES]


Request = tuple[Proc, dict[str, Any], asyncio.Future[dict[str, Any]]]


async def _round_of_presses(procs: list[Proc], rng: random.Random) -> list[Request]:
    """Ask every game who is to act, then press all those moves at once; a quarter of them
    also in a second process (a double click, e.g. a DM click arriving at another shard)."""
    channels = [CHANNEL_BASE + i for i in range(N_GAMES)]
    turns = await asyncio.gather(*(procs[i % N_PROCS].call(op="turn", channel=c) for i, c in enumerate(channels)))
    requests: list[Request] = []
    for i, (channel, turn) in enumerate(zip(channels, turns, strict=True)):
        for move in turn["to_act"]:
            move = {**move, "game": turn["game"], "channel": channel}
            targets = [procs[i % N_PROCS]]
            if rng.random() < 0.25:
                targets.append(procs[(i + 1 + rng.randrange(N_PROCS - 1)) % N_PROCS])
            for proc in targets:
                future = proc.send(op="press", channel=channel, user=move["user"], custom_id=move["press"])
                requests.append((proc, move, future))
    return requests


async def _kill_while_busy(victim: Proc, requests: list[Request]) -> list[dict[str, Any]]:
    """SIGKILL `victim` once it answered a third of this round's presses it was sent, looked at
    every millisecond so that it usually dies mid-work. A process can still answer all of them
    before the signal lands, so the victim is first told to hold its presses and sent one more
    (a double click of one of its own): that one is owed for certain. Returns its move."""
    mine = [(move, future) for proc, move, future in requests if proc is victim]
    before = victim.answered
    while victim.answered < before + len(mine) // 3:
        await asyncio.sleep(0.001)
    await victim.call(op="hold")
    move = mine[-1][0]
    owed = victim.send(op="press", channel=move["channel"], user=move["user"], custom_id=move["press"])
    await victim.kill()
    assert owed.done() and isinstance(owed.exception(), Lost)
    return [move]


async def _burst(procs: list[Proc], rng: random.Random) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
    """Rounds of presses until N_PRESSES were sent, a tick along every fourth round; in the
    round after half the presses, the process running shard 1 is SIGKILLed while it works,
    then restarted. Returns (acknowledged presses, presses lost with it, presses sent)."""
    acked: list[dict[str, Any]] = []
    lost: list[dict[str, Any]] = []
    sent, round_no, killed = 0, 0, False
    victim = procs[1]
    while sent < N_PRESSES:
        round_no += 1
        requests = await _round_of_presses(procs, rng)
        if not requests:
            break
        ticks = [p.send(op="tick", now=T0) for p in procs] if round_no % 4 == 0 else []
        sent += len(requests)
        if not killed and sent >= N_PRESSES // 2:
            lost += await _kill_while_busy(victim, requests)
            killed = True
        for future, move in [(f, m) for _, m, f in requests] + [(t, {}) for t in ticks]:
            try:
                answer = await asyncio.wait_for(future, 60)
            except Lost:
                lost += [move] if move else []
                continue
            assert "error" not in answer, answer
            if move and answer["ok"]:
                acked.append(move)
        if victim.proc is not None and victim.proc.returncode is not None:
            await victim.start()  # restarted with the same shard
    assert killed and lost
    return acked, lost, sent


async def test_three_processes_one_database(procs: list[Proc], database_url: str) -> None:
    # long: the scenario and its checks in order; each check says what it proves
    rng = random.Random(11)
    await asyncio.gather(*(_open_table(procs[i % N_PROCS], i) for i in range(N_GAMES)))
    acked, lost, sent = await _burst(procs, rng)
    print(f"presses sent {sent}, acknowledged {len(acked)}, lost with the killed process {len(lost)}")
    assert sent >= N_PRESSES and len(acked) > N_PRESSES // 3

    store = store_from_url(database_url)
    await store.open()
    try:
        # moves a kill interrupted (a human's move stored, its AI replies not yet) finish on a tick
        await _tick_everywhere(procs, T0)
        running = await _running(store)
        assert running, "the games are long enough to still run"
        for record in running:
            # not stuck: a human is to move, with deadlines set (nothing waits for a tick any more)
            assert _humans_waiting(record), f"game {record.id} waits for nobody"
            assert record.remind_at is not None and record.timeout_at is not None and not record.ai_pending

        # every acknowledged move is stored exactly once, at the place its button named
        logs = {g.id: await store.actions(g.id) for g in await store.games()}
        acked_keys = [(m["game"], m["seat"], m["own"], m["hash"]) for m in acked]
        assert len(set(acked_keys)) == len(acked_keys), "a move was acknowledged twice"
        lost_keys = {(m["game"], m["seat"], m["own"], m["hash"]) for m in lost}
        stored_human: list[tuple[int, str, int, str]] = []
        for game_pk, log in logs.items():
            count: Counter[str] = Counter()
            for entry in log:
                if entry.actor == "human":
                    stored_human.append((game_pk, entry.seat, count[entry.seat], action_hash(entry.action)))
                count[entry.seat] += 1
        assert set(acked_keys) <= set(stored_human)
        assert len(stored_human) == len(set(stored_human))
        assert set(stored_human) - set(acked_keys) <= lost_keys  # unanswered only if its process died

        # reminders: due once, fired once across the processes, and not again on the next tick
        t1 = T0 + REMIND_H * 3600 + 60
        due = {g.channel_id for g in await _running(store) if g.remind_at is not None and g.remind_at <= t1
               and _humans_waiting(g)}
        fired = await _tick_everywhere(procs, t1)
        assert fired == Counter({("reminder", c): 1 for c in due}) and due
        print(f"reminders due and fired once: {len(due)}")
        assert await _tick_everywhere(procs, t1) == Counter()

        # timeouts: the AI plays one turn for each absent player, once
        t2 = T0 + TIMEOUT_H * 3600 + 60
        before = {g.id: len(logs[g.id]) for g in await _running(store)}
        due = {g.channel_id for g in await _running(store) if g.timeout_at is not None and g.timeout_at <= t2
               and _humans_waiting(g)}
        fired = await _tick_everywhere(procs, t2)
        assert fired == Counter({("timeout", c): 1 for c in due}) and due
        print(f"timeouts due and fired once: {len(due)}")
        assert await _tick_everywhere(procs, t2) == Counter()
        for game_pk, moves_before in before.items():
            new = (await store.actions(game_pk))[moves_before:]
            assert new and new[0].actor == "timeout", f"game {game_pk}: no stand-in turn"
    finally:
        await store.close()

    await asyncio.gather(*(p.stop() for p in procs))
    done = subprocess.run([sys.executable, "-m", "bot.admin", "verify"], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "DATABASE_URL": database_url, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{N_GAMES} games checked, 0 problems" in done.stdout
