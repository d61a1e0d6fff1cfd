"""The UI of 80 Days: labels of actions, channel lines, status and hand texts, refusals,
turn-message buttons and menu groups. The `/days` commands it carries are declared in
`commands.py`.

Every name (cities, items, newspapers, assistants, pass tiles, adventure titles) comes from
the catalogs, so the board image, the buttons and the channel lines say the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.games.eighty_days.commands import COMMANDS
from bot.gameui import GameUI, QuickMenu
from bot.i18n import Translator
from engine import Action, Event, View
from engine.games.eighty_days.content import ITEMS, MARKET_ITEMS, SEARCH_COST
from render.eighty_days.hand import bonus_text

MAX_LABEL = 100
KIND_ICON = {"ship": "🚢", "train": "🚂", "special": "✨", "any": "🧭"}
ROMAN = ("", "I", "II", "III", "IV", "V")
#: action type -> its group in the move menu (and the name of the public "…" buttons)
GROUPS: dict[str, str] = {
    "travel": "travel", "leonard": "travel", "mary": "travel",
    "buy": "buy", "black_market": "black_market", "juggle": "juggle", "pass": "pass",
    "complete": "adventure", "search": "adventure", "give_back": "give_back",
    "jill": "assistant", "paul": "assistant", "luigi": "assistant", "end_turn": "end_turn",
    "keep_adventure": "keep", "keep_assistant": "keep",
    "take_item": "choice", "albert": "choice", "free_travel": "choice", "observer": "choice", "swap": "choice",
}
#: a public waiting decision -> the menu group that answers it
DECISION_GROUP = {"adventure": "keep", "assistant": "keep", "overflow": "give_back", "any_item": "choice",
                  "free_travel": "choice", "observer": "choice", "swap": "choice", "albert": "choice"}
#: secret choices: they move nothing on the board
SECRET_EVENTS = frozenset({"keep_adventure", "keep_assistant"})


def _trim(text: str, n: int = MAX_LABEL) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


# -- names ------------------------------------------------------------------------------------------
def city(cid: str, t: Translator) -> str:
    return t(f"city.{cid}")


def item(name: str, t: Translator) -> str:
    """'🎩 hat' in the catalog's language."""
    return t(f"item.{name}")


def items_text(items: dict[str, int], t: Translator) -> str:
    """'2× 🎩 hat, 1× 🧥 coat' (catalog order of the items)."""
    return ", ".join(f"{n}× {item(k, t)}" for k, n in items.items() if n)


def coins(n: int, t: Translator) -> str:
    return t.plural("count.coins", n)


def points(n: int, t: Translator) -> str:
    return t.plural("count.points", n)


def adventure_title(card: str, t: Translator) -> str:
    return t(f"adventure.{card}")


def card_needs(card: dict[str, Any], t: Translator) -> str:
    """What an adventure asks: its items, coins and market symbol."""
    parts = [items_text(card["items"], t)] if card["items"] else []
    if card["coins"]:
        parts.append(coins(card["coins"], t))
    where = t("market_symbol.london") if card.get("london") else t(f"market_symbol.{card['market']}")
    return t("card.needs", needs=" + ".join(parts) or "—", where=where)


def card_text(card: dict[str, Any], t: Translator) -> str:
    """«title» — needs … · n points · bonus."""
    return t("card.text", title=adventure_title(card["id"], t), needs=card_needs(card, t),
             points=points(card["points"], t), bonus=bonus_text(card.get("bonus"), t))


def cost_text(cost: dict[str, Any] | None, t: Translator) -> str:
    """A line's own cost as ' + 🎩 hat' / ' + 2 coins' ('' for none)."""
    if not cost:
        return ""
    if cost["kind"] == "coins":
        return t("action.line_extra", cost=coins(cost["coins"], t))
    return t("action.line_extra", cost=item(cost["item"], t))


def _line(view: View, lid: str) -> dict[str, Any]:
    return next(ln for ln in view["map"]["lines"] if ln["id"] == lid)


def _player(view: View, seat: str | None) -> dict[str, Any] | None:
    return next((p for p in view.get("players", []) if p["seat"] == seat), None)


def _actor(view: View) -> dict[str, Any] | None:
    """The seat whose menu this is: the private seat, else the seat first to act."""
    seat = (view.get("private") or {}).get("seat") or (view.get("to_act") or [view.get("current")])[0]
    return _player(view, seat)


