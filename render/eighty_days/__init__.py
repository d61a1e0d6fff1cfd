"""Pillow renderer of `eighty-days`: the public board and a seat's hand (its suitcase packed
as the engine packed it, its adventure card and draft, coins, assistant and diary).

Every visible word comes from `translator(key, **params)`, the game's catalog in the image's
language (`bot/games/eighty_days/locales`); the renderer holds no texts of its own.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from render.common import Translator, encode_png
from render.png import encode_indexed

from .board import PANEL_TOP, board_image, board_layers, labels
from .geometry import HEADER_H, WIDTH
from .hand import hand_image
from .static import map_keys, palette, static_indexed


def render_board(view: dict[str, Any], *, names: dict[str, str], translator: Translator,
                 events: list[dict[str, Any]] | None = None, lang: str | None = None) -> bytes:
    """The board from the public view (a view with a `private` part is refused) on the cached
    palette of its static layer: the static map comes mapped already, so only the header,
    the boxes drawn on the map and the panels below are mapped per turn; the PNG writer
    deflates only the bands of rows that differ from boards it wrote before."""
    image, boxes = board_layers(view, names=names, t=translator)
    key = (labels(view, translator), *map_keys(view["map"]))
    pal = palette(*key)

    def mapped(box: tuple[int, int, int, int]) -> bytes:
        return image.crop(box).quantize(palette=pal, dither=Image.Dither.NONE).tobytes()

    raw = bytearray(static_indexed(*key))
    raw[:WIDTH * (HEADER_H + 1)] = mapped((0, 0, WIDTH, HEADER_H + 1))
    for box in boxes:
        left, top, right, bottom = max(box[0], 0), max(box[1], 0), min(box[2], WIDTH), min(box[3], PANEL_TOP)
        if left >= right or top >= bottom:
            continue
        part, w = mapped((left, top, right, bottom)), right - left
        for row in range(top, bottom):
            raw[row * WIDTH + left:row * WIDTH + right] = part[(row - top) * w:(row - top + 1) * w]
    raw += mapped((0, PANEL_TOP, WIDTH, image.height))
    return encode_indexed(bytes(raw), WIDTH, pal.getpalette() or [])


def render_hand(view: dict[str, Any], seat: str, *, names: dict[str, str], translator: Translator,
                lang: str | None = None) -> bytes:
    """The seat's own view: suitcase, adventure, draft, coins, assistant, diary."""
    return encode_png(hand_image(view, seat, names=names, t=translator))


__all__ = ["board_image", "hand_image", "render_board", "render_hand"]
