"""What the summary of a finished `detour` game shows: days travelled per seat, the
scoring breakdown and a few highlights from the log (see `Rules.progress` and friends)."""

from __future__ import annotations

from typing import Any, ClassVar

from engine.core import JSON, Event, Rules

from . import mapdata as M


class DetourSummary(Rules):
    """The summary half of `DetourRules` (its base: the rules add the rest)."""

    progress_unit: ClassVar[str] = "days_travelled"

    def progress(self, state: Any) -> dict[str, float]:
        """Days travelled along the track; with two colours each, the mean of the seat's pawns."""
        travelled: dict[str, list[int]] = {}
        for p, space in enumerate(state.pos):
            travelled.setdefault(state.seats[state.owner[p]], []).append(M.TOTAL_DAYS - M.DIST[space])
        return {seat: sum(days) / len(days) for seat, days in travelled.items()}

    def round_of(self, state: Any) -> int:
        return int(state.round)

    def score_parts(self, state: Any) -> dict[str, dict[str, JSON]]:
        result = self.result(state)
        parts: dict[str, dict[str, JSON]] = {}
        for row in result["ranking"] if result else []:
            days_left = row["days_left"]
            entry: dict[str, JSON] = {"days_travelled": row["score"],
                                      "days_left": " + ".join(map(str, days_left)) if isinstance(days_left, list)
                                      else days_left}
            if row.get("finished"):
                entry["hand_value"] = row["hand_value"]
            parts[row["seat"]] = entry
        return parts

    def highlights(self, log: list[tuple[int, Event]]) -> list[Event]:
        """First home, the longest single move, and who played the most action cards on others."""
        out: list[Event] = []
        home = next(((r, e) for r, e in log if e.get("type") == "arrived"), None)
        if home is not None:
            out.append({"seat": home[1]["seat"], "type": "first_home", "colour": home[1]["colour"], "round": home[0]})
        moves = [(e.get("used", 0), -r, r, e) for r, e in log if e.get("type") == "move"]
        if moves:
            used, _, rnd, ev = max(moves, key=lambda m: (m[0], m[1]))
            if used > 0:
                out.append({"seat": ev["seat"], "type": "longest_move", "colour": ev["colour"], "count": used,
                            "round": rnd})
        attacks: dict[str, int] = {}
        for _r, e in log:
            if e.get("type") in ("detour", "backward", "block"):
                attacks[e["seat"]] = attacks.get(e["seat"], 0) + 1
        if attacks:
            seat, count = max(attacks.items(), key=lambda kv: kv[1])
            if count >= 2:
                out.append({"seat": seat, "type": "most_attacks", "count": count})
        return out
