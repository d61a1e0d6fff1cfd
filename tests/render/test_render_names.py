"""Player names in images: any script and emoji get a font that has them, and a
32-character name (Discord's limit) stays inside its box in every renderer."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageDraw, ImageFont

from engine import registry
from render import around_the_world as ATW
from render import common as C
from render import detour as DT
from render import rails_and_sails as RS
from tests.support.render_support import translator

T_DT, T_ATW, T_RS = (translator(g, "en") for g in ("detour", "around-the-world", "rails-and-sails"))

HARD = ["Zoë 🚂✨", "太郎", "Ωμέγα", "Влад", "محمد", "שלום", "नमस्ते", "김철수", "👍🏽 ❤️"]
LONG = ["W" * 32, "漢" * 32, "Wolfgang Amadeus Mozart-Schmidtt"]
HARD_NAMES = {f"p{i + 1}": name for i, name in enumerate(["Zoë 🚂✨", "太郎", "Ωμέγα", "Влад", "محمد", "W" * 32])}
SHORT_NAMES = {f"p{i + 1}": "W" for i in range(6)}


def _play(game: str, players: int, steps: int, seed: int = 5):
    rules = registry.get(game)
    seats = [f"p{i + 1}" for i in range(players)]
    state = rules.new_game(seats, seed) if game == "detour" else rules.new_game(seats, seed, {})
    events: list = []
    for _ in range(steps):
        if rules.is_over(state):
            break
        seat = rules.to_act(state)[0]
        events = rules.apply(state, seat, rules.ai_action(state, seat))
    return rules, state, events


def _notdef_mask(f: ImageFont.FreeTypeFont) -> bytes:
    return bytes(f.getmask(chr(0x10FFFD)))


# -- (a) fallback: every character is drawn by a face that has it ---------------------------------------------
@pytest.mark.parametrize("weight", ["regular", "semibold", "bold"])
@pytest.mark.parametrize("name", HARD)
def test_each_character_goes_to_a_face_that_has_it(name: str, weight: C.Weight) -> None:
    runs = C.text_runs(name, weight)
    assert "".join(run for _face, run in runs) == name
    for face, run in runs:
        f = C._face_font(face, 40, weight)
        notdef = _notdef_mask(f)
        for ch in run:
            if C._attaches(ch) and ord(ch) not in C.face_cmap(face):
                continue  # joiners, selectors and skin tones: shaped with the character before them
            assert ord(ch) in C.face_cmap(face), (name, ch, face)
            if not ch.isspace():  # an independent check through Pillow: not the .notdef box
                assert bytes(f.getmask(ch)) != notdef, (name, ch, face)


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(
    [chr(c) for c in range(32, 127)] + list("éÅ–’\u0301\u200d\ufe0fΩЖ日م👍🏽⛵\t")), max_size=14),
       weight=st.sampled_from(["regular", "semibold", "bold"]))
def test_texts_wholly_in_source_sans_are_one_run_as_cutting_them_gives(text: str, weight: C.Weight) -> None:
    """`text_runs` answers a text whose every character Source Sans has at once: the same runs
    as cutting it character by character (`_cut_runs`)."""
    assert C.text_runs.__wrapped__(text, weight) == C._cut_runs(text, weight)


def test_source_sans_lacks_what_the_fallbacks_bring() -> None:
    """The chain is needed: Source Sans has Latin, Greek and Cyrillic but no CJK, Arabic or emoji."""
    primary = C.primary_face("bold")
    assert C.text_runs("Ωμέγα Влад Zoë", "bold") == ((primary, "Ωμέγα Влад Zoë"),)
    for name in ("太郎", "محمد", "🚂"):
        assert all(face != primary for face, _run in C.text_runs(name, "bold"))


def test_an_arabic_name_with_a_space_stays_one_run() -> None:
    runs = C.text_runs("محمد علي's turn", "regular")
    assert [run for _face, run in runs] == ["محمد علي", "'s turn"]


def test_emoji_sequences_are_not_split() -> None:
    for text in ("👍🏽", "👨\u200d👩\u200d👧", "❤️"):
        assert len(C.text_runs(text, "regular")) == 1


def test_cmap_reader_agrees_with_pillow_on_source_sans() -> None:
    f = C.font(40, "regular")
    notdef = _notdef_mask(f)
    cmap = C.face_cmap(C.primary_face("regular"))
    for ch in "AzéßΩжœ…–→×":
        assert ord(ch) in cmap
    for ch in "太م🚂":
        assert ord(ch) not in cmap
        assert bytes(f.getmask(ch)) == notdef


def test_mixed_text_is_drawn_without_boxes() -> None:
    """Drawing a fallback name differs from drawing .notdef boxes in its place."""
    f = C.font(30, "bold")
    with_fallback = Image.new("L", (400, 60), 0)
    C.draw_text(ImageDraw.Draw(with_fallback), (10, 30), "Zoë 🚂✨ 太郎", font=f, fill=255, anchor="lm")
    boxes = Image.new("L", (400, 60), 0)
    ImageDraw.Draw(boxes).text((10, 30), "Zoë 🚂✨ 太郎", font=f, fill=255, anchor="lm")
    assert ImageChops.difference(with_fallback, boxes).getbbox() is not None


@pytest.mark.parametrize("anchor", ["la", "lm", "ls", "ld"])
def test_draw_text_puts_runs_on_pillows_baseline(anchor: str) -> None:
    """Mixed text sits where Pillow would put plain text: its Latin part matches pixel for pixel."""
    f = C.font(28, "semibold")
    plain = Image.new("L", (500, 120), 0)
    ImageDraw.Draw(plain).text((40, 60), "Hallo Welt", font=f, fill=255, anchor=anchor)
    mixed = Image.new("L", (500, 120), 0)
    C.draw_text(ImageDraw.Draw(mixed), (40, 60), "Hallo Welt🚂", font=f, fill=255, anchor=anchor)
    box = plain.getbbox()
    assert box is not None
    assert ImageChops.difference(plain.crop(box), mixed.crop(box)).getextrema()[1] == 0


@pytest.mark.parametrize("anchor", ["mm", "rm", "ra"])
def test_draw_text_centres_and_right_aligns_the_whole_text(anchor: str) -> None:
    f = C.font(28, "semibold")
    text = "Zoë 🚂 太郎"
    width = C.text_length(text, f)
    mixed = Image.new("L", (600, 120), 0)
    drawn = C.draw_text(ImageDraw.Draw(mixed), (300, 60), text, font=f, fill=255, anchor=anchor)
    left = Image.new("L", (600, 120), 0)
    start = 300 - (width / 2 if anchor[0] == "m" else width)
    C.draw_text(ImageDraw.Draw(left), (start, 60), text, font=f, fill=255, anchor="l" + anchor[1])
    assert drawn == pytest.approx(width)
    a, b = mixed.getbbox(), left.getbbox()
    assert a is not None and b is not None
    assert all(abs(p - q) <= 1 for p, q in zip(a, b, strict=True))


# -- (b) long names fit ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", LONG + HARD)
@pytest.mark.parametrize("size,weight,room", [(24, "bold", 300), (22, "semibold", 120), (30, "regular", 500)])
def test_fit_text_never_exceeds_the_room(name: str, size: int, weight: C.Weight, room: int) -> None:
    f = C.font(size, weight)
    fitted = C.fit_text(name, f, room)
    assert C.text_length(fitted, f) <= room
    if C.text_length(name, f) > room:
        assert fitted.endswith("…") and name.startswith(fitted[:-1])
    else:
        assert fitted == name


def test_fit_text_keeps_clusters_whole() -> None:
    f = C.font(24, "regular")
    name = "👍🏽" * 20
    fitted = C.fit_text(name, f, 100)
    assert fitted.endswith("…") and (len(fitted) - 1) % 2 == 0


def _panel_diff(render, names_a, names_b, crop: tuple[int, int, int, int]) -> tuple[int, int, int, int] | None:
    a = render(names_a).convert("RGB").crop(crop)
    b = render(names_b).convert("RGB").crop(crop)
    return ImageChops.difference(a, b).getbbox()


def test_detour_long_names_stay_left_of_the_card_chips() -> None:
    rules, state, events = _play("detour", 4, 30)
    view = rules.view(state, None)
    img = DT.board_image(view, names=SHORT_NAMES, events=events, translator=T_DT)
    crop = (0, DT.PANEL_TOP, img.width, img.height)
    for long in LONG:
        names = {s: long for s in SHORT_NAMES}
        box = _panel_diff(lambda n: DT.board_image(view, names=n, events=events, translator=T_DT), SHORT_NAMES,
                names, crop)
        assert box is not None and box[2] <= DT.CHIPS_X - 14 + 1, (long, box)


def test_around_the_world_long_names_stay_in_the_name_column() -> None:
    rules, state, events = _play("around-the-world", 6, 30)
    view = rules.view(state, None)
    cols = ATW._panel_columns()
    crop = (0, ATW.PANEL_TOP + ATW.PANEL_HEAD_H, ATW.W, ATW.board_image(view, names=SHORT_NAMES,
            translator=T_ATW).height)
    for long in LONG:
        names = {s: long for s in SHORT_NAMES}
        box = _panel_diff(lambda n: ATW.board_image(view, names=n, events=events, translator=T_ATW), SHORT_NAMES,
                names, crop)
        assert box is not None and box[2] <= cols["where"] - 70 + 1, (long, box)


def test_rails_long_names_stay_in_the_name_column() -> None:
    rules, state, _events = _play("rails-and-sails", 5, 40)
    view = rules.view(state, None)
    crop = (0, RS.PANEL_TOP + 44, 860, RS.HEIGHT)
    for long in LONG:
        names = {s: long for s in SHORT_NAMES}
        box = _panel_diff(lambda n: RS.board_image(view, names=n, translator=T_RS), SHORT_NAMES, names, crop)
        assert box is not None and box[2] <= 54 + 250 + 1, (long, box)


# -- (c) boards and hands with hard names render, and stay small -----------------------------------------------
@pytest.mark.parametrize("game,module,players", [("detour", DT, 4), ("around-the-world", ATW, 6),
                                                  ("rails-and-sails", RS, 5)])
@pytest.mark.parametrize("steps", [30, 10_000])
def test_boards_and_hands_with_hard_names(game: str, module, players: int, steps: int) -> None:
    rules, state, events = _play(game, players, steps)
    names = dict(list(HARD_NAMES.items())[:players])
    names["p2"] = "Wolfgang Amadeus Mozart-Schmidtt"
    kwargs = {} if module is RS else {"events": events}
    board = module.render_board(rules.view(state, None), names=names, translator=translator(game, "en"), **kwargs)
    assert len(board) < 500_000
    Image.open(io.BytesIO(board)).verify()
    for seat in ("p1", "p2"):
        hand = module.render_hand(rules.view(state, seat), seat, names=names, translator=translator(game, "en"))
        assert len(hand) < 500_000
        Image.open(io.BytesIO(hand)).verify()
