"""The around-the-world focus view (`render.focus`): the journey, stay or detective of the
last move up close, and every player's days."""

from __future__ import annotations

from typing import Any

from render import focus
from render.around_the_world.board import map_image
from render.around_the_world.geometry import DISPLAY_TOP, LOCATIONS, MAP_TOP, W, node_point
from render.around_the_world.static import stored_palette
from render.around_the_world.texts import Translator, _t, city_name


def focus_places(view: dict[str, Any], events: list[dict[str, Any]] | None = None) -> list[str]:
    """The places the change's events name (none: nothing on the map to show closer)."""
    locations = [loc for loc in (view.get("locations") or LOCATIONS) if isinstance(loc, str)]
    return focus.places_of(events or [], locations)


def focus_of(view: dict[str, Any], *, names: dict[str, str], translator: Translator,
             events: list[dict[str, Any]] | None = None) -> focus.Focus:
    """The board (its map: `map_image`) and what the focus view shows of it: the places the
    change's events name."""
    board = map_image(view, names=names, translator=translator, events=events)
    places = [focus.Place(city_name(loc, translator), *node_point(loc)) for loc in focus_places(view, events)]
    days = view.get("days") or {}
    rows = [focus.Score(i, names.get(seat, seat), str(days.get(seat, 0)))
            for i, seat in enumerate(view.get("seats") or [])]
    return focus.Focus(board, (0, MAP_TOP, W, DISPLAY_TOP), places, rows, _t(translator, "col_days"),
                       stored_palette())


def render_focus(view: dict[str, Any], *, names: dict[str, str], translator: Translator,
                 events: list[dict[str, Any]] | None = None, lang: str | None = None) -> bytes:
    """The focus PNG of the public `view` after the change whose public `events` are given."""
    del lang
    return focus.render(focus_of(view, names=names, translator=translator, events=events))
