"""Before/after crops of the boards (see README.md): the same seeded positions drawn by one
revision's renderers, cut where each readability fix shows, then paired with an older run.

    python crops.py draw OUT             # run from the checkout whose renderers draw
    python crops.py pair BEFORE AFTER OUT
"""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

NAMES = {"p1": "Ada", "p2": "Björn", "p3": "Chloé", "p4": "Dmitri"}
CITY_KEYS = ("from", "a", "location", "city")


def play(game: str, players: int, steps: int, seed: int) -> tuple[Any, Any, list[dict[str, Any]]]:
    """A seeded game moved `steps` times by the game's own AI; the last move's public events."""
    from engine import registry

    rules = registry.get(game)
    state = rules.new_game([f"p{i + 1}" for i in range(players)], seed)
    events: list[dict[str, Any]] = []
    for _ in range(steps):
        if rules.is_over(state):
            break
        seat = rules.to_act(state)[0]
        legal = rules.legal_actions(state, seat)
        events = rules.apply(state, seat, rules.policy(rules.view(state, seat), seat, legal)) or events
    return rules, state, [{k: v for k, v in e.items() if k != "private"} for e in events]


def board(game: str, players: int, steps: int, seed: int,
          events: list[dict[str, Any]] | None = None) -> tuple[Image.Image, Any, Any, list[dict[str, Any]]]:
    import render
    from bot.games import get

    rules, state, last = play(game, players, steps, seed)
    t = get(game).ui.translator("en")
    view = rules.view(state, None)
    shown = last if events is None else events
    png = render.for_game(game).render_board(view, names=NAMES, translator=t, events=shown)
    return Image.open(io.BytesIO(png)).convert("RGB"), view, t, shown


def touched(game: str, players: int, steps: int, seed: int) -> int:
    """The first step count at or past `steps` whose last move named a city."""
    for extra in range(60):
        events = play(game, players, steps + extra, seed)[2]
        if any(isinstance(e.get(k), str) for e in events for k in CITY_KEYS):
            return steps + extra
    return steps


def save(out: Path, name: str, image: Image.Image, box: tuple[int, int, int, int], scale: float = 1.0) -> None:
    part = image.crop(box)
    if scale != 1.0:
        part = part.resize((round(part.width * scale), round(part.height * scale)), Image.Resampling.LANCZOS)
    part.save(out / f"{name}.png", optimize=True)


def draw(out: Path) -> None:
    import render
    from engine.games.detour import mapdata

    out.mkdir(parents=True, exist_ok=True)
    names = mapdata.NAMES
    arrows = [{"type": "move", "colour": "green", "from": names.index("Genoa"), "to": names.index("Suez")},
              {"type": "move", "colour": "orange", "from": names.index("Omaha"), "to": names.index("Liverpool")}]
    save(out, "detour-arrows", board("detour", 3, 0, 7, arrows)[0], (0, 80, 700, 740))
    img = board("detour", 3, 30, 7)[0]
    save(out, "detour-cards-and-rings", img, (0, 760, 1400, img.height))
    img = board("around-the-world", 3, 40, 7)[0]
    save(out, "atw-first-player", img, (0, 1100, 1000, img.height))
    save(out, "atw-map-europe", img, (300, 120, 1000, 520))
    img = board("rails-and-sails", 2, 80, 5)[0]
    save(out, "rails-header", img, (0, 0, 900, 64))
    save(out, "rails-legend", img, (880, 1020, 1800, 1100))
    save(out, "rails-players", img, (0, 820, 880, 960))
    save(out, "rails-map-europe", img, (560, 60, 1100, 400))
    img = board("eighty-days", 3, 90, 7)[0]
    save(out, "days-supply", img, (1160, 920, 1800, 1250))
    save(out, "days-players", img, (0, 1250, 1800, img.height))
    save(out, "days-map-east", img, (900, 150, 1800, 700))
    for game, players, steps, seed in (("rails-and-sails", 2, 80, 5), ("around-the-world", 3, 40, 7),
                                       ("eighty-days", 3, 90, 7)):
        img, view, t, events = board(game, players, touched(game, players, steps, seed), seed)
        save(out, f"{game}-board-400", img, (0, 0, img.width, img.height), 400 / img.width)
        module = render.for_game(game)
        if hasattr(module, "render_focus"):
            focus = Image.open(io.BytesIO(module.render_focus(view, names=NAMES, translator=t, events=events)))
            save(out, f"{game}-focus-400", focus.convert("RGB"), (0, 0, focus.width, focus.height), 400 / focus.width)


def pair(before: Path, after: Path, out: Path) -> None:
    """Each "after" crop under its "before" one (when there was one), labelled, in 256 colours."""
    from render.common import font

    out.mkdir(parents=True, exist_ok=True)
    label_font = font(22, "bold")
    for path in sorted(after.glob("*.png")):
        new = Image.open(path).convert("RGB")
        old = before / path.name
        parts = [("before", Image.open(old).convert("RGB")), ("after", new)] if old.exists() else [("after (new)", new)]
        sheet = Image.new("RGB", (max(im.width for _, im in parts), sum(im.height + 30 for _, im in parts)), "white")
        pen, y = ImageDraw.Draw(sheet), 0
        for label, image in parts:
            pen.text((6, y + 4), label, font=label_font, fill=(180, 30, 30) if label == "before" else (20, 110, 40))
            sheet.paste(image, (0, y + 30))
            y += image.height + 30
        sheet.quantize(colors=256, dither=Image.Dither.NONE).save(out / path.name, optimize=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["draw"] and len(sys.argv) == 3:
        draw(Path(sys.argv[2]))
    elif sys.argv[1:2] == ["pair"] and len(sys.argv) == 5:
        pair(Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]))
    else:
        sys.exit(__doc__)
