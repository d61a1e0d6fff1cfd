"""Rules of `eighty-days` ("80 Days" by Emanuele Briano, Piatnik), 2-4 players.

A game: the setup drafts (an adventure, and an assistant with the module, chosen secretly
and simultaneously), then five periods. Each period reveals a newspaper (coins for all and
an effect), then seats act in turn - one main action (travel, buy, black market, juggle on
side A, an assistant's action, or pass) with any number of additional actions before and
after it (complete the adventure, search for adventures, give an item back, Jill) and
`end_turn` - until all have passed. Decisions in the middle of something (a draft, a
joker, an item to give back, Albert's rolls, a free trip, a swap) wait in a per-seat queue
and are answered first. See `flow`, `moves` and `extras` for the rules and the decisions
the rulebook leaves open.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from engine import core
from engine.core import (
    Action,
    Event,
    IllegalAction,
    Move,
    Result,
    Rules,
    View,
    dump_typed,
    load_typed,
    not_a_player,
    not_your_turn,
    unseen,
)
from engine.rng import Rng

from . import content as C
from . import extras as X
from . import flow as F
from . import moves as M
from .legal import legal
from .state import OVER, SETUP, DaysState
from .summary import EightyDaysSummary
from .views import public_view, seat_private

#: action type -> (check, do); checks never mutate
MOVES: dict[str, tuple[M.Check, M.Do]] = {
    "travel": (M.check_travel, M.do_travel),
    "buy": (M.check_buy, M.do_buy),
    "black_market": (M.check_black_market, M.do_black_market),
    "juggle": (M.check_juggle, M.do_juggle),
    "pass": (M.check_pass, M.do_pass),
    "end_turn": (M.check_end_turn, M.do_end_turn),
    "complete": (X.check_complete, X.do_complete),
    "search": (X.check_search, X.do_search),
    "give_back": (X.check_give_back, X.do_give_back),
    "jill": (X.check_jill, X.do_jill),
    "paul": (X.check_paul, X.do_paul),
    "leonard": (X.check_leonard, X.do_leonard),
    "mary": (X.check_mary, X.do_mary),
    "luigi": (X.check_luigi, X.do_luigi),
    "keep_adventure": (X.check_keep_adventure, X.do_keep_adventure),
    "keep_assistant": (X.check_keep_assistant, X.do_keep_assistant),
    "observer": (X.check_observer, X.do_observer),
    "take_item": (X.check_take_item, X.do_take_item),
    "albert": (X.check_albert, X.do_albert),
    "free_travel": (X.check_free_travel, X.do_free_travel),
    "swap": (X.check_swap, X.do_swap),
}


def _checked(state: DaysState, seat: str, action: Action) -> tuple[int, Any]:
    """The common refusals of this game, then the move's own check; (seat index, plan)."""
    if seat not in state.seats:
        raise not_a_player()
    kind = action["type"]
    move = MOVES.get(kind)
    if move is None:
        raise IllegalAction("unknown_action", "That is not a move of this game.", action=kind)
    i = state.seats.index(seat)
    if not _may_act(state, i):
        raise not_your_turn()
    queue = state.pending[i]
    if queue:
        if ANSWERS[queue[0]["kind"]] != kind:
            raise IllegalAction("decide_first", "First decide what is asked of you.", decision=queue[0]["kind"])
    elif kind in ANSWER_ONLY:
        raise IllegalAction("nothing_to_decide", "There is no such decision to make now.")
    return i, move[0](state, i, action)


def _may_act(state: DaysState, i: int) -> bool:
    """Whether seat i is among `to_act` (without building the list: the hot path of `apply`)."""
    if state.pending[i]:
        return True
    return not any(state.pending) and state.current == i and not state.period_over and state.phase != SETUP


def _handler(check: M.Check, do: M.Do) -> Move:
    """The move handler for one action type (called once `apply` knows the action is legal):
    its check's plan, the move, then the flow settles."""
    def handle(rules: Rules, state: DaysState, seat: str, action: Action) -> list[Event]:
        i = state.seats.index(seat)
        plan = check(state, i, action)
        events: list[Event] = []
        do(state, i, action, plan, events)
        F.settle(state, events)
        return events
    return handle


#: a waiting decision -> the action that answers it
ANSWERS: dict[str, str] = {
    "adventure": "keep_adventure", "assistant": "keep_assistant", "observer": "observer",
    "any_item": "take_item", "overflow": "give_back", "albert": "albert", "free_travel": "free_travel",
    "swap": "swap",
}
#: actions that only answer a decision (never taken on a plain turn)
ANSWER_ONLY = frozenset(ANSWERS.values()) - {"give_back"}