def _destination(view: View, lid: str) -> str:
    line = _line(view, lid)
    me = _actor(view)
    here = me["city"] if me else line["a"]
    return line["b"] if line["a"] == here else line["a"]


@dataclass
class EightyDaysUI(GameUI):
    # -- labels ------------------------------------------------------------------------------------------
    def action_label(self, action: Action, view: View, t: Translator) -> str:
        return _trim(self._label(action, view, t))

    def _travel_label(self, action: Action, view: View, t: Translator) -> str:
        lid = action["line"]
        line = _line(view, lid)
        dest = city(_destination(view, lid), t)
        extra = cost_text(line["cost"], t)
        kind = action["type"]
        if kind == "travel":
            area = action["area"]
            text = t("action.travel", icon=KIND_ICON[area], kind=t(f"kind_cap.{area}"), city=dest,
                     cost=coins(view["areas"][area]["next_cost"], t)) + extra
            if area != line["kind"]:  # the Sunday Express: a special trip along another line
                text += t("action.along", kind=t(f"kind.{line['kind']}"))
            return text
        if kind == "leonard":
            return t("action.leonard", icon=KIND_ICON[line["kind"]], city=dest) + extra
        if kind == "mary":
            return t("action.mary", icon=KIND_ICON[line["kind"]], city=dest)
        return t("action.free_travel", icon=KIND_ICON[line["kind"]], city=dest)

    def _label(self, action: Action, view: View, t: Translator) -> str:  # noqa: C901 - flat dispatch, one branch per action type
        kind = action.get("type")
        if kind in ("travel", "leonard", "mary", "free_travel"):
            return self._travel_label(action, view, t)
        if kind == "buy":
            market = action["market"]
            return t("action.buy", item=item(action["item"], t), market=t(f"market.{market}"),
                     cost=coins(view["areas"][market]["next_cost"], t))
        if kind == "black_market":
            return t("action.black_market", cost=coins(view["areas"]["black"]["next_cost"], t))
        if kind == "juggle":
            stack = action["stack"]
            juggler = view.get("juggler") or []
            n = juggler[stack] if stack < len(juggler) else 0
            return t("action.juggle", coins=coins(n, t), stack=stack + 1)
        if kind == "pass":
            tile = action.get("tile")
            if tile:
                got = next((p["coins"] for p in view.get("pass_tiles") or [] if p["id"] == tile), 0)
                return t("action.pass_tile", tile=t(f"pass_tile.{tile}"), coins=coins(got, t))
            if view["options"]["side"] == "A" and not any(p["passed"] for p in view["players"]):
                return t("action.pass_first")
            return t("action.pass")
        if kind == "complete":
            card = (view.get("private") or {}).get("adventure")
            if card:
                return t("action.complete_card", title=adventure_title(card["id"], t),
                         points=points(card["points"], t))
            return t("action.complete")
        if kind == "search":
            return t("action.search")
        if kind in ("give_back", "take_item"):
            return t(f"action.{kind}", item=item(action["item"], t))
        if kind in ("jill", "swap"):
            if "give" not in action:
                return t("action.no_swap")
            return t(f"action.{kind}", give=item(action["give"], t), take=item(action["take"], t))
        if kind == "keep_adventure":
            card = next((c for c in (view.get("private") or {}).get("draft", []) if c["id"] == action["card"]),
                        None)
            if card is None:
                return t("action.keep_adventure", card=adventure_title(action["card"], t))
            return t("action.keep_adventure", card=card_text(card, t))
        if kind == "keep_assistant":
            name = action["assistant"]
            return t("action.keep_assistant", assistant=t(f"assistant.{name}"), effect=t(f"assistant_short.{name}"))
        if kind == "observer":
            if "item" in action:
                return t("action.observer_item", item=item(action["item"], t))
            return t("action.observer")
        if kind == "albert":
            me = _actor(view)
            entry = next((e for e in (me or {}).get("pending", []) if e["kind"] == "albert"), None)
            if action["keep"]:
                face = entry["face"] if entry else "joker"
                return t("action.albert_keep", face=t(f"face.{face}"))
            return t.plural("action.albert_roll", entry["rolls"] if entry else 1)
        key = f"action.{kind}"
        return t(key) if t.has(key) else str(kind)

    def tie_break(self, entry: dict[str, Any], above: dict[str, Any], t: Translator) -> str | None:
        """Equal points: the rulebook's tie-break (coins)."""
        if entry.get("coins") == above.get("coins"):
            return None
        return t("result.tie_coins", better=above.get("coins", 0), worse=entry.get("coins", 0))

    def news_text(self, action: Action, events: list[Event], before: View, after: View, t: Translator) -> str | None:
        """The adventure cards the mover drew (the channel learns only how many), whole, one a
        line, so they can choose without opening their hand."""
        me = (after.get("private") or {}).get("seat")
        known = {c["id"]: c for c in (after.get("private") or {}).get("draft", [])}
        lines: list[str] = []
        for event in events:
            if event.get("type") == "draw_adventures" and event.get("seat") == me:
                cards = (event.get("private") or {}).get("cards", [])
                lines.append(t.plural("news.drew", len(cards)))
                lines += [f"{i}) " + (card_text(known[c], t) if c in known else adventure_title(c, t))
                          for i, c in enumerate(cards, 1)]
        return "\n".join(lines) or None

    def menu_group(self, action: Action) -> str:
        return GROUPS.get(str(action["type"]), str(action["type"]))

    def no_moves_text(self, group: str, view: View, t: Translator) -> str | None:
        """Pressing a public "Buy…", "Adventure…" or "Travel…" with nothing to do there: what
        it costs or needs and what the presser has (their own view; the reply is theirs alone)."""
        me = _actor(view)
        if me is None or view.get("phase") != "play":
            return None
        if group in ("buy", "travel") and view.get("acted"):
            return t("why.acted")
        if group == "buy":
            return _why_no_buy(view, me, t)
        if group == "adventure":
            return _why_no_adventure(view, me, t)
        if group == "travel":
            cheapest = min(view["areas"][k]["next_cost"] for k in ("ship", "train", "special"))
            return t("why.travel", cost=coins(cheapest, t), have=coins(me["coins"], t))
        return None

    def quick_actions(self, view: View, seat: str) -> list[Action | QuickMenu]:
        """Turn-message buttons, from the public view only: a waiting decision opens its menu
        (drafts and free trips name secret or many options); Albert's keep/roll shows the
        public die; on a turn: "Travel…", "Buy…", the black market and passing before the
        action, ending the turn and "Adventure…" after it. Whether this player can pay or
        complete is checked privately when the button is pressed."""
        me = _player(view, seat)
        if me is None or view.get("over"):
            return []
        if me["pending"]:
            entry = me["pending"][0]
            if entry["kind"] == "albert":
                out: list[Action | QuickMenu] = [{"type": "albert", "keep": True}]
                if entry["rolls"]:
                    out.append({"type": "albert", "keep": False})
                return out
            return [QuickMenu(DECISION_GROUP.get(entry["kind"], "choice"))]
        if view.get("phase") != "play" or view.get("current") != seat or seat not in view.get("to_act", []):
            return []
        if view.get("acted"):
            return [{"type": "end_turn"}, QuickMenu("adventure")]
        out = []
        if not me["in_london"]:
            out.append(QuickMenu("travel"))
        out.append(QuickMenu("buy"))
        out.append({"type": "black_market"})
        tiles = view.get("pass_tiles")
        if view["options"]["side"] == "B" and tiles and view["period"] < view["periods"]:
            out.append(QuickMenu("pass"))
        else:
            out.append({"type": "pass"})
        return out

    def board_changed(self, events: list[Event]) -> bool:
        """Keeping a drafted adventure or assistant is secret and moves nothing on the board."""
        return any(e.get("type") not in SECRET_EVENTS for e in events)

    # -- channel lines --------------------------------------------------------------------------------
    def event_text(self, event: Event, names: dict[str, str], t: Translator) -> str | None:  # noqa: C901 - flat dispatch, one branch per event type
        # long: one short branch per event type of the game, read top to bottom like the catalog
        kind = event.get("type")

        def name(s: Any) -> str:
            return names.get(s, s) if isinstance(s, str) else str(s)

        who = name(event.get("seat", ""))
        if kind == "pay":
            if event["area"] in ("ship", "train", "special"):
                return None  # the travel line says it
            return None if event["area"] != "black" else t("event.black_market", seat=who,
                                                             cost=coins(event["coins"], t))
        if kind == "travel":
            how = event["how"]
            key = f"event.travel_{how}" if how in ("leonard", "mary", "free") else "event.travel"
            return t(key, seat=who, icon=KIND_ICON.get(how, "🧭"), start=city(event["from"], t),
                     end=city(event["to"], t), kind=t(f"kind.{how}") if how in KIND_ICON else "")
        if kind == "gain":
            return t(f"event.gain_{event['why']}" if t.has(f"event.gain_{event['why']}") else "event.gain",
                     seat=who, item=item(event["item"], t))
        if kind in ("give_back", "supply_empty"):
            return t(f"event.{kind}", seat=who, item=item(event["item"], t))
        if kind == "roll":
            return t("event.roll", seat=who, face=t(f"face.{event['face']}"))
        if kind == "juggle":
            return t("event.juggle", seat=who, coins=coins(event["coins"], t))
        if kind == "pass":
            if event.get("tile"):
                return t("event.pass_tile", seat=who, tile=t(f"pass_tile.{event['tile']}"),
                         coins=coins(event.get("coins", 0), t))
            return t("event.pass_first" if event.get("start_marker") else "event.pass", seat=who)
        if kind == "coins":
            return t(f"event.coins_{event['why']}", seat=who, coins=coins(event["coins"], t))
        if kind == "complete":
            return t("event.complete", seat=who, title=adventure_title(event["card"], t),
                     points=points(event["points"], t))
        if kind == "draw_adventures":
            if event["why"] == "complete":
                return None
            return t.plural(f"event.draw_{event['why']}", event["count"], seat=who)
        if kind == "keep_adventure":
            return t("event.keep_adventure", seat=who)
        if kind == "keep_assistant":
            return t("event.keep_assistant", seat=who)
        if kind == "assistants":
            shown = ", ".join(f"{name(s)}: {t(f'assistant.{a}')}" for s, a in event["assistants"].items() if a)
            return t("event.assistants", assistants=shown)
        if kind == "arrived":
            return t("event.arrived", seat=who, points=points(event["arrival_card"], t))
        if kind == "no_free_travel":
            return t("event.no_free_travel", seat=who, kind=t(f"kind.{event['travel']}"))
        if kind == "newspaper":
            paper = event["newspaper"]
            return t("event.newspaper", period=ROMAN[event["period"]], paper=t(f"newspaper.{paper}"),
                     coins=coins(event["coins"], t), effect=t(f"newspaper_effect.{paper}"),
                     start=name(event["start"]))
        if kind == "period_end":
            return t("event.period_end", period=ROMAN[event["period"]])
        if kind == "observer":
            if event.get("item"):
                return t("event.observer_item", seat=who, item=item(event["item"], t), coins=coins(event["coins"], t))
            return t("event.observer", seat=who, coins=coins(event["coins"], t))
        if kind == "swap":
            return t("event.swap", seat=who, give=item(event["give"], t), take=item(event["take"], t))
        if kind in ("no_swap", "luigi", "end_turn"):
            return None if kind == "end_turn" else t(f"event.{kind}", seat=who)
        if kind == "game_over":
            winners = event.get("winners", [])
            return t.plural("event.game_over", len(winners), winners=", ".join(name(s) for s in winners))
        return None

    # -- status and hand ------------------------------------------------------------------------------
    def status_text(self, view: View, names: dict[str, str], t: Translator) -> str:
        lines = []
        paper = view.get("newspaper")
        if view.get("phase") == "setup":
            lines.append(t("status.setup"))
        elif paper and not view.get("over"):
            cur = view["current"]  # a seat while a newspaper is out
            lines.append(t("status.period", period=ROMAN[view["period"]], paper=t(f"newspaper.{paper['id']}"),
                           effect=t(f"newspaper_effect.{paper['id']}"), seat=names.get(cur, cur)))
        for p in view["players"]:
            where = t("status.in_london") if p["in_london"] else city(p["city"], t)
            lines.append(t("status.player", seat=names.get(p["seat"], p["seat"]), where=where,
                           coins=coins(p["coins"], t), items=t.plural("count.items", p["item_count"]),
                           adventures=t.plural("count.adventures", p["adventures"]),
                           score=points(p["score"]["score"], t))
                         + (t("status.passed") if p["passed"] and not view.get("over") else ""))
        return "\n".join(lines)

    def hand_text(self, view: View, seat: str, names: dict[str, str], t: Translator) -> str:
        priv = view.get("private") or {}
        me = _player(view, seat)
        if me is None:
            return ""
        lines = [t("hand.coins", coins=coins(me["coins"], t),
                   items=items_text(me["items"], t) or t("hand.empty"))]
        card = priv.get("adventure")
        lines.append(t("hand.adventure", card=card_text(card, t) if card else t("hand.no_adventure")))
        if card and priv.get("can_complete"):
            lines.append(t("hand.can_complete"))
        helper = priv.get("assistant")
        if helper:
            lines.append(t("hand.assistant", assistant=t(f"assistant.{helper}"),
                           effect=t(f"assistant_effect.{helper}")))
        if me["matilda_revolvers"]:
            lines.append(t.plural("hand.matilda", me["matilda_revolvers"]))
        if me["diary"]:
            diary = ", ".join(adventure_title(c["id"], t) for c in me["diary"])
            lines.append(t("hand.diary", diary=diary, points=points(me["score"]["diary"], t)))
        draft = priv.get("draft") or []
        if draft:
            lines.append(t("hand.draft"))
            lines.extend(f"• {card_text(c, t)}" for c in draft)
        helpers = priv.get("assistant_draft") or []
        if helpers:
            lines.append(t("hand.assistant_draft"))
            lines.extend(f"• {t(f'assistant.{a}')}: {t(f'assistant_effect.{a}')}" for a in helpers)
        return "\n".join(lines)

    def illegal_text(self, code: str, message: str, params: dict[str, Any], t: Translator) -> str:
        params = dict(params)
        for key in ("item", "give", "take"):
            if isinstance(params.get(key), str):
                params[key] = item(params[key], t)
        if "market" in params:
            params["market"] = t(f"market.{params['market']}")
        if "assistant" in params:
            params["assistant"] = t(f"assistant.{params['assistant']}")
        if "decision" in params:
            params["decision"] = t(f"decision.{params['decision']}")
        if "need" in params and code == "no_coins":
            return t.plural("illegal.no_coins", int(params["need"]))
        return super().illegal_text(code, message, params, t)


