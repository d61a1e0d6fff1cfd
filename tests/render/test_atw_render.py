"""The Around-the-World board and hand images, drawn from real engine views."""

from __future__ import annotations

import copy
import io
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageStat

from bot.i18n import load_catalog
from engine import registry
from render import around_the_world as R
from render import budget, for_game
from render.around_the_world import board as board_module
from render.common import PLAYER_COLOURS
from tests.support.render_support import locales, translator


def TR(lang: str):  # noqa: N802
    return translator("around-the-world", lang)


EN = TR("en")

#: every event card of the game, in the catalog's order
EVENT_CARDS = ["delay", "bad_weather", "balloon", "elephant", "propeller_train", "submarine", "offer",
               "connections", "detective", "princess"]


def _catalog(lang: str) -> dict[str, str]:
    return load_catalog(str(locales("around-the-world")), lang)

MAX_BYTES = 500_000
NAMES = {"p1": "Phileas", "p2": "Passepartout", "p3": "Aouda", "p4": "Fix", "p5": "Maximilian", "p6": "Ginevra"}


@pytest.fixture(scope="module")
def rules():
    return registry.get("around-the-world")


def seats(n: int) -> list[str]:
    return [f"p{i + 1}" for i in range(n)]


def play(rules, n: int, seed: int, steps: int | None = None, *, ai: bool = True):
    """A game after `steps` actions (or to its end), and the events of the turn in progress."""
    state = rules.new_game(seats(n), seed, {})
    rnd = random.Random(seed)
    turn_events: list[dict] = []
    done = 0
    while not rules.is_over(state) and (steps is None or done < steps):
        seat = rules.to_act(state)[0]
        action = rules.ai_action(state, seat) if ai else rnd.choice(rules.legal_actions(state, seat))
        before = rules.view(state, None)["current"]
        events = rules.apply(state, seat, action)
        if rules.view(state, None)["current"] != before:
            turn_events = []
        turn_events += events
        done += 1
    return state, turn_events


def png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def check_board(data: bytes, n: int) -> Image.Image:
    image = png(data)
    assert image.width >= 1200
    assert image.height >= 1200
    assert len(data) < MAX_BYTES
    # the panel grows with the players: one row each
    assert image.height == R.PANEL_TOP + R.PANEL_HEAD_H + R.ROW_H * n + 14
    return image


def test_module_is_registered_for_the_game():
    assert for_game("around-the-world") is R


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("steps", [0, 40, 160])
def test_board_and_hands_for_every_player_count(rules, n, steps):
    state, events = play(rules, n, seed=100 + n, steps=steps)
    view = rules.view(state, None)
    assert "private" not in view
    check_board(R.render_board(view, names=NAMES, events=events, translator=EN), n)
    for seat in seats(n):
        data = R.render_hand(rules.view(state, seat), seat, names=NAMES, translator=EN)
        image = png(data)
        assert image.width >= 1200
        assert len(data) < MAX_BYTES


def test_board_uses_only_the_public_view(rules):
    state, events = play(rules, 4, seed=5, steps=90)
    public = rules.view(state, None)
    seat = rules.to_act(state)[0]
    private = rules.view(state, seat)
    assert "private" in private and "private" not in public
    from_public = R.render_board(public, names=NAMES, events=events, translator=EN)
    # the seat's secrets change nothing on the board
    assert R.render_board(private, names=NAMES, events=events, translator=EN) == from_public
    scrambled = copy.deepcopy(private)
    scrambled["private"] = {"travel": ["ship:8"] * 6, "events": ["princess"]}
    assert R.render_board(scrambled, names=NAMES, events=events, translator=EN) == from_public


