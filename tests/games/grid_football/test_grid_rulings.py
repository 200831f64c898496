"""The rulings the §19 scenarios leave out (A-5, A-10, A-13, A-22, A-34, A-38, A-43, A-49, A-50, A-51, A-53,
A-62, A-67, A-68, A-69, §3.5, §14.2, the §15 fixed-length variant, GF-3, GF-9), each on a small position."""

from __future__ import annotations

from grid_helpers import (
    AWAY,
    HOME,
    Dice,
    act,
    at,
    choices,
    dead,
    kick,
    kick_from,
    kinds,
    next_turn,
    pending,
    position,
    refused,
    run,
    turn,
    walk,
)

from games.api import IllegalDecision
from games.grid_football import rules as R
from games.grid_football.geometry import CENTRE_SQUARES, name, pawn, sq
from games.grid_football.rules import FORMAT, grid_setup
from games.grid_football.state import (
    E_BACK_LINE,
    P_EXTRA,
    P_SHOOTOUT,
    PH_OVER,
    PH_RUN,
    S_INJURED_OUT,
    S_PITCH,
    S_SUBBED_OFF,
    S_WARMING,
)

DEEP = {1: (5, 16), 2: (1, 14)}  # Argentina's keeper and a deep defender (Germans ahead are onside)


def test_A10_no_pass_straight_back_to_the_player_who_just_played_it() -> None:
    st = position({1: (5, 0), 9: (4, 6), 10: (5, 7)}, DEEP, ball=(4, 6))
    kick_from(st, HOME, 9, 3)
    act(
        st,
        kick(
            (5, 7),
        ),
    )  # relay to #10 (free), 3 still to travel
    paths = {c["path"] for c in choices(st)}
    assert "4,6" not in paths and not any(p.startswith("4,6") for p in paths)
    assert "5,8>5,9>5,10" in paths


def test_A43_no_walk_onto_a_ball_that_cannot_be_played_on() -> None:
    # the ball in the corner of the pitch, boxed in by Argentines: #9 (outside the line) could step onto it,
    # but no play could follow, so he may not
    boxed = {1: (5, 16), 2: (2, 1), 3: (2, 2), 4: (1, 2), 5: (9, 14)}
    st = position({1: (5, 0), 9: (0, 1)}, boxed, ball=(1, 1))
    turn(st, 1)
    assert pending(st) == ("home", "act") and not [c for c in choices(st) if c["kind"] == "ball"]
    st = position({1: (5, 0), 9: (0, 1)}, {**boxed, 4: (4, 4)}, ball=(1, 1))  # (1,2) free: he may
    turn(st, 1)
    assert {"kind": "ball", "player": 9, "steps": 1} in choices(st)
    # a restart with no complete play: the ball stays with the taker, the turn ends, no lock remains (GF-9)
    # (two deep Germans keep the Argentines onside, so no pull-back opens a way)
    st = position(
        {1: (5, 0), 2: (3, 1), 3: (7, 3), 9: (1, 4)}, {1: (5, 16), 2: (1, 7), 3: (1, 6), 4: (1, 5)}, ball=None
    )
    st.jobs = [["r_throw", HOME, sq(0, 6)]]
    run(st)
    events = act(st, {"kind": "taker", "player": 9, "square": "0,6"}, 2)  # D4 = 2: (1,5), (1,6), (1,7) taken
    assert "kick" not in kinds(events)
    assert pending(st) == ("away", "warm_up") and at(st, HOME, 9) == "0,6" and name(st.ball) == "0,6"
    assert st.lock == -1


