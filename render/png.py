"""Cheap board PNGs: map only what a turn drew, deflate only rows not seen before.

A board is its game's static layer (map, fixed labels; drawn once per language and size)
with a turn's things drawn inside known boxes. `StaticLayer` maps the static layer onto the
board's fixed palette once; a turn maps only its boxes (mapping without dithering is per
pixel, so this equals mapping the whole board) and `encode_indexed` writes the PNG.

zlib over the whole board was over half of a render, yet from one turn to the next (and
between tables in the same language) most bands of rows are the same bytes. Each band of
rows is deflated on its own (a fresh compressor, ending on a byte boundary), kept by a
digest of its bytes, and the pieces are joined into one valid zlib stream: a decoder sees the
same pixels as from any PNG writer. First made for the eighty-days board, now shared by every
board.

A layer derived from another (`StaticLayer.derive`: the rails board's claimed routes, one per
table) keeps only the bands it changed, and of those only the deflated form once it has it:
a worker keeps hundreds of tables' layers in a few hundred KB each, where the raw bands were
about 2 MB a table (and the RGB image beside them 6 MB). A band needed raw again (to map a
turn's boxes into, or to derive from) is inflated, which is several times cheaper than
deflating it.

The caches are per process: boards render in worker threads (one lock) or worker processes
(a forked child starts with empty caches and a fresh lock, see `_after_fork`).
"""

from __future__ import annotations

import os
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable

import xxhash
from PIL import Image

from render import budget

Box = tuple[int, int, int, int]

#: rows per deflated band: small enough that a moved pawn or a new route touches few bands,
#: big enough (about 29 KB of a full-width board) that resetting the dictionary costs little size
BAND_ROWS = 16
#: deflate level and strategy of a band, chosen by measurement: a board whose bands are all new
#: (a table's first board, the p95 of a busy server) costs about half as much at 3 as at 5
#: (rails 19 against 32 ms, around-the-world 13 against 23 ms) for 7-15 % more bytes, and run
#: lengths only (`Z_RLE`: palette boards are mostly runs of one index) cost 35-40 % less again
#: than level 3 for 1-11 % more bytes (rails 295 against 291 KB, around-the-world 166 against
#: 149, far below the 500 KB limit)
LEVEL = 3
STRATEGY = zlib.Z_RLE
#: bands kept (a digest as key, the deflated rows as value: about 4 KB each): the bands a
#: worker's tables draw turn after turn (headers, panels, legends), within the `bands` part
#: of the render budget (`render.budget`)

#: (row width, digest of the band's bytes) -> (its deflated rows, the Adler-32 and length of
#: those rows before deflating); the width is part of the key, as the same bytes cut into rows
#: of another width (a hand's band and a board's shorter last band) deflate differently
_bands: OrderedDict[tuple[int, bytes], tuple[bytes, int, int]] = OrderedDict()
_BASE = 65521
_lock = threading.Lock()
_bands_bytes = 0
#: the bands `_inflate` gave last, by the identity of their deflated bytes (the entry holds
#: those bytes, so the id is not reused while it stands), within the `inflated` part of the
#: render budget: 6 MB hold about 200 bands of a full-width board
_inflated: OrderedDict[int, tuple[bytes, bytes]] = OrderedDict()
_inflated_bytes = 0


def _after_fork() -> None:
    """A forked render worker starts with its own empty cache and an unheld lock (the parent's
    lock may have been held by another thread at the moment of the fork)."""
    global _lock, _inflated_bytes, _bands_bytes
    _lock = threading.Lock()
    _bands.clear()
    _inflated.clear()
    _inflated_bytes = _bands_bytes = 0


os.register_at_fork(after_in_child=_after_fork)


def _forget_bands() -> None:
    global _bands_bytes
    with _lock:
        _bands.clear()
        _bands_bytes = 0


def _forget_inflated() -> None:
    global _inflated_bytes
    with _lock:
        _inflated.clear()
        _inflated_bytes = 0


budget.emptied_by("bands", _forget_bands)
budget.emptied_by("inflated", _forget_inflated)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


#: the band cache's key seed (`_band`), drawn once per process
_SEED = int.from_bytes(os.urandom(8), "little")


