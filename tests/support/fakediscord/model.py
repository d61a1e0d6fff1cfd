"""What the fake Discord knows about its one test guild: channels, threads, roles, members,
permission overwrites, and the JSON Discord sends for them (GUILD_CREATE, channel objects,
interaction payloads, message objects).

Permissions are computed as Discord does (base from @everyone and roles, then the channel's
overwrites for @everyone, roles and the member), so a test that takes SEND_MESSAGES from the
bot in a channel gets the same 403 from REST, the same `app_permissions` in interactions and
the same `permissions_for(guild.me)` in discord.py's cache.
"""

from __future__ import annotations

import datetime as dt
import re
import struct
from dataclasses import dataclass, field
from typing import Any

from tests.support.discord_harness import (
    ALICE,
    APP_ID,
    BOB,
    BOT_USER_ID,
    CAROL,
    CHANNEL_ID,
    DAVE,
    EVE,
    GUILD_ID,
    MEMBER_PERMISSIONS,
    MENTION,
    OTHER_CHANNEL_ID,
    FakeUser,
    FileSent,
    snowflake,
)

# permission bits (https://discord.com/developers/docs/topics/permissions)
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_APPLICATION_COMMANDS = 1 << 31
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1
#: what the bot's managed role grants unless a test says otherwise (what the invite asks for)
BOT_PERMISSIONS = (VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY
                   | USE_APPLICATION_COMMANDS | SEND_MESSAGES_IN_THREADS)

BOT_ROLE_ID = GUILD_ID + 7
THREAD_ID = CHANNEL_ID + 50
TEXT, DM, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 11, 12
THREAD_TYPES = (10, PUBLIC_THREAD, PRIVATE_THREAD)
EPHEMERAL = 64
USERS = (ALICE, BOB, CAROL, DAVE, EVE)


def iso(when: dt.datetime | None = None) -> str:
    return (when or dt.datetime.now(dt.UTC)).isoformat()


@dataclass
class Overwrite:
    """A channel's permission overwrite for a role (kind 0) or a member (kind 1)."""

    target: int
    kind: int = 0
    allow: int = 0
    deny: int = 0

    def data(self) -> dict[str, Any]:
        return {"id": str(self.target), "type": self.kind, "allow": str(self.allow), "deny": str(self.deny)}


@dataclass
class Channel:
    id: int
    name: str
    type: int = TEXT
    position: int = 0
    parent_id: int | None = None  # a thread's channel
    overwrites: dict[int, Overwrite] = field(default_factory=dict)
    archived: bool = False
    locked: bool = False

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES


