"""What the summary of a finished `eighty-days` game shows: points per seat as they would
be scored now (adventures, arrival card, assistant, minus 5 per city from London: the
rulebook's race is decided in points), the scoring breakdown and a few highlights from the
log (see `Rules.progress` and friends)."""

from __future__ import annotations

from typing import Any, ClassVar

from engine.core import JSON, Event, Rules

from . import flow as F


class EightyDaysSummary(Rules):
    """The summary half of `EightyDaysRules` (its base: the rules add the rest)."""

    progress_unit: ClassVar[str] = "points"

    def progress(self, state: Any) -> dict[str, float]:
        return {seat: float(F.score_parts(state, i)["score"]) for i, seat in enumerate(state.seats)}

    def round_of(self, state: Any) -> int:
        """The period (I–V); `ends_round` adds the rounds of turns inside it."""
        return int(state.period)

    def ends_round(self, state: Any, events: list[Event]) -> bool:
        """A round of turns closes when the turn passes the start marker again."""
        enders = [e["seat"] for e in events if e.get("type") in ("end_turn", "pass") and e.get("seat") in state.seats]
        if not enders or state.period_over:
            return False
        n = len(state.seats)
        e = state.seats.index(enders[-1])
        to_start = (state.start - e) % n or n
        to_current = (state.current - e) % n or n
        return to_current >= to_start

    def score_parts(self, state: Any) -> dict[str, dict[str, JSON]]:
        result = self.result(state)
        parts: dict[str, dict[str, JSON]] = {}
        for row in result["ranking"] if result else []:
            entry: dict[str, JSON] = {"diary": row["diary"], "arrival": row["arrival"]}
            if row["amelie"]:
                entry["amelie"] = row["amelie"]
            entry["penalty"] = row["penalty"]
            entry["coins"] = row["coins"]
            parts[row["seat"]] = entry
        return parts

    def highlights(self, log: list[tuple[int, Event]]) -> list[Event]:
        """First back in London, the richest adventure completed, and the most adventures."""
        out: list[Event] = []
        home = next(((r, e) for r, e in log if e.get("type") == "arrived"), None)
        if home is not None:
            out.append({"seat": home[1]["seat"], "type": "first_home", "count": home[1].get("arrival_card", 0),
                        "round": home[0]})
        done = [(r, e) for r, e in log if e.get("type") == "complete"]
        if done:
            r, best = max(done, key=lambda d: (d[1]["points"], -d[0]))
            out.append({"seat": best["seat"], "type": "best_adventure", "count": best["points"], "round": r})
            counts: dict[str, int] = {}
            for _r, e in done:
                counts[e["seat"]] = counts.get(e["seat"], 0) + 1
            seat, count = max(counts.items(), key=lambda kv: kv[1])
            out.append({"seat": seat, "type": "most_adventures", "count": count})
        return out
