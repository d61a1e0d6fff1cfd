"""The rails-and-sails board and hand renderer, driven by real engine views."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

from bot.games.rails_and_sails import UI
from bot.i18n import Translator, load_catalog
from engine import registry
from render import rails_and_sails as R
from render.common import PLAYER_COLOURS
from tests.support.render_support import locales, translator


def TR(lang: str):  # noqa: N802
    return translator("rails-and-sails", lang)


EN = TR("en")

NAMES = {"p1": "Alice", "p2": "Bartholomew", "p3": "Chloé", "p4": "Dmitri", "p5": "Eun-ji"}


def _t(lang: str) -> Translator:
    """The translator the bot hands the renderer: the game's catalogs in `lang`."""
    return UI.translator(lang)
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def rules():
    return registry.get("rails-and-sails")


def play(n: int, steps: int, seed: int = 11):
    """A real game with AI seats, `steps` actions in (or to the end)."""
    rs = rules()
    seats = [f"p{i + 1}" for i in range(n)]
    state = rs.new_game(seats, seed, {})
    for _ in range(steps):
        if rs.is_over(state):
            break
        seat = rs.to_act(state)[0]
        rs.apply(state, seat, rs.ai_action(state, seat))
    return rs, state


def decode(data: bytes) -> Image.Image:
    assert data[:8] == PNG_MAGIC
    return Image.open(io.BytesIO(data)).convert("RGB")


@pytest.fixture(scope="module")
def midgame():
    return play(4, 160)


# -- images from real views -----------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("steps", [0, 6, 140, 10_000])
def test_board_and_hand_from_real_views(n: int, steps: int) -> None:
    rs, state = play(n, steps, seed=n * 7 + steps)
    public = rs.view(state, None)
    assert "private" not in public
    board = R.render_board(public, names=NAMES, translator=EN)
    assert len(board) < 1_000_000
    img = decode(board)
    assert img.size == (R.WIDTH, R.HEIGHT)
    for seat in public["seats"]:
        hand = R.render_hand(rs.view(state, seat), seat, names=NAMES, translator=EN)
        himg = decode(hand)
        assert himg.width == R.HAND_W
        assert 300 < himg.height < 2400
        assert len(hand) < 1_000_000


def test_board_is_deterministic_and_ignores_private_data(midgame) -> None:
    rs, state = midgame
    public = rs.view(state, None)
    once = R.render_board(public, names=NAMES, translator=EN)
    again = R.render_board(json.loads(json.dumps(public)), names=NAMES, translator=EN)
    assert once == again
    # a seat's own view carries its secrets; the board must not show any of them
    for seat in public["seats"]:
        assert R.render_board(rs.view(state, seat), names=NAMES, translator=EN) == once


def test_hand_is_deterministic_and_shows_the_seat(midgame) -> None:
    rs, state = midgame
    a = R.render_hand(rs.view(state, "p2"), "p2", names=NAMES, translator=EN)
    b = R.render_hand(rs.view(state, "p2"), "p2", names=NAMES, translator=EN)
    c = R.render_hand(rs.view(state, "p3"), "p3", names=NAMES, translator=EN)
    assert a == b
    assert a != c


def test_languages_differ_and_localise_cities(midgame) -> None:
    rs, state = midgame
    public = rs.view(state, None)
    images = {lang: R.render_board(public, names=NAMES, lang=lang, translator=_t(lang)) for lang in ("en", "de", "fr")}
    assert len(set(images.values())) == 3
    # city names come from the game's catalogs through the translator
    assert R.city_name("moskva", _t("fr")) == "Moscou"
    assert R.city_name("moskva", _t("de")) == "Moskau"
    assert R.city_name("moskva", _t("en")) == "Moscow"
    assert R.city_name("lima", _t("de")) == "Lima"
    # without a translator: the map data's names
    assert R.city_name("moskva") == "Moskva"
    # an unknown language falls back to English rather than failing
    assert R.render_board(public, names=NAMES, lang="xx", translator=_t("xx")) == images["en"]


def test_text_tables_have_the_same_keys() -> None:
    """The image's words live in the game's catalogs under `img.*` (see test_i18n_catalogs)."""
    tables = {lang: {k: v for k, v in load_catalog(str(locales("rails-and-sails")), lang).items()
                     if k.startswith("img.")} for lang in ("en", "de", "fr")}
    keys = set(tables["en"])
    for lang in ("de", "fr"):
        assert set(tables[lang]) == keys, lang
        assert tables[lang] != tables["en"]


