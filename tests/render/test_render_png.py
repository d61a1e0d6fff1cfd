"""The shared board PNG writer (`render.png`): band-cached deflate and static layers mapped
once must give the same pixels as mapping and writing a whole image, whatever the boxes."""

from __future__ import annotations

import io
import multiprocessing
import random
from collections import OrderedDict

import pytest
from PIL import Image, ImageDraw

from render import png


def _palette() -> Image.Image:
    pal = Image.new("P", (1, 1))
    pal.putpalette([(i * 37 + k * 91) % 256 for i in range(256) for k in range(3)])
    return pal


def _layer_image(width: int, height: int, seed: int) -> Image.Image:
    rng = random.Random(seed)
    img = Image.new("RGB", (width, height), (240, 230, 210))
    draw = ImageDraw.Draw(img)
    for _ in range(40):
        x, y = rng.randrange(width), rng.randrange(height)
        draw.ellipse((x, y, x + rng.randrange(5, 60), y + rng.randrange(5, 60)),
                     fill=(rng.randrange(256), rng.randrange(256), rng.randrange(256)))
    return img


def _decoded(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


@pytest.mark.parametrize(("width", "height"), [(1, 1), (37, 15), (300, 161), (64, 16)])
def test_encode_indexed_decodes_to_the_same_indices(width: int, height: int) -> None:
    rng = random.Random(width * height)
    raw = bytes(rng.randrange(256) for _ in range(width * height))
    pal = list(range(256)) * 3
    for _ in range(2):  # the second time every band comes from the cache
        img = _decoded(png.encode_indexed(raw, width, pal))
        assert img.mode == "P" and img.size == (width, height)
        assert img.tobytes() == raw


def test_the_same_band_bytes_in_rows_of_another_width_are_deflated_again() -> None:
    """A board's short last band can hold the very bytes of a narrower image's whole band
    (12 rows of 1600 = 16 rows of 1200): the cache must not hand one the other's rows."""
    pal = list(range(256)) * 3
    board = bytes(1600 * 16) + bytes(1600 * 12)
    hand = bytes(1200 * 16)
    assert _decoded(png.encode_indexed(board, 1600, pal)).tobytes() == board
    assert _decoded(png.encode_indexed(hand, 1200, pal)).tobytes() == hand


def test_static_layer_maps_only_its_boxes_yet_equals_the_whole_image() -> None:
    """Boxes of every kind (overlapping, partial and whole width, outside the image, float
    corners, inclusive edges): the PNG equals the whole board mapped in one go."""
    base = _layer_image(333, 170, 1)
    pal = _palette()
    layer = png.StaticLayer(base, pal)
    rng = random.Random(2)
    for turn in range(25):
        board = base.copy()
        draw = ImageDraw.Draw(board)
        boxes: list[tuple[float, float, float, float]] = []
        for _ in range(rng.randrange(0, 6)):
            x0, y0 = rng.uniform(-20, 340), rng.uniform(-20, 180)
            x1, y1 = x0 + rng.uniform(0, 200), y0 + rng.uniform(0, 40)
            draw.rectangle((x0, y0, x1, y1), fill=(rng.randrange(256), 0, rng.randrange(256)))
            boxes.append((x0, y0, x1, y1))  # floats: the layer rounds outwards
        whole = board.quantize(palette=pal, dither=Image.Dither.NONE)
        img = _decoded(layer.encode(board, boxes))
        assert img.tobytes() == whole.tobytes(), f"turn {turn}"
        assert img.getpalette() == whole.getpalette()


def test_a_drawing_outside_the_boxes_is_not_seen() -> None:
    """The layer trusts its boxes: what the renderers must guarantee (and what
    `test_render_equivalence` checks for every game)."""
    base = _layer_image(100, 40, 3)
    layer = png.StaticLayer(base, _palette())
    board = base.copy()
    ImageDraw.Draw(board).rectangle((60, 20, 70, 30), fill=(1, 2, 3))
    assert _decoded(layer.encode(board, [(0, 0, 10, 10)])).tobytes() == _decoded(layer.encode(base, [])).tobytes()


def _derived_over_a_box(height: int, seed: int, box: tuple[int, int, int, int], fill: tuple[int, int, int]
                        ) -> tuple[Image.Image, png.StaticLayer, Image.Image, png.StaticLayer]:
    """The palette and layer of a 300-wide layer image; the image with `box` filled on top;
    and the layer derived over that box."""
    base = _layer_image(300, height, seed)
    pal = _palette()
    layer = png.StaticLayer(base, pal)
    drawn = base.copy()
    ImageDraw.Draw(drawn).rectangle(box, fill=fill)
    x0, y0, x1, y1 = box[0], box[1], box[2] + 1, box[3] + 1
    return pal, layer, drawn, layer.derive([((x0, y0, x1, y1), drawn.crop((x0, y0, x1, y1)))])


def test_a_derived_layer_keeps_its_own_bands_deflated_only_and_grows_from_them() -> None:
    """`derive` shares untouched bands; after an encode the bands it changed are held only
    deflated, and deriving from it again (or mapping a turn over them) inflates them: the
    pixels equal the whole image mapped in one go."""
    pal, layer, first, grown = _derived_over_a_box(100, 5, (10, 20, 200, 40), (9, 200, 9))
    assert grown.bands[0] is layer.bands[0] and grown._own == {1, 2}
    grown.encode(first, [])
    assert grown.bands[1] is None and grown.bands[2] is None and grown.own_bytes() < 2 * 300 * png.BAND_ROWS
    second = first.copy()
    ImageDraw.Draw(second).ellipse((150, 30, 280, 90), fill=(200, 9, 9))
    again = grown.derive([((150, 30, 281, 91), second.crop((150, 30, 281, 91)))])
    board = second.copy()
    ImageDraw.Draw(board).rectangle((0, 25, 120, 60), fill=(1, 2, 3))
    whole = board.quantize(palette=pal, dither=Image.Dither.NONE)
    assert _decoded(again.encode(board, [(0, 25, 120, 60)])).tobytes() == whole.tobytes()
    before = first.quantize(palette=pal, dither=Image.Dither.NONE)
    assert _decoded(grown.encode(first, [])).tobytes() == before.tobytes()


@pytest.mark.parametrize("height", [100, 90])  # 90: a short last band (rows 80-89)
def test_whole_bands_drawn_over_are_not_inflated(monkeypatch: pytest.MonkeyPatch, height: int) -> None:
    """Deriving (or mapping a turn) over bands kept deflated only: a part covering whole rows
    of a band replaces it without inflating its old bytes; a band it covers in part still
    is inflated. The pixels equal the whole image mapped in one go."""
    base = _layer_image(300, height, 8)
    pal = _palette()
    layer = png.StaticLayer(base, pal)
    first = base.copy()
    ImageDraw.Draw(first).rectangle((0, 16, 299, height - 1), fill=(9, 200, 9))
    kept = layer.derive([((0, 16, 300, height), first.crop((0, 16, 300, height)))])
    kept.encode(first, [])
    assert all(kept.bands[b] is None for b in kept._own)  # held deflated only
    inflated: list[int] = []
    real = png._inflate

    def counting(deflated: bytes, width: int) -> bytes:
        inflated.append(len(deflated))
        return real(deflated, width)

    monkeypatch.setattr(png, "_inflate", counting)
    second = first.copy()
    ImageDraw.Draw(second).ellipse((40, 20, 260, height - 3), fill=(200, 9, 9))
    again = kept.derive([((0, 32, 300, height), second.crop((0, 32, 300, height)))])
    assert inflated == []  # bands 2.. covered whole (the last one to the image's bottom)
    partial = kept.derive([((0, 20, 300, 40), second.crop((0, 20, 300, 40)))])
    assert len(inflated) == 2  # bands 1 and 2 are covered in part only
    board = second.copy()
    ImageDraw.Draw(board).rectangle((0, 16, 299, 31), fill=(9, 200, 9))  # row band 1 as `kept` has it
    whole = board.quantize(palette=pal, dither=Image.Dither.NONE)
    assert _decoded(again.encode(board, [(0, 16, 299, 31)])).tobytes() == whole.tobytes()
    mixed = first.copy()
    mixed.paste(second.crop((0, 20, 300, 40)), (0, 20))
    assert _decoded(partial.encode(mixed, [])).tobytes() == mixed.quantize(
        palette=pal, dither=Image.Dither.NONE).tobytes()


def _fresh_inflated(monkeypatch: pytest.MonkeyPatch) -> None:
    """An empty cache of inflated bands for this test."""
    monkeypatch.setattr(png, "_inflated", OrderedDict())
    monkeypatch.setattr(png, "_inflated_bytes", 0)


def _count_decompressions(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that grows by one each time `render.png` starts decompressing a band."""
    made: list[int] = []
    real = png.zlib.decompressobj

    def counting(*args: int) -> object:
        made.append(1)
        return real(*args)

    monkeypatch.setattr(png.zlib, "decompressobj", counting)
    return made


def test_inflated_bands_are_kept_a_while_within_their_byte_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A band inflated again soon (a table's next board) is not decompressed twice; the kept
    bands stay within the `inflated` part of the render budget, the oldest dropped first."""
    width = 50
    bands = [bytes((k * 7 + i) % 251 for i in range(width * png.BAND_ROWS)) for k in range(3)]
    deflated = [png._deflate(band, width)[0] for band in bands]
    _fresh_inflated(monkeypatch)
    limit = png.budget.limit
    monkeypatch.setattr(png.budget, "limit", lambda name: 2 * len(bands[0]) if name == "inflated" else limit(name))
    made = _count_decompressions(monkeypatch)
    assert png._inflate(deflated[0], width) == bands[0]
    assert png._inflate(deflated[0], width) == bands[0]
    assert len(made) == 1
    assert png._inflate(deflated[1], width) == bands[1]
    assert png._inflate(deflated[2], width) == bands[2]  # over budget: band 0 goes
    assert png._inflated_bytes <= 2 * len(bands[0]) and len(made) == 3
    assert png._inflate(deflated[2], width) == bands[2] and len(made) == 3
    assert png._inflate(deflated[0], width) == bands[0] and len(made) == 4


def test_a_layers_own_bands_deflated_at_encode_need_no_inflating_next_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """A derived layer's own bands are deflated when its board is encoded, then kept deflated
    only; the table's next board derives from it over the same bands in part. Those bands
    come back from the inflated cache (put there when deflated): nothing is decompressed,
    and the next PNG is the image mapped in one go."""
    _fresh_inflated(monkeypatch)
    pal, layer, first, kept = _derived_over_a_box(90, 13, (30, 20, 200, 60), (9, 9, 200))
    kept.encode(first, [])
    assert all(kept.bands[b] is None for b in kept._own)  # held deflated only
    made = _count_decompressions(monkeypatch)
    second = first.copy()
    ImageDraw.Draw(second).ellipse((50, 25, 150, 55), fill=(200, 9, 9))
    nxt = kept.derive([((50, 25, 151, 56), second.crop((50, 25, 151, 56)))])
    assert made == []
    assert _decoded(nxt.encode(second, [])).tobytes() == second.quantize(
        palette=pal, dither=Image.Dither.NONE).tobytes()


def test_a_derived_band_deflated_before_is_taken_from_the_band_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two tables whose derived layers change the same bands to the same bytes (a table's
    first board as another's, a part drawn back as it was): the second deflates nothing,
    and its PNG shows the same pixels."""
    base = _layer_image(300, 100, 11)
    pal = _palette()
    layer = png.StaticLayer(base, pal)
    layer.encode(base, [])  # the static layer's own bands deflated once
    board = base.copy()
    ImageDraw.Draw(board).rectangle((20, 30, 250, 70), fill=(9, 9, 200))
    part = ((20, 30, 251, 71), board.crop((20, 30, 251, 71)))
    first = layer.derive([part]).encode(board, [])
    deflated: list[int] = []
    real = png._deflate

    def counting(band: bytes, width: int) -> tuple[bytes, int, int]:
        deflated.append(len(band))
        return real(band, width)

    monkeypatch.setattr(png, "_deflate", counting)
    second = layer.derive([part]).encode(board, [])
    assert deflated == []
    assert second == first
    assert _decoded(second).tobytes() == board.quantize(palette=pal, dither=Image.Dither.NONE).tobytes()


def test_regions_are_the_rectangles_mapped() -> None:
    """Boxes sharing rows merge; one wider than half the image becomes whole rows."""
    assert png.regions([(0, 0, 9, 9), (20, 5, 29, 20), (5, 50, 70, 60)], 100, 80) == [
        (0, 0, 30, 21), (0, 50, 100, 61)]


def _encode_in_child(raw: bytes) -> bytes:
    assert not png._bands  # a forked worker starts with an empty band cache
    assert png._lock.acquire(timeout=1)  # and a lock no parent thread can hold
    png._lock.release()
    return png.encode_indexed(raw, 50, list(range(256)) * 3)


def test_a_forked_render_worker_starts_with_empty_caches() -> None:
    raw = bytes(range(250)) * 20
    parent = png.encode_indexed(raw, 50, list(range(256)) * 3)
    assert png._bands
    with png._lock:  # held while forking: the child must not inherit it held
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(1) as pool:
            child = pool.apply_async(_encode_in_child, (raw,))
            result = child.get(timeout=60)
    assert result == parent


def test_deflated_bands_are_kept_within_their_byte_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """The band cache drops its oldest bands once they hold more than the `bands` budget."""
    width = 64
    bands = [bytes((k * 11 + i) % 253 for i in range(width * png.BAND_ROWS)) for k in range(40)]
    limit = png.budget.limit
    monkeypatch.setattr(png.budget, "limit", lambda name: 6000 if name == "bands" else limit(name))
    monkeypatch.setattr(png, "_bands", type(png._bands)())
    monkeypatch.setattr(png, "_bands_bytes", 0)
    for band in bands:
        png._band(band, width)
    assert png._bands_bytes <= 6000
    assert 0 < len(png._bands) < len(bands)
    assert png.band_key(bands[-1], width) in png._bands  # the newest stay


@pytest.mark.parametrize(("width", "height", "colours"), [(1, 1, 1), (37, 15, 7), (300, 161, 256), (800, 612, 256)])
def test_encode_plain_gives_pillows_pixels(width: int, height: int, colours: int) -> None:
    """A hand or a close-up written by `encode_plain` decodes to what Pillow's own writer
    gives for the same palette image: indices, palette and size."""
    image = _layer_image(width, height, seed=width).quantize(colors=colours, method=Image.Quantize.FASTOCTREE,
                                                              dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    ours, pillows = _decoded(png.encode_plain(image)), _decoded(buffer.getvalue())
    assert ours.mode == pillows.mode == "P" and ours.size == pillows.size
    assert ours.tobytes() == pillows.tobytes()
    assert ours.convert("RGB").tobytes() == pillows.convert("RGB").tobytes()
