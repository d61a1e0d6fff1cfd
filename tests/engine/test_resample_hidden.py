"""`Rules.resample_hidden`: same public view, a valid game, other hidden information.

For random mid-game states of every game (fewest and most players), the re-dealt state looks
the same from outside, leaves the original alone, is deterministic in its seed, still lets
every seat to act move, and random play from it ends. For most states something hidden
(a hand, a deck, a secret choice) actually differs, so the privacy tests that compare
messages across re-deals really compare different secrets.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import Rules, registry

GAMES = ("detour", "around-the-world", "rails-and-sails", "eighty-days")
MAX_STEPS = 20_000


def random_states(rules: Rules, players: int, seed: int, count: int) -> list[Any]:
    """`count` states met along one random game (copies, at random depths, never over)."""
    rnd = random.Random(seed)
    state = rules.new_game([f"p{k + 1}" for k in range(players)], seed)
    length = 0
    probe = rules.load(rules.dump(state))
    while not rules.is_over(probe):
        seat = rnd.choice(rules.to_act(probe))
        rules.apply(probe, seat, rnd.choice(rules.legal_actions(probe, seat)))
        length += 1
    stops = sorted(rnd.sample(range(length), min(count, length)))
    rnd = random.Random(seed)
    out = []
    for step in range(length):
        if stops and stops[0] == step:
            out.append(rules.load(rules.dump(state)))
            stops.pop(0)
        seat = rnd.choice(rules.to_act(state))
        rules.apply(state, seat, rnd.choice(rules.legal_actions(state, seat)))
    return out


def has_secret(rules: Rules, state: Any) -> bool:
    """Whether the public view leaves anything to re-deal. Always so with hands and decks;
    in detour (open hands) only while a chosen card waits for the reveal."""
    view = rules.view(state, None)
    if rules.id != "detour":
        return True
    return view["phase"] == "choose" and any(p["chosen"] and len(p["hand"]) > 1 for p in view["pawns"])


def hidden_part(rules: Rules, state: Any) -> dict[str, Any]:
    """The dumped state without the generator (re-seeding it alone is no real re-deal)."""
    return {k: v for k, v in rules.dump(state).items() if k != "rng"}


@pytest.mark.parametrize("game", GAMES)
def test_resample_keeps_the_public_view_and_a_playable_game(game: str) -> None:
    rules = registry.get(game)
    checked = differs = 0
    for players in (rules.min_players, rules.max_players):
        for seed in (3, 17):
            for k, state in enumerate(random_states(rules, players, seed, 12)):
                before = rules.dump(state)
                other = rules.resample_hidden(state, 1000 + k)
                assert rules.dump(state) == before, "the original state was changed"
                assert rules.dump(rules.resample_hidden(state, 1000 + k)) == rules.dump(other), "not deterministic"
                assert rules.view(other, None) == rules.view(state, None)
                assert rules.to_act(other) == rules.to_act(state)
                for seat in rules.to_act(other):
                    assert rules.legal_actions(other, seat), f"{seat} cannot move after the re-deal"
                    assert rules.view(other, seat)["private"] is not None
                assert rules.load(rules.dump(other)) == other
                checked += has_secret(rules, state)
                differs += has_secret(rules, state) and hidden_part(rules, other) != hidden_part(rules, state)
                rnd = random.Random(k)
                for _ in range(MAX_STEPS):
                    if rules.is_over(other):
                        break
                    seat = rnd.choice(rules.to_act(other))
                    rules.apply(other, seat, rnd.choice(rules.legal_actions(other, seat)))
                assert rules.is_over(other), "random play from the re-dealt state does not end"
    assert checked >= 8 and differs * 2 > checked, f"only {differs} of {checked} re-deals changed anything hidden"


def test_detour_resample_redraws_a_secret_choice() -> None:
    """Detour's only secret is a chosen card before the reveal: it is re-drawn from the hand."""
    rules = registry.get("detour")
    state = rules.new_game(["p1", "p2", "p3"], 5)
    rules.apply(state, "p1", {"type": "choose", "card": 10})
    seen = {rules.resample_hidden(state, seed).chosen[0] for seed in range(40)}
    assert seen == {10, 8, 6, 5}
    assert {rules.resample_hidden(state, seed).chosen[1] for seed in range(10)} == {0}


def test_around_the_world_resample_keeps_card_counts() -> None:
    rules = registry.get("around-the-world")
    [state] = random_states(rules, 4, 9, 1)
    other = rules.resample_hidden(state, 1)
    assert [len(h) for h in other.hand] == [len(h) for h in state.hand]
    assert sorted(c for h in other.hand for c in h) + sorted(other.travel_deck) != []
    assert sorted([c for h in other.hand for c in h] + other.travel_deck) == sorted(
        [c for h in state.hand for c in h] + state.travel_deck)
    assert sorted([c for h in other.events for c in h] + other.event_deck) == sorted(
        [c for h in state.events for c in h] + state.event_deck)


def test_rails_resample_keeps_each_seats_train_and_ship_counts() -> None:
    rules = registry.get("rails-and-sails")
    [state] = random_states(rules, 3, 4, 1)
    other = rules.resample_hidden(state, 2)

    def counts(s: Any, kind: str) -> list[int]:
        return [sum(n for c, n in hand.items() if c[0] == kind) for hand in s.hands]

    assert counts(other, "t") == counts(state, "t") and counts(other, "s") == counts(state, "s")
    assert [len(t) for t in other.tickets] == [len(t) for t in state.tickets]
    everything = sorted([t for ts in state.tickets + state.pending for t in ts] + state.ticket_deck)
    assert sorted([t for ts in other.tickets + other.pending for t in ts] + other.ticket_deck) == everything
