"""80 Days presentation: readable, distinct labels for every legal action in every language;
a text for every illegal code; quick buttons from the public view only; channel lines."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.games import ui_for
from bot.gameui import QuickMenu
from bot.i18n import LANGUAGES
from engine import registry

RULES = registry.get("eighty-days")
UI = ui_for("eighty-days")
ENGINE = Path(__file__).resolve().parents[2] / "engine" / "games" / "eighty_days"
NAMES = {"p1": "Alice", "p2": "Bob", "p3": "Carol", "p4": "Dan"}


def games(players: int, side: str, assistants: bool, seed: int, steps: int = 3000):
    """(state, seat) at every decision of a random, partly AI-played game."""
    state = RULES.new_game([f"p{k + 1}" for k in range(players)], seed, {"side": side, "assistants": assistants})
    rnd = random.Random(seed)
    for _ in range(steps):
        if RULES.is_over(state):
            return
        seat = rnd.choice(RULES.to_act(state))
        yield state, seat
        action = RULES.ai_action(state, seat) if rnd.random() < 0.6 else rnd.choice(RULES.legal_actions(state, seat))
        RULES.apply(state, seat, action)


CONFIGS = [(2, "A", False, 1), (3, "B", True, 2), (4, "A", True, 3), (4, "B", False, 4)]


@pytest.mark.parametrize(("players", "side", "assistants", "seed"), CONFIGS)
def test_labels_readable_and_distinct_in_every_language(players: int, side: str, assistants: bool,
                                                        seed: int) -> None:
    translators = {lang: UI.translator(lang) for lang in LANGUAGES}
    seen_types: set[str] = set()
    for state, seat in games(players, side, assistants, seed):
        legal = RULES.legal_actions(state, seat)
        view = RULES.view(state, seat)
        for t in translators.values():
            labels = [UI.action_label(a, view, t) for a in legal]
            assert all(0 < len(lb) <= 100 and "{" not in lb and "." not in lb.split(" ")[0] for lb in labels), labels
            assert len(set(labels)) == len(labels), labels
        seen_types.update(a["type"] for a in legal)
    assert {"travel", "buy", "black_market", "pass", "end_turn", "keep_adventure"} <= seen_types


def test_every_illegal_code_has_a_text() -> None:
    codes = set()
    for path in ENGINE.glob("*.py"):
        codes.update(re.findall(r'IllegalAction\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
    assert len(codes) > 30
    for lang in LANGUAGES:
        t = UI.translator(lang)
        for code in sorted(codes):
            assert t.has(f"illegal.{code}") or t.has(f"illegal.{code}.other"), (lang, code)
            text = UI.illegal_text(code, "english", {"item": "hat", "need": 3, "market": "bazaar",
                                                     "assistant": "jill", "decision": "overflow"}, t)
            assert text and "{" not in text and text != "english", (lang, code, text)


def test_no_coins_says_how_many_with_the_right_plural() -> None:
    t = UI.translator("en")
    assert UI.illegal_text("no_coins", "x", {"need": 1}, t).endswith("1 coin.")
    assert UI.illegal_text("no_coins", "x", {"need": 3}, t).endswith("3 coins.")


def test_quick_actions_are_a_function_of_the_public_view() -> None:
    """Re-dealing the hidden cards never changes the buttons; a quick action is fully known
    from the public view (no card ids), and a press of one is legal for the seat it is for
    whenever it is in its legal actions."""
    checked = 0
    for state, _seat in games(3, "B", True, 5, 400):
        public = RULES.view(state, None)
        for seat in RULES.to_act(state):
            quick = UI.quick_actions(public, seat)
            for k in range(2):
                other = RULES.resample_hidden(state, 100 + k)
                assert UI.quick_actions(RULES.view(other, None), seat) == quick
            for item in quick:
                if not isinstance(item, QuickMenu):
                    assert "card" not in item and "assistant" not in item
            checked += bool(quick)
    assert checked > 50


def test_quick_menus_open_groups_that_exist() -> None:
    groups = set()
    for state, seat in games(2, "A", True, 7, 300):
        for a in RULES.legal_actions(state, seat):
            groups.add(UI.menu_group(a))
        for item in UI.quick_actions(RULES.view(state, None), seat):
            if isinstance(item, QuickMenu):
                assert UI.translator("en").has(f"group.{item.group}"), item
    for lang in LANGUAGES:
        assert all(UI.translator(lang).has(f"group.{g}") for g in groups), groups


def test_event_lines_status_and_hand_text_in_every_language() -> None:
    for lang in LANGUAGES:
        t = UI.translator(lang)
        kinds: set[str] = set()
        state = RULES.new_game(list(NAMES), 11, {"side": "B", "assistants": True})
        while not RULES.is_over(state):
            seat = RULES.to_act(state)[0]
            view = RULES.view(state, seat)
            hand = UI.hand_text(view, seat, NAMES, t)
            assert hand and "{" not in hand
            status = UI.status_text(RULES.view(state, None), NAMES, t)
            assert "{" not in status and all(name in status for name in NAMES.values())
            action = RULES.ai_action(state, seat)
            events = RULES.apply(state, seat, action)
            for e in events:
                line = UI.event_text(e, NAMES, t)
                kinds.add(e["type"])
                if line is not None:
                    assert "{" not in line and "p1" not in line.split(), line
        assert {"newspaper", "travel", "pass", "complete", "game_over"} <= kinds


def test_a_secret_draft_choice_posts_no_new_board() -> None:
    assert not UI.board_changed([{"type": "keep_adventure", "seat": "p1", "returned": 1}])
    assert UI.board_changed([{"type": "keep_assistant", "seat": "p1"}, {"type": "assistants", "assistants": {}},
                             {"type": "newspaper", "period": 1}])


def test_adventure_titles_exist_for_every_card() -> None:
    from engine.games.eighty_days.content import ALL_ADVENTURES

    for lang in LANGUAGES:
        t = UI.translator(lang)
        titles = {t(f"adventure.{card}") for card in ALL_ADVENTURES}
        assert len(titles) == len(ALL_ADVENTURES) and not any(x.startswith("adventure.") for x in titles)
