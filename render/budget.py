"""How many bytes each picture cache of a drawing process may hold (a render worker, or the
bot itself when it draws in threads).

Every cache that grows with the tables or the languages a process draws for is bounded in
bytes and drops its least recently used entries first; their sum is `RENDER_CACHE_MB`
(`configure`), split in the proportions of `DEFAULTS_MB` below. Caches bounded by the game's own content
(a route's sprites, kept deflated: see `render.packed`) are listed in docs/operations.md
with their size.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Hashable, Iterator, MutableMapping
from typing import Any, TypeVar

from cachetools import LRUCache, cached
from cachetools.keys import hashkey
from PIL import Image

#: each cache's bytes by default (MB), where each saves the most CPU per byte on the mix of
#: the burst benchmark (bench/bench_burst.py --game mix); `RENDER_CACHE_MB` scales them all
#: - layers: the static layers (map, routes, names, panel chrome) of every game in a
#:   language, whole: about 42 MB a language (around-the-world 12, eighty-days 12.5,
#:   rails-and-sails 10, detour 7); every board starts from one and rebuilding one costs
#:   0.2-1 s, so the default holds the three languages the bot speaks (a budget below what
#:   the languages in play need rebuilds layers all the time: boards get slow)
#: - kept.<game>: the tables' kept layers (claimed routes, panels: only the bands they
#:   changed, deflated: 0.1-1.7 MB a table); a table whose layer went draws its next board
#:   afresh (its first board's cost)
#: - bands: deflated bands of the PNG encoder (about 4 KB each: headers, panels, legends that
#:   tables share); inflated: bands a table's next board derives from, kept inflated
#: - sprites: recently pasted sprites whole (their deflated copies stay: `render.packed`)
#: - text: rasterised texts (names, numbers, labels: about 0.75 KB each), which come back
#:   every turn
#: The table parts were sized on the 200-channel burst of the mix (two workers, about 25
#: tables of each game a worker): around-the-world's kept layers from 6 to 20 MB gave 10 %
#: more turns a second for 20 MB of the whole bot's peak PSS (a table's kept panel layer
#: spares it most of a board); 26 / 10 / 6 / 4 MB gave nothing more for another 13 MB.
DEFAULTS_MB: dict[str, float] = {
    "layers": 128.0,
    "kept.rails-and-sails": 8.0,
    "kept.around-the-world": 20.0,
    "bands": 6.0,
    "inflated": 4.0,
    "sprites": 3.0,
    "text": 4.0,
}
#: a render process's picture caches together, by default (MB)
DEFAULT_MB = sum(DEFAULTS_MB.values())

_total_bytes = int(DEFAULT_MB * (1 << 20))
_caches: dict[str, LRUCache[Any, Any]] = {}
#: the emptying functions of the caches kept outside this module, by their part's name
_emptiers: dict[str, list[Callable[[], None]]] = {}
#: the parts that hold what a table drew (its kept layers, its bands, its sprites): what a
#: warm-up's sample tables leave there pays for no real table (`forget`)
TABLES = ("kept.rails-and-sails", "kept.around-the-world", "inflated", "sprites")

T = TypeVar("T")


def configure(megabytes: float) -> None:
    """Sets the whole budget (`RENDER_CACHE_MB`): every cache is emptied and bounded anew (a
    process sets it once, before it draws)."""
    global _total_bytes
    _total_bytes = max(1, int(megabytes * (1 << 20)))
    for name in list(_caches):
        _caches[name] = _new(name)
    for hooks in _emptiers.values():
        for hook in hooks:
            hook()


def forget(names: tuple[str, ...] = TABLES) -> None:
    """Empties the caches of these parts (by default what tables drew: after the warm-up)."""
    for name in names:
        if name in _caches:
            _caches[name].clear()
        for hook in _emptiers.get(name, []):
            hook()


def total_bytes() -> int:
    return _total_bytes


def limit(name: str) -> int:
    """The bytes the cache `name` may hold: its default, scaled by the whole budget."""
    return max(1, int(_total_bytes * DEFAULTS_MB[name] / DEFAULT_MB))


def emptied_by(name: str, hook: Callable[[], None]) -> None:
    """`hook` empties a cache of the part `name` kept outside this module: called when the
    budget is set anew (`configure`) and when that part is emptied (`forget`)."""
    _emptiers.setdefault(name, []).append(hook)


class _SharedLRU(LRUCache[Hashable, Any]):
    """A byte-bounded LRU cache whose every operation holds one lock: boards render in threads
    of one process when the bot has no render processes, and two threads evicting at once
    broke the cache's order (a lookup also moves its entry)."""

    def __init__(self, maxsize: int) -> None:
        super().__init__(maxsize=maxsize, getsizeof=nbytes)
        self.lock = threading.RLock()

    def __getitem__(self, key: Hashable) -> Any:
        with self.lock:
            return super().__getitem__(key)

    def __setitem__(self, key: Hashable, value: Any) -> None:
        with self.lock:
            super().__setitem__(key, value)

    def __delitem__(self, key: Hashable) -> None:
        with self.lock:
            super().__delitem__(key)

    def __contains__(self, key: object) -> bool:
        with self.lock:
            return super().__contains__(key)

    def get(self, key: Hashable, default: Any = None) -> Any:
        with self.lock:
            return super().get(key, default)

    def popitem(self) -> tuple[Hashable, Any]:
        with self.lock:
            return super().popitem()

    def clear(self) -> None:
        with self.lock:
            super().clear()