def test_A49_the_restart_taker_may_not_touch_it_again_first() -> None:
    st = position({1: (5, 0), 9: (3, 7)}, DEEP, ball=None)
    st.jobs = [["r_throw", HOME, sq(0, 6)]]
    run(st, 2)  # #9, the only German outfield player, throws: D4 = 2
    act(st, kick((1, 6), (2, 6)))
    assert at(st, HOME, 9) == "1,6" and st.lock == pawn(HOME, 9)
    next_turn(st, 3)  # Argentina
    act(st, walk(2, 1, 11))
    next_turn(st, 1)  # Germany rolls 1: #9 is next to the ball but may not walk onto it
    assert not [c for c in choices(st) if c["kind"] == "ball" and c["player"] == 9]
    message = refused(st, {"kind": "ball", "player": 9, "steps": 1}, error=IllegalDecision)
    assert "restart taker" in message


def test_A50_A13_into_the_own_goal_a_relay_to_the_keeper_or_a_shot_at_him() -> None:
    st = position({1: (5, 0), 4: (5, 2)}, DEEP, ball=(5, 2))
    kick_from(st, HOME, 4, 2)
    paths = {c["path"] for c in choices(st)}
    assert "5,1>5,0" in paths  # onto his own keeper: a relay (A-50), the keeper plays on
    assert "5,1>6,0" in paths  # into the empty goal square: a shot at his own keeper (A-13)
    act(st, kick((5, 1), (6, 0)))
    assert st.end == 1 and st.shooter == HOME  # he shot at his own goal
    assert FORMAT.decisions(st)[0].kind == "save" and FORMAT.decisions(st)[0].side == "home"


def test_A53_a_deflected_ball_stopping_on_a_player_is_played_on_without_a_follow() -> None:
    st = position({1: (5, 0), 9: (4, 6), 11: (5, 5), 12: (2, 9)}, {**DEEP, 14: (5, 8)}, ball=(4, 6))
    kick_from(st, HOME, 9, 2)
    act(st, kick((5, 7), (6, 8)))
    if pending(st)[1] == "follow":
        act(st, {"kind": "no_follow"})
    act(st, {"kind": "intercept", "player": 14}, 3)  # south from (5,7): (5,6), then Germany's #11 on (5,5)
    assert pending(st) == ("home", "intercept")  # #9 beside (5,6) may try too (both teams after a deflection)
    act(st, {"kind": "let_pass"})
    assert pending(st) == ("home", "kick") and st.kicker == pawn(HOME, 11) and st.budget == 1
    act(
        st,
        kick(
            (4, 4),
        ),
    )
    assert FORMAT.decisions(st)[0].kind != "follow"  # no follow after a deflected ball played on


def test_A51_out_through_a_pitch_corner_is_over_the_back_line() -> None:
    st = position({1: (5, 0)}, DEEP, ball=(2, 14))
    R._travel(st, sq(2, 14), 7, 4, HOME)  # north-west from (2,14): (1,15), then no square
    assert st.end == E_BACK_LINE and name(st.exit) == "1,16"


def test_A62_a_second_injury_and_a_replacement_of_the_same_kind() -> None:
    st = position(
        {1: (5, 0), 16: (5, 13), 7: (9, 3)},
        {1: (5, 16), 8: (5, 11), 2: (1, 14)},
        ball=(5, 10),
        dugout={HOME: [], AWAY: [9, 10, 3]},
    )
    st.bandage[pawn(AWAY, 8)] = 1
    turn(st, 2)  # the only foul there is: taken at once
    assert st.status[pawn(AWAY, 8)] == S_INJURED_OUT
    assert pending(st) == ("away", "replace")
    decision = FORMAT.decisions(st)[0]
    assert {c["player"] for c in decision.choices} == {9, 10} and decision.default["player"] == 9  # A-76
    act(st, {"kind": "replace", "player": 10})
    assert st.subs[AWAY] == 1
    act(st, {"kind": "keeper", "square": "5,16"})
    act(st, {"kind": "keeper", "square": "5,0"}, 3)
    assert at(st, AWAY, 10) == "5,12"  # the substitute takes the victim's place by the ball (§13.5.2)
    # with the three substitutions used, an injured-out player is not replaced
    st = position({1: (5, 0), 16: (5, 13)}, {1: (5, 16), 8: (5, 11), 2: (1, 14)}, ball=(5, 10))
    st.bandage[pawn(AWAY, 8)] = 1
    st.subs[AWAY] = 3
    turn(st, 2)
    assert pending(st) == ("away", "keeper") and sum(1 for p in range(20, 40) if st.pos[p] >= 0) == 2


