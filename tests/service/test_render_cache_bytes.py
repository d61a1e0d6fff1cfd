"""The asked-for images kept in the bot's process (`bot.images.cache.RenderCache`) stay within
their bytes, the least recently used going first, and are shared while being made."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from bot.images.cache import RenderCache


async def test_kept_images_stay_within_their_bytes_least_recently_used_out() -> None:
    cache = RenderCache(max_bytes=250)
    made: list[str] = []

    def maker(key: str, size: int) -> Callable[[], Awaitable[bytes]]:
        async def make() -> bytes:
            made.append(key)
            return b"x" * size
        return make

    for key in ("a", "b"):
        await cache.get(key, maker(key, 100))
    await cache.get("a", maker("a", 100))  # a is now the most recently used
    await cache.get("c", maker("c", 100))  # over 250: b goes
    assert made == ["a", "b", "c"]
    await cache.get("a", maker("a", 100))
    await cache.get("b", maker("b", 100))
    assert made == ["a", "b", "c", "b"]
    await cache.get("huge", maker("huge", 1000))  # larger than the whole cache: not kept
    await cache.get("huge", maker("huge", 1000))
    assert made.count("huge") == 2


async def test_one_image_is_made_once_for_callers_at_the_same_time() -> None:
    cache = RenderCache(max_bytes=0)
    made = 0

    async def make() -> bytes:
        nonlocal made
        made += 1
        await asyncio.sleep(0.01)
        return b"png"

    results = await asyncio.gather(*(cache.get("k", make) for _ in range(5)))
    assert results == [b"png"] * 5 and made == 1
