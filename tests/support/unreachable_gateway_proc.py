"""`python -m bot` whose Discord answers the login but whose gateway is an unreachable loopback
port (127.0.0.1:1): the bot logs in, opens its store and retries its shard's connection every
few seconds, as it does while Discord's gateway is down. tests/adapters/test_graceful_stop.py
stops it there with SIGTERM or SIGINT.

    python -m tests.support.unreachable_gateway_proc      # with DISCORD_TOKEN, DATABASE_URL set
"""

from __future__ import annotations

import sys
from typing import Any

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import HTTPClient, Route

GATEWAY = "ws://127.0.0.1:1"
BOT_USER = {"id": "1290000000000000001", "username": "passepartout", "global_name": "Passepartout",
            "discriminator": "0", "avatar": None, "bot": True, "verified": True, "mfa_enabled": False, "flags": 0,
            "public_flags": 0}


async def _request(self: HTTPClient, route: Route, **kwargs: Any) -> Any:
    """Discord's REST answers for a login and the gateway's address; nothing else is expected."""
    if route.method == "GET" and route.path == "/users/@me":
        return BOT_USER
    if route.method == "GET" and route.path == "/oauth2/applications/@me":
        return {"id": BOT_USER["id"], "name": "Passepartout", "description": "", "icon": None, "bot_public": True,
                "bot_require_code_grant": False, "owner": {**BOT_USER, "bot": False}, "verify_key": "0" * 64,
                "flags": 0}
    if route.method == "GET" and route.path == "/gateway/bot":
        return {"url": GATEWAY, "shards": 1,
                "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}}
    raise AssertionError(f"unexpected request {route.method} {route.path}")


HTTPClient.request = _request  # type: ignore[method-assign]
# a process given SHARD_COUNT asks for no gateway address and uses this one
DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(GATEWAY)

if __name__ == "__main__":
    from bot.__main__ import main

    raise SystemExit(main(sys.argv[1:]))
