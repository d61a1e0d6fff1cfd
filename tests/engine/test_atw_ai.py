"""Around the World in 80 Days: the AI decides from its own view only, and plays sensibly."""

from __future__ import annotations

import random

from engine import registry
from engine.games.around_the_world import data as D
from engine.games.around_the_world.rules import State

R = registry.get("around-the-world")
LOC = D.LOCATIONS.index


def fresh(n: int = 3, seed: int = 4) -> State:
    st = R.new_game([f"p{k + 1}" for k in range(n)], seed, {})
    st.chits = [[None, None] for _ in st.chits]
    return st


def me(st: State) -> tuple[int, str]:
    i = st.order[st.turn]
    return i, st.seats[i]


def travel_phase(st: State, hand: list[str], progress: int, **kw) -> tuple[int, str]:
    i, seat = me(st)
    st.hand[i] = sorted(hand)
    st.events[i] = sorted(kw.get("events", []))
    st.progress[i] = progress
    st.phase = "travel"
    st.taken = "gold"
    st.balloon = kw.get("balloon", False)
    st.gold[i] = kw.get("gold", 1)
    st.detective = kw.get("detective", 8 if progress not in (7, 8) else 2)
    return i, seat


def test_ai_ignores_hidden_information():
    rnd = random.Random(3)
    for seed in range(6):
        st = R.new_game(["p1", "p2", "p3", "p4"], seed, {})
        for _ in range(rnd.randint(5, 120)):
            if R.is_over(st):
                break
            who = R.to_act(st)[0]
            R.apply(st, who, rnd.choice(R.legal_actions(st, who)))
        if R.is_over(st):
            continue
        who = R.to_act(st)[0]
        k = st.seats.index(who)
        choice = R.ai_action(st, who)
        other = R.load(R.dump(st))
        pool = other.travel_deck + [c for j, h in enumerate(other.hand) if j != k for c in h]
        random.Random(seed).shuffle(pool)
        for j in range(4):
            if j != k:
                size = len(other.hand[j])
                other.hand[j] = sorted(pool[:size])
                pool = pool[size:]
        other.travel_deck = pool
        other.event_deck.reverse()
        assert R.view(other, who) == R.view(st, who)
        assert R.ai_action(other, who) == choice


def test_ai_completes_a_pair_for_a_two_of_a_kind_leg():
    st = fresh()
    i, seat = me(st)
    st.hand[i] = ["ship:7", "train:6"]
    st.progress[i] = LOC("suez")
    st.display = ["ship:5", "ship:7", "train:2", "ship:8"]
    assert R.ai_action(st, seat) == {"type": "take", "slot": 1, "card": "ship:7"}


def test_ai_puts_the_balloon_on_the_highest_card():
    st = fresh()
    i, seat = travel_phase(st, ["ship:8", "ship:5"], LOC("suez"), balloon=True)
    action = R.ai_action(st, seat)
    assert action["type"] == "travel" and action.get("balloon") == "ship:8"


def test_ai_rerolls_a_high_die_when_it_has_gold_and_keeps_a_low_one():
    st = fresh()
    i, seat = travel_phase(st, ["ship:8", "ship:5"], LOC("suez"), balloon=True, gold=2)
    st.phase = "roll"
    st.roll = {"kind": "balloon", "fixed": 5, "cards": ["ship:5", "ship:8"], "card": "ship:8", "leg": 3}
    st.last_roll = [6]
    assert R.ai_action(st, seat) == {"type": "reroll"}
    st.last_roll = [6, 2]
    assert R.ai_action(st, seat) == {"type": "keep", "roll": 2}
    st.gold[i] = 0
    st.last_roll = [6]
    assert R.ai_action(st, seat) == {"type": "keep", "roll": 6}


def test_ai_waits_rather_than_paying_a_lot_and_travels_when_cheap():
    st = fresh()
    i, seat = travel_phase(st, ["ship:8", "ship:7"], LOC("suez"))
    assert R.ai_action(st, seat) == {"type": "stay", "location": "suez"}
    st2 = fresh()
    i, seat = travel_phase(st2, ["ship:6", "ship:6", "ship:8"], LOC("suez"))
    assert R.ai_action(st2, seat) == {"type": "travel", "cards": ["ship:6", "ship:6"], "days": 6, "to": "bombay"}


def test_ai_avoids_ending_on_the_detective():
    # a borderline leg: fine normally, but not worth it onto the detective
    st = fresh()
    i, seat = travel_phase(st, ["ship:5"], LOC("brindisi"), detective=LOC("paris"))
    assert R.ai_action(st, seat)["type"] == "travel"
    st2 = fresh()
    i, seat = travel_phase(st2, ["ship:5"], LOC("brindisi"), detective=LOC("suez"))
    assert R.ai_action(st2, seat) == {"type": "stay", "location": "brindisi"}


def test_ai_sends_the_detective_towards_the_leader():
    st = fresh(4)
    i, seat = me(st)
    others = [k for k in range(4) if k != i]
    st.progress[others[0]] = 6
    st.days[others[0]] = 40
    st.progress[others[1]] = 2
    st.days[others[1]] = 14
    st.progress[others[2]] = 1
    st.days[others[2]] = 8
    st.phase = "action"
    st.pending = "detective"
    action = R.ai_action(st, seat)
    assert action == {"type": "detective", "location": D.LOCATIONS[7]}


def test_ai_rides_the_elephant_and_sells_it_when_past_bombay():
    st = fresh()
    i, seat = travel_phase(st, [], LOC("bombay"), events=["elephant"])
    assert R.ai_action(st, seat) == {"type": "event", "card": "elephant"}
    st2 = fresh()
    i, seat = travel_phase(st2, ["ship:4"], LOC("hong_kong"), events=["elephant"])
    assert R.ai_action(st2, seat) == {"type": "elephant_gold"}


def test_ai_buys_a_card_when_stuck_and_rich():
    st = fresh()
    i, seat = travel_phase(st, ["train:3"], LOC("brindisi"), gold=4)
    assert R.ai_action(st, seat) == {"type": "buy", "deck": "travel"}


def test_ai_beats_random_players():
    wins = 0
    games = 12
    for seed in range(games):
        st = R.new_game(["p1", "p2", "p3", "p4"], 700 + seed, {})
        rnd = random.Random(seed)
        ai = f"p{seed % 4 + 1}"
        while not R.is_over(st):
            who = R.to_act(st)[0]
            action = R.ai_action(st, who) if who == ai else rnd.choice(R.legal_actions(st, who))
            R.apply(st, who, action)
        wins += ai in R.result(st)["winners"]
    assert wins >= 10
