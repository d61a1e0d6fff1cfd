"""The focus view: what the last move changed, at a size a phone can read.

Most players read Discord on a phone, in a column about 400 px wide, where a whole board of
1600-1800 px shows every city name 3-4 px tall. The focus image is drawn for that column:
`FOCUS_W` pixels wide (shown at half size, so every pixel counts twice as sharp on a phone's
screen), it holds a close-up of the map around the cities of the last move (a crop of the
very board, enlarged, those cities' names drawn again large), a small overview of the whole
map with the close-up's frame on it, and every player's score in large type.

It is made from what the board is made from (the public view and the last change's public
events) by each big-map game's `render_focus`, which hands `compose` a `Focus`: its board
image, where the map is on it, the places of the last move and the scores.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from render import budget
from render.common import (
    INK,
    MUTED,
    PAPER,
    PLAYER_COLOURS,
    Draw,
    draw_text,
    draw_token,
    encode_png,
    fixed_palette,
    font,
    ramp,
    text_length,
)
from render.png import encode_plain

Box = tuple[int, int, int, int]

#: the focus image's width: twice the phone column it is made for
FOCUS_W = 800
#: the close-up's size in the focus image (16:9)
CLOSE_W, CLOSE_H = FOCUS_W, 450
#: the smallest part of a board the close-up shows (board pixels across): closer than this
#: the board's own drawing would be blown up past what it was drawn for
MIN_CROP_W = 560
#: room kept around the places of the last move (board pixels)
CROP_PAD = 120
#: a city name and a score in the focus image (pixels at FOCUS_W; half of it on a phone)
PLACE_SIZE = 32
SCORE_SIZE = 34
NAME_SIZE = 30
ROW_H = 58
OVERVIEW_W = 210
HIGHLIGHT = (214, 40, 40)
PILL = (255, 255, 255)


@dataclass(frozen=True)
class Place:
    """A city of the last move: its name as the board writes it and its point on the board."""

    name: str
    x: float
    y: float


@dataclass(frozen=True)
class Score:
    """One player's row: seat index (colour, letter, shape), name and score as shown."""

    index: int
    name: str
    value: str


@dataclass(frozen=True)
class Focus:
    """What a game hands `compose`: its board, the map's box on it, the places of the last
    move (none: the whole map is shown), the scores and the word over them."""

    board: Image.Image
    map_box: Box
    places: list[Place]
    scores: list[Score]
    score_label: str
    #: the board's fixed palette (None: an adaptive one per image); see `focus_palette`
    palette: Image.Image | None = None


@dataclass
class Drawn:
    """The focus image and where its texts went (`kind`, text, box), for tests that measure
    them at phone size."""

    image: Image.Image
    texts: list[tuple[str, str, Box]] = field(default_factory=list)


def places_of(events: Iterable[Mapping[str, Any]], known: Iterable[str],
              keys: tuple[str, ...] = ("from", "to", "a", "b", "city", "location")) -> list[str]:
    """The cities the public events of the last change name (in order, once each), among
    `known`: a journey's ends, a claimed route's ends, a harbor, a stay."""
    known_set = set(known)
    out: list[str] = []
    for event in events:
        if not isinstance(event, Mapping):
            continue
        for key in keys:
            value = event.get(key)
            if isinstance(value, str) and value in known_set and value not in out:
                out.append(value)
    return out


def crop_box(places: list[Place], map_box: Box) -> Box:
    """The part of the board the close-up shows: around the places, at least `MIN_CROP_W`
    wide, 16:9, inside the map; the whole map when they are too far apart (or none)."""
    mx0, my0, mx1, my1 = map_box
    if not places:
        return map_box
    xs, ys = [p.x for p in places], [p.y for p in places]
    w = max(MIN_CROP_W, max(xs) - min(xs) + 2 * CROP_PAD, (max(ys) - min(ys) + 2 * CROP_PAD) * CLOSE_W / CLOSE_H)
    h = w * CLOSE_H / CLOSE_W
    if w > mx1 - mx0 or h > my1 - my0:
        return map_box
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    x0 = min(max(cx - w / 2, mx0), mx1 - w)
    y0 = min(max(cy - h / 2, my0), my1 - h)
    return round(x0), round(y0), round(x0 + w), round(y0 + h)


