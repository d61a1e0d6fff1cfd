"""The REST routes of the fake Discord: what discord.py and this bot call, answered as Discord
does (message objects with attachments, Discord's error JSON, interaction callbacks that can
be acknowledged once and only within the 3-second deadline, followups that fill a deferred
response). Every route is one method; `ROUTES` maps method and path to it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tests.support.discord_harness import (
    APP_ID,
    Callback,
    FakeUser,
    InteractionInfo,
    Request,
    Sent,
    discord_limit_problems,
    snowflake,
)
from tests.support.fakediscord.faults import (
    ALREADY_ACKNOWLEDGED,
    CANNOT_DM,
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    THREAD_ARCHIVED,
    UNKNOWN_CHANNEL,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    UNKNOWN_WEBHOOK,
    Fault,
)
from tests.support.fakediscord.model import (
    ATTACH_FILES,
    DM,
    EPHEMERAL,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    Guild,
    Upload,
    application,
    attachment_data,
    bot_self,
    bot_user,
    iso,
    mentions,
    safe_name,
)

if TYPE_CHECKING:
    from tests.support.fakediscord.gateway import Gateway

LOADING = 128  # the message flag of a deferred response ("… is thinking")


class ApiError(Exception):
    """A Discord error answer: `status` with `{"code": code, "message": message}`."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


@dataclass
class Call(Request):
    """One request the bot made (the in-process harness's `Request`, plus what was answered)."""

    status: int = 0
    fault: Fault | None = None
    at: float = 0.0  # time.monotonic() when it arrived

    @property
    def uploads(self) -> list[Upload]:
        """The files, with their descriptions (`files` holds `Upload`s)."""
        return [f for f in self.files if isinstance(f, Upload)]


@dataclass
class Tracked:
    """An interaction the test sent: its token's state on the fake Discord."""

    info: InteractionInfo
    sent_at: float  # time.monotonic() when INTERACTION_CREATE was dispatched
    channel_id: int
    acked: int | None = None  # the callback type, once acknowledged
    original: int | None = None  # the message id of the original response
    filled: bool = False  # a deferred original already replaced by the first followup
    messages: set[int] = field(default_factory=set)  # followups sent with this token
    late: bool = False  # a callback came after the deadline


Handler = Callable[[Any, Call, re.Match[str]], Awaitable[Any]]


