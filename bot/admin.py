"""`python -m bot.admin verify|games|migrate`: the administration commands (`bot.adapters.admin`)."""

from __future__ import annotations

from bot.adapters.admin import main

if __name__ == "__main__":
    raise SystemExit(main())
