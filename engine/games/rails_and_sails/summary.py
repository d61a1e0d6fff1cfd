"""What the summary of a finished Rails & Sails game shows: points per seat (routes during
play, the final total at the end), the scoring breakdown and a few highlights from the log
(see `Rules.progress` and friends)."""

from __future__ import annotations

from typing import Any, ClassVar

from engine.core import JSON, Event, Rules


class RailsSummary(Rules):
    """The summary half of `RailsAndSails` (its base: the rules add the rest)."""

    progress_unit: ClassVar[str] = "points"

    def progress(self, state: Any) -> dict[str, float]:
        """Route points while playing (the score track); the final total once over."""
        if state.result is not None:
            return {row["seat"]: float(row["score"]) for row in state.result["ranking"]}
        return {seat: float(points) for seat, points in zip(state.seats, state.scores, strict=True)}

    def round_of(self, state: Any) -> int:
        """A round is one turn of every seat; the setup choices are round 0."""
        if state.phase in ("setup_tickets", "setup_pieces"):
            return 0
        return int(state.turn) // len(state.seats) + 1

    def score_parts(self, state: Any) -> dict[str, dict[str, JSON]]:
        result = self.result(state)
        return {row["seat"]: {"routes": row["routes"], "tickets": row["tickets"], "harbors": row["harbors"],
                              "completed": row["completed"]}
                for row in (result["ranking"] if result else [])}

    def highlights(self, log: list[tuple[int, Event]]) -> list[Event]:
        """The longest route claimed (the earliest of equals) and who started the last round."""
        out: list[Event] = []
        claims = [(r, e) for r, e in log if e.get("type") == "claim"]
        if claims:
            r, best = max(claims, key=lambda c: (c[1]["length"], -c[0]))
            out.append({"seat": best["seat"], "type": "longest_route", "a": best["a"], "b": best["b"],
                        "count": best["length"], "kind": best["kind"], "points": best["points"], "round": r})
        final = next(((r, e) for r, e in log if e.get("type") in ("final_round", "final_round_stalled")), None)
        if final is not None:
            out.append({"seat": final[1]["seat"], "type": final[1]["type"], "round": final[0]})
        return out
