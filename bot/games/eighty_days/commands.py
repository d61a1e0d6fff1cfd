"""The `/days` command group as data: each subcommand, its options and how their values
become one of the seat's legal actions. Kept apart from the labels and texts (`ui.py`) so the
commands Discord syncs can be read, and changed, in one short place."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.gameui import Command, Param, match_action
from engine import Action

#: what a `Command` calls to turn option values into one of the legal actions (or None)
Build = Callable[[dict[str, Any], list[Action]], Action | None]


def _pick(name: str) -> Build:
    """A "pick" option's builder: the autocompleted action while it is still legal."""
    def build(values: dict[str, Any], legal: list[Action]) -> Action | None:
        picked = values.get(name)
        return picked if isinstance(picked, dict) and picked in legal else None
    return build


def _simple(kind: str) -> Build:
    """The builder of a subcommand without options: the legal action of that type, if any."""
    return lambda values, legal: match_action(legal, type=kind)


def _build_pass(values: dict[str, Any], legal: list[Action]) -> Action | None:
    """With a tile picked, that pass; without, only the plain pass (side B needs a tile)."""
    picked = values.get("tile")
    if isinstance(picked, dict):
        return picked if picked in legal else None
    return {"type": "pass"} if {"type": "pass"} in legal else None


def _build_adventure(values: dict[str, Any], legal: list[Action]) -> Action | None:
    what = values.get("what")
    return match_action(legal, type=what) if what in ("complete", "search") else None


COMMANDS: tuple[Command, ...] = (
    Command("travel", (Param("line", "pick", types=("travel", "leonard", "mary")),), build=_pick("line"),
            refusal="refuse.travel"),
    Command("buy", (Param("item", "pick", types=("buy",)),), build=_pick("item"), refusal="refuse.buy"),
    Command("blackmarket", (), build=_simple("black_market"), refusal="refuse.blackmarket"),
    Command("juggle", (Param("stack", "pick", types=("juggle",)),), build=_pick("stack"), refusal="refuse.juggle"),
    Command("pass", (Param("tile", "pick", required=False, types=("pass",)),), build=_build_pass,
            refusal="refuse.pass"),
    Command("adventure", (Param("what", "str", choices=("complete", "search")),), build=_build_adventure,
            refusal="refuse.adventure"),
    Command("keep", (Param("card", "pick", types=("keep_adventure", "keep_assistant")),), build=_pick("card"),
            refusal="refuse.keep"),
    Command("giveback", (Param("item", "pick", types=("give_back",)),), build=_pick("item"),
            refusal="refuse.giveback"),
    Command("assistant", (Param("use", "pick", types=("paul", "leonard", "mary", "luigi", "jill")),),
            build=_pick("use"), refusal="refuse.assistant"),
    Command("choose", (Param("option", "pick", types=("take_item", "albert", "free_travel", "observer", "swap")),),
            build=_pick("option"), refusal="refuse.choose"),
    Command("end", (), build=_simple("end_turn"), refusal="refuse.end"),
)
