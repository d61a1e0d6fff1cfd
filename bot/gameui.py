"""The presentation contract of a game: its command group, labels and texts.

Each game has one package `bot/games/<package>/` whose `__init__.py` defines a
`GameUI` subclass instance named `UI`, plus `locales/{en,de,fr}.json`. The table
service, the Discord adapter and the local table build everything game-specific
(slash subcommands, autocomplete, buttons, the action menu, event lines) from
it, so adding a game never touches the platform.

A subcommand is declared as data (`Command`) and turned into an engine action by
matching against `legal_actions`: the platform never invents an action the
engine did not list, so a malformed option cannot reach `apply`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from bot.i18n import Translator
from engine import Action, Event, View
from engine.core import Result

ParamKind = Literal["int", "str", "bool", "pick"]


@dataclass(frozen=True)
class Param:
    """One option of a subcommand.

    kind:
      - "int" / "str" / "bool": a plain value; `choices` optionally lists the allowed ones
        (shown as Discord choices; labels are catalog keys `choice.<param>.<value>`).
      - "pick": autocomplete over legal actions. The value the user submits is an
        action key (`GameUI.action_key`), resolved against `legal_actions`;
        `types` says which action types the autocomplete offers.
    """

    name: str
    kind: ParamKind = "str"
    required: bool = True
    choices: tuple[Any, ...] = ()
    types: tuple[str, ...] = ()
    min_value: int | None = None
    max_value: int | None = None


@dataclass(frozen=True)
class Command:
    """A subcommand of the game's group: `/<group> <name> <params...>`.

    `build(values, legal)` returns the engine action for the given option
    values, chosen from `legal` (the acting seat's legal actions), or None when
    nothing legal matches — the platform then answers with `refusal` (a catalog
    key) or the generic "not allowed now". Descriptions come from the catalog:
    `cmd.<name>` and `cmd.<name>.<param>`.
    """

    name: str
    params: tuple[Param, ...] = ()
    build: Callable[[dict[str, Any], list[Action]], Action | None] | None = None
    refusal: str | None = None


def match_action(legal: Sequence[Action], **fields: Any) -> Action | None:
    """The first legal action whose fields equal the given ones (None values ignored)."""
    wanted = {k: v for k, v in fields.items() if v is not None}
    for action in legal:
        if all(action.get(k) == v for k, v in wanted.items()):
            return action
    return None


@dataclass(frozen=True)
class QuickMenu:
    """A public turn-message button that opens the presser's own move menu at one group
    (`GameUI.menu_group`), e.g. "Travel…": the channel learns only that such moves exist in
    this phase, never whether this player can make one or with which cards."""

    group: str


@dataclass
class GameUI:
    """Override the hooks; the defaults work for any game but read plainly."""

    game_id: str
    group: str  # slash command group, e.g. "detour", "atw", "rails"
    commands: tuple[Command, ...] = ()
    package_dir: Path = field(default_factory=Path)

    # -- texts ---------------------------------------------------------------
    def translator(self, lang: str) -> Translator:
        return Translator(lang, self.package_dir / "locales")

    def action_label(self, action: Action, view: View, t: Translator) -> str:
        """Short label for a button, select option or autocomplete (≤ 100 chars)."""
        key = f"action.{action['type']}"
        params = {k: v for k, v in action.items() if k != "type"}
        return t(key, **params) if t.has(key) else action_key(action)

    def event_text(self, event: Event, names: dict[str, str], t: Translator) -> str | None:
        """One line for the channel per event (None: not worth a line)."""
        key = f"event.{event.get('type')}"
        if not t.has(key):
            return None
        params = dict(event)
        for k, v in event.items():
            if isinstance(v, str) and v in names:
                params[k] = names[v]
        return t(key, **params)

    def status_text(self, view: View, names: dict[str, str], t: Translator) -> str:
        """A line or two about the state of play for `/game status` (public view)."""
        return ""

    def hand_text(self, view: View, seat: str, names: dict[str, str], t: Translator) -> str:
        """Text that goes with the hand image in an ephemeral reply or DM."""
        return ""

    def news_text(self, action: Action, events: list[Event], before: View, after: View, t: Translator) -> str | None:
        """What the mover learned from their own move (the cards drawn, the tickets offered),
        for their private confirmation only, so nobody has to open their hand after a draw.
        `before` and `after` are the mover's own views around the move. Default: nothing."""
        return None

    def result_score(self, entry: dict[str, Any], t: Translator) -> str | None:
        """A ranking entry's score with its unit (`result.score`, a plural pair, in the game's
        catalog: "53 days travelled", "215 points"); None: no score to show."""
        score = entry.get("score")
        if score is None:
            return None
        return t.plural("result.score", int(score)) if t.has("result.score.other") else str(score)

    def tie_break(self, entry: dict[str, Any], above: dict[str, Any], t: Translator) -> str | None:
        """Why `entry` is placed below `above` though their scores are equal (the game's
        tie-break, with the numbers that decided it); None: not a tie, or nothing to say."""
        return None

    def result_note(self, result: Result, names: dict[str, str], t: Translator) -> str | None:
        """A line on how the winner was decided when it is not the best score (a rule of the
        game's end), for the final message."""
        return None

    def no_moves_text(self, group: str, view: View, t: Translator) -> str | None:
        """Why the seat whose own `view` this is has no move of menu `group` (pressing a
        public "Travel…" button it cannot use), for that player only. Default: no reason."""
        return None

    def illegal_text(self, code: str, message: str, params: dict[str, Any], t: Translator) -> str:
        key = f"illegal.{code}"
        return t(key, **params) if t.has(key) else message

    def board_changed(self, events: list[Event]) -> bool:
        """False when these events changed nothing on the board (e.g. a secret choice was
        made): the channel then gets a short text line instead of a new image."""
        return True

    # -- menus ---------------------------------------------------------------
    def quick_actions(self, view: View, seat: str) -> list[Action | QuickMenu]:
        """Buttons on the public turn message for `seat` (one of the seats to act), worked out
        from the public `view` alone: which buttons exist, their labels and custom ids are seen
        by everyone, so they must be the same whatever the hands hold. An action here must be
        fully known from the view (a press is checked against the presser's legal actions and
        refused privately if it is not one); a move that names hidden cards is offered as a
        `QuickMenu` instead. Default: none (the "Your move" menu lists everything)."""
        return []

    def menu_group(self, action: Action) -> str:
        """Actions are grouped by this in the action menu when there are many."""
        return str(action["type"])


def action_key(action: Action) -> str:
    """A compact, stable text key for an action (autocomplete values, custom ids)."""
    parts = [str(action["type"])]
    for k in sorted(action):
        if k == "type":
            continue
        v = action[k]
        if isinstance(v, (list, tuple)):
            v = "+".join(str(x) for x in v)
        elif isinstance(v, dict):
            v = json.dumps(v, sort_keys=True, separators=(",", ":"))
        parts.append(f"{k}={v}")
    return " ".join(parts)
