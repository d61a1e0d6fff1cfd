"""Pillow renderer of `eighty-days`: the public board and a seat's hand (its suitcase packed
as the engine packed it, its adventure card and draft, coins, assistant and diary).

Every visible word comes from `translator(key, **params)`, the game's catalog in the image's
language (`bot/games/eighty_days/locales`); the renderer holds no texts of its own.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from render import budget
from render.common import Translator, encode_png
from render.eighty_days.focus import focus_places, render_focus
from render.png import StaticLayer

from .board import PANEL_H, PANEL_TOP, ROW_H, TABLE_HEAD, board_image, board_layers, labels
from .geometry import HEADER_H, PAPER, WIDTH
from .hand import hand_image
from .static import Cities, Labels, Lines, map_keys, palette, static_layer


def render_board(view: dict[str, Any], *, names: dict[str, str], translator: Translator,
                 events: list[dict[str, Any]] | None = None, lang: str | None = None) -> bytes:
    """The board from the public view (a view with a `private` part is refused) on the cached
    palette of its static layer: the static map comes mapped already, so only the header,
    the boxes drawn on the map and the panels below are mapped per turn; the PNG writer
    deflates only the bands of rows that differ from boards it wrote before."""
    image, boxes = board_layers(view, names=names, t=translator)
    key = (labels(view, translator), *map_keys(view["map"]))
    layer = _layer(*key, image.height)
    return layer.encode(image, [(0, 0, WIDTH, HEADER_H), *boxes, (0, PANEL_TOP, WIDTH, image.height)])


def _layer(labels: Labels, cities: Cities, lines: Lines, height: int) -> StaticLayer:
    """The static layer on a board of `height` (it grows with the players) mapped onto its
    palette once; below the map everything is drawn, and mapped, every turn. One layer as
    tall as the most players' board serves every height (`StaticLayer.top`)."""
    return _tall_layer(labels, cities, lines, max(height, TALLEST)).top(height)


#: the height of the board with the most players (4): a layer is made this tall
TALLEST = PANEL_TOP + PANEL_H + TABLE_HEAD + 4 * ROW_H + 14


@budget.memoized("layers")
def _tall_layer(labels: Labels, cities: Cities, lines: Lines, height: int) -> StaticLayer:
    image = Image.new("RGB", (WIDTH, height), PAPER)
    image.paste(static_layer(labels, cities, lines), (0, 0))
    return StaticLayer(image, palette(labels, cities, lines))


def render_hand(view: dict[str, Any], seat: str, *, names: dict[str, str], translator: Translator,
                lang: str | None = None) -> bytes:
    """The seat's own view: suitcase, adventure, draft, coins, assistant, diary."""
    return encode_png(hand_image(view, seat, names=names, t=translator))


__all__ = [
    "board_image", "focus_places", "render_focus", "hand_image", "render_board", "render_hand"]
