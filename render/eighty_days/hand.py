"""A seat's hand image: the suitcase drawn in the engine's packing (each item shape in its
own colour, Jean's second suitcase beside it), the held adventure card, an open draft,
coins, the assistant and the travel diary."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render.common import Draw, Translator, draw_text, draw_token, font

from .board import ITEMS, coin, item_icon
from .geometry import GOLD, INK, ITEM_COLOUR, MUTED, PANEL, PAPER
from .static import market_symbol

WIDTH = 1500
CELL = 64
CARD_W, CARD_H = 600, 300


def _suitcase(draw: ImageDraw.ImageDraw, x0: int, y0: float, me: dict[str, Any], t: Translator) -> float:
    """Draw the packed suitcase; returns its bottom."""
    layout = me["suitcase"]
    cols = layout["cols"]
    jean_from = cols - 3 if me["second_suitcase"] else cols + 1
    for r, c in layout["cells"]:
        x, y = x0 + c * CELL, y0 + r * CELL
        draw.rectangle((x, y, x + CELL, y + CELL), fill=(235, 225, 205), outline=(170, 150, 120), width=2)
    owner: dict[tuple[int, int], int] = {}
    for k, placed in enumerate(me["packing"]):
        for r, c in placed["cells"]:
            owner[(r, c)] = k
    for k, placed in enumerate(me["packing"]):
        colour = ITEM_COLOUR[placed["item"]]
        for r, c in placed["cells"]:
            x, y = x0 + c * CELL, y0 + r * CELL
            draw.rectangle((x + 1, y + 1, x + CELL - 1, y + CELL - 1), fill=colour)
        for r, c in placed["cells"]:  # a thick outline only where the item ends
            x, y = x0 + c * CELL, y0 + r * CELL
            edges = (((r - 1, c), (x, y, x + CELL, y)), ((r + 1, c), (x, y + CELL, x + CELL, y + CELL)),
                     ((r, c - 1), (x, y, x, y + CELL)), ((r, c + 1), (x + CELL, y, x + CELL, y + CELL)))
            for other, line in edges:
                if owner.get(other) != k:
                    draw.line(line, fill=INK, width=5)
        r, c = placed["cells"][0]
        draw.text((x0 + c * CELL + CELL / 2, y0 + r * CELL + CELL / 2), t(f"item_name.{placed['item']}")[:1],
                  font=font(30, "bold"), fill=(255, 255, 255), anchor="mm", stroke_width=2, stroke_fill=INK)
    bottom = y0 + layout["rows"] * CELL
    if me["second_suitcase"]:
        draw_text(draw, (x0 + jean_from * CELL, y0 - 8), t("img.second_suitcase"), font=font(24, "semibold"),
                  fill=MUTED, anchor="ld", max_width=3 * CELL + 200)
    if not me["fits"]:
        draw_text(draw, (x0, bottom + 10), t("img.does_not_fit"), font=font(28, "bold"), fill=(190, 30, 30),
                  max_width=640)
        bottom += 44
    return bottom


def _legend(draw: ImageDraw.ImageDraw, x0: int, y0: float, me: dict[str, Any], t: Translator) -> float:
    y = y0
    for name in ITEMS:
        w, h = item_icon(draw, x0, y, name, 16)
        n = me["items"][name]
        draw_text(draw, (x0 + 80, y), f"{t(f'item_name.{name}')}: {n}", font=font(28, "semibold"),
                  fill=INK if n else MUTED, max_width=300)
        y += max(h, 34) + 12
    return y


def _card(draw: ImageDraw.ImageDraw, x0: int, y0: float, card: dict[str, Any], t: Translator, *,
          width: int = CARD_W) -> float:
    """One adventure card: title, market symbol, items and coins to hand in, points, bonus."""
    h = 250
    draw.rounded_rectangle((x0, y0, x0 + width, y0 + h), radius=16, fill=PANEL, outline=INK, width=3)
    draw_text(draw, (x0 + 18, y0 + 12), t(f"adventure.{card['id']}"), font=font(32, "bold"), fill=INK,
              max_width=width - 130)
    draw.rounded_rectangle((x0 + width - 100, y0 + 12, x0 + width - 14, y0 + 70), radius=10, fill=GOLD,
                           outline=INK, width=2)
    draw.text((x0 + width - 57, y0 + 41), str(card["points"]), font=font(40, "bold"), fill=INK, anchor="mm")
    y = y0 + 68
    if card.get("london"):
        draw_text(draw, (x0 + 18, y), t("market_symbol.london"), font=font(26, "semibold"), fill=INK)
    else:
        market_symbol(draw, x0 + 34, y + 17, 15, card["market"])
        both = t("market.boutique") + " / " + t("market.bazaar")
        text = both if card["market"] == "both" else t(f"market.{card['market']}")
        draw_text(draw, (x0 + 60, y), text[:1].upper() + text[1:], font=font(26, "semibold"), fill=INK,
                  max_width=width - 80)
    y += 50
    x: float = x0 + 18
    for name in ITEMS:
        n = card["items"].get(name, 0)
        for _ in range(n):
            w, hh = item_icon(draw, x, y, name, 16)
            x += w + 14
    if card["coins"]:
        coin(draw, x + 22, y + 22, 22, str(card["coins"]), 24)
        x += 56
    y += 74
    bonus = card.get("bonus")
    draw_text(draw, (x0 + 18, y), bonus_text(bonus, t), font=font(26), fill=MUTED, max_width=width - 36)
    return y0 + h


def bonus_text(bonus: list[Any] | None, t: Translator) -> str:
    """An adventure's bonus in words (the hand image and the /days texts say it alike)."""
    if not bonus:
        return t("bonus.none")
    if bonus[0] == "coins":
        return t.plural("bonus.coins", bonus[1])
    if bonus[0] == "travel":
        return t("bonus.travel", kind=t(f"kind.{bonus[1]}"))
    return t(f"bonus.{bonus[0]}")


