"""The `/atw` command group as data: each subcommand, its options and how their values
become one of the seat's legal actions. Kept apart from the labels and texts (`ui.py`) so the
commands Discord syncs can be read, and changed, in one short place."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.gameui import Command, Param, match_action
from engine import Action
from engine.games.around_the_world import data as D

#: what a `Command` calls to turn option values into one of the legal actions (or None)
Build = Callable[[dict[str, Any], list[Action]], Action | None]


def _pick(name: str, need: str | None = None) -> Build:
    """A "pick" option's builder: the autocompleted action while it is still legal (with
    `need="balloon"`, only a balloon travel, so `/atw balloon` never makes a plain one)."""
    def build(values: dict[str, Any], legal: list[Action]) -> Action | None:
        picked = values.get(name)
        if not isinstance(picked, dict) or picked not in legal:
            return None
        if need == "balloon" and "balloon" not in picked:
            return None
        return picked
    return build


def _build_take(values: dict[str, Any], legal: list[Action]) -> Action | None:
    slot = values.get("slot")
    if not isinstance(slot, int):
        return None
    return match_action([a for a in legal if a["type"] == "take"], slot=slot - 1)


def _simple(kind: str) -> Build:
    """The builder of a subcommand without options: the legal action of that type, if any."""
    return lambda values, legal: match_action([a for a in legal if a["type"] == kind], type=kind)


def _build_reroll(values: dict[str, Any], legal: list[Action]) -> Action | None:
    """While a roll waits (keeping it is legal), a re-roll the engine did not list fails only for want
    of gold: hand it to the engine, whose refusal says how much gold it takes and how much you have,
    instead of claiming there is no die to roll."""
    found = match_action([a for a in legal if a["type"] == "reroll"], type="reroll")
    if found is None and any(a["type"] == "keep" for a in legal):
        return {"type": "reroll"}
    return found


COMMANDS: tuple[Command, ...] = (
    Command("take", (Param("slot", "int", min_value=1, max_value=6),), build=_build_take, refusal="refuse.take"),
    Command("top", (), build=_simple("take_top"), refusal="refuse.top"),
    Command("use", (), build=_simple("use_action"), refusal="refuse.use"),
    Command("skip", (), build=_simple("skip_action"), refusal="refuse.use"),
    Command("detective", (Param("location", "str", choices=tuple(D.LOCATIONS[1:])),),
            build=lambda v, legal: match_action([a for a in legal if a["type"] == "detective"],
                                                location=v.get("location")) if v.get("location") else None,
            refusal="refuse.detective"),
    Command("exchange", (Param("cards", "pick", types=("exchange",)),), build=_pick("cards"),
            refusal="refuse.exchange"),
    Command("travel", (Param("cards", "pick", types=("travel",)),), build=_pick("cards"), refusal="refuse.travel"),
    Command("balloon", (Param("cards", "pick", types=("travel",)),), build=_pick("cards", "balloon"),
            refusal="refuse.balloon"),
    Command("reroll", (), build=_build_reroll, refusal="refuse.reroll"),
    Command("keep", (), build=_simple("keep"), refusal="refuse.roll"),
    Command("event", (Param("card", "pick", types=("event",)),), build=_pick("card"), refusal="refuse.event"),
    Command("sell", (), build=_simple("elephant_gold"), refusal="refuse.sell"),
    Command("buy", (Param("deck", "str", choices=("travel", "event")),),
            build=lambda v, legal: match_action([a for a in legal if a["type"] == "buy"], deck=v.get("deck"))
            if v.get("deck") else None, refusal="refuse.buy"),
    Command("discard", (Param("card", "pick", types=("discard",)),), build=_pick("card"), refusal="refuse.discard"),
    Command("stay", (), build=_simple("stay"), refusal="refuse.stay"),
    Command("done", (), build=_simple("done"), refusal="refuse.done"),
)
