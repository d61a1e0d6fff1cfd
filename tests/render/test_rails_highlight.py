"""The last claim's frames on the rails board come from kept pieces (`highlight`): pasting
them must give exactly the pixels drawing the frames gives, for every route of the map."""

from __future__ import annotations

from PIL import ImageChops

from render.rails_and_sails import _static, city_labels, highlight
from render.rails_and_sails.geometry import geometry


def test_pasted_frames_equal_drawn_frames_for_every_route() -> None:
    base = _static(city_labels())
    routes = sorted(geometry().routes)
    assert any(geometry().routes[r].wraps for r in routes)  # both sides of the map are covered
    for route_id in routes:
        drawn, pasted = base.copy(), base.copy()
        highlight.draw(drawn, highlight.outlines(route_id))
        highlight.paste(pasted, route_id)
        assert ImageChops.difference(drawn, pasted).getbbox() is None, route_id
        assert drawn.tobytes() != base.tobytes(), route_id  # the frames were drawn at all


def test_unknown_route_has_no_frames() -> None:
    assert highlight.outlines("no-such-route") == ()
    assert highlight.pieces("no-such-route") == []
