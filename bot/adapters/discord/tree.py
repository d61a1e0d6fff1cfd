"""The slash commands as Discord sees them: `/game` built from the table in
`bot.commands`, one group per game built from its `GameUI`, their texts from the
catalogs (`CatalogTranslator`), and the tree that checks a payload's options before any handler.

Every option is declared through discord.py's public means: a callback whose signature is
built from the declaration (`inspect.Signature`, `app_commands.Range`), and the decorators
`app_commands.describe`, `choices` and `autocomplete` applied to it before the `Command` is
made. The groups are for servers only (`allowed_contexts`, `allowed_installs`).
"""

from __future__ import annotations

import inspect
import logging
import re
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any, Protocol

import discord
from discord import app_commands

from bot import games
from bot.adapters.discord.interaction import user_of, where_of
from bot.commands import GAME_COMMANDS, ChoiceSource, GameCommand, Option
from bot.gameui import Command, GameUI, Param
from bot.i18n import LANGUAGES, Translator, normalise_language
from bot.replies import Reply, ThreadTarget, User, Where
from bot.service import TableService
from engine.ai import LEVELS

log = logging.getLogger("passepartout.discord")

#: a server's channels only, and only for a server install (not a user's own install)
GUILD_CONTEXTS = app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)
GUILD_INSTALLS = app_commands.AppInstallationType(guild=True, user=False)

Call = Callable[[User, Where], Awaitable[list[Reply]]]
#: an option's choices (their values are all of the option's type)
AnyChoices = list[app_commands.Choice[Any]]


class CommandHost(Protocol):
    """What the commands need from the bot: its service, its tree, and running a call."""

    service: TableService
    tree: CheckedTree

    async def run_command(self, interaction: discord.Interaction, call: Call) -> None: ...

    async def on_app_command_error(self, interaction: discord.Interaction, error: Exception) -> None: ...


class CatalogTranslator(app_commands.Translator):
    """Command names, descriptions and choice names from the i18n catalogs.

    Strings carry their catalog key in `locale_str.extras["key"]`; a translation
    equal to the English text is not sent (Discord falls back to it anyway).
    """

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        key = string.extras.get("key")
        if not key:
            return None
        lang = normalise_language(locale.value)
        if lang == "en":
            return None
        game_dir = string.extras.get("game_dir")
        text = Translator(lang, game_dir)(key)
        if text == key or text == str(string.message):
            return None
        if key.startswith("name."):
            text = text.lower().replace(" ", "-")[:32]
            if not re.fullmatch(r"[-_\w]{1,32}", text):
                return None
        return text[:100]


def _ls(english: str, key: str, game_dir: str | None = None) -> app_commands.locale_str:
    return app_commands.locale_str(english, key=key, game_dir=game_dir)


def _desc(key: str, game_dir: str | None = None, fallback: str = "…") -> app_commands.locale_str:
    english = Translator("en", game_dir)(key)
    if english == key:
        english = fallback
    return _ls(english[:100], key, game_dir)




class BadOptions(app_commands.AppCommandError):
    """A command payload whose options do not fit the command's declaration."""


INPUT_ERRORS = (app_commands.TransformerError, app_commands.CommandSignatureMismatch,
                 app_commands.CommandNotFound, BadOptions)

_OPTION_TYPES: dict[discord.AppCommandOptionType, tuple[type, ...]] = {
    discord.AppCommandOptionType.string: (str,),
    discord.AppCommandOptionType.integer: (int,),
    discord.AppCommandOptionType.number: (int, float),
    discord.AppCommandOptionType.boolean: (bool,),
}


def _leaf_options(data: Any) -> list[dict[str, Any]]:
    """The options of the invoked (sub)command, below any group and subcommand levels."""
    options = data.get("options") or [] if isinstance(data, dict) else []
    while len(options) == 1 and isinstance(options[0], dict) and options[0].get("type") in (1, 2):
        options = options[0].get("options") or []
    return [o for o in options if isinstance(o, dict)]


def option_problem(command: app_commands.Command[Any, ..., Any], options: list[dict[str, Any]]) -> str | None:
    """Why these payload options do not fit `command` (None: they do). discord.py trusts
    Discord's types, but a client can send anything: checked here, before any handler."""
    params = {p.name: p for p in command.parameters}
    given: set[str] = set()
    for option in options:
        name, value = option.get("name"), option.get("value")
        param = params.get(name) if isinstance(name, str) else None
        if param is None or name in given:
            return f"unexpected option {name!r}"
        given.add(param.name)  # the same string as name: params is keyed by it
        if option.get("focused"):
            continue
        kinds = _OPTION_TYPES.get(param.type)
        if kinds is not None and (not isinstance(value, kinds) or (bool not in kinds and isinstance(value, bool))):
            return f"option {name!r} has the wrong type"
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            low, high = param.min_value, param.max_value
            if (low is not None and value < low) or (high is not None and value > high) or abs(value) > 2**53:
                return f"option {name!r} is out of range"
        if isinstance(value, str) and len(value) > 6000:
            return f"option {name!r} is too long"
        if param.choices and value not in [c.value for c in param.choices]:
            return f"option {name!r} is not one of its choices"
    missing = [p.name for p in command.parameters if p.required and p.name not in given]
    return f"missing options {missing}" if missing else None