def test_renderers_do_not_mutate_the_view(rules):
    state, events = play(rules, 5, seed=9, steps=120)
    view = rules.view(state, "p2")
    snapshot = json.dumps(view, sort_keys=True)
    events_snapshot = json.dumps(events, sort_keys=True)
    R.render_board(view, names=NAMES, events=events, translator=EN)
    R.render_hand(view, "p2", names=NAMES, translator=EN)
    assert json.dumps(view, sort_keys=True) == snapshot
    assert json.dumps(events, sort_keys=True) == events_snapshot


def test_rendering_is_deterministic(rules):
    state, events = play(rules, 6, seed=21, steps=150)
    view = rules.view(state, None)
    first = R.render_board(view, names=NAMES, events=events, translator=EN)
    budget.configure(budget.DEFAULT_MB)  # empty caches: drawn afresh
    R.icon.cache_clear()
    assert R.render_board(copy.deepcopy(view), names=NAMES, events=events, translator=EN) == first
    hand_view = rules.view(state, "p3")
    assert R.render_hand(hand_view, "p3", names=NAMES, translator=EN) == R.render_hand(copy.deepcopy(hand_view),
            "p3", names=NAMES, translator=EN)


def test_static_layer_is_cached(rules, monkeypatch):
    state, _ = play(rules, 3, seed=2, steps=10)
    view = rules.view(state, None)
    drawn: list[object] = []
    static_board = board_module._static_board
    monkeypatch.setattr(board_module, "_static_board", lambda *a: drawn.append(a) or static_board(*a))
    budget.configure(budget.DEFAULT_MB)  # empty caches
    R.render_board(view, names=NAMES, translator=EN)
    assert len(drawn) == 1
    R.render_board(view, names=NAMES, translator=EN)
    fewer = rules.view(play(rules, 2, seed=2, steps=10)[0], None)
    R.render_board(fewer, names=NAMES, translator=EN)
    assert len(drawn) == 1  # not drawn again, nor for a board of another height


def test_state_changes_show_on_the_board(rules):
    state, _ = play(rules, 4, seed=3, steps=60)
    view = rules.view(state, None)
    base = R.render_board(view, names=NAMES, translator=EN)
    for change in (
        lambda v: v["days"].__setitem__("p1", v["days"]["p1"] + 7),
        lambda v: v["gold"].__setitem__("p2", v["gold"]["p2"] + 1),
        lambda v: v.__setitem__("detective", "yokohama" if v["detective"] != "yokohama" else "suez"),
        lambda v: v["chits"]["new_york"].__setitem__("red", None if v["chits"]["new_york"]["red"] else "gold"),
        lambda v: v.__setitem__("gold_supply", v["gold_supply"] + 3),
        lambda v: v.__setitem__("event_discard_top", "princess" if v["event_discard_top"] != "princess" else "offer"),
        lambda v: v["display"][0].__setitem__("card", None if v["display"][0]["card"] else "ship:4"),
    ):
        changed = copy.deepcopy(view)
        change(changed)
        assert R.render_board(changed, names=NAMES, translator=EN) != base


def test_travelled_leg_is_highlighted(rules):
    state, _ = play(rules, 4, seed=8, steps=30)
    view = rules.view(state, None)
    plain = R.board_image(view, names=NAMES, translator=EN)
    lit = R.board_image(view, names=NAMES, events=[{"type": "travel", "seat": "p1", "from": "suez",
            "to": "bombay"}], translator=EN)
    # the glow lies on the route between Suez and Bombay (clear of the badge and the pawns)
    (ax, ay), (bx, by) = R.node_point("suez"), R.node_point("bombay")
    length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
    nx, ny = -(by - ay) / length, (bx - ax) / length  # across the route: the glow is wider than the line
    for t in (0.15, 0.75):
        probe = (round(ax + (bx - ax) * t + 6 * nx), round(ay + (by - ay) * t + 6 * ny))
        assert plain.getpixel(probe) != lit.getpixel(probe)
        assert lit.getpixel(probe) == R.ROUTE_GLOW
    # another leg stays as it was
    (cx, cy), (dx, dy) = R.node_point("calcutta"), R.node_point("hong_kong")
    probe = (int(cx + (dx - cx) * 0.2), int(cy + (dy - cy) * 0.2))
    assert plain.getpixel(probe) == lit.getpixel(probe)
    # unrelated or malformed events are ignored without error
    assert R.render_board(view, names=NAMES, events=[{"type": "gold", "seat": "p1"}, {"type": "travel"}, "x"],
            translator=EN)


