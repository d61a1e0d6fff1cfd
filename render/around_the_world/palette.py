"""The fixed 256-colour palette of the around-the-world images and the PNG encoder."""

from __future__ import annotations

from typing import Any

from PIL import Image

from render.around_the_world.board import board_image
from render.around_the_world.geometry import ACTION_KEYS, GAME_ID, LOCATIONS, W
from render.around_the_world.hand import hand_image
from render.around_the_world.static import stored_palette
from render.around_the_world.texts import Translator
from render.common import PAPER
from render.png import encode_mapped

_CALIBRATION_LEGS = [
    [["ship", "train"]], [["train"]], [["ship"]], [["ship", "ship"]], [], [["ship"]],
    [["ship", "ship"], ["train", "ship"]], [["ship", "ship"]], [["train", "train"]], [["ship", "ship", "train"]],
]


def _calibration_views() -> tuple[dict, dict, dict]:
    """Two boards and a hand that use every colour the renderer draws (a fixed sample, no engine)."""
    seats = [f"p{k + 1}" for k in range(6)]
    kinds = ["gold", "event", "travel", "others_lose_day"]
    legs = []
    for k, loc in enumerate(LOCATIONS):
        leg: dict[str, Any] = {"from": loc, "to": LOCATIONS[(k + 1) % len(LOCATIONS)], "options": _CALIBRATION_LEGS[k]}
        if not _CALIBRATION_LEGS[k]:
            leg["days"] = 12
        legs.append(leg)
    cards = ["ship:4", "train:2", "ship:8", "train:6", "ship:6", "train:4"]
    base: dict[str, Any] = {
        "game": GAME_ID, "seats": seats, "to_act": ["p2"], "over": False, "phase": "take", "round": 7,
        "first_player": "p1", "current": "p2", "player_count": 6, "locations": list(LOCATIONS), "legs": legs,
        "positions": {s: k for k, s in enumerate(seats)}, "arrived": {s: False for s in seats}, "arrival_order": [],
        "days": {s: 12 + 19 * k for k, s in enumerate(seats)}, "gold": {s: k for k, s in enumerate(seats)},
        "gold_supply": 9, "detective": "suez",
        "chits": {loc: {"red": kinds[k % 4], "blue": kinds[(k + 1) % 4]} for k, loc in enumerate(LOCATIONS[1:])},
        "display": [{"action": a, "card": c} for a, c in zip(ACTION_KEYS, cards, strict=True)],
        "travel_deck": 20, "travel_discard": 9, "travel_discard_top": "train:5", "event_deck": 8,
        "event_discard_top": "princess", "hands": {s: {"travel": 4, "event": 1} for s in seats},
        "last_roll": [6, 3, 5], "result": None,
    }
    over = dict(base, over=True, current=None, to_act=[], event_discard_top="delay",
                arrived={s: k < 4 for k, s in enumerate(seats)}, arrival_order=seats[:4],
                positions={s: 0 if k < 4 else 8 for k, s in enumerate(seats)},
                result={"ranking": [{"seat": s, "rank": k + 1, "days": 70 + 5 * k} for k, s in enumerate(seats)],
                        "winners": ["p1"]})
    hand = dict(base, private={"travel": ["ship:7", "ship:7", "train:3", "train:3", "ship:5", "train:8"],
                               "events": ["balloon", "detective", "offer"]})
    return base, over, hand


def calibrate_palette(translator: Translator) -> Image.Image:
    """The palette as sampled from renders of the calibration views (English texts): how
    `assets/atw/palette.bin` was made; a test checks the stored palette still matches."""
    base, over, hand = _calibration_views()
    names = {s: s.upper() for s in base["seats"]}
    events = [{"type": "travel", "seat": "p2", "from": "suez", "to": "bombay"},
              {"type": "detective", "seat": "p2", "location": "suez"}]
    boards = [board_image(base, names=names, translator=translator, events=events),
              board_image(over, names=names, translator=translator)]
    hand_img = hand_image(hand, "p2", names=names, translator=translator)
    sample = Image.new("RGB", (W, sum(b.height for b in boards) + hand_img.height), PAPER)
    y = 0
    for part in [*boards, hand_img]:
        sample.paste(part, (0, y))
        y += part.height
    return sample.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _palette() -> Image.Image:
    """A fixed 256-colour palette for every image (stored, see `calibrate_palette`).

    Mapping to a known palette is about eight times faster than building an adaptive one
    for each image (the slowest step of a render), and the sample covers every colour the
    renderer uses, so the result looks the same. It is stored rather than sampled at run
    time because the sample's texts would need the catalogs, which live in bot/."""
    return stored_palette()


def encode(image: Image.Image) -> bytes:
    """PNG bytes: like `render.common.encode_png` (256 colours, no dithering) but mapped to
    the fixed palette above, which takes a fraction of the time, and written by the shared
    band-cached writer (`render.png`), which deflates only rows it has not seen before."""
    return encode_mapped(image, _palette())
