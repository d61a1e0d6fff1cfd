"""A render worker warms up before it takes work: every registered game in every language of
the catalogs (boards and hands), and the renderer's own pictures where it has a `warm` hook,
so no table's first board in a language is drawn cold."""

from __future__ import annotations

from typing import Any

import pytest

from bot import games, render_pool
from bot.i18n import LANGUAGES


def test_warm_up_draws_every_game_in_every_language(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: set[tuple[str, str, str]] = set()
    prepared: list[tuple[str, int]] = []

    def fake_draw(job: render_pool.RenderJob, spec: Any = None, translator: Any = None) -> bytes:
        assert translator is not None and translator.lang == job.lang
        drawn.add((job.game_id, job.image, job.lang))
        return b""

    for line in games.GAMES:
        spec = render_pool._registered(line.id)
        if hasattr(spec.renderer, "warm"):
            monkeypatch.setattr(spec.renderer, "warm", lambda n, game=line.id: prepared.append((game, n)))
    monkeypatch.setattr(render_pool, "draw", fake_draw)
    render_pool._warm()
    expected = {(line.id, image, lang) for line in games.GAMES for image in ("board", "hand") for lang in LANGUAGES}
    assert drawn == expected
    assert prepared == [("rails-and-sails", render_pool._registered("rails-and-sails").rules.max_players)]


def test_rails_warm_makes_every_route_sprite() -> None:
    from render.rails_and_sails import geometry, sprites, warm

    warm(2)
    for route_id in geometry().routes:
        assert (route_id, 0) in sprites._SPRITES and (route_id, 1) in sprites._SPRITES
        assert route_id in sprites._BLOCKED
