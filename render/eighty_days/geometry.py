"""Where things go on the `eighty-days` board image, and the colours they are drawn in.

The engine places cities on a 1000 × 500 board; the image stretches the band the cities
use (x 30..990, y 120..400) to the map panel, so the dense middle stays readable on a phone.
"""

from __future__ import annotations

WIDTH = 1800
HEADER_H = 150
MAP_TOP = HEADER_H
MAP_H = 760
MAP_LEFT, MAP_RIGHT = 70, WIDTH - 70
MAP_PAD_TOP, MAP_PAD_BOTTOM = 70, 70

#: engine board coordinates the cities use
_X0, _X1 = 30, 990
_Y0, _Y1 = 120, 400

PAPER = (246, 239, 222)
SEA = (214, 229, 236)
INK = (33, 37, 41)
MUTED = (105, 105, 105)
PANEL = (255, 252, 244)
KIND_COLOUR = {"ship": (31, 97, 170), "train": (120, 72, 34), "special": (148, 52, 140)}
MARKET_COLOUR = {"boutique": (40, 110, 200), "bazaar": (200, 50, 45)}
#: one colour per item shape (hand and supply); shoes brown, revolver slate, hat black,
#: umbrella teal, coat crimson — distinct for common colour blindness together with the shapes
ITEM_COLOUR = {"shoes": (150, 95, 45), "revolver": (95, 110, 125), "hat": (45, 45, 55),
               "umbrella": (0, 150, 140), "coat": (190, 45, 80)}
GOLD = (222, 170, 40)


def city_xy(x: int, y: int) -> tuple[float, float]:
    """Engine coordinates -> image pixels on the map panel."""
    px = MAP_LEFT + (x - _X0) * (MAP_RIGHT - MAP_LEFT) / (_X1 - _X0)
    top = MAP_TOP + MAP_PAD_TOP
    py = top + (y - _Y0) * (MAP_H - MAP_PAD_TOP - MAP_PAD_BOTTOM) / (_Y1 - _Y0)
    return px, py


def line_offset(index: int, count: int) -> float:
    """Parallel lines between the same two cities are drawn side by side, this far apart."""
    return (index - (count - 1) / 2) * 16.0
