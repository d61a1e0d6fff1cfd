"""A Discord bot with no network: real interaction payloads in, recorded HTTP requests out.

The bot is the real one (`bot.create_bot`), with its real command tree and its
`GameComponent` dynamic items. Interactions are fed as the dicts the gateway sends
with INTERACTION_CREATE, through `ConnectionState.parse_interaction_create`, so
discord.py itself parses options, resolves members and dispatches buttons. Every
REST call the bot makes goes to a fake `HTTPClient.request` (channel messages, DMs,
fetches, command sync) or a fake `AsyncWebhookAdapter.request` (interaction
callbacks, followups, the original response); both record what was sent and answer
with plausible Discord JSON.

    h = await Harness.create(tmp_path)          # the fake game must be installed first
    await h.run(h.slash(ALICE, "game new", game="countdown"))
    lobby = h.channel_messages()[-1]
    await h.run(h.click(BOB, lobby, lobby.button("Join").custom_id))
    ...
    await h.close()
"""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import json
import logging
import re
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import discord
from discord import app_commands
from discord.http import HTTPClient, Route
from discord.webhook.async_ import AsyncWebhookAdapter

from bot import create_bot
from bot.adapters.discord import CatalogTranslator, PassepartoutBot
from bot.settings import Settings
from bot.store import SQLiteStore

APP_ID = 1_290_000_000_000_000_001
BOT_USER_ID = APP_ID
GUILD_ID = 1_290_000_000_000_000_010
CHANNEL_ID = 1_290_000_000_000_000_100
OTHER_CHANNEL_ID = 1_290_000_000_000_000_101

# permission bits
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_CHANNELS = 1 << 4
USE_APPLICATION_COMMANDS = 1 << 31
MEMBER_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | USE_APPLICATION_COMMANDS
ATTACH_FILES = 1 << 15
SEND_MESSAGES_IN_THREADS = 1 << 38
BOT_PERMISSIONS = MEMBER_PERMISSIONS | ATTACH_FILES | (1 << 14)  # + attach files, embed links
PUBLIC_THREAD = 11  # a channel type

EPHEMERAL = 64
# tasks discord.py creates for an interaction (tree invoker, dynamic items, views, events)
_TASK_PREFIXES = ("CommandTree-invoker", "discord-ui-dynamic-item-", "discord-ui-view-dispatch-", "discord.py: ",
                  "passepartout-memories")

_ids = itertools.count(1)


def snowflake() -> int:
    """A fresh, time-based snowflake (so `Interaction.created_at` and expiry are realistic)."""
    return discord.utils.time_snowflake(dt.datetime.now(dt.UTC)) + next(_ids) % 4096


@dataclass(frozen=True)
class FakeUser:
    id: int
    name: str
    locale: str = "en-US"
    permissions: int = MEMBER_PERMISSIONS

    def data(self) -> dict[str, Any]:
        return {"id": str(self.id), "username": self.name.lower(), "global_name": self.name, "discriminator": "0",
                "avatar": None, "bot": False, "public_flags": 0}

    def member(self) -> dict[str, Any]:
        return {"user": self.data(), "nick": None, "roles": [], "joined_at": "2025-01-01T00:00:00+00:00",
                "deaf": False, "mute": False, "flags": 0, "pending": False, "avatar": None,
                "communication_disabled_until": None, "premium_since": None,
                "permissions": str(self.permissions)}


# -- what was sent ---------------------------------------------------------------------------


@dataclass
class FileSent:
    filename: str
    data: bytes

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def is_png(self) -> bool:
        return self.data.startswith(b"\x89PNG\r\n\x1a\n")


@dataclass
class Request:
    """One REST call the bot made."""

    seq: int
    method: str
    template: str  # the route template, e.g. /channels/{channel_id}/messages
    path: str  # the concrete path
    params: dict[str, Any]
    payload: Any  # the JSON body (payload_json of a multipart request)
    files: list[FileSent]
    via: str  # "http" (bot token) or "webhook" (interaction token)
    response: Any = None

    @property
    def parts(self) -> list[str]:
        return self.path.strip("/").split("/")


@dataclass
class Component:
    type: int  # 2 button, 3 string select
    custom_id: str | None
    label: str | None = None
    style: int | None = None
    disabled: bool = False
    options: list[dict[str, Any]] = field(default_factory=list)
    placeholder: str | None = None


