"""The engine core's common work: the checks `Rules.apply` makes before a game's move handler
runs, the dispatch through the `moves` table, `is_legal`, `result` and the dump/load helper,
on a tiny game and on every registered engine game."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from engine import IllegalAction, Rng, registry
from engine.core import Action, Event, Result, Rules, View, dump_state, json_copy, load_state, unseen

GAME_IDS = ["detour", "around-the-world", "rails-and-sails", "eighty-days"]


@dataclass
class PileState:
    seats: list[str]
    pile: int
    turn: int
    log: list[dict[str, Any]]


class PileRules(Rules):
    """Take 1 or 2 from a pile of 5; the one who empties it wins."""

    id = "pile"
    title = "Pile"
    min_players = 2
    max_players = 2
    state_class = PileState

    def new_game(self, seats: list[str], seed: int, options: dict[str, Any] | None = None) -> PileState:
        return PileState(list(seats), 5, 0, [])

    def to_act(self, state: PileState) -> list[str]:
        return [] if state.pile == 0 else [state.seats[state.turn]]

    def legal_actions(self, state: PileState, seat: str) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        return [{"type": "take", "n": n} for n in (1, 2) if n <= state.pile]

    def _take(self, state: PileState, seat: str, action: Action) -> list[Event]:
        state.pile -= action["n"]
        state.turn = 1 - state.turn
        state.log.append({"seat": seat, "n": action["n"]})
        return [{"type": "took", "seat": seat, "n": action["n"]}]

    moves = {"take": _take}

    def view(self, state: PileState, seat: str | None) -> View:
        v: View = {"pile": state.pile, "to_act": self.to_act(state)}
        if seat is not None:
            v["private"] = {"me": seat}
        return v

    def is_over(self, state: PileState) -> bool:
        return state.pile == 0

    def result(self, state: PileState) -> Result | None:
        if state.pile:
            return None
        winner = state.log[-1]["seat"]
        return {"ranking": [{"seat": s, "rank": 1 if s == winner else 2} for s in state.seats], "winners": [winner]}

    def resample_hidden(self, state: PileState, seed: int) -> PileState:
        return self.load(self.dump(state))


def refused(rules: Rules, state: Any, seat: str, action: Any) -> str:
    """The refusal code; asserts the state's dump did not change by a byte."""
    before = json.dumps(rules.dump(state), sort_keys=True)
    with pytest.raises(IllegalAction) as exc:
        rules.apply(state, seat, action)
    assert json.dumps(rules.dump(state), sort_keys=True) == before
    return exc.value.code


def test_common_checks_come_before_the_handler() -> None:
    rules = PileRules()
    s = rules.new_game(["a", "b"], 1)
    assert refused(rules, s, "a", "take") == "malformed"
    assert refused(rules, s, "a", {"n": 1}) == "malformed"
    assert refused(rules, s, "a", {"type": 3}) == "malformed"
    assert refused(rules, s, "b", {"type": "take", "n": 1}) == "not_your_turn"
    assert refused(rules, s, "a", {"type": "take", "n": 3}) == "illegal"
    assert refused(rules, s, "a", {"type": "jump"}) == "illegal"
    assert rules.result(s) is None
    assert rules.apply(s, "a", {"type": "take", "n": 2}) == [{"type": "took", "seat": "a", "n": 2}]
    rules.apply(s, "b", {"type": "take", "n": 2})
    rules.apply(s, "a", {"type": "take", "n": 1})
    assert refused(rules, s, "b", {"type": "take", "n": 1}) == "game_over"
    assert rules.result(s) == {"ranking": [{"seat": "a", "rank": 1}, {"seat": "b", "rank": 2}], "winners": ["a"]}


class OwnApplyRules(PileRules):
    """A game that writes its own checked `apply` and has no `moves` table."""

    moves = {}

    def apply(self, state: PileState, seat: str, action: Action) -> list[Event]:
        self.require_legal(state, seat, action)
        return PileRules._take(self, state, seat, action)


def test_push_skips_the_checks_and_falls_back_to_a_games_own_apply() -> None:
    """`push` is the handler alone (it does not look at the turn: the caller vouches for the
    action); a game without a handler for the type is applied checked."""
    rules = PileRules()
    s, t = rules.new_game(["a", "b"], 1), rules.new_game(["a", "b"], 1)
    assert rules.push(s, "a", {"type": "take", "n": 2}) == rules.apply(t, "a", {"type": "take", "n": 2})
    assert s == t
    assert rules.push(s, "a", {"type": "take", "n": 1}) == [{"type": "took", "seat": "a", "n": 1}]  # b's turn
    own = OwnApplyRules()
    u = own.new_game(["a", "b"], 1)
    with pytest.raises(IllegalAction):
        own.push(u, "b", {"type": "take", "n": 1})
    assert own.push(u, "a", {"type": "take", "n": 1}) == [{"type": "took", "seat": "a", "n": 1}]


