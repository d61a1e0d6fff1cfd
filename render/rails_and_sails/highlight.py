"""The last claimed route's highlight on the rails-and-sails board, kept per route.

A claim turn framed each space of the route with two outlines (a bright one, a thin dark one
around it). Pillow draws an outline wider than one pixel through masks the size of the whole
board, four of them per outline, which made the frames up to a fifth of a claim turn's
drawing (the slowest turns of a game). Each space's two frames are drawn once, on a
transparent canvas the board's size where the board draws them, and cut out: every pixel they
set is opaque, so pasting the piece gives the very pixels drawing gives, and the pieces are
pasted in drawing order. The outlines themselves (the boxes the PNG maps) are kept too.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from render.common import Draw
from render.packed import Sprites
from render.rails_and_sails.geometry import HEIGHT, HIGHLIGHT, WIDTH, geometry
from render.rails_and_sails.sprites import _shifts, _space_outline

Outline = list[tuple[float, float]]
Pieces = list[tuple[int, int, Image.Image]]

#: route -> the pieces of its frames, in drawing order (see the module)
_PIECES: Sprites[str] = Sprites("rails.highlight")


@lru_cache(maxsize=1024)
def outlines(route_id: str) -> tuple[Outline, ...]:
    """The route's frames, in drawing order: around each of its spaces a bright one, then a
    thin dark one around that (on both sides of the map for a route that wraps); none for an
    unknown route."""
    g = geometry().routes.get(route_id)
    if g is None:
        return ()
    xs = [p[0] for p in g.path]
    out = []
    for shift in _shifts(min(xs), max(xs)):
        for sp in g.spaces:
            out.append(_space_outline(sp, g.kind, shift, 1.0, widen=6.0))
            out.append(_space_outline(sp, g.kind, shift, 1.0, widen=8.0))
    return tuple(out)


def draw(board: Image.Image, frames: tuple[Outline, ...] | list[Outline]) -> None:
    """Draws `frames` (`outlines`) on `board`, in order: the bright ones 4 pixels wide, the
    dark ones 2."""
    pen = Draw(board)
    for i, poly in enumerate(frames):
        if i % 2 == 0:
            pen.polygon(poly, outline=HIGHLIGHT, width=4)
        else:
            pen.polygon(poly, outline=(120, 90, 0), width=2)


def pieces(route_id: str) -> Pieces:
    """The route's frames as pieces, one per space and side of the map (see the module)."""
    cached = _PIECES.get(route_id)
    if cached is not None:
        return cached
    frames = outlines(route_id)
    made: Pieces = []
    for k in range(0, len(frames), 2):
        canvas = Image.new("RGBA", (WIDTH, HEIGHT), (0, 0, 0, 0))
        draw(canvas, frames[k:k + 2])
        box = canvas.getbbox()
        if box is not None:
            made.append((box[0], box[1], canvas.crop(box)))
    return _PIECES.put(route_id, made)


def paste(board: Image.Image, route_id: str) -> None:
    """The route's frames on `board`: the same pixels as `draw(board, outlines(route_id))`."""
    for x, y, piece in pieces(route_id):
        board.paste(piece, (x, y), piece)