@dataclass
class Guild:
    """The test guild. Mutate it before the bot connects, or through `FakeDiscord`'s async
    setters afterwards (they also send the gateway event that tells the bot)."""

    id: int = GUILD_ID
    name: str = "Reform Club"
    locale: str = "en-US"
    everyone_permissions: int = MEMBER_PERMISSIONS
    bot_permissions: int = BOT_PERMISSIONS
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, FakeUser] = field(default_factory=dict)
    #: False once the bot was removed (GUILD_DELETE): its channels answer 403 Missing Access
    joined: bool = True

    @classmethod
    def default(cls) -> Guild:
        """Two text channels and a public thread of the first; Alice to Eve are members."""
        guild = cls()
        for channel in (Channel(CHANNEL_ID, "around-the-world", position=0),
                        Channel(OTHER_CHANNEL_ID, "lounge", position=1),
                        Channel(THREAD_ID, "side-table", type=PUBLIC_THREAD, parent_id=CHANNEL_ID)):
            guild.channels[channel.id] = channel
        for user in USERS:
            guild.members[user.id] = user
        return guild

    # -- permissions, as Discord computes them --------------------------------------------------
    def permissions(self, channel_id: int, member_id: int) -> int:
        """`member_id`'s permissions in the channel (a thread: in its parent); 0 if unknown."""
        channel = self.channels.get(channel_id)
        if channel is None:
            return 0
        if channel.is_thread and channel.parent_id is not None:
            return self.permissions(channel.parent_id, member_id)
        if member_id == BOT_USER_ID:
            roles, base = [BOT_ROLE_ID], self.everyone_permissions | self.bot_permissions
        else:
            user = self.members.get(member_id)
            roles, base = [], self.everyone_permissions | (user.permissions if user else 0)
        if base & ADMINISTRATOR:
            return ALL_PERMISSIONS
        perms = base
        everyone = channel.overwrites.get(self.id)
        if everyone is not None:
            perms = (perms & ~everyone.deny) | everyone.allow
        allow = deny = 0
        for role in roles:
            ow = channel.overwrites.get(role)
            if ow is not None and ow.kind == 0:
                allow, deny = allow | ow.allow, deny | ow.deny
        perms = (perms & ~deny) | allow
        own = channel.overwrites.get(member_id)
        if own is not None and own.kind == 1:
            perms = (perms & ~own.deny) | own.allow
        return perms if perms & VIEW_CHANNEL else 0

    def bot_can(self, channel_id: int, bits: int) -> bool:
        return self.permissions(channel_id, BOT_USER_ID) & bits == bits

    # -- JSON -------------------------------------------------------------------------------------
    def role_data(self) -> list[dict[str, Any]]:
        def role(rid: int, name: str, perms: int, position: int, managed: bool) -> dict[str, Any]:
            data: dict[str, Any] = {"id": str(rid), "name": name, "permissions": str(perms), "position": position,
                                    "color": 0, "colors": {"primary_color": 0}, "hoist": False,
                                    "managed": managed, "mentionable": False, "flags": 0, "icon": None,
                                    "unicode_emoji": None}
            if managed:
                data["tags"] = {"bot_id": str(APP_ID)}
            return data

        return [role(self.id, "@everyone", self.everyone_permissions, 0, False),
                role(BOT_ROLE_ID, "Passepartout", self.bot_permissions, 1, True)]

    def channel_data(self, channel: Channel) -> dict[str, Any]:
        data: dict[str, Any] = {"id": str(channel.id), "type": channel.type, "name": channel.name,
                                "guild_id": str(self.id), "position": channel.position, "flags": 0,
                                "last_message_id": None, "rate_limit_per_user": 0}
        if channel.is_thread:
            data.update(parent_id=str(channel.parent_id), owner_id=str(ALICE.id), member_count=1, message_count=0,
                        thread_metadata={"archived": channel.archived, "locked": channel.locked,
                                         "auto_archive_duration": 1440, "archive_timestamp": iso()})
        else:
            data.update(parent_id=None, topic=None, nsfw=False,
                        permission_overwrites=[ow.data() for ow in channel.overwrites.values()])
        return data

    def bot_member(self) -> dict[str, Any]:
        return {"user": bot_user(), "nick": None, "roles": [str(BOT_ROLE_ID)], "joined_at": "2025-01-01T00:00:00+00:00",
                "deaf": False, "mute": False, "flags": 0, "pending": False, "avatar": None,
                "communication_disabled_until": None, "premium_since": None}

    def member_data(self, user: FakeUser, channel_id: int | None = None) -> dict[str, Any]:
        """A member object; with a channel, as interactions carry it (`permissions` there)."""
        data = user.member()
        if channel_id is None:
            data.pop("permissions", None)
        else:
            data["permissions"] = str(self.permissions(channel_id, user.id))
        return data

    def create_data(self) -> dict[str, Any]:
        """The GUILD_CREATE payload."""
        channels = [c for c in self.channels.values() if not c.is_thread]
        threads = [c for c in self.channels.values() if c.is_thread and not c.archived]
        return {
            "id": str(self.id), "name": self.name, "icon": None, "splash": None, "discovery_splash": None,
            "owner_id": str(ALICE.id), "afk_channel_id": None, "afk_timeout": 300, "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0, "roles": self.role_data(),
            "emojis": [], "features": [], "mfa_level": 0, "application_id": None, "system_channel_id": None,
            "system_channel_flags": 0, "rules_channel_id": None, "vanity_url_code": None, "description": None,
            "banner": None, "premium_tier": 0, "preferred_locale": self.locale, "public_updates_channel_id": None,
            "nsfw_level": 0, "premium_progress_bar_enabled": False, "stickers": [], "unavailable": False,
            "member_count": len(self.members) + 1, "large": False, "joined_at": "2025-01-01T00:00:00+00:00",
            "members": [self.bot_member(), *(self.member_data(u) for u in self.members.values())],
            "voice_states": [], "presences": [], "stage_instances": [], "guild_scheduled_events": [],
            "soundboard_sounds": [], "channels": [self.channel_data(c) for c in channels],
            "threads": [self.channel_data(c) for c in threads],
        }