class CheckedTree(app_commands.CommandTree):
    """The command tree, refusing payloads whose options do not fit the command. `taking`:
    False once the bot is stopping, when a command that still arrives is left alone (it is
    not started, so it cannot be cut short by the close)."""

    def __init__(self, client: discord.Client) -> None:
        super().__init__(client)
        self.taking = True

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if not self.taking:
            return False
        if interaction.type is discord.InteractionType.application_command:
            command = interaction.command
            if isinstance(command, app_commands.Command):
                problem = option_problem(command, _leaf_options(interaction.data))
                if problem:
                    raise BadOptions(problem)
        return True


def catalog_files() -> list[Path]:
    """The catalogs command texts come from (a change to one syncs the commands again)."""
    root = Path(__file__).resolve().parents[2]  # bot/
    return sorted(root.glob("i18n/locales/*.json")) + sorted(root.glob("games/*/locales/*.json"))


# -- the /game group, from the table ----------------------------------------------------


def build_commands(host: CommandHost) -> None:
    """Register `/game` and one group per available game on the host's tree."""
    host.tree.on_error = host.on_app_command_error  # type: ignore[method-assign]  # the tree's documented error hook
    host.tree.add_command(game_group(host))
    for spec in games.specs().values():
        host.tree.add_command(game_command_group(host, spec.ui))


def _choices(source: ChoiceSource) -> list[app_commands.Choice[str]]:
    if source == "games":  # each game's title from its own catalog
        return [app_commands.Choice(name=_ls(spec.ui.translator("en")("title")[:100], "title", str(spec.catalogs)),
                                    value=game_id) for game_id, spec in games.specs().items()]
    if source == "levels":  # each level in the reader's language
        return [app_commands.Choice(name=_ls(Translator("en")(f"level.{level}"), f"level.{level}"), value=level)
                for level in LEVELS]
    # each language named in itself, not translated
    return [app_commands.Choice(name=name, value=code)
            for code, name in (("en", "English"), ("de", "Deutsch"), ("fr", "Français")) if code in LANGUAGES]


def game_group(host: CommandHost) -> app_commands.Group:
    group = app_commands.Group(name=_ls("game", "name.game"), description=_desc("cmd.game"),
                               allowed_contexts=GUILD_CONTEXTS, allowed_installs=GUILD_INSTALLS)
    for entry in GAME_COMMANDS:
        if entry.discord:
            group.add_command(_game_subcommand(host, entry, group))
    return group


def _annotation(option: Option) -> Any:
    """The Python type discord.py reads the option's Discord type (and range) from."""
    if option.kind in ("int", "hours"):
        if option.min_value is None and option.max_value is None:
            return int
        return app_commands.Range[int, option.min_value, option.max_value]
    return {"str": str, "bool": bool, "thread": app_commands.AppCommandThread, "user": discord.User}[option.kind]


def _signature(params: list[tuple[str, Any, bool, Any]]) -> inspect.Signature:
    """`(interaction, *, name: annotation [= default] ...)` for (name, annotation, required,
    default): discord.py reads a command's options from its callback's signature."""
    parameters = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                    annotation=discord.Interaction)]
    for name, annotation, required, default in params:
        if not required and default is None:
            annotation = annotation | None
        parameters.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation,
                                            default=inspect.Parameter.empty if required else default))
    return inspect.Signature(parameters)


def _declare(callback: Callable[..., Any], signature: inspect.Signature,
             descriptions: dict[str, app_commands.locale_str], choices: dict[str, AnyChoices],
             completers: dict[str, Callable[..., Any]]) -> None:
    """Give `callback` its options the public way, before a `Command` is made from it."""
    callback.__signature__ = signature  # type: ignore[attr-defined]  # inspect.signature reads it
    app_commands.describe(**descriptions)(callback)
    if choices:
        app_commands.choices(**choices)(callback)
    if completers:
        app_commands.autocomplete(**completers)(callback)


def _game_subcommand(host: CommandHost, entry: GameCommand, group: app_commands.Group) -> app_commands.Command:
    kinds = {o.name: o.kind for o in entry.options}

    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        given = {name: _service_value(interaction, kinds[name], value) for name, value in values.items()}
        await host.run_command(interaction, lambda u, w: entry.call(host.service, u, w, given))

    _declare(callback, _signature([(o.name, _annotation(o), o.required, o.default) for o in entry.options]),
             {o.name: _desc(entry.option_description_key(o)) for o in entry.options},
             {o.name: _choices(o.choices) for o in entry.options if o.choices},
             {o.name: _replay_choices(host) for o in entry.options if o.autocomplete == "replays"})
    return app_commands.Command(name=_ls(entry.name, entry.name_key), description=_desc(entry.description_key),
                                callback=callback, parent=group)


