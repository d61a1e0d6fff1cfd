"""An AI worker holds the engine only: what it imports to decide, measured in a fresh process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bot.ai import pool, worker

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
from bot.ai.worker import decide, warm
from engine import registry
warm()
rules = registry.get("detour")
state = rules.new_game(["a", "b"], 1, {})
seat = rules.to_act(state)[0]
action = decide("detour", "normal", rules.view(state, seat), seat, rules.legal_actions(state, seat))
print(json.dumps({"action": action, "modules": sorted(sys.modules)}))
"""


def test_an_ai_worker_imports_the_engine_and_nothing_of_the_bot() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True)
    found = json.loads(out.stdout)
    assert found["action"]["type"]
    modules = set(found["modules"])
    assert {"engine.games.detour", "engine.games.rails_and_sails", "engine.ai"} <= modules
    heavy = {m for m in modules if m.split(".")[0] in ("PIL", "discord", "render", "aiosqlite")}
    bot_side = {m for m in modules if m.startswith("bot.") and m not in ("bot.ai", "bot.ai.worker")}
    assert not heavy and not bot_side, sorted(heavy | bot_side)


def test_the_pool_sends_its_workers_the_worker_modules_functions() -> None:
    # a spawned worker unpickles these by module name: they must be the lean module's
    assert pool.decide is worker.decide and pool.warm is worker.warm
    assert worker.decide.__module__ == "bot.ai.worker"
