"""The engine contract every game implements (see shared/DESIGN.md).

A game is a `Rules` object: pure functions over a state value. The bot, the AI
seats, the fuzz tests and the benchmarks only ever talk to games through this
class, so anything a game needs from the platform must be expressed here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import fields
from functools import cache
from types import UnionType
from typing import Any, ClassVar, NotRequired, TypedDict, Union, get_args, get_origin, get_type_hints

Action = dict[str, Any]
Event = dict[str, Any]
View = dict[str, Any]
JSON = Any
#: an AI policy: decides from the seat's view and its legal actions only
Policy = Callable[[View, str, list[Action]], Action]
#: a move handler, as boardgame.io declares moves: (rules, state, seat, action) -> events.
#: `Rules.apply` calls it only once the action is known to be legal.
Move = Callable[[Any, Any, str, Action], list[Event]]


class RankRow(TypedDict):
    """One seat's line in the final standing; games add their own score details."""

    seat: str
    rank: int
    score: NotRequired[int]


class Result(TypedDict):
    """The final standing of a finished game (see `Rules.result`)."""

    ranking: list[dict[str, Any]]
    winners: list[str]


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


def malformed() -> IllegalAction:
    return IllegalAction("malformed", "That is not a valid move.")


def game_over() -> IllegalAction:
    return IllegalAction("game_over", "The game is over.")


def not_your_turn() -> IllegalAction:
    return IllegalAction("not_your_turn", "It is not your turn.")


def not_a_player() -> IllegalAction:
    return IllegalAction("not_a_player", "You are not playing in this game.")


def not_allowed() -> IllegalAction:
    return IllegalAction("illegal", "That move is not allowed now.")


_ATOMS = frozenset({str, int, float, bool, type(None)})


def json_copy(value: JSON) -> JSON:
    """A deep copy of JSON-like data (dicts, lists; tuples become lists); atoms are shared."""
    t = type(value)
    if t is list or t is tuple:
        return [x if type(x) in _ATOMS else json_copy(x) for x in value]
    if t is dict:
        return {k: x if type(x) in _ATOMS else json_copy(x) for k, x in value.items()}
    return value


def unseen(content: Iterable[str], *shown: Iterable[str]) -> list[str]:
    """The cards of `content` (a multiset, in its order) left once every card of `shown` is
    taken out, one copy per mention: what `determinize` may deal into the hidden places.
    Raises ValueError for a shown card the content does not hold (a view that lies)."""
    left = Counter(content)
    for cards in shown:
        for card in cards:
            if left[card] <= 0:
                raise ValueError(f"the view shows more {card!r} than the game holds")
            left[card] -= 1
    return list(left.elements())


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


def dump_state(state: Any) -> dict[str, JSON]:
    """A dataclass state as a JSON-safe dict, field by field (no shared lists or dicts)."""
    data = state.__dict__
    cls: type = type(state)
    return {name: json_copy(data[name]) for name in _field_names(cls)}


def load_state(cls: type, data: dict[str, JSON]) -> Any:
    """The inverse of `dump_state`: a fresh `cls` that shares nothing with `data`."""
    return cls(**{name: json_copy(data[name]) for name in _field_names(cls)})


def dump_typed(state: Any) -> dict[str, JSON]:
    """`dump_state`, faster: each field copied as its annotation says (a list of strings by one
    C-level copy instead of a type check per item); same result, nothing shared. For the
    commits after every move, where the generic deep copy cost more than the move itself."""
    data = state.__dict__
    cls: type = type(state)
    return {name: copy(data[name]) for name, copy in _field_copiers(cls)}


def load_typed(cls: type, data: dict[str, JSON]) -> Any:
    """The inverse of `dump_typed` (and of `dump_state`): a fresh `cls` sharing nothing with `data`."""
    return cls(**{name: copy(data[name]) for name, copy in _field_copiers(cls)})


@cache
def _field_copiers(cls: type) -> tuple[tuple[str, Callable[[Any], Any]], ...]:
    hints = get_type_hints(cls)
    return tuple((name, _copier(hints[name])) for name in _field_names(cls))


