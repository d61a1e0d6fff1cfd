"""What the summary of a finished Around the World game shows: days used per seat, the
scoring breakdown and a few highlights from the log (see `Rules.progress` and friends).
A highlight is no event: it names its seat before its type, so the scan of this package for
the events it emits (tests/test_atw_ui.py) passes it by."""

from __future__ import annotations

from typing import Any, ClassVar

from engine.core import JSON, Event, Rules


class AroundTheWorldSummary(Rules):
    """The summary half of `AroundTheWorldRules` (its base: the rules add the rest)."""

    progress_unit: ClassVar[str] = "days_used"
    progress_gains: ClassVar[bool] = False  # fewer days used is better

    def progress(self, state: Any) -> dict[str, float]:
        """Days used so far: the race's own measure (fewest days back in London wins)."""
        return {seat: float(days) for seat, days in zip(state.seats, state.days, strict=True)}

    def round_of(self, state: Any) -> int:
        return int(state.round)

    def score_parts(self, state: Any) -> dict[str, dict[str, JSON]]:
        result = self.result(state)
        parts: dict[str, dict[str, JSON]] = {}
        for row in result["ranking"] if result else []:
            entry: dict[str, JSON] = {"days_used": row["days"], "gold": row["gold"]}
            if row.get("arrival"):
                entry["arrival"] = row["arrival"]
            parts[row["seat"]] = entry
        return parts

    def highlights(self, log: list[tuple[int, Event]]) -> list[Event]:
        """First back in London, and the fastest and the slowest leg of the journey."""
        out: list[Event] = []
        home = next(((r, e) for r, e in log if e.get("type") == "arrive"), None)
        if home is not None:
            out.append({"seat": home[1]["seat"], "type": "first_home", "count": home[1]["days"], "round": home[0]})
        # a leg that cost nothing (an event's free ride) is no record
        legs = [(r, e) for r, e in log
                if e.get("type") == "travel" and isinstance(e.get("days"), int) and e["days"] > 0]
        if legs:
            r, fast = min(legs, key=lambda leg: leg[1]["days"])
            out.append({"seat": fast["seat"], "type": "fastest_leg", "count": fast["days"], "from": fast["from"],
                        "to": fast["to"], "round": r})
            r, slow = max(legs, key=lambda leg: leg[1]["days"])
            if slow["days"] > fast["days"]:
                out.append({"seat": slow["seat"], "type": "slowest_leg", "count": slow["days"],
                            "from": slow["from"], "to": slow["to"], "round": r})
        return out
