"""The `/rails` command group as data: each subcommand, its options and how their values
become one of the seat's legal actions. Kept apart from the labels and texts (`ui.py`) so the
commands Discord syncs can be read, and changed, in one short place."""

from __future__ import annotations

from typing import Any

from bot.gameui import Command, Param, match_action
from engine import Action


def _build_draw(values: dict[str, Any], legal: list[Action]) -> Action | None:
    source = values.get("source")
    if source != "face_up":
        return match_action(legal, type="draw", source=source)
    slot = values.get("slot")
    if not isinstance(slot, int):
        return None
    refill = values.get("refill")
    return match_action(legal, type="draw", source="face_up", slot=slot - 1, refill=refill)


def _build_mix(values: dict[str, Any], legal: list[Action]) -> Action | None:
    return match_action(legal, type="choose_mix", trains=values.get("trains"))


def _build_pick(values: dict[str, Any], legal: list[Action], name: str) -> Action | None:
    picked = values.get(name)
    return picked if isinstance(picked, dict) else None


COMMANDS: tuple[Command, ...] = (
    Command(
        "draw",
        (
            Param("source", "str", choices=("face_up", "train_deck", "ship_deck")),
            Param("slot", "int", required=False, choices=(1, 2, 3, 4, 5, 6)),
            Param("refill", "str", required=False, choices=("train", "ship")),
        ),
        build=_build_draw,
        refusal="refuse.draw",
    ),
    Command("claim", (Param("route", "pick", types=("claim",)),),
            build=lambda v, legal: _build_pick(v, legal, "route"), refusal="refuse.claim"),
    Command("tickets", (), refusal="refuse.tickets"),
    Command("keep", (Param("tickets", "pick", types=("keep_tickets",)),),
            build=lambda v, legal: _build_pick(v, legal, "tickets"), refusal="refuse.keep"),
    Command("harbor", (Param("city", "pick", types=("harbor",)),),
            build=lambda v, legal: _build_pick(v, legal, "city"), refusal="refuse.harbor"),
    Command("exchange", (Param("trains", "int", min_value=-15, max_value=15),), refusal="refuse.exchange"),
    Command("mix", (Param("trains", "int", min_value=10, max_value=25),), build=_build_mix, refusal="refuse.mix"),
    Command("pass", (), refusal="refuse.pass"),
)
