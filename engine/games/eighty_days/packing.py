"""The suitcase: whether a multiset of items fits, and one packing of it.

The rulebook lets a player rearrange and remove items at any time, so the rule the engine
checks is only "the items fit". A suitcase is a grid (Jean's second suitcase is a small
grid to the right, one empty column apart, so one bitmask holds both). The search is
exact: it takes the lowest undecided cell and either covers it with a placement of some
remaining item (every rotation and reflection precomputed) or leaves it empty while there
is slack. Results are cached by (suitcase, item counts), so after warm-up a fit test in
`legal_actions` is one dictionary lookup.
"""

from __future__ import annotations

from .content import CHARACTERS, ITEMS, JEAN_CASE, SHAPES, SUITCASES

SIZES: tuple[int, ...] = tuple(len(s) for s in SHAPES)
Packing = tuple[tuple[int, int], ...]  # (item index, cell bitmask) per item


def _orientations(cells: tuple[tuple[int, int], ...]) -> list[tuple[tuple[int, int], ...]]:
    """Every rotation and reflection of a shape, normalised to the top-left, deduplicated."""
    out: set[tuple[tuple[int, int], ...]] = set()
    shape = list(cells)
    for _flip in range(2):
        for _turn in range(4):
            shape = [(c, -r) for r, c in shape]
            r0 = min(r for r, _ in shape)
            c0 = min(c for _, c in shape)
            out.add(tuple(sorted((r - r0, c - c0) for r, c in shape)))
        shape = [(r, -c) for r, c in shape]
    return sorted(out)


class Suitcase:
    """One suitcase outline with its placements indexed by their lowest cell."""

    def __init__(self, rows: tuple[str, ...]) -> None:
        self.rows = len(rows)
        self.cols = max(len(r) for r in rows)
        self.cells = [(r, c) for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "#"]
        self.mask = 0
        for r, c in self.cells:
            self.mask |= 1 << (r * self.cols + c)
        self.capacity = len(self.cells)
        #: by_low[item][lowest bit] -> placements (bitmasks) whose lowest cell is that bit
        self.by_low: list[dict[int, list[int]]] = []
        for shape in SHAPES:
            table: dict[int, list[int]] = {}
            for orient in _orientations(shape):
                for r in range(self.rows):
                    for c in range(self.cols):
                        m = 0
                        for dr, dc in orient:
                            rr, cc = r + dr, c + dc
                            if rr >= self.rows or cc >= self.cols:
                                m = -1
                                break
                            m |= 1 << (rr * self.cols + cc)
                        if m > 0 and m & self.mask == m:
                            table.setdefault(m & -m, []).append(m)
            self.by_low.append(table)
        self._cache: dict[tuple[int, ...], Packing | None] = {}
        #: placement -> its cells, as `cells_of` finds them (every view lists every packing)
        self._cells: dict[int, tuple[tuple[int, int], ...]] = {}

    def pack(self, counts: tuple[int, ...]) -> Packing | None:
        """A packing of these item counts, or None if they do not fit (cached)."""
        cache = self._cache
        if counts in cache:
            return cache[counts]
        need = sum(n * s for n, s in zip(counts, SIZES, strict=True))
        result: Packing | None = None
        if need <= self.capacity:
            found = self._search(self.mask, list(counts), self.capacity - need)
            result = tuple(found) if found is not None else None
        cache[counts] = result
        return result

    def fits(self, counts: tuple[int, ...]) -> bool:
        hit = self._cache.get(counts, 0)
        if hit != 0:
            return hit is not None
        return self.pack(counts) is not None

    def _search(self, free: int, counts: list[int], slack: int) -> list[tuple[int, int]] | None:
        if not any(counts):
            return []
        low = free & -free
        for item, n in enumerate(counts):
            if not n:
                continue
            for m in self.by_low[item].get(low, ()):
                if m & free == m:
                    counts[item] -= 1
                    rest = self._search(free ^ m, counts, slack)
                    counts[item] += 1
                    if rest is not None:
                        rest.append((item, m))
                        return rest
        if slack > 0:
            return self._search(free ^ low, counts, slack - 1)
        return None

    def cells_of(self, mask: int) -> list[list[int]]:
        """A placement's cells as [row, col] pairs, for drawing (a new list each time)."""
        found = self._cells.get(mask)
        if found is None:
            out = []
            bit, rest = 0, mask
            while rest:
                if rest & 1:
                    out.append((bit // self.cols, bit % self.cols))
                rest >>= 1
                bit += 1
            found = self._cells[mask] = tuple(out)
        return [[r, c] for r, c in found]

    def layout(self) -> dict[str, object]:
        return {"rows": self.rows, "cols": self.cols, "cells": [[r, c] for r, c in self.cells]}


def _with_jean(rows: tuple[str, ...]) -> tuple[str, ...]:
    """The character's suitcase with Jean's case to its right, one empty column apart."""
    width = max(len(r) for r in rows)
    height = max(len(rows), len(JEAN_CASE))
    out = []
    for r in range(height):
        main = rows[r] if r < len(rows) else ""
        extra = JEAN_CASE[r] if r < len(JEAN_CASE) else ""
        out.append(main.ljust(width, ".") + "." + extra)
    return tuple(out)


SUITCASE_OBJECTS: dict[tuple[str, bool], Suitcase] = {
    (ch, jean): Suitcase(_with_jean(SUITCASES[ch]) if jean else SUITCASES[ch])
    for ch in CHARACTERS for jean in (False, True)
}


def suitcase(character: str, jean: bool) -> Suitcase:
    return SUITCASE_OBJECTS[(character, jean)]


def packing_view(case: Suitcase, counts: tuple[int, ...]) -> list[dict[str, object]]:
    """The packing as placed cells per item (empty when the items do not fit)."""
    packing = case.pack(counts) or ()
    return [{"item": ITEMS[item], "cells": case.cells_of(mask)} for item, mask in sorted(packing)]
