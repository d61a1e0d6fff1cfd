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
from engine import IllegalAction, registry
from engine.games.around_the_world import data as D
from tests.conftest import ALICE, BOB, CAROL, HERE

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
    package = Path(R.__class__.__module__.replace(".", "/")).parent
    src = "".join(p.read_text() for p in sorted(package.glob("*.py")))
    codes = set(re.findall(r'IllegalAction\(\s*"(\w+)"', src))
    codes |= {"player_count", "duplicate_seat"}
    assert {"bad_cards", "first_player_card", "not_enough_gold"} <= codes
    for lang in LANGS:
        cat = catalog(lang)
        missing = [c for c in codes if f"illegal.{c}" not in cat]
        assert not missing, (lang, missing)
        # the option checks of engine.core are worded once, in the platform catalog
        platform = Translator(lang)
        assert all(platform.has(f"illegal.{c}") for c in ("unknown_option", "bad_option", "bad_option_int"))


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
    assert UI.menu_group(with_balloon) == "travel" and UI.menu_group(plain) == "travel"  # one Travel… menu
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
    package = Path(R.__class__.__module__.replace(".", "/")).parent
    src = "".join(p.read_text() for p in sorted(package.glob("*.py")))
    emitted = set(re.findall(r'"type": "(\w+)", "(?:seat|seats|round|winners)"', src))
    assert emitted - {"skip_action"} <= {e["type"] for e in SAMPLE_EVENTS}
    for event in SAMPLE_EVENTS:
        text = UI.event_text(event, names, t)
        assert text and "{" not in text and "p1" not in text and "p2" not in text, (event, text)
    assert "Nellie" in UI.event_text(SAMPLE_EVENTS[0], names, t)
    balloon = UI.event_text(SAMPLE_EVENTS[14], names, t)
    assert "🎈" in balloon and "🚢7" in balloon and "🚂4" in balloon


# -- a re-roll without gold -------------------------------------------------------------------------


def _roll_phase_without_gold(state, seat: str) -> None:
    """`seat` is to act and holds a balloon roll of 3 it may keep, but has no gold to re-roll."""
    i = state.seats.index(seat)
    state.turn = state.order.index(i)
    state.phase = "roll"
    state.roll = {"kind": "balloon", "fixed": 0, "card": "ship:8", "cards": ["ship:8"]}
    state.last_roll = [3]
    state.gold[i] = 0


def test_reroll_command_without_gold_names_the_gold_not_a_missing_die():
    """The `/atw reroll` command hands a re-roll the engine did not list (no gold) to the engine,
    whose refusal tells the real reason in every language."""
    st = R.new_game(["p1", "p2", "p3"], 5, {})
    _roll_phase_without_gold(st, "p2")
    legal = R.legal_actions(st, "p2")
    assert [a["type"] for a in legal] == ["keep"]
    reroll = next(c for c in UI.commands if c.name == "reroll")
    action = reroll.build({}, legal)
    assert action == {"type": "reroll"}
    with pytest.raises(IllegalAction) as exc:
        R.apply(st, "p2", action)
    texts = {lang: UI.illegal_text(exc.value.code, exc.value.message, exc.value.params, UI.translator(lang))
             for lang in LANGS}
    assert texts == {"en": "You need 1 gold to re-roll; you have 0.",
                     "de": "Zum Neuwürfeln brauchst du 1 Gold; du hast 0.",
                     "fr": "Pour relancer, il te faut 1 pièce d'or ; tu en as 0."}
    # with no roll waiting, the command's own refusal applies (no action is invented)
    assert reroll.build({}, [{"type": "stay", "location": "paris"}]) is None
    assert reroll.refusal == "refuse.reroll"
    assert "gold" not in catalog("en")["refuse.reroll"]


async def test_reroll_without_gold_through_the_table_service(service, store):
    """Each player, in their own language, hears they lack gold, and nothing changes."""
    await service.new_game(ALICE, HERE, "around-the-world")
    await service.join(BOB, HERE)
    await service.join(CAROL, HERE)
    await service.start(ALICE, HERE)
    expected = {ALICE.id: "⚠️ You need 1 gold to re-roll; you have 0.",
                BOB.id: "⚠️ Zum Neuwürfeln brauchst du 1 Gold; du hast 0.",
                CAROL.id: "⚠️ Pour relancer, il te faut 1 pièce d'or ; tu en as 0."}
    for user in (ALICE, BOB, CAROL):
        record = await store.active_game(HERE.channel_id)
        seat = record.seat_of_user(user.id).seat
        st = R.load(record.state)
        _roll_phase_without_gold(st, seat)
        await store.commit_action(record, expected_version=record.version, seat=seat, action={"type": "test"},
                                  events=[], state=R.dump(st), status="running", actor="human",
                                  remind_at=None, timeout_at=None)
        before = (await store.active_game(HERE.channel_id)).version
        replies = await service.command(user, HERE, "atw", "reroll", {})
        assert [(r.to, r.user_id, r.text) for r in replies] == [("ephemeral", user.id, expected[user.id])]
        assert (await store.active_game(HERE.channel_id)).version == before


@pytest.mark.parametrize(("event", "lang", "expected"), [
    ({"type": "time_pressure", "seats": ["p1"]}, "en", "⌛ Time presses: Ann loses 1 day."),
    ({"type": "time_pressure", "seats": ["p1", "p2"]}, "de", "⌛ Die Zeit drängt: Ann, Ben verlieren je 1 Tag."),
    ({"type": "game_over", "winners": ["p1", "p2"]}, "en", "The race is over! Winners: Ann, Ben."),
    ({"type": "grey_event", "seat": "p1", "card": "delay", "days": 1}, "fr", "perdent 1 jour,"),
    ({"type": "grey_event", "seat": "p1", "card": "bad_weather", "days": 2}, "en", "loses 2 days,"),
    ({"type": "exchange", "seat": "p2", "count": 1}, "de", "Ben tauscht 1 Reisekarte."),
    ({"type": "arrive", "seat": "p2", "days": 1, "place": 1}, "fr", "après 1 jour (arrivée n°1)"),
])
def test_event_lines_agree_with_their_count(event, lang, expected):
    assert expected in UI.event_text(event, {"p1": "Ann", "p2": "Ben"}, UI.translator(lang))


def test_status_counts_agree_with_their_nouns():
    st = R.new_game(["p1", "p2", "p3"], 2, {})
    view = R.view(st, None)
    view["days"]["p1"], view["gold"]["p1"] = 1, 1
    view["hands"]["p1"] = {"travel": 1, "event": 0}
    names = {"p1": "Ann", "p2": "Ben", "p3": "Cat"}
    assert "1 day, 1 gold, 1 travel card, 0 event cards" in UI.status_text(view, names, UI.translator("en"))
    assert "1 Tag, 1 Gold, 1 Reisekarte, 0 Ereigniskarten" in UI.status_text(view, names, UI.translator("de"))
    assert "1 jour, 1 pièce d'or, 1 carte de voyage, 0 carte d'action" in UI.status_text(view, names,
                                                                                       UI.translator("fr"))


def test_balloon_label_with_no_fixed_days_reads_in_french():
    """A balloon replacing the only card of a leg leaves '0 jour + dé' (French: 0 is singular)."""
    st = R.new_game(["p1", "p2", "p3"], 2, {})
    view = R.view(st, "p1")
    label = UI.action_label({"type": "travel", "cards": ["ship:8"], "balloon": "ship:8", "days": 8, "to": "paris"},
                            view, UI.translator("fr"))
    assert label.endswith("0 jour + dé")
