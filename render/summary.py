"""The summary image of a finished game: standings with the scoring breakdown, a chart of
each player's progress round by round, and a few highlights.

Generic over games: the bot hands in a `Summary` whose texts are already worded in the
image's language (from the game's catalogs) and whose numbers come from the engine's
public summary contract (`Rules.progress`, `score_parts`, `highlights`). Sized for a phone:
900 px wide, body text at least 26 px, every player drawn in their board colour *and* with
their pawn's letter and shape, so colour is never the only cue.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from PIL import Image, ImageDraw, ImageFont

from render.common import INK, MUTED, PAPER, draw_text, draw_token, encode_png, font, player_style, text_length

WIDTH = 900
MARGIN = 28
_HEADER = (43, 108, 176)
_GRID = (220, 214, 202)
_ROW_TINT = (241, 235, 224)
_MEDALS = {1: (212, 160, 23), 2: (160, 166, 172), 3: (176, 112, 62)}
CHART_H = 380


@dataclass(frozen=True)
class Standing:
    """One line of the standings: `index` is the seat's turn-order position (its colour)."""

    index: int
    name: str
    rank: int
    score: str
    parts: str = ""


@dataclass(frozen=True)
class Summary:
    """Everything the image shows, already translated."""

    title: str
    subtitle: str
    standings: list[Standing]
    #: seat index -> its progress after each round (x = 0..rounds); None where unknown
    series: dict[int, list[float | None]] = field(default_factory=dict)
    headings: tuple[str, str, str] = ("Standings", "Progress", "Highlights")
    x_label: str = "round"
    y_label: str = ""
    highlights: list[str] = field(default_factory=list)


def render_summary(summary: Summary) -> bytes:
    """The summary as PNG bytes."""
    f_title, f_sub = font(40, "bold"), font(26)
    f_head, f_name, f_parts = font(32, "bold"), font(30, "semibold"), font(24)
    f_body = font(27)
    highlight_lines = [_wrap(text, f_body, WIDTH - 2 * MARGIN - 34) for text in summary.highlights]
    rows_h = sum(78 if s.parts else 56 for s in summary.standings)
    height = (96 + 30 + 50 + rows_h + 24 + 50 + CHART_H + 24
              + (50 + sum(len(lines) * 34 + 10 for lines in highlight_lines) if highlight_lines else 0) + MARGIN)
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 96), fill=_HEADER)
    size = 40
    while size > 28 and text_length(summary.title, f_title) > WIDTH - 2 * MARGIN:
        size -= 2
        f_title = font(size, "bold")
    draw_text(draw, (MARGIN, 48), summary.title, font=f_title, fill=(255, 255, 255), anchor="lm",
              max_width=WIDTH - 2 * MARGIN)
    y = 108
    draw_text(draw, (MARGIN, y), summary.subtitle, font=f_sub, fill=MUTED, anchor="lt", max_width=WIDTH - 2 * MARGIN)
    y += 30 + 14
    y = _heading(draw, y, summary.headings[0], f_head)
    for k, standing in enumerate(summary.standings):
        y = _standing(draw, y, standing, k, f_name, f_parts)
    y += 24
    y = _heading(draw, y, summary.headings[1], f_head)
    _chart(draw, (MARGIN, y, WIDTH - MARGIN, y + CHART_H), summary)
    y += CHART_H + 24
    if highlight_lines:
        y = _heading(draw, y, summary.headings[2], f_head)
        for lines in highlight_lines:
            _star(draw, (MARGIN + 12, y + 17), 12)
            for line in lines:
                draw_text(draw, (MARGIN + 34, y), line, font=f_body, fill=INK, anchor="lt",
                          max_width=WIDTH - 2 * MARGIN - 34)
                y += 34
            y += 10
    return encode_png(image)


def _star(draw: ImageDraw.ImageDraw, centre: tuple[float, float], r: float) -> None:
    """A gold five-pointed star (drawn: the fonts have no star glyph)."""
    x, y = centre
    points = [(x + (r if k % 2 == 0 else r * 0.45) * math.cos(-math.pi / 2 + k * math.pi / 5),
               y + (r if k % 2 == 0 else r * 0.45) * math.sin(-math.pi / 2 + k * math.pi / 5)) for k in range(10)]
    draw.polygon(points, fill=_MEDALS[1], outline=INK)


def _heading(draw: ImageDraw.ImageDraw, y: int, text: str, f: ImageFont.FreeTypeFont) -> int:
    draw_text(draw, (MARGIN, y), text, font=f, fill=INK, anchor="lt", max_width=WIDTH - 2 * MARGIN)
    draw.line((MARGIN, y + 40, WIDTH - MARGIN, y + 40), fill=_GRID, width=2)
    return y + 50


