"""The engine contract every game implements (see shared/DESIGN.md).

A game is a `Rules` object: pure functions over a state value. The bot, the AI
seats, the fuzz tests and the benchmarks only ever talk to games through this
class, so anything a game needs from the platform must be expressed here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar

Action = dict[str, Any]
Event = dict[str, Any]
View = dict[str, Any]
JSON = Any


class IllegalAction(Exception):
    """Raised by `Rules.apply` when an action is not allowed; the state is untouched.

    `code` is a stable machine-readable id (the bot translates it through the
    game's message catalog, key ``illegal.<code>``); `message` is an English
    sentence a player understands, used when no translation exists. `params`
    fill the placeholders of the translated message.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r})"


class Rules(ABC):
    """One game's rules. Stateless: every method takes the state it works on.

    Contract highlights:
    - `new_game` is deterministic in (seats, seed, options).
    - `apply` validates first and mutates only when the action is legal.
    - `legal_actions(state, seat)` lists every legal action; an action not in it
      is refused by `apply` (compare with `==` on the JSON-safe dicts).
    - `view(state, None)` is public and has no ``"private"`` key; `view(state, seat)`
      adds that seat's secrets under ``"private"``.
    - `dump`/`load` round-trip exactly: ``load(dump(s)) == s``.
    - `resample_hidden(s, seed)` re-deals the secrets behind an unchanged public view.
    """

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_defaults: ClassVar[dict[str, JSON]] = {}
    #: allowed values per option, for validation and the `/game new` form:
    #: a list of values, or ``("int", lo, hi)``.
    option_choices: ClassVar[dict[str, Any]] = {}

    # -- life cycle ---------------------------------------------------------
    @abstractmethod
    def new_game(self, seats: list[str], seed: int, options: dict[str, JSON] | None = None) -> Any:
        """A fresh state for these seats (in turn order), seeded."""

    @abstractmethod
    def to_act(self, state: Any) -> list[str]:
        """Seats that may act now (several in simultaneous phases; empty when over)."""

    @abstractmethod
    def legal_actions(self, state: Any, seat: str) -> list[Action]:
        """Every legal action for `seat` now, as JSON-safe dicts with a ``"type"``."""

    @abstractmethod
    def apply(self, state: Any, seat: str, action: Action) -> list[Event]:
        """Apply one action in place; return JSON-safe events. Raise IllegalAction."""

    @abstractmethod
    def view(self, state: Any, seat: str | None) -> View:
        """What `seat` may know (seat=None: the public view, no ``"private"`` key)."""

    @abstractmethod
    def is_over(self, state: Any) -> bool: ...

    @abstractmethod
    def result(self, state: Any) -> dict[str, JSON]:
        """Final standing, once over:
        ``{"ranking": [{"seat": s, "rank": 1, "score": n, ...}, ...], "winners": [s, ...]}``.
        Ranks are 1-based; tied seats share a rank."""

    @abstractmethod
    def dump(self, state: Any) -> dict[str, JSON]: ...

    @abstractmethod
    def load(self, data: dict[str, JSON]) -> Any: ...

    # -- hidden information ---------------------------------------------------
    @abstractmethod
    def resample_hidden(self, state: Any, seed: int) -> Any:
        """A *new* state that looks the same from outside but re-deals what nobody sees.

        ``view(result, None) == view(state, None)`` and `state` is left untouched; hands,
        decks, secret choices not yet revealed and the random generator are re-drawn among
        the places they could be (each seat keeps its hand size, every pile its count).
        Deterministic in `seed`. The privacy tests use it to prove public messages do not
        depend on hidden information; an AI can use it to sample what it cannot see.
        """

    # -- AI seats -----------------------------------------------------------
    def ai_action(self, state: Any, seat: str) -> Action:
        """A sensible action for an AI seat. Must decide only from what
        `view(state, seat)` shows (no peeking at decks or other hands).
        Default: the first legal action; every game overrides it."""
        return self.legal_actions(state, seat)[0]

    # -- helpers shared by all games -----------------------------------------
    def validate_options(self, options: dict[str, JSON] | None) -> dict[str, JSON]:
        """Defaults filled in; unknown keys or bad values raise IllegalAction naming what
        is allowed (the player typed them)."""
        merged = dict(self.option_defaults)
        for key, value in (options or {}).items():
            if key not in self.option_defaults:
                known = ", ".join(sorted(self.option_defaults)) or "—"
                raise IllegalAction("unknown_option", f"Unknown option '{key}'. Options of this game: {known}.",
                                    option=key, known=known)
            allowed = self.option_choices.get(key)
            if isinstance(allowed, tuple) and allowed and allowed[0] == "int":
                if not isinstance(value, int) or isinstance(value, bool) or not allowed[1] <= value <= allowed[2]:
                    raise IllegalAction(
                        "bad_option_int", f"Option '{key}' must be a whole number from {allowed[1]} to {allowed[2]}.",
                        option=key, min=allowed[1], max=allowed[2],
                    )
            elif allowed is not None and (value not in allowed or type(value) is not type(self.option_defaults[key])):
                values = ", ".join(_option_text(v) for v in allowed)
                raise IllegalAction("bad_option", f"Option '{key}' must be one of: {values}.", option=key,
                                    allowed=values)
            elif allowed is None and type(value) is not type(self.option_defaults[key]):
                values = _option_text(self.option_defaults[key])
                raise IllegalAction("bad_option", f"Option '{key}' must be like: {values}.", option=key,
                                    allowed=values)
            merged[key] = value
        return merged

    def check_seats(self, seats: list[str]) -> None:
        if not self.min_players <= len(seats) <= self.max_players:
            raise IllegalAction(
                "player_count",
                f"{self.title} needs {self.min_players}–{self.max_players} players.",
                min=self.min_players, max=self.max_players,
            )
        if len(set(seats)) != len(seats):
            raise IllegalAction("duplicate_seat", "Each seat must be different.")

    def require_legal(self, state: Any, seat: str, action: Action) -> None:
        """Generic guard for `apply`: refuse anything not in `legal_actions`.

        Games with a huge action space may validate more cleverly, but must give
        the same answer.
        """
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("malformed", "That is not a valid move.")
        if self.is_over(state):
            raise IllegalAction("game_over", "The game is over.")
        if seat not in self.to_act(state):
            raise IllegalAction("not_your_turn", "It is not your turn.")
        if action not in self.legal_actions(state, seat):
            raise IllegalAction("illegal", "That move is not allowed now.")


def _option_text(value: JSON) -> str:
    """An option value as a player types it (`true`, not `True`)."""
    return str(value).lower() if isinstance(value, bool) else str(value)
