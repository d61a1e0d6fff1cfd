"""`python -m bot.local`: the local table (`bot.adapters.local`), kept at its old name."""

from __future__ import annotations

from bot.adapters.local import main

if __name__ == "__main__":
    raise SystemExit(main())
