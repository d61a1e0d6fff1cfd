"""The UI of around-the-world: labels of actions, channel lines, status and hand texts,
turn-message buttons and menu groups, all in the catalog's language. The `/atw` commands it
carries are declared in `commands.py`."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.games.around_the_world.commands import COMMANDS
from bot.gameui import GameUI, QuickMenu
from bot.i18n import Translator
from engine import Action, Event, View
from engine.core import Result
from engine.games.around_the_world import data as D
from engine.games.around_the_world.rules import leg_days

MAX_LABEL = 80
ICON = {"ship": "🚢", "train": "🚂"}


def _trim(text: str, n: int = MAX_LABEL) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def city(loc: str | int, t: Translator) -> str:
    name = D.LOCATIONS[loc] if isinstance(loc, int) else loc
    key = f"city.{name}"
    return t(key) if t.has(key) else name.replace("_", " ").title()


def card(c: str) -> str:
    """A travel card as 🚢7 / 🚂3 (an event card id is returned unchanged)."""
    info = D.CARD_INFO.get(c)
    return f"{ICON[info[0]]}{info[1]}" if info else c


def cards_text(cards: list[str]) -> str:
    return " + ".join(card(c) for c in cards)


def event_name(e: str, t: Translator) -> str:
    key = f"card.{e}"
    return t(key) if t.has(key) else e


def any_card(c: str, t: Translator) -> str:
    return card(c) if c in D.CARD_INFO else event_name(c, t)


def _destination(view: View, seat: str | None) -> str | None:
    if not seat:
        return None
    pos = view["positions"].get(seat, 0)
    return D.LOCATIONS[(pos + 1) % len(D.LOCATIONS)]


@dataclass
class AroundTheWorldUI(GameUI):
    # -- labels ------------------------------------------------------------------------------------
    def action_label(self, action: Action, view: View, t: Translator) -> str:
        return _trim(self._label(action, view, t))

    def _label(self, action: Action, view: View, t: Translator) -> str:
        kind = action.get("type")
        current = view.get("current")
        turn = view.get("turn") or {}
        if kind == "take":
            slot = action["slot"]
            return t("action.take", n=slot + 1, card=card(action["card"]),
                     action=t(f"display.{D.DISPLAY_ACTIONS[slot]}"))
        if kind == "use_action":
            return t(f"action.use.{action.get('action') or turn.get('pending') or 'event'}")
        if kind == "detective":
            return t("action.detective", city=city(action["location"], t))
        if kind == "exchange":
            return t("action.exchange", cards=cards_text(action["cards"]))
        if kind == "travel":
            return self._travel_label(action, view, t)
        if kind == "event":
            return self._event_label(action, view, t)
        if kind == "stay":
            where = action.get("location") or (view["positions"].get(current, 0) if current else 0)
            return t("action.stay", city=city(where, t))
        if kind == "keep":
            return t("action.keep", roll=action.get("roll", "?"))
        if kind == "buy":
            return t(f"action.buy_{action['deck']}")
        if kind == "discard":
            return t("action.discard", card=any_card(action["card"], t))
        key = f"action.{kind}"
        return t(key) if t.has(key) else str(kind)

    def _travel_label(self, action: Action, view: View, t: Translator) -> str:
        """A travel: a walk, the channel's short form (public views: the cards are secret), or
        the cards and days the traveller sees."""
        dest = city(action.get("to") or _destination(view, view.get("current")) or "paris", t)
        cards = action["cards"]
        if not cards:
            return t.plural("action.walk", action.get("days", D.WALK_DAYS), city=dest)
        if "private" not in view:
            key = "action.travel_public_balloon" if "balloon" in action else "action.travel_public"
            return t(key, city=dest)
        if "balloon" in action:
            idx = cards.index(action["balloon"])
            rest = [c for j, c in enumerate(cards) if j != idx]
            fixed = leg_days(cards, {idx: 0})
            shown = " + ".join([card(c) for c in rest] + [t("balloon_card", card=card(action["balloon"]))])
            return t.plural("action.travel_balloon", fixed, cards=shown, city=dest)
        return t.plural("action.travel", action["days"], cards=cards_text(cards), city=dest)

    def _event_label(self, action: Action, view: View, t: Translator) -> str:
        """Playing an event card; the princess copies the top discarded event or moves the detective."""
        c = action["card"]
        if c == "princess":
            as_card = action.get("as") or view.get("event_discard_top") or "?"
            if "location" in action:
                return t("action.princess_detective", city=city(action["location"], t))
            return t("action.princess", card=event_name(as_card, t))
        if c == "detective":
            return t("action.event_detective", city=city(action["location"], t))
        key = f"action.event_{c}"
        return t(key) if t.has(key) else t("action.event", card=event_name(c, t))

    def quick_actions(self, view: View, seat: str) -> list[Action | QuickMenu]:
        """Turn-message buttons, from the public view: take a display card (or the top card);
        use or skip the card's action; re-roll or keep; in the travel phase "Travel…" (opens the
        player's own menu at their travels: which cards they hold is secret, so the channel
        must not learn whether or how they can travel), the walk of the elephant leg, and stay
        or end the turn. Discarding names hidden cards: menu only."""
        if view.get("current") != seat:
            return []
        phase = view["phase"]
        turn = view["turn"]
        if phase == "take":
            out: list[Action | QuickMenu] = [
                {"type": "take", "slot": j, "card": slot["card"]} for j, slot in enumerate(view["display"])
                if slot["card"] is not None and not (slot["action"] == "first_player"
                                                     and view["first_player"] == seat)]
            if (view["player_count"] == 6 and view["order"][-1:] == [seat]
                    and (view["travel_deck"] or view["travel_discard"])):
                out.append({"type": "take_top"})
            return out[:4]
        if phase == "action":
            pending = turn["pending"]
            out = [] if pending in ("detective", "exchange") else [{"type": "use_action", "action": pending}]
            return out + [{"type": "skip_action", "action": pending}]
        if phase == "roll":
            roll = view["last_roll"]
            out = [{"type": "reroll"}] if view["gold"][seat] > 0 else []
            return out + [{"type": "keep", "roll": roll[-1] if roll else 0}]
        if phase != "travel":
            return []
        out = []
        pos = view["positions"][seat]
        if not view["arrived"][seat] and turn["travels"] < 1 + int(bool(turn["extra_leg"])):
            if pos == D.ELEPHANT_LEG:
                out.append({"type": "travel", "cards": [], "days": D.WALK_DAYS,
                            "to": D.LOCATIONS[(pos + 1) % len(D.LOCATIONS)]})
            else:
                out.append(QuickMenu("travel"))
        out.append({"type": "stay", "location": D.LOCATIONS[pos]} if turn["travels"] == 0 else {"type": "done"})
        return out

    def no_moves_text(self, group: str, view: View, t: Translator) -> str | None:
        """Pressing the public "Travel…" with no way to travel: what the next leg needs and
        what the presser holds (their own view; the reply is theirs alone)."""
        seat = view.get("current")
        if group != "travel" or seat is None:
            return None
        pos = view["positions"].get(seat, 0)
        leg = view["legs"][pos]
        if not leg["options"]:
            return None
        need = t("hand.or").join(" + ".join(ICON[k] for k in opt) for opt in leg["options"])
        travel = (view.get("private") or {}).get("travel", [])
        held = " ".join(card(c) for c in travel) if travel else t("why.no_travel_cards")
        nxt = D.LOCATIONS[(pos + 1) % len(D.LOCATIONS)]
        return t("why.travel", city=city(nxt, t), need=need, held=held)

    def result_score(self, entry: dict[str, Any], t: Translator) -> str | None:
        """Days used by those home; the others are not home (with the days they used)."""
        if entry.get("arrived"):
            return t.plural("result.score", int(entry["days"]))
        return t.plural("result.not_home", int(entry.get("days", 0)))

    def tie_break(self, entry: dict[str, Any], above: dict[str, Any], t: Translator) -> str | None:
        """Home on the same day: the earlier arrival (two players home the same round: more gold)."""
        if not (entry.get("arrived") and above.get("arrived")):
            return None
        if entry.get("gold") != above.get("gold") and above.get("gold", 0) > entry.get("gold", 0) \
                and (above.get("arrival") or 0) > (entry.get("arrival") or 0):
            return t("result.tie_gold", better=above["gold"], worse=entry["gold"])
        return t("result.tie_arrival")

    def result_note(self, result: Result, names: dict[str, str], t: Translator) -> str | None:
        """When the winner is not the first home within 80 days: say which rule decided."""
        ranking = result.get("ranking", [])
        if not ranking or not ranking[0].get("arrived"):
            return None
        first = ranking[0]
        name = names.get(first["seat"], first["seat"])
        if first["days"] > D.TARGET_DAYS:
            return t("result.nobody_in_time", name=name)
        late = [r for r in ranking if r.get("arrival") == 1 and r["days"] > D.TARGET_DAYS]
        if len(ranking) == 2 and late:
            return t("result.first_home_late", name=names.get(late[0]["seat"], late[0]["seat"]))
        return None

    def menu_group(self, action: Action) -> str:
        """Balloon journeys are journeys: "Travel…" on the turn message lists them too."""
        kind = str(action["type"])
        if kind in ("use_action", "skip_action"):
            return "action"
        if kind in ("stay", "done", "reroll", "keep"):
            return "turn"
        if kind in ("take", "take_top"):
            return "take"
        if kind in ("buy", "elephant_gold"):
            return "gold"
        return kind

    def news_text(self, action: Action, events: list[Event], before: View, after: View, t: Translator) -> str | None:
        """The cards the move put in the mover's hand unseen by them before: an event card, the
        top travel card, a bought or exchanged card (a display card they saw is not news)."""
        old, new = before.get("private") or {}, after.get("private") or {}
        travel = Counter(new.get("travel", [])) - Counter(old.get("travel", []))
        if action.get("type") == "take":
            travel -= Counter([action["card"]])
        drawn = [card(c) for c in sorted(travel.elements())]
        held = Counter(new.get("events", [])) - Counter(old.get("events", []))
        drawn += [event_name(e, t) for e in sorted(held.elements())]
        # a Delay or Bad Weather strikes at once (the channel reads what it did): still, it was drawn
        drawn += [event_name(e["card"], t) for e in events if e.get("type") == "grey_event"]
        return t("news.drew", cards=", ".join(drawn)) if drawn else None

    # -- channel lines ---------------------------------------------------------------------------
    def event_text(self, event: Event, names: dict[str, str], t: Translator) -> str | None:  # noqa: C901 - flat dispatch, one branch per event type
        # long: one short branch per event type of the game, read top to bottom like the catalog
        kind = event.get("type")

        def name(s: Any) -> str:
            return names.get(s, s) if isinstance(s, str) else str(s)

        who = name(event.get("seat", ""))
        if kind == "take":
            return t("event.take", seat=who, card=card(event["card"]), action=t(f"display.{event['action']}"))
        if kind == "take_top":
            return t("event.take_top", seat=who)
        if kind == "gold":
            return t("event.gold" if event.get("amount") else "event.gold_empty", seat=who)
        if kind == "draw_event":
            return t("event.draw_event", seat=who)
        if kind == "grey_event":
            return t.plural("event.grey_event", event["days"], seat=who, card=event_name(event["card"], t))
        if kind == "event_deck_empty":
            return t("event.event_deck_empty", seat=who)
        if kind == "first_player":
            return t("event.first_player", seat=who)
        if kind == "skip_action":
            return None
        if kind == "detective":
            return t("event.detective", seat=who, city=city(event["location"], t))
        if kind == "exchange":
            return t.plural("event.exchange", event["count"], seat=who)
        if kind == "roll":
            return t(f"event.roll_{event['kind']}", seat=who, roll=event["roll"])
        if kind == "reroll":
            return t("event.reroll", seat=who, roll=event["roll"])
        if kind == "travel":
            params = dict(seat=who, start=city(event["from"], t), end=city(event["to"], t),
                          total=event["total"], cards=cards_text(event.get("cards", [])))
            days = event["days"]
            if event.get("ride") == "elephant":
                return t.plural("event.travel_elephant", days, **params)
            if event.get("ride") == "balloon":
                if event.get("balloon") in event.get("cards", []):
                    shown = list(event["cards"])
                    shown.remove(event["balloon"])
                    params["cards"] = " + ".join([t("balloon_card", card=card(event["balloon"]))]
                                                 + [card(c) for c in shown])
                return t.plural("event.travel_balloon", days, **params)
            if not event.get("cards"):
                return t.plural("event.travel_walk", days, **params)
            return t.plural("event.travel", days, **params)
        if kind == "chit":
            return t("event.chit", seat=who, colour=t(f"colour.{event['colour']}"), city=city(event["location"], t),
                     chit=t(f"chit.{event['chit']}"))
        if kind == "others_lose_day":
            return t("event.others_lose_day", seat=who)
        if kind == "arrive":
            return t.plural("event.arrive", event["days"], seat=who, place=event["place"])
        if kind == "stay":
            return t("event.stay", seat=who, city=city(event["location"], t))
        if kind == "detective_penalty":
            return t.plural("event.detective_penalty", event["days"], seat=who, city=city(event["location"], t))
        if kind == "discard":
            return t("event.discard", seat=who, card=any_card(event["card"], t))
        if kind == "play_event":
            if event.get("as"):
                return t("event.play_princess", seat=who, card=event_name(event["as"], t))
            return t("event.play_event", seat=who, card=event_name(event["card"], t))
        if kind == "elephant_gold":
            return t("event.elephant_gold", seat=who)
        if kind == "buy":
            return t(f"event.buy_{event['deck']}", seat=who)
        if kind == "time_pressure":
            return t.plural("event.time_pressure", len(event["seats"]),
                            seats=", ".join(name(s) for s in event["seats"]))
        if kind == "round":
            return t("event.round", round=event["round"], first=name(event["first"]))
        if kind == "game_over":
            return t.plural("event.game_over", len(event["winners"]),
                            winners=", ".join(name(s) for s in event["winners"]))
        return None

    # -- status and hand -----------------------------------------------------------------------------
    def status_text(self, view: View, names: dict[str, str], t: Translator) -> str:
        lines = []
        if not view.get("over"):
            cur = view["current"]  # a seat until the game is over
            lines.append(t("status.round", round=view["round"], first=names.get(view["first_player"],
                                                                                  view["first_player"]),
                           seat=names.get(cur, cur), phase=t(f"phase.{view['phase']}"),
                           detective=city(view["detective"], t)))
        for s in view["seats"]:
            where = t("status.home", place=view["arrival_order"].index(s) + 1) if view["arrived"][s] else city(
                view["positions"][s], t)
            lines.append(t("status.player", seat=names.get(s, s), where=where,
                           days=t.plural("count.days", view["days"][s]),
                           gold=t.plural("count.gold", view["gold"][s]),
                           cards=t.plural("count.travel_cards", view["hands"][s]["travel"]),
                           events=t.plural("count.event_cards", view["hands"][s]["event"])))
        return "\n".join(lines)

    def hand_text(self, view: View, seat: str, names: dict[str, str], t: Translator) -> str:
        priv = view.get("private") or {}
        travel = " ".join(card(c) for c in priv.get("travel", [])) or "—"
        events = ", ".join(event_name(e, t) for e in priv.get("events", [])) or "—"
        pos = view["positions"].get(seat, 0)
        if view["arrived"].get(seat):
            return t.plural("hand.home", view["days"][seat])
        nxt = D.LOCATIONS[(pos + 1) % len(D.LOCATIONS)]
        leg = view["legs"][pos]
        if leg["options"]:
            need = t("hand.or").join(" + ".join(ICON[k] for k in opt) for opt in leg["options"])
        else:
            need = t.plural("hand.no_cards", leg.get("days", D.WALK_DAYS))
        return t("hand.text", travel=travel, events=events, gold=view["gold"][seat], days=view["days"][seat],
                 city=city(pos, t), next=city(nxt, t), need=need)


UI = AroundTheWorldUI(
    game_id="around-the-world",
    group="atw",
    commands=COMMANDS,
    package_dir=Path(__file__).parent,
)
