"""Around the World in 80 Days: the /atw presentation package (commands, labels, texts, catalogs)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from bot.games import ui_for
from bot.gameui import QuickMenu, action_key
from bot.i18n import Translator, _flatten
from engine import registry
from engine.games.around_the_world import data as D

R = registry.get("around-the-world")
UI = ui_for("around-the-world")
LOCALES = Path(UI.package_dir) / "locales"
LANGS = ("en", "de", "fr")


def catalog(lang: str) -> dict[str, str]:
    return _flatten(json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8")))


def random_positions(n: int, seed: int, steps: int = 100000):
    """Yield (state, seat, legal, events of the last move) along a random game."""
    st = R.new_game([f"p{k + 1}" for k in range(n)], seed, {})
    rnd = random.Random(seed)
    events: list[dict] = []
    for _ in range(steps):
        if R.is_over(st):
            break
        seat = R.to_act(st)[0]
        legal = R.legal_actions(st, seat)
        yield st, seat, legal, events
        # lean to the interesting moves so events and balloons appear
        pref = [a for a in legal if a["type"] in ("event", "travel", "use_action", "buy", "reroll")]
        action = rnd.choice(pref if pref and rnd.random() < 0.7 else legal)
        events = R.apply(st, seat, action)
    yield st, None, [], events


def test_catalogs_have_the_same_keys_and_real_translations():
    en, de, fr = (catalog(lang) for lang in LANGS)
    assert set(en) == set(de) == set(fr)
    for other in (de, fr):
        differing = sum(1 for k in en if other[k] != en[k])
        assert differing / len(en) > 0.7
        for k, v in en.items():
            assert set(re.findall(r"{(\w+)}", v)) == set(re.findall(r"{(\w+)}", other[k])), k
    for lang in LANGS:
        cat = catalog(lang)
        assert len(cat["rules"]) <= 3500 and cat["title"] and cat["group"]
        assert all(v.strip() for v in cat.values())


def test_every_refusal_code_of_the_engine_has_a_text():
    src = Path(R.__class__.__module__.replace(".", "/") + ".py").read_text()
    codes = set(re.findall(r'IllegalAction\(\s*"(\w+)"', src))
    codes |= {"player_count", "duplicate_seat", "unknown_option", "bad_option"}
    assert {"bad_cards", "first_player_card", "not_enough_gold"} <= codes
    for lang in LANGS:
        cat = catalog(lang)
        missing = [c for c in codes if f"illegal.{c}" not in cat]
        assert not missing, (lang, missing)


def test_commands_have_descriptions_and_choice_labels():
    for lang in LANGS:
        cat = catalog(lang)
        assert all(f"option.{name}" in cat for name in R.option_defaults)
        for command in UI.commands:
            assert re.fullmatch(r"[a-z_]{1,32}", command.name)
            assert len(cat[f"cmd.{command.name}"]) <= 100, command.name
            if command.refusal:
                assert command.refusal in cat
            for param in command.params:
                assert len(cat[f"cmd.{command.name}.{param.name}"]) <= 100
                for choice in param.choices:
                    assert f"choice.{param.name}.{choice}" in cat
    assert {c.name for c in UI.commands} >= {"take", "travel", "balloon", "reroll", "keep", "event", "buy",
                                               "discard", "stay", "done"}
    assert UI.group == "atw"


@pytest.mark.parametrize("n,seed", [(2, 3), (4, 5), (6, 8)])
def test_labels_events_status_and_hand_in_every_language(n, seed):
    translators = [UI.translator(lang) for lang in LANGS]
    names = {f"p{k + 1}": f"Player{k + 1}" for k in range(n)}
    seen_types: set[str] = set()
    for st, seat, legal, events in random_positions(n, seed):
        for t in translators:
            for e in events:
                text = UI.event_text(e, names, t)
                seen_types.add(e["type"])
                if text is not None:
                    assert "{" not in text and not re.search(r"\bp\d\b", text), (e, text)
            if seat is None:
                continue
            view = R.view(st, seat)
            labels = [UI.action_label(a, view, t) for a in legal]
            assert all(0 < len(lb) <= 80 and "{" not in lb for lb in labels), labels
            assert len(set(labels)) == len(labels), labels
            pub = R.view(st, None)
            status = UI.status_text(pub, names, t)
            assert "{" not in status and "Player1" in status
            hand = UI.hand_text(view, seat, names, t)
            assert "{" not in hand
            # quick buttons come from the public view: each is a legal move, or "Travel…" opening
            # the player's own travels; none shows a card of the secret hand
            quick = UI.quick_actions(pub, seat)
            assert len(quick) <= 4
            for a in quick:
                if isinstance(a, QuickMenu):
                    assert a.group == "travel" and t.has("group.travel") and st.phase == "travel"
                    continue
                assert a in legal
                lb = UI.action_label(a, pub, t)
                if a["type"] == "travel":
                    assert "🚢" not in lb and "🚂" not in lb
    assert {"take", "travel", "round"} <= seen_types


def test_travel_label_reads_like_the_brief():
    t = Translator("en", LOCALES)
    st = R.new_game(["p1", "p2", "p3"], 1, {})
    i = st.order[st.turn]
    st.hand[i] = ["ship:7", "train:3"]
    st.phase = "travel"
    legal = R.legal_actions(st, st.seats[i])
    travel = next(a for a in legal if a["type"] == "travel")
    assert UI.action_label(travel, R.view(st, st.seats[i]), t) == "🚢7 + 🚂3 → Paris, 10 days"
    assert UI.action_label(travel, R.view(st, None), t) == "Travel to Paris (cheapest cards)"


def test_commands_build_legal_actions():
    st = R.new_game(["p1", "p2", "p3", "p4"], 2, {})
    seat = R.to_act(st)[0]
    legal = R.legal_actions(st, seat)
    take = next(c for c in UI.commands if c.name == "take")
    assert take.build({"slot": 1}, legal) == {"type": "take", "slot": 0, "card": st.display[0]}
    assert take.build({"slot": 5}, legal) is None  # the first player may not take the first-player card
    R.apply(st, seat, {"type": "take", "slot": 1, "card": st.display[1]})  # balloon
    i = st.order[st.turn]
    st.hand[i] = ["ship:7", "train:4"]
    legal = R.legal_actions(st, seat)
    travel = next(c for c in UI.commands if c.name == "travel")
    balloon = next(c for c in UI.commands if c.name == "balloon")
    plain = next(a for a in legal if a["type"] == "travel" and "balloon" not in a)
    with_balloon = next(a for a in legal if a.get("balloon") == "ship:7")
    assert travel.build({"cards": plain}, legal) == plain
    assert balloon.build({"cards": plain}, legal) is None
    assert balloon.build({"cards": with_balloon}, legal) == with_balloon
    stay = next(c for c in UI.commands if c.name == "stay")
    assert stay.build({}, legal) == {"type": "stay", "location": "london"}
    buy = next(c for c in UI.commands if c.name == "buy")
    assert buy.build({"deck": "travel"}, legal) is None  # 1 gold only
    assert all(len(action_key(a)) <= 100 for a in legal)
    assert UI.menu_group(with_balloon) == "balloon" and UI.menu_group(plain) == "travel"
    for g in {UI.menu_group(a) for a in legal}:
        assert Translator("de", LOCALES).has(f"group.{g}")


def test_city_names_cover_the_board():
    for lang in LANGS:
        cat = catalog(lang)
        assert all(f"city.{loc}" in cat for loc in D.LOCATIONS)
        assert all(f"card.{e}" in cat for e in D.EVENT_IDS)


SAMPLE_EVENTS = [
    {"type": "take", "seat": "p1", "slot": 0, "action": "gold", "card": "ship:7"},
    {"type": "take_top", "seat": "p1"},
    {"type": "gold", "seat": "p1", "amount": 1},
    {"type": "gold", "seat": "p1", "amount": 0},
    {"type": "draw_event", "seat": "p1", "source": "action"},
    {"type": "grey_event", "seat": "p1", "card": "bad_weather", "days": 2, "seats": ["p1", "p2"],
     "discarded": {"p2": 1}, "source": "buy"},
    {"type": "event_deck_empty", "seat": "p1"},
    {"type": "first_player", "seat": "p1"},
    {"type": "detective", "seat": "p1", "location": "hong_kong"},
    {"type": "exchange", "seat": "p1", "count": 2, "drawn": 2},
    {"type": "roll", "seat": "p1", "kind": "balloon", "roll": 5, "card": "ship:7"},
    {"type": "roll", "seat": "p1", "kind": "elephant", "roll": 3},
    {"type": "reroll", "seat": "p1", "kind": "balloon", "roll": 2},
    {"type": "travel", "seat": "p1", "from": "london", "to": "paris", "cards": ["ship:7", "train:3"], "days": 10,
     "total": 10},
    {"type": "travel", "seat": "p1", "from": "hong_kong", "to": "yokohama", "cards": ["ship:7", "train:4"],
     "days": 6, "total": 50, "ride": "balloon", "balloon": "ship:7", "roll": 2},
    {"type": "travel", "seat": "p1", "from": "bombay", "to": "calcutta", "cards": [], "days": 9, "total": 40,
     "ride": "elephant", "roll": 3},
    {"type": "travel", "seat": "p1", "from": "bombay", "to": "calcutta", "cards": [], "days": 12, "total": 40},
    {"type": "chit", "seat": "p1", "location": "suez", "colour": "red", "chit": "others_lose_day"},
    {"type": "others_lose_day", "seat": "p1", "seats": ["p2"]},
    {"type": "arrive", "seat": "p1", "days": 78, "place": 1},
    {"type": "stay", "seat": "p1", "location": "london"},
    {"type": "detective_penalty", "seat": "p1", "days": 2, "location": "suez"},
    {"type": "discard", "seat": "p1", "card": "ship:8"},
    {"type": "discard", "seat": "p1", "card": "offer"},
    {"type": "play_event", "seat": "p1", "card": "submarine"},
    {"type": "play_event", "seat": "p1", "card": "princess", "as": "balloon"},
    {"type": "elephant_gold", "seat": "p1", "amount": 1},
    {"type": "buy", "seat": "p1", "deck": "travel"},
    {"type": "buy", "seat": "p1", "deck": "event"},
    {"type": "time_pressure", "seats": ["p1", "p2"]},
    {"type": "round", "round": 3, "first": "p2"},
    {"type": "game_over", "winners": ["p2"]},
]


@pytest.mark.parametrize("lang", LANGS)
def test_every_event_type_has_a_line(lang):
    t = UI.translator(lang)
    names = {"p1": "Nellie", "p2": "Fogg"}
    src = Path(R.__class__.__module__.replace(".", "/") + ".py").read_text()
    emitted = set(re.findall(r'"type": "(\w+)", "(?:seat|seats|round|winners)"', src))
    assert emitted - {"skip_action"} <= {e["type"] for e in SAMPLE_EVENTS}
    for event in SAMPLE_EVENTS:
        text = UI.event_text(event, names, t)
        assert text and "{" not in text and "p1" not in text and "p2" not in text, (event, text)
    assert "Nellie" in UI.event_text(SAMPLE_EVENTS[0], names, t)
    balloon = UI.event_text(SAMPLE_EVENTS[14], names, t)
    assert "🎈" in balloon and "🚢7" in balloon and "🚂4" in balloon
