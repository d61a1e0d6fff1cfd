"""A local Discord for the real bot process: REST and gateway on 127.0.0.1, recording every
request, with faults injected per route.

    fd = FakeDiscord()
    await fd.start()                                   # 127.0.0.1, a free port
    bot = BotProcess(fd, tmp_path); await bot.start(); await bot.wait_ready()
    await fd.interact(fd.slash(ALICE, "game new", game="detour"))
    lobby = await fd.wait_channel_message(lambda m: bool(m.buttons))
    rule = fd.inject("POST", r"/channels/\\d+/messages", Fault.error(500))
    ...
    await bot.stop(); await fd.stop()

The recording has the in-process harness's shape (`Request`, `Sent`, `Callback`), and its query
methods (`channel_messages`, `ephemeral_for`, `dms_for`, `followups`, `callbacks_for`,
`requests_for`, `synced`, `protocol_problems`, `mark`) are the harness's own functions.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import logging
import re
import secrets
import socket
import struct
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from aiohttp import web

from tests.support.discord_harness import CHANNEL_ID, Callback, FakeUser, Harness, InteractionInfo, Request, Sent
from tests.support.fakediscord.faults import MAX_HANG, Fault, FaultRule, Faults, Served
from tests.support.fakediscord.gateway import Gateway
from tests.support.fakediscord.interactions import InteractionBuilders
from tests.support.fakediscord.model import Channel, Guild, Overwrite, Upload
from tests.support.fakediscord.rest import ApiError, Call, RestRoutes, Tracked, find_route

if TYPE_CHECKING:
    from tests.support.fakediscord.process import BotProcess

log = logging.getLogger("fakediscord")
HOST = "127.0.0.1"  # the only address this server ever binds
_API = re.compile(r"/api/v(?P<version>\d+)(?P<path>/.*)")
T = TypeVar("T")


class FakeDiscord(RestRoutes, InteractionBuilders):
    """The server, its recording and the test's controls. The recording queries are the
    in-process harness's own functions, run over this recording (they read `requests`,
    `sent`, `callbacks`, `interactions` and `_since`, which this class has in the same shape)."""

    def __init__(self, guild: Guild | None = None, *, shard_count: int = 1,
                 interaction_deadline: float | None = 3.0) -> None:
        self.guild = guild or Guild.default()
        self.token = f"fake.{secrets.token_urlsafe(24)}"
        self.shard_count = shard_count
        #: a callback later than this after INTERACTION_CREATE gets 404 Unknown interaction (None: never)
        self.interaction_deadline = interaction_deadline
        self.url = ""
        self.gateway = Gateway(self)
        self.faults = Faults()
        self.requests: list[Request] = []
        self.sent: list[Sent] = []
        self.callbacks: list[Callback] = []
        self.interactions: dict[int, InteractionInfo] = {}
        self.tracked: dict[str, Tracked] = {}
        self.messages: dict[int, dict[str, Any]] = {}
        self.deleted: list[int] = []
        self.dm_channels: dict[int, int] = {}
        self.dm_by_user: dict[int, int] = {}
        self.dms_closed: set[int] = set()
        self.commands: dict[str, list[dict[str, Any]]] = {}
        self.limit_violations: list[tuple[Request, list[str]]] = []
        self.uploads: dict[str, bytes] = {}
        #: requests for routes the fake does not know (answered 404); the fixture fails on any
        self.unknown: list[Call] = []
        self.processes: list[BotProcess] = []
        #: the fake's own failures while serving (a bug here, not in the bot)
        self.errors: list[str] = []
        self._seq = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self._stopping = asyncio.Event()

    # -- life ---------------------------------------------------------------------------------
    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=5.0)
        await self._runner.setup()
        await web.TCPSite(self._runner, HOST, 0).start()
        port = self._runner.addresses[0][1]
        self.url = f"http://{HOST}:{port}"
        log.info("fake Discord on %s", self.url)

    async def stop(self) -> None:
        """Release every hang, close every gateway connection, stop listening (bounded)."""
        self._stopping.set()
        self.faults.release_all()
        if self._runner is not None:
            await asyncio.wait_for(self.gateway.close_all(), 10.0)
            await asyncio.wait_for(self._runner.cleanup(), 15.0)
            self._runner = None

    # -- faults ---------------------------------------------------------------------------------
    def inject(self, method: str, path: str, *faults: Fault, then: Fault | None = None) -> FaultRule:
        """Queue `faults` for requests of `method` ("*": any) whose path below /api/v10 matches
        the regex `path` in full; `then`: served on every match once the queue is empty."""
        return self.faults.add(method, path, *faults, then=then)

    # -- the HTTP side ----------------------------------------------------------------------------
    async def _handle(self, request: web.Request) -> web.StreamResponse:
        """Every REST request; a bug of the fake itself is kept in `errors` (the fixture fails on it)."""
        try:
            return await self._serve(request)
        except Exception as exc:
            log.exception("fakediscord: failed to serve %s %s", request.method, request.path)
            self.errors.append(f"{request.method} {request.path}: {type(exc).__name__}: {exc}")
            return _json_response(599, {"code": 0, "message": "fakediscord bug"}, {})

    async def _serve(self, request: web.Request) -> web.StreamResponse:  # noqa: C901 - the one request pipeline, in order
        if request.method == "GET" and request.path in self.uploads:
            return web.Response(body=self.uploads[request.path], content_type="application/octet-stream")
        m = _API.fullmatch(request.path)
        path = m["path"] if m else request.path
        found = find_route(request.method, path) if m else None
        try:
            payload, files = await _read_body(request)
        except (ValueError, UnicodeDecodeError) as exc:
            return self._json(400, {"code": 50109, "message": f"The request body contains invalid JSON ({exc})"}, path)
        route, match = found if found else (None, None)
        call = Call(seq=next(self._seq), method=request.method, template=route.template if route else path,
                    path=path, params=dict(request.query), payload=payload, files=list(files),
                    via=route.via if route else "http", at=time.monotonic())
        self.requests.append(call)
        if route is None or match is None:
            self.unknown.append(call)
            log.error("fakediscord: UNKNOWN ROUTE %s %s (answered 404); add it to fakediscord/rest.py",
                      request.method, request.path)
            return self._answer(call, 404, {"code": 0, "message": "404: Not Found"})
        if route.via == "http" and request.headers.get("Authorization") != f"Bot {self.token}":
            return self._answer(call, 401, {"code": 0, "message": "401: Unauthorized"})
        taken = self.faults.take(request.method, path)
        rule, fault = taken if taken else (None, None)
        if rule is not None and fault is not None:
            rule.served.append(Served(fault, call.method, call.path, call.seq))
            call.fault = fault
        handler = getattr(self, route.handler)
        status, body = 0, None
        if fault is None or fault.processed:
            status, body = await _run(handler, call, match)
        if fault is None:
            return self._answer(call, status, body)
        assert rule is not None
        if fault.kind == "hang":
            await self._hang(rule, fault)
            if not fault.processed:
                status, body = await _run(handler, call, match)
            return self._answer(call, status, body)
        if fault.kind in ("drop", "reset"):
            _cut(request, reset=fault.kind == "reset")
            call.status = -1
            return web.Response(status=204)  # never written: the connection is gone
        if fault.kind == "ratelimit":
            return self._rate_limited(call, fault)
        return self._answer(call, fault.status, {"code": fault.code, "message": fault.message})

    async def _hang(self, rule: FaultRule, fault: Fault) -> None:
        waits = [asyncio.ensure_future(rule.released.wait()), asyncio.ensure_future(self._stopping.wait())]
        try:
            await asyncio.wait(waits, timeout=min(fault.seconds if fault.seconds is not None else MAX_HANG, MAX_HANG),
                               return_when=asyncio.FIRST_COMPLETED)
        finally:
            for w in waits:
                w.cancel()

    def _answer(self, call: Call, status: int, body: Any) -> web.Response:
        call.status, call.response = status, body
        return self._json(status, body, call.template)

    def _json(self, status: int, body: Any, template: str) -> web.Response:
        if status == 204 or body is None:
            return web.Response(status=204, headers=_limits(template))
        return _json_response(status, body, _limits(template))

    def _rate_limited(self, call: Call, fault: Fault) -> web.Response:
        call.status, call.response = 429, {"message": fault.message, "retry_after": fault.retry_after,
                                           "global": fault.is_global, "code": 0}
        headers = _limits(call.template, remaining=0, reset_after=fault.retry_after)
        headers["Retry-After"] = str(max(1, int(fault.retry_after + 0.999)))
        headers["X-RateLimit-Scope"] = "global" if fault.is_global else "user"
        if fault.is_global:
            headers["X-RateLimit-Global"] = "true"
        if fault.cloudflare:  # a Cloudflare ban: no Via header, an HTML page
            del headers["Via"]
            return web.Response(status=429, text="<html><body>Error 1015: You are being rate limited</body></html>",
                                content_type="text/html", headers=headers)
        return _json_response(429, call.response, headers)

    # -- the test's side: interactions and guild changes ----------------------------------------------
    async def interact(self, payload: dict[str, Any]) -> int:
        """Send INTERACTION_CREATE (built by slash/autocomplete/click/choose); its 3-second
        deadline starts now. Returns `mark()` from before it, for `since=` queries."""
        mark = self.mark()
        self.track(payload, time.monotonic())
        await self.gateway.dispatch("INTERACTION_CREATE", payload, guild_id=_int(payload.get("guild_id")))
        return mark

    async def delete_channel(self, channel_id: int) -> None:
        """The channel (or thread) is deleted: CHANNEL_DELETE (THREAD_DELETE); REST then says 404."""
        channel = self.guild.channels.pop(channel_id)
        if channel.is_thread:
            await self.gateway.dispatch("THREAD_DELETE", {"id": str(channel.id), "guild_id": str(self.guild.id),
                                                          "parent_id": str(channel.parent_id), "type": channel.type},
                                        guild_id=self.guild.id)
        else:
            await self.gateway.dispatch("CHANNEL_DELETE", self.guild.channel_data(channel), guild_id=self.guild.id)

    async def remove_guild(self, *, unavailable: bool = False) -> None:
        """GUILD_DELETE: the bot was removed (REST then says 403 Missing Access), or with
        `unavailable` an outage (REST still works, as Discord's does for cached channels)."""
        if not unavailable:
            self.guild.joined = False
        await self.gateway.dispatch("GUILD_DELETE", {"id": str(self.guild.id), "unavailable": unavailable},
                                    guild_id=self.guild.id)

    async def set_bot_permissions(self, permissions: int) -> None:
        """The bot's role grants `permissions` from now (GUILD_ROLE_UPDATE tells the bot)."""
        self.guild.bot_permissions = permissions
        role = next(r for r in self.guild.role_data() if r["managed"])
        await self._tell("GUILD_ROLE_UPDATE", {"guild_id": str(self.guild.id), "role": role})

    async def set_overwrite(self, channel_id: int, target: int, *, allow: int = 0, deny: int = 0,
                            member: bool = False) -> None:
        """A permission overwrite in the channel for a role (e.g. BOT_ROLE_ID, the guild id for
        @everyone) or a member; CHANNEL_UPDATE tells the bot."""
        channel = self.guild.channels[channel_id]
        channel.overwrites[target] = Overwrite(target, 1 if member else 0, allow, deny)
        await self._tell("CHANNEL_UPDATE", self.guild.channel_data(channel))

    async def add_channel(self, channel: Channel) -> None:
        self.guild.channels[channel.id] = channel
        event = "THREAD_CREATE" if channel.is_thread else "CHANNEL_CREATE"
        await self._tell(event, self.guild.channel_data(channel))

    async def _tell(self, name: str, data: dict[str, Any]) -> None:
        """Dispatch if the bot has a session (before it connects, GUILD_CREATE carries the change)."""
        if self.gateway.current:
            await self.gateway.dispatch(name, data, guild_id=self.guild.id)

    # -- waiting (every wait bounded) -----------------------------------------------------------------
    async def wait_for(self, check: Callable[[], T | None], timeout: float = 20.0, what: str = "a condition") -> T:
        """Poll `check` until it returns something truthy; fail fast if a bot process died."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            found = check()
            if found:
                return found
            for proc in self.processes:
                proc.raise_if_died()
            if loop.time() >= deadline:
                late = [t.info.id for t in self.tracked.values() if t.late]
                raise TimeoutError(
                    f"{what} did not happen within {timeout:.0f} s"
                    + (f"; interactions answered after the deadline (404 Unknown interaction): {late}" if late else "")
                    + "; last requests:\n" + "\n".join(f"  {_describe(r)}" for r in self.requests[-12:]))
            await asyncio.sleep(0.02)

    async def wait_channel_message(self, match: Callable[[Sent], bool] = lambda s: True, *, since: int = 0,
                                   channel_id: int | None = None, timeout: float = 20.0) -> Sent:
        """The first message posted to the channel (default: CHANNEL_ID) after `since` that `match`es."""
        cid = CHANNEL_ID if channel_id is None else channel_id
        return await self.wait_for(
            lambda: next((s for s in self.channel_messages(since, cid) if match(s)), None), timeout,
            f"a channel message in {cid} after request #{since}")

    async def wait_acked(self, payload: dict[str, Any], timeout: float = 10.0) -> Callback:
        """The interaction's callback, once the fake Discord accepted it."""
        return await self.wait_for(lambda: next(iter(self.callbacks_for(payload)), None), timeout,
                                   f"the callback of interaction {payload['id']}")

    async def quiet(self, seconds: float = 0.5, timeout: float = 20.0) -> None:
        """Wait until the bot made no request for `seconds` (at most `timeout`)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        count, since = len(self.requests), loop.time()
        while loop.time() - since < seconds:
            if loop.time() >= deadline:
                raise TimeoutError(f"the bot kept making requests for {timeout:.0f} s")
            await asyncio.sleep(0.05)
            if len(self.requests) != count:
                count, since = len(self.requests), loop.time()

    async def wait_ready(self, after_connection: int = 0, timeout: float = 30.0) -> int:
        """Until a gateway connection numbered above `after_connection` was answered READY (or
        RESUMED) and GUILD_CREATE and the bot proved it processed them; returns its number."""
        conn = await self.wait_for(
            lambda: next((c for c in self.gateway.connections if c.number > after_connection and c.synced), None),
            timeout, f"a gateway connection after #{after_connection} to be ready")
        return conn.number

    def calls(self, method: str = "*", path: str = ".*", since: int = 0) -> list[Call]:
        """Recorded requests of `method` whose path matches the regex `path` in full."""
        first = self._since(since)
        rx = re.compile(path)
        return [r for r in self.requests if isinstance(r, Call) and r.seq >= first
                and method in ("*", r.method) and rx.fullmatch(r.path)]


    # -- the recording, queried as the in-process harness queries its own ---------------------------
    def _harness(self) -> Harness:
        return cast(Harness, self)

    def mark(self) -> int:
        return Harness.mark(self._harness())

    def _since(self, mark: int) -> int:
        return Harness._since(self._harness(), mark)

    def channel_messages(self, since: int = 0, channel_id: int = CHANNEL_ID) -> list[Sent]:
        """Messages Discord accepted in the channel (or thread) since `mark()` was `since`."""
        return Harness.channel_messages(self._harness(), since, channel_id)

    def ephemeral_for(self, user: FakeUser | int, since: int = 0) -> list[Sent]:
        return Harness.ephemeral_for(self._harness(), user, since)

    def followups(self, since: int = 0) -> list[Sent]:
        return Harness.followups(self._harness(), since)

    def dms_for(self, user: FakeUser | int, since: int = 0) -> list[Sent]:
        return Harness.dms_for(self._harness(), user, since)

    def callbacks_for(self, payload: dict[str, Any]) -> list[Callback]:
        """The accepted callbacks of the interaction (refused ones are only in `requests`)."""
        return Harness.callbacks_for(self._harness(), payload)

    def requests_for(self, payload: dict[str, Any]) -> list[Request]:
        return Harness.requests_for(self._harness(), payload)

    def synced(self) -> list[Request]:
        """The command syncs (PUT of global or guild commands)."""
        return Harness.synced(self._harness())

    def protocol_problems(self) -> list[str]:
        """What Discord would hold against the bot (see `Harness.protocol_problems`)."""
        return Harness.protocol_problems(self._harness())


def _json_response(status: int, body: Any, headers: dict[str, str]) -> web.Response:
    """JSON as Discord sends it: discord.py parses a body only if its Content-Type is exactly
    `application/json` (aiohttp's `content_type=` would add a charset)."""
    return web.Response(status=status, body=json.dumps(body).encode(),
                        headers={**headers, "Content-Type": "application/json"})


def _cut(request: web.Request, *, reset: bool) -> None:
    transport = request.transport
    if transport is None:
        return
    if reset:
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    transport.close()


async def _run(handler: Callable[..., Any], call: Call, match: re.Match[str]) -> tuple[int, Any]:
    try:
        body = await handler(call, match)
    except ApiError as exc:
        return exc.status, exc.body()
    return (204, None) if body is None else (200, body)


async def _read_body(request: web.Request) -> tuple[Any, list[Upload]]:
    """(JSON payload, files): a multipart body's payload_json and files[n], with descriptions."""
    raw = await request.read()
    if request.content_type != "multipart/form-data":
        return (json.loads(raw) if raw else None), []
    payload: Any = None
    parts: list[tuple[str, Upload]] = []
    for name, filename, content_type, data in _form_parts(raw, request.headers.get("Content-Type", "")):
        if name == "payload_json":
            payload = json.loads(data)
        else:
            parts.append((name, Upload(filename or "", data, content_type=content_type)))
    meta = (payload or {}).get("attachments") or ((payload or {}).get("data") or {}).get("attachments") or []
    described = {str(a.get("id")): a for a in meta if isinstance(a, dict)}
    for name, upload in parts:
        index = re.fullmatch(r"files\[(\d+)\]", name)
        info = described.get(index[1]) if index else None
        if info is not None:
            upload.description = info.get("description")
    return payload, [u for _, u in parts]


_PARAM = re.compile(r';\s*(?P<key>[A-Za-z*]+)="?(?P<value>[^";]*)"?')


def _form_parts(raw: bytes, content_type: str) -> list[tuple[str, str | None, str | None, bytes]]:
    """(name, filename, content type, bytes) of each part of a multipart/form-data body, the
    bytes exactly as sent (split on the boundary here: aiohttp's part reader warns of a
    deprecated call of its own on bodies without per-part lengths)."""
    params = {m["key"].lower(): m["value"] for m in _PARAM.finditer(content_type)}
    if "boundary" not in params:
        raise ValueError("multipart body without a boundary")
    out = []
    for chunk in raw.split(b"--" + params["boundary"].encode())[1:]:
        if chunk.startswith(b"--"):
            break
        head, _, data = chunk.removeprefix(b"\r\n").partition(b"\r\n\r\n")
        headers = {}
        for line in head.decode("utf-8").split("\r\n"):
            key, _, value = line.partition(":")
            headers[key.strip().lower()] = value.strip()
        disposition = {m["key"].lower(): m["value"] for m in _PARAM.finditer(headers.get("content-disposition", ""))}
        out.append((disposition.get("name", ""), disposition.get("filename"), headers.get("content-type"),
                    data.removesuffix(b"\r\n")))
    return out


def _limits(template: str, remaining: int = 4, reset_after: float = 1.0) -> dict[str, str]:
    """Discord's rate-limit headers (and the `Via` discord.py checks before trusting a 429)."""
    return {"X-RateLimit-Limit": "5", "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}", "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": hashlib.sha1(template.encode()).hexdigest()[:32], "Via": "1.1 google"}


def _int(value: Any) -> int | None:
    return int(value) if value is not None else None


def _describe(request: Request) -> str:
    status = getattr(request, "status", "")
    fault = getattr(request, "fault", None)
    return (f"#{request.seq} {request.method} {request.path} -> {status}"
            + (f" (fault {fault.kind})" if fault else ""))
