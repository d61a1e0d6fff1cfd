"""The Discord adapter: app commands and components in, `Reply` values out.

Every handler is thin: it acknowledges the interaction at once (Discord's 3 s
deadline; rendering happens after the defer, in a thread), asks the table
service, and hands the replies to `Delivery`, the one place with Discord side
effects. Buttons and selects are `DynamicItem`s matched by custom id, so they
keep working after a restart without any view being re-registered.
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import io
import json
import logging
import re
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot import games
from bot.gameui import Command, GameUI, Param
from bot.i18n import LANGUAGES, Translator, normalise_language
from bot.render_pool import pool_for
from bot.replies import Button, Reply, Select, ThreadTarget, User, Where
from bot.service import TableService
from bot.settings import Settings
from bot.store import Store, store_from_url

log = logging.getLogger("passepartout.discord")

_EMBED_COLOUR = discord.Colour(0x2B6CB0)  # the blue of the boards' headers

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def _user(interaction: discord.Interaction) -> User:
    return User(id=interaction.user.id, name=interaction.user.display_name, locale=str(interaction.locale))


def _where(interaction: discord.Interaction) -> Where:
    perms = getattr(interaction, "permissions", None)
    return Where(
        channel_id=interaction.channel_id or 0,
        guild_id=interaction.guild_id,
        guild_locale=str(interaction.guild_locale) if interaction.guild_locale else None,
        can_manage=bool(perms and perms.manage_channels),
    )


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


class GameComponent(discord.ui.DynamicItem[discord.ui.Item], template=r"(?s).+"):
    """Every button and select the bot sends; the custom id carries game, version and intent.

    The template takes *every* custom id: a client can send any string, and the service's
    total parser answers a malformed one with a clear private refusal (an unmatched id
    would leave the click unanswered, "This interaction failed")."""

    def __init__(self, item: discord.ui.Item) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> GameComponent:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        assert isinstance(client, PassepartoutBot)
        values = (interaction.data or {}).get("values") if isinstance(interaction.data, dict) else None
        custom_id = self.item.custom_id  # type: ignore[attr-defined]  # discord.py's Item lacks custom_id in its stubs
        await client.handle_component(interaction, custom_id,
                                      list(values) if isinstance(values, list) and values else None)


def _view(rows: list[list[Any]]) -> discord.ui.View | None:
    if not rows:
        return None
    view = discord.ui.View(timeout=None)
    for row_index, row in enumerate(rows[:5]):
        for comp in row:
            if isinstance(comp, Button):
                item: discord.ui.Item = discord.ui.Button(
                    label=comp.label[:80], custom_id=comp.custom_id, style=_STYLES[comp.style], emoji=comp.emoji,
                    disabled=comp.disabled, row=row_index)
            else:
                assert isinstance(comp, Select)
                item = discord.ui.Select(
                    custom_id=comp.custom_id, placeholder=comp.placeholder[:150], row=row_index,
                    options=[discord.SelectOption(label=o.label[:100], value=o.value, description=o.description)
                             for o in comp.options[:25]])
            view.add_item(GameComponent(item))
    return view


class Delivery:
    """The one place that talks to Discord to send what the service answered.
    `on_follow_failed(game, user)`: a follower's copy could not be delivered."""

    def __init__(self, client: discord.Client,
                 on_follow_failed: Callable[[int, int], Awaitable[None]] | None = None) -> None:
        self.client = client
        self.on_follow_failed = on_follow_failed

    @staticmethod
    def _kwargs(reply: Reply) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "content": reply.text[:2000] or None,
            "allowed_mentions": discord.AllowedMentions(
                everyone=False, roles=False, replied_user=False,
                users=[discord.Object(id=i) for i in reply.mentions]),
        }
        if reply.embeds:
            kwargs["embeds"] = [discord.Embed(title=e.title, description=e.description, colour=_EMBED_COLOUR)
                                for e in reply.embeds]
        files = [discord.File(io.BytesIO(a.data), filename=a.filename) for a in reply.files]
        if files:
            kwargs["files"] = files
        view = _view(reply.rows)
        if view is not None:
            kwargs["view"] = view
        return kwargs

    async def send(self, replies: list[Reply], interaction: discord.Interaction | None = None) -> None:
        answered = False
        for reply in replies:
            try:
                if reply.to == "ephemeral" and interaction is not None and reply.user_id == interaction.user.id:
                    await interaction.followup.send(ephemeral=True, **self._kwargs(reply))
                    answered = True
                elif reply.to == "channel":
                    try:
                        await self._to_channel(reply, interaction)
                    except discord.Forbidden:
                        if interaction is None:
                            raise
                        # tell the user privately instead of failing silently
                        text = Translator(str(interaction.locale))("error.cannot_post")
                        await interaction.followup.send("⚠️ " + text, ephemeral=True)
                        answered = True
                        raise
                elif reply.follow is not None:
                    await self._to_follower(reply, interaction)
                elif reply.to == "dm" and reply.user_id is not None and reply.user_id > 0:
                    await self._dm(reply)
            except discord.HTTPException:
                log.exception("could not deliver a %s message", reply.to)
        if interaction is not None and not answered and interaction.type == discord.InteractionType.application_command:
            # close the "thinking…" placeholder of a deferred slash command
            try:
                await interaction.delete_original_response()
            except discord.HTTPException:
                log.debug("could not delete the deferred response", exc_info=True)

    async def _to_channel(self, reply: Reply, interaction: discord.Interaction | None) -> None:
        channel_id = reply.channel_id or (interaction.channel_id if interaction else None)
        if channel_id is None:
            return
        channel = self.client.get_channel(channel_id)
        if channel is None and interaction is not None and interaction.channel_id == channel_id:
            channel = interaction.channel
        if channel is None:
            channel = await self.client.fetch_channel(channel_id)
        await channel.send(**self._kwargs(reply))  # type: ignore[union-attr]  # a game's channel is messageable

    async def _to_follower(self, reply: Reply, interaction: discord.Interaction | None = None) -> None:
        """A follower's copy, by DM or in their thread. If Discord refuses it (DMs closed,
        thread gone or closed to the bot), the follow ends, quietly unless the follower is
        the one who just asked (then they are told privately why)."""
        assert reply.follow is not None and reply.user_id is not None
        try:
            if reply.to == "thread" and reply.channel_id is not None:
                thread = self.client.get_channel(reply.channel_id) or await self.client.fetch_channel(reply.channel_id)
                await thread.send(**self._kwargs(reply))  # type: ignore[union-attr]  # a thread is messageable
            else:
                user = self.client.get_user(reply.user_id) or await self.client.fetch_user(reply.user_id)
                await user.send(**self._kwargs(reply))
        except (discord.Forbidden, discord.NotFound):
            log.info("follower %s of game %s cannot be reached; the follow ends", reply.user_id, reply.follow)
            if self.on_follow_failed is not None:
                await self.on_follow_failed(reply.follow, reply.user_id)
            if interaction is not None and interaction.user.id == reply.user_id:
                text = Translator(str(interaction.locale))("follow.unreachable")
                await interaction.followup.send("⚠️ " + text, ephemeral=True)

    async def _dm(self, reply: Reply) -> None:
        assert reply.user_id is not None
        user = self.client.get_user(reply.user_id) or await self.client.fetch_user(reply.user_id)
        try:
            await user.send(**self._kwargs(reply))
        except discord.Forbidden:
            log.info("user %s does not accept DMs", reply.user_id)


