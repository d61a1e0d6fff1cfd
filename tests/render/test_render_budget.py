"""The render caches' byte budget (`render.budget`) and the sprites kept deflated
(`render.packed`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PIL import Image

from bot.settings import load_settings
from render import budget
from render.packed import Sprites


@pytest.fixture(autouse=True)
def default_budget() -> Iterator[None]:
    yield
    budget.configure(budget.DEFAULT_MB)


def test_each_cache_gets_its_part_of_the_whole_budget() -> None:
    budget.configure(budget.DEFAULT_MB / 2)
    for name, mb in budget.DEFAULTS_MB.items():
        assert budget.limit(name) == pytest.approx(mb / 2 * (1 << 20), rel=1e-6)
    assert sum(budget.limit(n) for n in budget.DEFAULTS_MB) <= budget.total_bytes()


def test_a_memoized_function_keeps_its_results_within_bytes_least_recently_used_out() -> None:
    budget.configure(budget.DEFAULT_MB)
    room = budget.limit("layers")
    side = int((room / 3.5 / 4) ** 0.5)  # three RGB pictures fit, a fourth does not
    made: list[int] = []

    @budget.memoized("layers")
    def picture(n: int) -> Image.Image:
        made.append(n)
        return Image.new("RGB", (side, side), (n, 0, 0))

    for n in (1, 2, 3, 1, 4):
        picture(n)
    assert made == [1, 2, 3, 4]  # 1 was kept, 2 (the least recently used) went for 4
    assert budget.cache("layers").currsize <= room
    picture(2)
    assert made == [1, 2, 3, 4, 2]
    picture(1)
    assert made == [1, 2, 3, 4, 2]


def test_a_picture_larger_than_its_cache_is_made_but_not_kept() -> None:
    budget.configure(0.5)
    made: list[int] = []

    @budget.memoized("sprites")
    def big() -> Image.Image:
        made.append(1)
        return Image.new("RGBA", (400, 400))

    assert big().size == big().size == (400, 400)
    assert len(made) == 2 and budget.cache("sprites").currsize == 0


def test_deflated_sprites_come_back_pixel_for_pixel_once_their_whole_copies_are_gone() -> None:
    store: Sprites[str] = Sprites("test")
    sprite = Image.new("RGBA", (60, 20), (0, 0, 0, 0))
    sprite.paste((200, 40, 30, 255), (5, 5, 40, 15))
    store.put("a", [(3, 4, sprite)])
    budget.configure(budget.DEFAULT_MB)  # the whole copies are dropped
    again = store.get("a")
    assert again is not None
    (x, y, image), = again
    assert (x, y) == (3, 4) and image.tobytes() == sprite.tobytes() and image.mode == "RGBA"
    assert store.nbytes() < len(sprite.tobytes()) / 5
    assert store.get("b") is None


def test_the_setting_reads_megabytes_and_ignores_what_is_not_a_number() -> None:
    assert load_settings(None, {"RENDER_CACHE_MB": "48"}).render_cache_mb == 48.0
    assert load_settings(None, {}).render_cache_mb is None
    assert load_settings(None, {"RENDER_CACHE_MB": "lots"}).render_cache_mb is None
    assert load_settings(None, {"RENDER_CACHE_MB": "0"}).render_cache_mb == 1.0
