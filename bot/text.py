"""Text that people typed, made safe to show: display names and echoed input.

A display name is the player's to choose, so it may carry Markdown (`**`, `__`, `||`),
a fake mention (`<@123>`) or bidi controls that flip the rest of a line. Names are cleaned
once when they enter (controls removed) and escaped where they go into Markdown text;
images get the cleaned name unescaped.
"""

from __future__ import annotations

import re
import unicodedata

#: bidi embedding/override/isolate controls and marks: they reorder the text around them
_BIDI = dict.fromkeys(map(ord, "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"))
_MARKDOWN = re.compile(r"([\\*_~`|>#\[\]()<:@-])")
NAME_LIMIT = 32


def clean(text: str, limit: int = NAME_LIMIT) -> str:
    """Without bidi and other control characters, whitespace folded, at most `limit` characters."""
    stripped = str(text).translate(_BIDI)
    stripped = "".join(ch for ch in stripped if unicodedata.category(ch) not in ("Cc", "Cf") or ch == "\u200d")
    folded = " ".join(stripped.split())
    return folded[:limit] or "?"


def md(text: str) -> str:
    """Escaped for Discord Markdown, so it shows exactly as written and formats nothing."""
    return _MARKDOWN.sub(r"\\\1", text)


def echo(text: object, limit: int = 80) -> str:
    """Input quoted back to its author inside `code`: cleaned, backticks made harmless."""
    return clean(str(text), limit).replace("`", "ˋ")
