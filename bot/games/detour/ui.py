"""The UI of detour: labels of actions, channel lines, status and hand texts, turn-message
buttons and menu groups, all in the catalog's language. The `/detour` commands it carries are
declared in `commands.py`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.games.detour.commands import COMMANDS
from bot.gameui import GameUI, QuickMenu
from bot.i18n import Translator
from engine import Action, Event, View
from engine.games.detour import mapdata as M
from render.common import PLAYER_LETTERS

CARD_KIND = {10: "move_only", 8: "block", 6: "detour", 5: "backward"}
MAX_LABEL = 80


def place(space: int, t: Translator) -> str:
    """A space by its city name (in the catalog's language when it has one)."""
    if space == M.FIN:
        return t("place.home")
    name = M.NAMES[space]
    key = "city." + name.lower().replace(" ", "_").replace(".", "")
    return t(key) if t.has(key) else name


def pawn_name(seat: str, colour: str | None, names: dict[str, str], t: Translator, two: bool) -> str:
    name = names.get(seat, seat)
    if two and colour:
        return t("pawn", name=name, colour=t(f"colour.{colour}"))
    return name


def card_text(card: int, t: Translator) -> str:
    return t("card_name", card=card, action=t(f"card.{CARD_KIND[card]}"))


def _trim(text: str, n: int = MAX_LABEL) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


@dataclass
class DetourUI(GameUI):
    # -- labels ------------------------------------------------------------------------------------
    def action_label(self, action: Action, view: View, t: Translator) -> str:
        kind = action.get("type")
        two = bool(view.get("two_colours"))
        if kind == "choose":
            card = action["card"]
            if two and action.get("colour"):
                return _trim(t("action.choose_colour", card=card_text(card, t),
                               colour=t(f"colour.{action['colour']}")))
            return _trim(t("action.choose", card=card_text(card, t)))
        resolving = view.get("resolving") or {}
        card = resolving.get("card", 0)
        if kind == "move":
            return _trim(t.plural("action.move", card))
        if kind in ("detour", "backward", "block"):
            target = self._target(action, view)
            who = t("target", colour=t(f"colour.{target['colour']}"), letter=target["letter"],
                    place=place(target["space"], t)) if target else str(action.get("target"))
            if kind == "detour" and self._on_blue(view):
                return _trim(t.plural("action.detour_blue", card, target=who))
            return _trim(t(f"action.{kind}", target=who))
        return _trim(str(kind))

    def tie_break(self, entry: dict[str, Any], above: dict[str, Any], t: Translator) -> str | None:
        """Finishers tied on days: more Move value left in hand, then the earlier arrival."""
        if not (entry.get("finished") and above.get("finished")):
            return None
        if entry.get("hand_value") != above.get("hand_value"):
            return t("result.tie_hand", better=above.get("hand_value", 0), worse=entry.get("hand_value", 0))
        return t("result.tie_arrival")

    @staticmethod
    def _target(action: Action, view: View) -> dict[str, Any] | None:
        for p in view.get("pawns", []):
            if p["seat"] == action.get("target") and (
                    action.get("target_colour") is None or p["colour"] == action.get("target_colour")):
                return {"colour": p["colour"], "letter": PLAYER_LETTERS[p["index"]], "space": p["space"]}
        return None

    @staticmethod
    def _on_blue(view: View) -> bool:
        res = view.get("resolving") or {}
        for p in view.get("pawns", []):
            if p["colour"] == res.get("colour"):
                return M.IS_BLUE[p["space"]] and not p["blocked"]
        return False

    def quick_actions(self, view: View, seat: str) -> list[Action | QuickMenu]:
        """Turn-message buttons, from the public view (hands are open in this game). Choosing a
        card is the same action for every seat with 3-4 players, so one "Play 8" button serves
        all who still hold an 8; with two players each colour's cards are different actions, so
        they stay in each player's menu. While a card resolves: its Move and its action against
        each pawn it can hit."""
        pawns = view["pawns"]
        if view["phase"] == "choose":
            if view["two_colours"]:
                return []
            mine = next((p for p in pawns if p["seat"] == seat), None)
            if mine is None or mine["chosen"]:
                return []
            return [{"type": "choose", "card": c} for c in mine["hand"]]
        resolving = view.get("resolving")
        if view["phase"] != "resolve" or not resolving or resolving["seat"] != seat:
            return []
        me = next(p for p in pawns if p["colour"] == resolving["colour"])
        out: list[Action | QuickMenu] = [] if me["blocked"] else [{"type": "move"}]
        card = resolving["card"]
        kind = M.CARD_ACTION.get(card)
        for p in pawns if kind else []:
            if p["seat"] == seat:
                continue
            space = p["space"]
            hit = (not p["finished"] and not p["blocked"]) if card == 8 else (
                M.RED[space] >= 0 if card == 6 else M.PREV[space] >= 0)
            if hit:
                target: Action = {"type": kind, "target": p["seat"]}
                if view["two_colours"]:
                    target["target_colour"] = p["colour"]
                out.append(target)
        return out

    def menu_group(self, action: Action) -> str:
        if action["type"] == "choose" and action.get("colour"):
            return f"choose_{action['colour']}"
        return str(action["type"])

    # -- channel lines ---------------------------------------------------------------------------
    def event_text(self, event: Event, names: dict[str, str], t: Translator) -> str | None:  # noqa: C901 - flat dispatch, one branch per event type
        kind = event.get("type")
        two = len(names) == 2  # `names` holds the game's seats; two seats = two colours each
        who = pawn_name(event.get("seat", ""), event.get("colour"), names, t, two)
        if kind == "chose":  # with two colours `who` already names the colour
            return t("event.chose", seat=who)
        if kind == "reveal":
            parts = [t("event.reveal_card", seat=pawn_name(c["seat"], c["colour"], names, t, two), card=c["card"])
                     for c in event["cards"]]
            return t("event.reveal", round=event["round"], cards=", ".join(parts))
        if kind == "move":
            if event["from"] == event["to"]:
                return t.plural("event.move_stuck", event["days"], seat=who, start=place(event["from"], t))
            return t.plural("event.move", event["used"], seat=who, days=event["days"],
                            start=place(event["from"], t), end=place(event["to"], t))
        if kind == "arrived":
            return t("event.arrived", seat=who)
        if kind in ("block", "detour", "backward"):
            target = pawn_name(event["target"], event.get("target_colour"), names, t, two)
            params = {"seat": who, "target": target}
            if kind != "block":
                params.update(start=place(event["from"], t), end=place(event["to"], t))
            key = f"event.{kind}"
            if kind == "detour" and event.get("blue"):
                key = "event.detour_blue"
            return t(key, **params)
        if kind == "block_spent":
            return t("event.block_spent", seat=who)
        if kind == "no_effect":
            return t("event.no_effect_blocked" if event.get("blocked") else "event.no_effect", seat=who,
                     card=event["card"])
        if kind == "round_end":
            first = pawn_name(event["first_seat"], event.get("first_colour"), names, t, two)
            text = t("event.round_end", round=event["next_round"], first=first)
            if event.get("refill"):
                text += " " + t("event.refill")
            return text
        if kind == "game_over":
            if event.get("rule") in (1, 2):
                winner = names.get(event["winner"], event["winner"])
                return t.plural(f"event.game_over_rule{event['rule']}", event["round"], winner=winner)
            return t.plural("event.game_over", event["round"])
        return None

    def board_changed(self, events: list[Event]) -> bool:
        """A secret card choice moves nothing: the channel gets a line, not a new board."""
        return any(e.get("type") != "chose" for e in events)

    # -- status and hand -----------------------------------------------------------------------------
    def status_text(self, view: View, names: dict[str, str], t: Translator) -> str:
        two = bool(view.get("two_colours"))
        if view.get("over"):
            return t("status.over", round=view.get("round", 0))
        if view.get("phase") == "choose":
            waiting = [pawn_name(p["seat"], p["colour"], names, t, two) for p in view["pawns"] if not p["chosen"]]
            return t("status.choose", round=view["round"], waiting=", ".join(waiting))
        res = view.get("resolving") or {}
        later = [t("event.reveal_card", seat=pawn_name(q["seat"], q["colour"], names, t, two), card=q["card"])
                 for q in view.get("queue", [])[1:]]
        text = t("status.resolve", round=view["round"], seat=pawn_name(res.get("seat", ""), res.get("colour"),
                                                                            names, t, two),
                 card=card_text(res.get("card", 10), t))
        if later:
            text += " " + t("status.next", cards=", ".join(later))
        return text

    def hand_text(self, view: View, seat: str, names: dict[str, str], t: Translator) -> str:
        two = bool(view.get("two_colours"))
        chosen = (view.get("private") or {}).get("chosen", {})
        lines = []
        for p in view.get("pawns", []):
            if p["seat"] != seat:
                continue
            hand = ", ".join(str(c) for c in p["hand"]) or "—"
            played = ", ".join(str(c) for c in p["played"]) or "—"
            line = t.plural("hand.line", p["days_left"], pawn=pawn_name(seat, p["colour"], names, t, two),
                            hand=hand, played=played)
            if p["colour"] in chosen:
                line += " " + t("hand.chosen", card=card_text(chosen[p["colour"]], t))
            if p["blocked"]:
                line += " " + t("hand.blocked")
            lines.append(line)
        return "\n".join(lines)


UI = DetourUI(
    game_id="detour",
    group="detour",
    commands=COMMANDS,
    package_dir=Path(__file__).parent,
)
