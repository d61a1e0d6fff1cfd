"""Pieces every part of the table service shares: limits, the polite refusal, option
parsing, a loaded game, and small text helpers."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any

from bot.games import GameSpec
from bot.gameui import GameUI
from bot.i18n import Translator
from bot.store import GameRecord
from bot.text import echo, md
from engine import Rules

AI_NAMES = ["Phileas", "Aouda", "Fix", "Proctor", "Stuart", "Ralph"]
AI_USER_BASE = -1000  # AI seats get negative user ids, never a Discord user
MAX_AI_STEPS = 20_000
#: a stand-in plays one turn for an absent player; no turn of any game takes more moves
STAND_IN_MAX_ACTIONS = 25
#: bytes of the boards and hands people asked to see, kept (0.1-0.3 MB each: 50-150 of them)
RENDER_CACHE_BYTES = 16 << 20
ASK_LIMIT, ASK_WINDOW = 6, 30.0  # status/hand images per user per this many seconds


class Refusal(Exception):
    """A polite no: the message id and its parameters, shown privately.

    `ui`: the game whose catalog words the message (else the bot's own); `rows`: buttons
    to send along (e.g. "open the menu again" after a stale move). Handlers raise it and
    `refusing` / `TableBase.guarded` turn it into the reply, in one place.
    """

    def __init__(self, key: str, *, ui: GameUI | None = None, rows: list[list[Any]] | None = None,
                 **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.ui = ui
        self.rows = rows
        self.params = params


class RateLimiter:
    """At most `limit` asks per user in `window` seconds (real time). Each feature has its
    own, so asking for stats does not use up someone's status images."""

    def __init__(self, limit: int = ASK_LIMIT, window: float = ASK_WINDOW) -> None:
        self.limit, self.window = limit, window
        self._asked: dict[int, list[float]] = {}

    def too_often(self, user_id: int) -> bool:
        now = time.monotonic()
        if len(self._asked) > 10_000:  # forget people who stopped asking
            self._asked = {u: ts for u, ts in self._asked.items() if ts and ts[-1] > now - self.window}
        recent = [t for t in self._asked.get(user_id, []) if t > now - self.window]
        if len(recent) >= self.limit:
            self._asked[user_id] = recent
            return True
        self._asked[user_id] = recent + [now]
        return False


#: a whole number as people type it in options (ASCII digits; long ones stay text and are refused)
_OPTION_INT = re.compile(r"-?[0-9]{1,9}", re.ASCII)


def parse_options(text: str | None) -> dict[str, Any]:
    """`key=value key2=value2` (commas also separate) -> typed values."""
    result: dict[str, Any] = {}
    if not text:
        return result
    for chunk in text.replace(",", " ").split():
        if "=" not in chunk:
            raise Refusal("error.option_syntax", chunk=echo(chunk, 40))
        key, raw = chunk.split("=", 1)
        key = key.strip().lower().replace("-", "_")
        low = raw.strip().lower()
        value: Any
        if low in ("true", "yes", "on"):
            value = True
        elif low in ("false", "no", "off"):
            value = False
        elif _OPTION_INT.fullmatch(low):
            value = int(low)
        else:
            value = raw.strip()
        result[key] = value
    return result


@dataclass
class Loaded:
    """A running game read from the store with its engine state."""

    record: GameRecord
    spec: GameSpec
    state: Any

    @property
    def rules(self) -> Rules:
        return self.spec.rules

    @property
    def ui(self) -> GameUI:
        return self.spec.ui

    @property
    def names(self) -> dict[str, str]:
        """Seat -> display name, escaped for Markdown text."""
        return {s.seat: md(s.name) for s in self.record.seats if s.seat}

    @property
    def raw_names(self) -> dict[str, str]:
        """Seat -> display name as written, for images."""
        return {s.seat: s.name for s in self.record.seats if s.seat}


def _match_label(text: str, labelled: list[tuple[str, Any]]) -> tuple[Any | None, list[str]]:
    """What `text` names among (label, target) pairs: an exact label (ignoring case) first, then
    the one target whose labels contain it. Returns (target or None, the labels that contained it)."""
    needle = " ".join(text.split()).casefold()
    if not needle:
        return None, []
    for label, target in labelled:
        if label.casefold() == needle:
            return target, [label]
    hits: list[tuple[str, Any]] = []
    for label, target in labelled:
        if needle in label.casefold() and not any(target == other for _, other in hits):
            hits.append((label, target))
    if len(hits) == 1:
        return hits[0][1], [hits[0][0]]
    return None, [label for label, _ in hits]


def _shortlist(labels: list[str], t: Translator, keep: int = 8) -> str:
    """A few of `labels` for an error message, each trimmed, and how many were left out."""
    shown = ", ".join(_trim(label, 60) for label in labels[:keep])
    return shown + (" " + t("error.more", count=len(labels) - keep) if len(labels) > keep else "")


def _numbered(labels: list[str], t: Translator, keep: int = 15, numbers: list[int] | None = None) -> str:
    """`labels` whole, one a line and numbered (by `numbers` when given, else 1, 2, …), for a
    message that asks to pick one (a phone shows lines, not a comma-joined run); past `keep`,
    how many more and how to narrow them."""
    numbers = numbers or list(range(1, len(labels) + 1))
    lines = [f"{n}) {label}" for n, label in zip(numbers[:keep], labels[:keep], strict=True)]
    if len(labels) > keep:
        lines.append(t.plural("error.more_lines", len(labels) - keep))
    return "".join("\n" + line for line in lines)


def _trim(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _clip(text: str, limit: int = 1990) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _last_lines(lines: list[str], keep: int) -> list[str]:
    if len(lines) <= keep:
        return lines
    return ["…"] + lines[-keep:]


def language_name(code: str, t: Translator) -> str:
    """A language by its own name ("Deutsch"), as a person picks it."""
    key = f"language_name.{code}"
    return t(key) if t.has(key) else code


def duration_text(hours: float, t: Translator, forms: str = "time") -> str:
    """A span as people say it: "15 minutes", "12 hours", "2 days" (whole units, never
    "15.0"); the caller words zero ("off", "never"). `forms`: the catalog's set of forms, e.g.
    "time_after" for German's dative after "nach" ("nach 2 Tagen")."""
    minutes = round(float(hours) * 60)
    if minutes < 60 or minutes % 60:
        return t.plural(f"{forms}.minutes", minutes)
    whole = minutes // 60
    if whole >= 48 and whole % 24 == 0:
        return t.plural(f"{forms}.days", whole // 24)
    return t.plural(f"{forms}.hours", whole)
