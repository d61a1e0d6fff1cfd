"""What every board renderer shares: fonts, player colours, caching, PNG encoding.

Renderers draw only from views (dicts) the engine hands out, never from states,
so they cannot leak what they are never given.

Player names are whatever Discord allows (up to 32 characters of any script, emoji
included), so every text that holds a name goes through `draw_text` / `fit_text`:
they draw each character with the first font of a fixed chain that has it (Source
Sans Pro, then Noto fonts from PyPI packages, never system fonts) and shorten with
"…" to the room a box has.
"""

from __future__ import annotations

import math
import struct
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import Any, Literal, Protocol

from PIL import Image, ImageDraw, ImageFont

from render import budget
from render.png import encode_plain

Weight = Literal["regular", "semibold", "bold"]


class Translator(Protocol):
    """The game's catalog in the image's language, as the bot hands it in (renderers never
    import bot/): `t(key, **params)`, and `t.plural(key, count, **params)` for counted texts."""

    def __call__(self, key: str, /, **params: Any) -> str: ...

    def plural(self, key: str, count: int, /, **params: Any) -> str: ...

_FONT_FILES: dict[str, str] = {
    "regular": "SourceSansPro-Regular.ttf",
    "semibold": "SourceSansPro-Semibold.ttf",
    "bold": "SourceSansPro-Bold.ttf",
}
_WEIGHT_OF_FILE: dict[str, Weight] = {"SourceSansPro-Regular.ttf": "regular", "SourceSansPro-Semibold.ttf": "semibold",
                                      "SourceSansPro-Bold.ttf": "bold"}
#: the `wght` axis value of the variable Noto fonts that matches each Source Sans weight
_WGHT: dict[str, int] = {"regular": 400, "semibold": 600, "bold": 700}


@lru_cache(maxsize=64)
def font(size: int, weight: Weight = "regular") -> ImageFont.FreeTypeFont:
    """Source Sans Pro from the `font-source-sans-pro` package: no system fonts needed,
    and it covers the accents of English, German and French."""
    path = resources.files("font_source_sans_pro") / "files" / _FONT_FILES[weight]
    with resources.as_file(path) as real_path:
        return ImageFont.truetype(str(real_path), size)


@dataclass(frozen=True)
class Face:
    """One font file of the fallback chain (`index` picks a face in a collection); frozen, so
    it keys the font caches (a NamedTuple's `index` field would clash with `tuple.index`)."""

    package: str
    file: str
    index: int = 0


#: Source Sans Pro in each weight, the faces every text tries first
_PRIMARY_FACES: dict[str, Face] = {w: Face("font_source_sans_pro", "files/" + file) for w, file in _FONT_FILES.items()}

_N = "manimgx_fonts"
#: Fallback faces after Source Sans Pro, tried in this order. Noto Sans first (Latin,
#: Greek and Cyrillic beyond Source Sans), then the other scripts, monochrome Noto Emoji
#: (drawn in the text colour), symbols, and last Noto Sans CJK (Japanese face; its Han,
#: kana and Hangul serve Chinese and Korean names too), which also holds many symbols
#: the emoji font should win.
FALLBACK_FACES: tuple[Face, ...] = (
    Face(_N, "NotoSans[wght].ttf"),
    Face(_N, "NotoSansArabic[wght].ttf"),
    Face(_N, "NotoSansHebrew[wght].ttf"),
    Face(_N, "NotoSansDevanagari[wght].ttf"),
    Face(_N, "NotoSansBengali[wght].ttf"),
    Face(_N, "NotoSansThai[wght].ttf"),
    Face(_N, "NotoSansTamil[wght].ttf"),
    Face(_N, "NotoSansTelugu[wght].ttf"),
    Face(_N, "NotoSansGujarati[wght].ttf"),
    Face(_N, "NotoSansGurmukhi[wght].ttf"),
    Face(_N, "NotoSansKannada[wght].ttf"),
    Face(_N, "NotoSansMalayalam[wght].ttf"),
    Face(_N, "NotoSansOriya[wght].ttf"),
    Face(_N, "NotoSansSinhala[wght].ttf"),
    Face(_N, "NotoSansGeorgian[wght].ttf"),
    Face(_N, "NotoSansArmenian[wght].ttf"),
    Face(_N, "NotoSansEthiopic[wght].ttf"),
    Face(_N, "NotoSansKhmer[wght].ttf"),
    Face(_N, "NotoSansLao[wght].ttf"),
    Face(_N, "NotoSansMyanmar[wght].ttf"),
    Face(_N, "NotoEmoji[wght].ttf"),
    Face(_N, "NotoSansSymbols[wght].ttf"),
    Face("manimgx_fonts_cjk", "NotoSansCJK-VF.otf.ttc", 0),
)


