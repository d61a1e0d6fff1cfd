"""The eighty-days focus view (`render.focus`): the journey of the last move up close, and
every player's score."""

from __future__ import annotations

from typing import Any

from render import focus
from render.common import Translator
from render.eighty_days.board import labels, map_image
from render.eighty_days.geometry import MAP_H, MAP_TOP, WIDTH, city_xy
from render.eighty_days.static import map_keys, palette


def focus_places(view: dict[str, Any], events: list[dict[str, Any]] | None = None) -> list[str]:
    """The cities the change's journeys name (none: nothing on the map to show closer)."""
    return focus.places_of(events or [], (c["id"] for c in view["map"]["cities"]), keys=("from", "to"))


def focus_of(view: dict[str, Any], *, names: dict[str, str], translator: Translator,
             events: list[dict[str, Any]] | None = None) -> focus.Focus:
    """The board (its map: `map_image`) and what the focus view shows of it: the cities the
    change's events name."""
    board = map_image(view, t=translator)
    cities = {c["id"]: c for c in view["map"]["cities"]}
    words = dict(labels(view, translator))
    places = [focus.Place(words[cid], *city_xy(cities[cid]["x"], cities[cid]["y"]))
              for cid in focus_places(view, events)]
    rows = [focus.Score(i, names.get(p["seat"], p["seat"]), focus.signed(int(p["score"]["score"])))
            for i, p in enumerate(view.get("players") or [])]
    return focus.Focus(board, (0, MAP_TOP, WIDTH, MAP_TOP + MAP_H), places, rows, translator("img.score"),
                       palette(labels(view, translator), *map_keys(view["map"])))


def render_focus(view: dict[str, Any], *, names: dict[str, str], translator: Translator,
                 events: list[dict[str, Any]] | None = None, lang: str | None = None) -> bytes:
    """The focus PNG of the public `view` after the change whose public `events` are given."""
    del lang
    return focus.render(focus_of(view, names=names, translator=translator, events=events))