class PassepartoutBot(discord.AutoShardedClient):
    """The bot: auto-sharded, so one process runs every shard by default, or the shards
    SHARD_IDS names out of SHARD_COUNT when several processes share one database.

    What each process keeps in memory (channel locks, the render cache, the status/hand rate
    limit) is a per-process shortcut: moves and lobby changes are checked against the database
    (game versions, one active game per channel), so processes do not talk to each other. Every
    process runs the scheduler (due games are leased in the store); command sync, done once per
    deployment, runs where shard 0 runs."""

    def __init__(self, settings: Settings, store: Store | None = None, **kwargs: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channels and permissions; no message content needed
        if settings.shard_count is not None:
            kwargs.setdefault("shard_count", settings.shard_count)
        if settings.shard_ids is not None:
            kwargs.setdefault("shard_ids", list(settings.shard_ids))
        super().__init__(intents=intents, **kwargs)
        self.settings = settings
        self.store = store or store_from_url(settings.database_url, durable=settings.durable_commits,
                                            pool_size=settings.database_pool_size)
        self.render_pool = pool_for(settings.render_processes)  # started in setup_hook, or at the first render
        self.service = TableService(self.store, settings, render_pool=self.render_pool)
        self.tree = CheckedTree(self)
        self.delivery = Delivery(self, on_follow_failed=self.service.drop_follow)
        self._scheduler: asyncio.Task[None] | None = None
        #: summaries and timelapses being drawn after a game ended (kept so they are not collected)
        self._memories: set[asyncio.Task[None]] = set()
        self.store_opened = False
        build_commands(self)
        self.add_dynamic_items(GameComponent)

    async def setup_hook(self) -> None:
        if self.render_pool is not None:
            await self.render_pool.start()  # workers warm up while we log in and sync
        await self.open_store()
        await self.tree.set_translator(CatalogTranslator())
        await self.sync_commands_if_needed()
        # every process runs the scheduler: each due game is claimed with a lease in the store
        # (Store.claim_due), so a reminder or timeout fires once, and a crashed process's
        # games go on when its leases run out (docs/operations.md)
        self._scheduler = asyncio.create_task(self._tick_loop(), name="passepartout-scheduler")

    async def open_store(self) -> None:
        if not self.store_opened:
            await self.store.open()
            self.store_opened = True

    async def close(self) -> None:
        if self._scheduler is not None:
            self._scheduler.cancel()
        for task in list(self._memories):
            task.cancel()
        if getattr(self, "_AutoShardedClient__queue", None) is None:
            # never started (no event loop set up, e.g. built and closed in a test or a failed
            # start): AutoShardedClient.close needs its shard queue, the plain close does not
            await discord.Client.close(self)
        else:
            await super().close()
        if self.render_pool is not None:
            await self.render_pool.close()
        if self.store_opened:
            await self.store.close()
            self.store_opened = False

    # -- command sync -------------------------------------------------------------
    async def command_fingerprint(self) -> str:
        payload = [cmd.to_dict(self.tree) for cmd in self.tree.get_commands()]
        catalogs = sorted(str(p) for p in _catalog_files())
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode())
        for path in catalogs:
            digest.update(Path(path).read_bytes())
        return digest.hexdigest()

    async def sync_commands_if_needed(self) -> bool:
        """Sync when the definitions changed since the last sync (or always/never by setting);
        with DEV_GUILD_ID the commands go to that guild, where they appear at once. The fingerprint
        is in the database, so a restart or another process with the same definitions skips it."""
        mode = self.settings.sync_commands
        if mode == "never":
            return False
        if not self.settings.primary:
            # the commands are the application's, not a shard's: the process with shard 0 syncs
            log.info("shards %s: the process running shard 0 syncs slash commands", self.settings.shard_ids)
            return False
        fingerprint = await self.command_fingerprint()
        scope = f"guild:{self.settings.dev_guild_id}" if self.settings.dev_guild_id else "global"
        key = f"commands:{scope}"
        previous = await self.store.get_meta(key)
        if mode != "always" and previous == fingerprint:
            log.info("slash commands unchanged; not syncing (%s)", scope)
            return False
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        await self.store.set_meta(key, fingerprint)
        log.info("slash commands synced (%s)", scope)
        return True

    # -- interactions ------------------------------------------------------------------
    async def run_command(self, interaction: discord.Interaction,
                          call: Callable[[User, Where], Awaitable[list[Reply]]]) -> None:
        """Defer (so slow work never misses the 3 s deadline), ask the service, deliver."""
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        user, where = _user(interaction), _where(interaction)
        replies = await self.service.guarded(user, call(user, where))
        await self.delivery.send(replies, interaction)
        self.post_memories_soon()

    async def handle_component(self, interaction: discord.Interaction, custom_id: str,
                               values: list[str] | None) -> None:
        try:
            if not interaction.response.is_done():
                await interaction.response.defer()
            user, where = _user(interaction), _where(interaction)
            replies = await self.service.guarded(user, self.service.component(user, where, custom_id, values))
            await self.delivery.send(replies, interaction)
            self.post_memories_soon()
        except Exception as exc:  # never leave a click unanswered
            await self.on_app_command_error(interaction, exc)

    async def _tick_loop(self) -> None:
        await self.wait_until_ready()
        while not self.is_closed():
            try:
                replies = await self.service.tick()
                await self.delivery.send(replies)
                self.post_memories_soon()
            except Exception:
                log.exception("scheduler tick failed")
            await asyncio.sleep(self.settings.tick_seconds)

    def post_memories_soon(self) -> None:
        """Once a game's final message is out: draw its summary and timelapse in the
        background and post them (nothing to do when no game ended)."""
        if self.service.memories_waiting:
            task = asyncio.create_task(self._post_memories(), name="passepartout-memories")
            self._memories.add(task)
            task.add_done_callback(self._memories.discard)

    async def _post_memories(self) -> None:
        try:
            async for reply in self.service.post_game_memories():
                await self.delivery.send([reply])
        except Exception:  # the pictures can be made again with /game replay
            log.exception("posting a game's summary failed")

    async def on_app_command_error(self, interaction: discord.Interaction, error: Exception) -> None:
        user = _user(interaction)
        if isinstance(error, _INPUT_ERRORS):
            # a forged or outdated payload (wrong option type, unknown command): the user's
            # input, not our failure
            log.info("refused malformed command input: %s", error)
            replies = self.service.refuse(user, "error.bad_input")
        else:
            log.error("command error: %s", error, exc_info=error)
            replies = self.service.refuse(user, "error.internal")
        if not interaction.response.is_done():
            await interaction.response.send_message(replies[0].text, ephemeral=True)
        else:
            await interaction.followup.send(replies[0].text, ephemeral=True)