UI = EightyDaysUI(
    game_id="eighty-days",
    group="days",
    commands=COMMANDS,
    package_dir=Path(__file__).parent,
)


def _why_no_buy(view: View, me: dict[str, Any], t: Translator) -> str:
    """Why no market sells to this player now: its price against their coins, or an empty supply."""
    here = next(c for c in view["map"]["cities"] if c["id"] == me["city"])["market"]
    markets = ("boutique", "bazaar") if me["in_london"] or here == "both" or \
        view["options"].get("colors_festival") else (here,)
    reasons = []
    for market in markets:
        cost = view["areas"][market]["next_cost"]
        if me["coins"] < cost:
            reasons.append(t("why.buy_cost", market=t(f"market.{market}"), cost=coins(cost, t),
                             have=coins(me["coins"], t)))
        else:
            sold = [ITEMS[k] for k in MARKET_ITEMS[market]]
            if market == "boutique" and (view.get("newspaper") or {}).get("id") == "guardian":
                sold.append("revolver")
            reasons.append(t("why.sold_out", market=t(f"market.{market}"),
                             items=", ".join(item(name, t) for name in sold)))
    return " ".join(reasons)


def _why_no_adventure(view: View, me: dict[str, Any], t: Translator) -> str:
    """Why this player can neither complete an adventure nor search for one: what the card
    still needs (items, coins, the city) and what searching costs."""
    card = (view.get("private") or {}).get("adventure")
    if card is None:
        parts = [t("why.no_adventure")]
    else:
        missing = {k: n - me["items"].get(k, 0) - (me.get("matilda_revolvers", 0) if k == "revolver" else 0)
                   for k, n in card["items"].items() if n}
        lacking = [f"{n}× {item(k, t)}" for k, n in missing.items() if n > 0]
        if card["coins"] > me["coins"]:
            lacking.append(coins(card["coins"] - me["coins"], t))
        here = next(c for c in view["map"]["cities"] if c["id"] == me["city"])["market"]
        wrong_city = (not me["in_london"]) if card.get("london") else \
            (me["in_london"] or here not in (card["market"], "both"))
        if wrong_city:
            where = t("market_symbol.london") if card.get("london") else t(f"market_symbol.{card['market']}")
            lacking.append(t("why.adventure_where", where=where))
        parts = [t("why.adventure", title=adventure_title(card["id"], t),
                   lacking=", ".join(lacking) or "—")]
    if me["coins"] < SEARCH_COST:
        parts.append(t("why.search_cost", cost=coins(SEARCH_COST, t), have=coins(me["coins"], t)))
    else:
        parts.append(t("why.search_empty"))
    return " ".join(parts)

