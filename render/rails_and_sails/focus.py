"""The rails-and-sails focus view (`render.focus`): the route claimed or the harbor built, up
close, and every player's points."""

from __future__ import annotations

from typing import Any

from render import focus
from render.rails_and_sails.board import map_image
from render.rails_and_sails.geometry import MAP_TOP, PANEL_TOP, WIDTH, geometry
from render.rails_and_sails.static import _palette
from render.rails_and_sails.texts import Translator, _t, city_name


def focus_places(view: dict[str, Any], events: list[dict[str, Any]] | None = None) -> list[str]:
    """The cities of the last move: from the change's events, else from the view's `last`
    (a board asked for later, without events); none: nothing on the map to show closer."""
    nodes = geometry().nodes
    found = focus.places_of(events or [], nodes)
    if found:
        return found
    return focus.places_of([view.get("last") or {}], nodes)


def focus_of(view: dict[str, Any], *, names: dict[str, str], translator: Translator,
             events: list[dict[str, Any]] | None = None) -> focus.Focus:
    """The board (its map: `map_image`) and what the focus view shows of it."""
    board = map_image(view, names=names, translator=translator)
    nodes = geometry().nodes
    places = [focus.Place(city_name(cid, translator), *nodes[cid]) for cid in focus_places(view, events)]
    scores = view.get("scores") or {}
    rows = [focus.Score(i, names.get(seat, seat), focus.signed(int(scores.get(seat, 0))))
            for i, seat in enumerate(view.get("seats") or [])]
    return focus.Focus(board, (0, MAP_TOP, WIDTH, PANEL_TOP), places, rows, _t(translator, "score"), _palette())


def render_focus(view: dict[str, Any], *, names: dict[str, str], translator: Translator,
                 events: list[dict[str, Any]] | None = None, lang: str | None = None) -> bytes:
    """The focus PNG of the public `view` after the change whose public `events` are given."""
    del lang
    return focus.render(focus_of(view, names=names, translator=translator, events=events))