class EightyDaysRules(EightyDaysSummary, Rules):
    id = "eighty-days"
    title = "80 Days"
    min_players = 2
    max_players = 4
    option_defaults: ClassVar[dict[str, Any]] = {"side": "A", "assistants": False, "colors_festival": False}
    option_choices: ClassVar[dict[str, Any]] = {"side": ["A", "B"], "assistants": [False, True],
                                                "colors_festival": [False, True]}
    moves: ClassVar[Mapping[str, Move]] = {kind: _handler(check, do) for kind, (check, do) in MOVES.items()}
    #: moves that draw no adventure and roll no die; a new period's newspaper, the assistants'
    #: reveal or a draw made on the way (arriving in a city) make a move final
    undoable_moves: ClassVar[frozenset[str]] = frozenset({
        "travel", "buy", "juggle", "pass", "end_turn", "give_back", "jill", "paul", "leonard", "mary", "luigi",
        "keep_adventure", "observer", "take_item", "free_travel", "swap"})
    revealing_events: ClassVar[frozenset[str]] = frozenset({
        "roll", "draw_adventures", "newspaper", "assistants", "period_end", "game_over"})

    # -- life cycle -------------------------------------------------------------------------
    def new_game(self, seats: list[str], seed: int, options: dict[str, Any] | None = None) -> DaysState:
        self.check_seats(seats)
        opts = self.validate_options(options)
        n = len(seats)
        rng = Rng.from_seed(seed)
        papers = list(C.NEWSPAPERS)
        rng.shuffle(papers)
        deck, london = list(C.ADVENTURES), list(C.LONDON_ADVENTURES)
        rng.shuffle(deck)
        rng.shuffle(london)
        start = rng.below(n)  # "determine a starting player": drawn from the seed
        state = DaysState(
            seats=list(seats), options=opts, characters=list(C.CHARACTERS[:n]), phase=SETUP, period=0,
            newspapers=papers[:C.NEWSPAPERS_PER_GAME], newspaper_box=papers[C.NEWSPAPERS_PER_GAME:],
            start=start, current=start, acted=False, passed=[False] * n, period_over=False,
            coins=[(k - start) % n for k in range(n)], items=[[0] * 5 for _ in range(n)],
            supply=list(C.ITEM_COUNTS), city=[C.START] * n, arrival=[0] * n, in_london=[False] * n,
            arrival_cards=list(C.ARRIVAL_CARDS), adventure=[""] * n, diary=[[] for _ in range(n)],
            deck=deck, london_deck=london, stacks={a: [] for a in C.AREAS}, fix=list(C.FIX_COINS[n]),
            juggler=list(C.JUGGLER) if opts["side"] == "A" else [], line_tiles={}, pass_tiles=[],
            pass_coins={}, pass_box=[], taken_tile=[""] * n, assistant=[""] * n, assistant_box=[],
            turned=[False] * n, matilda=[0] * n, pending=[[] for _ in range(n)], last_roll={}, rng=0,
        )
        if opts["side"] == "B":
            self._setup_side_b(state, rng)
        for i in range(n):
            state.pending[i].append({"kind": "adventure", "cards": [deck.pop(), deck.pop()]})
        if opts["assistants"]:
            helpers = list(C.ASSISTANTS)
            rng.shuffle(helpers)
            for i in range(n):
                state.pending[i].append({"kind": "assistant", "cards": [helpers.pop(), helpers.pop()]})
            state.assistant_box = helpers
        state.rng = rng.state
        return state

    @staticmethod
    def _setup_side_b(state: DaysState, rng: Rng) -> None:
        """The 16 line tiles at random on the marked lines; the start-marker pass tile and
        one more tile than players, at random."""
        tiles = list(C.LINE_TILES)
        rng.shuffle(tiles)
        state.line_tiles = dict(zip(C.TILE_SPACES, tiles, strict=True))
        others = [t for t in C.PASS_TILES if t != C.START_TILE]
        rng.shuffle(others)
        used = {C.START_TILE, *others[:len(state.seats) + 1]}
        state.pass_tiles = [t for t in C.PASS_TILES if t in used]
        state.pass_box = others[len(state.seats) + 1:]
        state.pass_coins = {t: 0 for t in state.pass_tiles}

    def to_act(self, state: DaysState) -> list[str]:
        if state.phase == OVER:
            return []
        pending = state.pending
        if any(pending):
            return [s for s, queue in zip(state.seats, pending, strict=True) if queue]
        if state.period_over or state.phase == SETUP:
            return []
        return [state.seats[state.current]]

    def may_act(self, state: DaysState, seat: str) -> bool:
        """`seat in to_act(state)` without building the list (the hot path of `apply`)."""
        return seat in state.seats and _may_act(state, state.seats.index(seat))

    def is_over(self, state: DaysState) -> bool:
        return state.phase == OVER

    def apply(self, state: DaysState, seat: str, action: Action) -> list[Event]:
        """The core's `apply` with the check made once: its plan goes straight to the move
        (the core checks through `is_legal`, then the handler checks again). Same refusals,
        in the same order, and the same state and events."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise core.malformed()
        if state.phase == OVER:
            raise core.game_over()
        i, plan = _checked(state, seat, action)
        events: list[Event] = []
        MOVES[action["type"]][1](state, i, action, plan, events)
        F.settle(state, events)
        return events

    # -- what may be done -------------------------------------------------------------------
    def legal_actions(self, state: DaysState, seat: str) -> list[Action]:
        if state.phase == OVER or seat not in state.seats:
            return []
        return legal(state, state.seats.index(seat))

    def check(self, state: DaysState, seat: str, action: Action) -> None:
        """The common refusals in the order players see them, then the move's own check."""
        _checked(state, seat, action)

    def is_legal(self, state: DaysState, seat: str, action: Action) -> bool:
        """Cheaper than scanning `legal_actions`; the same answer as `apply`."""
        return self.passes_check(state, seat, action)

    # -- reading it -------------------------------------------------------------------------
    def view(self, state: DaysState, seat: str | None) -> View:
        v = public_view(state, self.to_act(state))
        if state.phase == OVER:
            v["result"] = self.result(state)
        if seat is not None and seat in state.seats:
            v["private"] = seat_private(state, state.seats.index(seat))
        return v

    def result(self, state: DaysState) -> Result | None:
        if state.phase != OVER:
            return None
        rows, winners = F.ranking(state)
        return {"ranking": rows, "winners": winners}

    # -- storage ----------------------------------------------------------------------------
    state_class = DaysState

    def dump(self, state: DaysState) -> dict[str, Any]:
        """The store's copy after every move: field by field as annotated (`dump_typed`)."""
        return dump_typed(state)

    def load(self, data: dict[str, Any]) -> DaysState:
        state: DaysState = load_typed(DaysState, data)
        return state

    def determinize(self, view: View, seat: str | None, seed: int) -> DaysState:
        """The board, the coins, the suitcases, the diaries, the newspapers read so far and the
        decisions waiting (their kinds and sizes) come from the view. Hidden: the adventure cards
        the other seats hold and draft, and the order of both decks, dealt from the cards the view
        does not show (London ones to seats in London); the newspapers to come and the box, from
        the nine not yet read; during the setup the assistants kept or drafted by others and the
        box, from the ten minus the seat's own; the generator (future dice), seeded anew."""
        rng = Rng.from_seed(seed)
        seats = list(view["seats"])
        n = len(seats)
        players = view["players"]
        private = view.get("private") if seat is not None else None
        mine = seats.index(seat) if private is not None and seat is not None else -1
        phase, period, options = view["phase"], view["period"], dict(view["options"])
        read = [*view["past_newspapers"], *([view["newspaper"]["id"]] if view["newspaper"] else [])]
        future = unseen(list(C.NEWSPAPERS), read)
        rng.shuffle(future)
        cut = C.NEWSPAPERS_PER_GAME - len(read)
        pending = [[_pending_entry(e) for e in p["pending"]] for p in players]
        adventure = [""] * n
        if private is not None:
            adventure[mine] = private["adventure"]["id"] if private["adventure"] else ""
            _fill_first(pending[mine], "adventure", [c["id"] for c in private["draft"]])
            _fill_first(pending[mine], "assistant", list(private["assistant_draft"]))
        decks = _deal_adventures(view, adventure, pending, rng)
        assistant, box = _deal_assistants(view, private, mine, pending, rng)
        state = DaysState(
            seats=seats, options=options, characters=[p["character"] for p in players], phase=phase,
            period=period, newspapers=read + future[:cut], newspaper_box=future[cut:],
            start=seats.index(view["start"]),
            current=seats.index(view["current"]) if view["current"] else seats.index(view["start"]),
            acted=view["acted"], passed=[p["passed"] for p in players],
            period_over=phase != SETUP and all(p["passed"] for p in players),
            coins=[p["coins"] for p in players], items=[[p["items"][k] for k in C.ITEMS] for p in players],
            supply=[view["supply"][k] for k in C.ITEMS], city=[p["city"] for p in players],
            arrival=[p["arrival"] or 0 for p in players], in_london=[p["in_london"] for p in players],
            arrival_cards=list(view["arrival_cards"]), adventure=adventure,
            diary=[[c["id"] for c in p["diary"]] for p in players], deck=decks[False], london_deck=decks[True],
            stacks={a: list(area["stacks"]) for a, area in view["areas"].items()}, fix=list(C.FIX_COINS[n]),
            juggler=list(view["juggler"] or []), line_tiles={}, pass_tiles=[], pass_coins={}, pass_box=[],
            taken_tile=[p["pass_tile"] or "" for p in players], assistant=assistant, assistant_box=box,
            turned=[p["assistant_turned"] for p in players], matilda=[p["matilda_revolvers"] for p in players],
            pending=pending, last_roll=dict(view["last_roll"] or {}), rng=0,
        )
        if options["side"] == "B":
            state.line_tiles = {line["id"]: line["tile"] for line in view["map"]["lines"] if line["tile"]}
            on_board = {t["id"]: t["coins"] for t in view["pass_tiles"]}
            used = set(on_board) | {t for t in state.taken_tile if t}
            state.pass_tiles = [t for t in C.PASS_TILES if t in on_board]
            state.pass_coins = {t: on_board.get(t, 0) for t in C.PASS_TILES if t in used}
            state.pass_box = [t for t in C.PASS_TILES if t not in used]
        state.rng = rng.next64() >> 1
        return state


