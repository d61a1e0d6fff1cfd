"""Cheap board PNGs: map only what a turn drew, deflate only rows not seen before.

A board is its game's static layer (map, fixed labels; drawn once per language and size)
with a turn's things drawn inside known boxes. `StaticLayer` maps the static layer onto the
board's fixed palette once; a turn maps only its boxes (mapping without dithering is per
pixel, so this equals mapping the whole board) and `encode_indexed` writes the PNG.

zlib over the whole board was over half of a render, yet from one turn to the next (and
between tables in the same language) most bands of rows are the same bytes. Each band of
rows is deflated on its own (a fresh compressor, ending on a byte boundary), kept by its
bytes, and the pieces are joined into one valid zlib stream: a decoder sees the same pixels
as from any PNG writer. First made for the eighty-days board, now shared by every board.

The caches are per process: boards render in worker threads (one lock) or worker processes
(a forked child starts with empty caches and a fresh lock, see `_after_fork`).
"""

from __future__ import annotations

import os
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Iterable

from PIL import Image

Box = tuple[int, int, int, int]

#: rows per deflated band: small enough that a moved pawn or a new route touches few bands,
#: big enough (about 29 KB of a full-width board) that resetting the dictionary costs little size
BAND_ROWS = 16
#: deflate level of a band, chosen by measurement: a board whose bands are all new (a table's
#: first board, the p95 of a busy server) costs about half as much at 3 as at 5 (zlib's fast
#: strategy ends at 3: rails 19 against 32 ms, around-the-world 13 against 23 ms) for 7-15 %
#: more bytes (rails 295 KB, far below the 500 KB limit); 1 and 2 save little more time
LEVEL = 3
#: bands kept (about 29 KB each as key): a few boards' worth, for several tables at once
CACHE_BANDS = 1200

#: (row width, band bytes) -> (its deflated rows, the Adler-32 and length of those rows before
#: deflating); the width is part of the key, as the same bytes cut into rows of another width
#: (a hand's band and a board's shorter last band) deflate differently
_bands: OrderedDict[tuple[int, bytes], tuple[bytes, int, int]] = OrderedDict()
_BASE = 65521
_lock = threading.Lock()


def _after_fork() -> None:
    """A forked render worker starts with its own empty cache and an unheld lock (the parent's
    lock may have been held by another thread at the moment of the fork)."""
    global _lock
    _lock = threading.Lock()
    _bands.clear()


os.register_at_fork(after_in_child=_after_fork)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _deflate(band: bytes, width: int) -> tuple[bytes, int, int]:
    """One band as raw deflate blocks, each row behind its filter byte 0 (none, the best
    filter for palette images), ending byte-aligned without a final block."""
    rows = b"".join(b"\0" + band[i:i + width] for i in range(0, len(band), width))
    compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
    return compressor.compress(rows) + compressor.flush(zlib.Z_FULL_FLUSH), zlib.adler32(rows), len(rows)


def _adler_combine(a: int, b: int, length_b: int) -> int:
    """Adler-32 of two pieces joined, from theirs (zlib's `adler32_combine`), so a stored
    band is never read again just for the checksum."""
    rem = length_b % _BASE
    sum1 = a & 0xFFFF
    sum2 = (rem * sum1) % _BASE
    sum1 = (sum1 + (b & 0xFFFF) + _BASE - 1) % _BASE
    sum2 = (sum2 + (a >> 16) + (b >> 16) + _BASE - rem) % _BASE
    return sum1 | (sum2 << 16)


def _band(band: bytes, width: int) -> tuple[bytes, int, int]:
    """The deflated band, from the cache or made now."""
    key = (width, band)
    with _lock:
        stored = _bands.get(key)
        if stored is not None:
            _bands.move_to_end(key)
            return stored
    stored = _deflate(band, width)
    with _lock:
        _bands[key] = stored
        if len(_bands) > CACHE_BANDS:
            _bands.popitem(last=False)
    return stored


def encode_indexed(raw: bytes, width: int, palette: list[int]) -> bytes:
    """PNG bytes of palette indices (`raw`, rows of `width` bytes) and their RGB palette,
    reusing the deflated bands seen before."""
    step = width * BAND_ROWS
    bands = [_band(raw[start:start + step], width) for start in range(0, len(raw), step)]
    return _png(bands, width, len(raw) // width, palette)


def _png(bands: list[tuple[bytes, int, int]], width: int, height: int, palette: list[int]) -> bytes:
    """The PNG file around the deflated bands (one zlib stream, its checksum combined)."""
    pieces = [b"\x78\x9c"]
    adler = 1
    for deflated, band_adler, length in bands:
        pieces.append(deflated)
        adler = _adler_combine(adler, band_adler, length)
    pieces.append(b"\x03\x00" + struct.pack(">I", adler))  # an empty final block, the checksum
    palette = palette[:768] + [0] * (768 - len(palette))
    return (b"\x89PNG\r\n\x1a\n"
            + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0))
            + _chunk(b"PLTE", bytes(palette))
            + _chunk(b"IDAT", b"".join(pieces))
            + _chunk(b"IEND", b""))