def primary_face(weight: Weight) -> Face:
    return _PRIMARY_FACES[weight]


def _face_path(face: Face) -> str:
    path = resources.files(face.package).joinpath(*face.file.split("/"))
    with resources.as_file(path) as real_path:
        return str(real_path)


def _cmap_table(path: str, index: int) -> bytes | None:
    """The raw `cmap` table of face `index` in the font file at `path` (None if it has none)."""
    with open(path, "rb") as fh:
        head = fh.read(12)
        start = 0
        if head[:4] == b"ttcf":
            fh.seek(12 + 4 * index)
            (start,) = struct.unpack(">I", fh.read(4))
            fh.seek(start)
            head = fh.read(12)
        (num_tables,) = struct.unpack(">H", head[4:6])
        directory = fh.read(16 * num_tables)
        for k in range(num_tables):
            tag, _sum, offset, length = struct.unpack(">4sIII", directory[16 * k:16 * k + 16])
            if tag == b"cmap":
                fh.seek(offset)
                return fh.read(length)
    return None


def _format12_points(table: bytes, o: int) -> set[int]:
    """Code points of a format 12 `cmap` subtable at offset `o` (glyph 0 is "missing")."""
    points: set[int] = set()
    (groups,) = struct.unpack(">I", table[o + 12:o + 16])
    for g in range(groups):
        first, last, glyph = struct.unpack(">III", table[o + 16 + 12 * g:o + 28 + 12 * g])
        points.update(range(first + (glyph == 0), last + 1))
    return points


def _format4_points(table: bytes, o: int) -> set[int]:
    """Code points of a format 4 `cmap` subtable at offset `o` that map to a real glyph."""
    points: set[int] = set()
    seg = struct.unpack(">H", table[o + 6:o + 8])[0] // 2
    ends = struct.unpack(f">{seg}H", table[o + 14:o + 14 + 2 * seg])
    starts = struct.unpack(f">{seg}H", table[o + 16 + 2 * seg:o + 16 + 4 * seg])
    deltas = struct.unpack(f">{seg}h", table[o + 16 + 4 * seg:o + 16 + 6 * seg])
    range_at = o + 16 + 6 * seg
    offsets = struct.unpack(f">{seg}H", table[range_at:range_at + 2 * seg])
    for i in range(seg):
        for c in range(starts[i], min(ends[i], 0xFFFE) + 1):
            if offsets[i] == 0:
                glyph = (c + deltas[i]) & 0xFFFF
            else:
                at = range_at + 2 * i + offsets[i] + 2 * (c - starts[i])
                glyph = struct.unpack(">H", table[at:at + 2])[0]
                glyph = (glyph + deltas[i]) & 0xFFFF if glyph else 0
            if glyph:
                points.add(c)
    return points


def _read_cmap(path: str, index: int = 0) -> frozenset[int]:
    """The code points a font maps to a real glyph, read straight from its `cmap`
    (formats 4 and 12) so that only that table is read, even from a 30 MB collection."""
    table = _cmap_table(path, index)
    if table is None:
        return frozenset()
    (count,) = struct.unpack(">H", table[2:4])
    subtables: dict[int, int] = {}
    for k in range(count):
        _platform, _encoding, offset = struct.unpack(">HHI", table[4 + 8 * k:12 + 8 * k])
        fmt = struct.unpack(">H", table[offset:offset + 2])[0]
        if (_platform, _encoding) in ((3, 10), (0, 4), (0, 6), (3, 1), (0, 3)) and fmt in (4, 12):
            subtables.setdefault(fmt, offset)
    if 12 in subtables:
        return frozenset(_format12_points(table, subtables[12]))
    if 4 in subtables:
        return frozenset(_format4_points(table, subtables[4]))
    return frozenset()


@cache
def face_cmap(face: Face) -> frozenset[int]:
    """Code points `face` has a glyph for (read once, on first need)."""
    return _read_cmap(_face_path(face), face.index)


@lru_cache(maxsize=256)
def _face_font(face: Face, size: int, weight: Weight) -> ImageFont.FreeTypeFont:
    if face.package == "font_source_sans_pro":
        return font(size, weight)
    f = ImageFont.truetype(_face_path(face), size, index=face.index)
    if f.get_variation_axes():
        axis = f.get_variation_axes()[0]
        low, high = axis["minimum"], axis["maximum"]
        assert low is not None and high is not None  # every variation axis of a font file has both bounds
        f.set_variation_by_axes([min(max(_WGHT[weight], low), high)])
    return f