# -- what the board shows ----------------------------------------------------------------------------------------
def _pixel(img: Image.Image, x: float, y: float) -> tuple[int, int, int]:
    return img.getpixel((round(x) % R.WIDTH, round(y)))


def test_claimed_route_and_harbor_take_the_owner_colour(midgame) -> None:
    rs, state = midgame
    public = rs.view(state, None)
    seats = public["seats"]
    geom = R.geometry()
    md = R._mapdata()
    free = [r.id for r in md.ROUTES if r.id not in public["claimed"] and r.length >= 2]
    view = json.loads(json.dumps(public))
    route = free[0]
    view["claimed"][route] = seats[2]
    city = next(c for c in md.CITIES.values() if c.harbor and c.id not in public["harbors"])
    view["harbors"][city.id] = seats[1]
    before = decode(R.render_board(public, names=NAMES, translator=EN))
    after = decode(R.render_board(view, names=NAMES, translator=EN))
    colour = PLAYER_COLOURS[2]
    g = geom.routes[route]
    hits = 0
    for sp in g.spaces:
        x, y = round(sp.x) % R.WIDTH, round(sp.y)
        box = after.crop((x - 8, y - 8, x + 8, y + 8)).tobytes()
        near = sum(1 for i in range(0, len(box), 3)
                   if abs(box[i] - colour[0]) + abs(box[i + 1] - colour[1]) + abs(box[i + 2] - colour[2]) < 40)
        if near >= 12:
            hits += 1
    assert hits == len(g.spaces)
    # the harbor: the owner's token sits on the city
    x, y = geom.nodes[city.id]
    assert _pixel(before, x, y - 4) != _pixel(after, x, y - 4)


def test_last_claim_is_highlighted(midgame) -> None:
    rs, state = midgame
    public = json.loads(json.dumps(rs.view(state, None)))
    route, seat = next(iter(public["claimed"].items()))
    public["last"] = {"seat": seat, "type": "claim", "route": route, "points": 2}
    plain = json.loads(json.dumps(public))
    plain["last"] = None
    lit = decode(R.render_board(public, names=NAMES, translator=EN))
    dark = decode(R.render_board(plain, names=NAMES, translator=EN))
    sp = R.geometry().routes[route].spaces[0]
    box = (round(sp.x) - 20, round(sp.y) - 20, round(sp.x) + 20, round(sp.y) + 20)
    yellow = _count_yellow(lit.crop(box))
    yellow_before = _count_yellow(dark.crop(box))
    assert yellow > yellow_before + 20


def _count_yellow(img: Image.Image) -> int:
    raw = img.tobytes()
    return sum(1 for i in range(0, len(raw), 3) if raw[i] > 230 and raw[i + 1] > 190 and raw[i + 2] < 80)


def test_board_shows_land_and_sea_where_they_are() -> None:
    img = R._static(R.city_labels())
    cut = R.geometry().cut

    def at(lon: float, lat: float) -> tuple[int, int, int]:
        x, y = R._project(lon, lat, cut)
        return img.getpixel((round(x), round(y)))

    # the Sahara, central Asia, the Amazon are land; the mid-Pacific, mid-Atlantic and Indian Ocean are sea
    for lon, lat in ((12.0, 22.0), (90.0, 45.0), (-60.0, -5.0), (135.0, -25.0)):
        assert at(lon, lat) == R.LAND, (lon, lat)
    for lon, lat in ((-140.5, 10.0), (-35.0, 25.0), (80.0, -20.0), (170.0, 5.0)):
        assert at(lon, lat) in (R.SEA, R.SEA_DEEP), (lon, lat)


def test_coastline_data_is_small_and_real() -> None:
    path = Path(R.__file__).parent.parent / "data" / "coastlines.json"
    assert path.stat().st_size < 2_000_000
    data = json.loads(path.read_text())
    land = [coords for level, coords in data["polygons"] if level == 1]
    assert len(land) > 100
    # the biggest polygon spans most of Eurasia
    biggest = max(land, key=len)
    lons = biggest[0::2]
    assert max(lons) - min(lons) > 15000


# -- geometry ------------------------------------------------------------------------------------------------------
def test_the_edge_is_in_the_pacific_and_matches_the_wrap_flags() -> None:
    md = R._mapdata()
    geom = R.geometry()
    assert -160 < geom.cut < -120
    for route in md.ROUTES:
        g = geom.routes[route.id]
        arrows = R._edge_crossings(g)
        assert bool(arrows) == route.wraps, route.id