def _filtered(raw: bytes, width: int) -> bytes:
    """Rows of `width` palette indices, each behind its filter byte 0 (none: the best filter
    for palette images)."""
    return b"".join(b"\0" + raw[i:i + width] for i in range(0, len(raw), width))


def _deflate(band: bytes, width: int) -> tuple[bytes, int, int]:
    """One band as raw deflate blocks, each row behind its filter byte 0 (none, the best
    filter for palette images), ending byte-aligned without a final block."""
    rows = _filtered(band, width)
    compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -15, 8, STRATEGY)
    return compressor.compress(rows) + compressor.flush(zlib.Z_FULL_FLUSH), zlib.adler32(rows), len(rows)


def _inflate(deflated: bytes, width: int) -> bytes:
    """The band's bytes again from its deflated rows (`_deflate` undone, filter bytes dropped).
    The last ones inflated are kept a while (`_inflated`): a table's next board derives
    from its last layer and touches the same bands again."""
    key = id(deflated)
    with _lock:
        found = _inflated.get(key)
        if found is not None and found[0] is deflated:
            _inflated.move_to_end(key)
            return found[1]
    rows = zlib.decompressobj(-15).decompress(deflated)
    step = width + 1
    band = b"".join(rows[i + 1:i + step] for i in range(0, len(rows), step))
    _keep_inflated(deflated, band)
    return band


def _keep_inflated(deflated: bytes, band: bytes) -> None:
    """Remember that `deflated` inflates to `band` (see `_inflate`), the oldest forgotten first."""
    global _inflated_bytes
    key = id(deflated)
    with _lock:
        old = _inflated.pop(key, None)
        if old is not None:
            _inflated_bytes -= len(old[1])
        _inflated[key] = (deflated, band)
        _inflated_bytes += len(band)
        limit = budget.limit("inflated")
        while _inflated_bytes > limit:
            _, (_, dropped) = _inflated.popitem(last=False)
            _inflated_bytes -= len(dropped)


def _adler_combine(a: int, b: int, length_b: int) -> int:
    """Adler-32 of two pieces joined, from theirs (zlib's `adler32_combine`), so a stored
    band is never read again just for the checksum."""
    rem = length_b % _BASE
    sum1 = a & 0xFFFF
    sum2 = (rem * sum1) % _BASE
    sum1 = (sum1 + (b & 0xFFFF) + _BASE - 1) % _BASE
    sum2 = (sum2 + (a >> 16) + (b >> 16) + _BASE - rem) % _BASE
    return sum1 | (sum2 << 16)


def band_key(band: bytes, width: int) -> tuple[int, bytes]:
    """The band cache's key of a band of rows `width` wide (see `_band`)."""
    return width, xxhash.xxh3_128_digest(band, _SEED)


def _band(band: bytes, width: int) -> tuple[bytes, int, int]:
    """The deflated band, from the cache or made now. Keyed by a 128-bit XXH3 of the bytes,
    seeded per process (`_SEED`): 0.3 us a band, where SHA-256 took 14 us, about a twentieth
    of a render worker's time; by chance two of the bands a worker keeps would share a key
    once in 2**100, and nobody can aim two bands at one key without the seed."""
    key = band_key(band, width)
    with _lock:
        stored = _bands.get(key)
        if stored is not None:
            _bands.move_to_end(key)
            return stored
    global _bands_bytes
    stored = _deflate(band, width)
    with _lock:
        if key not in _bands:
            _bands[key] = stored
            _bands_bytes += len(stored[0]) + 120  # the key and the entry's objects
            limit = budget.limit("bands")
            while _bands_bytes > limit:
                _, (dropped, _a, _n) = _bands.popitem(last=False)
                _bands_bytes -= len(dropped) + 120
    return stored


def encode_indexed(raw: bytes, width: int, palette: list[int]) -> bytes:
    """PNG bytes of palette indices (`raw`, rows of `width` bytes) and their RGB palette,
    reusing the deflated bands seen before."""
    step = width * BAND_ROWS
    bands = [_band(raw[start:start + step], width) for start in range(0, len(raw), step)]
    return _png(bands, width, len(raw) // width, palette)


def encode_plain(image: Image.Image) -> bytes:
    """PNG bytes of a palette image of 8 bits whose rows are not worth keeping (a hand, a
    close-up): one zlib stream, each row behind filter byte 0, run lengths only (`STRATEGY`),
    as the boards' bands but without the band cache. Against Pillow's writer at level 3: 25-40 %
    less time for files within 5 % of its size, the same pixels."""
    width, height = image.size
    compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, 15, 8, STRATEGY)
    idat = compressor.compress(_filtered(image.tobytes(), width)) + compressor.flush()
    return _file(width, height, (image.getpalette() or [])[:768], idat)