def _is_atom(hint: Any) -> bool:
    if hint in _ATOMS or hint is type(None):
        return True
    return get_origin(hint) in (Union, UnionType) and all(_is_atom(arg) for arg in get_args(hint))


def _copier(hint: Any) -> Callable[[Any], Any]:
    """How to copy a value of this annotation: atoms are shared, lists and dicts of atoms (and
    lists of those) copied by C-level shallow copies; any other shape by `json_copy`.
    `X | None` copies X unless the value is None."""
    if _is_atom(hint):
        return _same
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, UnionType) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1:
            inner = _copier(rest[0])
            return lambda v: None if v is None else inner(v)
        return json_copy
    if origin is list and args:
        item = args[0]
        if _is_atom(item):
            return list
        item_origin, item_args = get_origin(item), get_args(item)
        if item_origin is list and item_args and _is_atom(item_args[0]):
            return _list_of_lists
        if item_origin is dict and len(item_args) == 2 and _is_atom(item_args[1]):
            return _list_of_dicts
    if origin is dict and len(args) == 2 and args[0] is str:
        value = args[1]
        if _is_atom(value):
            return dict
        if get_origin(value) is list and get_args(value) and _is_atom(get_args(value)[0]):
            return _dict_of_lists
    return json_copy


def _same(value: Any) -> Any:
    return value


def _list_of_lists(value: Any) -> list[list[Any]]:
    return [list(x) for x in value]


def _list_of_dicts(value: Any) -> list[dict[str, Any]]:
    return [dict(x) for x in value]


def _dict_of_lists(value: Any) -> dict[str, list[Any]]:
    return {k: list(x) for k, x in value.items()}