def test_every_city_and_space_is_on_the_map() -> None:
    geom = R.geometry()
    for node, (x, y) in geom.nodes.items():
        assert 0 <= x < R.WIDTH and R.MAP_TOP < y < R.PANEL_TOP, node
    for g in geom.routes.values():
        assert len(g.spaces) == g.length
        for sp in g.spaces:
            assert R.MAP_TOP + 6 < sp.y < R.PANEL_TOP - 6, g.id
            assert sp.length >= 12, g.id


def test_no_routes_cross_and_none_runs_through_a_city() -> None:
    assert R.route_crossings() == []
    assert R.routes_through_cities() == []
    # no two spaces of different routes (double pairs count as one) sit on top of each other
    assert R.space_clashes(min_gap=15.0) == []


def test_the_crossing_check_can_fail() -> None:
    md = R._mapdata()
    bent = dict(R.BENDS)
    bent["hamburg|marseille"] = 120.0  # a wild bend through western Europe
    geom = R.build_geometry(md, bent)
    assert R.route_crossings(geom) or R.routes_through_cities(geom)


def test_labels_do_not_overlap_and_stay_on_the_map() -> None:
    f = R.font(R.LABEL_FONT, "semibold")
    for lang in ("en", "de", "fr"):
        labels = R._place_labels(R.geometry(), R.city_labels(_t(lang)))
        assert len(labels) == len(R._mapdata().CITIES)
        boxes = []
        for x, y, text in labels.values():
            w = f.getlength(text)
            box = (x - w / 2, y - R.LABEL_FONT / 2, x + w / 2, y + R.LABEL_FONT / 2)
            assert box[0] >= 0 and box[2] <= R.WIDTH and box[1] >= R.MAP_TOP and box[3] <= R.PANEL_TOP
            boxes.append(box)
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                assert R._overlap(boxes[i], boxes[j]) == 0, (lang, i, j)


def test_every_route_colour_has_a_shape_cue() -> None:
    md = R._mapdata()
    for route in md.ROUTES:
        assert route.colour in R.ROUTE_COLOURS
        assert route.colour == "grey" or R.SYMBOLS[route.colour]
    cues = [R.SYMBOLS[c] for c in md.COLOURS]
    assert len(set(cues)) == len(cues)


# -- phases, final table, small-game doubles, colours ------------------------------------------------------------
def test_game_over_shows_the_final_table() -> None:
    rs, state = play(3, 100_000, seed=5)
    assert rs.is_over(state)
    public = rs.view(state, None)
    img = R.board_image(public, names=NAMES, translator=EN)
    # the same view without its result is drawn with the running table instead
    running = json.loads(json.dumps(public))
    running["over"], running["result"], running["phase"] = False, None, "play"
    other = R.board_image(running, names=NAMES, translator=EN)
    panel = (0, R.PANEL_TOP + 1, 870, R.HEIGHT)
    assert img.crop(panel).tobytes() != other.crop(panel).tobytes()
    # the winner's row is highlighted: the first row carries the highlight colour
    y = R.PANEL_TOP + 10 + 44 + 20
    assert img.getpixel((300, y)) == (255, 236, 170)


def test_the_unusable_twin_of_a_double_is_veiled_with_two_or_three_players(midgame) -> None:
    rs, state = midgame
    public = json.loads(json.dumps(rs.view(state, None)))
    md = R._mapdata()
    route = next(r for r in md.ROUTES if r.double and r.id not in public["claimed"]
                 and r.double not in public["claimed"])
    public["claimed"][route.id] = public["seats"][0]
    twin = R.geometry().routes[route.double].spaces[0]
    four = R.board_image(public, names=NAMES, translator=EN)
    three = json.loads(json.dumps(public))
    three["seats"] = three["seats"][:3]
    small = R.board_image(three, names=NAMES, translator=EN)
    assert R._twins()[route.id] == route.double
    x, y = round(twin.x) % R.WIDTH, round(twin.y)
    box = (x - 4, y - 4, x + 4, y + 4)
    assert four.crop(box).tobytes() != small.crop(box).tobytes()


def test_setup_views_keep_pieces_secret() -> None:
    rs, state = play(4, 2, seed=3)
    public = rs.view(state, None)
    assert public["phase"] == "setup_tickets"
    img = decode(R.render_board(public, names=NAMES, translator=TR("de")))
    assert img.size == (R.WIDTH, R.HEIGHT)