def keeper_foul(subs: int) -> object:
    """Germany's keeper, on a yellow already, fouls an Argentine in his own area: red, a penalty."""
    st = position(
        {1: (5, 1), 4: (2, 10), 5: (9, 6)},
        {1: (5, 16), 2: (1, 14), 9: (5, 3)},
        ball=(5, 4),
        dugout={HOME: [20]},
    )
    st.yellow[pawn(HOME, 1)] = 1
    st.subs[HOME] = subs
    turn(st, 2)  # the keeper's foul on #9 is the only one: taken at once
    assert st.status[pawn(HOME, 1)] != S_PITCH and st.red[pawn(HOME, 1)]
    return st


def test_section_14_2_a_keeper_sent_off_is_replaced_by_the_reserve_keeper() -> None:
    st = keeper_foul(subs=0)
    decision = FORMAT.decisions(st)[0]
    assert decision.kind == "keeper_off" and {c["off"] for c in decision.choices} == {4, 5}
    assert decision.default == {"kind": "reserve_keeper", "off": 4}  # the most advanced leaves (A-76)
    act(st, decision.default)
    assert (
        st.keeper[HOME] == pawn(HOME, 20) and st.status[pawn(HOME, 4)] == S_SUBBED_OFF and st.subs[HOME] == 1
    )
    assert not st.makeshift[HOME]


def test_section_14_2_with_no_substitution_left_an_outfield_player_keeps_goal() -> None:
    st = keeper_foul(subs=3)
    decision = FORMAT.decisions(st)[0]
    assert {c["kind"] for c in decision.choices} == {"makeshift_keeper"}
    act(st, {"kind": "makeshift_keeper", "player": 5})
    assert st.keeper[HOME] == pawn(HOME, 5) and st.makeshift[HOME] == 1
    act(st, {"kind": "keeper", "square": "5,16"})
    act(st, {"kind": "keeper", "square": "6,0"})
    act(st, {"kind": "taker", "player": 9, "square": "5,2"}, 2)  # the penalty: D6 = 2, only (5,1),(5,0)
    # r = 0, the dive to (5,0) one step: 3/4 for a real keeper, 2/4 for a makeshift one (§14.2)
    assert FORMAT.decisions(st)[0].options["chances"]["5,0"] == 2


def test_A22_A38_a_save_outside_the_area_is_handball() -> None:
    st = position(
        {1: (5, 5), 4: (9, 9)}, {1: (5, 16), 2: (1, 14), 9: (6, 7), 10: (2, 12)}, ball=(6, 6), turn=AWAY
    )
    turn(st, 6)
    act(st, {"kind": "ball", "player": 9, "steps": 1})
    act(st, kick((6, 5), (6, 4), (6, 3), (6, 2), (6, 1), (6, 0)))
    assert FORMAT.decisions(st)[0].options["chances"]["6,5"] == 3
    events = act(st, {"kind": "save", "square": "6,5"}, 4)
    assert st.red[pawn(HOME, 1)] and "card" in kinds(events)
    assert st.score == [0, 0] and name(st.ball) == "6,5"  # a free kick for Argentina where he handled it


def test_A68_extra_time_and_the_golden_goal() -> None:
    st = position({1: (5, 0), 9: (2, 5)}, DEEP, ball=(8, 9), knockout=True)
    st.ones = 15
    events = turn(st, 1)  # the whistle, level: extra time, a dead moment, the other side kicks off
    assert st.period == P_EXTRA and "extra_time" in kinds(events)
    act(st, {"kind": "keeper", "square": "5,16"})
    act(st, {"kind": "keeper", "square": "5,0"}, 3)
    assert st.turn == AWAY and st.budget == 4 and at(st, AWAY, 1) == name(st.ball)  # D6 + 1 from his keeper
    R._goal(st, [], HOME)  # the first goal in extra time ends the match
    assert st.phase == PH_OVER and FORMAT.result(st).decided_by == "extra_time"
    assert FORMAT.result(st).winner == "away"


