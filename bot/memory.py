"""Freed memory goes back to the system: what a long-running process of the bot does when idle.

A board is drawn in images of 1-6 MB that live for one render. glibc serves them from its
heap once its mmap threshold has grown past their size, and keeps the freed holes: a render
worker that had drawn one board of each game held about 225 MB, 80 MB of it such holes.
`malloc_trim` gives the free pages back (3-15 ms); pinning the mmap threshold instead would
map and fault in every image afresh, which doubled the CPU of a board. Elsewhere than glibc
(musl, macOS) there is nothing to trim and nothing changes."""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from collections.abc import Callable


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        trim = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = (ctypes.c_size_t,)
    trim.restype = ctypes.c_int
    result: Callable[[int], int] = trim
    return result


def trim() -> bool:
    """Give the allocator's free pages back to the system; False where that cannot be done."""
    malloc_trim = _malloc_trim()
    if malloc_trim is None:
        return False
    malloc_trim(0)
    return True
