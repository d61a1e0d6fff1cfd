"""INTERACTION_CREATE payloads as Discord builds them, from what the bot really synced.

A slash command is looked up in the commands the bot PUT to the fake Discord (guild commands
first, then global ones), so a payload names a command and options that exist, with the
command's registered id; `app_permissions` and the member's `permissions` are computed from
the guild model for the channel; a button press carries the message as the fake Discord
stored it (after any edit).
"""

from __future__ import annotations

import secrets
from typing import Any

from tests.support.discord_harness import APP_ID, CHANNEL_ID, FakeUser, InteractionInfo, Sent, snowflake
from tests.support.fakediscord.model import BOT_USER_ID, DM, Guild
from tests.support.fakediscord.rest import Tracked

APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE = 2, 3, 4
SUBCOMMAND, GROUP, STRING, INTEGER, BOOLEAN, USER, CHANNEL, NUMBER = 1, 2, 3, 4, 5, 6, 7, 10


class InteractionBuilders:
    """`slash`, `autocomplete`, `click`, `choose` build payloads; `FakeDiscord.interact` sends them."""

    guild: Guild
    commands: dict[str, list[dict[str, Any]]]
    messages: dict[int, dict[str, Any]]
    dm_channels: dict[int, int]
    tracked: dict[str, Tracked]
    interactions: dict[int, InteractionInfo]

    # -- building ---------------------------------------------------------------------------
    def _base(self, user: FakeUser, kind: int, channel_id: int) -> dict[str, Any]:
        iid = snowflake()
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(APP_ID), "type": kind, "token": secrets.token_urlsafe(48),
            "version": 1, "locale": user.locale, "entitlements": [], "attachment_size_limit": 10 * 1024 * 1024,
        }
        if channel_id in self.dm_channels:
            payload.update(channel_id=str(channel_id), user=user.data(), context=1,
                           app_permissions=str((1 << 51) - 1),
                           authorizing_integration_owners={"1": str(user.id)},
                           channel={"id": str(channel_id), "type": DM, "last_message_id": None, "flags": 0,
                                    "recipients": [user.data()]})
            return payload
        guild = self.guild
        guild.members.setdefault(user.id, user)
        channel = guild.channels.get(channel_id)
        channel_data = (guild.channel_data(channel) if channel is not None else
                        {"id": str(channel_id), "type": 0, "name": "gone", "guild_id": str(guild.id)})
        channel_data["permissions"] = str(guild.permissions(channel_id, user.id))
        payload.update(guild_id=str(guild.id), channel_id=str(channel_id), channel=channel_data,
                       guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                       member=guild.member_data(user, channel_id), guild_locale=guild.locale, context=0,
                       app_permissions=str(guild.permissions(channel_id, BOT_USER_ID)),
                       authorizing_integration_owners={"0": str(guild.id)})
        return payload

    def _find(self, path: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The synced command of `path` ("game new") and its chain of (sub)command nodes."""
        names = path.split()
        scopes = [f"guild:{self.guild.id}", "global"]
        top = next((c for s in scopes for c in self.commands.get(s, []) if c["name"] == names[0]), None)
        if top is None:
            synced = sorted({c["name"] for cs in self.commands.values() for c in cs})
            raise LookupError(f"/{names[0]} was never synced to the fake Discord (synced: {synced})")
        chain = [top]
        for name in names[1:]:
            node = next((o for o in chain[-1].get("options") or []
                         if o["type"] in (SUBCOMMAND, GROUP) and o["name"] == name), None)
            if node is None:
                raise LookupError(f"/{path}: no subcommand {name!r}")
            chain.append(node)
        if any(o["type"] in (SUBCOMMAND, GROUP) for o in chain[-1].get("options") or []):
            raise LookupError(f"/{path} is a group, not a command")
        return top, chain

    def _option(self, declared: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]],
                channel_id: int) -> Any:
        kind = declared["type"]
        if kind == USER:
            user = value if isinstance(value, FakeUser) else self.guild.members.get(int(value))
            if user is None:
                raise LookupError(f"option {declared['name']!r}: no member {value!r} in the guild")
            resolved.setdefault("users", {})[str(user.id)] = user.data()
            member = self.guild.member_data(user, channel_id)
            member.pop("user", None)
            resolved.setdefault("members", {})[str(user.id)] = member
            return str(user.id)
        if kind == CHANNEL:
            cid = int(value)
            channel = self.guild.channels.get(cid)
            if channel is None:
                raise LookupError(f"option {declared['name']!r}: no channel {cid}")
            data = self.guild.channel_data(channel)
            data["permissions"] = str(self.guild.permissions(cid, BOT_USER_ID))
            resolved.setdefault("channels", {})[str(cid)] = data
            return str(cid)
        return value

    def _command_data(self, path: str, values: dict[str, Any], focused: str | None,
                      channel_id: int) -> dict[str, Any]:
        top, chain = self._find(path)
        declared = {o["name"]: o for o in chain[-1].get("options") or []}
        resolved: dict[str, dict[str, Any]] = {}
        options: list[dict[str, Any]] = []
        for name, value in values.items():
            if name not in declared:
                raise LookupError(f"/{path} has no option {name!r} (it has {sorted(declared)})")
            option: dict[str, Any] = {"name": name, "type": declared[name]["type"]}
            if name == focused:
                option.update(value=str(value), focused=True)
            else:
                option["value"] = self._option(declared[name], value, resolved, channel_id)
            options.append(option)
        for node in reversed(chain[1:]):
            options = [{"name": node["name"], "type": node["type"], "options": options}]
        data: dict[str, Any] = {"id": top["id"], "name": top["name"], "type": 1, "options": options}
        if "guild_id" in top:
            data["guild_id"] = top["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    def slash(self, user: FakeUser, path: str, *, channel_id: int = CHANNEL_ID, **values: Any) -> dict[str, Any]:
        """APPLICATION_COMMAND, e.g. `slash(ALICE, "game new", game="detour")`; a USER option takes
        a FakeUser, a CHANNEL option a channel id."""
        payload = self._base(user, APPLICATION_COMMAND, channel_id)
        payload["data"] = self._command_data(path, values, None, channel_id)
        return payload

    def autocomplete(self, user: FakeUser, path: str, focused: str, current: str = "", *,
                     channel_id: int = CHANNEL_ID, **values: Any) -> dict[str, Any]:
        """APPLICATION_COMMAND_AUTOCOMPLETE: the focused option carries what was typed so far."""
        payload = self._base(user, AUTOCOMPLETE, channel_id)
        payload["data"] = self._command_data(path, {**values, focused: current}, focused, channel_id)
        return payload

    def click(self, user: FakeUser, message: Sent | dict[str, Any], custom_id: str) -> dict[str, Any]:
        """MESSAGE_COMPONENT for a button of `message` (in the message's channel)."""
        return self._component(user, message, custom_id, 2, None)

    def choose(self, user: FakeUser, message: Sent | dict[str, Any], custom_id: str,
               values: list[str]) -> dict[str, Any]:
        """MESSAGE_COMPONENT for a string select of `message`."""
        return self._component(user, message, custom_id, 3, values)

    def _component(self, user: FakeUser, message: Sent | dict[str, Any], custom_id: str, component_type: int,
                   values: list[str] | None) -> dict[str, Any]:
        msg = message.message if isinstance(message, Sent) else message
        msg = self.messages.get(int(msg["id"]), msg)  # as it is now, after any edit
        payload = self._base(user, MESSAGE_COMPONENT, int(msg["channel_id"]))
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            data["values"] = list(values)
        payload["data"] = data
        payload["message"] = msg
        return payload

    def track(self, payload: dict[str, Any], sent_at: float) -> Tracked:
        """Remember an interaction's token (its callback and webhook routes accept it from now)."""
        user_data = (payload.get("member") or {}).get("user") or payload.get("user") or {}
        uid = int(user_data.get("id") or 0)
        user = self.guild.members.get(uid) or FakeUser(uid, str(user_data.get("global_name") or uid))
        info = InteractionInfo(int(payload["id"]), payload["token"], int(payload["type"]), user, payload)
        tracked = Tracked(info, sent_at, int(payload.get("channel_id") or 0))
        self.tracked[info.token] = tracked
        self.interactions[info.id] = info
        return tracked
