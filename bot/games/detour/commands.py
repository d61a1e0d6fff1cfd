"""The `/detour` command group as data: each subcommand, its options and how their values
become one of the seat's legal actions. Kept apart from the labels and texts (`ui.py`) so the
commands Discord syncs can be read, and changed, in one short place."""

from __future__ import annotations

from typing import Any

from bot.gameui import Command, Param, match_action
from engine import Action
from engine.games.detour import mapdata as M
from engine.games.detour.rules import COLOURS


def _build_choose(values: dict[str, Any], legal: list[Action]) -> Action | None:
    card = values.get("card")
    colour = values.get("colour")
    options = [a for a in legal if a.get("type") == "choose" and a.get("card") == card]
    if colour is None and len({a.get("colour") for a in options}) > 1:
        return None  # two colours could play it: the player must say which
    return match_action(options, card=card, colour=colour)


def _build_pick(values: dict[str, Any], legal: list[Action], name: str) -> Action | None:
    picked = values.get(name)
    return picked if isinstance(picked, dict) and picked in legal else None


COMMANDS: tuple[Command, ...] = (
    Command("choose", (Param("card", "int", choices=M.CARDS),
                       Param("colour", "str", required=False, choices=COLOURS)),
            build=_build_choose, refusal="refuse.choose"),
    Command("move", (), build=lambda v, legal: match_action(legal, type="move"), refusal="refuse.move"),
    Command("detour", (Param("target", "pick", types=("detour",)),),
            build=lambda v, legal: _build_pick(v, legal, "target"), refusal="refuse.detour"),
    Command("backward", (Param("target", "pick", types=("backward",)),),
            build=lambda v, legal: _build_pick(v, legal, "target"), refusal="refuse.backward"),
    Command("block", (Param("target", "pick", types=("block",)),),
            build=lambda v, legal: _build_pick(v, legal, "target"), refusal="refuse.block"),
)
