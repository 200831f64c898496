"""The digest's test scenarios T-01 … T-24 (§19), each reconstructed from a figure of the rulebook or a rule
check, played through the engine's decisions. Home = Germany (defends y = 0), away = Argentina."""

from __future__ import annotations

import pytest
from grid_helpers import (
    AWAY,
    HOME,
    Dice,
    act,
    at,
    choices,
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
from slow_reference import walk_ends as slow_walk_ends

from games.api import IllegalDecision
from games.grid_football import rules as R
from games.grid_football.geometry import name, pawn, sq
from games.grid_football.moves import occupancy, walk_free
from games.grid_football.rules import FORMAT, grid_setup
from games.grid_football.state import P_NORMAL, PH_OVER

# the two keepers and an Argentine defender deep in his half: with two opponents at least as near their
# back line, German players in the away half are onside (§11.1)
KEEPERS = {"home": {1: (5, 0)}, "away": {1: (5, 16), 2: (1, 14)}}


def germany(**players: tuple[int, int]) -> dict[int, tuple[int, int]]:
    return {1: (5, 0), **{int(k[1:]): v for k, v in players.items()}}


def lineup(players: list[int], keeper: int = 5, centre: tuple[int, int, int] = (5, 5, 5)) -> dict:
    return {"kind": "lineup", "players": players, "keeper_column": keeper, "centre": list(centre)}


def example_lineups() -> object:
    """§3's example: Germany 4-3-3 (midfield centre on 6, attack centre on 5), Argentina 4-4-2."""
    st = FORMAT.start(grid_setup(), Dice())
    FORMAT.apply(st, "away", lineup([1, 2, 3, 4, 5, 8, 9, 10, 11, 14, 15]), Dice())
    return st


def test_T01_opening_kickoff() -> None:
    st = example_lineups()
    FORMAT.apply(st, "home", lineup([1, 2, 3, 4, 5, 8, 9, 10, 14, 15, 16], centre=(5, 6, 5)), Dice(5, 3))
    # §3: Argentina's lines; its midfielder on (4,8) moved next to the centre spot, Germany being on (6,8)
    assert [at(st, AWAY, n) for n in (2, 3, 4, 5)] == ["1,13", "4,13", "7,13", "10,13"]
    assert [at(st, AWAY, n) for n in (8, 9, 10, 11)] == ["1,8", "5,8", "7,8", "10,8"]
    assert [at(st, AWAY, n) for n in (14, 15)] == ["3,4", "8,4"]
    assert [at(st, HOME, n) for n in (14, 15, 16)] == ["2,12", "5,12", "9,12"] and at(st, HOME, 9) == "6,8"
    # ARG 5, GER 3: the ball on Argentina's (5,8), exactly two squares; east is a German square
    assert pending(st) == ("away", "kick") and name(st.ball) == "5,8"
    paths = {c["path"] for c in choices(st)}
    assert "4,8>3,8" in paths and not any(p.startswith("6,8") for p in paths)
    act(st, kick((4, 8), (3, 8)))
    if pending(st)[1] == "follow":
        act(st, {"kind": "no_follow"})
    assert name(st.ball) == "3,8" and st.ones == 0 and st.period == P_NORMAL
    assert pending(st) == ("home", "warm_up")  # Germany's turn (after the interception chance)


def test_T02_rerolls_at_the_kickoff() -> None:
    st = example_lineups()
    # away 1 (again: it does not count), away 4, home 4: equal, both again; 3 and 3; then 5 and 2
    events = FORMAT.apply(
        st, "home", lineup([1, 2, 3, 4, 5, 8, 9, 10, 14, 15, 16], centre=(5, 6, 5)), Dice(1, 4, 4, 3, 3, 5, 2)
    )
    rolls = [(e.data["value"], e.data["counts"]) for e in events if e.kind == "roll"]
    assert rolls == [(1, False), (4, True), (4, True), (3, True), (3, True), (5, True), (2, True)]
    kickoff = next(e for e in events if e.kind == "kickoff")
    assert kickoff.data == {"side": "away", "rolls": {"home": 2, "away": 5}, "squares": 3}
    assert st.ones == 0 and st.budget == 3


def test_T03_walk_only() -> None:
    st = position(germany(H9=(2, 5)), KEEPERS["away"], ball=(8, 9))
    turn(st, 3)
    ends = {c["to"] for c in choices(st) if c["kind"] == "walk" and c["player"] == 9}
    occ = occupancy(st.pos)
    want, _ks = slow_walk_ends(walk_free(occ, st.ball, HOME, False), sq(2, 5), 3, st.ball)
    assert ends == {name(s) for s in want}
    assert {"2,8", "4,6", "5,5", "2,6"} <= ends  # (2,6): one step away, reached by a detour
    assert "2,5" not in ends and "2,9" not in ends
    act(st, walk(9, 4, 6))
    assert at(st, HOME, 9) == "4,6" and name(st.ball) == "8,9" and st.turn == AWAY


def t04() -> object:
    st = position(germany(H9=(4, 5), H10=(5, 8), H11=(7, 10), H14=(9, 13)), KEEPERS["away"], ball=(5, 6))
    turn(st, 4)
    return st


def test_T04_walk_and_kick() -> None:
    st = t04()
    steps = {c["steps"] for c in choices(st) if c["kind"] == "ball" and c["player"] == 9}
    assert steps == {2, 4}  # the shortest way and a detour of two more
    act(st, {"kind": "ball", "player": 9, "steps": 2})
    assert st.budget == 3  # 4 - 1 empty square walked (rulebook: 4 - 2 steps + 1)
    assert kick((5, 7), (5, 8), (5, 9))["path"] not in {c["path"] for c in choices(st)}  # (5,8): a team-mate
    st2 = position(germany(H9=(4, 5)), KEEPERS["away"], ball=(5, 6))
    turn(st2, 4)
    act(st2, {"kind": "ball", "player": 9, "steps": 2})
    act(st2, kick((5, 7), (5, 8), (5, 9)))
    assert name(st2.ball) == "5,9"


def t05() -> object:
    st = t04()
    act(st, {"kind": "ball", "player": 9, "steps": 2})
    act(st, kick((5, 7), (5, 8)))  # relay to A (free)
    act(st, kick((6, 9), (7, 10)))  # A north-east: relay to B
    act(
        st,
        kick(
            (8, 11),
        ),
    )  # B north-east: the third empty square
    return st


def test_T05_relays() -> None:
    st = t05()
    assert name(st.ball) == "8,11" and st.touches == 3 and st.budget == 0
    assert [name(st.path[i]) for i in range(0, len(st.path), 2)] == ["5,7", "5,8", "6,9", "7,10", "8,11"]


def test_T06_follow() -> None:
    st = t05()
    assert pending(st) == ("home", "follow")
    follows = {(c["player"], c["to"]) for c in choices(st) if c["kind"] == "follow"}
    assert follows == {
        (14, "9,11"),
        (14, "8,12"),
    }  # B is 2 away: C must end at 1; A, B, the kicker touched it
    # negative: B on (8,10) plays north to (8,11): he stands 1 away and nobody can end nearer
    st = position(germany(H11=(8, 10), H14=(9, 13)), KEEPERS["away"], ball=(8, 10))
    kick_from(st, HOME, 11, 1)
    act(
        st,
        kick(
            (8, 11),
        ),
    )
    assert FORMAT.decisions(st)[0].kind != "follow"
    # a player 2 away who is next to the ball after one step stops there
    st = position(germany(H11=(7, 9), H15=(10, 11)), KEEPERS["away"], ball=(7, 9))
    kick_from(st, HOME, 11, 2)
    act(st, kick((7, 10), (8, 11)))
    assert {(c["player"], c["to"]) for c in choices(st) if c["kind"] == "follow"} == {(15, "9,11")}


def best_save(st: object, events: list) -> tuple[str | None, int]:
    """The best save square and its chance (in quarters): from the keeper's decision, or from the save he made
    at once when it was his only square (a decision with one choice is taken at once); (None, 0) for a goal
    without a D4 roll (A-74)."""
    if pending(st)[1] == "save":
        chances = FORMAT.decisions(st)[0].options["chances"]
        best = max(chances, key=chances.get)
        return best, chances[best]
    saves = [e for e in events if e.kind == "save"]
    if saves:
        return saves[0].data["square"], saves[0].data["chance"]
    assert not [e for e in events if e.kind == "roll" and e.data["die"] == 4]
    return None, 0


@pytest.mark.parametrize(("roll", "chance"), [(2, 3), (3, 2), (4, 1), (5, 0), (6, 0)])
def test_T07_shot_strength(roll: int, chance: int) -> None:
    st = position({1: (6, 0)}, {1: (5, 16), 9: (5, 3)}, ball=(5, 2), turn=AWAY)
    turn(st, roll)
    act(st, {"kind": "ball", "player": 9, "steps": 1})
    assert st.budget == roll
    events = act(st, kick((5, 1), (5, 0)), 1)  # a D4 of 1 if the keeper's only square is taken at once
    assert st.strength == roll - 2 or st.score == [0, 1]
    assert best_save(st, events) == (("5,0", chance) if chance else (None, 0))
    if not chance:
        assert st.score == [0, 1]  # no chance left: a goal without a D4 roll


def t08(keeper: tuple[int, int], roll: int = 3, d4: int = 1) -> tuple[object, list]:
    st = position({1: keeper, 5: (1, 5)}, {1: (5, 16), 2: (1, 14), 9: (5, 4)}, ball=(5, 3), turn=AWAY)
    turn(st, roll)
    act(st, {"kind": "ball", "player": 9, "steps": 1})
    return st, act(st, kick((5, 2), (5, 1), (5, 0)), d4)


@pytest.mark.parametrize(
    ("keeper", "square", "chance"),
    [((6, 0), "5,0", 3), ((7, 1), "5,1", 2), ((8, 1), "5,1", 1), ((9, 1), None, 0)],
)
def test_T08_dive_distance(keeper: tuple[int, int], square: str | None, chance: int) -> None:
    st, events = t08(keeper)
    assert best_save(st, events) == (square, chance)
    if square is None:
        assert st.score == [0, 1]  # four steps away: a goal


def test_T09_harder_shot() -> None:
    st, events = t08((7, 1), roll=4, d4=4)
    assert best_save(st, events) == ("5,1", 1)  # only D4 = 4 saves, and it is a rebound
    assert "rebound" in kinds(events)


def test_T10_hold_and_throw() -> None:
    st, _events = t08((7, 1))
    st.status[pawn(HOME, 6)] = st.status[pawn(HOME, 5)]  # a German defender
    # D4 = 4 on a 2/4 chance: he holds; Germany's D6: a 1 (again, and it counts: A-23), then 2
    events = act(st, {"kind": "save", "square": "5,1"}, 4, 1, 2)
    assert at(st, HOME, 1) == "5,1" and st.ones == 1 and st.budget == 2 and st.turn == HOME
    assert "clock" in kinds(events)
    st.pos[pawn(HOME, 6)] = sq(7, 6)  # three steps from where the throw goes; the shooter is on (5,3)
    st.cache = None
    act(st, kick((6, 2), (7, 3)))
    assert {(c["player"], c["to"]) for c in choices(st) if c["kind"] == "follow"} == {(6, "7,4")}
    act(st, {"kind": "follow", "player": 6, "to": "7,4"})
    assert pending(st) == ("away", "warm_up")  # then the shooting side moves (§9.7)


def test_T11_rebound() -> None:
    st, _events = t08((7, 1))
    st.pos[pawn(HOME, 5)] = sq(3, 2)  # a German next to (4,2)
    st.cache = None
    act(st, {"kind": "save", "square": "5,1"}, 3)  # D4 = 3: the lowest saving face, a rebound (§9.4)
    assert [name(st.path[i]) for i in range(0, len(st.path), 2)] == ["4,2", "3,3"]  # 1 left + 1, north-west
    assert pending(st) == ("home", "intercept")  # both teams may try on a rebound
    act(st, {"kind": "let_pass"})
    assert name(st.ball) == "3,3" and pending(st) == ("away", "warm_up")  # the shooter moves again


def t12() -> object:
    st = position(
        germany(H9=(4, 6), H11=(6, 10)), {1: (5, 16), 2: (1, 14), 14: (5, 8), 15: (6, 6)}, ball=(4, 6)
    )
    kick_from(st, HOME, 9, 2)
    act(st, kick((5, 7), (6, 8)))
    act(st, {"kind": "follow", "player": 11, "to": "6,9"})  # a team-mate follows one step (then adjacent)
    assert pending(st) == ("away", "intercept")
    assert {c.get("player") for c in choices(st)} == {14, None}  # #14 next to (5,7), the first square
    return st


def test_T12_successful_interception() -> None:
    st = t12()
    events = act(st, {"kind": "intercept", "player": 14}, 3)
    assert at(st, AWAY, 14) == "5,7"
    deflection = next(e for e in events if e.kind == "deflection")
    assert deflection.data["path"] == ["5,6", "5,5"] and deflection.data["direction"] == "S"  # 1 left + 1
    # (5,6) is next to #15 but also to Germany's #9: a square both teams could use is closed (§8.4, A-16)
    assert "deflection" in kinds(events) and name(st.ball) == "5,5"
    assert pending(st) == ("home", "warm_up")  # the side that did not deflect moves next (§8.7)


@pytest.mark.parametrize("d3", [1, 2])
def test_T13_failed_interception(d3: int) -> None:
    st = t12()
    act(st, {"kind": "intercept", "player": 14}, d3)
    assert at(st, AWAY, 14) == "5,7" and name(st.ball) == "6,8"
    assert pending(st) == ("away", "warm_up")  # normal alternation
    assert st.ones == (1 if d3 == 1 else 0)  # a D3 of 1 moves the clock


def test_T14_kickoff_after_a_goal() -> None:
    st = position(germany(H5=(5, 3), H16=(8, 5)), KEEPERS["away"], ball=None)
    R._dead(st, [], ["r_kickoff", HOME], after_goal=True)
    run(st)
    act(st, {"kind": "keeper", "square": "5,16"})
    act(st, {"kind": "keeper", "square": "5,0"}, 2)  # Germany rolls 2: 2 + 1 = 3 squares (§13.1)
    assert st.budget == 3 and st.lock == pawn(HOME, 1)
    act(st, kick((5, 1), (5, 2), (5, 3)))  # two empty squares, then #5 relays
    act(
        st,
        kick(
            (6, 4),
        ),
    )
    assert name(st.ball) == "6,4"
    assert {(c["player"], c["to"]) for c in choices(st) if c["kind"] == "follow"} == {
        (16, "7,4"),
        (16, "6,5"),
    }


def test_T15_throw_in() -> None:
    st = position(germany(H9=(2, 3), H10=(6, 9)), {1: (5, 16), 2: (10, 14), 3: (3, 6)}, ball=(2, 3))
    kick_from(st, HOME, 9, 4)
    act(st, kick((2, 4), (2, 5), (2, 6), (2, 7)))
    assert pending(st) == ("away", "intercept")  # no follow: #10 could not end nearer than the kicker
    # ARG #3 steps west into (2,6) and deflects it (D3 = 3): 1 left + 1 squares west: over the touch line
    act(st, {"kind": "intercept", "player": 3}, 3)
    act(st, {"kind": "keeper", "square": "5,16"})
    act(st, {"kind": "keeper", "square": "5,0"})
    assert {(c["player"], c["square"]) for c in choices(st)} == {(9, "0,6"), (10, "0,6")}
    act(st, {"kind": "taker", "player": 9, "square": "0,6"}, 3)  # a German outfield player throws; D4 = 3
    assert at(st, HOME, 9) == "0,6" and st.budget == 3  # the D4, no +1
    act(st, kick((1, 7), (2, 8), (3, 9)))
    assert at(st, HOME, 9) == "1,6"  # the thrower steps back in
    assert {(c["player"], c["to"]) for c in choices(st) if c["kind"] == "follow"} == {(10, "4,9")}
    act(st, {"kind": "follow", "player": 10, "to": "4,9"})


def test_T16_final_whistle() -> None:
    st = position(germany(H9=(2, 5)), KEEPERS["away"], ball=(8, 9))
    st.ones = 15
    events = turn(st, 1)  # the 16th counting '1': no charge, no walk, the match is over
    assert st.phase == PH_OVER and kinds(events)[-1] == "full_time"
    assert FORMAT.result(st).decided_by == "regular"
    st = t12()  # the same on a D3
    st.ones = 15
    act(st, {"kind": "intercept", "player": 14}, 1)
    assert st.phase == PH_OVER


def test_T17_compulsory_foul() -> None:
    st = position(germany(H16=(5, 13), H17=(6, 12)), {1: (5, 16), 8: (5, 11)}, ball=(5, 10))
    turn(st, 2)
    assert pending(st) == ("home", "foul")
    assert {(c["player"], c["victim"]) for c in choices(st)} == {(16, 8), (17, 8)}  # Germany chooses
    events = act(st, {"kind": "foul", "player": 16, "victim": 8})
    assert st.yellow[pawn(HOME, 16)] == 1 and st.bandage[pawn(AWAY, 8)] == 1
    assert "foul" in kinds(events)
    act(st, {"kind": "keeper", "square": "5,16"})
    act(st, {"kind": "keeper", "square": "5,0"}, 1, 4)  # Argentina's D6: 1 again (it does not count), 4
    assert name(st.ball) == "5,11" and at(st, AWAY, 8) == "5,12"
    assert at(st, HOME, 16) == "5,9"  # two squares towards his own back line, out of the ring
    x, y = (int(v) for v in at(st, HOME, 17).split(","))
    assert max(abs(x - 5), abs(y - 11)) >= 2  # his team-mate left the ring
    assert pending(st) == ("away", "act") and st.ones == 0
    assert {c["kind"] for c in choices(st)} == {"ball"}  # one of them must play the ball


def test_T18_shoulder_charge() -> None:
    st = position(germany(H7=(7, 9), H8=(6, 10)), {1: (5, 16), 8: (7, 10), 9: (7, 11)}, ball=(8, 10))
    turn(st, 1)
    assert st.ones == 1  # the clock moved (+6 minutes)
    charges = {(c["player"], c["victim"]) for c in choices(st) if c["kind"] == "charge"}
    assert charges == {(7, 8)}  # from (6,10) eastwards the push would reach the ball's square
    act(st, {"kind": "charge", "player": 7, "victim": 8})
    assert at(st, HOME, 7) == "7,10" and at(st, AWAY, 8) == "7,11" and at(st, AWAY, 9) == "7,12"


def test_T19_offside_retreat() -> None:
    st = position(germany(H14=(5, 12), H9=(5, 9)), {1: (5, 16), 2: (4, 11)}, ball=(5, 9))
    kick_from(st, HOME, 9, 3)
    paths = {c["path"] for c in choices(st)}
    assert "5,10>5,11>5,12" not in paths and "5,10>5,11" not in paths  # no pass to the offside #14
    st = position(germany(H14=(5, 12), H9=(2, 2)), {1: (5, 16), 2: (4, 11)}, ball=(5, 9))
    turn(st, 2)
    act(st, walk(9, 2, 4))
    assert at(st, HOME, 14) == "5,11"  # keeper and the (4,11) defender now: onside


def test_T20_keeper_catch() -> None:
    st = position(germany(), {1: (5, 16), 9: (9, 9)}, ball=(5, 2))
    st.last_play = AWAY
    turn(st, 2)
    assert {"kind": "catch", "player": 1} in choices(st)
    act(st, {"kind": "catch", "player": 1}, 5)
    assert at(st, HOME, 1) == "5,2" and st.budget == 5
    st = position(germany(), {1: (5, 16), 9: (9, 9)}, ball=(5, 2))
    st.last_play = HOME
    turn(st, 2)
    assert {"kind": "catch", "player": 1} not in choices(st)
    act(st, {"kind": "ball", "player": 1, "steps": 2})
    assert st.budget == 1


def test_T21_corner() -> None:
    st = position(
        germany(H9=(1, 14), H10=(6, 12), H11=(2, 15)),
        {1: (5, 16), 2: (3, 13), 3: (8, 13), 4: (7, 2)},
        ball=(1, 14),
    )
    kick_from(st, HOME, 9, 3)
    act(st, kick((2, 14), (3, 14), (4, 14)))
    if pending(st)[1] == "follow":
        act(st, {"kind": "no_follow"})
    act(st, {"kind": "intercept", "player": 2}, 3)  # north into (3,14): over the away back line at x = 3
    while pending(st)[1] == "intercept":  # both teams may try on the deflected ball: nobody does
        act(st, {"kind": "let_pass"})
    act(st, {"kind": "keeper", "square": "5,16"})
    act(st, {"kind": "keeper", "square": "5,0"})
    # the shift: everyone not in rows 1-2 of that end one square towards it (blocked ones stay)
    assert at(st, HOME, 10) == "6,13" and at(st, AWAY, 3) == "8,14" and at(st, AWAY, 4) == "7,3"
    assert at(st, HOME, 11) == "2,15"  # already in row 1
    assert name(st.ball) == "1,16" and pending(st) == ("home", "taker")
    squares = {c["square"] for c in choices(st)}
    assert squares == {"1,15", "2,16"}
    act(st, {"kind": "taker", "player": 10, "square": "1,15"})
    assert pending(st) == ("away", "taker")
    act(st, {"kind": "wall", "player": 3, "square": "3,16"}, 4)
    assert at(st, AWAY, 3) == "3,16" and at(st, HOME, 10) == "1,16" and st.budget == 4
    paths = {c["path"] for c in choices(st)}
    assert "2,15" in paths  # a relay to #11 on (2,15) is a leg of its own
    act(st, kick((1, 15), (2, 14), (3, 13), (4, 12)))
    if pending(st)[1] == "follow":
        act(st, {"kind": "no_follow"})
    while pending(st)[1] == "intercept":
        act(st, {"kind": "let_pass"})
    assert at(st, HOME, 10) == "1,15"  # the taker steps towards the middle line after his move
    assert pending(st) == ("away", "warm_up") and at(st, AWAY, 3) == "3,16"
    next_turn(st, 3)
    walks = [c for c in choices(st) if c["kind"] == "walk" and c["player"] != 3]
    act(st, walks[0])
    assert at(st, AWAY, 3) == "3,15"  # after Argentina's next turn, the wall does the same


def test_T22_penalty() -> None:
    st = position({1: (6, 0), 4: (6, 4)}, {1: (5, 16), 9: (6, 2), 10: (9, 9)}, ball=(5, 2))
    turn(st, 2)
    assert {(c["player"], c["victim"]) for c in choices(st)} == {(4, 9), (1, 9)}  # the keeper too
    act(st, {"kind": "foul", "player": 4, "victim": 9})
    act(st, {"kind": "keeper", "square": "5,16"})
    act(st, {"kind": "keeper", "square": "6,0"})
    for number in (4,):
        x, y = (int(v) for v in at(st, HOME, number).split(","))
        assert not (3 <= x <= 8 and 1 <= y <= 3)  # out of the area, towards the middle line
    assert pending(st) == ("away", "taker")
    events = act(st, {"kind": "taker", "player": 9, "square": "5,2"}, 3)
    assert at(st, AWAY, 9) == "5,2"
    # D6 = 3 from the spot; with the keeper on (6,0) the only way in is (5,1), (5,0), taken at once
    assert next(e for e in events if e.kind == "kick").data["path"] == ["5,1", "5,0"]
    assert st.strength == 1
    assert FORMAT.decisions(st)[0].options["chances"]["5,0"] == 2


def test_T23_anti_spoiling_goal_area() -> None:
    st = position(germany(H2=(4, 3)), {1: (5, 16), 9: (9, 9)}, ball=(5, 5))
    turn(st, 2)
    assert "4,1" not in {c.get("to") for c in choices(st) if c.get("player") == 2}
    message = refused(st, walk(2, 4, 1), error=IllegalDecision)
    assert "4,1" in message and "§12" in message
    st = position(germany(H2=(4, 3)), {1: (5, 16), 9: (9, 9)}, ball=(8, 1))
    turn(st, 2)
    assert "4,1" in {c.get("to") for c in choices(st) if c.get("player") == 2}


def test_T24_row1_cleanup() -> None:
    st = position(germany(H9=(2, 2)), {1: (5, 16), 2: (3, 15)}, ball=(6, 4))
    turn(st, 2)
    act(st, walk(9, 2, 4))
    assert at(st, AWAY, 2) == "3,14"
    st = position(germany(H9=(2, 2), H10=(3, 14)), {1: (5, 16), 2: (3, 15)}, ball=(6, 4))
    turn(st, 2)
    act(st, walk(9, 2, 4))
    assert pending(st) == ("away", "step")  # both sides free: the owner chooses
    decision = FORMAT.decisions(st)[0]
    assert {c["to"] for c in decision.choices} == {"2,14", "4,14"} and decision.default["to"] == "4,14"
    act(st, {"kind": "step", "to": "2,14"})
    assert at(st, AWAY, 2) == "2,14"
