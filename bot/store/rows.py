"""What both backends agree on about rows: how JSON columns are written, and the order in
which `python -m bot.admin migrate` reads a whole table (so two databases compare row by row)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

#: one encoder for every write (`json.dumps` with non-default arguments builds a new one per
#: call); no circular-reference bookkeeping per list and dict: states, actions and events are
#: trees of JSON values (a cycle would still fail, by RecursionError instead of ValueError)
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)


def dumps(value: Any) -> str:
    """A JSON column's text (state, options, settings, action, events)."""
    return _ENCODER.encode(value)


def every_column(columns: Sequence[str]) -> str:
    """`1, 2, …, n`: an ORDER BY over every selected column (a total order for any table)."""
    return ", ".join(str(n) for n in range(1, len(columns) + 1))
