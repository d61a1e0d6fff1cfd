"""The UI of Rails & Sails: labels of actions, channel lines, status and hand texts,
refusals, turn-message buttons and menu groups, and the names of cards, routes and tickets
they share, all in the catalog's language. The `/rails` commands it carries are declared in
`commands.py`."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.games.rails_and_sails.commands import COMMANDS
from bot.gameui import GameUI, QuickMenu
from bot.i18n import Translator
from engine import Action, Event, View
from engine.games.rails_and_sails.mapdata import CITIES, ROUTES_BY_ID, TICKETS_BY_ID

KIND_ICON = {"train": "🚂", "ship": "🚢"}
MAX_LABEL = 80


def city_name(city_id: str, t: Translator) -> str:
    """A city's name in the catalog's language (`city.<id>`, the one source of city names: the
    board image draws the same through the Translator), else the map data's name."""
    key = f"city.{city_id}"
    if t.has(key):
        return t(key)
    city = CITIES.get(city_id)
    return city.name if city is not None else city_id


def card_text(card: str | None, t: Translator) -> str:
    """'t:red:h' -> 'red train ⚓' in the catalog's language."""
    if card is None:
        return t("card.empty")
    if card == "t:wild":
        return t("card.wild")
    parts = card.split(":")
    colour = t(f"colour.{parts[1]}")
    if parts[0] == "t":
        return t("card.train_h" if parts[-1] == "h" else "card.train", colour=colour)
    return t("card.ship2" if parts[-1] == "2" else "card.ship", colour=colour)


def card_symbol(card: str, t: Translator) -> str:
    """Compact form for long labels: 'yellow🚂⚓', 'red🚢🚢', '🃏'."""
    if card == "t:wild":
        return "🃏"
    parts = card.split(":")
    colour = t(f"colour.{parts[1]}")
    if parts[0] == "t":
        return colour + ("🚂⚓" if parts[-1] == "h" else "🚂")
    return colour + ("🚢🚢" if parts[-1] == "2" else "🚢⚓")