class RestRoutes:
    """The route handlers; `FakeDiscord` supplies the state they read and write."""

    guild: Guild
    gateway: Gateway
    token: str
    url: str
    interaction_deadline: float | None
    shard_count: int
    messages: dict[int, dict[str, Any]]
    deleted: list[int]
    dm_channels: dict[int, int]
    dm_by_user: dict[int, int]
    dms_closed: set[int]
    commands: dict[str, list[dict[str, Any]]]
    tracked: dict[str, Tracked]
    sent: list[Sent]
    callbacks: list[Callback]
    limit_violations: list[tuple[Request, list[str]]]
    uploads: dict[str, bytes]

    # -- messages -----------------------------------------------------------------------------
    def _user(self, user_id: int) -> FakeUser:
        return self.guild.members.get(user_id) or FakeUser(user_id, f"user{user_id}")

    def new_message(self, call: Call, channel_id: int, payload: dict[str, Any], *, webhook: bool = False,
                    message_id: int | None = None, flags: int | None = None, check: bool = True) -> dict[str, Any]:
        """Store the message a send creates (checked against Discord's limits first: 400 if not)."""
        problems = discord_limit_problems(payload, call.files) if check else []
        if problems:
            self.limit_violations.append((call, problems))
            raise ApiError(400, 50035, "Invalid Form Body", {"_errors": [{"message": p} for p in problems]})
        mid = message_id or snowflake()
        flags = int(payload.get("flags") or 0) if flags is None else flags
        message: dict[str, Any] = {
            "id": str(mid), "channel_id": str(channel_id), "type": 20 if webhook else 0,
            "content": payload.get("content") or "", "author": bot_user(), "timestamp": iso(),
            "edited_timestamp": None, "tts": bool(payload.get("tts")), "mention_everyone": False,
            "mentions": mentions(payload.get("content") or "", payload.get("allowed_mentions"), self.guild.members),
            "mention_roles": [], "mention_channels": [], "attachments": self._attachments(call, channel_id, mid, flags),
            "embeds": payload.get("embeds") or [], "reactions": [], "pinned": False, "flags": flags,
            "components": payload.get("components") or [],
        }
        if channel_id not in self.dm_channels:
            message["guild_id"] = str(self.guild.id)
        if webhook:
            message["webhook_id"] = str(APP_ID)
            message["application_id"] = str(APP_ID)
        self.messages[mid] = message
        return message

    def _attachments(self, call: Call, channel_id: int, mid: int, flags: int) -> list[dict[str, Any]]:
        out = []
        for upload in call.uploads:
            path = f"/attachments/{channel_id}/{mid}/{safe_name(upload.filename)}"
            self.uploads[path] = upload.data
            out.append(attachment_data(upload, self.url + path, bool(flags & EPHEMERAL)))
        return out

    def _edit(self, call: Call, message: dict[str, Any], payload: dict[str, Any]) -> dict[str, Any]:
        problems = [p for p in discord_limit_problems({**message, **payload}, call.files)
                    if p != "empty message" or not message["attachments"]]
        if problems:
            self.limit_violations.append((call, problems))
            raise ApiError(400, 50035, "Invalid Form Body", {"_errors": [{"message": p} for p in problems]})
        for key in ("content", "components", "embeds", "flags"):
            if key in payload:
                message[key] = payload[key] if payload[key] is not None else ([] if key != "content" else "")
        if "content" in payload:
            message["mentions"] = mentions(message["content"] or "", payload.get("allowed_mentions"),
                                           self.guild.members)
        if "attachments" in payload:
            kept_ids = {str(a.get("id")) for a in payload["attachments"] or []}
            kept = [a for a in message["attachments"] if a["id"] in kept_ids]
            message["attachments"] = kept + self._attachments(call, int(message["channel_id"]), int(message["id"]),
                                                              int(message.get("flags") or 0))
        message["edited_timestamp"] = iso()
        return message

    def _guild_channel(self, channel_id: int, needs: int = VIEW_CHANNEL) -> None:
        """404 for a channel that does not exist, 403 where the bot may not do `needs`."""
        channel = self.guild.channels.get(channel_id)
        if channel is None:
            raise ApiError(404, *UNKNOWN_CHANNEL)
        if not self.guild.joined or not self.guild.bot_can(channel_id, VIEW_CHANNEL):
            raise ApiError(403, *MISSING_ACCESS)
        if channel.is_thread and needs & SEND_MESSAGES:
            needs = (needs & ~SEND_MESSAGES) | SEND_MESSAGES_IN_THREADS
        if not self.guild.bot_can(channel_id, needs):
            raise ApiError(403, *MISSING_PERMISSIONS)
        if channel.is_thread and channel.archived and needs & SEND_MESSAGES_IN_THREADS:
            raise ApiError(400, *THREAD_ARCHIVED)

    def _channel_message(self, m: re.Match[str]) -> dict[str, Any]:
        channel_id, message_id = int(m["channel"]), int(m["message"])
        if channel_id not in self.dm_channels:
            self._guild_channel(channel_id)
        message = self.messages.get(message_id)
        if message is None or int(message["channel_id"]) != channel_id:
            raise ApiError(404, *UNKNOWN_MESSAGE)
        return message

    # -- the bot's own REST calls ---------------------------------------------------------------
    async def get_gateway_bot(self, call: Call, m: re.Match[str]) -> Any:
        return {"url": self.gateway.url, "shards": self.shard_count,
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 14_400_000,
                                        "max_concurrency": 1}}

    async def get_gateway(self, call: Call, m: re.Match[str]) -> Any:
        return {"url": self.gateway.url}

    async def get_me(self, call: Call, m: re.Match[str]) -> Any:
        return bot_self()

    async def get_application(self, call: Call, m: re.Match[str]) -> Any:
        return application()

    async def get_commands(self, call: Call, m: re.Match[str]) -> Any:
        return self.commands.get(_scope(m), [])

    async def put_commands(self, call: Call, m: re.Match[str]) -> Any:
        """A bulk overwrite: ids stay the same for a command name, as Discord keeps them."""
        if int(m["app"]) != APP_ID:
            raise ApiError(403, 50001, "Missing Access")
        scope = _scope(m)
        old = {c["name"]: c for c in self.commands.get(scope, [])}
        stored = []
        for cmd in call.payload or []:
            previous = old.get(cmd["name"])
            out = {"id": previous["id"] if previous else str(snowflake()), "application_id": str(APP_ID),
                   "version": str(snowflake()), "default_member_permissions": None, "type": 1, "nsfw": False,
                   "dm_permission": True, **cmd}
            if scope != "global":
                out["guild_id"] = scope.split(":", 1)[1]
            stored.append(out)
        self.commands[scope] = stored
        return stored

    async def post_message(self, call: Call, m: re.Match[str]) -> Any:
        channel_id = int(m["channel"])
        payload = call.payload or {}
        if channel_id in self.dm_channels:
            user_id = self.dm_channels[channel_id]
            if user_id in self.dms_closed:
                raise ApiError(403, *CANNOT_DM)
            message = self.new_message(call, channel_id, payload)
            self.sent.append(Sent("dm", call, message, channel_id=channel_id, recipient_id=user_id))
            return message
        self._guild_channel(channel_id, VIEW_CHANNEL | SEND_MESSAGES | (ATTACH_FILES if call.files else 0))
        message = self.new_message(call, channel_id, payload)
        self.sent.append(Sent("channel", call, message, channel_id=channel_id))
        return message

    async def get_message(self, call: Call, m: re.Match[str]) -> Any:
        return self._channel_message(m)

    async def edit_message(self, call: Call, m: re.Match[str]) -> Any:
        message = self._edit(call, self._channel_message(m), call.payload or {})
        self.sent.append(Sent("edit", call, message, channel_id=int(m["channel"])))
        return message

    async def delete_message(self, call: Call, m: re.Match[str]) -> Any:
        message = self._channel_message(m)
        del self.messages[int(message["id"])]
        self.deleted.append(int(message["id"]))
        return None

    async def get_channel(self, call: Call, m: re.Match[str]) -> Any:
        channel_id = int(m["channel"])
        if channel_id in self.dm_channels:
            return self._dm_data(channel_id)
        self._guild_channel(channel_id)
        return self.guild.channel_data(self.guild.channels[channel_id])

    async def open_dm(self, call: Call, m: re.Match[str]) -> Any:
        user_id = int((call.payload or {})["recipient_id"])
        channel_id = self.dm_by_user.get(user_id) or snowflake()
        self.dm_channels[channel_id] = user_id
        self.dm_by_user[user_id] = channel_id
        return self._dm_data(channel_id)

    def _dm_data(self, channel_id: int) -> dict[str, Any]:
        return {"id": str(channel_id), "type": DM, "last_message_id": None, "flags": 0,
                "recipients": [self._user(self.dm_channels[channel_id]).data()]}

    async def get_user(self, call: Call, m: re.Match[str]) -> Any:
        return self._user(int(m["user"])).data()

    async def get_member(self, call: Call, m: re.Match[str]) -> Any:
        user = self.guild.members.get(int(m["user"]))
        if int(m["guild"]) != self.guild.id or not self.guild.joined:
            raise ApiError(403, *MISSING_ACCESS)
        if user is None:
            raise ApiError(404, 10007, "Unknown Member")
        return self.guild.member_data(user)

    # -- interactions ---------------------------------------------------------------------------
    def _token(self, m: re.Match[str], *, acked: bool) -> Tracked:
        tracked = self.tracked.get(m["token"])
        if tracked is None or ("app" in m.groupdict() and int(m["app"]) != APP_ID):
            raise ApiError(404, *UNKNOWN_WEBHOOK)
        if acked and tracked.acked is None:
            raise ApiError(404, *UNKNOWN_WEBHOOK)
        return tracked

    async def callback(self, call: Call, m: re.Match[str]) -> Any:  # noqa: C901 - one branch per callback type
        tracked = self.tracked.get(m["token"])
        if tracked is None or tracked.info.id != int(m["iid"]):
            raise ApiError(404, *UNKNOWN_INTERACTION)
        if tracked.acked is not None:
            raise ApiError(400, *ALREADY_ACKNOWLEDGED)
        if self.interaction_deadline is not None and time.monotonic() - tracked.sent_at > self.interaction_deadline:
            tracked.late = True
            raise ApiError(404, *UNKNOWN_INTERACTION)
        payload = call.payload or {}
        kind = int(payload.get("type") or 0)
        data = payload.get("data") or {}
        ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        interaction: dict[str, Any] = {"id": str(tracked.info.id), "type": tracked.info.type,
                                       "response_message_loading": kind == 5,
                                       "response_message_ephemeral": ephemeral}
        resource: dict[str, Any] = {"type": kind}
        channel_id = tracked.channel_id
        component_message = tracked.info.payload.get("message")
        if kind == 4:
            message = self.new_message(call, channel_id, data, webhook=True)
            self.sent.append(Sent("response", call, message, channel_id=channel_id,
                                  recipient_id=tracked.info.user.id, interaction_id=tracked.info.id))
            tracked.original, resource["message"] = int(message["id"]), message
        elif kind == 5:
            message = self.new_message(call, channel_id, {}, webhook=True, check=False,
                                       flags=LOADING | (EPHEMERAL if ephemeral else 0))
            tracked.original, resource["message"] = int(message["id"]), message
        elif kind in (6, 7) and component_message is not None:
            tracked.original = int(component_message["id"])
            stored = self.messages.get(tracked.original)
            if kind == 7 and stored is not None:
                message = self._edit(call, stored, data)
                self.sent.append(Sent("edit", call, message, channel_id=channel_id,
                                      recipient_id=tracked.info.user.id, interaction_id=tracked.info.id))
                resource["message"] = message
        elif kind not in (1, 8, 9):
            raise ApiError(400, 50035, "Invalid Form Body", {"type": {"_errors": [{"message": "not a callback"}]}})
        if tracked.original is not None:
            interaction["response_message_id"] = str(tracked.original)
        tracked.acked = kind
        self.callbacks.append(Callback(call, tracked.info.id, tracked.info.user.id))
        return {"interaction": interaction, "resource": resource}

    async def followup(self, call: Call, m: re.Match[str]) -> Any:
        """The first followup of a deferred response replaces its "thinking" message."""
        tracked = self._token(m, acked=True)
        payload = call.payload or {}
        fill = tracked.acked == 5 and not tracked.filled and tracked.original is not None
        flags = None
        if fill:
            original = self.messages.get(tracked.original or 0) or {}
            flags = (int(original.get("flags") or 0) & EPHEMERAL) | (int(payload.get("flags") or 0) & ~LOADING)
        message = self.new_message(call, tracked.channel_id, payload, webhook=True,
                                   message_id=tracked.original if fill else None, flags=flags)
        tracked.filled = tracked.filled or fill
        tracked.messages.add(int(message["id"]))
        self.sent.append(Sent("followup", call, message, channel_id=tracked.channel_id,
                              recipient_id=tracked.info.user.id, interaction_id=tracked.info.id))
        # without ?wait=true Discord answers 204 No Content
        return message if str(call.params.get("wait", "")).lower() in ("1", "true") else None

    def _webhook_message(self, tracked: Tracked, m: re.Match[str]) -> dict[str, Any]:
        wanted = tracked.original if m["message"] == "@original" else int(m["message"])
        if wanted is None or (wanted != tracked.original and wanted not in tracked.messages):
            raise ApiError(404, *UNKNOWN_MESSAGE)
        message = self.messages.get(wanted)
        if message is None:
            raise ApiError(404, *UNKNOWN_MESSAGE)
        return message

    async def get_webhook_message(self, call: Call, m: re.Match[str]) -> Any:
        return self._webhook_message(self._token(m, acked=True), m)

    async def edit_webhook_message(self, call: Call, m: re.Match[str]) -> Any:
        tracked = self._token(m, acked=True)
        message = self._webhook_message(tracked, m)
        payload = dict(call.payload or {})
        if int(message.get("flags") or 0) & LOADING:
            payload["flags"] = int(message["flags"]) & ~LOADING
            tracked.filled = True
        message = self._edit(call, message, payload)
        self.sent.append(Sent("edit", call, message, channel_id=tracked.channel_id,
                              recipient_id=tracked.info.user.id, interaction_id=tracked.info.id))
        return message

    async def delete_webhook_message(self, call: Call, m: re.Match[str]) -> Any:
        tracked = self._token(m, acked=True)
        message = self._webhook_message(tracked, m)
        del self.messages[int(message["id"])]
        self.deleted.append(int(message["id"]))
        return None


