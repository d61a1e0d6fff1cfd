"""What an AI worker process runs: the engine's policies and nothing of the bot. A worker
imports this module only (plain data in, an action out), so it holds the rules and the AI
and none of the game interfaces, catalogs or Pillow the bot's process needs."""

from __future__ import annotations

from engine import Action, View, ai, registry


def decide(game_id: str, level: str, view: View, seat: str, legal: list[Action],
           hard_seconds: float | None = None) -> Action:
    """The game's policy at `level` on the seat's view (in a worker, or a thread); a hard seat
    searches `hard_seconds` when given, else the game's own budget."""
    chooser = ai.thinking(game_id, hard_seconds) if level == "hard" and hard_seconds else ai.policy(game_id, level)
    return chooser(view, seat, legal)


def warm() -> None:
    """A worker imports every game's rules and policies before its first decision."""
    for rules in registry.all():
        for level in ai.LEVELS:
            ai.policy(rules.id, level)
