"""What every board renderer shares: fonts, player colours, caching, PNG encoding.

Renderers draw only from views (dicts) the engine hands out, never from states,
so they cannot leak what they are never given.
"""

from __future__ import annotations

import io
from functools import lru_cache
from importlib import resources
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

Weight = Literal["regular", "semibold", "bold"]

_FONT_FILES: dict[str, str] = {
    "regular": "SourceSansPro-Regular.ttf",
    "semibold": "SourceSansPro-Semibold.ttf",
    "bold": "SourceSansPro-Bold.ttf",
}


@lru_cache(maxsize=64)
def font(size: int, weight: Weight = "regular") -> ImageFont.FreeTypeFont:
    """Source Sans Pro from the `font-source-sans-pro` package: no system fonts needed,
    and it covers the accents of English, German and French."""
    path = resources.files("font_source_sans_pro") / "files" / _FONT_FILES[weight]
    with resources.as_file(path) as real_path:
        return ImageFont.truetype(str(real_path), size)


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
    return f.getlength(text)


def encode_png(image: Image.Image) -> bytes:
    """PNG bytes. Boards are flat-coloured, so an adaptive palette keeps them small
    and fast to compress; `compress_level` 6 is the speed/size sweet spot."""
    if image.mode != "P":
        image = image.convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=6)
    return buffer.getvalue()
