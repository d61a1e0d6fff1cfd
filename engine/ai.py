"""AI levels for every game: `policy(game_id, level)` -> `choose(view, seat, legal) -> action`.

The bot asks for a seat's level here instead of a game's one `choose`, so every game offers
the same three strengths and a new game gets them for free:

- ``normal``: the game's own policy, improved where a game has a ``levels`` module beside its
  ``ai.py`` (``engine/games/<pkg>/levels.py`` exporting ``normal``); today's ``choose`` stays
  the registered policy the equivalence digests and engine tools use. The same module may set
  ``MISTAKE`` (easy's chance), ``mistakes`` (easy's near-best moves, when they are not hard's
  ``shortlist``), ``HARD`` (a `HardConfig`), overriding the defaults below, and ``evaluate`` (a
  finished playout's worth to the searching seat). A game's ``search`` module beside it may
  define ``Hard`` (a class built from the `HardConfig`: the game's own search, played instead
  of the generic one below).
- ``easy``: normal with seeded mistakes: with a per-game probability it plays another move
  that normal rates close (a game's ``levels.shortlist``), else another legal move of the same
  type, never an absurd one, so a beginner can win.
- ``hard``: determinized Monte Carlo from the seat's view: a pruned shortlist of candidates
  (normal's choice first), each played out with the normal policy for every seat from the same
  sampled worlds (`Rules.determinize`, common random numbers), the best mean result wins.
  Bounded by a fixed number of rounds and a per-game CPU budget per decision.

Every level is pure engine code fed only the seat's view, and deterministic for the same
inputs: its randomness comes from a seed hashed from the view and the seat (``hard`` is
deterministic as long as its rounds finish within the budget, which they do on an idle core).
"""

from __future__ import annotations

import gc
import hashlib
import importlib
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from engine import registry
from engine.core import Action, Policy, Rules, View
from engine.rng import Rng

LEVELS = ("easy", "normal", "hard")

#: a scorer for easy's near-best moves: (view, seat, legal) -> [(score, action)], higher is better
Shortlist = Callable[[View, str, list[Action]], list[tuple[float, Action]]]


@dataclass(frozen=True)
class HardConfig:
    """A game's search settings: CPU seconds per decision (the cap), rounds of sampled worlds,
    and candidates kept after pruning."""

    budget: float
    rounds: int
    candidates: int


#: easy's chance per decision to play a different move than normal, for a game whose levels
#: module sets no `MISTAKE`
DEFAULT_MISTAKE = 0.3
#: hard's settings for a game whose levels module sets no `HARD`
DEFAULT_HARD = HardConfig(budget=0.1, rounds=3, candidates=3)
#: mean playout result an alternative must gain over normal's choice to be played instead: few
#: samples are noisy, and normal's choice is the better bet when they barely differ
MARGIN = 0.05


