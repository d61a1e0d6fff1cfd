"""Every word the rails-and-sails images show, looked up through the game's translator:
image-only texts under `img.*` in `bot/games/rails_and_sails/locales/*.json`, city names
under `city.*`, the same keys the chat texts use."""

from __future__ import annotations

from typing import Any

from render.common import Translator, fit_text, text_length
from render.rails_and_sails.geometry import Labels, _mapdata


def _t(t: Translator, key: str, /, **fields: Any) -> str:
    """An image text: `img.<key>` from the catalog."""
    return t(f"img.{key}", **fields)


def _plural(t: Translator, key: str, count: int, /, **fields: Any) -> str:
    """`img.<key>.one` / `.other`, chosen by the language's plural rule (the translator's `plural`)."""
    return t.plural(f"img.{key}", count, **fields)




def city_name(city_id: str, translator: Translator | None = None) -> str:
    """The name the board draws for a city: the catalog's `city.<id>` through `translator`
    (the game's catalogs are the one source of city names per language), else the map data's
    name (only for the palette's calibration, which no one sees, and for unknown ids)."""
    if translator is not None:
        key = f"city.{city_id}"
        text = translator(key)
        if text and text != key:
            return text
    city = _mapdata().CITIES.get(city_id)
    return city.name if city is not None else city_id.replace("_", " ").title()


def city_labels(translator: Translator | None = None) -> Labels:
    """Every city's name as the board draws it (see `city_name`)."""
    return tuple((cid, city_name(cid, translator)) for cid in _mapdata().CITIES)


def _route_label(route_id: str, cities: dict[str, str]) -> str:
    md = _mapdata()
    r = getattr(md, "ROUTES_BY_ID", None)
    route = r.get(route_id) if r else next((x for x in md.ROUTES if x.id == route_id), None)
    if route is None:
        return route_id
    a = cities.get(route.a, "·")
    b = cities.get(route.b, "·")
    return f"{a}–{b} ({route.length})"


def _fit(text: str, f: Any, width: float) -> str:
    return fit_text(text, f, width)


#: room for one name in a line that may list several players
NAME_IN_LINE_W = 260


def _fit_name(t: Translator, key: str, name: str, f: Any, width: float, **fields: Any) -> str:
    """The text `key` with `name` shortened so that the whole text fits `width`: the
    words around a long name stay readable."""
    room = width - text_length(_t(t, key, name="", **fields), f)
    return _t(t, key, name=fit_text(name, f, max(room, 0)), **fields)

