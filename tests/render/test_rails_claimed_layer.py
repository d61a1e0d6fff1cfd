"""The rails-and-sails board keeps its claimed-routes layer between turns
(`render.rails_and_sails.claimed`): a board drawn from a kept or grown layer must be, pixel
for pixel, the board drawn with nothing kept, whatever came before (the previous turn,
another table, an undo), and only a few layers are kept."""

from __future__ import annotations

import io
import json
import random
from typing import Any

import pytest
from PIL import Image

from bot.games import get as game_spec
from engine import registry
from render.rails_and_sails import _palette, board_image, claimed, geometry, render_board
from render.rails_and_sails import board as board_module
from render.rails_and_sails.board import board_layers

T = game_spec("rails-and-sails").ui.translator("en")


def _views(players: int, seed: int, every: int) -> list[dict[str, Any]]:
    """Every `every`-th public view of a seeded random game, and its last."""
    rules = registry.get("rails-and-sails")
    seats = [f"p{i + 1}" for i in range(players)]
    state = rules.new_game(seats, seed, {})
    rng = random.Random(seed)
    out = []
    step = 0
    while not rules.is_over(state):
        seat = rules.to_act(state)[0]
        rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
        step += 1
        if step % every == 0:
            out.append(json.loads(json.dumps(rules.view(state, None))))
    out.append(json.loads(json.dumps(rules.view(state, None))))
    return out


def _fresh(view: dict[str, Any], names: dict[str, str]) -> Image.Image:
    """The board drawn with no layer kept (and the kept ones put back afterwards)."""
    kept = dict(claimed._kept)
    claimed._kept.clear()
    try:
        return board_image(view, names=names, translator=T)
    finally:
        claimed._kept.clear()
        claimed._kept.update(kept)


@pytest.mark.parametrize(("players", "seed"), [(3, 5), (4, 9)])
def test_boards_from_kept_layers_equal_fresh_boards(players: int, seed: int) -> None:
    """Turn after turn (3 players: blocked twins too), an undo back to an earlier turn, and
    another table in between: the PNG and the image equal a board drawn from nothing."""
    names = {f"p{i + 1}": f"Player {i + 1}" for i in range(players)}
    views = _views(players, seed, 9)
    other = _views(players, seed + 1, 40)[-1]
    order = [*views, views[len(views) // 2], other, views[-1]]
    assert any(v.get("claimed") for v in order)
    claimed._kept.clear()
    for view in order:
        expected = _fresh(view, names)
        png = Image.open(io.BytesIO(render_board(view, names=names, translator=T))).convert("RGB")
        mapped = expected.quantize(palette=_palette(), dither=Image.Dither.NONE).convert("RGB")
        assert png.tobytes() == mapped.tobytes()
        assert board_image(view, names=names, translator=T).tobytes() == expected.tobytes()


def test_layers_kept_are_bounded_and_keyed_by_routes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Many tables: the kept layers stay within their part of the render budget, the oldest
    dropped first; each holds exactly the routes it was made for."""
    names = {f"p{i + 1}": f"P{i + 1}" for i in range(4)}
    claimed._kept.clear()
    render_board(_views(4, 100, 1000)[-1], names=names, translator=T)
    render_board(_views(4, 101, 1000)[-1], names=names, translator=T)  # the first one compacted
    one = max(claimed._sizes[k] for k in claimed._kept)
    limit = claimed.budget.limit
    monkeypatch.setattr(claimed.budget, "limit", lambda name: 3 * one if name == claimed.BUDGET else limit(name))
    for seed in range(102, 110):
        render_board(_views(4, seed, 1000)[-1], names=names, translator=T)
    assert 2 <= len(claimed._kept) < 10  # of the 10 tables drawn
    assert sum(claimed._sizes[k] for k in claimed._kept) <= 3 * one
    for (_key, items), layer in claimed._kept.items():
        assert layer.items == items


def test_many_tables_in_turn_keep_compact_layers_and_draw_true_boards() -> None:
    """Tables drawn in turn, as a busy render worker does: each keeps its layer (a grown one
    replaces the one it grew from), a kept layer holds only the bands its routes changed and
    those only deflated once a board was encoded (no RGB image), and every PNG equals the
    board drawn from nothing."""
    names = {f"p{i + 1}": f"P{i + 1}" for i in range(3)}
    games = [_views(3, 300 + seed, 12) for seed in range(4)]
    claimed._kept.clear()
    for turn in range(2, 5):
        for views in games:
            view = views[turn]
            expected = _fresh(view, names).quantize(palette=_palette(), dither=Image.Dither.NONE)
            png = Image.open(io.BytesIO(render_board(view, names=names, translator=T))).convert("RGB")
            assert png.tobytes() == expected.convert("RGB").tobytes()
    assert len(claimed._kept) == len(games)
    for kept in claimed._kept.values():
        layer = kept.layer
        assert not hasattr(kept, "image")
        assert all(layer.bands[b] is None for b in layer._own if layer._deflated[b] is not None)
        assert layer.own_bytes() < 400_000


def test_wrap_arrows_as_pieces_equal_arrows_drawn() -> None:
    """A claimed route leaving an edge of the map: pasting its kept pieces (sprites and wrap
    arrows) gives the pixels of pasting its sprites and drawing its arrows."""
    base = board_image({"seats": ["p1", "p2"]}, names={}, translator=T)
    wrapping = [r for r, g in geometry().routes.items() if g.wraps]
    assert wrapping
    for route_id in wrapping[:3]:
        for player in range(2):
            item = ("claim", route_id, player)
            drawn, pasted = base.copy(), base.copy()
            claimed.draw_items(drawn, (item,))
            for x0, y0, sprite in claimed._pieces(item):
                pasted.paste(sprite, (x0, y0), sprite)
            assert drawn.tobytes() == pasted.tobytes()
            assert claimed.redrawn(base, (0, 0, drawn.width, drawn.height), (item,)).tobytes() == drawn.tobytes()


def test_boards_drawn_on_the_reused_canvas_equal_fresh_boards() -> None:
    """A PNG's board is drawn on the thread's canvas (`board._canvas`), which keeps what the
    boards before drew outside the rectangles each maps: two tables in turn, claims (their
    frames on the map), harbors and a finished game among them, each PNG equals the board
    drawn from nothing."""
    names = {f"p{i + 1}": f"P{i + 1}" for i in range(2)}
    whole_games = [_views(2, 700 + seed, 3) for seed in range(2)]
    games = [views[20:44] for views in whole_games]
    order = [view for pair in zip(*games, strict=True) for view in pair] + [whole_games[0][-1], games[1][3]]
    assert any((v.get("last") or {}).get("type") == "claim" for v in order)
    assert any(v.get("harbors") for v in order) and any(v.get("over") for v in order)
    on_canvas = 0
    for view in order:
        board, _layer, _boxes = board_layers(view, names=names, translator=T, whole=False)
        on_canvas += board is getattr(board_module._canvases, "board", None)  # not when a layer grew a lot
        expected = _fresh(view, names).quantize(palette=_palette(), dither=Image.Dither.NONE)
        png = Image.open(io.BytesIO(render_board(view, names=names, translator=T))).convert("RGB")
        assert png.tobytes() == expected.convert("RGB").tobytes()
    assert on_canvas >= len(order) * 2 // 3