def bot_user() -> dict[str, Any]:
    return {"id": str(BOT_USER_ID), "username": "passepartout", "global_name": "Passepartout",
            "discriminator": "0", "avatar": None, "bot": True, "public_flags": 0}


def bot_self() -> dict[str, Any]:
    """GET /users/@me and READY's user: the bot user with its account fields."""
    return {**bot_user(), "verified": True, "mfa_enabled": False, "flags": 0, "email": None, "locale": "en-US"}


def application() -> dict[str, Any]:
    """GET /oauth2/applications/@me."""
    return {"id": str(APP_ID), "name": "Passepartout", "icon": None, "description": "Board games in chat",
            "rpc_origins": [], "bot_public": True, "bot_require_code_grant": False, "owner": ALICE.data(),
            "team": None, "summary": "", "verify_key": "0" * 64, "guild_id": None, "primary_sku_id": None,
            "slug": None, "cover_image": None, "flags": 1 << 23, "approximate_guild_count": 1, "tags": [],
            "install_params": None, "custom_install_url": None, "interactions_endpoint_url": None,
            "role_connections_verification_url": None, "redirect_uris": [], "bot": bot_user(),
            "integration_types_config": {"0": {}}}


@dataclass
class Upload(FileSent):
    """One file of a multipart request, with what payload_json said about it (the in-process
    harness's `FileSent`, plus the `description` and the part's content type)."""

    description: str | None = None
    content_type: str | None = None

    def dimensions(self) -> tuple[int, int] | None:
        if self.is_png and len(self.data) >= 24:
            width, height = struct.unpack(">II", self.data[16:24])
            return width, height
        return None


def attachment_data(upload: Upload, url: str, ephemeral: bool) -> dict[str, Any]:
    data: dict[str, Any] = {"id": str(snowflake()), "filename": upload.filename, "size": upload.size, "url": url,
                            "proxy_url": url, "content_type": "image/png" if upload.is_png else
                            upload.content_type or "application/octet-stream"}
    if upload.description is not None:
        data["description"] = upload.description
    size = upload.dimensions()
    if size is not None:
        data["width"], data["height"] = size
    if ephemeral:
        data["ephemeral"] = True
    return data


def mentions(content: str, allowed: dict[str, Any] | None, users: dict[int, FakeUser]) -> list[dict[str, Any]]:
    """The users a message pings: named in the content and allowed by `allowed_mentions`."""
    named = [int(m) for m in MENTION.findall(content)]
    if allowed is not None:
        parse = allowed.get("parse") or []
        explicit = {int(u) for u in allowed.get("users") or []}
        named = [u for u in named if "users" in parse or u in explicit]
    out = []
    for uid in dict.fromkeys(named):
        user = users.get(uid)
        out.append(user.data() if user else {"id": str(uid), "username": f"user{uid}", "discriminator": "0",
                                             "global_name": None, "avatar": None, "public_flags": 0})
    return out


def safe_name(filename: str) -> str:
    """Discord's attachment URLs keep letters, digits, dots, dashes and underscores."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", filename) or "file"
