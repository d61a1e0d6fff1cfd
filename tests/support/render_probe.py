"""What a render worker says about itself, as a `MemoryRender` function (pickled by name):
whether it was forked from a warm template, and how much of its memory it shares."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def worker_state(kind: str, job: Any) -> bytes:
    """JSON: `warm` (the template it was forked from warmed up) and the worker's memory in
    MB from smaps_rollup (`shared`: pages it shares with the template and other workers)."""
    del kind, job
    fields = {}
    for line in Path("/proc/self/smaps_rollup").read_text().splitlines()[1:]:
        key, value = line.split()[:2]
        fields[key.rstrip(":")] = int(value) / 1024
    template = sys.modules.get("bot.images.template")
    return json.dumps({"warm": bool(getattr(template, "WARMED", False)), "rss": fields["Rss"],
                       "shared": fields["Shared_Clean"] + fields["Shared_Dirty"]}).encode()
