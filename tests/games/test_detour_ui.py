"""detour: the presentation package (commands, labels, event lines, catalogs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.games import ui_for
from bot.gameui import match_action
from engine import registry

RULES = registry.get("detour")
UI = ui_for("detour")
NAMES = {"p1": "Alice", "p2": "Bob", "p3": "Chloé"}
LOCALES = Path(UI.package_dir) / "locales"


def _command(name: str):
    return next(c for c in UI.commands if c.name == name)


def test_group_and_commands() -> None:
    assert UI.game_id == "detour" and UI.group == "detour"
    assert [c.name for c in UI.commands] == ["choose", "move", "detour", "backward", "block"]
    choose = _command("choose")
    assert choose.params[0].choices == (10, 8, 6, 5)
    assert choose.params[1].choices == ("blue", "orange", "green", "purple")
    assert all(_command(n).params[0].kind == "pick" for n in ("detour", "backward", "block"))


def test_choose_builds_from_legal_actions() -> None:
    s = RULES.new_game(["p1", "p2", "p3"], 1)
    legal = RULES.legal_actions(s, "p1")
    assert _command("choose").build({"card": 8}, legal) == {"type": "choose", "card": 8}
    s.hand[0] = 0b0001
    assert _command("choose").build({"card": 8}, RULES.legal_actions(s, "p1")) is None


def test_choose_two_players_needs_the_colour_when_both_could_play() -> None:
    s = RULES.new_game(["p1", "p2"], 1)
    legal = RULES.legal_actions(s, "p1")
    build = _command("choose").build
    assert build({"card": 8}, legal) is None
    assert build({"card": 8, "colour": "green"}, legal) == {"type": "choose", "card": 8, "colour": "green"}
    assert build({"card": 8, "colour": "orange"}, legal) is None
    RULES.apply(s, "p1", {"type": "choose", "card": 8, "colour": "blue"})
    assert build({"card": 10}, RULES.legal_actions(s, "p1")) == {"type": "choose", "card": 10, "colour": "green"}


def test_resolution_commands_and_labels() -> None:
    s = RULES.new_game(["p1", "p2", "p3"], 1)
    s.first = 0
    s.pos = [0, 1, 5]  # p2 in Paris (red line), p3 in Calcutta (red line)
    for seat, card in (("p1", 6), ("p2", 5), ("p3", 5)):
        RULES.apply(s, seat, {"type": "choose", "card": card})
    legal = RULES.legal_actions(s, "p1")
    assert _command("move").build({}, legal) == {"type": "move"}
    pick = {"type": "detour", "target": "p3"}
    assert _command("detour").build({"target": pick}, legal) == pick
    assert _command("block").build({"target": {"type": "block", "target": "p3"}}, legal) is None
    view = RULES.view(s, "p1")
    t = UI.translator("en")
    labels = [UI.action_label(a, view, t) for a in legal]
    assert labels == ["Move 6 days", "Detour orange B in Paris", "Detour green C in Calcutta"]
    for lang in ("de", "fr"):
        tl = UI.translator(lang)
        other = [UI.action_label(a, view, tl) for a in legal]
        assert len(set(other)) == len(other) and other != labels
        assert all(len(label) <= 80 for label in other)
    assert UI.quick_actions(RULES.view(s, None), "p1") == legal  # from the public view alone
    assert UI.quick_actions(RULES.view(s, None), "p2") == []


def test_choose_labels_are_distinct_and_short() -> None:
    s = RULES.new_game(["p1", "p2"], 1)
    view = RULES.view(s, "p1")
    for lang in ("en", "de", "fr"):
        t = UI.translator(lang)
        labels = [UI.action_label(a, view, t) for a in RULES.legal_actions(s, "p1")]
        assert len(set(labels)) == 8 and all(len(x) <= 80 for x in labels)
    assert UI.action_label({"type": "choose", "card": 6, "colour": "green"}, view, UI.translator("en")) == \
        "Play 6 Detour for green"


def test_every_event_has_a_line_with_names() -> None:
    seen: set[str] = set()
    for players in (2, 3):
        seats = [f"p{i + 1}" for i in range(players)]
        names = {s: NAMES[s] for s in seats}
        for seed in range(8):
            s = RULES.new_game(seats, seed)
            while not RULES.is_over(s):
                seat = RULES.to_act(s)[0]
                for ev in RULES.apply(s, seat, RULES.ai_action(s, seat)):
                    for lang in ("en", "de", "fr"):
                        line = UI.event_text(ev, names, UI.translator(lang))
                        if ev["type"] == "auto":
                            assert line is None
                            continue
                        assert line and "{" not in line, (ev, line)
                        assert " p1 " not in f" {line} " and "p2" not in line.split()
                    seen.add(ev["type"])
    assert {"chose", "reveal", "move", "round_end", "arrived", "game_over", "block", "backward"} <= seen


def test_status_and_hand_text() -> None:
    s = RULES.new_game(["p1", "p2", "p3"], 1)
    t = UI.translator("en")
    RULES.apply(s, "p1", {"type": "choose", "card": 8})
    status = UI.status_text(RULES.view(s, None), NAMES, t)
    assert "Bob" in status and "Chloé" in status and "Alice" not in status
    hand = UI.hand_text(RULES.view(s, "p1"), "p1", NAMES, t)
    assert "Chosen this round: 8 Block" in hand
    assert "Chosen" not in UI.hand_text(RULES.view(s, "p2"), "p2", NAMES, t)


@pytest.mark.parametrize("code", ["malformed", "game_over", "not_your_turn", "blocked", "bad_target", "bad_card",
                                  "need_colour", "not_your_colour", "already_chosen", "card_played", "wrong_card",
                                  "not_resolving", "already_revealed", "unknown_action", "not_a_player"])
def test_every_refusal_code_is_translated(code: str) -> None:
    for lang in ("en", "de", "fr"):
        t = UI.translator(lang)
        assert t.has(f"illegal.{code}")
        assert "{" not in UI.illegal_text(code, "x", {"card": 8, "colour": "blue"}, t)


def test_catalogs_have_the_platform_keys() -> None:
    for lang in ("en", "de", "fr"):
        data = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
        assert data["title"] and data["group"] and data["rules"]
        assert len(data["rules"]) <= 3500
        for command in UI.commands:
            assert data["cmd"][command.name]
            for param in command.params:
                assert len(data["cmd"][f"{command.name}.{param.name}"]) <= 100
        assert set(data["choice"]["card"]) == {"10", "8", "6", "5"}
    assert match_action([], type="move") is None


def test_two_player_game_over_line_explains_the_rule() -> None:
    names = {"p1": "Alice", "p2": "Bob"}
    for rule in (1, 2):
        ev = {"type": "game_over", "winners": ["p2"], "round": 9, "rule": rule, "winner": "p2"}
        for lang in ("en", "de", "fr"):
            line = UI.event_text(ev, names, UI.translator(lang))
            assert "Bob" in line and "9" in line and "{" not in line
    assert "Bob" not in UI.event_text({"type": "game_over", "winners": ["p2"], "round": 9}, names,
                                      UI.translator("en"))


def test_quick_buttons() -> None:
    s = RULES.new_game(["p1", "p2", "p3"], 1)
    legal = RULES.legal_actions(s, "p1")
    assert UI.quick_actions(RULES.view(s, None), "p1") == legal  # the four cards
    RULES.apply(s, "p1", {"type": "choose", "card": 8})
    assert UI.quick_actions(RULES.view(s, None), "p1") == []  # chosen (which card: secret)
    assert UI.quick_actions(RULES.view(s, None), "p2") == RULES.legal_actions(s, "p2")
    s2 = RULES.new_game(["p1", "p2"], 1)
    assert UI.quick_actions(RULES.view(s2, None), "p1") == []
    assert {UI.menu_group(a) for a in RULES.legal_actions(s2, "p1")} == {"choose_blue", "choose_green"}


def test_block_line_speaks_of_the_player_as_a_person() -> None:
    """A blocked player is never 'it': 'their next card' / 'die nächste Karte von Bob' / 'sa prochaine carte'."""
    ev = {"type": "block", "seat": "p1", "target": "p2"}
    lines = {lang: UI.event_text(ev, NAMES, UI.translator(lang)) for lang in ("en", "de", "fr")}
    assert lines == {
        "en": "⛔ Alice blocks Bob: their next card cannot move.",
        "de": "⛔ Alice blockiert Bob: Die nächste Karte von Bob kann nicht ziehen.",
        "fr": "⛔ Alice bloque Bob : sa prochaine carte ne pourra pas servir à avancer.",
    }


@pytest.mark.parametrize(("days", "lang", "expected"), [
    (1, "en", "1 day to go"), (2, "en", "2 days to go"), (0, "fr", "encore 0 jour."), (1, "de", "noch 1 Tag."),
])
def test_hand_line_counts_days_to_go_with_the_right_plural(days: int, lang: str, expected: str) -> None:
    s = RULES.new_game(["p1", "p2", "p3"], 1)
    view = RULES.view(s, "p1")
    pawn = next(p for p in view["pawns"] if p["seat"] == "p1")
    pawn["days_left"] = days
    assert expected in UI.hand_text(view, "p1", NAMES, UI.translator(lang))


def test_move_label_and_line_use_plural_forms() -> None:
    t = UI.translator("fr")
    ev = {"type": "move", "seat": "p1", "from": 0, "to": 1, "days": 5, "used": 1}
    assert " 1 jour sur 5 " in UI.event_text(ev, NAMES, t)
    ev["used"] = 4
    assert " 4 jours sur 5 " in UI.event_text(ev, NAMES, t)
    over = {"type": "game_over", "winners": ["p2"], "round": 1}
    assert UI.event_text(over, NAMES, UI.translator("en")) == "Game over after 1 round."
    assert UI.event_text(over, NAMES, UI.translator("de")) == "Spielende nach 1 Runde."