def test_players_past_80_days(rules):
    state, _ = play(rules, 4, seed=4, steps=200)
    view = rules.view(state, None)
    view["days"] = {"p1": 79, "p2": 81, "p3": 96, "p4": 134}
    image = check_board(R.render_board(view, names=NAMES, translator=EN), 4)
    # a late player's days are printed in red in the panel
    row = R.PANEL_TOP + R.PANEL_HEAD_H + 3 * R.ROW_H
    cols = R._panel_columns()
    crop = image.convert("RGB").crop((cols["days"], row, cols["days"] + 60, row + R.ROW_H))
    assert any(r > 150 and g < 90 and b < 90 for r, g, b in crop.get_flattened_data())
    view["days"]["p4"] = 40
    assert R.render_board(view, names=NAMES, translator=EN) != R.render_board(
        dict(view, days={"p1": 79, "p2": 81, "p3": 96, "p4": 134}), names=NAMES, translator=EN)


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_to_the_end_with_arrivals(rules, n):
    state, events = play(rules, n, seed=30 + n)
    assert rules.is_over(state)
    view = rules.view(state, None)
    assert view["over"] and view["result"] and view["arrival_order"]
    image = check_board(R.render_board(view, names=NAMES, events=events, translator=EN), n)
    assert image.width == R.W
    for seat in seats(n):
        png(R.render_hand(rules.view(state, seat), seat, names=NAMES, translator=EN))


def test_arrivals_mid_game(rules):
    """A game stopped right after the first arrival in London."""
    state = rules.new_game(seats(5), 77, {})
    events: list[dict] = []
    while not rules.is_over(state) and not rules.view(state, None)["arrival_order"]:
        seat = rules.to_act(state)[0]
        events = rules.apply(state, seat, rules.ai_action(state, seat))
    view = rules.view(state, None)
    assert view["arrival_order"]
    check_board(R.render_board(view, names=NAMES, events=events, translator=EN), 5)


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_languages(rules, lang):
    state, events = play(rules, 4, seed=12, steps=80)
    view = rules.view(state, None)
    board = R.render_board(view, names=NAMES, translator=TR(lang), events=events)
    check_board(board, 4)
    if lang != "en":
        assert board != R.render_board(view, names=NAMES, translator=EN, events=events)
    png(R.render_hand(rules.view(state, "p1"), "p1", names=NAMES, translator=TR(lang)))


def test_unknown_language_falls_back_to_english(rules):
    state, _ = play(rules, 3, seed=1, steps=5)
    view = rules.view(state, None)
    assert R.render_board(view, names=NAMES, translator=TR("xx")) == R.render_board(view, names=NAMES, translator=EN)


def test_word_tables_are_complete():
    """The image's words live in the game's catalogs (`img.*`, `city.*`, `card.*`); the catalog
    tests check that every language has every key."""
    img = {lang: {k: v for k, v in _catalog(lang).items() if k.startswith("img.")} for lang in ("en", "de", "fr")}
    for lang in ("en", "de", "fr"):
        assert set(img[lang]) == set(img["en"])
        assert all(TR(lang).__call__(f"city.{loc}") != f"city.{loc}" for loc in R.LOCATIONS)
        assert all(R.event_card_text(card, TR(lang))[1] for card in EVENT_CARDS)
    assert R.city_name("london", TR("fr")) == "Londres"
    assert R.city_name("calcutta", TR("de")) == "Kalkutta"
    assert R.event_card_text("princess", TR("de"))[0] == "Prinzessin"
    # German and French are translations, not copies
    assert img["de"]["img.title"] != img["en"]["img.title"] != img["fr"]["img.title"]
    same = [k for k in img["en"] if img["en"][k] == img["de"][k] == img["fr"][k]]
    assert len(same) < 5, same