def view_seed(view: View, seat: str, salt: str = "") -> int:
    """A seed from the view's canonical JSON and the seat: the same question gets the same answer."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
    digest = hashlib.blake2b(f"{salt}|{seat}|{text}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def levels_module(rules: Rules) -> ModuleType | None:
    """The game's optional ``levels`` module (better normal, easy's shortlist, search hooks)."""
    return _game_module(rules, "levels")


def _game_module(rules: Rules, name: str) -> ModuleType | None:
    """The game's optional module `name` beside its rules, or None."""
    package = "engine.games." + rules.id.replace("-", "_")
    try:
        return importlib.import_module(f"{package}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"{package}.{name}":
            return None
        raise


def _rules(game_id: str) -> Rules:
    try:
        return registry.get(game_id)
    except KeyError:
        known = ", ".join(r.id for r in registry.all())
        raise ValueError(f"unknown game {game_id!r} (known: {known})") from None


def policy(game_id: str, level: str, *, budget: float | None = None, rounds: int | None = None) -> Policy:
    """The `choose(view, seat, legal)` of `game_id` at `level`; `budget` and `rounds` override
    hard's CPU seconds per decision and its rounds of sampled worlds (benchmarks, tests, and
    `thinking` below). ValueError for an unknown game or level."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r} (levels: {', '.join(LEVELS)})")
    rules = _rules(game_id)
    module = levels_module(rules)
    normal = normal_policy(rules, module)
    if level == "normal":
        return normal
    if level == "easy":
        own_easy: Policy | None = getattr(module, "easy", None)
        return own_easy if own_easy is not None else _easy(rules, normal, module)
    config = hard_config(game_id, module)
    if budget is not None or rounds is not None:
        config = HardConfig(budget=config.budget if budget is None else budget,
                            rounds=config.rounds if rounds is None else rounds, candidates=config.candidates)
    own_hard: Callable[[HardConfig], Policy] | None = getattr(_game_module(rules, "search"), "Hard", None)
    return collector_waits(own_hard(config) if own_hard is not None else _hard(rules, normal, module, config))


def collector_waits(search: Policy) -> Policy:
    """`search` with Python's cyclic collector held off until it returns: a collection of the
    whole process (tens of milliseconds) landing inside a decision was hard's worst case. Its
    playouts make few reference cycles (none in rails-and-sails and eighty-days, a few hundred
    objects a decision in around-the-world), collected after it, so waiting costs little memory."""
    def choose(view: View, seat: str, legal: list[Action]) -> Action:
        collecting = gc.isenabled()
        gc.disable()
        try:
            return search(view, seat, legal)
        finally:
            if collecting:
                gc.enable()

    choose.__name__ = getattr(search, "__name__", "hard")
    return choose


def thinking(game_id: str, seconds: float) -> Policy:
    """The hard level of `game_id` searching about `seconds` of CPU per decision: its budget,
    and its rounds in proportion to its own (so more time searches more worlds, not only the
    same ones again)."""
    config = hard_config(game_id, levels_module(_rules(game_id)))
    rounds = max(1, math.ceil(config.rounds * seconds / config.budget))
    return policy(game_id, "hard", budget=seconds, rounds=rounds)


def hard_config(game_id: str, module: ModuleType | None = None) -> HardConfig:
    """The game's search settings: its ``levels.HARD`` when it sets one, else the default."""
    own: HardConfig | None = getattr(module, "HARD", None)
    return own if own is not None else DEFAULT_HARD


def normal_policy(rules: Rules, module: ModuleType | None = None) -> Policy:
    """The game's ``levels.normal`` when it has one, else its registered policy."""
    if module is not None and hasattr(module, "normal"):
        improved: Policy = module.normal
        return improved
    if rules.policy is None:
        return lambda view, seat, legal: legal[0]
    return rules.policy


def _easy(rules: Rules, normal: Policy, module: ModuleType | None) -> Policy:
    chance: float = getattr(module, "MISTAKE", DEFAULT_MISTAKE)
    # easy's alternatives: a game's own `mistakes` list when hard's `shortlist` is narrower
    shortlist: Shortlist | None = getattr(module, "mistakes", None) or getattr(module, "shortlist", None)

    def choose(view: View, seat: str, legal: list[Action]) -> Action:
        """Normal, except that now and then a near-best move instead of the best."""
        best = normal(view, seat, legal)
        if len(legal) < 2:
            return best
        rng = Rng.from_seed(view_seed(view, seat, "easy"))
        if rng.below(1000) >= int(chance * 1000):
            return best
        if shortlist is not None:
            others = [a for _, a in shortlist(view, seat, legal) if a != best]
        else:
            others = [a for a in legal if a["type"] == best["type"] and a != best]
        return others[rng.below(len(others))] if others else best

    choose.__name__ = f"{rules.id}_easy"
    return choose


def _outcome(rules: Rules, state: Any, seat: str) -> float:
    """A finished playout's worth to `seat`: a win (shared when tied) counts most, then the rank."""
    result = rules.result(state)
    if result is None:
        return 0.0
    n = len(result["ranking"])
    rank = next((r["rank"] for r in result["ranking"] if r["seat"] == seat), n)
    win = 1.0 / len(result["winners"]) if seat in result["winners"] else 0.0
    return win + 0.25 * (n - rank) / max(1, n - 1)


def _candidates(view: View, seat: str, legal: list[Action], best: Action, keep: int,
                module: ModuleType | None, rng: Rng) -> list[Action]:
    """Normal's choice first, then the game's own ranking of the rest, else a seeded sample
    that spreads over the action types (the search cannot afford every move)."""
    ranked: Shortlist | None = getattr(module, "shortlist", None)
    if ranked is not None:
        pool = [a for _, a in ranked(view, seat, legal) if a != best]
    else:
        pool = [a for a in legal if a != best]
        rng.shuffle(pool)
        pool.sort(key=lambda a: a["type"] == best["type"])  # other types first: variety
    return [best, *pool[: keep - 1]]


def playout(rules: Rules, state: Any, normal: Policy) -> Any:
    """Play `state` to its end with `normal` for every seat, each fed only its own view."""
    to_act, legal_actions, view, push, is_over = (
        rules.to_act, rules.legal_actions, rules.view, rules.push, rules.is_over)
    while not is_over(state):
        s = to_act(state)[0]
        legal = legal_actions(state, s)
        push(state, s, legal[0] if len(legal) == 1 else normal(view(state, s), s, legal))
    return state


def _hard(rules: Rules, normal: Policy, module: ModuleType | None, config: HardConfig) -> Policy:
    evaluate: Callable[[Rules, Any, str], float] = getattr(module, "evaluate", _outcome)

    def choose(view: View, seat: str, legal: list[Action]) -> Action:
        """The candidate with the best mean playout result over the same sampled worlds."""
        best = normal(view, seat, legal)
        if len(legal) < 2:
            return best
        start = time.thread_time()
        seed = view_seed(view, seat, "hard")
        rng = Rng.from_seed(seed)
        cands = _candidates(view, seat, legal, best, config.candidates, module, rng)
        if len(cands) < 2:
            return best
        totals = [0.0] * len(cands)
        done, spent = 0, 0.0
        for k in range(config.rounds):
            world_seed = (seed + 7919 * k) & ((1 << 62) - 1)
            scores = []
            for action in cands:
                spent = time.thread_time() - start
                if done and spent + spent / done > config.budget:
                    break  # the next playout would likely overrun the budget
                state = rules.determinize(view, seat, world_seed)
                rules.push(state, seat, action)
                playout(rules, state, normal)
                scores.append(evaluate(rules, state, seat))
                done += 1
            if len(scores) < len(cands):
                break  # only whole rounds count, so every candidate saw the same worlds
            totals = [t + s for t, s in zip(totals, scores, strict=True)]
        if not done:
            return best
        rounds = done // len(cands)
        pick = 0
        for i, total in enumerate(totals):
            if total > totals[pick] + (MARGIN * rounds if pick == 0 else 1e-9):
                pick = i
        return cands[pick]

    choose.__name__ = f"{rules.id}_hard"
    return choose
