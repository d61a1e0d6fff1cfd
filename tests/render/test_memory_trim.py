"""Freed memory goes back to the system (`bot.memory`): after a render worker's boards, the
heap's free holes are most of what it holds beyond its caches, and a trim returns them."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from bot import memory

DRAW_THEN_TRIM = textwrap.dedent("""
    from bot.images.pool import RenderJob, _registered, _translator, _warm_views, draw
    from bot.memory import trim

    def rss_mb():
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) // 1024

    for game in ("detour", "around-the-world", "rails-and-sails", "eighty-days"):
        spec = _registered(game)
        t = _translator(game, "en")
        for public, events, own, seat in _warm_views(spec):
            names = {s: s for s in public.get("seats", [])}
            draw(RenderJob(game, "board", public, names, "en", events=events), spec, t)
            draw(RenderJob(game, "hand", own, names, "en", seat=seat), spec, t)
    before = rss_mb()
    assert trim()
    print(before, rss_mb())
""")


@pytest.mark.skipif(not sys.platform.startswith("linux") or not memory.trim(), reason="glibc's malloc_trim only")
def test_a_trim_after_drawing_gives_tens_of_megabytes_back() -> None:
    out = subprocess.run([sys.executable, "-c", DRAW_THEN_TRIM], capture_output=True, text=True, check=True,
                         timeout=120)
    before, after = (int(x) for x in out.stdout.split())
    assert before - after >= 30, f"RSS {before} MB before the trim, {after} MB after"
