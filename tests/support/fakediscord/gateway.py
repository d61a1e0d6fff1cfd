"""The gateway websocket of the fake Discord (https://discord.com/developers/docs/events/gateway).

HELLO, heartbeats answered with HEARTBEAT_ACK, IDENTIFY -> READY and GUILD_CREATE, RESUME ->
the missed events and RESUMED (or INVALID_SESSION when the session cannot be resumed), and
dispatches sent by the test. Events dispatched while the bot has no live connection are kept
in its session and replayed on RESUME, as Discord does.

After READY (or RESUMED) and the guild, the server asks for a heartbeat (op 1); the bot's
answer carries the sequence number it has processed, so when it arrives the bot's cache holds
the guild and it will handle interactions: that is what `FakeDiscord.wait_ready` waits for.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import socket
import struct
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from tests.support.discord_harness import APP_ID
from tests.support.fakediscord.model import bot_self

if TYPE_CHECKING:
    from tests.support.fakediscord.server import FakeDiscord

log = logging.getLogger("fakediscord.gateway")

DISPATCH, HEARTBEAT, IDENTIFY, RESUME, RECONNECT, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 0, 1, 2, 6, 7, 9, 10, 11


@dataclass
class Frame:
    """One gateway message, either way (`out`: server to bot)."""

    conn: int
    direction: str  # "in" | "out"
    op: int
    t: str | None
    s: int | None
    d: Any
    at: float


@dataclass
class Session:
    id: str
    shard: tuple[int, int]
    seq: int = 0
    #: every dispatch of the session (seq, event name, data), for RESUME
    events: list[tuple[int, str, Any]] = field(default_factory=list)
    conn: Connection | None = None


@dataclass
class Connection:
    number: int  # 1, 2, … in the order the bot connected
    ws: web.WebSocketResponse
    request: web.Request
    session: Session | None = None
    barrier: int | None = None  # the seq a heartbeat must carry to prove READY/RESUMED was processed
    synced: bool = False
    resumed: bool = False
    closed: bool = False
    close_code: int | None = None


class Gateway:
    """Test controls: `heartbeat_interval` (ms, sent in HELLO), `ack_heartbeats`, `resumable`
    (False: every RESUME gets INVALID_SESSION), and the async methods below."""

    def __init__(self, server: FakeDiscord) -> None:
        self.server = server
        self.heartbeat_interval = 41_250
        self.ack_heartbeats = True
        self.resumable = True
        self.connections: list[Connection] = []
        self.sessions: dict[str, Session] = {}
        self.current: dict[int, Session] = {}  # shard id -> the session that shard identified last
        self.frames: list[Frame] = []

    @property
    def url(self) -> str:
        return self.server.url.replace("http://", "ws://", 1) + "/gateway"

    # -- the websocket ----------------------------------------------------------------------
    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=16 * 1024 * 1024, timeout=5.0)
        await ws.prepare(request)
        conn = Connection(len(self.connections) + 1, ws, request)
        self.connections.append(conn)
        try:
            await self._send(conn, HELLO, {"heartbeat_interval": self.heartbeat_interval})
            async for msg in ws:  # ends when either side closes; stop() closes every connection
                if msg.type is WSMsgType.TEXT:
                    await self._receive(conn, json.loads(msg.data))
                elif msg.type is WSMsgType.BINARY:
                    log.warning("gateway connection %s sent a binary frame; closing with 4002", conn.number)
                    await ws.close(code=4002, message=b"Decode error")
        finally:
            conn.closed = True
            conn.close_code = conn.close_code or ws.close_code
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
        return ws

    async def _send(self, conn: Connection, op: int, d: Any, t: str | None = None, s: int | None = None) -> None:
        if conn.closed or conn.ws.closed:
            return
        self.frames.append(Frame(conn.number, "out", op, t, s, d, time.monotonic()))
        try:
            await conn.ws.send_str(json.dumps({"op": op, "d": d, "s": s, "t": t}))
        except (ConnectionError, RuntimeError):
            conn.closed = True

    async def _receive(self, conn: Connection, msg: dict[str, Any]) -> None:
        op, d = msg.get("op"), msg.get("d")
        self.frames.append(Frame(conn.number, "in", int(op or 0), None, None, d, time.monotonic()))
        if op == HEARTBEAT:
            if conn.barrier is not None and isinstance(d, int) and d >= conn.barrier:
                conn.synced = True
            if self.ack_heartbeats:
                await self._send(conn, HEARTBEAT_ACK, None)
        elif op == IDENTIFY:
            await self._identify(conn, d or {})
        elif op == RESUME:
            await self._resume(conn, d or {})
        else:
            log.warning("gateway connection %s sent op %s, which the fake gateway ignores", conn.number, op)

    async def _identify(self, conn: Connection, d: dict[str, Any]) -> None:
        if d.get("token") != self.server.token:
            await self._close(conn, 4004, "Authentication failed.")
            return
        shard_id, count = (d.get("shard") or [0, 1])[:2]
        if count != self.server.shard_count or not 0 <= shard_id < count:
            await self._close(conn, 4010, "Invalid shard.")
            return
        session = Session(secrets.token_hex(16), (shard_id, count), conn=conn)
        self.sessions[session.id] = session
        self.current[shard_id] = session
        conn.session = session
        guild = self.server.guild
        mine = guild.joined and self.shard_of(guild.id) == shard_id
        await self._dispatch(session, "READY", {
            "v": 10, "user": bot_self(), "session_id": session.id, "resume_gateway_url": self.url,
            "shard": [shard_id, count], "application": {"id": str(APP_ID), "flags": 1 << 23},
            "guilds": [{"id": str(guild.id), "unavailable": True}] if mine else [], "private_channels": [],
            "relationships": [], "presences": [], "user_settings": {}, "guild_join_requests": [],
            "geo_ordered_rtc_regions": [], "session_type": "normal", "_trace": ["fakediscord"]})
        if mine:
            await self._dispatch(session, "GUILD_CREATE", guild.create_data())
        await self._ask_heartbeat(conn, session)

    async def _resume(self, conn: Connection, d: dict[str, Any]) -> None:
        session = self.sessions.get(str(d.get("session_id")))
        if (not self.resumable or session is None or d.get("token") != self.server.token
                or self.current.get(session.shard[0]) is not session):
            await self._send(conn, INVALID_SESSION, False)
            return
        old = session.conn
        if old is not None and old is not conn and not old.closed:
            await self._close(old, 4000, "Replaced by a resumed connection.")
        session.conn = conn
        conn.session, conn.resumed = session, True
        after = int(d.get("seq") or 0)
        for seq, name, data in session.events:
            if seq > after:
                await self._send(conn, DISPATCH, data, name, seq)
        await self._dispatch(session, "RESUMED", {"_trace": ["fakediscord"]})
        await self._ask_heartbeat(conn, session)

    async def _ask_heartbeat(self, conn: Connection, session: Session) -> None:
        conn.barrier = session.seq
        await self._send(conn, HEARTBEAT, None)

    async def _dispatch(self, session: Session, name: str, data: Any) -> int:
        session.seq += 1
        session.events.append((session.seq, name, data))
        if session.conn is not None:
            await self._send(session.conn, DISPATCH, data, name, session.seq)
        return session.seq

    async def _close(self, conn: Connection, code: int, reason: str) -> None:
        conn.close_code = code
        if not conn.ws.closed:
            await conn.ws.close(code=code, message=reason.encode())

    # -- what tests call ------------------------------------------------------------------------
    def shard_of(self, guild_id: int) -> int:
        return (guild_id >> 22) % self.server.shard_count

    def live(self) -> list[Connection]:
        return [c for c in self.connections if not c.closed and c.session is not None]

    async def dispatch(self, name: str, data: Any, *, guild_id: int | None = None) -> int:
        """Send a dispatch event on the session of the guild's shard (shard 0 without a guild);
        without a live connection it waits in the session for RESUME. Returns its seq."""
        shard = self.shard_of(guild_id) if guild_id is not None else 0
        session = self.current.get(shard)
        if session is None:
            raise RuntimeError(f"the bot has no gateway session on shard {shard} (never identified)")
        return await self._dispatch(session, name, data)

    async def drop(self, code: int | None = 4000, *, reset: bool = False) -> int:
        """Close every live connection: with a close frame of `code`, or (code None) by closing
        the TCP connection without one (`reset`: with an RST). Returns how many were closed."""
        conns = [c for c in self.connections if not c.closed]
        for conn in conns:
            if code is not None:
                await self._close(conn, code, "fakediscord drop")
                continue
            transport = conn.request.transport
            if transport is None:
                continue
            if reset:
                sock = transport.get_extra_info("socket")
                if sock is not None:
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            transport.close() if reset else transport.abort()
            conn.closed = True
        return len(conns)

    async def sync(self, timeout: float = 10.0) -> None:
        """Ask every live connection for a heartbeat (op 1) and wait for the answers: a bot's
        heartbeat carries the last sequence number it received, and discord.py parses each
        dispatch before it reads the next frame, so once it comes every event sent before was
        handled by the bot's gateway parser (its cache knows the channel is gone, etc.)."""
        asked = []
        for conn in self.live():
            assert conn.session is not None
            asked.append((conn, conn.session.seq, len(self.frames)))
            await self._send(conn, HEARTBEAT, None)
        if not asked:
            raise RuntimeError("no live gateway connection to sync with")

        def answered() -> bool:
            return all(any(f.conn == conn.number and f.direction == "in" and f.op == HEARTBEAT
                           and isinstance(f.d, int) and f.d >= seq for f in self.frames[mark:])
                       for conn, seq, mark in asked)

        await self.server.wait_for(answered, timeout, "the bot's heartbeat after the events sent")

    async def request_reconnect(self) -> None:
        """op 7 RECONNECT on every live connection (the bot should close and RESUME)."""
        for conn in self.live():
            await self._send(conn, RECONNECT, None)

    async def invalidate(self, resumable: bool = False) -> None:
        """op 9 INVALID_SESSION on every live connection."""
        for conn in self.live():
            await self._send(conn, INVALID_SESSION, resumable)

    async def close_all(self) -> None:
        for conn in list(self.connections):
            if not conn.closed:
                await self._close(conn, 1001, "fakediscord stopping")
        await asyncio.sleep(0)

    def received(self, op: int, since_conn: int = 0) -> list[Frame]:
        """Frames of `op` the bot sent on connections numbered above `since_conn`."""
        return [f for f in self.frames if f.direction == "in" and f.op == op and f.conn > since_conn]
