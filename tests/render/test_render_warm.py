"""A render worker warms up: one board per game before it takes work, then, a step at a time
between jobs, every registered game in every language of the catalogs (boards and hands) and
the renderer's own pictures where it has a `warm` hook, so no table's first board in a
language is drawn cold."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot import games
from bot.i18n import LANGUAGES
from bot.images import pool as render_pool


def test_warm_up_draws_every_game_in_every_language(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: set[tuple[str, str, str]] = set()
    prepared: list[tuple[str, int]] = []

    def fake_draw(job: render_pool.RenderJob, spec: Any = None, translator: Any = None) -> bytes:
        assert translator is None or translator.lang == job.lang
        drawn.add((job.game_id, job.image, job.lang))
        return b""

    for line in games.GAMES:
        spec = render_pool._registered(line.id)
        if hasattr(spec.renderer, "warm"):
            def fake_warm(n: int, game: str = line.id) -> Iterator[None]:
                prepared.append((game, n))
                yield
            monkeypatch.setattr(spec.renderer, "warm", fake_warm)
    monkeypatch.setattr(render_pool, "draw", fake_draw)
    steps = render_pool._warm()
    assert {game for game, image, lang in drawn} == {line.id for line in games.GAMES}  # the first stage
    assert not prepared
    for _ in steps:
        pass
    expected = {(line.id, image, lang) for line in games.GAMES for image in ("board", "hand") for lang in LANGUAGES}
    assert drawn == expected
    assert prepared == [("rails-and-sails", render_pool._registered("rails-and-sails").rules.max_players)]


def test_rails_warm_makes_every_route_sprite() -> None:
    from render.rails_and_sails import geometry, sprites, warm

    for _ in warm(2):
        pass
    for route_id in geometry().routes:
        assert (route_id, 0) in sprites._SPRITES and (route_id, 1) in sprites._SPRITES
        assert route_id in sprites._BLOCKED