def _pending_entry(public: dict[str, Any]) -> dict[str, Any]:
    """A waiting decision as the state keeps it, from its public part (drafts still without
    their cards: `count` placeholders that `_fill_first` or the dealing replace)."""
    kind = public["kind"]
    if kind in ("adventure", "assistant"):
        return {"kind": kind, "cards": [""] * public["count"]}
    if kind == "albert":
        return {"kind": kind, "face": C.DIE_FACES.index(public["face"]), "rolls": public["rolls"]}
    return dict(public)


def _fill_first(queue: list[dict[str, Any]], kind: str, cards: list[str]) -> None:
    """The seat's own first draft of this kind, which its private view shows."""
    entry = next((e for e in queue if e["kind"] == kind), None)
    if entry is not None:
        entry["cards"] = list(cards)


def _deal_adventures(view: View, adventure: list[str], pending: list[list[dict[str, Any]]],
                     rng: Rng) -> dict[bool, list[str]]:
    """Deal the hidden adventure cards (in place): held cards and draft places still empty, a seat
    in London from the London cards; the rest of each kind, shuffled, is its deck."""
    players = view["players"]
    decks: dict[bool, list[str]] = {}
    for london, content in ((False, C.ADVENTURES), (True, C.LONDON_ADVENTURES)):
        here = [j for j, p in enumerate(players) if p["in_london"] == london]
        shown = [c["id"] for p in players for c in p["diary"] if c["london"] == london]
        shown += [adventure[j] for j in here if adventure[j]]
        shown += [c for j in here for e in pending[j] if e["kind"] == "adventure" for c in e["cards"] if c]
        pool = unseen(list(content), shown)
        rng.shuffle(pool)
        for j in here:
            if players[j]["has_adventure"] and not adventure[j]:
                adventure[j] = pool.pop()
            for e in pending[j]:
                if e["kind"] == "adventure":
                    e["cards"] = [c or pool.pop() for c in e["cards"]]
        decks[london] = pool
        want = view["decks"]["london" if london else "adventures"]
        if len(pool) != want:
            raise ValueError(f"the view's {'London ' if london else ''}adventure deck does not add up")
    return decks


def _deal_assistants(view: View, private: View | None, mine: int, pending: list[list[dict[str, Any]]],
                     rng: Rng) -> tuple[list[str], list[str]]:
    """(kept assistants, box). Shown once the setup is over; during the setup the seat's own from
    its private view and the others' kept and drafted ones dealt (in place) from the rest."""
    players = view["players"]
    if not view["options"]["assistants"]:
        return [""] * len(players), []
    if view["phase"] != SETUP:
        kept = [p["assistant"] or "" for p in players]
        return kept, unseen(list(C.ASSISTANTS), [a for a in kept if a])
    kept = [""] * len(players)
    if private is not None:
        kept[mine] = private["assistant"] or ""
    shown = [a for a in kept if a]
    shown += [c for q in pending for e in q if e["kind"] == "assistant" for c in e["cards"] if c]
    pool = unseen(list(C.ASSISTANTS), shown)
    rng.shuffle(pool)
    for j, queue in enumerate(pending):
        entry = next((e for e in queue if e["kind"] == "assistant"), None)
        if entry is not None:
            entry["cards"] = [c or pool.pop() for c in entry["cards"]]
        elif j != mine:  # no draft waiting: this seat has kept one
            kept[j] = pool.pop()
    return kept, pool