@dataclass
class Sent:
    """A message the bot sent somewhere (channel, DM, ephemeral followup, interaction response)."""

    kind: str  # "channel" | "dm" | "followup" | "response" | "edit"
    request: Request
    message: dict[str, Any]  # the message object the fake API returned (what Discord would store)
    channel_id: int | None = None
    recipient_id: int | None = None  # DM recipient, or the user of the interaction for followups
    interaction_id: int | None = None

    @property
    def payload(self) -> dict[str, Any]:
        p = self.request.payload or {}
        return p.get("data", p) if self.kind == "response" else p

    @property
    def content(self) -> str:
        return self.payload.get("content") or ""

    @property
    def flags(self) -> int:
        return int(self.payload.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def files(self) -> list[FileSent]:
        return self.request.files

    @property
    def attachments(self) -> list[dict[str, Any]]:
        return list(self.payload.get("attachments") or [])

    @property
    def allowed_mentions(self) -> dict[str, Any] | None:
        return self.payload.get("allowed_mentions")

    @property
    def components(self) -> list[Component]:
        out: list[Component] = []
        for row in self.payload.get("components") or []:
            for c in row.get("components", []):
                out.append(Component(type=c["type"], custom_id=c.get("custom_id"), label=c.get("label"),
                                     style=c.get("style"), disabled=bool(c.get("disabled")),
                                     options=list(c.get("options") or []), placeholder=c.get("placeholder")))
        return out

    @property
    def buttons(self) -> list[Component]:
        return [c for c in self.components if c.type == 2]

    @property
    def selects(self) -> list[Component]:
        return [c for c in self.components if c.type == 3]

    def button(self, label: str) -> Component:
        """The button whose label is `label` (or contains it)."""
        exact = [b for b in self.buttons if b.label == label]
        found = exact or [b for b in self.buttons if b.label and label in b.label]
        if not found:
            raise LookupError(f"no button {label!r} in {[b.label for b in self.buttons]}")
        return found[0]

    def __repr__(self) -> str:
        return (f"Sent({self.kind}, to={self.channel_id or self.recipient_id}, content={self.content[:60]!r}, "
                f"buttons={[b.label for b in self.buttons]}, files={[f.filename for f in self.files]})")


@dataclass
class Callback:
    """An interaction callback (the initial response): type 4 message, 5 deferred thinking,
    6 deferred update, 7 update message, 8 autocomplete result."""

    request: Request
    interaction_id: int
    user_id: int | None

    @property
    def type(self) -> int:
        return int(self.request.payload["type"])

    @property
    def data(self) -> dict[str, Any]:
        return self.request.payload.get("data") or {}

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def choices(self) -> list[dict[str, Any]]:
        return list(self.data.get("choices") or [])


@dataclass
class InteractionInfo:
    id: int
    token: str
    type: int
    user: FakeUser
    payload: dict[str, Any]


# -- the fakes -------------------------------------------------------------------------------

_BY_TOKEN: dict[str, Harness] = {}
_patch_depth = 0
_originals: dict[str, Any] = {}


async def _fake_http_request(self: HTTPClient, route: Route, *, files: Any = None, form: Any = None,
                             **kwargs: Any) -> Any:
    harness: Harness | None = getattr(self, "_pp_harness", None)
    if harness is None:
        raise RuntimeError(f"network access in a test: {route.method} {route.url}")
    payload = kwargs.get("json")
    if form:
        for part in form:
            if part.get("name") == "payload_json":
                payload = json.loads(part["value"])
    return await harness._http(route, payload, files or [], kwargs.get("params") or {})


async def _fake_webhook_request(self: AsyncWebhookAdapter, route: Route, session: Any, *, payload: Any = None,
                                multipart: Any = None, files: Any = None, params: Any = None, **kwargs: Any) -> Any:
    token = route.webhook_token
    harness = _BY_TOKEN.get(token or "")
    if harness is None:
        raise RuntimeError(f"network access in a test: {route.method} {route.url}")
    if multipart:
        for part in multipart:
            if part.get("name") == "payload_json":
                payload = json.loads(part["value"])
    return await harness._webhook(route, payload, files or [], params or {})


@contextmanager
def fake_discord_http() -> Iterator[None]:
    """Patch discord.py's two REST entry points (re-entrant)."""
    global _patch_depth
    if _patch_depth == 0:
        _originals["http"] = HTTPClient.request
        _originals["webhook"] = AsyncWebhookAdapter.request
        HTTPClient.request = _fake_http_request  # type: ignore[method-assign,assignment]
        AsyncWebhookAdapter.request = _fake_webhook_request  # type: ignore[method-assign,assignment]
    _patch_depth += 1
    try:
        yield
    finally:
        _patch_depth -= 1
        if _patch_depth == 0:
            HTTPClient.request = _originals.pop("http")  # type: ignore[method-assign]
            AsyncWebhookAdapter.request = _originals.pop("webhook")  # type: ignore[method-assign]


class _ErrorLog(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def _read(file: discord.File) -> FileSent:
    file.reset()
    data = file.fp.read()
    file.reset()
    return FileSent(file.filename or "", data)


def _iso(when: dt.datetime | None = None) -> str:
    return (when or dt.datetime.now(dt.UTC)).isoformat()


# -- the harness -----------------------------------------------------------------------------


class Harness:
    def __init__(self, bot: PassepartoutBot, db_path: Path) -> None:
        self.bot = bot
        self.db_path = db_path
        self.requests: list[Request] = []
        self.sent: list[Sent] = []
        self.callbacks: list[Callback] = []
        self.interactions: dict[int, InteractionInfo] = {}
        self._by_token: dict[str, InteractionInfo] = {}
        self._dm_channels: dict[int, int] = {}  # DM channel id -> user id
        self._dm_by_user: dict[int, int] = {}
        self._users: dict[int, FakeUser] = {}
        self._messages: dict[int, dict[str, Any]] = {}
        self._commands: dict[str, list[dict[str, Any]]] = {}  # route path -> last synced payload
        self._seq = itertools.count(1)
        self._baseline: set[asyncio.Task[Any]] = set()
        self.hooks: list[Callable[[Request], Awaitable[None]]] = []
        #: each may return an exception for a request, which the fake API then raises (e.g. Forbidden)
        self.failures: list[Callable[[Request], Exception | None]] = []
        #: messages Discord would have rejected (400 Invalid Form Body), with the reasons
        self.limit_violations: list[tuple[Request, list[str]]] = []
        self.errors = _ErrorLog()
        self._patch = fake_discord_http()
        self._closed = False
        self.guild_locale = "en-US"  # what the guild payloads say (the guild's community language)

    # -- setup ------------------------------------------------------------------------
    @classmethod
    async def create(cls, tmp_path: Path, *, settings: Settings | None = None, db_name: str = "discord.sqlite3",
                     users: list[FakeUser] | None = None) -> Harness:
        """The bot as `__main__` builds it, minus login/connect: store opened, translator set,
        state ready, a guild with our channel in the cache; the scheduler is not started."""
        db_path = Path(tmp_path) / db_name
        settings = settings or Settings(database_url=str(db_path), sync_commands="auto", tick_seconds=3600)
        bot = create_bot(settings, store=SQLiteStore(db_path))
        # no summary and timelapse after each whole game (seconds of CPU each): the tests of
        # that feature turn it on (tests/test_discord_memories.py)
        bot.service.memories = False
        h = cls(bot, db_path)
        h._patch.__enter__()
        try:
            await h._setup(users or [])
        except BaseException:
            h._patch.__exit__(None, None, None)
            raise
        return h

    async def _setup(self, users: list[FakeUser]) -> None:
        bot = self.bot
        bot.http._pp_harness = self  # type: ignore[attr-defined]
        await bot._async_setup_hook()  # the loop, the ready event
        state = bot._connection
        state.application_id = APP_ID
        state.user = discord.ClientUser(state=state, data={
            "id": str(BOT_USER_ID), "username": "passepartout", "global_name": "Passepartout", "discriminator": "0",
            "avatar": None, "bot": True, "verified": True, "mfa_enabled": False, "flags": 0, "public_flags": 0})
        state._add_guild_from_data(self.guild_data())  # type: ignore[arg-type]
        await bot.open_store()
        await bot.tree.set_translator(CatalogTranslator())
        bot._ready.set()  # wait_until_ready() returns at once; the scheduler loop is never started
        for u in users:
            self._users[u.id] = u
        for name in ("discord", "passepartout"):
            logging.getLogger(name).addHandler(self.errors)
        self._baseline = set(asyncio.all_tasks())

    def guild_data(self) -> dict[str, Any]:
        everyone = {"id": str(GUILD_ID), "name": "@everyone", "permissions": str(MEMBER_PERMISSIONS), "position": 0,
                    "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0}

        def text_channel(cid: int, name: str, position: int) -> dict[str, Any]:
            return {"id": str(cid), "type": 0, "name": name, "position": position, "guild_id": str(GUILD_ID),
                    "permission_overwrites": [], "nsfw": False, "parent_id": None, "topic": None,
                    "last_message_id": None, "rate_limit_per_user": 0, "flags": 0}

        return {
            "id": str(GUILD_ID), "name": "Reform Club", "icon": None, "splash": None, "discovery_splash": None,
            "owner_id": "1", "afk_channel_id": None, "afk_timeout": 300, "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0, "roles": [everyone], "emojis": [],
            "features": [], "mfa_level": 0, "application_id": None, "system_channel_id": None,
            "system_channel_flags": 0, "rules_channel_id": None, "vanity_url_code": None, "description": None,
            "banner": None, "premium_tier": 0, "preferred_locale": "en-US", "public_updates_channel_id": None,
            "nsfw_level": 0, "premium_progress_bar_enabled": False, "stickers": [], "unavailable": False,
            "member_count": 4, "large": False, "joined_at": "2025-01-01T00:00:00+00:00", "members": [],
            "voice_states": [], "presences": [], "threads": [], "stage_instances": [],
            "guild_scheduled_events": [], "soundboard_sounds": [],
            "channels": [text_channel(CHANNEL_ID, "around-the-world", 0),
                         text_channel(OTHER_CHANNEL_ID, "lounge", 1)],
        }

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            await self.settle()
        finally:
            for task in asyncio.all_tasks() - self._baseline:
                if task is not asyncio.current_task() and not task.done():
                    task.cancel()
            for name in ("discord", "passepartout"):
                logging.getLogger(name).removeHandler(self.errors)
            for token, owner in list(_BY_TOKEN.items()):
                if owner is self:
                    del _BY_TOKEN[token]
            try:
                await self.bot.close()
            finally:
                self._patch.__exit__(None, None, None)

    # -- the fake REST API ----------------------------------------------------------
    def _record(self, route: Route, payload: Any, files: list[discord.File], params: dict[str, Any],
                via: str) -> Request:
        path = urlsplit(route.url).path
        path = path[path.index("/api/v") + len("/api/v10"):] if "/api/v" in path else path
        req = Request(seq=next(self._seq), method=route.method, template=route.path, path=path, params=dict(params),
                      payload=payload, files=[_read(f) for f in files], via=via)
        self.requests.append(req)
        return req

    def _message(self, req: Request, channel_id: int, payload: dict[str, Any], *, author: dict[str, Any] | None = None,
                 webhook: bool = False) -> dict[str, Any]:
        """The message object Discord answers a send with (and later puts in component interactions)."""
        problems = discord_limit_problems(payload, req.files)
        if problems:
            self.limit_violations.append((req, problems))
            raise discord.HTTPException(_FakeResponse(400), {"code": 50035, "message": "Invalid Form Body: "
                                                              + "; ".join(problems)})
        mid = snowflake()
        attachments = []
        for f in req.files:
            attachments.append({"id": str(snowflake()), "filename": f.filename, "size": f.size,
                                "url": f"https://cdn.discordapp.com/attachments/{channel_id}/{mid}/{f.filename}",
                                "proxy_url": f"https://media.discordapp.net/attachments/{channel_id}/{mid}/{f.filename}",
                                "content_type": "image/png" if f.is_png else "application/octet-stream",
                                "width": 1, "height": 1, "ephemeral": bool(int(payload.get("flags") or 0) & 64)})
        message = {
            "id": str(mid), "channel_id": str(channel_id), "type": 0 if not webhook else 20,
            "content": payload.get("content") or "", "author": author or self.bot_user_data(),
            "timestamp": _iso(), "edited_timestamp": None, "tts": bool(payload.get("tts")),
            "mention_everyone": False, "mentions": [], "mention_roles": [], "mention_channels": [],
            "attachments": attachments, "embeds": payload.get("embeds") or [], "reactions": [], "pinned": False,
            "flags": int(payload.get("flags") or 0), "components": payload.get("components") or [],
        }
        if channel_id not in self._dm_channels:
            message["guild_id"] = str(GUILD_ID)
        if webhook:
            message["webhook_id"] = str(APP_ID)
            message["application_id"] = str(APP_ID)
        self._messages[mid] = message
        return message

    def bot_user_data(self) -> dict[str, Any]:
        return {"id": str(BOT_USER_ID), "username": "passepartout", "global_name": "Passepartout",
                "discriminator": "0", "avatar": None, "bot": True, "public_flags": 0}

    def _user_data(self, user_id: int) -> dict[str, Any]:
        user = self._users.get(user_id) or FakeUser(user_id, f"user{user_id}")
        return user.data()

    async def _http(self, route: Route, payload: Any, files: list[discord.File], params: dict[str, Any]) -> Any:  # noqa: C901 - flat dispatch, one branch per route
        req = self._record(route, payload, files, params, "http")
        for hook in list(self.hooks):
            await hook(req)
        for fail in list(self.failures):
            error = fail(req)
            if error is not None:
                req.response = error
                raise error
        key = (route.method, route.path)
        parts = req.parts
        response: Any
        if key == ("POST", "/channels/{channel_id}/messages"):
            channel_id = int(parts[1])
            response = self._message(req, channel_id, payload or {})
            if channel_id in self._dm_channels:
                self.sent.append(Sent("dm", req, response, channel_id=channel_id,
                                      recipient_id=self._dm_channels[channel_id]))
            else:
                self.sent.append(Sent("channel", req, response, channel_id=channel_id))
        elif key == ("POST", "/users/@me/channels"):
            user_id = int(payload["recipient_id"])
            cid = self._dm_by_user.get(user_id) or snowflake()
            self._dm_channels[cid] = user_id
            self._dm_by_user[user_id] = cid
            response = {"id": str(cid), "type": 1, "last_message_id": None, "flags": 0,
                        "recipients": [self._user_data(user_id)]}
        elif key == ("GET", "/users/{user_id}"):
            response = self._user_data(int(parts[1]))
        elif key == ("GET", "/channels/{channel_id}"):
            cid = int(parts[1])
            guild = self.guild_data()
            found = next((c for c in guild["channels"] if int(c["id"]) == cid), None)
            if found is None:
                raise discord.NotFound(_FakeResponse(404), {"code": 10003, "message": "Unknown Channel"})
            response = found
        elif key == ("GET", "/channels/{channel_id}/messages/{message_id}"):
            msg = self._messages.get(int(parts[3]))
            if msg is None:
                raise discord.NotFound(_FakeResponse(404), {"code": 10008, "message": "Unknown Message"})
            response = msg
        elif key == ("PATCH", "/channels/{channel_id}/messages/{message_id}"):
            msg = self._messages.get(int(parts[3]))
            if msg is None:
                raise discord.NotFound(_FakeResponse(404), {"code": 10008, "message": "Unknown Message"})
            msg.update({k: v for k, v in (payload or {}).items() if k in ("content", "components", "flags")})
            msg["edited_timestamp"] = _iso()
            self.sent.append(Sent("edit", req, msg, channel_id=int(parts[1])))
            response = msg
        elif key == ("DELETE", "/channels/{channel_id}/messages/{message_id}"):
            self._messages.pop(int(parts[3]), None)
            response = None
        elif route.method == "PUT" and route.path in ("/applications/{application_id}/commands",
                                                      "/applications/{application_id}/guilds/{guild_id}/commands"):
            self._commands[req.path] = payload
            response = [self._command_object(cmd, parts) for cmd in payload]
        else:
            raise AssertionError(f"the fake Discord API does not know {route.method} {route.path}")
        req.response = response
        return response

    @staticmethod
    def _command_object(cmd: dict[str, Any], parts: list[str]) -> dict[str, Any]:
        out = {"id": str(snowflake()), "application_id": str(APP_ID), "version": str(snowflake()),
               "default_member_permissions": None, "type": 1, "nsfw": False, **cmd}
        if "guilds" in parts:
            out["guild_id"] = parts[parts.index("guilds") + 1]
        return out

    async def _webhook(self, route: Route, payload: Any, files: list[discord.File], params: dict[str, Any]) -> Any:
        req = self._record(route, payload, files, params, "webhook")
        for hook in list(self.hooks):
            await hook(req)
        info = self._by_token.get(route.webhook_token or "")
        assert info is not None
        parts = req.parts
        channel_id = int(info.payload["channel_id"])
        response: Any
        if route.path == "/interactions/{webhook_id}/{webhook_token}/callback":
            assert route.webhook_id == info.id, "callback for the wrong interaction id"
            cb = Callback(req, info.id, info.user.id)
            self.callbacks.append(cb)
            interaction: dict[str, Any] = {"id": str(info.id), "type": info.type,
                                           "response_message_loading": cb.type == 5,
                                           "response_message_ephemeral": cb.ephemeral}
            response = {"interaction": interaction}
            if cb.type in (4, 7):
                message = self._message(req, channel_id, cb.data, webhook=True)
                interaction["response_message_id"] = message["id"]
                response["resource"] = {"type": cb.type, "message": message}
                self.sent.append(Sent("response", req, message, channel_id=channel_id, recipient_id=info.user.id,
                                      interaction_id=info.id))
            elif cb.type in (5, 6, 8, 9):
                response["resource"] = {"type": cb.type}
        elif route.method == "POST" and route.path == "/webhooks/{webhook_id}/{webhook_token}":
            assert route.webhook_id == APP_ID
            response = self._message(req, channel_id, payload or {}, webhook=True)
            self.sent.append(Sent("followup", req, response, channel_id=channel_id, recipient_id=info.user.id,
                                  interaction_id=info.id))
        elif parts[-2:] == ["messages", "@original"] and route.method == "DELETE":
            response = None
        elif parts[-2:] == ["messages", "@original"] and route.method in ("PATCH", "GET"):
            response = self._message(req, channel_id, payload or {}, webhook=True)
            if route.method == "PATCH":
                self.sent.append(Sent("edit", req, response, channel_id=channel_id, recipient_id=info.user.id,
                                      interaction_id=info.id))
        elif parts[-2] == "messages" and route.method == "DELETE":
            response = None
        elif parts[-2] == "messages" and route.method == "PATCH":  # a followup edited: only what it names
            response = {**self._messages[int(parts[-1])], **(payload or {}), "edited_timestamp": _iso()}
            self._messages[int(parts[-1])] = response
            self.sent.append(Sent("edit", req, response, channel_id=channel_id, recipient_id=info.user.id,
                                  interaction_id=info.id))
        else:
            raise AssertionError(f"the fake Discord API does not know webhook {route.method} {route.path}")
        req.response = response
        return response

    # -- interaction payloads -------------------------------------------------------------
    def _base(self, user: FakeUser, kind: int, channel_id: int = CHANNEL_ID, *, app_permissions: int | None = None,
              channel_type: int = 0) -> dict[str, Any]:
        """`app_permissions`: the bot's permissions in the channel as Discord sends them (default:
        all it needs); `channel_type`: 0 a text channel, `PUBLIC_THREAD` a thread of it."""
        self._users.setdefault(user.id, user)
        iid = snowflake()
        token = f"aW50ZXJhY3Rpb246{iid}x{next(_ids)}"
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(APP_ID), "type": kind, "token": token, "version": 1,
            "guild_id": str(GUILD_ID), "channel_id": str(channel_id),
            "channel": {"id": str(channel_id), "type": channel_type, "guild_id": str(GUILD_ID),
                        "name": {CHANNEL_ID: "around-the-world", OTHER_CHANNEL_ID: "lounge"}.get(channel_id, "new"),
                        "position": 0,
                        "permission_overwrites": [], "nsfw": False, "parent_id": None, "flags": 0,
                        "rate_limit_per_user": 0, "topic": None, "last_message_id": None,
                        "permissions": str(user.permissions)},
            "member": user.member(),
            "locale": user.locale, "guild_locale": self.guild_locale,
            "app_permissions": str(BOT_PERMISSIONS if app_permissions is None else app_permissions),
            "entitlements": [], "authorizing_integration_owners": {"0": str(GUILD_ID)}, "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if channel_type == PUBLIC_THREAD:  # a thread of the game's channel, as Discord describes one
            payload["channel"].update({
                "parent_id": str(CHANNEL_ID), "owner_id": str(user.id), "member_count": 1, "message_count": 0,
                "thread_metadata": {"archived": False, "auto_archive_duration": 1440, "locked": False,
                                    "archive_timestamp": _iso()}})
        return payload

    def _dm_base(self, user: FakeUser, kind: int, dm_channel_id: int) -> dict[str, Any]:
        """An interaction from the bot's DM with `user` (a button of a DM): no guild, no member."""
        assert self._dm_channels.get(dm_channel_id) == user.id, "only the recipient can click in a DM"
        iid = snowflake()
        return {
            "id": str(iid), "application_id": str(APP_ID), "type": kind, "token": f"dm{iid}x{next(_ids)}",
            "version": 1, "channel_id": str(dm_channel_id),
            "channel": {"id": str(dm_channel_id), "type": 1, "last_message_id": None, "flags": 0,
                        "recipients": [user.data()]},
            "user": user.data(), "locale": user.locale, "app_permissions": str(BOT_PERMISSIONS),
            "entitlements": [], "authorizing_integration_owners": {"1": str(user.id)}, "context": 1,
            "attachment_size_limit": 10 * 1024 * 1024,
        }

    def _register(self, payload: dict[str, Any], user: FakeUser) -> dict[str, Any]:
        info = InteractionInfo(int(payload["id"]), payload["token"], payload["type"], user, payload)
        self.interactions[info.id] = info
        self._by_token[info.token] = info
        _BY_TOKEN[info.token] = self
        return payload

    def _find_command(self, path: str) -> list[app_commands.Command[Any, ..., Any] | app_commands.Group]:
        names = path.split()
        found: list[Any] = []
        cmd: Any = self.bot.tree.get_command(names[0])
        if cmd is None:
            raise LookupError(f"no command /{names[0]}")
        found.append(cmd)
        for name in names[1:]:
            cmd = cmd.get_command(name)
            if cmd is None:
                raise LookupError(f"no command /{path}")
            found.append(cmd)
        return found

    def _options(self, command: app_commands.Command[Any, ..., Any], values: dict[str, Any],
                 focused: str | None = None) -> list[dict[str, Any]]:
        params = {p.name: p for p in command.parameters}
        out = []
        for name, value in values.items():
            if name not in params:
                raise LookupError(f"/{command.qualified_name} has no option {name!r}")
            opt: dict[str, Any] = {"name": name, "type": params[name].type.value, "value": value}
            if name == focused:
                opt["focused"] = True
            out.append(opt)
        return out

    def _command_data(self, path: str, values: dict[str, Any], focused: str | None) -> dict[str, Any]:
        chain = self._find_command(path)
        leaf = chain[-1]
        if not isinstance(leaf, app_commands.Command):
            raise LookupError(f"/{path} is a group, not a command")
        options: list[dict[str, Any]] = self._options(leaf, values, focused)
        for parent in reversed(chain[1:]):
            options = [{"name": parent.name, "type": 2 if isinstance(parent, app_commands.Group) else 1,
                        "options": options}]
        return {"id": str(snowflake()), "name": chain[0].name, "type": 1, "options": options}

    def slash(self, user: FakeUser, path: str, *, channel_id: int = CHANNEL_ID, guild_command: bool = False,
              app_permissions: int | None = None, channel_type: int = 0, **values: Any) -> dict[str, Any]:
        """APPLICATION_COMMAND (type 2), e.g. `slash(alice, "game new", game="countdown")`;
        `guild_command`: the command was synced to this guild (DEV_GUILD_ID), so `data.guild_id` is set;
        `app_permissions`, `channel_type`: as for `_base`."""
        payload = self._base(user, 2, channel_id, app_permissions=app_permissions, channel_type=channel_type)
        payload["data"] = self._command_data(path, values, None)
        if guild_command:
            payload["data"]["guild_id"] = str(GUILD_ID)
        return self._register(payload, user)

    def autocomplete(self, user: FakeUser, path: str, focused: str, current: str = "", *,
                     channel_id: int = CHANNEL_ID, **values: Any) -> dict[str, Any]:
        """APPLICATION_COMMAND_AUTOCOMPLETE (type 4): the focused option carries what was typed so far."""
        payload = self._base(user, 4, channel_id)
        payload["data"] = self._command_data(path, {**values, focused: current}, focused)
        return self._register(payload, user)

    def click(self, user: FakeUser, message: Sent | dict[str, Any], custom_id: str, *,
              channel_id: int = CHANNEL_ID, app_permissions: int | None = None) -> dict[str, Any]:
        """MESSAGE_COMPONENT (type 3) for a button of `message`."""
        return self._component(user, message, custom_id, 2, None, channel_id, app_permissions)

    def choose(self, user: FakeUser, message: Sent | dict[str, Any], custom_id: str, values: list[str], *,
               channel_id: int = CHANNEL_ID) -> dict[str, Any]:
        """MESSAGE_COMPONENT (type 3) for a string select of `message`."""
        return self._component(user, message, custom_id, 3, values, channel_id)

    def _component(self, user: FakeUser, message: Sent | dict[str, Any], custom_id: str, component_type: int,
                   values: list[str] | None, channel_id: int, app_permissions: int | None = None) -> dict[str, Any]:
        msg = message.message if isinstance(message, Sent) else message
        if int(msg["channel_id"]) in self._dm_channels:
            payload = self._dm_base(user, 3, int(msg["channel_id"]))
        else:
            payload = self._base(user, 3, channel_id, app_permissions=app_permissions)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            data["values"] = list(values)
        payload["data"] = data
        payload["message"] = json.loads(json.dumps(msg))
        return self._register(payload, user)

    def message_with(self, custom_id: str, label: str = "?", *, flags: int = 0) -> dict[str, Any]:
        """A message as if the bot had sent one with this single button (for hand-made custom ids)."""
        mid = snowflake()
        return {"id": str(mid), "channel_id": str(CHANNEL_ID), "guild_id": str(GUILD_ID), "type": 0, "content": "",
                "author": self.bot_user_data(), "timestamp": _iso(), "edited_timestamp": None, "tts": False,
                "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [], "embeds": [],
                "pinned": False, "flags": flags,
                "components": [{"type": 1, "components": [
                    {"type": 2, "style": 2, "label": label, "custom_id": custom_id}]}]}

    # -- feeding ------------------------------------------------------------------------
    def feed(self, payload: dict[str, Any]) -> None:
        """Hand one INTERACTION_CREATE to discord.py, as the gateway does (does not wait)."""
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]

    async def run(self, *payloads: dict[str, Any], timeout: float = 20.0) -> list[Request]:
        """Feed the payloads back to back, then wait until the bot is done; returns the requests made."""
        mark = len(self.requests)
        for payload in payloads:
            self.feed(payload)
        await self.settle(timeout)
        return self.requests[mark:]

    async def settle(self, timeout: float = 20.0) -> None:
        """Wait for every task discord.py started for the interactions fed so far."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        quiet = 0
        while quiet < 3:
            pending = [t for t in asyncio.all_tasks() if not t.done() and t.get_name().startswith(_TASK_PREFIXES)]
            if pending:
                quiet = 0
                left = deadline - loop.time()
                if left <= 0:
                    raise TimeoutError(f"the bot is still busy: {pending}")
                await asyncio.wait(pending, timeout=left)
            else:
                quiet += 1
                await asyncio.sleep(0)

    # -- reading the recording --------------------------------------------------------------
    def mark(self) -> int:
        return len(self.requests)

    def _since(self, mark: int) -> int:
        return self.requests[mark].seq if mark < len(self.requests) else 1 << 60

    def channel_messages(self, since: int = 0, channel_id: int = CHANNEL_ID) -> list[Sent]:
        first = self._since(since)
        return [s for s in self.sent if s.kind == "channel" and s.channel_id == channel_id and s.request.seq >= first]

    def ephemeral_for(self, user: FakeUser | int, since: int = 0) -> list[Sent]:
        """Messages only `user` saw: ephemeral followups and ephemeral responses to their interactions."""
        uid = user if isinstance(user, int) else user.id
        first = self._since(since)
        return [s for s in self.sent if s.kind in ("followup", "response") and s.ephemeral
                and s.recipient_id == uid and s.request.seq >= first]

    def followups(self, since: int = 0) -> list[Sent]:
        first = self._since(since)
        return [s for s in self.sent if s.kind in ("followup", "response") and s.request.seq >= first]

    def dms_for(self, user: FakeUser | int, since: int = 0) -> list[Sent]:
        uid = user if isinstance(user, int) else user.id
        first = self._since(since)
        return [s for s in self.sent if s.kind == "dm" and s.recipient_id == uid and s.request.seq >= first]

    def callbacks_for(self, payload: dict[str, Any]) -> list[Callback]:
        iid = int(payload["id"])
        return [c for c in self.callbacks if c.interaction_id == iid]

    def requests_for(self, payload: dict[str, Any]) -> list[Request]:
        """Every request made with this interaction's token (callback, followups, original response)."""
        token = payload["token"]
        return [r for r in self.requests if r.via == "webhook" and token in r.path]

    def synced(self) -> list[Request]:
        return [r for r in self.requests if r.method == "PUT" and r.template.endswith("/commands")]

    def protocol_problems(self) -> list[str]:
        """What Discord would hold against the bot: an interaction not acknowledged exactly once
        (users see "This interaction failed"), anything sent before the acknowledgement, a
        deferred slash command left "thinking…", an autocomplete answered with something else."""
        problems: list[str] = []
        for info in self.interactions.values():
            reqs = [r for r in self.requests if r.via == "webhook" and info.token in r.path]
            callbacks = [r for r in reqs if r.template.endswith("/callback")]
            name = f"interaction {info.id} (type {info.type})"
            if len(callbacks) != 1:
                problems.append(f"{name} got {len(callbacks)} initial responses")
                continue
            if reqs[0] is not callbacks[0]:
                problems.append(f"{name}: a request before the initial response")
            kind = int(callbacks[0].payload["type"])
            if info.type == 4 and kind != 8:
                problems.append(f"{name}: an autocomplete answered with type {kind}")
            if info.type == 2 and kind not in (4, 5):
                problems.append(f"{name}: a slash command answered with type {kind}")
            if info.type == 3 and kind not in (4, 5, 6, 7):
                problems.append(f"{name}: a component answered with type {kind}")
            if kind == 5 and not any(r.method in ("POST", "PATCH", "DELETE") for r in reqs[1:]):
                problems.append(f"{name}: deferred and left thinking")
        return problems

    def error_messages(self) -> list[str]:
        return [r.getMessage() for r in self.errors.records]


def discord_limit_problems(payload: dict[str, Any], files: list[FileSent]) -> list[str]:  # noqa: C901 - a flat checklist of Discord's limits
    """What Discord's API would reject in a message body (documented limits)."""
    problems: list[str] = []
    content = payload.get("content") or ""
    if len(content) > 2000:
        problems.append(f"content is {len(content)} > 2000 characters")
    if not content and not files and not payload.get("components") and not payload.get("embeds"):
        problems.append("empty message")
    embeds = payload.get("embeds") or []
    if len(embeds) > 10:
        problems.append(f"{len(embeds)} > 10 embeds")
    total = 0
    for embed in embeds:
        title, description = embed.get("title") or "", embed.get("description") or ""
        total += len(title) + len(description)
        shows = title or description or any(embed.get(k) for k in ("image", "thumbnail", "fields", "author", "footer"))
        if len(title) > 256 or len(description) > 4096 or not shows:
            problems.append(f"an embed out of limits (title {len(title)}, description {len(description)})")
    if total > 6000:
        problems.append(f"embeds hold {total} > 6000 characters")
    rows = payload.get("components") or []
    if len(rows) > 5:
        problems.append(f"{len(rows)} > 5 action rows")
    ids: list[str] = []
    for row in rows:
        items = row.get("components") or []
        if row.get("type") != 1 or not 1 <= len(items) <= 5:
            problems.append(f"an action row with {len(items)} components")
        selects = [c for c in items if c["type"] == 3]
        if selects and len(items) != 1:
            problems.append("a select shares its row")
        for c in items:
            cid = c.get("custom_id") or ""
            ids.append(cid)
            if not 1 <= len(cid) <= 100:
                problems.append(f"custom_id {cid!r} is {len(cid)} characters")
            if c["type"] == 2 and len(c.get("label") or "") > 80:
                problems.append(f"button label {c.get('label')!r} > 80")
            if c["type"] == 2 and not (c.get("label") or c.get("emoji")):
                problems.append("a button with neither label nor emoji")
            if c["type"] == 3:
                options = c.get("options") or []
                if not 1 <= len(options) <= 25:
                    problems.append(f"a select with {len(options)} options")
                if len(c.get("placeholder") or "") > 150:
                    problems.append("select placeholder > 150")
                values = [o["value"] for o in options]
                if len(set(values)) != len(values):
                    problems.append("duplicate select option values")
                for o in options:
                    if not 1 <= len(o["label"]) <= 100 or not 1 <= len(o["value"]) <= 100:
                        problems.append(f"select option {o!r} out of limits")
                    if len(o.get("description") or "") > 100:
                        problems.append("select option description > 100")
    if len(set(ids)) != len(ids):
        problems.append("duplicate custom_id in one message")
    if len(files) > 10:
        problems.append(f"{len(files)} > 10 files")
    for f in files:
        if f.size > 10 * 1024 * 1024:
            problems.append(f"{f.filename} is {f.size} bytes")
    return problems


class _FakeResponse:
    """Enough of aiohttp's response for discord.HTTPException."""

    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "Not Found" if status == 404 else "Error"


MENTION = re.compile(r"<@!?(\d+)>")


# -- table helpers shared by the tests ---------------------------------------------------------

ALICE = FakeUser(1_300_000_000_000_000_001, "Alice", "en-US")
BOB = FakeUser(1_300_000_000_000_000_002, "Bob", "de")
CAROL = FakeUser(1_300_000_000_000_000_003, "Carol", "fr")
DAVE = FakeUser(1_300_000_000_000_000_004, "Dave", "en-GB")
EVE = FakeUser(1_300_000_000_000_000_009, "Eve", "en-US")
CUSTOM_ID = re.compile(r"pp:(?P<game>\d+):(?P<version>\d+):(?P<kind>[a-z]+):(?P<payload>.*)")


def kind_of(custom_id: str | None) -> str | None:
    m = CUSTOM_ID.fullmatch(custom_id or "")
    return m["kind"] if m else None


async def open_table(h: Harness, host: FakeUser, players: list[FakeUser], *, game: str = "countdown",
                     ai: int = 0, **options: Any) -> Sent:
    """`/game new`, everyone joins by button, `ai` AI seats by button, the host presses Start.
    Returns the first public turn message."""
    await h.run(h.slash(host, "game new", game=game, **options))
    for user in players:
        lobby = h.channel_messages()[-1]
        await h.run(h.click(user, lobby, lobby.button("Join").custom_id))  # type: ignore[arg-type]
    for _ in range(ai):
        lobby = h.channel_messages()[-1]
        await h.run(h.click(host, lobby, lobby.button("Add AI").custom_id))  # type: ignore[arg-type]
    lobby = h.channel_messages()[-1]
    await h.run(h.click(host, lobby, lobby.button("Start").custom_id))  # type: ignore[arg-type]
    return h.channel_messages()[-1]


async def active(h: Harness) -> Any:
    """The channel's game record (None when there is none)."""
    return await h.bot.store.active_game(CHANNEL_ID)


def text(user: FakeUser, key: str, game_dir: str | Path | None = None, **params: Any) -> str:
    """A catalog sentence in the user's Discord language (what the bot should answer them)."""
    from bot.i18n import Translator

    return Translator(user.locale, game_dir)(key, **params)


def refusal(user: FakeUser, key: str, game_dir: str | Path | None = None, **params: Any) -> str:
    return "⚠️ " + text(user, key, game_dir, **params)