def _service_value(interaction: discord.Interaction, kind: str, value: Any) -> Any:
    """An option's value as the service takes it: a picked thread or member as plain data."""
    if value is None:
        return None
    if kind == "thread":
        return thread_target(interaction, value)
    if kind == "user":
        return User(id=value.id, name=value.display_name)
    return value


def thread_target(interaction: discord.Interaction, thread: app_commands.AppCommandThread) -> ThreadTarget:
    """The picked thread as the service needs it: its server, whether the bot may post
    there (not archived or locked, and allowed to send in threads of its channel), and whether
    the person who picked it can see it (Discord resolves their permissions in it)."""
    can_post = not (thread.archived or thread.locked)
    guild = interaction.guild
    me = guild.me if guild is not None else None
    parent = guild.get_channel(thread.parent_id) if guild is not None else None
    if can_post and me is not None and parent is not None:
        perms = parent.permissions_for(me)
        can_post = perms.view_channel and perms.send_messages_in_threads
    return ThreadTarget(id=thread.id, guild_id=thread.guild_id, name=thread.name, can_post=can_post,
                        user_can_view=thread.permissions.view_channel)


def _replay_choices(host: CommandHost
                    ) -> Callable[[discord.Interaction, str], Coroutine[Any, Any, list[app_commands.Choice[str]]]]:
    """The channel's finished games, newest first, as you type."""
    async def choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            pairs = await host.service.replay_choices(user_of(interaction), where_of(interaction), current or "")
        except Exception:
            log.exception("replay autocomplete failed")
            return []
        return [app_commands.Choice(name=label, value=value) for label, value in pairs]

    return choices


# -- one group per game, built from its GameUI declaration ----------------------------------

_PYTHON_TYPES: dict[str, type] = {"int": int, "str": str, "bool": bool, "pick": str}


def game_command_group(host: CommandHost, ui: GameUI) -> app_commands.Group:
    game_dir = str(ui.package_dir / "locales")
    group = app_commands.Group(name=_ls(ui.group, f"name.{ui.group}", game_dir),
                               description=_desc("group", game_dir, ui.game_id),
                               allowed_contexts=GUILD_CONTEXTS, allowed_installs=GUILD_INSTALLS)
    for spec in ui.commands:
        group.add_command(_game_ui_subcommand(host, ui, spec, group, game_dir))
    return group


def _game_ui_subcommand(host: CommandHost, ui: GameUI, spec: Command, group: app_commands.Group,
                        game_dir: str) -> app_commands.Command:
    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        await host.run_command(interaction, lambda u, w: host.service.command(u, w, ui.group, spec.name, values))

    ordered = sorted(spec.params, key=lambda p: not p.required)  # Discord wants required options first
    params = []
    for param in ordered:
        annotation: Any = _PYTHON_TYPES[param.kind]
        if param.kind == "int" and (param.min_value is not None or param.max_value is not None):
            annotation = app_commands.Range[int, param.min_value, param.max_value]
        params.append((param.name, annotation, param.required, None))
    t_en = ui.translator("en")
    _declare(callback, _signature(params),
             {p.name: _desc(f"cmd.{spec.name}.{p.name}", game_dir, p.name) for p in ordered},
             {p.name: [app_commands.Choice(name=_ls(_choice_label(t_en, p, value), f"choice.{p.name}.{value}",
                                                    game_dir), value=value) for value in p.choices]
              for p in ordered if p.choices},
             {p.name: _autocomplete(host, ui, spec, p) for p in ordered if p.kind == "pick"})
    return app_commands.Command(name=_ls(spec.name, f"name.{spec.name}", game_dir),
                                description=_desc(f"cmd.{spec.name}", game_dir, spec.name), callback=callback,
                                parent=group)


def _choice_label(t: Translator, param: Param, value: Any) -> str:
    key = f"choice.{param.name}.{value}"
    text = t(key)
    return (text if text != key else str(value))[:100]


def _autocomplete(host: CommandHost, ui: GameUI, spec: Command, param: Param
                  ) -> Callable[[discord.Interaction, str], Coroutine[Any, Any, list[app_commands.Choice[str]]]]:
    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            pairs = await host.service.autocomplete(user_of(interaction), where_of(interaction), ui.group,
                                                    spec.name, param.name, current or "")
        except Exception:
            log.exception("autocomplete failed")
            return []
        return [app_commands.Choice(name=label, value=value) for label, value in pairs]

    return complete