def test_hand_groups_identical_cards():
    groups = R._travel_groups(["train:5", "ship:7", "ship:7", "train:3", "ship:4", "train:5", "ship:7"])
    assert groups == [("ship", 4, 1), ("ship", 7, 3), ("train", 3, 1), ("train", 5, 2)]
    places = R._hand_layout(groups, 116, R.HAND_W)
    xs = [x for x, _row in places]
    assert xs == sorted(xs) and len(set(xs)) == len(xs)


def test_hand_shows_its_cards(rules):
    state, _ = play(rules, 3, seed=6, steps=20)
    view = rules.view(state, "p1")
    pair = copy.deepcopy(view)
    pair["private"] = {"travel": ["ship:7", "ship:7", "train:2"], "events": ["balloon", "elephant"]}
    single = copy.deepcopy(view)
    single["private"] = {"travel": ["ship:7", "ship:6", "train:2"], "events": ["balloon", "elephant"]}
    assert R.render_hand(pair, "p1", names=NAMES, translator=EN) != R.render_hand(single, "p1", names=NAMES,
            translator=EN)
    empty = copy.deepcopy(view)
    empty["private"] = {"travel": [], "events": []}
    png(R.render_hand(empty, "p1", names=NAMES, translator=EN))
    full = copy.deepcopy(view)
    full["private"] = {"travel": [f"{k}:{d}" for k in ("ship", "train") for d in range(2, 9)] * 2,
                       "events": list(EVENT_CARDS)}
    image = png(R.render_hand(full, "p1", names=NAMES, translator=EN))
    assert image.height > png(R.render_hand(empty, "p1", names=NAMES, translator=EN)).height


@settings(max_examples=12, deadline=None)
@given(n=st.integers(2, 6), seed=st.integers(0, 10_000), steps=st.integers(0, 400), ai=st.booleans(),
       lang=st.sampled_from(["en", "de", "fr"]))
def test_random_play_always_renders(n, seed, steps, ai, lang):
    rules = registry.get("around-the-world")
    state, events = play(rules, n, seed, steps, ai=ai)
    view = rules.view(state, None)
    check_board(R.render_board(view, names={}, translator=TR(lang), events=events), n)
    seat = seats(n)[seed % n]
    data = R.render_hand(rules.view(state, seat), seat, names={}, translator=TR(lang))
    assert png(data).width >= 1200 and len(data) < MAX_BYTES


def test_time_track_keeps_crowds_inside_its_band(rules):
    """Six markers on the same day stay in the time-track band (no spill into the display)."""
    view = rules.view(rules.new_game(seats(6), 1, {}), None)
    assert set(view["days"].values()) == {0}
    spread = copy.deepcopy(view)
    spread["days"] = {s: 15 * k for k, s in enumerate(seats(6))}
    crowded_img = R.board_image(view, names=NAMES, translator=EN)
    spread_img = R.board_image(spread, names=NAMES, translator=EN)
    above = (0, R.DISPLAY_TOP, 400, R.TRACK_TOP + 36)
    assert crowded_img.crop(above).tobytes() == spread_img.crop(above).tobytes()
    band = (0, R.TRACK_TOP + 36, 400, R.TRACK_LINE_Y)
    assert crowded_img.crop(band).tobytes() != spread_img.crop(band).tobytes()


