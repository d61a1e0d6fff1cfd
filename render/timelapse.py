"""The timelapse of a finished game: an animated GIF of its board, one frame per round.

Generic: the caller hands in a function that draws frame `i` as PNG bytes (the game's own
`render_board` on the public view after round `i`) and a caption per frame. Each frame is
scaled to about 900 px wide (a phone shows it whole), gets a band with its caption and a
progress bar on top (readable at that size, and it makes every frame differ, so none is
merged away), and is mapped onto one palette shared by all frames: GIF then stores only
the rectangle that changed since the previous frame, which keeps a 60-round game within
Discord's 8 MB. If it is still larger, the frames are made smaller until it fits.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw

from render.common import INK, PAPER, draw_text, font

WIDTH = 900
#: Discord's upload limit for a bot without boosts
MAX_BYTES = 8 * 1024 * 1024
FRAME_MS = 900
LAST_FRAME_MS = 5000
BAND_H = 54
_BAR = (43, 108, 176)  # the blue of the boards' headers
_TRACK = (214, 210, 200)


def timelapse_gif(count: int, frame: Callable[[int], bytes], captions: Sequence[str], *, width: int = WIDTH,
                  frame_ms: int = FRAME_MS, last_ms: int = LAST_FRAME_MS, max_bytes: int = MAX_BYTES) -> bytes:
    """The GIF of `count` frames (`frame(i)` -> PNG bytes, `captions[i]` above it), the last
    held longer; never more than `max_bytes` (frames shrink by steps of 15 % until it fits).
    Each board is scaled and mapped as soon as it is drawn, so a long game's frames take
    one byte per pixel of the small size, not a full board each."""
    if count < 1 or len(captions) != count:
        raise ValueError("a timelapse needs one caption per frame and at least one frame")

    def framed(i: int) -> Image.Image:
        return _framed(Image.open(io.BytesIO(frame(i))), captions[i], i, count, width)

    ends = {count - 1: framed(count - 1)}
    if 0 not in ends:
        ends[0] = framed(0)
    palette = _shared_palette([ends[0], ends[count - 1]])
    frames = [(ends[i] if i in ends else framed(i)).quantize(palette=palette, dither=Image.Dither.NONE)
              for i in range(count)]
    while True:
        data = _encode(frames, frame_ms, last_ms)
        if len(data) <= max_bytes or frames[0].width <= 240:
            return data
        frames = [_shrunk(f, palette) for f in frames]


def _encode(frames: list[Image.Image], frame_ms: int, last_ms: int) -> bytes:
    durations = [frame_ms] * (len(frames) - 1) + [last_ms]
    out = io.BytesIO()
    frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0,
                   optimize=True, disposal=1)
    return out.getvalue()


def _shrunk(image: Image.Image, palette: Image.Image) -> Image.Image:
    """A mapped frame 15 % smaller, mapped again onto the shared palette."""
    size = (int(image.width * 0.85), int(image.height * 0.85))
    return image.convert("RGB").resize(size, Image.Resampling.LANCZOS).quantize(palette=palette,
                                                                                 dither=Image.Dither.NONE)


def _framed(board: Image.Image, caption: str, index: int, count: int, width: int) -> Image.Image:
    """The board scaled to `width`, under a band with the caption and how far the game is."""
    scaled = _scaled(board.convert("RGB"), width)
    height = scaled.height
    band = max(28, round(BAND_H * width / WIDTH))
    image = Image.new("RGB", (width, height + band), PAPER)
    image.paste(scaled, (0, band))
    draw = ImageDraw.Draw(image)
    f = font(max(14, round(band * 0.56)), "bold")
    draw_text(draw, (14, band * 0.45), caption, font=f, fill=INK, anchor="lm", max_width=width * 0.6)
    bar_left, bar_right = width * 0.64, width - 14
    bar_top, bar_bottom = band * 0.32, band * 0.62
    draw.rounded_rectangle((bar_left, bar_top, bar_right, bar_bottom), radius=6, fill=_TRACK)
    done = bar_left + (bar_right - bar_left) * (index + 1) / count
    draw.rounded_rectangle((bar_left, bar_top, done, bar_bottom), radius=6, fill=_BAR)
    draw.line((0, band - 1, width, band - 1), fill=INK, width=1)
    return image


def _scaled(board: Image.Image, width: int) -> Image.Image:
    """`board` at `width`: first shrunk by a whole factor with `reduce` (a box average, ten
    times cheaper than LANCZOS and as sharp at a factor of 2, which the boards drawn at twice
    the timelapse's width get alone), then LANCZOS for what is left, if anything."""
    factor = board.width // width
    if factor >= 2:
        board = board.reduce(factor)
    if board.width == width:
        return board
    height = max(1, round(board.height * width / board.width))
    return board.resize((width, height), Image.Resampling.LANCZOS)


def _shared_palette(frames: list[Image.Image]) -> Image.Image:
    """One 256-colour palette for every frame, taken from the first and the last ones side
    by side (the last board holds the most pieces, the first the empty spaces), at half size."""
    small = [f.reduce(2) for f in frames]  # a quarter of the pixels: the same colours, 4x less work
    w = max(f.width for f in small)
    mosaic = Image.new("RGB", (w * len(small), max(f.height for f in small)), PAPER)
    for k, f in enumerate(small):
        mosaic.paste(f, (w * k, 0))
    return mosaic.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
