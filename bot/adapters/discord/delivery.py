"""Sending what the service answered: the one place with Discord side effects, and the
buttons and selects it attaches (`GameComponent`, matched again by custom id after a restart)."""

from __future__ import annotations

import asyncio
import io
import logging
import re
import time
from collections.abc import Awaitable
from typing import Any, Protocol, TypeVar, runtime_checkable

import aiohttp
import discord
from cachetools import LRUCache

from bot.i18n import Translator
from bot.replies import Button, Reply, Select

log = logging.getLogger("passepartout.discord")
T = TypeVar("T")

_EMBED_COLOUR = discord.Colour(0x2B6CB0)  # the blue of the boards' headers
#: Discord lets a bot edit its private reply while the interaction's token lives (15 minutes)
EDITABLE_SECONDS = 14 * 60
#: games whose newest version a process remembers (the ones posted to lately)
NEWEST_GAMES = 10_000

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}



@runtime_checkable
class ComponentHandler(Protocol):
    """The client a component's press goes to (the bot)."""

    async def handle_component(self, interaction: discord.Interaction, custom_id: str,
                               values: list[str] | None) -> None: ...


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
        assert isinstance(client, ComponentHandler)
        values = (interaction.data or {}).get("values") if isinstance(interaction.data, dict) else None
        custom_id = self.item.custom_id  # type: ignore[attr-defined]  # discord.py's Item lacks custom_id in its stubs
        await client.handle_component(interaction, custom_id,
                                      list(values) if isinstance(values, list) and values else None)


def build_view(rows: list[list[Any]]) -> discord.ui.View | None:
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


class Reports(Protocol):
    """Where delivery reports what became of the messages a game owes its channel (the
    table service)."""

    async def delivered(self, reply: Reply) -> None: ...

    async def undelivered(self, reply: Reply) -> None: ...

    async def channel_gone(self, channel_id: int) -> list[Reply]: ...

    async def drop_follow(self, game_pk: int, user_id: int) -> None: ...


#: what a failed request may raise besides Discord's HTTP errors: a dropped or reset
#: connection, a timeout
NETWORK_ERRORS: tuple[type[BaseException], ...] = (discord.DiscordException, aiohttp.ClientError, OSError,
                                                   asyncio.TimeoutError)


def channel_gone(error: BaseException) -> bool:
    """Discord says the channel is no more, or no longer ours: Unknown Channel (10003), or
    Missing Access (50001: the bot was removed from the server)."""
    return isinstance(error, discord.HTTPException) and error.code in (10003, 50001)