def _png(bands: list[tuple[bytes, int, int]], width: int, height: int, palette: list[int]) -> bytes:
    """The PNG file around the deflated bands (one zlib stream, its checksum combined)."""
    pieces = [b"\x78\x9c"]
    adler = 1
    for deflated, band_adler, length in bands:
        pieces.append(deflated)
        adler = _adler_combine(adler, band_adler, length)
    pieces.append(b"\x03\x00" + struct.pack(">I", adler))  # an empty final block, the checksum
    return _file(width, height, palette[:768] + [0] * (768 - len(palette)), b"".join(pieces))


def _file(width: int, height: int, palette: list[int], idat: bytes) -> bytes:
    """A PNG file of 8-bit palette indices: its header, `palette` (RGB values) and the zlib
    stream `idat`."""
    return (b"\x89PNG\r\n\x1a\n"
            + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0))
            + _chunk(b"PLTE", bytes(palette))
            + _chunk(b"IDAT", idat)
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


def regions(boxes: Iterable[Box], width: int, height: int) -> list[Box]:
    """The rectangles `StaticLayer.map` converts for `boxes`: merged where their rows overlap
    (`_merged`), one wider than half the image widened to whole rows. A board drawn on a
    layer must be right inside these (a renderer may draw only there)."""
    out = []
    for left, top, right, bottom in _merged(boxes, width, height):
        if 2 * (right - left) > width:
            left, right = 0, width
        out.append((left, top, right, bottom))
    return out


