"""The Discord adapter's client: app commands and components in, `Reply` values out.

Every handler is thin: it acknowledges the interaction at once (Discord's 3 s
deadline; rendering happens after the defer), asks the table service, and hands the
replies to `Delivery` (`delivery.py`), the one place with Discord side effects. The
commands are built in `tree.py`; buttons and selects are `DynamicItem`s matched by
custom id, so they keep working after a restart without any view being re-registered.

`serve` runs the bot until Discord closes the connection or SIGTERM/SIGINT asks it to
stop; `stop` is the graceful stop (no new interactions, those in flight finish within
`GRACE_SECONDS`, the scheduler ends between ticks, then the client, the render workers
and the store close).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import discord

from bot import memory
from bot.adapters.discord.delivery import NETWORK_ERRORS, Delivery, GameComponent
from bot.adapters.discord.interaction import user_of, where_of
from bot.adapters.discord.tree import INPUT_ERRORS, CatalogTranslator, CheckedTree, build_commands, catalog_files
from bot.adapters.stopping import GRACE_SECONDS, stop_on_signals
from bot.ai.pool import AIPool
from bot.images.pool import pool_for
from bot.replies import Reply, User, Where
from bot.service import TableService, early_replies
from bot.settings import Settings
from bot.store import Store, store_from_url

log = logging.getLogger("passepartout.discord")

#: the longest rate-limit wait a request sits out before it fails instead
MAX_RATELIMIT_WAIT = 30.0

__all__ = ["CatalogTranslator", "PassepartoutBot", "create_bot"]


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
        # a 429 asking for a longer wait fails the request (its message is owed and posted
        # again later) instead of holding every request behind it
        kwargs.setdefault("max_ratelimit_timeout", MAX_RATELIMIT_WAIT)
        super().__init__(intents=intents, **kwargs)
        self.settings = settings
        self.store = store or store_from_url(settings.database_url, durable=settings.durable_commits,
                                            pool_size=settings.database_pool_size)
        # started in setup_hook, or at the first render
        self.render_pool = pool_for(settings.render_processes, settings.render_cache_mb)
        self.ai_pool = AIPool(settings.ai_processes, turn_seconds=settings.ai_turn_seconds,  # started in setup_hook
                              hard_seconds=settings.ai_hard_seconds)
        # the service learns from `delivery` which channel messages Discord accepted
        self.service = TableService(self.store, settings, render_pool=self.render_pool, ai_pool=self.ai_pool,
                                    reports_delivery=True)
        self.tree = CheckedTree(self)
        self.delivery = Delivery(self, self.service, timeout=settings.request_timeout_seconds)
        self._scheduler: asyncio.Task[None] | None = None
        self._ticking = False  # the scheduler is inside a tick (a stop waits for it, not for its sleep)
        #: the command and component handlers running now (a stop lets them finish)
        self._in_flight: set[asyncio.Task[Any]] = set()
        #: set by `stop`: no new interactions are started, the scheduler ticks no more
        self.stopping = False
        #: logged in (setup_hook ran): the sharded close then has shards and a connection to end
        self.logged_in = False
        #: summaries and timelapses being drawn after a game ended (kept so they are not collected)
        self._memories: set[asyncio.Task[None]] = set()
        self.store_opened = False
        build_commands(self)
        self.add_dynamic_items(GameComponent)

    async def setup_hook(self) -> None:
        self.logged_in = True
        if self.render_pool is not None:
            await self.render_pool.start()  # workers warm up while we log in and sync
        self.ai_pool.start()
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
        self.delivery.close()
        if not self.logged_in:
            # never logged in (built and closed in a test, or a refused login): there are no
            # shards to end, and AutoShardedClient.close expects the connection it set up
            await discord.Client.close(self)
        else:
            await super().close()
        if self.render_pool is not None:
            await self.render_pool.close()
        await asyncio.to_thread(self.ai_pool.close)
        if self.store_opened:
            await self.store.close()
            self.store_opened = False

    # -- stopping -------------------------------------------------------------------
    async def stop(self, grace: float = GRACE_SECONDS) -> None:
        """The graceful stop: take no new interactions (the gateway connections end first, while
        REST stays open for the handlers in flight), let the handlers and a scheduler tick in
        progress finish (cancelled after `grace` seconds), then close everything."""
        self.stopping = True
        self.tree.taking = False
        for shard in self.shards.values():
            await shard.disconnect()
        scheduler = self._scheduler
        if scheduler is not None and not self._ticking:
            scheduler.cancel()  # asleep or waiting to be ready: nothing of its own in hand
        busy = {t for t in self._in_flight | ({scheduler} if scheduler else set()) if not t.done()}
        if busy:
            _, late = await asyncio.wait(busy, timeout=grace)
            for task in late:
                log.warning("stopping: %s did not finish within %s s; cancelled", task.get_name(), grace)
                task.cancel()
        await self.close()

    async def serve(self, token: str) -> None:
        """Log in and run until Discord ends the connection or SIGTERM/SIGINT asks for a stop
        (then `stop`). A failed start (a refused token, no network) raises as `start` does."""
        asked = asyncio.Event()
        with stop_on_signals(asyncio.get_running_loop(), asked.set):
            async with self:
                running = asyncio.create_task(self.start(token), name="passepartout-client")
                waiting = asyncio.create_task(asked.wait(), name="passepartout-stop-signal")
                await asyncio.wait({running, waiting}, return_when=asyncio.FIRST_COMPLETED)
                waiting.cancel()
                if running.done():
                    running.result()  # ended by Discord, or failed to start: raise what it raised
                    return
                log.info("stopping (signal received)")
                await self.stop()
                # still connecting (a shard's connection is retried without end): stop trying
                running.cancel()
                with contextlib.suppress(asyncio.CancelledError, discord.DiscordException, OSError):
                    await running

    # -- command sync -------------------------------------------------------------
    async def command_fingerprint(self) -> str:
        payload = [cmd.to_dict(self.tree) for cmd in self.tree.get_commands()]
        catalogs = sorted(str(p) for p in catalog_files())
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
        if self.stopping:  # arrived as the bot stops: not started, so not cut short
            return
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        with self._handling():
            user, where = user_of(interaction), where_of(interaction)
            await self._answer(interaction, user, call(user, where))

    async def handle_component(self, interaction: discord.Interaction, custom_id: str,
                               values: list[str] | None) -> None:
        if self.stopping:  # arrived as the bot stops: not started, so not cut short
            return
        with self._handling():
            try:
                if not interaction.response.is_done():
                    await interaction.response.defer()
                user, where = user_of(interaction), where_of(interaction)
                await self._answer(interaction, user, self.service.component(user, where, custom_id, values))
            except Exception as exc:  # never leave a click unanswered
                await self.on_app_command_error(interaction, exc)

    async def _answer(self, interaction: discord.Interaction, user: User, call: Awaitable[list[Reply]]) -> None:
        """Ask the service and deliver. A confirmation goes out as soon as the change is
        stored (before the board is drawn); after it, a failure never says "nothing was
        changed": the change is stored and its message is owed."""
        acked: list[Reply] = []

        async def early(reply: Reply) -> None:
            try:
                await self.delivery.answer(interaction, reply)
                acked.append(reply)
            except NETWORK_ERRORS:
                log.warning("could not send a confirmation early", exc_info=True)

        token = early_replies.set(early)
        try:
            replies = await self.service.guarded(user, call)
        finally:
            early_replies.reset(token)
        if acked and any(r.refusal == "error.internal" for r in replies):
            replies = [self.service.refuse(user, "error.shown_later")[0] if r.refusal == "error.internal" else r
                       for r in replies]
        await self.delivery.send(replies, interaction, answered=bool(acked))
        self.post_memories_soon()

    @contextlib.contextmanager
    def _handling(self) -> Iterator[None]:
        """Count the running handler as in flight while it runs (a stop waits for it)."""
        task = asyncio.current_task()
        if task is not None:
            self._in_flight.add(task)
        try:
            yield
        finally:
            if task is not None:
                self._in_flight.discard(task)

    async def _tick_loop(self) -> None:
        await self.wait_until_ready()
        while not (self.stopping or self.is_closed()):
            self._ticking = True
            try:
                replies = await self.service.tick()
                await self.delivery.send(replies)
                self.post_memories_soon()
            except Exception:
                log.exception("scheduler tick failed")
            finally:
                self._ticking = False
            memory.trim()  # what the last minute's work freed goes back to the system
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

    # -- channels that are gone, or back -------------------------------------------------------
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._gone(self.service.channel_gone(channel.id))

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._gone(self.service.channel_gone(payload.thread_id))

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self._gone(self.service.guild_gone(guild.id))

    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self._back(guild)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        await self._back(guild)

    async def _gone(self, call: Awaitable[list[Reply]]) -> None:
        """Pause the games there and tell their players by DM."""
        try:
            await self.delivery.send(await call)
        except Exception:
            log.exception("could not pause the games of a channel that is gone")

    async def _back(self, guild: discord.Guild) -> None:
        """The bot sees a server (again): games paused in its channels go on."""
        channels = [c.id for c in guild.channels] + [t.id for t in guild.threads]
        try:
            await self.delivery.send(await self.service.channels_back(guild.id, channels))
        except Exception:
            log.exception("could not resume the games of server %s", guild.id)

    async def on_app_command_error(self, interaction: discord.Interaction, error: Exception) -> None:
        user = user_of(interaction)
        if isinstance(error, INPUT_ERRORS):
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


def create_bot(settings: Settings, store: Store | None = None, **kwargs: Any) -> PassepartoutBot:
    """The whole bot (commands, components, store, scheduler), built without connecting."""
    return PassepartoutBot(settings, store, **kwargs)