def _scope(m: re.Match[str]) -> str:
    guild = m.groupdict().get("guild")
    return f"guild:{guild}" if guild else "global"


@dataclass(frozen=True)
class Route:
    method: str
    pattern: re.Pattern[str]
    template: str  # as discord.py's Route.path spells it
    handler: str  # the RestRoutes method
    via: str  # "http": needs the bot token; "webhook": the interaction token is in the path


def _route(method: str, pattern: str, template: str, handler: str, via: str = "http") -> Route:
    return Route(method, re.compile(pattern), template, handler, via)


_MESSAGE = r"/channels/(?P<channel>\d+)/messages/(?P<message>\d+)"
_WEBHOOK_MESSAGE = r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<message>@original|\d+)"
ROUTES: tuple[Route, ...] = (
    _route("GET", r"/gateway/bot", "/gateway/bot", "get_gateway_bot"),
    _route("GET", r"/gateway", "/gateway", "get_gateway"),
    _route("GET", r"/users/@me", "/users/@me", "get_me"),
    _route("GET", r"/oauth2/applications/@me", "/oauth2/applications/@me", "get_application"),
    _route("GET", r"/applications/(?P<app>\d+)/commands", "/applications/{application_id}/commands", "get_commands"),
    _route("PUT", r"/applications/(?P<app>\d+)/commands", "/applications/{application_id}/commands", "put_commands"),
    _route("GET", r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands",
           "/applications/{application_id}/guilds/{guild_id}/commands", "get_commands"),
    _route("PUT", r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands",
           "/applications/{application_id}/guilds/{guild_id}/commands", "put_commands"),
    _route("POST", r"/channels/(?P<channel>\d+)/messages", "/channels/{channel_id}/messages", "post_message"),
    _route("GET", _MESSAGE, "/channels/{channel_id}/messages/{message_id}", "get_message"),
    _route("PATCH", _MESSAGE, "/channels/{channel_id}/messages/{message_id}", "edit_message"),
    _route("DELETE", _MESSAGE, "/channels/{channel_id}/messages/{message_id}", "delete_message"),
    _route("GET", r"/channels/(?P<channel>\d+)", "/channels/{channel_id}", "get_channel"),
    _route("POST", r"/users/@me/channels", "/users/@me/channels", "open_dm"),
    _route("GET", r"/users/(?P<user>\d+)", "/users/{user_id}", "get_user"),
    _route("GET", r"/guilds/(?P<guild>\d+)/members/(?P<user>\d+)", "/guilds/{guild_id}/members/{user_id}",
           "get_member"),
    _route("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback",
           "/interactions/{webhook_id}/{webhook_token}/callback", "callback", "webhook"),
    _route("POST", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)", "/webhooks/{webhook_id}/{webhook_token}", "followup",
           "webhook"),
    _route("GET", _WEBHOOK_MESSAGE, "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
           "get_webhook_message", "webhook"),
    _route("PATCH", _WEBHOOK_MESSAGE, "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
           "edit_webhook_message", "webhook"),
    _route("DELETE", _WEBHOOK_MESSAGE, "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
           "delete_webhook_message", "webhook"),
)


def find_route(method: str, path: str) -> tuple[Route, re.Match[str]] | None:
    for route in ROUTES:
        if route.method == method:
            m = route.pattern.fullmatch(path)
            if m is not None:
                return route, m
    return None