class Rules(ABC):
    """One game's rules. Stateless: every method takes the state it works on.

    Contract highlights:
    - `new_game` is deterministic in (seats, seed, options).
    - `apply` validates first and mutates only when the action is legal.
    - `legal_actions(state, seat)` lists every legal action; an action not in it
      is refused by `apply` (compare with `==` on the JSON-safe dicts); `is_legal`
      gives the same answer, often without listing them all.
    - `push` is `apply` unchecked, for an action taken from `legal_actions` of the same
      state (AI seats, playouts); it must change the state and return events exactly as
      `apply` would.
    - `apply` is written once, here: it checks the format, the end of the game, the
      turn and legality, then dispatches to the game's `moves` table. A game says why
      an action is refused in `refusal` (its precise, translated code).
    - `view(state, None)` is public and has no ``"private"`` key; `view(state, seat)`
      adds that seat's secrets under ``"private"``.
    - `dump`/`load` round-trip exactly: ``load(dump(s)) == s``.
    - `determinize(view(s, seat), seat, seed)` rebuilds a full state from what `seat` knows:
      its view is that very view; what the view does not show is dealt at random.
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
    #: action type -> move handler; `apply` dispatches through it
    moves: ClassVar[Mapping[str, Move]] = {}
    #: the dataclass of the game's state, for the default `dump`/`load`
    state_class: ClassVar[type | None] = None
    #: action types whose `legal_actions` list is a sensible sample, not every legal variant
    #: (e.g. rails' payments: any valid payment is accepted, a capped set is listed);
    #: `is_legal` and `apply` may accept more of these than are listed, never fewer
    sampled_types: ClassVar[frozenset[str]] = frozenset()
    #: action types a player may take back (as boardgame.io marks moves `undoable`), as long as
    #: `undoable` finds that the move revealed nothing; empty (the safe default): no undo
    undoable_moves: ClassVar[frozenset[str]] = frozenset()
    #: event types that show something hidden or new (a card drawn, a die rolled, secret choices
    #: revealed, a new round dealt): a move that emits one is never undoable
    revealing_events: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, policy: Policy | None = None) -> None:
        #: the AI policy (`ai.choose`), attached by the game package so rules never import the AI
        self.policy = policy

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

    def apply(self, state: Any, seat: str, action: Action) -> list[Event]:
        """Apply one action in place; return JSON-safe events. Raise IllegalAction and
        leave the state untouched when the action is refused."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise malformed()
        if self.is_over(state):
            raise game_over()
        if not self.may_act(state, seat) or not self.is_legal(state, seat, action):
            raise self.refusal(state, seat, action)
        return self.moves[action["type"]](self, state, seat, action)

    def push(self, state: Any, seat: str, action: Action) -> list[Event]:
        """`apply` without the checks, as python-chess's `board.push` next to its checked paths:
        only for an action taken from `legal_actions(state, seat)` of this very state (an AI
        seat's or a playout's choice), where checking it again is pure cost. Same state change
        and events as `apply`; an action from anywhere else (a person) must go through `apply`.
        A game without a handler for the type (its own `apply`) is applied checked."""
        move = self.moves.get(action["type"])
        if move is None:
            return self.apply(state, seat, action)
        return move(self, state, seat, action)

    def may_act(self, state: Any, seat: str) -> bool:
        """`seat in to_act(state)`; games may answer without building the list."""
        return seat in self.to_act(state)

    def is_legal(self, state: Any, seat: str, action: Action) -> bool:
        """Whether `apply` accepts the action: exactly `action in legal_actions(state, seat)`.
        Games may answer more cheaply but must agree."""
        return action in self.legal_actions(state, seat)

    def check(self, state: Any, seat: str, action: Action) -> None:
        """Raise the precise `IllegalAction` for a well-formed action in a running game that
        `apply` must refuse; never mutates. Games override it with their own codes
        (players see them); the default: not your turn, then not a legal action."""
        if not self.may_act(state, seat):
            raise not_your_turn()
        if action not in self.legal_actions(state, seat):
            raise not_allowed()

    def passes_check(self, state: Any, seat: str, action: Action) -> bool:
        """`is_legal` through `check`: for games whose `check` is cheaper than listing."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str) or self.is_over(state):
            return False
        try:
            self.check(state, seat, action)
        except IllegalAction:
            return False
        return True

    def refusal(self, state: Any, seat: str, action: Action) -> IllegalAction:
        """Why `apply` refuses this well-formed action in a running game (only called then)."""
        try:
            self.check(state, seat, action)
        except IllegalAction as exc:
            return exc
        return not_allowed()

    @abstractmethod
    def view(self, state: Any, seat: str | None) -> View:
        """What `seat` may know (seat=None: the public view, no ``"private"`` key)."""

    @abstractmethod
    def is_over(self, state: Any) -> bool: ...

    @abstractmethod
    def result(self, state: Any) -> Result | None:
        """Final standing, once over (None while the game runs):
        ``{"ranking": [{"seat": s, "rank": 1, "score": n, ...}, ...], "winners": [s, ...]}``.
        Ranks are 1-based; tied seats share a rank."""

    def dump(self, state: Any) -> dict[str, JSON]:
        """The state as a JSON-safe dict (the store keeps it)."""
        return dump_state(state)

    def load(self, data: dict[str, JSON]) -> Any:
        """The inverse of `dump`: ``load(dump(s)) == s``."""
        if self.state_class is None:
            raise NotImplementedError(f"{type(self).__name__} has no state_class")
        return load_state(self.state_class, data)

    # -- hidden information ---------------------------------------------------
    def determinize(self, view: View, seat: str | None, seed: int) -> Any:
        """A full state consistent with what `seat` knows, built from its view alone.

        ``view(result, seat) == view`` and ``legal_actions(result, s)`` are those of the state
        the view came from; everything the view does not show (other hands, deck orders, secret
        choices, the random generator) is dealt at random from what could still be there: the
        game's whole content minus everything the view shows, each hidden place keeping the
        size the view gives it. Deterministic in `seed` (`engine.rng`). ``seat=None`` takes
        the public view and deals every secret. A search AI samples the worlds it cannot see
        this way; a view must therefore carry every public fact the seat has seen (public
        discard piles, past newspapers, cards taken in the open). Every registered game
        implements it (the conformance suite checks each); this default refuses.
        """
        raise NotImplementedError(f"{type(self).__name__} does not implement determinize")

    def resample_hidden(self, state: Any, seed: int) -> Any:
        """A *new* state that looks the same from outside but re-deals what nobody sees.

        ``view(result, None) == view(state, None)`` and `state` is left untouched; hands,
        decks, secret choices not yet revealed and the random generator are re-drawn among
        the places they could be (each seat keeps its hand size, every pile its count).
        Deterministic in `seed`. The privacy tests use it to prove public messages do not
        depend on hidden information. By default `determinize` of the public view: one way
        to deal hidden parts for the AI and the privacy tests alike.
        """
        return self.determinize(self.view(state, None), None, seed)

    # -- undo -----------------------------------------------------------------
    def undoable(self, before: Any, after: Any, seat: str, action: Action, events: list[Event]) -> bool:
        """Whether `seat` may take back `action`, which turned `before` into `after` with
        `events`: taking it back must not let anyone learn or redo anything. The default: a
        type in `undoable_moves`, no event in `revealing_events`, the game not over, and the
        random generator (a state's ``rng`` field) untouched; games may be stricter."""
        if not isinstance(action, dict) or action.get("type") not in self.undoable_moves:
            return False
        if self.is_over(after) or any(e.get("type") in self.revealing_events for e in events):
            return False
        return getattr(before, "rng", None) == getattr(after, "rng", None)

    # -- AI seats -----------------------------------------------------------
    def ai_action(self, state: Any, seat: str) -> Action:
        """A sensible action for an AI seat: the game's policy, fed only
        `view(state, seat)` and the seat's legal actions (no peeking at decks or other
        hands). Without a policy: the first legal action."""
        legal = self.legal_actions(state, seat)
        if self.policy is None:
            return legal[0]
        return self.policy(self.view(state, seat), seat, legal)

    # -- a finished game's summary and timelapse ------------------------------
    #: what `progress` measures, named for the summary chart's axis (the platform catalog's
    #: ``memories.unit.<progress_unit>``): ``"days_travelled"``, ``"days_used"`` or ``"points"``
    progress_unit: ClassVar[str] = "points"
    #: whether a larger `progress` is better (points, days travelled); the summary's "biggest
    #: leap" highlight only means something then
    progress_gains: ClassVar[bool] = True

    def progress(self, state: Any) -> dict[str, float]:
        """Each seat's standing in the race so far (the summary chart's y value, read after
        every round of a replay). Default: the final scores once over, nothing before."""
        result = self.result(state) if self.is_over(state) else None
        rows = result["ranking"] if result else []
        return {r["seat"]: float(r["score"]) for r in rows if isinstance(r.get("score"), (int, float))}

    def round_of(self, state: Any) -> int:
        """The round the game is in: the timelapse takes a frame whenever it changes (or
        `ends_round` says so). Default: the public view's ``"round"``, else 0."""
        value = self.view(state, None).get("round")
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    def ends_round(self, state: Any, events: list[Event]) -> bool:
        """Whether the action whose `events` led to `state` closed a round that `round_of`
        does not count (e.g. a round of turns inside a longer period). Default: no."""
        return False

    def score_parts(self, state: Any) -> dict[str, dict[str, JSON]]:
        """The scoring breakdown of a finished game: seat -> part -> value, in the order to
        show (each part is worded by the game's catalog, ``breakdown.<part>``). Default:
        the score of `result`."""
        result = self.result(state)
        rows = result["ranking"] if result else []
        return {r["seat"]: {"score": r.get("score")} for r in rows}

    def highlights(self, log: list[tuple[int, Event]]) -> list[Event]:
        """A few notable moments of a finished game from its public events, each given with
        the round it happened in: ``{"type": ..., "seat": ..., "round": ..., ...}``, worded
        by the game's catalog (``highlight.<type>``, or the plural pair of ``.one``/``.other``
        for ``"count"``). Default: none."""
        return []

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
        """The checks of `apply` in one call, for a game that writes its own `apply`
        (the platform's test game does)."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise malformed()
        if self.is_over(state):
            raise game_over()
        if seat not in self.to_act(state):
            raise not_your_turn()
        if action not in self.legal_actions(state, seat):
            raise not_allowed()


def _option_text(value: JSON) -> str:
    """An option value as a player types it (`true`, not `True`)."""
    return str(value).lower() if isinstance(value, bool) else str(value)
