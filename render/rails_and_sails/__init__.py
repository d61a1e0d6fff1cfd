"""Board and hand images for `rails-and-sails` (world map with trains, ships and harbors).

The board is an equirectangular world map drawn from real coastlines (GSHHS, shipped
simplified in ``render/data/coastlines.json``; see ``render/data/build_coastlines.py``)
with the map's east–west edge in the Pacific, so routes flagged ``wraps`` leave one edge
and enter the other. Everything that never changes during a game (sea, land, unclaimed
routes, cities, labels) is drawn once per set of city names, supersampled for smooth edges,
and cached (`static`); a turn only pastes the claimed routes (cached sprites per route and
player), the harbors built, the last-move highlight and the panels (`board`). `geometry`
lays out the map and checks it, `sprites` draws spaces, cards and route sprites, `hand`
one seat's hand, and every word comes from the game's catalogs through the translator
(`texts`).

Colour is never the only cue: every route colour also has a symbol on each space
(red ×, yellow dot, green triangle, purple diamond, black bar, white ring, grey none),
and every player has a letter and a shape (`render.common.player_style`).
"""

from __future__ import annotations

from render.common import font
from render.rails_and_sails.board import _draw_legend, board_image, render_board
from render.rails_and_sails.claimed import warm
from render.rails_and_sails.focus import focus_places, render_focus
from render.rails_and_sails.geometry import (
    BENDS,
    HEIGHT,
    HIGHLIGHT,
    LABEL_FONT,
    LAND,
    MAP_TOP,
    PANEL_BG,
    PANEL_TOP,
    ROUTE_COLOURS,
    SEA,
    SEA_DEEP,
    SYMBOLS,
    WIDTH,
    _edge_crossings,
    _mapdata,
    _overlap,
    _place_labels,
    _project,
    _twins,
    build_geometry,
    geometry,
    route_crossings,
    routes_through_cities,
    space_clashes,
)
from render.rails_and_sails.hand import HAND_W, hand_image, render_hand
from render.rails_and_sails.static import _palette, _static
from render.rails_and_sails.texts import Labels, Translator, city_labels, city_name

__all__ = [
    "focus_places", "render_focus",
    "BENDS", "HAND_W", "HEIGHT", "HIGHLIGHT", "LABEL_FONT", "LAND", "MAP_TOP", "PANEL_BG", "PANEL_TOP",
    "ROUTE_COLOURS", "SEA", "SEA_DEEP", "SYMBOLS", "WIDTH", "Labels", "_draw_legend", "Translator",
    "_edge_crossings", "_mapdata",
    "_overlap", "_palette", "_place_labels", "_project", "_static", "_twins", "board_image", "build_geometry",
    "city_labels", "city_name", "font", "geometry", "hand_image", "render_board", "render_hand", "route_crossings",
    "routes_through_cities", "space_clashes", "warm",
]
