"""Faster rendering must not change a single pixel: every board and hand of a fixed set of
seeded states (each game, en/de/fr, long, emoji and non-Latin names) decodes to exactly the
pixels the renderers drew before the speed work (`tests/data/render_reference.json`, the
SHA-256 of each decoded RGB image, recorded from the unoptimised code).

No tolerance is allowed: the boards are mapped onto fixed palettes without dithering and the
hands quantized by the same rule as before, so drawing the same RGB pixels gives the same
image whatever the PNG writer. Only the PNG bytes may differ (compression level, band-wise
deflate), never what a player sees.

Record again (only for a deliberate change of the pictures, with the reason in the commit):
    .venv/bin/python -m tests.render.test_render_equivalence --write
"""

from __future__ import annotations

import hashlib
import io
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.games import get as game_spec
from engine import registry

REFERENCE = Path(__file__).resolve().parents[1] / "support" / "data" / "render_reference.json"
LANGS = ("en", "de", "fr")
#: names that stress text drawing: a full 32-character name, emoji, accents, CJK, Arabic
NAMES = ["Maximilian-Alexander Großherzög", "🚂 Zoë 🌍✨", "李小龙", "محمد علي", "Ana", "Émile 👍🏽 Brontë"]
#: (game, players, seed, snapshot steps): states from seeded random play; the last snapshot
#: of each is the game's end (or as far as the step cap goes)
GAMES: dict[str, tuple[int, int, tuple[int, ...]]] = {
    "detour": (4, 3, (0, 9, 40, 10_000)),
    "around-the-world": (5, 5, (0, 12, 60, 10_000)),
    "rails-and-sails": (4, 7, (0, 8, 90, 10_000)),
    "eighty-days": (3, 11, (0, 10, 45, 10_000)),
}
MAX_PNG = 500_000


def _states(game: str) -> Iterator[tuple[int, Any, list[dict[str, Any]]]]:
    """(steps, state, last events) at each snapshot of one seeded random game."""
    players, seed, snaps = GAMES[game]
    rules = registry.get(game)
    seats = [f"p{i + 1}" for i in range(players)]
    state = rules.new_game(seats, seed, {})
    rng = random.Random(seed)
    steps, events = 0, []
    for target in snaps:
        while steps < target and not rules.is_over(state):
            seat = rules.to_act(state)[0]
            events = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
            steps += 1
        yield steps, state, events


def cases() -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(case id, game, how to render it): every snapshot's board in all three languages, and
    two hands per snapshot (the seat to act and another), languages rotating."""
    for game in GAMES:
        rules = registry.get(game)
        for k, (steps, state, events) in enumerate(_states(game)):
            public = json.loads(json.dumps(rules.view(state, None)))
            seats = list(public.get("seats") or [f"p{i + 1}" for i in range(GAMES[game][0])])
            names = {s: NAMES[(i + k) % len(NAMES)] for i, s in enumerate(seats)}
            for lang in LANGS:
                yield (f"{game}/board/{steps}/{lang}", game,
                       {"kind": "board", "view": public, "names": names, "lang": lang, "events": events})
            acting = rules.to_act(state) if not rules.is_over(state) else []
            first = acting[0] if acting else seats[0]
            for j, seat in enumerate(dict.fromkeys([first, seats[(k + 1) % len(seats)]])):
                lang = LANGS[(k + j) % len(LANGS)]
                own = json.loads(json.dumps(rules.view(state, seat)))
                yield (f"{game}/hand/{steps}/{seat}/{lang}", game,
                       {"kind": "hand", "view": own, "seat": seat, "names": names, "lang": lang})


def render(game: str, how: dict[str, Any]) -> bytes:
    spec = game_spec(game)
    t = spec.ui.translator(how["lang"])
    if how["kind"] == "board":
        return spec.renderer.render_board(how["view"], names=how["names"], translator=t, events=how["events"])
    return spec.renderer.render_hand(how["view"], how["seat"], names=how["names"], translator=t)


def pixels_hash(png: bytes) -> str:
    """SHA-256 of the decoded image (size and RGB pixels), independent of how it was encoded."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    return hashlib.sha256(repr(img.size).encode() + img.tobytes()).hexdigest()