def _attaches(ch: str) -> bool:
    """Marks, joiners, variation selectors and skin tones belong to the character
    before them: splitting there would break a cluster (é, 👍🏽, 👨‍👩‍👧, ❤️)."""
    cp = ord(ch)
    return (unicodedata.category(ch) in ("Mn", "Mc", "Me") or cp in (0x200C, 0x200D)
            or 0xFE00 <= cp <= 0xFE0F or 0x1F3FB <= cp <= 0x1F3FF or 0xE0020 <= cp <= 0xE007F
            or 0xE0100 <= cp <= 0xE01EF or cp == 0x20E3)


def _neutral(ch: str) -> bool:
    """Spaces and punctuation take the font of the text around them when both sides agree,
    so "محمد علي" stays one right-to-left run."""
    return unicodedata.category(ch)[0] in ("Z", "P")


def _face_for(ch: str, weight: Weight) -> Face:
    cp = ord(ch)
    primary = primary_face(weight)
    if cp in face_cmap(primary):
        return primary
    for face in FALLBACK_FACES:
        if cp in face_cmap(face):
            return face
    return primary


@lru_cache(maxsize=4096)
def text_runs(text: str, weight: Weight = "regular") -> tuple[tuple[Face, str], ...]:
    """`text` cut into runs, each drawn with one face that has its characters."""
    primary = primary_face(weight)
    if all(map(face_cmap(primary).__contains__, map(ord, text))):
        # the common case, decided at C speed (every turn has new texts: names in moves): every
        # character is in the primary face, so `_cut_runs` would give it all of them
        return ((primary, text),) if text else ()
    return _cut_runs(text, weight)


def _cut_runs(text: str, weight: Weight) -> tuple[tuple[Face, str], ...]:
    """`text_runs` character by character: marks stay with their base, spaces and punctuation
    take the face around them, any other character the first face that has it."""
    faces: list[Face | None] = []
    for ch in text:
        if faces and _attaches(ch):
            faces.append(faces[-1])
        elif _neutral(ch):
            faces.append(None)
        else:
            faces.append(_face_for(ch, weight))
    for i, ch in enumerate(text):
        if faces[i] is not None:
            continue
        before = next((f for f in reversed(faces[:i]) if f is not None), None)
        after = next((f for f in faces[i + 1:] if f is not None), None)
        if before is not None and before == after and ord(ch) in face_cmap(before):
            faces[i] = before
        else:
            faces[i] = _face_for(ch, weight)
    runs: list[tuple[Face, str]] = []
    for face, ch in zip(faces, text, strict=True):
        assert face is not None
        if runs and runs[-1][0] == face:
            runs[-1] = (face, runs[-1][1] + ch)
        else:
            runs.append((face, ch))
    return tuple(runs)


def _size_weight(f: ImageFont.FreeTypeFont) -> tuple[int, Weight]:
    name = str(f.path).replace("\\", "/").rsplit("/", 1)[-1]
    return int(f.size), _WEIGHT_OF_FILE.get(name, "regular")


@lru_cache(maxsize=8192)
def _run_length(face: Face, size: int, weight: Weight, run: str) -> float:
    return _face_font(face, size, weight).getlength(run)


@lru_cache(maxsize=8192)
def _plain_length(f: ImageFont.FreeTypeFont, text: str) -> float:
    """`f.getlength(text)`, kept: boards measure the same labels every turn (fonts are
    cached objects, so the font itself keys it)."""
    return f.getlength(text)


def advance(f: ImageFont.FreeTypeFont, text: str) -> float:
    """`f.getlength(text)` (plain text in one font), kept: boards measure the same labels
    every turn, and measuring was a tenth of a board's drawing."""
    return _plain_length(f, text)


def text_length(text: str, f: ImageFont.FreeTypeFont) -> float:
    """Advance width of `text` set in `f` (a `font()`) with fallback faces."""
    size, weight = _size_weight(f)
    runs = text_runs(text, weight)
    if len(runs) == 1 and runs[0][0] == primary_face(weight):
        return _plain_length(f, text)
    return sum(_run_length(face, size, weight, run) for face, run in runs)


def _cut_points(text: str) -> list[int]:
    """Prefix lengths that end on a whole cluster (never before a mark or after a joiner)."""
    return [k for k in range(1, len(text) + 1)
            if (k == len(text) or not _attaches(text[k])) and text[k - 1] != "\u200d"]