class BadOptions(app_commands.AppCommandError):
    """A command payload whose options do not fit the command's declaration."""


_INPUT_ERRORS = (app_commands.TransformerError, app_commands.CommandSignatureMismatch,
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
    """The command tree, refusing payloads whose options do not fit the command."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.type is discord.InteractionType.application_command:
            command = interaction.command
            if isinstance(command, app_commands.Command):
                problem = option_problem(command, _leaf_options(interaction.data))
                if problem:
                    raise BadOptions(problem)
        return True


def _catalog_files() -> list[Path]:
    root = Path(__file__).resolve().parents[2]  # bot/
    return sorted(root.glob("i18n/locales/*.json")) + sorted(root.glob("games/*/locales/*.json"))


# -- the /game group -------------------------------------------------------------------


def build_commands(bot: PassepartoutBot) -> None:
    """Register `/game` and one group per available game on the bot's tree."""
    bot.tree.on_error = bot.on_app_command_error  # type: ignore[method-assign]  # the tree's documented error hook
    bot.tree.add_command(_game_group(bot))
    for spec in games.specs().values():
        bot.tree.add_command(_game_command_group(bot, spec.ui))


def _game_group(bot: PassepartoutBot) -> app_commands.Group:
    # long: discord.py declares each /game subcommand as a decorated closure, all in one group
    svc = bot.service
    group = app_commands.Group(name=_ls("game", "name.game"), description=_desc("cmd.game"), guild_only=True)
    # typed as the option's choice list: discord.py's Choice list is invariant in its value type
    game_choices: list[app_commands.Choice[str | int | float]] = [
        app_commands.Choice(name=_ls(spec.ui.translator("en")("title")[:100], "title", str(spec.catalogs)),
                            value=game_id) for game_id, spec in games.specs().items()]
    language_choices: list[app_commands.Choice[str | int | float]] = [
        app_commands.Choice(name=name, value=code)
        for code, name in (("en", "English"), ("de", "Deutsch"), ("fr", "Français")) if code in LANGUAGES]

    def sub(name: str, **described: str) -> Callable[[Callable[..., Any]], app_commands.Command]:
        def wrap(fn: Callable[..., Any]) -> app_commands.Command:
            command: app_commands.Command[Any, ..., Any] = app_commands.Command(
                name=_ls(name, f"name.game.{name}"), description=_desc(f"cmd.game.{name}"), callback=fn,
                parent=group)
            for param_name in described:
                command._params[param_name].description = _desc(f"cmd.game.{name}.{param_name}")
            group.add_command(command)
            return command
        return wrap

    @sub("new", game="", options="", language="")
    async def new(interaction: discord.Interaction, game: str, options: str | None = None,
                  language: str | None = None) -> None:
        await bot.run_command(interaction, lambda u, w: svc.new_game(u, w, game, options=options, language=language))

    new._params["game"].choices = game_choices
    new._params["language"].choices = language_choices

    def simple(name: str) -> None:
        """A subcommand without options that maps straight onto a service method."""
        handler = getattr(svc, name)

        async def callback(interaction: discord.Interaction) -> None:
            await bot.run_command(interaction, handler)

        sub(name)(callback)

    for name in ("join", "leave", "start", "status", "hand", "resign", "cancel", "undo", "rematch"):
        simple(name)

    @sub("addbot", count="")
    async def addbot(interaction: discord.Interaction, count: app_commands.Range[int, 1, 5] = 1) -> None:
        await bot.run_command(interaction, lambda u, w: svc.addbot(u, w, count))

    @sub("log", count="")
    async def log_(interaction: discord.Interaction, count: app_commands.Range[int, 1, 50] = 15) -> None:
        await bot.run_command(interaction, lambda u, w: svc.log_(u, w, count))

    @sub("rules", game="")
    async def rules(interaction: discord.Interaction, game: str | None = None) -> None:
        await bot.run_command(interaction, lambda u, w: svc.rules_help(u, w, game))

    rules._params["game"].choices = game_choices
    _replay_command(bot, sub)

    @sub("settings", dm="", language="", reminder_hours="", timeout_hours="")
    async def settings(interaction: discord.Interaction, dm: bool | None = None, language: str | None = None,
                       reminder_hours: app_commands.Range[int, 0, 720] | None = None,
                       timeout_hours: app_commands.Range[int, 0, 720] | None = None) -> None:
        await bot.run_command(interaction, lambda u, w: svc.settings_cmd(
            u, w, dm=dm, language=language, reminder_hours=reminder_hours, timeout_hours=timeout_hours))

    settings._params["language"].choices = language_choices

    _social_commands(bot, sub, simple, game_choices)
    return group


def _social_commands(bot: PassepartoutBot, sub: Callable[..., Callable[[Callable[..., Any]], app_commands.Command]],
                     simple: Callable[[str], None], game_choices: list[app_commands.Choice[str | int | float]]) -> None:
    """/game follow, unfollow, stats and leaderboard (`sub` and `simple` add a subcommand)."""
    svc = bot.service

    @sub("follow", thread="")
    async def follow(interaction: discord.Interaction, thread: app_commands.AppCommandThread | None = None) -> None:
        target = _thread_target(interaction, thread) if thread is not None else None
        await bot.run_command(interaction, lambda u, w: svc.follow(u, w, target))

    simple("unfollow")

    @sub("stats", player="")
    async def stats(interaction: discord.Interaction, player: discord.User | None = None) -> None:
        who = User(id=player.id, name=player.display_name) if player is not None else None
        await bot.run_command(interaction, lambda u, w: svc.stats(u, w, who))

    @sub("leaderboard", game="")
    async def leaderboard(interaction: discord.Interaction, game: str | None = None) -> None:
        await bot.run_command(interaction, lambda u, w: svc.leaderboard(u, w, game))

    leaderboard._params["game"].choices = game_choices


def _thread_target(interaction: discord.Interaction, thread: app_commands.AppCommandThread) -> ThreadTarget:
    """The picked thread as the service needs it: its server, and whether the bot may post
    there (not archived or locked, and allowed to send in threads of its channel)."""
    can_post = not (thread.archived or thread.locked)
    guild = interaction.guild
    me = guild.me if guild is not None else None
    parent = guild.get_channel(thread.parent_id) if guild is not None else None
    if can_post and me is not None and parent is not None:
        perms = parent.permissions_for(me)
        can_post = perms.view_channel and perms.send_messages_in_threads
    return ThreadTarget(id=thread.id, guild_id=thread.guild_id, name=thread.name, can_post=can_post)


def _replay_command(bot: PassepartoutBot, sub: Callable[..., Callable[[Callable[..., Any]], app_commands.Command]]
                    ) -> None:
    """`/game replay [game]`: the channel's finished games offered newest first as you type."""
    svc = bot.service

    @sub("replay", game="")
    async def replay(interaction: discord.Interaction, game: str | None = None) -> None:
        await bot.run_command(interaction, lambda u, w: svc.replay(u, w, game))

    async def choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            pairs = await svc.replay_choices(_user(interaction), _where(interaction), current or "")
        except Exception:
            log.exception("replay autocomplete failed")
            return []
        return [app_commands.Choice(name=label, value=value) for label, value in pairs]

    replay._params["game"].autocomplete = choices


# -- one group per game, built from its GameUI declaration ----------------------------------

_PYTHON_TYPES: dict[str, type] = {"int": int, "str": str, "bool": bool, "pick": str}


def _game_command_group(bot: PassepartoutBot, ui: GameUI) -> app_commands.Group:
    game_dir = str(ui.package_dir / "locales")
    group = app_commands.Group(name=_ls(ui.group, f"name.{ui.group}", game_dir),
                               description=_desc("group", game_dir, ui.game_id), guild_only=True)
    for spec in ui.commands:
        group.add_command(_game_subcommand(bot, ui, spec, group, game_dir))
    return group


def _game_subcommand(bot: PassepartoutBot, ui: GameUI, spec: Command, group: app_commands.Group,
                     game_dir: str) -> app_commands.Command:
    svc = bot.service

    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        await bot.run_command(interaction, lambda u, w: svc.command(u, w, ui.group, spec.name, values))

    # discord.py reads parameters from the signature: give the callback one built from the spec
    parameters = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                    annotation=discord.Interaction)]
    ordered = sorted(spec.params, key=lambda p: not p.required)  # Discord wants required options first
    for param in ordered:
        annotation: Any = _PYTHON_TYPES[param.kind]
        if param.kind == "int" and (param.min_value is not None or param.max_value is not None):
            annotation = app_commands.Range[int, param.min_value, param.max_value]
        parameters.append(inspect.Parameter(
            param.name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation if param.required else
            annotation | None, default=inspect.Parameter.empty if param.required else None))
    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]  # read by discord.py
    callback.__annotations__ = {}
    command: app_commands.Command[Any, ..., Any] = app_commands.Command(
        name=_ls(spec.name, f"name.{spec.name}", game_dir),
        description=_desc(f"cmd.{spec.name}", game_dir, spec.name), callback=callback, parent=group)
    for param in ordered:
        cp = command._params[param.name]
        cp.description = _desc(f"cmd.{spec.name}.{param.name}", game_dir, param.name)
        if param.choices:
            t_en = ui.translator("en")
            cp.choices = [app_commands.Choice(
                name=_ls(_choice_label(t_en, param, value), f"choice.{param.name}.{value}", game_dir), value=value)
                for value in param.choices]
        if param.kind == "pick":
            cp.autocomplete = _autocomplete(bot, ui, spec, param)
    return command


def _choice_label(t: Translator, param: Param, value: Any) -> str:
    key = f"choice.{param.name}.{value}"
    text = t(key)
    return (text if text != key else str(value))[:100]


def _autocomplete(bot: PassepartoutBot, ui: GameUI, spec: Command, param: Param
                  ) -> Callable[[discord.Interaction, str], Coroutine[Any, Any, list[app_commands.Choice[str]]]]:
    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            pairs = await bot.service.autocomplete(_user(interaction), _where(interaction), ui.group, spec.name,
                                                   param.name, current or "")
        except Exception:
            log.exception("autocomplete failed")
            return []
        return [app_commands.Choice(name=label, value=value) for label, value in pairs]

    return complete


def create_bot(settings: Settings, store: Store | None = None, **kwargs: Any) -> PassepartoutBot:
    """The whole bot (commands, components, store, scheduler), built without connecting."""
    return PassepartoutBot(settings, store, **kwargs)
