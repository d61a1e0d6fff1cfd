"""Pillow renderer of `eighty-days`: the public board and a seat's hand (its suitcase packed
as the engine packed it, its adventure card and draft, coins, assistant and diary).

Every visible word comes from `translator(key, **params)`, the game's catalog in the image's
language (`bot/games/eighty_days/locales`); the renderer holds no texts of its own.
"""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from render.common import Translator, encode_png

from .board import board_image, labels
from .hand import hand_image
from .static import map_keys, palette


def render_board(view: dict[str, Any], *, names: dict[str, str], translator: Translator,
                 events: list[dict[str, Any]] | None = None, lang: str | None = None) -> bytes:
    """The board from the public view (a view with a `private` part is refused), mapped
    onto the cached palette of its static layer and compressed lightly: fast and small."""
    image = board_image(view, names=names, t=translator)
    pal = palette(labels(view, translator), *map_keys(view["map"]))
    buffer = io.BytesIO()
    image.quantize(palette=pal, dither=Image.Dither.NONE).save(buffer, format="PNG", compress_level=3)
    return buffer.getvalue()


def render_hand(view: dict[str, Any], seat: str, *, names: dict[str, str], translator: Translator,
                lang: str | None = None) -> bytes:
    """The seat's own view: suitcase, adventure, draft, coins, assistant, diary."""
    return encode_png(hand_image(view, seat, names=names, t=translator))


__all__ = ["board_image", "hand_image", "render_board", "render_hand"]