@lru_cache(maxsize=4096)
def _fit_cached(text: str, size: int, weight: Weight, max_width: float) -> str:
    f = font(size, weight)
    if text_length(text, f) <= max_width:
        return text
    cuts = _cut_points(text)
    lo, hi = 0, len(cuts)  # the answer keeps cuts[:lo]; everything past hi is too wide
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_length(text[:cuts[mid - 1]].rstrip() + "…", f) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    if lo == 0:
        return "…" if text_length("…", f) <= max_width else ""
    return text[:cuts[lo - 1]].rstrip() + "…"


def fit_text(text: str, f: ImageFont.FreeTypeFont, max_width: float) -> str:
    """`text`, or its longest whole-character prefix plus "…", that is at most
    `max_width` wide in `f`: a 32-character name never leaves its box."""
    size, weight = _size_weight(f)
    return _fit_cached(text, size, weight, float(max_width))


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, *, font: ImageFont.FreeTypeFont,
              fill: Any, anchor: str = "la", max_width: float | None = None, **kwargs: Any) -> float:
    """`draw.text` for text that may hold a player name: characters Source Sans lacks
    (emoji, CJK, Arabic, …) come from fallback faces on the same baseline, and with
    `max_width` the text is shortened with "…" to fit. Returns the width drawn."""
    f = font
    if max_width is not None:
        text = fit_text(text, f, max_width)
    size, weight = _size_weight(f)
    runs = text_runs(text, weight)
    if len(runs) <= 1 and (not runs or runs[0][0] == primary_face(weight)):
        draw.text(xy, text, font=f, fill=fill, anchor=anchor, **kwargs)
        return _plain_length(f, text)
    fonts = [_face_font(face, size, weight) for face, _run in runs]
    widths = [_run_length(face, size, weight, run) for face, run in runs]
    total = sum(widths)
    x, y = xy
    h, v = anchor[0], anchor[1]
    x -= {"l": 0.0, "m": total / 2, "r": total}.get(h, 0.0)
    ascent, descent = f.getmetrics()
    if v == "a":
        baseline = y + ascent
    elif v == "d":
        baseline = y - descent
    elif v == "m":
        baseline = y + (ascent - descent) / 2
    elif v in ("t", "b"):
        boxes = [g.getbbox(run, anchor="ls") for g, (_face, run) in zip(fonts, runs, strict=True)]
        baseline = y - min(b[1] for b in boxes) if v == "t" else y - max(b[3] for b in boxes)
    else:
        baseline = y
    for g, (_face, run), w in zip(fonts, runs, widths, strict=True):
        draw.text((x, baseline), run, font=g, fill=fill, anchor="ls", **kwargs)
        x += w
    return total


@budget.memoized("text")
def _text_mask(f: ImageFont.FreeTypeFont, text: str, mode: str, stroke_width: float, anchor: str, ink: int,
               start: tuple[float, float]) -> tuple[Any, tuple[int, int]]:
    """One rasterised text, kept: FreeType rasterising was 40-60 % of a board's drawing and most
    texts (labels, numbers, names) come back every turn. Fonts are cached objects, so the font
    itself keys it; the sub-pixel `start` keys it too, so a cached mask is the very one Pillow
    would rasterise at that spot. Bounded in bytes (`render.budget`), and per process."""
    return f.getmask2(text, mode, None, None, None, stroke_width, anchor, ink, start, stroke_filled=True)


class SpriteDraw(ImageDraw.ImageDraw):
    """`ImageDraw` whose one-line texts come from the mask cache (`_text_mask`), pasted with the
    same call Pillow's own `text` ends in, so the pixels are the same; anything else
    (several lines, bitmap fonts, shaping options) goes to Pillow unchanged. Every renderer
    draws with it (`Draw`)."""

    def text(self, xy: tuple[float, float], text: Any, fill: Any = None, font: Any = None,
             anchor: str | None = None, *args: Any, **kwargs: Any) -> None:
        if (args or not set(kwargs) <= {"stroke_width", "stroke_fill"} or not isinstance(text, str)
                or "\n" in text or not isinstance(font, ImageFont.FreeTypeFont)):
            super().text(xy, text, fill, font, anchor, *args, **kwargs)
            return
        stroke_width: float = kwargs.get("stroke_width", 0)
        stroke_fill = kwargs.get("stroke_fill")
        ink = self._ink(fill)
        stroke_ink = self._ink(stroke_fill) if stroke_fill is not None else ink
        if anchor is None:
            anchor = "la"
        elif len(anchor) != 2:
            raise ValueError("anchor must be a 2 character string")
        x, y = xy
        start = (math.modf(x)[0], math.modf(y)[0])
        passes = [(stroke_ink, stroke_width)] if stroke_width else []
        if not stroke_width or ink != stroke_ink:
            passes.append((ink, 0))
        for colour, width in passes:
            mask, offset = _text_mask(font, text, self.fontmode, width, anchor, colour, start)
            self.draw.draw_bitmap((int(x) + offset[0], int(y) + offset[1]), mask, colour)

    def _ink(self, fill: Any) -> int:
        ink, fill_ink = self._getink(fill)
        return ink if ink is not None else fill_ink  # type: ignore[return-value]


