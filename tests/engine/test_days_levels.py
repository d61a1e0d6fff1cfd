"""eighty-days' AI levels (`engine/games/eighty_days/levels.py`): normal gives back and searches
where that pays (today's AI does neither), answers the same view the same way, easy's moves are
legal and now and then differ from normal's, hard keeps to its CPU budget."""

from __future__ import annotations

import time
from typing import Any

from engine import registry
from engine.ai import hard_config, policy
from engine.games.eighty_days import ai as today
from engine.games.eighty_days import content as C
from engine.games.eighty_days import levels
from tests.support.levels import moves_unlike_normal

RULES = registry.get("eighty-days")


def _playing(players: int = 2, seed: int = 7) -> Any:
    """A game just past its setup drafts (p1 to act once the fields below are set)."""
    state = RULES.new_game([f"p{i + 1}" for i in range(players)], seed)
    while state.phase == "setup":
        seat = RULES.to_act(state)[0]
        RULES.push(state, seat, RULES.legal_actions(state, seat)[0])
    return state


def _in_london(state: Any, card: str, items: list[int], coins: int, period: int = 5) -> None:
    """p1 in the arrival London holding `card` (its London deck without it), acting now."""
    state.period, state.current, state.acted = period, 0, False
    state.city[0], state.in_london[0], state.arrival[0] = C.ARRIVAL, True, 8
    state.diary[0] = ["adv01", "adv02", "adv03", "adv04"]
    state.deck = [c for c in state.deck if c not in state.diary[0]]
    state.adventure[0] = card
    state.london_deck = [c for c in C.LONDON_ADVENTURES if c != card]
    state.arrival_cards = [5, 3]
    state.items[0] = list(items)
    state.supply = [n - k for n, k in zip(C.ITEM_COUNTS, items, strict=True)]
    state.coins[0] = coins


def _ask(state: Any, choose: Any, seat: str = "p1") -> dict[str, Any]:
    legal = RULES.legal_actions(state, seat)
    action = choose(RULES.view(state, seat), seat, legal)
    assert action in legal
    return action


def test_normal_gives_back_to_make_room_for_a_needed_item() -> None:
    """Four umbrellas and shoes fill the explorer's trunk; the held card needs a hat, which only
    fits once an umbrella is gone: normal gives one back (then buys the hat), today's AI never does."""
    state = _playing()
    assert state.characters[0] == "explorer"
    _in_london(state, "lon01", [1, 0, 0, 4, 0], coins=12)
    assert not levels._Me(RULES.view(state, "p1"), "p1").fits_with(C.HAT)
    assert _ask(state, levels.normal) == {"type": "give_back", "item": "umbrella"}
    assert _ask(state, today.choose)["type"] != "give_back"
    RULES.push(state, "p1", {"type": "give_back", "item": "umbrella"})
    assert _ask(state, levels.normal) == {"type": "buy", "market": "boutique", "item": "hat"}


def test_normal_searches_for_a_card_it_can_use_in_the_last_period() -> None:
    """Period V in London with a card needing two coats and three coins, holding nothing, and the
    coats sold out (the other seats hold them): the card is lost, coins are nearly worthless now
    and a new card may be done at once, so normal searches; today's AI (which searches only when
    3 items are missing) does not."""
    state = _playing()
    _in_london(state, "lon07", [0, 0, 0, 0, 0], coins=12)
    state.items[1][C.COAT], state.supply[C.COAT] = 3, 0
    assert _ask(state, levels.normal)["type"] == "search"
    assert _ask(state, today.choose)["type"] != "search"


def test_normal_keeps_its_card_when_it_can_complete_it() -> None:
    state = _playing()
    _in_london(state, "lon06", [0, 0, 0, 0, 0], coins=12)  # 4 coins: done at once
    assert _ask(state, levels.normal) == {"type": "complete"}


def test_normal_keeps_coins_for_the_way_home() -> None:
    """Period V, one line from London with the adventures to enter: normal travels rather than
    spending the coins on a purchase for its card."""
    state = _playing()
    state.period, state.current, state.acted = 5, 0, False
    state.city[0] = "liverpool"
    state.diary[0] = ["adv01", "adv02", "adv03", "adv04"]
    state.adventure[0] = "adv09"  # shoes and an umbrella, in a bazaar city like Liverpool
    state.items[0] = [1, 0, 0, 0, 0]
    state.coins[0] = 3
    state.stacks = {a: [] for a in C.AREAS}
    action = _ask(state, levels.normal)
    assert action["type"] == "travel" and action["line"] == "l40", action


def test_normal_is_deterministic_and_fast() -> None:
    state = _playing(players=4, seed=11)
    for _ in range(60):
        seat = RULES.to_act(state)[0]
        legal = RULES.legal_actions(state, seat)
        view = RULES.view(state, seat)
        t0 = time.thread_time()
        first = levels.normal(view, seat, legal)
        assert time.thread_time() - t0 < 0.05
        assert levels.normal(view, seat, legal) == first
        assert first in legal
        RULES.push(state, seat, first)


def test_easy_is_legal_and_sometimes_differs_from_normal() -> None:
    differ, choices = moves_unlike_normal("eighty-days", ["p1", "p2"], 21)
    assert 0.03 * choices < differ < 0.5 * choices


def test_near_best_starts_with_normals_choice_and_is_never_absurd() -> None:
    state = _playing(seed=13)
    longer = 0
    for _ in range(40):
        seat = RULES.to_act(state)[0]
        legal = RULES.legal_actions(state, seat)
        view = RULES.view(state, seat)
        short = levels.near_best(view, seat, legal)
        assert short[0][1] == levels.normal(view, seat, legal)
        assert all(a in legal for _, a in short)
        assert len({repr(a) for _, a in short}) == len(short)
        assert all(a["type"] != "complete" for _, a in short[1:])
        longer += len(short) > 1
        # hard's candidates: normal's move alone before period HARD_FROM
        assert len(levels.shortlist(view, seat, legal)) == 1 or view["period"] >= levels.HARD_FROM
        RULES.push(state, seat, short[0][1])
    assert longer >= 5


def test_hard_stays_within_its_budget() -> None:
    config = hard_config("eighty-days", levels)
    hard = policy("eighty-days", "hard")
    state = _playing(seed=17)
    worst = 0.0
    for _ in range(12):
        seat = RULES.to_act(state)[0]
        legal = RULES.legal_actions(state, seat)
        t0 = time.thread_time()
        action = hard(RULES.view(state, seat), seat, legal)
        worst = max(worst, time.thread_time() - t0)
        assert action in legal
        RULES.push(state, seat, action)
    assert worst < config.budget * 1.5 + 0.05