def test_dump_load_helper_copies_deeply() -> None:
    s = PileState(["a", "b"], 3, 0, [{"seat": "a", "n": (1, 2)}])
    data = dump_state(s)
    assert data == {"seats": ["a", "b"], "pile": 3, "turn": 0, "log": [{"seat": "a", "n": [1, 2]}]}
    data["log"][0]["seat"] = "x"
    assert s.log[0]["seat"] == "a"
    back = load_state(PileState, data)
    data["seats"].append("c")
    assert back.seats == ["a", "b"] and back.log[0]["seat"] == "x"
    assert json_copy({"a": [None, True, 1.5, {"b": []}]}) == {"a": [None, True, 1.5, {"b": []}]}


def test_ai_action_feeds_the_policy_the_view_and_legal_actions_only() -> None:
    seen: list[tuple[View, str, list[Action]]] = []

    def policy(view: View, seat: str, legal: list[Action]) -> Action:
        seen.append((view, seat, legal))
        return legal[-1]

    rules = PileRules(policy=policy)
    s = rules.new_game(["a", "b"], 1)
    assert rules.ai_action(s, "a") == {"type": "take", "n": 2}
    assert seen == [({"pile": 5, "to_act": ["a"], "private": {"me": "a"}}, "a",
                     [{"type": "take", "n": 1}, {"type": "take", "n": 2}])]
    assert PileRules().ai_action(s, "a") == {"type": "take", "n": 1}  # no policy: the first legal action


def _near_misses(action: Action, rng: Rng) -> list[Any]:
    """Actions close to a legal one: a key dropped, a value changed, a key added."""
    out: list[Any] = [{**action, "extra": 1}, {"type": action["type"] + "_x"}]
    for key in action:
        if key != "type":
            out.append({k: v for k, v in action.items() if k != key})
            out.append({**action, key: rng.choice(["zz", 0, -1, 99, None, [], True])})
    return out


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_core_contract_on_every_game(game_id: str) -> None:
    """Sampled states of seeded random games: `is_legal` agrees with `legal_actions`, refusals
    leave the dump byte-identical, `result` is None until the end, the policy answers legally."""
    rules = registry.get(game_id)
    for seed in range(3):
        n = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
        seats = [f"p{i + 1}" for i in range(n)]
        s = rules.new_game(seats, seed)
        rng = Rng.from_seed(seed + 11)
        steps = 0
        while not rules.is_over(s) and steps < 400:
            assert rules.result(s) is None
            acting = rules.to_act(s)
            for seat in seats:
                legal = rules.legal_actions(s, seat)
                assert bool(legal) == (seat in acting)
                for a in legal:
                    assert rules.is_legal(s, seat, a)
            seat = acting[rng.below(len(acting))]
            legal = rules.legal_actions(s, seat)
            action = legal[rng.below(len(legal))]
            if steps % 5 == 0:
                for miss in _near_misses(action, rng):
                    if miss not in legal:
                        assert not rules.is_legal(s, seat, miss)
                        refused(rules, s, seat, miss)
                for other in seats:
                    if other not in acting:
                        assert not rules.is_legal(s, other, action)
                        refused(rules, s, other, action)  # the game's own code (e.g. not_your_colour)
                assert refused(rules, s, seat, ["junk"]) == "malformed"
                assert refused(rules, s, "nobody", action) in {"not_a_player", "not_your_turn"}
                assert rules.ai_action(s, seat) in legal
            rules.apply(s, seat, action)
            steps += 1
        while not rules.is_over(s):
            seat = rules.to_act(s)[0]
            rules.apply(s, seat, rules.ai_action(s, seat))
        res = rules.result(s)
        assert res is not None and res["winners"]
        assert refused(rules, s, seats[0], {"type": "pass"}) == "game_over"
        assert rules.load(rules.dump(s)) == s


def test_rng_below_is_the_top_bits_of_next64_scaled() -> None:
    """`below` inlines `next64` (the playouts' hot path): the same stream as calling it."""
    fast, plain = Rng.from_seed(42), Rng.from_seed(42)
    for n in [1, 2, 3, 7, 52, 100, 2**32] * 50:
        assert fast.below(n) == ((plain.next64() >> 32) * n) >> 32
    assert fast.state == plain.state
    pinned = Rng.from_seed(7)  # the stream games were recorded with
    assert pinned.next64() == 0x4981F147376377F1
    assert [pinned.below(1000) for _ in range(5)] == [295, 151, 768, 244, 181]


def test_determinize_is_every_games_own_and_resample_hidden_defaults_to_it() -> None:
    """A game that has not written `determinize` refuses it (so the conformance suite names it),
    and the default `resample_hidden` is `determinize` of the public view."""
    rules = OwnApplyRules()
    with pytest.raises(NotImplementedError):
        rules.determinize(rules.view(rules.new_game(["a", "b"], 1), None), None, 1)

    class Rebuilt(PileRules):
        def determinize(self, view: View, seat: str | None, seed: int) -> PileState:
            assert seat is None and "private" not in view
            return PileState(["a", "b"], view["pile"] + seed, 0, [])

    game = Rebuilt()
    assert Rules.resample_hidden(game, game.new_game(["a", "b"], 1), 2).pile == 7


def test_unseen_takes_out_what_a_view_shows() -> None:
    assert unseen(["a", "b", "a", "c"], ["a"], ["c"]) == ["a", "b"]
    with pytest.raises(ValueError):
        unseen(["a"], ["a", "a"])
