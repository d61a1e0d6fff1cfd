"""The claimed-routes layer of the rails-and-sails board, kept between turns of a game.

A board pastes every claimed route (and the veils over blocked twins) on the static layer,
then the city names again over them. That was most of a turn's drawing, and mapping those
boxes onto the palette and deflating their bands most of the rest, although most turns
claim nothing and a claim adds one route. So the layer (static layer plus routes, and the
same with the names pasted again, mapped onto the palette) is kept, keyed by exactly what
is on it: the static layer's words and the routes in drawing order with their owners. A
turn whose routes are those of a kept layer starts from it; one that adds routes to a kept
layer redraws only the boxes of the new routes (from the static layer, every route that
touches them pasted again in order, so the pixels are those of a full redraw), and maps only
those. Anything else (an undo, another table) builds the layer afresh. A few layers are
kept, per process (several tables at once); the oldest goes first.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Iterator
from dataclasses import dataclass

from PIL import Image

from render.common import Draw, player_style
from render.png import Box, StaticLayer, _merged
from render.rails_and_sails.geometry import HEIGHT, WIDTH, _edge_crossings, _twins, geometry
from render.rails_and_sails.sprites import _blocked_sprite, _claimed_sprite, _wrap_arrow

#: layers kept (about 6 MB each: the RGB layer, plus the bands that differ from the static layer)
KEEP = 6
#: new boxes up to which a layer is grown box by box; more (a table first seen mid-game) are
#: drawn whole and mapped in merged rectangles
GROW = 8

#: one thing on the layer, in drawing order: ("twin", route, 0) a blocked twin's veil,
#: ("claim", route, player) a claimed route in its owner's colour
Item = tuple[str, str, int]
Pieces = list[tuple[int, int, Image.Image]]


@dataclass(frozen=True)
class Claimed:
    """A kept layer: `image` (static layer and routes, RGB) and `layer` (the same with the city
    names pasted again, mapped: what the board is outside the boxes a turn draws in)."""

    items: tuple[Item, ...]
    image: Image.Image
    layer: StaticLayer


_kept: OrderedDict[tuple[Hashable, tuple[Item, ...]], Claimed] = OrderedDict()


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
    kind, route_id, player = item
    return _blocked_sprite(route_id) if kind == "twin" else _claimed_sprite(route_id, player)


def _arrows(item: Item) -> list[tuple[float, float, int]]:
    """The wrap arrows drawn with a claimed route that leaves one edge of the map."""
    g = geometry().routes[item[1]]
    return list(_edge_crossings(g)) if item[0] == "claim" and g.wraps else []


def _arrow_box(x: float, y: float) -> Box:
    return int(x - 19), int(y - 12), int(x + 19) + 1, int(y + 12) + 1


def boxes(item: Item) -> list[Box]:
    """Where an item draws (its pasted pieces, its arrows)."""
    out = [(x0, y0, x0 + sprite.width, y0 + sprite.height) for x0, y0, sprite in _pieces(item)]
    return out + [_arrow_box(x, y) for x, y, _d in _arrows(item)]


def draw_items(image: Image.Image, drawn: tuple[Item, ...]) -> None:
    """Pastes (and draws the arrows of) `drawn` on `image`, in order."""
    for item in drawn:
        for x0, y0, sprite in _pieces(item):
            image.paste(sprite, (x0, y0), sprite)
        arrows = _arrows(item)
        if arrows:
            draw = Draw(image)
            for x, y, direction in arrows:
                _wrap_arrow(draw, x, y, direction, player_style(item[2])[0], 1.0)


def touches(a: Box, b: Box) -> bool:
    """Whether boxes `a` and `b` (right and bottom excluded) share a pixel."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _clip(box: Box) -> Box | None:
    left, top, right, bottom = max(box[0], 0), max(box[1], 0), min(box[2], WIDTH), min(box[3], HEIGHT)
    return (left, top, right, bottom) if left < right and top < bottom else None


def _redrawn(base: Image.Image, region: Box, drawn: tuple[Item, ...]) -> Image.Image | None:
    """The layer inside `region`, drawn afresh: the base there and every piece that touches
    it pasted in order (a paste is per pixel, so a clipped one gives the same pixels). None
    when an arrow touches it (arrows are drawn, not pasted: then the whole layer is redrawn)."""
    left, top = region[0], region[1]
    part = base.crop(region)
    for item in drawn:
        if any(touches(_arrow_box(x, y), region) for x, y, _d in _arrows(item)):
            return None
        for x0, y0, sprite in _pieces(item):
            if touches((x0, y0, x0 + sprite.width, y0 + sprite.height), region):
                part.paste(sprite, (x0 - left, y0 - top), sprite)
    return part


def _with_labels(part: Image.Image, region: Box, labels: Pieces) -> Image.Image:
    """`part` (the layer inside `region`) with the city names that touch it pasted again."""
    named = part.copy()
    for x0, y0, sprite in labels:
        if touches((x0, y0, x0 + sprite.width, y0 + sprite.height), region):
            named.paste(sprite, (x0 - region[0], y0 - region[1]), sprite)
    return named


def _grown(before: Claimed, base: Image.Image, drawn: tuple[Item, ...], labels: Pieces) -> Claimed:
    """The layer of `drawn` from a kept one whose items are some of them (see the module)."""
    old = set(before.items)
    regions = [c for item in drawn if item not in old for b in boxes(item) if (c := _clip(b)) is not None]
    image = before.image.copy()
    parts = [(region, _redrawn(base, region, drawn)) for region in regions] if len(regions) <= GROW else []
    if len(regions) > GROW or any(part is None for _r, part in parts):
        image = base.copy()
        draw_items(image, drawn)
        regions = _merged(regions, WIDTH, HEIGHT)  # few big conversions, not one per route
        parts = [(region, image.crop(region)) for region in regions]
    else:
        for region, part in parts:
            assert part is not None
            image.paste(part, region[:2])
    named = []
    for region, part in parts:
        assert part is not None
        named.append((region, _with_labels(part, region, labels)))
    return Claimed(drawn, image, before.layer.derive(named))


def layer(key: Hashable, base: Image.Image, base_layer: StaticLayer, drawn: tuple[Item, ...],
          labels: Pieces) -> Claimed:
    """The claimed-routes layer of `drawn` on `base` (the static layer, whose words `key`
    names; `base_layer` is it with the names pasted again, mapped): kept, grown from a kept
    one, or made."""
    found = _kept.get((key, drawn))
    if found is not None:
        _kept.move_to_end((key, drawn))
        return found
    wanted = set(drawn)
    start = max((c for (k, _d), c in _kept.items() if k == key and set(c.items) <= wanted),
                key=lambda c: len(c.items), default=None)
    if start is None:
        start = Claimed((), base, base_layer)
    made = _grown(start, base, drawn, labels)
    _kept[(key, drawn)] = made
    while len(_kept) > KEEP:
        _kept.popitem(last=False)
    return made


def warm(players: int) -> Iterator[None]:
    """Make every route's sprites (claimed by each of `players` seats, blocked) ahead, a route
    per step: a table first drawn mid-game needs dozens at once (about 3 ms each), which made
    its first board the slowest. About 2.5 s of CPU for a render worker, a few MB."""
    for route_id in geometry().routes:
        _blocked_sprite(route_id)
        for player in range(players):
            _claimed_sprite(route_id, player)
        yield