def test_A69_the_shootout_takers_and_its_early_end() -> None:
    st = position(
        {1: (5, 0), 4: (2, 10), 5: (9, 6)}, {1: (5, 16), 8: (3, 9), 9: (7, 9)}, ball=(8, 9), knockout=True
    )
    st.period = P_EXTRA
    st.ones = st.extra_ones - 1
    turn(st, 1)
    assert st.period == P_SHOOTOUT
    act(st, {"kind": "keeper", "square": "5,0"})  # away kicks first, at the home goal
    assert pending(st) == ("away", "taker")
    assert {c["player"] for c in choices(st)} == {8, 9}
    st.kicks = [[AWAY, pawn(AWAY, 8), 1]]  # once #8 has kicked, #9 before anyone twice
    R._ask_penalty_taker(st, [], AWAY, R.T_SHOOTOUT)
    assert {c["player"] for c in choices(st)} == {9}
    # five each with early decision: 3-0 after three each cannot be caught up with two left
    st.kicks = [[s, pawn(s, 9), int(s == AWAY)] for _ in range(3) for s in (AWAY, HOME)][:-1]
    st.pens = [0, 3]
    st.kicker = pawn(HOME, 4)
    st.jobs = [["so_result", HOME, 0]]
    st.phase = PH_RUN
    run(st)
    assert (
        st.phase == PH_OVER and FORMAT.result(st).penalties == (0, 3) and FORMAT.result(st).winner == "away"
    )


def test_the_fixed_length_variant_counts_rolls_plus_one_per_foul() -> None:
    st = position({1: (5, 0), 9: (2, 5)}, DEEP, ball=(8, 9), fixed_length=True, fixed_rolls=10)
    st.rolls = 10
    st.fouls = 1  # one foul: one more roll (stoppage time)
    turn(st, 1)
    assert st.phase != PH_OVER and st.ones == 0 and st.rolls == 11  # a '1' moves no clock in the variant
    act(st, walk(9, 2, 6))
    next_turn(st, 4)
    assert st.phase == PH_OVER  # the roll after the last one is the whistle


def test_A34_warm_up_at_most_the_substitutions_left_and_they_must_come_on() -> None:
    st = position({1: (5, 0), 9: (2, 5), 4: (3, 9)}, DEEP, ball=(8, 9), dugout={HOME: [15, 16, 17]})
    st.subs[HOME] = 2
    st.jobs = [["turn", HOME]]
    run(st)
    assert {c.get("player") for c in choices(st)} == {None, 15, 16, 17}
    act(st, {"kind": "warm_up", "player": 16}, 3)
    assert st.status[pawn(HOME, 16)] == S_WARMING and FORMAT.decisions(st)[0].kind == "act"  # one sub left
    # at the next dead moment (not after a goal) he must come on: the choices are all substitutions
    dead(st, ["r_kickoff", HOME])
    decision = FORMAT.decisions(st)[0]
    assert decision.kind == "substitute" and {c["kind"] for c in decision.choices} == {"substitute"}
    assert {c["off"] for c in decision.choices} == {9, 4}
    # after a goal he may also go back to the bench
    st2 = position({1: (5, 0), 9: (2, 5)}, DEEP, ball=(8, 9), dugout={HOME: [16]})
    st2.status[pawn(HOME, 16)] = S_WARMING
    dead(st2, ["r_kickoff", HOME], after_goal=True)
    assert {"kind": "bench", "player": 16} in choices(st2)