def test_palette_keeps_player_and_route_colours_exact() -> None:
    pal = R._palette().getpalette() or []
    colours = {tuple(pal[i:i + 3]) for i in range(0, len(pal), 3)}
    for colour in [*PLAYER_COLOURS, *R.ROUTE_COLOURS.values(), R.HIGHLIGHT]:
        assert tuple(colour) in colours


def test_hand_lists_every_card_and_ticket(midgame) -> None:
    rs, state = midgame
    view = rs.view(state, "p1")
    view["private"]["hand"] = ["t:red", "t:red:h", "t:wild", "s:black:2", "s:yellow"] * 3
    view["private"]["pending_tickets"] = [{"id": "x", "cities": ["lima", "sydney"], "points": [9]}]
    img = R.hand_image(view, "p1", names=NAMES, translator=EN)
    empty = json.loads(json.dumps(view))
    empty["private"]["pending_tickets"] = []
    assert R.hand_image(empty, "p1", names=NAMES, translator=EN).height < img.height
    # a ship card (yellow) and the wild card's stripes are on the image
    raw = img.tobytes()
    pixels = {tuple(raw[i:i + 3]) for i in range(0, len(raw), 3)}
    assert R.ROUTE_COLOURS["yellow"] in pixels and R.ROUTE_COLOURS["red"] in pixels


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_legend_fits_in_every_language(lang: str) -> None:
    img = Image.new("RGB", (R.WIDTH, R.HEIGHT), R.PANEL_BG)
    assert R._draw_legend(img, TR(lang)) == 0


def test_minimal_views_and_unknown_names_still_render() -> None:
    view = {"game": "rails-and-sails", "seats": ["p1", "p2"], "to_act": ["p1"], "over": False}
    assert decode(R.render_board(view, names={}, translator=EN)).size == (R.WIDTH, R.HEIGHT)
    assert decode(R.render_hand(view, "p1", names={}, translator=EN)).width == R.HAND_W


def test_header_says_when_a_second_card_is_being_taken(midgame) -> None:
    rs, state = midgame
    view = json.loads(json.dumps(rs.view(state, None)))
    view["drawn"] = 0
    plain = R.board_image(view, names=NAMES, translator=EN)
    view["drawn"] = 1
    second = R.board_image(view, names=NAMES, translator=EN)
    header = (0, 0, R.WIDTH, R.MAP_TOP)
    assert plain.crop(header).tobytes() != second.crop(header).tobytes()


