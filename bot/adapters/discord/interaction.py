"""Who and where an interaction comes from, as the table service needs them (`User`, `Where`).

`Where.missing_permissions` is read from the permissions Discord sends with every interaction
(`interaction.app_permissions`: the bot's own in that channel, overwrites applied), so the
service can refuse to write a game it could not then post, without asking Discord first.
"""

from __future__ import annotations

import discord

from bot.replies import User, Where

#: what the bot needs in a game's channel to post its turns (boards are image files)
NEEDED = ("view_channel", "send_messages", "attach_files")
#: and in a thread, where sending is a permission of its own
NEEDED_IN_THREADS = NEEDED + ("send_messages_in_threads",)
THREAD_TYPES = (discord.ChannelType.public_thread, discord.ChannelType.private_thread,
                discord.ChannelType.news_thread)


def user_of(interaction: discord.Interaction) -> User:
    return User(id=interaction.user.id, name=interaction.user.display_name, locale=str(interaction.locale))


def missing_permissions(interaction: discord.Interaction) -> tuple[str, ...]:
    """The permissions (by discord.py's names) the bot lacks where this interaction happened.
    Only in a server: a button in a DM (a hand sent by DM) has no game channel to post in."""
    if interaction.guild_id is None:
        return ()
    channel = interaction.channel
    in_thread = getattr(channel, "type", None) in THREAD_TYPES
    granted = interaction.app_permissions
    return tuple(name for name in (NEEDED_IN_THREADS if in_thread else NEEDED) if not getattr(granted, name))


def where_of(interaction: discord.Interaction) -> Where:
    perms = getattr(interaction, "permissions", None)
    return Where(
        channel_id=interaction.channel_id or 0,
        guild_id=interaction.guild_id,
        guild_locale=str(interaction.guild_locale) if interaction.guild_locale else None,
        can_manage=bool(perms and perms.manage_channels),
        missing_permissions=missing_permissions(interaction),
    )