def _new(name: str) -> LRUCache[Any, Any]:
    return _SharedLRU(limit(name))


def _after_fork() -> None:
    """A forked render worker starts with unheld locks (another thread may have held one)."""
    for found in _caches.values():
        if isinstance(found, _SharedLRU):
            found.lock = threading.RLock()


os.register_at_fork(after_in_child=_after_fork)


def cache(name: str) -> LRUCache[Any, Any]:
    """The byte-bounded LRU cache `name` of this process (one of `DEFAULTS_MB`)."""
    found = _caches.get(name)
    if found is None:
        found = _caches[name] = _new(name)
    return found


class _Named(MutableMapping[Hashable, Any]):
    """The cache `name` as `cachetools.cached` sees it: looked up at each call, so `configure`
    can replace it."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __getitem__(self, key: Hashable) -> Any:
        return cache(self.name)[key]

    def __setitem__(self, key: Hashable, value: Any) -> None:
        cache(self.name)[key] = value  # ValueError when larger than the whole cache: not kept

    def __delitem__(self, key: Hashable) -> None:
        del cache(self.name)[key]

    def __iter__(self) -> Iterator[Hashable]:
        return iter(cache(self.name))

    def __len__(self) -> int:
        return len(cache(self.name))


def memoized(name: str, by: Callable[..., Hashable] | None = None) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """A decorator: the function's results kept in the cache `name`, keyed by its arguments,
    or by what `by(*args)` gives (`functools.lru_cache` bounded in bytes instead of entries).
    The function's name is part of the key, as several functions share a cache."""
    def decorate(fn: Callable[..., T]) -> Callable[..., T]:
        tag = fn.__module__ + "." + fn.__qualname__

        def key(*args: Any, **kwargs: Any) -> tuple[Hashable, ...]:
            return (tag, by(*args, **kwargs)) if by is not None else (tag, *hashkey(*args, **kwargs))

        wrapped: Callable[..., T] = cached(_Named(name), key=key)(fn)
        return wrapped
    return decorate


def nbytes(value: Any) -> int:
    """The memory a cached value holds, roughly: its pictures' pixels, its bytes, a static
    layer's bands (`render.png.StaticLayer.nbytes`), summed over tuples and lists."""
    if isinstance(value, Image.Image):
        return value.width * value.height * _PIXEL_BYTES.get(value.mode, 4)
    size, mode = getattr(value, "size", None), getattr(value, "mode", None)
    if isinstance(size, tuple) and isinstance(mode, str):  # a picture's core (a text's mask)
        return int(size[0]) * int(size[1]) * _PIXEL_BYTES.get(mode, 4)
    if isinstance(value, bytes | bytearray):
        return len(value)
    if isinstance(value, tuple | list):
        return 64 + sum(nbytes(v) for v in value)
    size = getattr(value, "nbytes", None)
    if isinstance(size, int):
        return size
    if callable(size):
        result: int = size()
        return result
    return 64


#: bytes a pixel takes in Pillow's memory, by mode (RGB is stored in four)
_PIXEL_BYTES = {"1": 1, "L": 1, "P": 1, "LA": 4, "RGB": 4, "RGBA": 4, "I": 4, "F": 4}