class Delivery:
    """The one place that talks to Discord to send what the service answered.

    Channel messages a game owes (`Reply.announces`) go out one at a time per channel and
    never older after newer; each is reported to the service as delivered or not, so what
    failed is posted again by the scheduler. Nothing a request raises stops the others."""

    def __init__(self, client: discord.Client, reports: Reports | None = None, *, timeout: float = 20.0) -> None:
        self.client = client
        self.reports = reports
        #: the longest one request may take before it counts as failed (a hung connection must
        #: not hold a channel's messages, nor the scheduler)
        self.timeout = timeout
        self._channel_locks: dict[int, asyncio.Lock] = {}
        #: the newest version of each game this process saw Discord accept (the games posted
        #: to lately: an old game's entry goes first)
        self._newest: LRUCache[int, int] = LRUCache(maxsize=NEWEST_GAMES)
        #: private replies whose buttons work only at one version of a game (an Undo), by game:
        #: (sent at, that version, the message), taken away when the game shows a later one
        self._offers: dict[int, list[tuple[float, int, discord.WebhookMessage]]] = {}
        self._retiring: set[asyncio.Task[None]] = set()

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
        # the alt text goes with each image, for screen readers
        files = [discord.File(io.BytesIO(a.data), filename=a.filename, description=a.description)
                 for a in reply.files]
        if files:
            kwargs["files"] = files
        images = [a.filename for a in reply.files if a.filename.endswith(".png")]
        if len(images) > 1 and not reply.embeds:
            # several images as plain attachments sit side by side, each half the width of a
            # phone's column (a close-up then reads no better than the board): one embed each
            # stacks them, every one as wide as the column, in the order given
            kwargs["embeds"] = [discord.Embed(colour=_EMBED_COLOUR).set_image(url=f"attachment://{name}")
                                for name in images]
        view = build_view(reply.rows)
        if view is not None:
            kwargs["view"] = view
        return kwargs

    async def send(self, replies: list[Reply], interaction: discord.Interaction | None = None, *,
                   answered: bool = False) -> None:
        """Deliver `replies`; `answered`: the interaction already got its private answer (a
        confirmation sent early)."""
        for reply in replies:
            try:
                if reply.to == "ephemeral" and interaction is not None and reply.user_id == interaction.user.id:
                    await self.answer(interaction, reply)
                    answered = True
                elif reply.to == "channel":
                    if not await self._to_channel(reply, interaction) and interaction is not None \
                            and reply.announces is not None and reply.outcome != "refused":
                        # tell the one who acted, privately: their move is stored and will show
                        text = Translator(str(interaction.locale))("error.cannot_post")
                        await self._timed(interaction.followup.send("⚠️ " + text, ephemeral=True))
                        answered = True
                elif reply.follow is not None:
                    await self._to_follower(reply, interaction)
                elif reply.to == "dm" and reply.user_id is not None and reply.user_id > 0:
                    await self._dm(reply)
            except NETWORK_ERRORS:
                log.warning("could not deliver a %s message", reply.to, exc_info=True)
        if interaction is not None and not answered and interaction.type == discord.InteractionType.application_command:
            # close the "thinking…" placeholder of a deferred slash command
            try:
                await self._timed(interaction.delete_original_response())
            except NETWORK_ERRORS:
                log.debug("could not delete the deferred response", exc_info=True)

    async def answer(self, interaction: discord.Interaction, reply: Reply) -> None:
        """A private answer to the one who asked; one with buttons that die with its game
        version (`Reply.buttons_until`) is kept, to take them away later."""
        until = reply.buttons_until
        if until is None:
            await self._timed(interaction.followup.send(ephemeral=True, **self._kwargs(reply)))
            return
        message = await self._timed(interaction.followup.send(ephemeral=True, wait=True, **self._kwargs(reply)))
        if len(self._offers) > 10_000:  # forget what can no longer be edited
            now = time.monotonic()
            self._offers = {g: kept for g, offers in self._offers.items()
                            if (kept := [o for o in offers if now - o[0] < EDITABLE_SECONDS])}
        self._offers.setdefault(until.game_pk, []).append((time.monotonic(), until.version, message))
        if self._newest.get(until.game_pk, -1) > until.version:
            self._retire_buttons(until.game_pk, self._newest[until.game_pk])

    def _retire_buttons(self, game_pk: int, version: int) -> None:
        """Game `game_pk` shows `version` in its channel: the private buttons made for an
        earlier version no longer work, so they go (in the background: nobody waits on it)."""
        offers = self._offers.pop(game_pk, [])
        now = time.monotonic()
        for sent_at, made_for, message in offers:
            if made_for >= version:
                self._offers.setdefault(game_pk, []).append((sent_at, made_for, message))
            elif now - sent_at < EDITABLE_SECONDS:
                task = asyncio.get_running_loop().create_task(self._strip_buttons(message))
                self._retiring.add(task)
                task.add_done_callback(self._retiring.discard)

    def close(self) -> None:
        """Stop taking buttons away (the bot is closing: a dead button's press is refused anyway)."""
        for task in list(self._retiring):
            task.cancel()

    async def _strip_buttons(self, message: discord.WebhookMessage) -> None:
        try:
            await self._timed(message.edit(view=None))
        except NETWORK_ERRORS:
            log.debug("could not take the buttons off a private reply", exc_info=True)

    async def _to_channel(self, reply: Reply, interaction: discord.Interaction | None) -> bool:
        """Post in the game's channel, in order: False when Discord did not take it (reported,
        so the scheduler posts the game again; a channel that is gone pauses its game)."""
        channel_id = reply.channel_id or (interaction.channel_id if interaction else None)
        if channel_id is None:
            return True
        if len(self._channel_locks) > 10_000:  # forget the channels nobody is posting in now
            self._channel_locks = {c: lk for c, lk in self._channel_locks.items() if lk.locked()}
        lock = self._channel_locks.setdefault(channel_id, asyncio.Lock())
        async with lock:
            owed = reply.announces
            if owed is not None and self._newest.get(owed.game_pk, -1) > owed.version:
                return True  # a newer message of this game is out already: this one would only confuse
            try:
                channel = self.client.get_channel(channel_id)
                if channel is None and interaction is not None and interaction.channel_id == channel_id:
                    channel = interaction.channel
                if channel is None:
                    channel = await self._timed(self.client.fetch_channel(channel_id))
                await self._timed(channel.send(**self._kwargs(reply)))  # type: ignore[union-attr]  # messageable
            except NETWORK_ERRORS as error:
                log.warning("could not post in channel %s: %r", channel_id, error)
                await self._failed(reply, channel_id, error)
                return False
            if owed is not None:
                self._newest[owed.game_pk] = max(self._newest.get(owed.game_pk, -1), owed.version)
                self._retire_buttons(owed.game_pk, owed.version)
                if self.reports is not None:
                    await self.reports.delivered(reply)
            return True

    async def _failed(self, reply: Reply, channel_id: int, error: BaseException) -> None:
        if self.reports is None or reply.announces is None:
            return
        if channel_gone(error):
            await self.send(await self.reports.channel_gone(channel_id))
        else:
            await self.reports.undelivered(reply)

    async def _to_follower(self, reply: Reply, interaction: discord.Interaction | None = None) -> None:
        """A follower's copy, by DM or in their thread. If Discord refuses it (DMs closed,
        thread gone or closed to the bot), the follow ends, quietly unless the follower is
        the one who just asked (then they are told privately why)."""
        assert reply.follow is not None and reply.user_id is not None
        try:
            if reply.to == "thread" and reply.channel_id is not None:
                thread = self.client.get_channel(reply.channel_id) or \
                    await self._timed(self.client.fetch_channel(reply.channel_id))
                await self._timed(thread.send(**self._kwargs(reply)))  # type: ignore[union-attr]  # messageable
            else:
                user = await self._user(reply.user_id)
                await self._timed(user.send(**self._kwargs(reply)))
        except (discord.Forbidden, discord.NotFound):
            log.info("follower %s of game %s cannot be reached; the follow ends", reply.user_id, reply.follow)
            if self.reports is not None:
                await self.reports.drop_follow(reply.follow, reply.user_id)
            if interaction is not None and interaction.user.id == reply.user_id:
                text = Translator(str(interaction.locale))("follow.unreachable")
                await self._timed(interaction.followup.send("⚠️ " + text, ephemeral=True))
            return
        except NETWORK_ERRORS:  # Discord did not take it this time: the copy is owed again
            log.warning("could not deliver a copy to follower %s of game %s", reply.user_id, reply.follow,
                        exc_info=True)
            if self.reports is not None:
                await self.reports.undelivered(reply)
            return
        if self.reports is not None:
            await self.reports.delivered(reply)

    async def _timed(self, call: Awaitable[T]) -> T:
        """One request to Discord, failed after `timeout` seconds."""
        return await asyncio.wait_for(call, self.timeout)

    async def _user(self, user_id: int) -> discord.User:
        known = self.client.get_user(user_id)
        return known if known is not None else await self._timed(self.client.fetch_user(user_id))

    async def _dm(self, reply: Reply) -> None:
        assert reply.user_id is not None
        user = await self._user(reply.user_id)
        try:
            await self._timed(user.send(**self._kwargs(reply)))
        except discord.Forbidden:
            log.info("user %s does not accept DMs", reply.user_id)
