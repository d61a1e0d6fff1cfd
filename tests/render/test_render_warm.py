"""A render worker warms up: one board per game before it takes work, then, a step at a time
between jobs, every registered game in its first language (boards and hands) and the
renderer's own pictures where it has a `warm` hook; another language is warmed the same way
once a job asks for it, so only the languages in play cost memory."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot import games
from bot.i18n import LANGUAGES
from bot.images import pool as render_pool


def test_warm_up_draws_every_game_in_the_first_languages(monkeypatch: pytest.MonkeyPatch) -> None:
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
    expected = {(line.id, image, lang) for line in games.GAMES for image in ("board", "hand")
                for lang in render_pool.FIRST_LANGUAGES}
    mapped = [line.id for line in games.GAMES if render_pool.has_focus(render_pool._registered(line.id))]
    expected |= {(game, "focus", lang) for game in mapped for lang in render_pool.FIRST_LANGUAGES}  # close-ups
    assert {game for game, image, _lang in expected if image == "focus"} == {
        "around-the-world", "rails-and-sails", "eighty-days"}
    assert drawn == expected
    assert prepared == [("rails-and-sails", render_pool._registered("rails-and-sails").rules.max_players)]


def test_a_language_in_play_is_warmed_after_its_first_job(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker itself: a German job, then idle time: every game is warmed in German too, and
    never in a language no job asked for."""
    import multiprocessing
    import threading

    drawn: list[tuple[str, str, str]] = []

    def fake_draw(job: render_pool.RenderJob, spec: Any = None, translator: Any = None) -> bytes:
        drawn.append((job.game_id, job.image, job.lang))
        return b"png"

    monkeypatch.setattr(render_pool, "draw", fake_draw)
    for line in games.GAMES:
        monkeypatch.delattr(render_pool._registered(line.id).renderer, "warm", raising=False)
    ours, theirs = multiprocessing.Pipe()
    job = render_pool.RenderJob("detour", "board", {"seats": []}, {}, "de")

    def bot_side() -> None:
        assert ours.recv()[0] == "ready"
        ours.send(job)
        assert ours.recv() == ("ok", b"png")
        while not any(lang == "de" and game == games.GAMES[-1].id for game, _, lang in drawn):
            threading.Event().wait(0.01)  # the worker warms German while idle
        ours.send(None)

    sender = threading.Thread(target=bot_side)
    sender.start()
    render_pool._worker_main(theirs, True)
    sender.join(10)
    assert not sender.is_alive()
    others = {lang for _, _, lang in drawn} - {"de", *render_pool.FIRST_LANGUAGES}
    assert not others, f"warmed languages nobody asked for: {others}"
    assert {game for game, _, lang in drawn if lang == "de"} == {line.id for line in games.GAMES}
    assert set(LANGUAGES) > {"de", *render_pool.FIRST_LANGUAGES}  # there was a language left out


def test_rails_warm_makes_every_route_sprite() -> None:
    from render.rails_and_sails import geometry, sprites, warm

    for _ in warm(2):
        pass
    for route_id in geometry().routes:
        assert (route_id, 0) in sprites._SPRITES and (route_id, 1) in sprites._SPRITES
        assert route_id in sprites._BLOCKED


def test_what_the_warm_up_tables_leave_is_dropped_and_boards_stay_the_same() -> None:
    """The warm-up's sample tables leave kept layers, inflated bands, pasted sprites and the
    rails canvas behind; none of it pays for a real table, so it goes (`budget.forget`), and
    a board drawn afterwards is the very board drawn before."""
    from engine import registry
    from render import budget, png
    from render.around_the_world import kept
    from render.rails_and_sails import board as rails_board
    from render.rails_and_sails import claimed

    rules = registry.get("rails-and-sails")
    state = rules.new_game(["p1", "p2", "p3"], 7, {})
    for _ in range(40):
        seat = rules.to_act(state)[0]
        rules.apply(state, seat, rules.legal_actions(state, seat)[0])
    job = render_pool.RenderJob("rails-and-sails", "board", rules.view(state, None), {"p1": "A", "p2": "B", "p3": "C"},
                                "en")
    before = render_pool.draw(job)
    assert claimed._kept and getattr(rails_board._canvases, "board", None) is not None
    for _ in render_pool._warm():
        pass
    assert not claimed._kept and not kept._kept and not png._inflated and not budget.cache("sprites")
    assert getattr(rails_board._canvases, "board", None) is None
    assert budget.cache("layers")  # the static layers stay: every board starts from one
    assert render_pool.draw(job) == before