def _standing(draw: ImageDraw.ImageDraw, y: int, s: Standing, k: int, f_name: ImageFont.FreeTypeFont,
              f_parts: ImageFont.FreeTypeFont) -> int:
    """One player's line: rank, pawn, name, score; the breakdown below in smaller type."""
    h = 78 if s.parts else 56
    if k % 2 == 0:
        draw.rectangle((MARGIN - 8, y, WIDTH - MARGIN + 8, y + h - 4), fill=_ROW_TINT)
    medal = _MEDALS.get(s.rank)
    cx, cy = MARGIN + 22, y + 26
    if medal:
        draw.ellipse((cx - 20, cy - 20, cx + 20, cy + 20), fill=medal, outline=INK, width=2)
    draw.text((cx, cy), str(s.rank), font=font(26, "bold"), fill=INK, anchor="mm")
    draw_token(draw, (MARGIN + 76, cy), 17, s.index)
    score_w = text_length(s.score, f_name)
    draw.text((WIDTH - MARGIN, cy), s.score, font=f_name, fill=INK, anchor="rm")
    draw_text(draw, (MARGIN + 106, cy), s.name, font=f_name, fill=INK, anchor="lm",
              max_width=WIDTH - 2 * MARGIN - 106 - score_w - 16)
    if s.parts:
        draw_text(draw, (MARGIN + 106, y + 50), s.parts, font=f_parts, fill=MUTED, anchor="lt",
                  max_width=WIDTH - 2 * MARGIN - 106)
    return y + h


def _chart(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], summary: Summary) -> None:
    """Lines of each seat's progress, with the seat's pawn at the end of its line."""
    left, top, right, bottom = box
    f_axis = font(22)
    values = [v for series in summary.series.values() for v in series if v is not None]
    rounds = max((len(s) for s in summary.series.values()), default=1) - 1
    lo, hi = (min(values), max(values)) if values else (0.0, 1.0)
    lo = min(lo, 0.0)
    step = _nice_step((hi - lo) / 5 if hi > lo else 1.0)
    lo, hi = math.floor(lo / step) * step, math.ceil(hi / step) * step
    if hi <= lo:
        hi = lo + step
    plot_left, plot_right = left + 64, right - 56
    plot_top, plot_bottom = top + 34, bottom - 44
    draw_text(draw, (left, top), summary.y_label, font=f_axis, fill=MUTED, anchor="lt", max_width=right - left)

    def px(x: float) -> float:
        return plot_left + (plot_right - plot_left) * (x / rounds if rounds else 0.5)

    def py(v: float) -> float:
        return plot_bottom - (plot_bottom - plot_top) * (v - lo) / (hi - lo)

    tick = lo
    while tick <= hi + step / 2:
        y = py(tick)
        draw.line((plot_left, y, plot_right, y), fill=_GRID, width=1)
        draw.text((plot_left - 8, y), _number(tick), font=f_axis, fill=MUTED, anchor="rm")
        tick += step
    x_step = max(1, _nice_step(rounds / 8) if rounds else 1)
    for x in range(0, rounds + 1, int(x_step)):
        draw.text((px(x), plot_bottom + 8), str(x), font=f_axis, fill=MUTED, anchor="mt")
    draw_text(draw, ((plot_left + plot_right) / 2, bottom), summary.x_label, font=f_axis, fill=MUTED, anchor="md")
    draw.line((plot_left, plot_top, plot_left, plot_bottom, plot_right, plot_bottom), fill=INK, width=2)
    ends: list[tuple[float, int, tuple[float, float]]] = []
    for index, series in summary.series.items():
        colour = player_style(index)[0]
        points = [(px(x), py(v)) for x, v in enumerate(series) if v is not None]
        if len(points) > 1:
            draw.line(points, fill=colour, width=5, joint="curve")
        if points:
            ends.append((points[-1][1], index, points[-1]))
    # each line's pawn in a column right of the chart, pushed apart so none hides another
    ends.sort()
    placed = _spread([y for y, _index, _point in ends], 30)
    for (_y, index, point), y in zip(ends, placed, strict=True):
        marker = (plot_right + 34, y)
        draw.line((point, (plot_right + 14, y), marker), fill=player_style(index)[0], width=2)
        draw_token(draw, marker, 14, index)


def _spread(wanted: list[float], gap: float) -> list[float]:
    """Positions as close to `wanted` (sorted) as they can be while `gap` apart: overlapping
    ones form a group centred on the mean of what its members want."""
    groups: list[list[float]] = []  # each: the wanted positions of its members
    for y in wanted:
        groups.append([y])
        while len(groups) > 1:
            prev, last = groups[-2], groups[-1]
            prev_end = _group_top(prev, gap) + gap * (len(prev) - 1)
            if _group_top(last, gap) >= prev_end + gap:
                break
            groups[-2:] = [prev + last]
    return [_group_top(g, gap) + gap * k for g in groups for k in range(len(g))]


def _group_top(group: list[float], gap: float) -> float:
    return sum(group) / len(group) - gap * (len(group) - 1) / 2


def _nice_step(raw: float) -> float:
    """1, 2 or 5 times a power of ten, at least `raw`."""
    if raw <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * power >= raw:
            return float(m * power)
    return float(10 * power)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _wrap(text: str, f: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """`text` in lines no wider than `width` (broken between words; at most three lines)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if current and text_length(trial, f) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines[:3]
