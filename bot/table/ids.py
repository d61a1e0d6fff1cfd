"""Custom ids of buttons and selects: `pp:<game>:<version>:<kind>:<payload>`, and how a
press is read back (clients may send anything, so parsing is total)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from bot.gameui import action_key

PREFIX = "pp"


def action_hash(action: dict[str, Any]) -> str:
    """10 hex characters naming an action inside a custom id or select value."""
    return hashlib.blake2s(action_key(action).encode(), digest_size=5).hexdigest()


def custom_id(game_pk: int, version: int, kind: str, payload: str = "") -> str:
    return f"{PREFIX}:{game_pk}:{version}:{kind}:{payload}"


#: pp:<game>:<version>:<kind>:<payload>, ASCII digits within SQLite's integer range
_CUSTOM_ID = re.compile(r"pp:([0-9]{1,15}):([0-9]{1,12}):([a-z]{1,12}):(.{0,80})", re.ASCII | re.DOTALL)


@dataclass(frozen=True)
class Press:
    """A pressed button or chosen select option, read once from its custom id."""

    game_pk: int
    #: the game version the component was made for (a private menu's: its owner's move count)
    version: int
    kind: str
    payload: str
    #: the chosen values of a select
    values: tuple[str, ...] = ()

    @property
    def chosen(self) -> str:
        """A select's first chosen value, else the payload (a button's)."""
        return (self.values or ("",))[0] if self.kind.endswith("sel") else self.payload


def parse_press(value: object, values: list[str] | None = None) -> Press | None:
    parsed = parse_custom_id(value)
    if parsed is None:
        return None
    return Press(*parsed, values=tuple(v for v in values or () if isinstance(v, str)))


def parse_custom_id(value: object) -> tuple[int, int, str, str] | None:
    """Total: any string a client may send (custom ids are not to be trusted) gives the
    parts, or None."""
    match = _CUSTOM_ID.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        return None
    return int(match[1]), int(match[2]), match[3], match[4]


def menu_payload(payload: str) -> tuple[str | None, int]:
    """A menu button's payload `g=<group>;p=<page>` -> (group or None, page)."""
    group: str | None = None
    page = 0
    for part in payload.split(";"):
        if part.startswith("g="):
            group = part[2:] or None
        elif part.startswith("p=") and part[2:].isdigit():
            page = int(part[2:])
    return group, page

