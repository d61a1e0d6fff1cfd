"""Faults the fake Discord serves instead of (or after) the normal answer to a request.

A test queues faults per route (`method` + a regex over the path below /api/v10, e.g.
`r"/channels/\\d+/messages"`); each matching request takes the next fault of the first rule
that still has one, and a rule with none left lets requests through. Every fault served is
counted on its rule, so a test can say "the 500 was served once and then the post went through".

    rule = fd.inject("POST", r"/channels/\\d+/messages", Fault.status(500))
    ...
    assert rule.count == 1
"""

from __future__ import annotations

import asyncio
import re
from collections import deque
from dataclasses import dataclass, field
from typing import Literal

#: Discord's JSON error codes for the statuses tests inject most
#: (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json)
ERRORS: dict[int, tuple[int, str]] = {
    400: (50035, "Invalid Form Body"),
    401: (0, "401: Unauthorized"),
    403: (50013, "Missing Permissions"),
    404: (10003, "Unknown Channel"),
    500: (0, "500: Internal Server Error"),
    502: (0, "502: Bad Gateway"),
    503: (0, "503: Service Unavailable"),
    504: (0, "504: Gateway Timeout"),
}
MISSING_ACCESS = (50001, "Missing Access")
MISSING_PERMISSIONS = (50013, "Missing Permissions")
UNKNOWN_CHANNEL = (10003, "Unknown Channel")
UNKNOWN_MESSAGE = (10008, "Unknown Message")
UNKNOWN_WEBHOOK = (10015, "Unknown Webhook")
UNKNOWN_INTERACTION = (10062, "Unknown interaction")
ALREADY_ACKNOWLEDGED = (40060, "Interaction has already been acknowledged.")
CANNOT_DM = (50007, "Cannot send messages to this user")
THREAD_ARCHIVED = (50083, "Thread is archived")

Kind = Literal["status", "ratelimit", "hang", "drop", "reset"]
#: the longest any hang lasts, released or not: every wait in these tests is bounded
MAX_HANG = 120.0


@dataclass(frozen=True)
class Fault:
    """One wrong answer. `processed`: the request takes effect first (a message is posted and
    shows in the channel) and only the answer is lost or replaced, as when Discord stored a
    message but the response never reached the bot."""

    kind: Kind
    status: int = 0
    code: int = 0
    message: str = ""
    retry_after: float = 0.0
    is_global: bool = False
    #: a 429 that Cloudflare sent (no `Via` header, an HTML body): discord.py does not retry it
    cloudflare: bool = False
    seconds: float | None = None  # hang: how long; None until the rule is released
    processed: bool = False

    @classmethod
    def error(cls, status: int, code: int | None = None, message: str | None = None, *,
              processed: bool = False) -> Fault:
        """Status `status` with Discord's error JSON (`{"code": ..., "message": ...}`)."""
        default_code, default_message = ERRORS.get(status, (0, f"{status}: Error"))
        return cls("status", status=status, code=default_code if code is None else code,
                   message=default_message if message is None else message, processed=processed)

    @classmethod
    def missing_permissions(cls) -> Fault:
        return cls.error(403, *MISSING_PERMISSIONS)

    @classmethod
    def missing_access(cls) -> Fault:
        return cls.error(403, *MISSING_ACCESS)

    @classmethod
    def unknown_channel(cls) -> Fault:
        return cls.error(404, *UNKNOWN_CHANNEL)

    @classmethod
    def rate_limited(cls, retry_after: float, *, is_global: bool = False, cloudflare: bool = False) -> Fault:
        """429 with `retry_after` in the body and the X-RateLimit-* headers Discord sends."""
        return cls("ratelimit", status=429, retry_after=retry_after, is_global=is_global, cloudflare=cloudflare,
                   message="You are being rate limited.")

    @classmethod
    def hang(cls, seconds: float | None = None, *, processed: bool = False) -> Fault:
        """No answer for `seconds` (None: until `rule.release()` or the server stops; at most
        MAX_HANG), then the normal answer: a slow Discord. (The bot's HTTP session gives up
        only after aiohttp's default 300 s; queue `drop` after a hang to lose the answer.)"""
        return cls("hang", seconds=seconds, processed=processed)

    @classmethod
    def drop(cls, *, processed: bool = False) -> Fault:
        """The request is read, then the TCP connection is closed without an answer (FIN)."""
        return cls("drop", processed=processed)

    @classmethod
    def reset(cls, *, processed: bool = False) -> Fault:
        """The request is read, then the TCP connection is reset (RST: SO_LINGER 0)."""
        return cls("reset", processed=processed)


@dataclass
class Served:
    fault: Fault
    method: str
    path: str
    seq: int  # the recorded request's seq


@dataclass
class FaultRule:
    method: str  # "*" matches every method
    pattern: re.Pattern[str]
    queue: deque[Fault]
    #: once the queue is empty, serve this fault on every further match (None: let them through)
    then: Fault | None = None
    served: list[Served] = field(default_factory=list)
    released: asyncio.Event = field(default_factory=asyncio.Event)

    def matches(self, method: str, path: str) -> bool:
        return self.method in ("*", method) and self.pattern.fullmatch(path) is not None

    def take(self) -> Fault | None:
        if self.queue:
            return self.queue.popleft()
        return self.then

    @property
    def count(self) -> int:
        """How many times a fault of this rule was served."""
        return len(self.served)

    @property
    def pending(self) -> int:
        return len(self.queue)

    def release(self) -> None:
        """End every hang of this rule now (those waiting and those still queued)."""
        self.released.set()

    def stop(self) -> None:
        """Serve nothing more: empty the queue, forget `then`, release hangs."""
        self.queue.clear()
        self.then = None
        self.released.set()


class Faults:
    """The rules of one fake Discord, in the order they were added."""

    def __init__(self) -> None:
        self.rules: list[FaultRule] = []

    def add(self, method: str, path: str, *faults: Fault, then: Fault | None = None) -> FaultRule:
        rule = FaultRule(method.upper(), re.compile(path), deque(faults), then)
        self.rules.append(rule)
        return rule

    def take(self, method: str, path: str) -> tuple[FaultRule, Fault] | None:
        for rule in self.rules:
            if rule.matches(method, path):
                fault = rule.take()
                if fault is not None:
                    return rule, fault
        return None

    def release_all(self) -> None:
        for rule in self.rules:
            rule.release()

    def clear(self) -> None:
        for rule in self.rules:
            rule.stop()
        self.rules.clear()