def test_labels_sit_next_to_their_own_city_and_cover_no_city() -> None:
    geom = R.geometry()
    f = R.font(R.LABEL_FONT, "semibold")
    for lang in ("en", "de", "fr"):
        for cid, (x, y, text) in R._place_labels(geom, R.city_labels(_t(lang))).items():
            w = f.getlength(text)
            box = (x - w / 2, y - R.LABEL_FONT / 2, x + w / 2, y + R.LABEL_FONT / 2)
            cx, cy = geom.nodes[cid]
            gap_x = max(box[0] - cx, 0, cx - box[2])
            gap_y = max(box[1] - cy, 0, cy - box[3])
            assert (gap_x ** 2 + gap_y ** 2) ** 0.5 < 40, (lang, cid)
            for other, (ox, oy) in geom.nodes.items():
                inside = box[0] - 7 < ox < box[2] + 7 and box[1] - 7 < oy < box[3] + 7
                assert not inside, (lang, cid, other)


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_pasted_cards_equal_drawn_cards(lang: str) -> None:
    """`paste_card` (a sprite per card, size and wording) gives the very pixels `draw_card` and
    the card back draw, over a busy background, for every card the market or the last move
    shows; a position that is not whole is drawn as before."""
    import random

    from PIL import ImageDraw

    from engine.games.rails_and_sails.mapdata import SHIP_CARDS, TRAIN_CARDS
    from render.rails_and_sails.sprites import _draw_card_back, draw_card, paste_card

    t = _t(lang)
    rng = random.Random(5)
    background = Image.new("RGB", (140, 150))
    paint = ImageDraw.Draw(background)
    for _ in range(60):
        x, y = rng.randrange(140), rng.randrange(150)
        paint.rectangle((x, y, x + rng.randrange(4, 30), y + rng.randrange(4, 30)),
                        fill=(rng.randrange(256), rng.randrange(256), rng.randrange(256)))
    cards: list[str | None] = [None, *sorted(set(TRAIN_CARDS) | set(SHIP_CARDS))]
    for w, h in ((76, 104), (24, 32)):
        for card in cards:
            for x, y in ((7, 9), (30, 21), (12.5, 9)):
                drawn, pasted = background.copy(), background.copy()
                draw_card(drawn, x, y, card, t, w, h)
                paste_card(pasted, x, y, card, t, w, h)
                assert pasted.tobytes() == drawn.tobytes(), (card, w, h, x, y)
        for kind in ("train", "ship"):
            drawn, pasted = background.copy(), background.copy()
            _draw_card_back(drawn, 11, 13, kind, w, h)
            paste_card(pasted, 11, 13, kind, t, w, h, back=True)
            assert pasted.tobytes() == drawn.tobytes(), (kind, w, h)


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_fixed_words_pasted_equal_words_drawn(lang: str, midgame, monkeypatch: pytest.MonkeyPatch) -> None:
    """The panel's column heads and deck names are pasted from a piece drawn once per language
    (`board._paste_fixed`): every board, running or finished, has the pixels of drawing them."""
    from render.rails_and_sails import board as board_module

    rs, state = midgame
    finished = play(5, 100_000, seed=8)
    views = [rs.view(state, None), finished[0].view(finished[1], None), {"seats": ["p1", "p2"]}]
    t = _t(lang)
    pasted = [R.board_image(view, names=NAMES, translator=t) for view in views]
    assert board_module._FIXED  # the pieces were made and used

    def draw_them(board, base, drawing, words) -> None:  # noqa: ANN001 - the function it replaces
        drawing(board, words)

    monkeypatch.setattr(board_module, "_paste_fixed", draw_them)
    for view, image in zip(views, pasted, strict=True):
        assert image.tobytes() == R.board_image(view, names=NAMES, translator=t).tobytes()


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_the_harbors_head_says_left_and_keeps_clear_of_its_neighbours(lang: str) -> None:
    """The number under the harbors head is how many a player may still build: the head reads
    like the hand's "Harbors left" ("Harbors" alone read as harbors built), and every head keeps
    6 px from the next one however long the words are in that language."""
    from render.common import font, text_length
    from render.rails_and_sails import board as B

    t = TR(lang)
    assert t("img.harbors") == t("img.harbors_left")
    head = font(19, "semibold")
    spans = [(B._PLAYER_COLS[key] - text_length(t(f"img.{key}"), head) / 2,
              B._PLAYER_COLS[key] + text_length(t(f"img.{key}"), head) / 2) for key in B._PLAYER_HEADS]
    for (_, right), (left, _) in zip(spans, spans[1:], strict=False):
        assert left - right >= 6, (lang, spans)
    assert spans[-1][1] <= 850  # inside the highlighted row


@pytest.mark.parametrize("player", [1, 2])
def test_a_claimed_route_is_one_unbroken_chain(midgame, player: int) -> None:
    """Between two spaces of a claimed route the gap is filled in the owner's colour, so a
    claimed route reads as a built line, not as a row of spaces: the bluish-green player's
    routes looked like unclaimed green ones (and the orange player's like yellow ones) at phone
    size, where the letter and the dark rim are a pixel wide."""
    rs, state = midgame
    public = rs.view(state, None)
    md = R._mapdata()
    geom = R.geometry()
    route = next(r.id for r in md.ROUTES if r.id not in public["claimed"] and r.length >= 3
                 and r.colour == ("yellow" if player == 1 else "green"))
    view = json.loads(json.dumps(public))
    view["claimed"][route] = public["seats"][player]
    img = decode(R.render_board(view, names=NAMES, translator=EN))
    colour = PLAYER_COLOURS[player]
    spaces = geom.routes[route].spaces
    for a, b in zip(spaces, spaces[1:], strict=False):
        got = _pixel(img, (a.x + b.x) / 2, (a.y + b.y) / 2)
        assert sum(abs(g - c) for g, c in zip(got, colour, strict=True)) < 30, (route, got, colour)


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_the_legend_explains_the_cross_on_closed_twins_and_the_header_counts_rounds(lang: str) -> None:
    """Players misread the × over a double route's closed twin (2–3 players) and the header's
    "Turn 142" beside the status's rounds: the legend names the cross, the header says the
    round as the status does (a turn of every seat)."""
    asked: dict[str, dict] = {}
    real = _t(lang)

    def spy(key: str, **fields):
        asked[key] = fields
        return real(key, **fields)

    rs, state = play(3, 61)
    view = rs.view(state, None)
    R.board_image(view, names=NAMES, translator=spy)
    assert "img.legend.closed" in asked and real("img.legend.closed") != "img.legend.closed"
    assert "img.turn" not in asked
    assert asked["img.round"] == {"round": view["turn"] // 3 + 1}