def hand_image(view: dict[str, Any], seat: str, *, names: dict[str, str], t: Translator) -> Image.Image:
    # long: one pass over the image, top to bottom: splitting it would scatter the running y offset
    me = next(p for p in view["players"] if p["seat"] == seat)
    k = view["players"].index(me)
    priv = view.get("private") or {}
    draft = priv.get("draft") or []
    helpers = priv.get("assistant_draft") or []
    diary = me["diary"]
    height = 1000 + (280 if draft else 0) + (120 if helpers else 0) + 44 * len(diary)
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = Draw(image)
    # who, coins, assistant
    draw_token(draw, (50, 50), 26, k)
    draw_text(draw, (92, 22), names.get(seat, seat), font=font(40, "bold"), fill=INK, max_width=620)
    coin(draw, 770, 50, 28, "")
    draw.text((810, 26), str(me["coins"]), font=font(44, "bold"), fill=INK)
    helper = priv.get("assistant") or me.get("assistant")
    draw_text(draw, (920, 30), t(f"assistant.{helper}") if helper else t("img.no_assistant"), font=font(30, "semibold"),
              fill=INK if helper else MUTED, max_width=WIDTH - 950)
    y: float = 100
    if helper:
        draw_text(draw, (30, y), t(f"assistant_effect.{helper}"), font=font(25), fill=MUTED, max_width=WIDTH - 60)
        y += 40
    if me["matilda_revolvers"]:
        draw_text(draw, (30, y), t.plural("hand.matilda", me["matilda_revolvers"]),
                  font=font(25), fill=MUTED, max_width=WIDTH - 60)
        y += 40
    # suitcase and legend
    draw.text((30, y + 10), t("img.suitcase"), font=font(34, "bold"), fill=INK)
    top = y + 70
    bottom = _suitcase(draw, 30, top, me, t)
    legend_x = 30 + (me["suitcase"]["cols"]) * CELL + 40
    legend_bottom = _legend(draw, legend_x, top, me, t)
    # adventure card on the right
    cx = WIDTH - CARD_W - 30
    draw.text((cx, y + 10), t("img.adventure"), font=font(34, "bold"), fill=INK)
    card = priv.get("adventure")
    if card:
        card_bottom = _card(draw, cx, top, card, t)
    else:
        draw_text(draw, (cx, top), t("hand.no_adventure"), font=font(30), fill=MUTED)
        card_bottom = top + 40
    y = max(bottom, legend_bottom, card_bottom) + 30
    if draft:
        draw.text((30, y), t("img.draft"), font=font(34, "bold"), fill=INK)
        y += 50
        w = (WIDTH - 60 - 20 * (len(draft) - 1)) // len(draft)
        for j, c in enumerate(draft):
            _card(draw, 30 + j * (w + 20), y, c, t, width=w)
        y += 270
    if helpers:
        draw.text((30, y), t("img.assistant"), font=font(34, "bold"), fill=INK)
        y += 48
        for a in helpers:
            draw_text(draw, (30, y), f"{t(f'assistant.{a}')}: {t(f'assistant_short.{a}')}", font=font(28),
                      fill=INK, max_width=WIDTH - 60)
            y += 40
    draw.text((30, y), t("img.diary_title"), font=font(34, "bold"), fill=INK)
    score = t.plural("count.points", me["score"]["diary"])
    draw.text((WIDTH - 30, y), score, font=font(34, "bold"), fill=INK, anchor="ra")
    y += 52
    for c in diary:
        draw_text(draw, (50, y), t("adventure." + c["id"]) + f" — {c['points']}", font=font(28), fill=INK,
                  max_width=WIDTH - 100)
        y += 44
    return image.crop((0, 0, WIDTH, min(height, y + 30)))