def _fit(box: Box, width: int, height: int) -> tuple[float, int, int]:
    """Scale and offset that fit `box` into width × height, centred."""
    bw, bh = box[2] - box[0], box[3] - box[1]
    scale = min(width / bw, height / bh)
    return scale, round((width - bw * scale) / 2), round((height - bh * scale) / 2)


def _label_box(place: Place, at: tuple[float, float], below: bool) -> Box:
    """Where a place's name pill goes: above (or below) its point, inside the close-up."""
    width = min(text_length(place.name, font(PLACE_SIZE, "bold")), CLOSE_W - 40)
    pill_w, pill_h = width + 24, PLACE_SIZE + 16
    x, y = at
    left = min(max(x - pill_w / 2, 6), CLOSE_W - pill_w - 6)
    top = y + 20 if below else y - 20 - pill_h
    top = min(max(top, 6), CLOSE_H - pill_h - 6)
    return round(left), round(top), round(left + pill_w), round(top + pill_h)


def _label(image: Image.Image, place: Place, box: Box) -> None:
    """A place's name in a white pill at `box`."""
    draw = Draw(image)
    draw.rounded_rectangle(box, radius=10, fill=PILL, outline=INK, width=2)
    draw_text(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), place.name, font=font(PLACE_SIZE, "bold"),
              fill=INK, anchor="mm", max_width=CLOSE_W - 40)


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _overview(image: Image.Image, board: Image.Image, map_box: Box, crop: Box, places: list[Place]) -> None:
    """The whole map, small, in the corner farther from the places, the close-up framed."""
    mx0, my0, mx1, my1 = map_box
    scale = OVERVIEW_W / (mx1 - mx0)
    height = round((my1 - my0) * scale)
    # a box reduction first, then a bilinear step (Lanczos over the whole map cost as much as
    # drawing the board), reduced from the map's box in place (no copy of the whole map first)
    factor = max(1, int((mx1 - mx0) / OVERVIEW_W))
    whole = board.reduce(factor, box=map_box) if factor > 1 else board.crop(map_box)
    small = whole.resize((OVERVIEW_W, height), Image.Resampling.BILINEAR)
    cx = sum(p.x for p in places) / len(places) if places else mx1
    left = 8 if cx > (crop[0] + crop[2]) / 2 else CLOSE_W - OVERVIEW_W - 8
    top = 8
    draw = Draw(image)
    draw.rectangle((left - 3, top - 3, left + OVERVIEW_W + 2, top + height + 2), fill=INK)
    image.paste(small, (left, top))
    fx0, fy0 = left + (crop[0] - mx0) * scale, top + (crop[1] - my0) * scale
    fx1, fy1 = left + (crop[2] - mx0) * scale, top + (crop[3] - my0) * scale
    draw.rectangle((fx0, fy0, fx1, fy1), outline=HIGHLIGHT, width=3)