def _merged(boxes: Iterable[Box], width: int, height: int) -> list[Box]:
    """The boxes clipped to the image (right and bottom taken as inclusive, then widened to
    whole pixels) and joined where their rows overlap, into rectangles covering them all."""
    clipped = sorted((max(int(b[1]), 0), min(int(b[3]) + 1, height), max(int(b[0]), 0), min(int(b[2]) + 1, width))
                     for b in boxes)
    out: list[Box] = []
    for top, bottom, left, right in clipped:
        if left >= right or top >= bottom:
            continue
        if out and top < out[-1][3]:
            last = out[-1]
            out[-1] = (min(last[0], left), last[1], max(last[2], right), max(last[3], bottom))
        else:
            out.append((left, top, right, bottom))
    return out


def encode_mapped(image: Image.Image, palette: Image.Image) -> bytes:
    """PNG bytes of `image` mapped onto the fixed `palette` without dithering (the boards'
    rule), written by `encode_indexed`: for boards without a `StaticLayer`."""
    indexed = image.quantize(palette=palette, dither=Image.Dither.NONE)
    return encode_indexed(indexed.tobytes(), image.width, palette.getpalette() or [])


def _write(dirty: dict[int, bytearray], bands: list[bytes], part: bytes, box: Box, width: int) -> None:
    """Palette indices `part` (the rectangle `box`) written into the bands they cover, each
    band copied from `bands` into `dirty` on first touch."""
    left, top, right, bottom = box
    w = right - left
    for b in range(top // BAND_ROWS, (bottom - 1) // BAND_ROWS + 1):
        band = dirty.get(b)
        if band is None:
            band = dirty[b] = bytearray(bands[b])
        first, last = max(top, b * BAND_ROWS), min(bottom, (b + 1) * BAND_ROWS)
        if w == width:  # whole rows: one copy per band
            at = (first - b * BAND_ROWS) * width
            band[at:at + (last - first) * width] = part[(first - top) * w:(last - top) * w]
            continue
        for row in range(first, last):
            at = (row - b * BAND_ROWS) * width
            band[at + left:at + right] = part[(row - top) * w:(row - top + 1) * w]


class StaticLayer:
    """A board's static layer mapped onto the board's fixed palette once, band by band, each
    band deflated once too: a turn then maps only the boxes it drew in, and only the bands
    those touch are looked up in (or added to) the band cache (`encode`)."""

    def __init__(self, image: Image.Image, palette: Image.Image) -> None:
        self.width, self.height = image.size
        self.palette = palette
        self.palette_rgb = palette.getpalette() or []
        indexed = image.quantize(palette=palette, dither=Image.Dither.NONE).tobytes()
        step = self.width * BAND_ROWS
        self.bands = [indexed[start:start + step] for start in range(0, len(indexed), step)]
        self._deflated: list[tuple[bytes, int, int] | None] = [None] * len(self.bands)

    def map(self, board: Image.Image, boxes: Iterable[Box]) -> dict[int, bytearray]:
        """The bands of palette indices that `board` (the static layer with things drawn only
        inside `boxes`) changes, by band number: the layer's own band with the boxes mapped
        afresh. Boxes whose rows overlap are mapped as one rectangle (a few conversions
        instead of one per box), one wider than half the board as whole rows."""
        width = self.width
        dirty: dict[int, bytearray] = {}
        for left, top, right, bottom in _merged(boxes, width, self.height):
            if 2 * (right - left) > width:
                left, right = 0, width
            part = board.crop((left, top, right, bottom)).quantize(palette=self.palette,
                                                                   dither=Image.Dither.NONE).tobytes()
            _write(dirty, self.bands, part, (left, top, right, bottom), width)
        return dirty

    def derive(self, parts: Iterable[tuple[Box, Image.Image]]) -> StaticLayer:
        """A new layer: this one with each part (an RGB image and the box it covers, inside
        the layer) mapped over it. Bands no part touches are shared with this layer, their
        deflated bytes too, so a layer that changes a little between turns (the claimed
        routes of a game) costs only what changed."""
        new = object.__new__(StaticLayer)
        new.width, new.height, new.palette, new.palette_rgb = self.width, self.height, self.palette, self.palette_rgb
        new.bands = list(self.bands)
        new._deflated = list(self._deflated)
        dirty: dict[int, bytearray] = {}
        for (left, top, right, bottom), image in parts:
            part = image.quantize(palette=self.palette, dither=Image.Dither.NONE).tobytes()
            _write(dirty, new.bands, part, (left, top, right, bottom), self.width)
        for b, band in dirty.items():
            new.bands[b] = bytes(band)
            new._deflated[b] = None
        return new

    def _static_band(self, b: int) -> tuple[bytes, int, int]:
        stored = self._deflated[b]
        if stored is None:
            stored = self._deflated[b] = _deflate(self.bands[b], self.width)
        return stored

    def encode(self, board: Image.Image, boxes: Iterable[Box]) -> bytes:
        """PNG bytes of `board`, drawn on this layer inside `boxes` only."""
        dirty = self.map(board, boxes)
        bands = [_band(bytes(dirty[b]), self.width) if b in dirty else self._static_band(b)
                 for b in range(len(self.bands))]
        return _png(bands, self.width, self.height, self.palette_rgb)
