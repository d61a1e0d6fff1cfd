"""The `/game` subcommands, declared once as data.

Both adapters build from `GAME_COMMANDS`: the Discord adapter turns each entry into an app
command of the `/game` group (option types, ranges, choices, autocomplete, descriptions from
the catalogs), and the local table parses and dispatches `/game …` lines with it. An entry
says which `TableService` method it calls and which keyword each option's value goes to, so
a subcommand is added (or an option changed) in one place, as a game's own commands are in
its `GameUI` (`bot/gameui.py`).

Texts are catalog keys by convention: the subcommand's name `name.game.<name>` (its
translations), its description `cmd.game.<name>`, an option's description
`cmd.game.<name>.<option>`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from bot.replies import Reply, User, Where

#: what an option holds, as each adapter reads it:
#:   "str"    text (Discord: a string option; local: the typed text)
#:   "int"    a whole number (Discord: an integer option within the range; local: digits only)
#:   "hours"  hours (Discord: whole hours within the range; local: any number, e.g. 0.5)
#:   "bool"   yes or no (local: 1/true/yes/on)
#:   "thread" a thread the bot may post in (Discord: a thread picker; local: the thread's name)
#:   "user"   a member (Discord: a user picker; local: a local user's name)
OptionKind = Literal["str", "int", "hours", "bool", "thread", "user"]
#: where an option's fixed choices come from: the registered games, the bot's languages, or
#: the AI levels
ChoiceSource = Literal["games", "languages", "levels"]
#: where an option's suggestions as you type come from: the channel's finished games
#: (`TableService.replay_choices`)
AutocompleteSource = Literal["replays"]


@dataclass(frozen=True)
class Option:
    """One option of a `/game` subcommand. `arg`: the service method's keyword for the value
    (default: the option's own name); a value not given is `default`."""

    name: str
    kind: OptionKind = "str"
    required: bool = False
    default: Any = None
    min_value: int | None = None
    max_value: int | None = None
    choices: ChoiceSource | None = None
    autocomplete: AutocompleteSource | None = None
    arg: str | None = None

    @property
    def keyword(self) -> str:
        return self.arg or self.name


@dataclass(frozen=True)
class GameCommand:
    """`/game <name> [options]`: calls `TableService.<method>(user, where, **{keyword: value})`,
    or `(user, **…)` when `where` is False. `discord`: also a Discord command (False: only the
    local table has it)."""

    name: str
    method: str
    options: tuple[Option, ...] = ()
    where: bool = True
    discord: bool = True

    @property
    def name_key(self) -> str:
        return f"name.game.{self.name}"

    @property
    def description_key(self) -> str:
        return f"cmd.game.{self.name}"

    def option_description_key(self, option: Option) -> str:
        return f"cmd.game.{self.name}.{option.name}"

    def call(self, service: object, user: User, where: Where, values: dict[str, Any]) -> Awaitable[list[Reply]]:
        """The service call for option values already in the service's types (`values` by
        option name; an option left out gets its default)."""
        method: Callable[..., Awaitable[list[Reply]]] = getattr(service, self.method)
        kwargs = {o.keyword: values.get(o.name, o.default) for o in self.options}
        return method(user, where, **kwargs) if self.where else method(user, **kwargs)


_GAME = Option("game", choices="games", arg="game_id")
_LANGUAGE = Option("language", choices="languages")

#: every `/game` subcommand, in the order Discord lists them
GAME_COMMANDS: tuple[GameCommand, ...] = (
    GameCommand("new", "new_game", (Option("game", required=True, default="", choices="games", arg="game_id"),
                                    Option("options"), _LANGUAGE)),
    GameCommand("join", "join"),
    GameCommand("leave", "leave"),
    GameCommand("start", "start"),
    GameCommand("status", "status"),
    GameCommand("hand", "hand"),
    GameCommand("resign", "resign"),
    GameCommand("cancel", "cancel"),
    GameCommand("undo", "undo"),
    GameCommand("rematch", "rematch"),
    GameCommand("hint", "hint"),
    GameCommand("hints", "hints", (Option("on", "bool", default=True),)),
    GameCommand("addbot", "addbot", (Option("count", "int", default=1, min_value=1, max_value=5),
                                     Option("level", choices="levels"))),
    GameCommand("log", "log_", (Option("count", "int", default=15, min_value=1, max_value=50),)),
    GameCommand("rules", "rules_help", (_GAME,)),
    GameCommand("replay", "replay", (Option("game", autocomplete="replays"),)),
    GameCommand("settings", "settings_cmd", (
        Option("dm", "bool"), _LANGUAGE,
        Option("reminder_hours", "hours", min_value=0, max_value=720),
        Option("timeout_hours", "hours", min_value=0, max_value=720))),
    GameCommand("follow", "follow", (Option("thread", "thread"),)),
    GameCommand("unfollow", "unfollow"),
    GameCommand("stats", "stats", (Option("player", "user"),)),
    GameCommand("leaderboard", "leaderboard", (_GAME,)),
    GameCommand("help", "help_"),
    GameCommand("list", "games_list", where=False, discord=False),
)

BY_NAME: dict[str, GameCommand] = {c.name: c for c in GAME_COMMANDS}