def compose(focus: Focus) -> Drawn:
    """The focus image (see the module): close-up with the places named, overview, scores."""
    crop = crop_box(focus.places, focus.map_box)
    cols = 2 if len(focus.scores) > 3 else 1
    rows = -(-len(focus.scores) // cols)
    height = CLOSE_H + 46 + rows * ROW_H + 10
    image = Image.new("RGB", (FOCUS_W, height), PAPER)
    scale, dx, dy = _fit(crop, CLOSE_W, CLOSE_H)
    part = focus.board.crop(crop).resize((round((crop[2] - crop[0]) * scale), round((crop[3] - crop[1]) * scale)),
                                         Image.Resampling.BILINEAR)
    image.paste(part, (dx, dy))
    drawn = Drawn(image)
    if crop != focus.map_box:
        _overview(image, focus.board, focus.map_box, crop, focus.places)
    placed: list[Box] = []
    labels: list[tuple[Place, tuple[float, float], Box]] = []
    for place in focus.places:
        at = (dx + (place.x - crop[0]) * scale, dy + (place.y - crop[1]) * scale)
        if not (0 <= at[0] <= CLOSE_W and 0 <= at[1] <= CLOSE_H):
            continue
        box = _label_box(place, at, below=False)
        if any(_overlaps(box, other) for other in placed):
            box = _label_box(place, at, below=True)
        placed.append(box)
        labels.append((place, at, box))
    draw = Draw(image)
    for _place, (x, y), _box in labels:  # the rings first: a name never hides under another's ring
        draw.ellipse((x - 13, y - 13, x + 13, y + 13), outline=HIGHLIGHT, width=5)
    for place, _at, box in labels:
        _label(image, place, box)
        inside = (box[0] + 8, box[1] + 4, box[2] - 8, box[3] - 4)  # the text, inside the outline
        drawn.texts.append(("place", place.name, inside))
    _scores(drawn, focus, cols)
    return drawn


def _scores(drawn: Drawn, focus: Focus, cols: int) -> None:
    """Every player's score under the close-up, in one or two columns."""
    draw = Draw(drawn.image)
    top = CLOSE_H
    draw.line((0, top, FOCUS_W, top), fill=INK, width=3)
    draw_text(draw, (FOCUS_W - 16, top + 23), focus.score_label, font=font(26, "semibold"), fill=MUTED, anchor="rm",
              max_width=FOCUS_W / 2)
    col_w = FOCUS_W // cols
    rows = -(-len(focus.scores) // cols)
    name_f, value_f = font(NAME_SIZE), font(SCORE_SIZE, "bold")
    for k, score in enumerate(focus.scores):
        col, row = divmod(k, rows)
        x0 = col * col_w
        y = top + 46 + row * ROW_H + ROW_H / 2
        draw_token(draw, (x0 + 34, y), 19, score.index)
        value_w = text_length(score.value, value_f)
        right = x0 + col_w - 22
        draw.text((right, y), score.value, font=value_f, fill=INK, anchor="rm")
        drawn.texts.append(("score", score.value, (round(right - value_w), round(y - ROW_H / 2), round(right),
                                                   round(y + ROW_H / 2))))
        draw_text(draw, (x0 + 64, y), score.name, font=name_f, fill=INK, anchor="lm",
                  max_width=right - value_w - 20 - (x0 + 64))


def own_colours() -> list[tuple[int, int, int]]:
    """The colours the focus view draws over the enlarged map, with their anti-aliasing ramps:
    names in pills, the red rings, the scores and the players' tokens."""
    white = (255, 255, 255)
    colours = list(PLAYER_COLOURS)
    for a, b in ((INK, PILL), (INK, PAPER), (MUTED, PAPER), (HIGHLIGHT, PILL), (HIGHLIGHT, INK), (white, INK)):
        colours += ramp(a, b, 7)
    for colour in PLAYER_COLOURS:
        colours += ramp(colour, PAPER, 4)[1:3] + ramp(colour, white, 4)[1:3] + ramp(colour, INK, 4)[1:3]
    return colours


@budget.memoized("layers", by=lambda board_palette: bytes(board_palette.getpalette() or []))
def focus_palette(board_palette: Image.Image) -> Image.Image:
    """The focus view's fixed palette: its own colours exact (`own_colours`), the rest from the
    palette of the board whose map it enlarges. Mapping onto it takes a quarter of the time of
    an adaptive palette per image (0.7 against 2.9 ms), and the map keeps the board's colours
    (an adaptive palette merged the faint lines of the rails map's sea into the sea)."""
    raw = board_palette.getpalette() or []
    sample = Image.frombytes("RGB", (len(raw) // 3, 1), bytes(raw))
    return fixed_palette(sample, own_colours())


def encode(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """PNG bytes of the focus image, on 256 colours (a close-up of a board needs no more):
    mapped onto `focus_palette` of the board's `palette` when the game gives it, else on an
    adaptive palette (`encode_png`)."""
    if palette is None:
        return encode_png(image)
    return encode_plain(image.quantize(palette=focus_palette(palette), dither=Image.Dither.NONE))


def render(focus: Focus) -> bytes:
    """`compose` then `encode`: the focus PNG a game's `render_focus` returns."""
    return encode(compose(focus).image, focus.palette)


def signed(value: int) -> str:
    """A score as the boards print it: a true minus sign."""
    return str(value).replace("-", "−")
