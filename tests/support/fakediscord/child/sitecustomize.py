"""Test-only: points the bot process at the fake Discord, without touching the bot.

`BotProcess` puts this folder first on the child's PYTHONPATH, so Python imports this module
at start-up. With FAKE_DISCORD_URL set (it must be an http URL on a loopback address) it:

- sets discord.py's REST base, `discord.http.Route.BASE` (the interaction webhooks in
  `discord.webhook.async_` build their URLs with that same `Route` class), to
  FAKE_DISCORD_URL/api/v10, and the default gateway, `discord.gateway.DiscordWebSocket
  .DEFAULT_GATEWAY` (used when SHARD_COUNT is set, and after an invalidated session), to
  its /gateway; /gateway/bot and READY's resume_gateway_url name the fake one anyway;
- refuses, in this process, any socket connect() to an address that is not loopback and any
  name lookup other than localhost, so a mistake can never reach the real Discord (or
  anything else) with the test's token.

Without FAKE_DISCORD_URL it does nothing.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import sys
from typing import Any
from urllib.parse import urlsplit

_LOCAL_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost")


def _loopback(host: Any) -> bool:
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if not isinstance(host, str):
        return False
    if host.lower() in _LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def _guard_sockets() -> None:
    """Loopback only: a connect to anything else raises PermissionError, a lookup of any
    other name raises socket.gaierror."""
    real_getaddrinfo = socket.getaddrinfo
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host is not None and not _loopback(host):
            raise socket.gaierror(socket.EAI_NONAME, f"fakediscord: no lookups of {host!r} in tests")
        return real_getaddrinfo(host, *args, **kwargs)

    def check(sock: socket.socket, address: Any) -> None:
        if sock.family in (socket.AF_INET, socket.AF_INET6) and not _loopback(address[0]):
            raise PermissionError(f"fakediscord: connecting to {address!r} is not allowed in tests")

    def connect(self: socket.socket, address: Any) -> None:
        check(self, address)
        real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        check(self, address)
        return real_connect_ex(self, address)

    socket.getaddrinfo = getaddrinfo
    socket.socket.connect = connect  # type: ignore[method-assign,assignment]  # the guard wraps the real one
    socket.socket.connect_ex = connect_ex  # type: ignore[method-assign,assignment]


def _point_discord_py(url: str) -> None:
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = f"{url}/api/v{discord.http.INTERNAL_API_VERSION}"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url.replace("http://", "ws://", 1) + "/gateway")


def _install() -> None:
    url = os.environ.get("FAKE_DISCORD_URL", "").rstrip("/")
    if not url:
        return
    parts = urlsplit(url)
    if parts.scheme != "http" or not _loopback(parts.hostname) or parts.path:
        sys.exit(f"fakediscord sitecustomize: FAKE_DISCORD_URL={url!r} is not http://<loopback address>:<port>")
    _guard_sockets()
    _point_discord_py(url)


_install()
