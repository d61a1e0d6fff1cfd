"""A tiny game used only by the platform tests, so they do not depend on any real game.

"Countdown": a counter starts at `start` (option, default 15); on your turn you take
1, 2 or 3; whoever takes the last one wins. Each seat holds a secret lucky number
(hidden information, to test that it never reaches a public message).
"""

from __future__ import annotations

import io
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from bot import games
from bot.games import GameSpec
from bot.gameui import Command, GameUI, Param
from engine import Rng, Rules

GAME_ID = "countdown"


@dataclass
class CountdownState:
    seats: list[str]
    counter: int
    turn: int = 0
    rng: int = 0
    secrets: dict[str, int] = field(default_factory=dict)
    winner: str | None = None


class CountdownRules(Rules):
    id = GAME_ID
    title = "Countdown"
    min_players = 2
    max_players = 4
    option_defaults = {"start": 15}
    option_choices = {"start": ("int", 5, 40)}

    def new_game(self, seats: list[str], seed: int, options: dict[str, Any] | None = None) -> CountdownState:
        self.check_seats(seats)
        opts = self.validate_options(options)
        rng = Rng.from_seed(seed)
        secrets = {s: 100 + rng.below(900) for s in seats}
        return CountdownState(list(seats), opts["start"], 0, rng.state, secrets)

    def to_act(self, state: CountdownState) -> list[str]:
        return [] if state.winner else [state.seats[state.turn % len(state.seats)]]

    def legal_actions(self, state: CountdownState, seat: str) -> list[dict[str, Any]]:
        if seat not in self.to_act(state):
            return []
        return [{"type": "take", "n": n} for n in (1, 2, 3) if n <= state.counter]

    def apply(self, state: CountdownState, seat: str, action: dict[str, Any]) -> list[dict[str, Any]]:
        self.require_legal(state, seat, action)
        state.counter -= action["n"]
        events: list[dict[str, Any]] = [{"type": "took", "seat": seat, "n": action["n"], "left": state.counter}]
        if state.counter == 0:
            state.winner = seat
            events.append({"type": "won", "seat": seat})
        else:
            state.turn += 1
        return events

    def view(self, state: CountdownState, seat: str | None) -> dict[str, Any]:
        view: dict[str, Any] = {"game": GAME_ID, "seats": list(state.seats), "to_act": self.to_act(state),
                                "over": state.winner is not None, "counter": state.counter}
        if seat is not None:
            view["private"] = {"lucky": state.secrets[seat]}
        return view

    def is_over(self, state: CountdownState) -> bool:
        return state.winner is not None

    def result(self, state: CountdownState) -> dict[str, Any]:
        ranking = [{"seat": s, "rank": 1 if s == state.winner else 2, "score": int(s == state.winner)}
                   for s in state.seats]
        ranking.sort(key=lambda e: e["rank"])
        return {"ranking": ranking, "winners": [state.winner] if state.winner else []}

    def dump(self, state: CountdownState) -> dict[str, Any]:
        return asdict(state)

    def load(self, data: dict[str, Any]) -> CountdownState:
        return CountdownState(**{**data, "seats": list(data["seats"]), "secrets": dict(data["secrets"])})

    def resample_hidden(self, state: CountdownState, seed: int) -> CountdownState:
        """The lucky numbers are the only secret: drawn again."""
        rng = Rng.from_seed(seed)
        out = self.load(self.dump(state))
        out.secrets = {s: 100 + rng.below(900) for s in out.seats}
        out.rng = rng.state
        return out

    def ai_action(self, state: CountdownState, seat: str) -> dict[str, Any]:
        return choose(self.view(state, seat), seat, self.legal_actions(state, seat))


RULES = CountdownRules()


def choose(view: dict[str, Any], seat: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The AI policy: leave a multiple of four (it sees only the public counter)."""
    best = next((a for a in legal if (view["counter"] - a["n"]) % 4 == 0), None)
    return best or legal[0]


class CountdownUI(GameUI):
    def quick_actions(self, view: dict[str, Any], seat: str) -> list[Any]:
        """The counter is public, so "Take n" buttons are too."""
        return [{"type": "take", "n": n} for n in (1, 2, 3) if n <= view["counter"]]

    def status_text(self, view: dict[str, Any], names: dict[str, str], t: Any) -> str:
        return t("status", counter=view["counter"])

    def hand_text(self, view: dict[str, Any], seat: str, names: dict[str, str], t: Any) -> str:
        return t("hand", lucky=view["private"]["lucky"])


UI = CountdownUI(
    game_id=GAME_ID, group="countdown",
    commands=(Command("take", (Param("n", "int", choices=(1, 2, 3)),), refusal="illegal.too_many"),),
    package_dir=Path(__file__).parent,
)


def render_board(view: dict[str, Any], *, names: dict[str, str], lang: str = "en",
                 events: list[dict[str, Any]] | None = None, translator: Any = None) -> bytes:
    assert "private" not in view
    image = Image.new("RGB", (120, 40), "white")
    ImageDraw.Draw(image).text((5, 5), f"{view['counter']}", fill="black")
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def render_hand(view: dict[str, Any], seat: str, *, names: dict[str, str], lang: str = "en",
                translator: Any = None) -> bytes:
    image = Image.new("RGB", (120, 40), "white")
    ImageDraw.Draw(image).text((5, 5), f"{view['private']['lucky']}", fill="black")
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def spec() -> GameSpec:
    """The fake game as one registered unit: rules, AI, renderer (this module), UI, catalogs."""
    return GameSpec(id=GAME_ID, rules=RULES, ai=choose, renderer=sys.modules[__name__], ui=UI,
                    catalogs=UI.package_dir / "locales", docs=None)


def install() -> None:
    """Make the fake game visible to the platform: one spec, registered."""
    games.register(spec())


def uninstall() -> None:
    games.unregister(GAME_ID)