def test_A67_a_walk_that_cuts_the_other_side_off_the_ball_is_not_offered() -> None:
    # the ball in the corner of the pitch; Argentina's #9 reaches it only through (1,2)
    st = position({1: (5, 0), 2: (2, 1), 3: (2, 2), 4: (1, 3)}, {1: (5, 16), 9: (0, 2)}, ball=(1, 1))
    turn(st, 1)
    walks = {(c["player"], c["to"]) for c in choices(st) if c["kind"] == "walk"}
    assert (3, "1,2") not in walks and (3, "3,2") in walks
    assert "anti-spoiling" in refused(st, walk(3, 1, 2), error=IllegalDecision)


def test_A5_rules_can_be_switched_off() -> None:
    charge = position({1: (5, 0), 7: (7, 9)}, {1: (5, 16), 8: (7, 10)}, ball=(8, 10), shoulder_charge=False)
    turn(charge, 1)
    assert not [c for c in choices(charge) if c["kind"] == "charge"]
    foul = position({1: (5, 0), 16: (5, 13)}, {1: (5, 16), 8: (5, 11)}, ball=(5, 10), fouls=False)
    turn(foul, 2)
    assert pending(foul) == ("home", "act")
    offside = position(
        {1: (5, 0), 14: (5, 12), 9: (5, 9)}, {1: (5, 16), 2: (4, 11)}, ball=(5, 9), offside=False
    )
    kick_from(offside, HOME, 9, 3)
    assert "5,10>5,11>5,12" in {c["path"] for c in choices(offside)}  # a relay to #14, onside or not
    spoil = position({1: (5, 0), 2: (4, 3)}, {1: (5, 16), 9: (9, 9)}, ball=(5, 5), anti_spoiling=False)
    turn(spoil, 2)
    assert "4,1" in {c.get("to") for c in choices(spoil) if c.get("player") == 2}


def lineup(players: list[int], centre: tuple[int, int, int] = (5, 5, 5)) -> dict:
    return {"kind": "lineup", "players": players, "keeper_column": 5, "centre": list(centre)}


def test_section_3_5_colliding_midfielders_and_the_centre_fill() -> None:
    st = FORMAT.start(grid_setup(), Dice())
    four = [1, 2, 3, 4, 5, 8, 9, 10, 11, 14, 15]  # 4-4-2 on both sides: the midfields coincide
    FORMAT.apply(st, "away", lineup(four), Dice())
    FORMAT.apply(st, "home", lineup(four), Dice())
    decision = FORMAT.decisions(st)[0]
    assert decision.side == "home" and decision.kind == "collide"
    combos = {tuple(c["squares"]) for c in decision.choices}
    # columns 1 and 10 have one way; 4 -> 3 or 5, 7 -> 6 or 8, never both squares by the centre spot (GF-3)
    assert combos == {
        ("2,8", "3,8", "6,8", "9,8"),
        ("2,8", "3,8", "8,8", "9,8"),
        ("2,8", "5,8", "8,8", "9,8"),
    }
    act(st, {"kind": "collide", "squares": ["2,8", "5,8", "8,8", "9,8"]}, 4, 2)
    # away fills (6,8) from 7 (one column), home is already by the spot: nobody else moves (GF-4)
    centre = {name(st.pos[p]) for p in range(40) if st.pos[p] in CENTRE_SQUARES}
    assert centre == {"5,8", "6,8"} and at(st, AWAY, 10) == "6,8"
    # two lines of three on the same centre column: home takes the other one
    st = FORMAT.start(grid_setup(), Dice())
    three = [1, 2, 3, 4, 8, 9, 10, 14, 15, 16, 17]
    FORMAT.apply(st, "away", lineup(three, (5, 5, 5)), Dice())
    FORMAT.apply(st, "home", lineup(three, (5, 5, 5)), Dice())
    assert {tuple(c["squares"]) for c in choices(st)} == {
        ("1,8", "6,8", "8,8"),
        ("1,8", "6,8", "10,8"),
        ("3,8", "6,8", "8,8"),
        ("3,8", "6,8", "10,8"),
    }
