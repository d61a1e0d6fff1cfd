"""Every word the around-the-world images show, looked up through the game's translator.

The catalogs (`bot/games/around_the_world/locales/*.json`) hold them: image-only texts under
`img.*`, and the names the chat texts use too (`city.*`, `card.*`) under those keys, so text
and image always name a city or a card alike."""

from __future__ import annotations

from typing import Any

from PIL import ImageFont

from render.common import Translator, Weight, advance, fit_text, font, text_length

#: phases the header names (`img.phase.<phase>`); other phases show no phase text
PHASES = frozenset({"take", "action", "travel", "discard", "balloon", "exchange", "detective", "chit", "roll",
                    "over"})


def _t(t: Translator, key: str, /, **fields: Any) -> str:
    """An image text: `img.<key>` from the catalog."""
    return t(f"img.{key}", **fields)


def _plural(t: Translator, key: str, count: int, /, **fields: Any) -> str:
    """`img.<key>.one` / `.other`, chosen by the language's plural rule (the translator's `plural`)."""
    return t.plural(f"img.{key}", count, **fields)


def city_name(loc: str, t: Translator) -> str:
    """The catalog's `city.<loc>`, the same name the chat texts use."""
    key = f"city.{loc}"
    text = t(key)
    return loc.replace("_", " ").title() if text == key else text


def event_card_text(card: str, t: Translator) -> tuple[str, str]:
    """(name, one-line effect) of an event card: `card.<card>` and `img.event.<card>`."""
    key = f"card.{card}"
    name = t(key)
    if name == key:
        return card.replace("_", " ").capitalize(), ""
    return name, _t(t, f"event.{card}")


def _fit(text: str, f: ImageFont.FreeTypeFont, width: float) -> str:
    return fit_text(text, f, width)


def _fit_name(t: Translator, key: str, name: str, f: ImageFont.FreeTypeFont, width: float, **fields: Any) -> str:
    """The text `key` with `name` shortened so that the whole text fits `width`: the
    words around a long name stay readable."""
    room = width - text_length(_t(t, key, name="", **fields), f)
    return _t(t, key, name=fit_text(name, f, max(room, 0)), **fields)


def _fit_font(text: str, width: float, sizes: tuple[int, ...], weight: Weight = "semibold") -> ImageFont.FreeTypeFont:
    """The largest of `sizes` in which `text` fits `width` (else the smallest)."""
    f = font(sizes[-1], weight)
    for size in sizes:
        candidate = font(size, weight)
        if advance(candidate, text) <= width:
            return candidate
    return f


def _name(names: dict[str, str], seat: str) -> str:
    return str(names.get(seat, seat))


def _int(value: Any, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default
