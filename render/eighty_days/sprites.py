"""Text sprites for the `eighty-days` board: FreeType rasterising was half of a board render,
and most texts (labels, numbers, names) repeat from turn to turn. `SpriteDraw.text` keeps
each rasterised glyph mask and pastes it again, the same pixels `ImageDraw.text` draws."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import ImageDraw, ImageFont, ImageText


@lru_cache(maxsize=4096)
def _mask(font: ImageFont.FreeTypeFont, text: str, mode: str, stroke_width: float, anchor: str | None,
          ink: int, start: tuple[float, float]) -> tuple[Any, tuple[int, int]]:
    """One rasterised text (the font is a cached `font()`, so its identity keys it)."""
    return font.getmask2(text, mode, None, None, None, stroke_width, anchor, ink, start, stroke_filled=True)


class SpriteDraw(ImageDraw.ImageDraw):
    """`ImageDraw` whose plain one-line texts come from the sprite cache; anything else
    (multi-line, bitmap fonts, shaping options) goes to Pillow unchanged."""

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
        image_text = ImageText.Text(text, font, self.mode)
        for line in image_text._split(xy, anchor, "left"):
            start = (math.modf(line.x)[0], math.modf(line.y)[0])
            passes = [(stroke_ink, stroke_width)] if stroke_width else []
            if not stroke_width or ink != stroke_ink:
                passes.append((ink, 0))
            for colour, width in passes:
                mask, offset = _mask(font, line.text, self.fontmode, width, line.anchor, colour, start)
                self.draw.draw_bitmap((int(line.x) + offset[0], int(line.y) + offset[1]), mask, colour)

    def _ink(self, fill: Any) -> int:
        ink, fill_ink = self._getink(fill)
        return ink if ink is not None else fill_ink  # type: ignore[return-value]
