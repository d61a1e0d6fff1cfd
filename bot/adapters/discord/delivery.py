"""Sending what the service answered: the one place with Discord side effects, and the
buttons and selects it attaches (`GameComponent`, matched again by custom id after a restart)."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, runtime_checkable

import discord

from bot.i18n import Translator
from bot.replies import Button, Reply, Select

log = logging.getLogger("passepartout.discord")

_EMBED_COLOUR = discord.Colour(0x2B6CB0)  # the blue of the boards' headers

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
        # the alt text goes with each image, for screen readers
        files = [discord.File(io.BytesIO(a.data), filename=a.filename, description=a.description)
                 for a in reply.files]
        if files:
            kwargs["files"] = files
        view = build_view(reply.rows)
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