def test_chit_taken_by_the_events_is_ringed_and_empty(rules):
    """The spot of a chit just taken is ringed and shows no chit: drawn once more inside its
    ring, players read it as still lying there."""
    state, _ = play(rules, 4, seed=3, steps=0)
    view = rules.view(state, None)
    view["chits"]["paris"]["red"] = None
    event = {"type": "chit", "seat": "p1", "location": "paris", "colour": "red", "chit": "event"}
    plain = R.board_image(view, names=NAMES, translator=EN)
    ringed = R.board_image(view, names=NAMES, events=[event], translator=EN)
    (cx, cy), _blue = R._plate_geometry("paris", "Paris")[1]
    ring = (round(cx), round(cy - R.CHIT_R - 3))
    assert plain.getpixel(ring) != ringed.getpixel(ring) == R.ROUTE_GLOW
    # inside the ring the spot is as empty as any taken one, unlike a chit still lying there
    inner = R.CHIT_R * 0.7  # the square inside the ring
    spot = (round(cx - inner), round(cy - inner), round(cx + inner), round(cy + inner))
    assert ImageChops.difference(plain.crop(spot), ringed.crop(spot)).getbbox() is None
    view["chits"]["paris"]["red"] = "event"
    lying = R.board_image(view, names=NAMES, translator=EN)
    assert ImageChops.difference(lying.crop(spot), ringed.crop(spot)).getbbox() is not None


def test_sparse_or_odd_views_still_render():
    """Only the contract's minimum keys, or odd values, never crash the renderer."""
    minimal = {"game": "around-the-world", "seats": ["p1", "p2"], "to_act": ["p1"], "over": False}
    check_board(R.render_board(minimal, names={}, translator=EN), 2)
    png(R.render_hand(minimal, "p1", names={}, translator=EN))
    over = dict(minimal, over=True, result={"ranking": [{"seat": "p1", "rank": 1}, {"seat": "p2", "rank": 2}],
                                            "winners": ["p1"]})
    check_board(R.render_board(over, names={}, translator=EN), 2)
    odd = dict(minimal, positions={"p1": 99, "p2": -1}, days={"p1": "x"}, display=[{"action": "x", "card": "boat:x"}],
               chits={"paris": "bad"}, legs="bad", last_roll=[7, "a"], detective="atlantis")
    check_board(R.render_board(odd, names={}, events=[None, {"type": "travel", "from": "x", "to": "y"}],
            translator=EN), 2)


@pytest.mark.parametrize("n", [3, 6])
def test_fixed_palette_keeps_the_colours(rules, n):
    """The PNG uses one fixed palette; it must stay faithful to the drawn image."""
    state, events = play(rules, n, seed=40 + n, steps=150)
    for image in (R.board_image(rules.view(state, None), names=NAMES, events=events, translator=EN),
                  R.hand_image(rules.view(state, "p1"), "p1", names=NAMES, translator=EN)):
        decoded = png(R.encode(image))
        assert decoded.mode == "P"
        diff = ImageChops.difference(image, decoded.convert("RGB"))
        assert max(ImageStat.Stat(diff).mean) < 2.5
        assert max(hi for _lo, hi in diff.getextrema()) < 60
    # every player colour is in the palette exactly
    palette = R._palette().getpalette()[: 3 * 256]
    entries = {tuple(palette[k:k + 3]) for k in range(0, len(palette), 3)}
    assert all(min(sum(abs(a - b) for a, b in zip(c, e, strict=True)) for e in entries) <= 6 for c in PLAYER_COLOURS)


def test_stored_palette_is_the_calibrated_one():
    """The palette is stored (its sample's texts live in the catalogs, out of render's reach),
    as made at the split from the calibration views; calibrating again with today's English
    catalog (two card names now in title case) must give the same colours to within a shade."""
    def entries(palette) -> list[tuple[int, ...]]:
        raw = palette.getpalette()[: 3 * 256]
        return [tuple(raw[k:k + 3]) for k in range(0, len(raw), 3)]
    stored = entries(R._palette())
    fresh = entries(R.calibrate_palette(EN))
    assert max(min(sum(abs(a - b) for a, b in zip(c, e, strict=True)) for e in stored) for c in fresh) <= 12