def cards_text(cards: list[str], t: Translator, compact: bool = False) -> str:
    """A payment as '2× yellow train, 1× wild' (most common first, stable)."""
    counts: dict[str, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    order = sorted(counts, key=lambda c: (c == "t:wild", -counts[c], c))
    if compact:
        return " ".join(f"{counts[c]}×{card_symbol(c, t)}" for c in order)
    return ", ".join(f"{counts[c]}× {card_text(c, t)}" for c in order)


def cards_merged(cards: list[str], t: Translator) -> str:
    """The shortest form of a payment, for labels that are too long even compact (a rough route
    paid with pairs of several colours): train cards counted per colour with or without the
    harbor symbol ('2×red🚂'); ship cards and wilds as in `card_symbol`. Still unambiguous among
    the listed payments of a route: they take a colour's plain train cards before its
    harbor-symbol ones."""
    merged = [f"t:{c.split(':')[1]}" if c.startswith("t:") and c != "t:wild" else c for c in cards]
    return cards_text(merged, t, compact=True)


def route_text(route_id: str, t: Translator) -> str:
    r = ROUTES_BY_ID.get(route_id)
    if r is None:
        return route_id
    a = city_name(r.a, t) if r.a in CITIES else t(f"waypoint.{r.a}")
    b = city_name(r.b, t) if r.b in CITIES else t(f"waypoint.{r.b}")
    # a rough route takes a pair of any colour per space: its colour does not matter
    what = t("route.rough") if r.rough else t("colour." + r.colour)
    text = f"{a} – {b} {KIND_ICON[r.kind]}{r.length} {what}"
    twin = ROUTES_BY_ID.get(r.double) if r.double else None
    if twin is not None and twin.colour == r.colour:  # e.g. the grey pair: tell the twins apart
        text += f" #{r.id.rsplit('-', 1)[1]}"
    return text


def ticket_text(ticket_id: str, t: Translator, *, points: bool = True) -> str:
    """'Edinburgh–Hong Kong (17)'; a route ticket's values as '10/5/−3'; `points=False`:
    the cities only, for labels that must be short."""
    tk = TICKETS_BY_ID.get(ticket_id)
    if tk is None:
        return ticket_id
    names = "–".join(city_name(c, t) for c in tk.cities)
    if not points:
        return names
    pts = "/".join(str(p) if i < 2 else f"−{p}" for i, p in enumerate(tk.points))
    return f"{names} ({pts})"


#: event type -> the field holding the number its line's noun agrees with
_COUNTED = {"tickets_kept": "count", "claim": "points", "tickets_drawn": "count", "final_round": "pieces"}


def _event_count(event: Event) -> int | None:
    """The number an event line's noun (or verb) agrees with; None when the line counts nothing."""
    kind = event.get("type")
    if kind == "exchange":
        return abs(int(event["trains"]))
    if kind == "game_over":
        return len(event.get("winners", []))
    field = _COUNTED.get(str(kind))
    return int(event[field]) if field and field in event else None


def _trim(text: str, n: int = MAX_LABEL) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


@dataclass
class RailsUI(GameUI):
    def action_label(self, action: Action, view: View, t: Translator) -> str:
        kind = action.get("type")
        if kind == "draw":
            if action["source"] == "face_up":
                card = action.get("card")
                return _trim(t("action.draw_face_up", card=card_text(card, t), slot=action["slot"] + 1,
                               refill=t(f"deck.{action['refill']}")))
            return _trim(t(f"action.draw_{action['source']}"))
        if kind == "claim":
            route = route_text(action["route"], t)
            cards = action["cards"]
            text = ""
            for shown in (cards_text(cards, t), cards_text(cards, t, compact=True), cards_merged(cards, t)):
                text = t("action.claim", route=route, cards=shown)
                if len(text) <= MAX_LABEL:
                    return text
            return _trim(text)
        if kind == "keep_tickets":
            return self._keep_label(action, view, t)
        if kind == "harbor":
            full = t("action.harbor", city=city_name(action["city"], t), cards=cards_text(action["cards"], t))
            if len(full) <= MAX_LABEL:
                return full
            return _trim(t("action.harbor", city=city_name(action["city"], t),
                           cards=cards_text(action["cards"], t, compact=True)))
        if kind == "exchange":
            n = action["trains"]
            key = "action.exchange_to_trains" if n > 0 else "action.exchange_to_ships"
            return _trim(t.plural(key, abs(n)))
        if kind == "choose_mix":
            return _trim(t("action.choose_mix", trains=action["trains"], ships=60 - action["trains"]))
        return _trim(super().action_label(action, view, t))

    def _keep_label(self, action: Action, view: View, t: Translator) -> str:
        """Tickets are named, never numbered: the kept ones, or "all but" the returned ones when
        that is shorter (keeping 3 of 5 names the 2 returned), with points while they fit."""
        ids = list(action["ids"])
        pending = [p["id"] for p in (view.get("private") or {}).get("pending_tickets", [])]
        offered = bool(pending) and all(i in pending for i in ids)  # else: worded after the choice
        returned = [p for p in pending if p not in ids] if offered else []
        if offered and not returned and len(ids) > 2:
            return _trim(t.plural("action.keep_all", len(ids)))
        forms: list[tuple[str, list[str]]] = [("action.keep_tickets", ids)]
        if returned and len(returned) < len(ids):
            forms.insert(0, ("action.keep_all_but", returned))
        texts = [t(key, tickets=" · ".join(ticket_text(i, t, points=with_points) for i in named))
                 for with_points in (True, False) for key, named in forms]
        return next((text for text in texts if len(text) <= MAX_LABEL), _trim(min(texts, key=len)))

    def tie_break(self, entry: dict[str, Any], above: dict[str, Any], t: Translator) -> str | None:
        """Equal points: the rulebook's tie-break (completed tickets)."""
        if entry.get("completed") == above.get("completed"):
            return None
        return t("result.tie_tickets", better=above.get("completed", 0), worse=entry.get("completed", 0))

    def news_text(self, action: Action, events: list[Event], before: View, after: View, t: Translator) -> str | None:
        """A blind draw names the card drawn; drawn tickets are listed whole (cities, points),
        one a line, numbered as the hand image numbers them."""
        old, new = before.get("private") or {}, after.get("private") or {}
        lines: list[str] = []
        gained = Counter(new.get("hand", [])) - Counter(old.get("hand", []))
        if action.get("type") == "draw" and action.get("source") == "face_up":
            gained -= Counter([action.get("card")])
        if gained:
            lines.append(t("news.drew", cards=cards_text(list(gained.elements()), t)))
        known = {p["id"] for p in old.get("pending_tickets", [])}
        offered = [p["id"] for p in new.get("pending_tickets", [])]
        if offered and not known & set(offered):
            lines.append(t.plural("news.tickets", len(offered)))
            lines += [f"{i}) {ticket_text(tid, t)}" for i, tid in enumerate(offered, 1)]
        return "\n".join(lines) or None

    def event_text(self, event: Event, names: dict[str, str], t: Translator) -> str | None:
        kind = event.get("type")
        key = f"event.{kind}"
        if not (t.has(key) or t.has(f"{key}.other")):
            return None
        params: dict[str, Any] = {k: (names.get(v, v) if isinstance(v, str) else v) for k, v in event.items()}
        if kind == "claim":
            params["route"] = route_text(event["route"], t)
            params["cards"] = cards_text(event["cards"], t)
        elif kind == "harbor":
            params["city"] = city_name(event["city"], t)
            params["cards"] = cards_text(event["cards"], t)
        elif kind == "take_face_up":
            params["card"] = card_text(event["card"], t)
            params["new"] = card_text(event["new"], t)
        elif kind in ("draw_blind", "reshuffle"):
            params["deck"] = t(f"deck.{event['deck']}")
        elif kind == "exchange":
            n = event["trains"]
            key = "event.exchange_to_trains" if n > 0 else "event.exchange_to_ships"
            params["count"] = abs(n)
        elif kind == "game_over":
            params["winners"] = ", ".join(names.get(s, s) for s in event.get("winners", []))
        count = _event_count(event)
        if count is not None:
            params.pop("count", None)
            return t.plural(key, count, **params)
        return t(key, **params)

    def board_changed(self, events: list[Event]) -> bool:
        """A secret setup choice (tickets kept, piece mix) moves nothing on the board."""
        return any(e.get("type") not in ("tickets_kept", "mix_chosen") for e in events)

    def status_text(self, view: View, names: dict[str, str], t: Translator) -> str:
        phase = view.get("phase")
        if phase == "setup_tickets":
            return t("status.setup_tickets")
        if phase == "setup_pieces":
            return t("status.setup_pieces")
        if phase != "play":
            return ""
        decks = view["decks"]
        # a round is a turn of every seat, as the game's summary and timelapse count them
        parts = [t("status.play", round=view["turn"] // max(1, len(view["seats"])) + 1, turn=view["turn"],
                   train=decks["train"], ship=decks["ship"],
                   tickets=t.plural("count.tickets_left", decks["tickets"]))]
        pieces = []
        for s in view["seats"]:
            p = view["pieces"].get(s) or {}
            pieces.append(t.plural("status.pieces", view["scores"][s], name=names.get(s, s),
                                   trains=p.get("trains", "?"), ships=p.get("ships", "?")))
        parts.append(" · ".join(pieces))
        if view.get("final_turns_left"):
            parts.append(t.plural("status.final", view["final_turns_left"].get(view.get("current"), 0)))
        return "\n".join(parts)

    def hand_text(self, view: View, seat: str, names: dict[str, str], t: Translator) -> str:
        private = view.get("private") or {}
        lines = []
        hand = private.get("hand", [])
        lines.append(t("hand.cards", cards=cards_text(hand, t) if hand else t("hand.no_cards")))
        for tk in private.get("tickets", []):
            lines.append(t("hand.ticket", ticket=ticket_text(tk["id"], t), status=t(f"ticket_status.{tk['status']}")))
        pending = private.get("pending_tickets", [])
        if pending:
            lines.append(t("hand.pending"))
            for n, tk in enumerate(pending, start=1):
                lines.append(f"{n}. {ticket_text(tk['id'], t)}")
        mix = private.get("mix") or {}
        pieces = (view.get("pieces") or {}).get(seat)
        if pieces:
            box = (view.get("box") or {}).get(seat) or {}
            lines.append(t("hand.pieces", trains=pieces["trains"], ships=pieces["ships"],
                           box_trains=t.plural("count.trains", box.get("trains", 0)),
                           box_ships=t.plural("count.ships", box.get("ships", 0)),
                           harbors=t.plural("count.harbors_left", view["harbors_left"][seat])))
        elif mix.get("trains") is not None:
            lines.append(t("hand.mix", trains=mix["trains"], ships=mix["ships"]))
        return "\n".join(lines)

    def illegal_text(self, code: str, message: str, params: dict[str, Any], t: Translator) -> str:
        params = dict(params)
        if "city" in params:
            params["city"] = city_name(str(params["city"]), t)
        if "route" in params:
            params["route"] = route_text(str(params["route"]), t)
        if "kind" in params:
            params["kind"] = t(f"kind.{params['kind']}")
        return super().illegal_text(code, message, params, t)

    def quick_actions(self, view: View, seat: str) -> list[Action | QuickMenu]:
        """Turn-message buttons, from the public view: the blind draws, then face-up cards
        (refilled from the deck of the same kind; not a wild), then drawing tickets. Claims,
        harbors and ticket choices name secret cards or tickets: menu only."""
        if view["phase"] != "play" or view["current"] != seat or view["pending_counts"].get(seat):
            return []
        decks = view["decks"]
        left = {"train": decks["train"] > 0, "ship": decks["ship"] > 0}
        out: list[Action | QuickMenu] = [{"type": "draw", "source": f"{kind}_deck"} for kind, ok in left.items() if ok]
        for slot, card in enumerate(view["face_up"]):
            if card is None or card == "t:wild":
                continue
            same = "train" if card.startswith("t:") else "ship"
            if left[same]:
                out.append({"type": "draw", "source": "face_up", "slot": slot, "card": card, "refill": same})
        if not view["drawn"] and decks["tickets"]:
            out.append({"type": "tickets"})
        return out[:4]

    def menu_group(self, action: Action) -> str:
        kind = str(action["type"])
        if kind == "claim":
            route = ROUTES_BY_ID.get(action["route"])
            return f"claim_{route.kind}" if route else kind
        if kind == "draw":
            return "draw_face_up" if action["source"] == "face_up" else "draw_deck"
        return kind


UI = RailsUI(
    game_id="rails-and-sails",
    group="rails",
    commands=COMMANDS,
    package_dir=Path(__file__).parent,
)
