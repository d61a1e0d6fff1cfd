"""Rails & Sails presentation package: catalogs, commands, labels."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.games import ui_for
from bot.games.rails_and_sails import UI, cards_text, route_text, ticket_text
from bot.gameui import action_key
from bot.i18n import Translator, _flatten
from engine import registry
from engine.games.rails_and_sails.mapdata import TICKETS_BY_ID
from engine.rng import Rng

R = registry.get("rails-and-sails")
LOCALES = Path(UI.package_dir) / "locales"
ROOT = Path(__file__).resolve().parents[2]
NAMES = {"p1": "Ada", "p2": "Bo", "p3": "Cy", "p4": "Di", "p5": "Ed"}


def catalog(lang: str) -> dict[str, str]:
    return _flatten(json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8")))


def test_registered_ui():
    assert ui_for("rails-and-sails") is UI
    assert UI.group == "rails" and UI.game_id == R.id
    assert {c.name for c in UI.commands} == {"draw", "claim", "tickets", "keep", "harbor", "exchange", "mix", "pass"}


def test_catalogs_same_keys_and_translated():
    en, de, fr = catalog("en"), catalog("de"), catalog("fr")
    assert set(en) == set(de) == set(fr)
    # city names are proper names: many are the same in every language
    same_de = [k for k in en if en[k] == de[k] and not k.startswith("city.")]
    same_fr = [k for k in en if en[k] == fr[k] and not k.startswith("city.")]
    # only proper names, numbers and symbols may stay the same
    assert len(same_de) < len(en) * 0.1, same_de
    assert len(same_fr) < len(en) * 0.1, same_fr
    for cat in (en, de, fr):
        assert len(cat["rules"]) <= 3500
        assert 0 < len(cat["group"]) <= 100 and cat["title"] == "Rails & Sails"
        for cmd in UI.commands:
            assert 0 < len(cat[f"cmd.{cmd.name}"]) <= 100
            for p in cmd.params:
                assert 0 < len(cat[f"cmd.{cmd.name}.{p.name}"]) <= 100
                for choice in p.choices:
                    assert f"choice.{p.name}.{choice}" in cat


def test_every_illegal_code_has_a_message():
    source = "".join(
        p.read_text(encoding="utf-8")
        for p in [*sorted((ROOT / "engine/games/rails_and_sails").glob("*.py")), ROOT / "engine/core.py"]
    )
    codes = set(re.findall(r'IllegalAction\(\s*"(\w+)"', source))
    assert {"bad_payment", "wild_second", "double_closed", "no_route_to_city"} <= codes
    t = Translator("en", ROOT / "bot/games/rails_and_sails/locales")  # the game's catalog, then the platform's
    missing = [c for c in codes if not t.has(f"illegal.{c}")]
    assert not missing


def test_labels_and_events_in_random_games():
    for seed, n in ((1, 2), (2, 4), (3, 5)):
        s = R.new_game([f"p{i + 1}" for i in range(n)], seed)
        rng = Rng.from_seed(seed)
        lang = ("en", "de", "fr")[seed % 3]
        t = UI.translator(lang)
        steps = 0
        while not R.is_over(s) and steps < 600:
            seat = R.to_act(s)[0]
            legal = R.legal_actions(s, seat)
            view = R.view(s, seat)
            labels = [UI.action_label(a, view, t) for a in legal]
            assert all(0 < len(x) <= 80 for x in labels)
            assert len(set(labels)) == len(labels)
            assert all("{" not in x for x in labels), labels
            quick = UI.quick_actions(R.view(s, None), seat)
            assert len(quick) <= 4 and all(a in legal for a in quick)
            assert all(t.has(f"group.{UI.menu_group(x)}") for x in legal)
            action = R.ai_action(s, seat) if steps % 3 else legal[rng.below(len(legal))]
            for e in R.apply(s, seat, action):
                text = UI.event_text(e, NAMES, t)
                assert text is None or ("{" not in text and "p1" not in text.split()), text
            assert "{" not in UI.status_text(R.view(s, None), NAMES, t)
            steps += 1
        assert "{" not in UI.hand_text(R.view(s, "p1"), "p1", NAMES, t)


def test_claim_label_shows_route_length_colour_cards():
    t = UI.translator("en")
    label = UI.action_label({"type": "claim", "route": "buenos_aires-lima-ship", "cards": ["s:green:2", "s:green"]},
                            {}, t)
    assert label == "Claim Buenos Aires – Lima 🚢3 green with 1× green ship ⚓, 1× green double ship"
    assert route_text("valparaiso-lima-train-2", t).endswith("#2")
    assert cards_text(["t:wild", "t:red", "t:red"], UI.translator("de")) == "2× Wagenkarte rot, 1× Joker"


def _table() -> tuple[object, str]:
    s = R.new_game(["p1", "p2"], 8)
    for seat in ("p1", "p2"):
        R.apply(s, seat, R.legal_actions(s, seat)[0])
    return s, "p1"


def test_commands_build_engine_actions():
    s, seat = _table()
    legal = R.legal_actions(s, seat)
    mix = next(c for c in UI.commands if c.name == "mix")
    assert mix.build({"trains": 20}, legal) == {"type": "choose_mix", "trains": 20}
    assert mix.build({"trains": 30}, legal) is None
    for x in ("p1", "p2"):
        R.apply(s, x, {"type": "choose_mix", "trains": 20})
    legal = R.legal_actions(s, seat)
    draw = next(c for c in UI.commands if c.name == "draw")
    assert draw.build({"source": "train_deck"}, legal) == {"type": "draw", "source": "train_deck"}
    slot_action = draw.build({"source": "face_up", "slot": 2, "refill": "ship"}, legal)
    assert slot_action == {"type": "draw", "source": "face_up", "slot": 1, "card": s.face_up[1], "refill": "ship"}
    claim = next(c for c in UI.commands if c.name == "claim")
    claims = [a for a in legal if a["type"] == "claim"]
    if claims:
        assert claim.build({"route": claims[0]}, legal) == claims[0]
        assert len(action_key(claims[0])) > 0


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_illegal_text_names_cities(lang):
    t = UI.translator(lang)
    text = UI.illegal_text("not_harbor_city", "x", {"city": "winnipeg"}, t)
    assert "Winnipeg" in text and "winnipeg" not in text


@pytest.mark.parametrize(("event", "lang", "expected"), [
    ({"type": "claim", "seat": "p1", "route": "x", "cards": [], "points": 1}, "en", "and scores 1 point."),
    ({"type": "claim", "seat": "p1", "route": "x", "cards": [], "points": 2}, "de", "und erhält 2 Punkte."),
    ({"type": "tickets_kept", "seat": "p2", "count": 1, "returned": 3}, "en", "🎫 Bo keeps 1 ticket and returns 3."),
    ({"type": "tickets_kept", "seat": "p2", "count": 0, "returned": 3}, "fr",
     "🎫 Bo garde 0 destination et en remet 3."),
    ({"type": "tickets_drawn", "seat": "p2", "count": 1}, "de", "🎫 Bo zieht 1 Zielkarte."),
    ({"type": "exchange", "seat": "p3", "trains": -1}, "en", "🔁 Cy swaps 1 train for a ship and loses 1 point."),
    ({"type": "exchange", "seat": "p3", "trains": 2}, "fr",
     "🔁 Cy échange 2 bateaux contre des wagons et perd 2 points."),
    ({"type": "final_round", "seat": "p1", "pieces": 1}, "en", "⏳ Ada has only 1 piece left"),
    ({"type": "game_over", "winners": ["p1"]}, "en", "🏁 Final scoring done. Winner: Ada."),
    ({"type": "game_over", "winners": ["p1", "p2"]}, "en", "🏁 Final scoring done. Winners: Ada, Bo."),
])
def test_event_lines_agree_with_their_count(event, lang, expected):
    assert expected in UI.event_text(event, NAMES, UI.translator(lang))


def test_status_and_hand_counts_agree_with_their_nouns():
    st = R.new_game(["p1", "p2"], 3, {})
    view = R.view(st, "p1")
    view.update(phase="play", turn=4, scores={"p1": 1, "p2": 0},
                pieces={"p1": {"trains": 20, "ships": 40}, "p2": {"trains": 20, "ships": 40}},
                box={"p1": {"trains": 1, "ships": 0}}, harbors_left={"p1": 1, "p2": 3})
    view["decks"] = dict(view["decks"], tickets=1)
    en = UI.status_text(view, NAMES, UI.translator("en"))
    assert "🎫 1 ticket left" in en and "Ada: 1 pt," in en and "Bo: 0 pts," in en
    fr = UI.status_text(view, NAMES, UI.translator("fr"))
    assert "🎫 1 destination restante" in fr and "Bo : 0 pt," in fr
    hand = UI.hand_text(view, "p1", NAMES, UI.translator("en"))
    assert "(box: 1 train, 0 ships) · ⚓ 1 harbor left" in hand
    assert "(boîte : 1 wagon, 0 bateau) · ⚓ 1 port restant" in UI.hand_text(view, "p1", NAMES, UI.translator("fr"))
    ids = sorted(TICKETS_BY_ID)[:3]
    view["private"] = {"pending_tickets": [{"id": i} for i in ids]}
    de = UI.translator("de")
    assert UI.action_label({"type": "keep_tickets", "ids": ids}, view, de) == "Alle 3 Zielkarten behalten"
    # tickets by name, never by their number in the offer: the shorter of kept and returned
    assert UI.action_label({"type": "keep_tickets", "ids": ids[:2]}, view, de) == \
        f"Alle behalten außer {ticket_text(ids[2], de)}"
    assert UI.action_label({"type": "keep_tickets", "ids": ids[:1]}, view, de) == f"Behalten: {ticket_text(ids[0], de)}"


def test_exchange_label_for_one_piece():
    t = UI.translator("en")
    assert UI.action_label({"type": "exchange", "trains": 1}, {}, t) == "Swap 1 ship for a train (−1 point)"
    assert UI.action_label({"type": "exchange", "trains": -3}, {}, t) == "Swap 3 trains for ships (−3 points)"


def test_every_city_has_a_name_in_every_catalog_and_english_uses_exonyms():
    from engine.games.rails_and_sails.mapdata import CITIES

    cats = {lang: catalog(lang) for lang in ("en", "de", "fr")}
    for cat in cats.values():
        assert {k[5:] for k in cat if k.startswith("city.")} == set(CITIES)
    english = {cats["en"][f"city.{c}"] for c in CITIES}
    assert not english & {"Al-Qahira", "Moskva", "Athina"}  # the map data's endonyms
    expected = {"en": ("Cairo", "Moscow", "Athens"), "de": ("Kairo", "Moskau", "Athen"),
                "fr": ("Le Caire", "Moscou", "Athènes")}
    for lang, names in expected.items():
        assert tuple(cats[lang][f"city.{c}"] for c in ("al_qahira", "moskva", "athina")) == names


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_city_names_in_texts_are_the_names_on_the_board(lang):
    """One source per language: what the board image draws for a city (through the Translator
    the bot hands the renderer) is the name in action labels, event lines, routes and tickets."""
    from engine.games.rails_and_sails.mapdata import CITIES, ROUTES, TICKETS
    from render import rails_and_sails as board

    t = UI.translator(lang)
    placed = board._place_labels(board.geometry(), board.city_labels(t))
    drawn = {cid: text for cid, (_x, _y, text) in placed.items()}
    assert set(drawn) == set(CITIES)
    cards = ["t:red:h", "t:red:h", "s:red", "s:red"]
    for cid in CITIES:
        name = board.city_name(cid, t)
        assert drawn[cid] == name == t(f"city.{cid}")
        event = UI.event_text({"type": "harbor", "seat": "p1", "city": cid, "cards": cards}, NAMES, t)
        assert event == t("event.harbor", seat="Ada", city=name, cards=cards_text(cards, t))
        label = UI.action_label({"type": "harbor", "city": cid, "cards": cards}, {}, t)
        assert label.startswith(t("action.harbor", city=name, cards="")[:-1].rstrip())
    for r in ROUTES:
        a = drawn.get(r.a, t(f"waypoint.{r.a}"))
        b = drawn.get(r.b, t(f"waypoint.{r.b}"))
        assert route_text(r.id, t).startswith(f"{a} – {b} ")
    for tk in TICKETS:
        assert ticket_text(tk.id, t).startswith("–".join(drawn[c] for c in tk.cities) + " (")


def test_rough_route_label_says_rough_not_a_colour():
    for lang in ("en", "de", "fr"):
        t = UI.translator(lang)
        text = route_text("lahore-tehran-train", t)
        assert text.endswith("🚂2 " + t("route.rough")) and "⛰️" in text