_CASES = list(cases())


@pytest.fixture(scope="module")
def reference() -> dict[str, str]:
    return dict(json.loads(REFERENCE.read_text()))


def test_reference_covers_every_case(reference: dict[str, str]) -> None:
    assert sorted(reference) == sorted(case for case, _game, _how in _CASES)


@pytest.mark.parametrize(("case", "game", "how"), _CASES, ids=[c[0] for c in _CASES])
def test_same_pixels_as_before(case: str, game: str, how: dict[str, Any], reference: dict[str, str]) -> None:
    png = render(game, how)
    assert len(png) <= MAX_PNG
    assert pixels_hash(png) == reference[case], f"{case}: the image differs from the recorded one"


def test_rendering_twice_gives_the_same_pixels() -> None:
    """Caches (static layers, sprites, deflated bands) never leak one render into the next:
    a board rendered after other boards equals the same board rendered again."""
    boards = [(c, g, h) for c, g, h in _CASES if h["kind"] == "board"]
    first = {c: pixels_hash(render(g, h)) for c, g, h in boards[:6]}
    for c, g, h in reversed(boards[:6]):
        assert pixels_hash(render(g, h)) == first[c]


def _mapped_whole(game: str, view: dict[str, Any], names: dict[str, str], t: Any,
                  events: list[dict[str, Any]]) -> Image.Image:
    """The whole board drawn as RGB and mapped onto its palette in one go: what the fast path
    (static layer mapped once, only the boxes a turn drew in mapped again) must equal."""
    from PIL.Image import Dither

    if game == "rails-and-sails":
        from render import rails_and_sails as rails
        return rails.board_image(view, names=names, translator=t).quantize(palette=rails._palette(),
                                                                           dither=Dither.NONE)
    if game == "around-the-world":
        from render import around_the_world as atw
        return atw.board_image(view, names=names, translator=t, events=events).quantize(palette=atw._palette(),
                                                                                         dither=Dither.NONE)
    if game == "detour":
        from render import detour
        return detour.board_image(view, names=names, translator=t, events=events).quantize(
            palette=detour._board_palette(t, len(view["pawns"])), dither=Dither.NONE)
    from render import eighty_days as days
    from render.eighty_days.board import labels
    from render.eighty_days.static import map_keys, palette
    return days.board_image(view, names=names, t=t).quantize(palette=palette(labels(view, t), *map_keys(view["map"])),
                                                             dither=Dither.NONE)


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("players", [2, 4])
def test_boxes_cover_everything_a_turn_draws(game: str, players: int) -> None:
    """Over a whole seeded random game (about 12 boards spread over it, with their events), the
    board PNG decodes to exactly the whole board mapped onto its palette: every box a renderer
    reports covers what it drew, and the band cache never hands back a stale band."""
    rules = registry.get(game)
    seats = [f"p{i + 1}" for i in range(players)]
    state = rules.new_game(seats, 40 + players, {})
    rng = random.Random(players)
    boards = []
    while not rules.is_over(state) and len(boards) < 3000:
        seat = rules.to_act(state)[0]
        events = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
        boards.append((rules.view(state, None), events))
    names = {s: NAMES[i] for i, s in enumerate(seats)}
    spec = game_spec(game)
    for k, (view, events) in enumerate(boards[::max(1, len(boards) // 12)] + boards[-1:]):
        t = spec.ui.translator(LANGS[k % 3])
        png = spec.renderer.render_board(view, names=names, translator=t, events=events)
        decoded = Image.open(io.BytesIO(png))
        whole = _mapped_whole(game, view, names, t, events)
        assert decoded.mode == "P" and decoded.getpalette() == whole.getpalette()
        assert decoded.tobytes() == whole.tobytes(), f"{game}, board {k}: the PNG is not the whole board"


def write() -> None:
    """Record the reference hashes from the renderers as they are now."""
    out = {case: pixels_hash(render(game, how)) for case, game, how in _CASES}
    REFERENCE.parent.mkdir(parents=True, exist_ok=True)
    REFERENCE.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(out)} hashes to {REFERENCE}")


if __name__ == "__main__" and "--write" in sys.argv:
    write()
