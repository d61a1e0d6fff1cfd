"""The claimed-routes layer of the rails-and-sails board, kept between turns of a game.

A board pastes every claimed route (and the veils over blocked twins) on the static layer,
then the city names again over them. That was most of a turn's drawing, and mapping those
boxes onto the palette and deflating their bands most of the rest, although most turns
claim nothing and a claim adds one route. So the layer (static layer plus routes with the
names pasted again, mapped onto the palette: what the board is outside the boxes a turn draws
in) is kept, keyed by exactly what is on it: the static layer's words and the routes in
drawing order with their owners. A turn whose routes are those of a kept layer starts from
it; one that adds routes to a kept layer redraws only the boxes of the new routes (from the
static layer, every piece that touches them pasted again in order, so the pixels are those
of a full redraw), and maps only those. Anything else (an undo, a table first seen mid-game)
grows the layer from the largest kept one whose routes it has (at worst the static layer),
drawing the new routes' boxes merged into a few rectangles.

A worker draws many tables in turn (hundreds on a busy bot), so a kept layer is compact: only
the bands its routes changed, deflated (`render.png.StaticLayer.derive`, about 100-300 KB a
table), and no RGB image. The board's RGB pixels are needed only inside the rectangles it
maps (`render.png.regions`): there the routes are pasted afresh (`redrawn`), which costs a
few pastes, where keeping the image cost 6 MB a table. A wrap arrow, drawn with its route,
is kept as a piece too: drawn once on a transparent board-sized canvas at its place and cut
out, so pasting it gives the very pixels drawing it there gives.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field

from PIL import Image

from render import budget
from render.common import Draw, player_style
from render.packed import Sprites
from render.png import Box, StaticLayer, _merged
from render.rails_and_sails import highlight
from render.rails_and_sails.geometry import HEIGHT, WIDTH, _edge_crossings, _twins, geometry
from render.rails_and_sails.sprites import _blocked_sprite, _claimed_sprite, _wrap_arrow

#: layers are kept (about 100-300 KB each: the bands that differ from the static layer,
#: deflated) within the `kept.rails-and-sails` part of the render budget (`render.budget`):
#: 8 MB hold the tables a worker of a busy bot draws in turn (several dozen)
BUDGET = "kept.rails-and-sails"
#: new boxes up to which a layer is grown box by box; more (a table first seen mid-game) are
#: drawn in merged rectangles
GROW = 8

#: one thing on the layer, in drawing order: ("twin", route, 0) a blocked twin's veil,
#: ("claim", route, player) a claimed route in its owner's colour
Item = tuple[str, str, int]
Pieces = list[tuple[int, int, Image.Image]]


@dataclass(frozen=True)
class Claimed:
    """A kept layer: `layer` is the static layer with the routes `items` and the city names
    pasted again over them, mapped onto the palette (see the module)."""

    items: tuple[Item, ...]
    layer: StaticLayer
    has: frozenset[Item] = field(default=frozenset(), compare=False)


#: the kept layers by (static layer, items), least recently used first: a plain dict, as
#: iterating an `OrderedDict` looks each key up again, hashing these long keys (2 us a layer,
#: a millisecond per claim turn on a worker keeping hundreds)
_kept: dict[tuple[Hashable, tuple[Item, ...]], Claimed] = {}
#: each kept layer's bytes when kept, the newest's measured again once its board compacted it
_sizes: dict[tuple[Hashable, tuple[Item, ...]], int] = {}
_newest: list[tuple[Hashable, tuple[Item, ...]] | None] = [None]
#: held while the kept layers are read or changed: boards render in threads of one process
#: when the bot has no render processes (a layer is grown outside it)
_lock = threading.Lock()
#: (route, player) -> its wrap arrows as pieces (empty for a route that does not wrap)
_ARROWS: Sprites[tuple[str, int]] = Sprites("rails.arrows")


def items(claimed: dict[str, str], idx: dict[str, int], blocked_twins: bool) -> tuple[Item, ...]:
    """What the board pastes on the map, in order: blocked twins (games of up to three
    players), then claimed routes, each by route id."""
    geom = geometry()
    out: list[Item] = []
    if blocked_twins:
        twins = _twins()
        for route_id in sorted(claimed):
            twin = twins.get(route_id)
            if twin and twin not in claimed and twin in geom.routes:
                out.append(("twin", twin, 0))
    out += [("claim", route_id, idx.get(seat, 0)) for route_id, seat in sorted(claimed.items())
            if route_id in geom.routes]
    return tuple(out)


def _pieces(item: Item) -> Pieces:
    """What an item pastes, in order: its sprites, then (a claimed route leaving an edge of the
    map) its wrap arrows."""
    kind, route_id, player = item
    if kind == "twin":
        return _blocked_sprite(route_id)
    return _claimed_sprite(route_id, player) + _arrow_pieces(route_id, player)


def _arrows(item: Item) -> list[tuple[float, float, int]]:
    """The wrap arrows drawn with a claimed route that leaves one edge of the map."""
    g = geometry().routes[item[1]]
    return list(_edge_crossings(g)) if item[0] == "claim" and g.wraps else []


def _arrow_pieces(route_id: str, player: int) -> Pieces:
    """The wrap arrows of a claimed route as pieces: each drawn on a transparent canvas the
    board's size, where the board draws it (its pixels are opaque: pasting them equals
    drawing), and cut out around what it drew."""
    key = (route_id, player)
    cached = _ARROWS.get(key)
    if cached is not None:
        return cached
    pieces: Pieces = []
    for x, y, direction in _arrows(("claim", route_id, player)):
        canvas = Image.new("RGBA", (WIDTH, HEIGHT), (0, 0, 0, 0))
        _wrap_arrow(Draw(canvas), x, y, direction, player_style(player)[0], 1.0)
        box = canvas.getbbox()
        if box is not None:
            pieces.append((box[0], box[1], canvas.crop(box)))
    return _ARROWS.put(key, pieces)


def boxes(item: Item) -> list[Box]:
    """Where an item draws (its pasted pieces, its arrows)."""
    return list(_placed(item))


#: item -> the box each of its pieces covers (see `_placed`)
_PLACED: dict[Item, list[Box]] = {}


def _placed(item: Item) -> list[Box]:
    """The boxes `_pieces` of an item cover, in order, kept (every board tests every claimed
    route's pieces against the rectangles it maps: 130 routes x 5 players at most)."""
    found = _PLACED.get(item)
    if found is None:
        found = _PLACED[item] = [(x0, y0, x0 + sprite.width, y0 + sprite.height) for x0, y0, sprite in _pieces(item)]
    return found


def draw_items(image: Image.Image, drawn: tuple[Item, ...]) -> None:
    """Pastes (and draws the arrows of) `drawn` on `image`, in order: the whole board
    (`render.rails_and_sails.board_image`), drawn as before any layer was kept."""
    for item in drawn:
        kind, route_id, player = item
        for x0, y0, sprite in _blocked_sprite(route_id) if kind == "twin" else _claimed_sprite(route_id, player):
            image.paste(sprite, (x0, y0), sprite)
        arrows = _arrows(item)
        if arrows:
            draw = Draw(image)
            for x, y, direction in arrows:
                _wrap_arrow(draw, x, y, direction, player_style(player)[0], 1.0)


def touches(a: Box, b: Box) -> bool:
    """Whether boxes `a` and `b` (right and bottom excluded) share a pixel."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _clip(box: Box) -> Box | None:
    left, top, right, bottom = max(box[0], 0), max(box[1], 0), min(box[2], WIDTH), min(box[3], HEIGHT)
    return (left, top, right, bottom) if left < right and top < bottom else None


def redrawn(base: Image.Image, region: Box, drawn: tuple[Item, ...]) -> Image.Image:
    """The layer's routes inside `region`, drawn afresh: the base there and every piece that
    touches it pasted in order (a paste is per pixel, so a clipped one gives the same pixels)."""
    left, top = region[0], region[1]
    part = base.crop(region)
    for item in drawn:
        for x0, y0, sprite in _pieces(item):
            if touches((x0, y0, x0 + sprite.width, y0 + sprite.height), region):
                part.paste(sprite, (x0 - left, y0 - top), sprite)
    return part


def paste_into(board: Image.Image, regions: list[Box], drawn: tuple[Item, ...]) -> None:
    """On `board` (the base), the routes right inside `regions`: every piece that touches one
    pasted once, in order (outside the regions the board may differ from the layer)."""
    for item in drawn:
        for i, (left, top, right, bottom) in enumerate(_placed(item)):
            for r_left, r_top, r_right, r_bottom in regions:  # `touches`, inlined: the hot loop
                if left < r_right and r_left < right and top < r_bottom and r_top < bottom:
                    sprite = _pieces(item)[i][2]
                    board.paste(sprite, (left, top), sprite)
                    break


def _with_labels(part: Image.Image, region: Box, labels: Pieces) -> Image.Image:
    """`part` (the layer inside `region`) with the city names that touch it pasted again."""
    for x0, y0, sprite in labels:
        if touches((x0, y0, x0 + sprite.width, y0 + sprite.height), region):
            part.paste(sprite, (x0 - region[0], y0 - region[1]), sprite)
    return part


def _grown(before: Claimed, base: Image.Image, drawn: tuple[Item, ...],
           labels: Pieces) -> tuple[Claimed, Image.Image | None]:
    """The layer of `drawn` from a kept one whose items are some of them (see the module), and
    when it drew them all (more than `GROW` new boxes) the base with every route on it."""
    old = before.has or frozenset(before.items)
    regions = [c for item in drawn if item not in old for b in boxes(item) if (c := _clip(b)) is not None]
    image = None
    if len(regions) > GROW:
        image = base.copy()
        draw_items(image, drawn)
        regions = _merged(regions, WIDTH, HEIGHT)  # few big conversions, not one per route
        parts = [(region, _with_labels(image.crop(region), region, labels)) for region in regions]
    else:
        parts = [(region, _with_labels(redrawn(base, region, drawn), region, labels)) for region in regions]
    return Claimed(drawn, before.layer.derive(parts), frozenset(drawn)), image


def layer(key: Hashable, base: Image.Image, base_layer: StaticLayer, drawn: tuple[Item, ...],
          labels: Pieces) -> tuple[Claimed, Image.Image | None]:
    """The claimed-routes layer of `drawn` on `base` (the static layer, which the object `key`
    stands for; `base_layer` is it with the names pasted again, mapped): kept, grown from a kept
    one, or made; and the base with all the routes on it when that was drawn on the way (a
    new picture the caller may draw on), else None. A kept layer that grows into this one is
    dropped (most likely the same table's layer of its previous claim), unless it has no
    routes (every new table's)."""
    wanted = frozenset(drawn)
    with _lock:
        found = _kept.pop((key, drawn), None)
        if found is not None:
            _kept[key, drawn] = found  # now the most recently used
            return found, None
        start = max((c for (k, _d), c in _kept.items() if k is key and c.has <= wanted),
                    key=lambda c: len(c.items), default=None)
    if start is None:
        start = Claimed((), base_layer)
    made, image = _grown(start, base, drawn, labels)
    with _lock:
        if start.items:
            _forget((key, start.items))
        newest = _newest[0]
        if newest is not None and newest in _kept:  # compacted since it was kept: measured anew
            _sizes[newest] = _kept[newest].layer.own_bytes()
        _forget((key, drawn))
        _kept[(key, drawn)] = made
        _sizes[(key, drawn)] = made.layer.own_bytes()
        _newest[0] = (key, drawn)
        limit = budget.limit(BUDGET)
        while len(_kept) > 1 and sum(_sizes.get(k, 0) for k in _kept) > limit:
            _forget(next(iter(_kept)))
    return made, image


def _forget(entry: tuple[Hashable, tuple[Item, ...]]) -> None:
    _kept.pop(entry, None)
    _sizes.pop(entry, None)


def clear() -> None:
    """Forgets every kept layer (the render budget set anew, tests)."""
    with _lock:
        _kept.clear()
        _sizes.clear()
        _newest[0] = None


budget.emptied_by(BUDGET, clear)


def _after_fork() -> None:
    """A forked render worker starts with an unheld lock (another thread may have held it)."""
    global _lock
    _lock = threading.Lock()


os.register_at_fork(after_in_child=_after_fork)


def warm(players: int) -> Iterator[None]:
    """Make every route's sprites (claimed by each of `players` seats, blocked, and the last
    claim's frames, `highlight`) ahead, a route per step: a table first drawn mid-game needs
    dozens at once (about 3 ms each), which made its first board the slowest, and a claim turn
    the frames of its route. About 3 s of CPU for a render worker, a few MB."""
    for route_id in geometry().routes:
        _blocked_sprite(route_id)
        highlight.pieces(route_id)
        for player in range(players):
            _claimed_sprite(route_id, player)
            _arrow_pieces(route_id, player)
        yield
