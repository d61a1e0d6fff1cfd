"""Sprites kept deflated: a route's claimed sprite in each player's colour, its veil, its
highlight frames are drawn once per process (2-3 ms each) and pasted on many boards, but
whole they took 40 MB of every render worker (650 RGBA sprites, mostly transparent).
Deflated they take a tenth, and inflating one costs about 0.15 ms; the ones pasted lately
stay whole too, within the `sprites` part of the budget (`render.budget`).
"""

from __future__ import annotations

import contextlib
import zlib
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

from PIL import Image

from render import budget

#: a sprite at its place: the left and top pixel where it is pasted, and the picture
Piece = tuple[int, int, Image.Image]
K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Packed:
    """A picture's pixels deflated (zlib level 1: quick, and a sprite's runs of transparency
    deflate as well as at higher levels)."""

    mode: str
    size: tuple[int, int]
    data: bytes

    @classmethod
    def of(cls, image: Image.Image) -> Packed:
        return cls(image.mode, image.size, zlib.compress(image.tobytes(), 1))

    def image(self) -> Image.Image:
        return Image.frombytes(self.mode, self.size, zlib.decompress(self.data))


class Sprites(Generic[K]):
    """Pieces by key, each kept deflated for good (a game's sprites are bounded by its map)
    and whole while recently used (`sprites` budget, shared by every store)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._packed: dict[K, tuple[tuple[int, int, Packed], ...]] = {}

    def get(self, key: K) -> list[Piece] | None:
        hot = budget.cache("sprites")
        whole: list[Piece] | None = hot.get((self.name, key))
        if whole is not None:
            return whole
        packed = self._packed.get(key)
        if packed is None:
            return None
        whole = [(x, y, p.image()) for x, y, p in packed]
        self._keep(key, whole)
        return whole

    def put(self, key: K, pieces: list[Piece]) -> list[Piece]:
        self._packed[key] = tuple((x, y, Packed.of(image)) for x, y, image in pieces)
        self._keep(key, pieces)
        return pieces

    def _keep(self, key: K, pieces: list[Piece]) -> None:
        with contextlib.suppress(ValueError):  # larger than the whole budget: inflated at each use
            budget.cache("sprites")[(self.name, key)] = pieces

    def __contains__(self, key: K) -> bool:
        return key in self._packed

    def __len__(self) -> int:
        return len(self._packed)

    def nbytes(self) -> int:
        """The deflated bytes held (the whole ones count in the budget)."""
        return sum(len(p.data) for pieces in self._packed.values() for _x, _y, p in pieces)

    def clear(self) -> None:
        self._packed.clear()