def Draw(image: Image.Image) -> SpriteDraw:  # noqa: N802 - named like `ImageDraw.Draw`, which it replaces
    """A drawing context for `image` whose texts come from the shared mask cache."""
    return SpriteDraw(image)


#: Okabe–Ito palette (colour-blind safe), each paired with a letter and a shape so
#: that colour is never the only cue.
PLAYER_COLOURS: list[tuple[int, int, int]] = [
    (0, 114, 178),    # blue
    (230, 159, 0),    # orange
    (0, 158, 115),    # bluish green
    (204, 121, 167),  # reddish purple
    (213, 94, 0),     # vermilion
    (86, 180, 233),   # sky blue
]
PLAYER_LETTERS: list[str] = ["A", "B", "C", "D", "E", "F"]
PLAYER_SHAPES: list[str] = ["circle", "square", "triangle", "diamond", "hexagon", "star"]

INK = (33, 37, 41)
PAPER = (250, 246, 238)
MUTED = (120, 120, 120)


def player_style(index: int) -> tuple[tuple[int, int, int], str, str]:
    """(colour, letter, shape) for the seat at `index` in turn order."""
    i = index % len(PLAYER_COLOURS)
    return PLAYER_COLOURS[i], PLAYER_LETTERS[i], PLAYER_SHAPES[i]


def draw_token(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, index: int,
               *, outline: tuple[int, int, int] = INK, label: str | None = None) -> None:
    """A player's pawn: its colour, its shape and its letter (second and third cues)."""
    import math

    colour, letter, shape = player_style(index)
    x, y = centre
    r = radius
    if shape == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=outline, width=3)
    elif shape == "square":
        s = r * 0.9
        draw.rectangle((x - s, y - s, x + s, y + s), fill=colour, outline=outline, width=3)
    else:
        corners = {"triangle": 3, "diamond": 4, "hexagon": 6, "star": 10}[shape]
        points = []
        for k in range(corners):
            angle = -math.pi / 2 + 2 * math.pi * k / corners
            rr = r * (1.15 if shape == "triangle" else 1.0)
            if shape == "star" and k % 2:
                rr = r * 0.55
            dy = r * 0.2 if shape == "triangle" else 0
            points.append((x + rr * math.cos(angle), y + rr * math.sin(angle) + dy))
        draw.polygon(points, fill=colour, outline=outline, width=3)
    text = label if label is not None else letter
    f = font(max(10, int(r * 1.1)), "bold")
    draw.text((x, y + (r * 0.15 if shape == "triangle" else 0)), text, font=f, fill=(255, 255, 255),
              anchor="mm", stroke_width=2, stroke_fill=INK)


def text_width(text: str, f: ImageFont.FreeTypeFont) -> float:
    return text_length(text, f)


def encode_png(image: Image.Image) -> bytes:
    """PNG bytes of an image without a fixed palette (hands, the focus view): flat-coloured,
    so an adaptive palette of 256 colours keeps them small, written by `render.png.encode_plain`
    (boards use `render.png`'s layers)."""
    if image.mode != "P":
        image = image.convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return encode_plain(image)


RGB = tuple[int, int, int]


def ramp(a: RGB, b: RGB, steps: int) -> list[RGB]:
    """`steps` colours from a to b (both included), for a palette's anti-aliasing entries."""
    def at(k: int, i: int) -> int:
        return round(a[k] + (b[k] - a[k]) * i / (steps - 1))
    return [(at(0, i), at(1, i), at(2, i)) for i in range(steps)]


def fixed_palette(base: Image.Image, fixed: list[RGB]) -> Image.Image:
    """A 256-colour palette image: the `fixed` colours first (exact entries for what is drawn
    per turn), the rest from `base`'s own colours. Boards mapped onto a known palette are
    several times faster to make than quantized afresh, and their colours stay stable."""
    unique = list(dict.fromkeys(fixed))
    quantized = base.quantize(colors=256 - len(unique), method=Image.Quantize.FASTOCTREE,
                              dither=Image.Dither.NONE)
    raw = quantized.getpalette() or []
    colours = [tuple(raw[i:i + 3]) for i in range(0, (256 - len(unique)) * 3, 3)]
    flat = [v for c in unique + colours for v in c]
    flat += [0] * (768 - len(flat))
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat[:768])
    return pal