def test_board_sprites_are_made_with_the_first_board_of_a_language(rules, monkeypatch):
    """Every sprite a board pastes (travel cards of the whole deck, icons, chits, pawns) is made
    with the first board of a language, so no later turn pays for one (they were most of the
    slowest boards)."""
    from engine.games.around_the_world.data import travel_deck
    from render.around_the_world import sprites

    assert set(sprites.BOARD_CARDS) == set(travel_deck())
    R.render_board(rules.view(play(rules, 6, seed=5, steps=0)[0], None), names=NAMES, translator=TR("fr"))
    made: list[tuple[int, int]] = []
    real = sprites._sprite
    monkeypatch.setattr(sprites, "_sprite", lambda size, paint: made.append(size) or real(size, paint))
    for n, steps in ((6, 5), (4, 90), (3, None), (6, 200)):
        state, events = play(rules, n, seed=n + 40, steps=steps, ai=False)
        R.render_board(rules.view(state, None), names=NAMES, translator=TR("fr"), events=events)
    assert made == []


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_pawns_keep_off_every_name_plate_and_badge(rules, lang):
    """However many pawns share a city, none covers a city's name plate (with its chits), a
    leg's badge or the detective, and none leaves the map: six pawns piled on Paris's plate
    hid its name and chits. Measured on the pixels for Paris, by the spots for every city."""
    from render.around_the_world import board as B

    t = TR(lang)
    state, _ = play(rules, 6, seed=3, steps=0)
    view = rules.view(state, None)
    locations = view["locations"]
    others = copy.deepcopy(view)
    view["positions"] = {s: 1 for s in view["seats"]}  # everyone in Paris
    others["positions"] = {s: 2 for s in view["seats"]}
    box, _chits = R._plate_geometry("paris", R.city_name("paris", t))
    plate = tuple(round(v) for v in (box[0] - 2, box[1] - 2, box[2] + 4, box[3] + 5))
    at_paris = R.board_image(view, names=NAMES, translator=t).crop(plate)
    elsewhere = R.board_image(others, names=NAMES, translator=t).crop(plate)
    assert ImageChops.difference(at_paris.convert("RGB"), elsewhere.convert("RGB")).getbbox() is None
    for det in locations:
        view["detective"] = det
        obstacles = tuple(B._obstacles(view, t, locations))
        for loc in locations:
            for n in range(1, 7):
                for x, y in B.pawn_spots(loc, n, obstacles):
                    pawn = (x - 19, y - 19, x + 19, y + 19)
                    assert pawn[0] >= 0 and pawn[2] <= R.W and pawn[1] >= B.HEADER_H and pawn[3] <= R.DISPLAY_TOP
                    assert not any(B._overlaps(pawn, o) for o in obstacles), (lang, loc, n, det)


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_the_first_players_watch_is_explained_above_its_column(lang: str, rules) -> None:
    """The ⏱ beside a player's name had no legend: the panel's heading shows the same watch,
    above the column where it appears, with its meaning in the board's language."""
    from render.around_the_world.board import _panel_columns
    from render.around_the_world.geometry import PANEL_HEAD_H, PANEL_TOP

    asked: list[str] = []
    real = TR(lang)

    def spy(key: str, **fields):
        asked.append(key)
        return real(key, **fields)

    state = rules.new_game(seats(3), 7)
    img = R.board_image(rules.view(state, None), names={}, translator=spy)
    assert "img.first_mark" in asked and real("img.first_mark") != "img.first_mark"
    x = _panel_columns()["where"] - 34
    head = img.crop((x - 18, PANEL_TOP + 4, x + 18, PANEL_TOP + PANEL_HEAD_H - 4))
    raw = head.convert("RGB").tobytes()
    pixels = [raw[i:i + 3] for i in range(0, len(raw), 3)]
    watch_gold = [p for p in pixels if 110 < p[0] < 210 and p[2] < 80]
    assert len(watch_gold) > 40, "no watch in the heading above the watch column"