def _write(dirty: dict[int, bytearray], raw: Callable[[int], bytes], part: bytes, box: Box, width: int,
           height: int) -> None:
    """Palette indices `part` (the rectangle `box`) written into the bands they cover, each
    band copied from `raw(b)` into `dirty` on first touch, unless `part` covers all of it (its
    old bytes are not needed: for a derived layer's band kept deflated only, no inflating)."""
    left, top, right, bottom = box
    w = right - left
    for b in range(top // BAND_ROWS, (bottom - 1) // BAND_ROWS + 1):
        first, last = max(top, b * BAND_ROWS), min(bottom, (b + 1) * BAND_ROWS)
        band = dirty.get(b)
        if band is None:
            if w == width and first == b * BAND_ROWS and last == min(height, (b + 1) * BAND_ROWS):
                dirty[b] = bytearray(part[(first - top) * w:(last - top) * w])
                continue
            band = dirty[b] = bytearray(raw(b))
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
    those touch are looked up in (or added to) the band cache (`encode`).

    `bands[b]` is band b's palette indices, or None where only its deflated form is kept (a
    derived layer's own bands, see the module): `_raw` inflates those when needed."""

    def __init__(self, image: Image.Image, palette: Image.Image) -> None:
        self.width, self.height = image.size
        self.palette = palette
        self.palette_rgb = palette.getpalette() or []
        indexed = image.quantize(palette=palette, dither=Image.Dither.NONE).tobytes()
        step = self.width * BAND_ROWS
        self.bands: list[bytes | None] = [indexed[start:start + step] for start in range(0, len(indexed), step)]
        self._deflated: list[tuple[bytes, int, int] | None] = [None] * len(self.bands)
        #: bands this layer changed from the one it was derived from (kept deflated only)
        self._own: set[int] = set()
        #: this layer cut to fewer rows, by height (`top`)
        self._tops: dict[int, StaticLayer] = {}

    def _raw(self, b: int) -> bytes:
        band = self.bands[b]
        if band is None:
            stored = self._deflated[b]
            assert stored is not None  # a band is dropped raw only once deflated
            band = _inflate(stored[0], self.width)
        return band

    def map(self, board: Image.Image, boxes: Iterable[Box]) -> dict[int, bytearray]:
        """The bands of palette indices that `board` (the static layer with things drawn only
        inside `boxes`) changes, by band number: the layer's own band with the boxes mapped
        afresh. Boxes whose rows overlap are mapped as one rectangle (a few conversions
        instead of one per box), one wider than half the board as whole rows (`regions`)."""
        dirty: dict[int, bytearray] = {}
        for region in regions(boxes, self.width, self.height):
            part = board.crop(region).quantize(palette=self.palette, dither=Image.Dither.NONE).tobytes()
            _write(dirty, self._raw, part, region, self.width, self.height)
        return dirty

    def derive(self, parts: Iterable[tuple[Box, Image.Image]]) -> StaticLayer:
        """A new layer: this one with each part (an RGB image and the box it covers, inside
        the layer) mapped over it. Bands no part touches are shared with this layer, their
        deflated bytes too, so a layer that changes a little between turns (the claimed
        routes of a game) costs only what changed; and once `compact` has run, the bands
        it changed are kept deflated only."""
        new = object.__new__(StaticLayer)
        new.width, new.height, new.palette, new.palette_rgb = self.width, self.height, self.palette, self.palette_rgb
        new.bands = list(self.bands)
        new._deflated = list(self._deflated)
        new._own = set(self._own)
        new._tops = {}
        dirty: dict[int, bytearray] = {}
        for (left, top, right, bottom), image in parts:
            part = image.quantize(palette=self.palette, dither=Image.Dither.NONE).tobytes()
            _write(dirty, self._raw, part, (left, top, right, bottom), self.width, self.height)
        for b, band in dirty.items():
            new.bands[b] = bytes(band)
            new._deflated[b] = None
            new._own.add(b)
        return new

    def top(self, height: int) -> StaticLayer:
        """This layer's first `height` rows (a board with fewer players than the one the layer
        was made for), sharing its bands, raw and deflated: one layer serves every height."""
        if height >= self.height:
            return self
        found = self._tops.get(height)
        if found is not None:
            return found
        whole, rest = divmod(height, BAND_ROWS)
        for b in range(whole):
            self._static_band(b)  # deflated once, here, for every height
        new = object.__new__(StaticLayer)
        new.width, new.height, new.palette, new.palette_rgb = self.width, height, self.palette, self.palette_rgb
        new.bands = [self._raw(b) for b in range(whole)]
        new._deflated = list(self._deflated[:whole])
        if rest:
            new.bands.append(self._raw(whole)[: rest * self.width])
            new._deflated.append(None)
        new._own = set()
        new._tops = {}
        self._tops[height] = new
        return new

    def nbytes(self) -> int:
        """Bytes of the bands this layer holds, raw and deflated (shared ones too)."""
        raw = sum(len(b) for b in self.bands if b is not None)
        return raw + sum(len(d[0]) for d in self._deflated if d is not None)

    def compact(self) -> None:
        """Drop the raw bytes of the bands this layer changed whose deflated form it has:
        what a layer kept for many tables holds (`_raw` inflates them again if needed)."""
        for b in self._own:
            if self._deflated[b] is not None:
                self.bands[b] = None

    def own_bytes(self) -> int:
        """Bytes of the bands this layer holds beyond the one it was derived from."""
        total = 0
        for b in self._own:
            band, stored = self.bands[b], self._deflated[b]
            total += (len(band) if band is not None else 0) + (len(stored[0]) if stored is not None else 0)
        return total

    def _static_band(self, b: int) -> tuple[bytes, int, int]:
        """Band b deflated, once per layer. A derived layer's own band goes through the band
        cache: tables in the same state (chits not yet taken, the same rows) and a part drawn
        back as it was share the same bytes, and a digest is far cheaper than deflating."""
        stored = self._deflated[b]
        if stored is None:
            raw = self._raw(b)
            if b in self._own:
                stored = self._deflated[b] = _band(raw, self.width)
                # `compact` drops the raw band next, and the table's next board derives from this
                # layer, touching the same bands: keep them as if inflated (no zlib round trip)
                _keep_inflated(stored[0], raw)
            else:
                stored = self._deflated[b] = _deflate(raw, self.width)
        return stored

    def encode(self, board: Image.Image, boxes: Iterable[Box]) -> bytes:
        """PNG bytes of `board`, drawn on this layer inside `boxes` only."""
        dirty = self.map(board, boxes)
        bands = [_band(bytes(dirty[b]), self.width) if b in dirty else self._static_band(b)
                 for b in range(len(self.bands))]
        self.compact()
        return _png(bands, self.width, self.height, self.palette_rgb)
