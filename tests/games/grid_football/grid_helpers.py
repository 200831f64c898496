"""Positions and scripted dice for the grid-football tests, written the way the digest states its cases (§19).

Squares are given as (x, y) in the §2 frame; players by squad number, home = Germany (defends y = 0), away =
Argentina. A position has only the players named on the pitch and nobody in the dugout unless asked for, so
no warm-up question comes before a roll.
"""

from __future__ import annotations

from typing import Any

from games.api import MatchError, MatchEvent
from games.grid_football import rules as R
from games.grid_football.geometry import name, pawn, sq
from games.grid_football.rules import FORMAT, grid_setup
from games.grid_football.state import K_NORMAL, PH_RUN, S_DUGOUT, S_PITCH, S_UNAVAILABLE, GridState
from games.rng import Rng

HOME, AWAY = 0, 1


class Dice(Rng):
    """A generator that rolls the faces it is given, in order, whatever the die (D6, D4, D3)."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randbelow(self, n: int) -> int:
        if not self.faces:
            raise AssertionError("the test scripted too few dice")
        face = self.faces.pop(0)
        assert 1 <= face <= n, f"a D{n} cannot show {face}"
        return face - 1


def position(
    home: dict[int, tuple[int, int]],
    away: dict[int, tuple[int, int]],
    ball: tuple[int, int] | None,
    turn: int = HOME,
    dugout: dict[int, list[int]] | None = None,
    **options: Any,
) -> GridState:
    """A match in play with only the named players on the pitch (keepers are numbers 1 and 20) and, unless
    ``dugout`` says otherwise, each side's number 20 on the bench: a turn then starts with the warm-up
    question, so a test stops there without scripting the next side's roll."""
    st = FORMAT.start(grid_setup(**options), Rng(0))
    for p in range(40):
        st.status[p] = S_UNAVAILABLE
        st.pos[p] = -1
    for side, players in ((HOME, home), (AWAY, away)):
        for n, (x, y) in players.items():
            st.pos[pawn(side, n)] = sq(x, y)
            st.status[pawn(side, n)] = S_PITCH
        keepers = [n for n in players if n in (1, 20)]
        st.keeper[side] = pawn(side, keepers[0]) if keepers else -1
        st.lineup[side] = [*sorted(players), 5, 5, 5, 5]
        for n in (dugout if dugout is not None else {HOME: [20], AWAY: [20]}).get(side, []):
            st.status[pawn(side, n)] = S_DUGOUT
    st.ball = sq(*ball) if ball else -1
    st.turn = turn
    st.opening = HOME
    st.phase = PH_RUN
    st.dec_side = -1
    st.jobs = []
    st.cache = None
    return st


def run(st: GridState, *faces: int) -> list[MatchEvent]:
    """Run the pending jobs with the scripted dice up to the next real decision."""
    ev: list[MatchEvent] = []
    st.cache = None
    R._run(st, Dice(*faces), ev)
    return ev


def turn(st: GridState, *faces: int) -> list[MatchEvent]:
    """The side to move starts a normal turn (§6) with the scripted dice, up to its first decision after the
    roll (no warm-up)."""
    st.jobs = [["turn", st.turn]]
    st.phase = PH_RUN
    st.cache = None
    dice = Dice(*faces)
    events: list[MatchEvent] = []
    R._run(st, dice, events)  # rolls at once when nobody can warm up
    if st.phase != PH_RUN and FORMAT.decisions(st)[0].kind == "warm_up":
        events += FORMAT.apply(st, FORMAT.decisions(st)[0].side, {"kind": "roll"}, dice)
    return events


def dead(st: GridState, restart: list[Any], after_goal: bool = False, *faces: int) -> list[MatchEvent]:
    """A dead moment now (§13) with ``restart`` to follow, up to its first decision."""
    ev: list[MatchEvent] = []
    R._dead(st, ev, restart, after_goal=after_goal)
    st.phase = PH_RUN
    return ev + run(st, *faces)


def next_turn(st: GridState, *faces: int) -> list[MatchEvent]:
    """The side whose turn is starting (at its warm-up question) rolls the scripted dice."""
    assert FORMAT.decisions(st)[0].kind == "warm_up"
    return act(st, {"kind": "roll"}, *faces)


def kick_from(st: GridState, side: int, number: int, budget: int) -> list[MatchEvent]:
    """Player ``number`` of ``side`` stands on the ball and plays it with ``budget`` squares (as after a walk
    onto it)."""
    p = pawn(side, number)
    st.pos[p] = st.ball
    R._new_turn(st, side)
    R._start_play(st, side, p, budget, K_NORMAL)
    return run(st)


def pending(st: GridState) -> tuple[str, str]:
    """The side and kind of the pending decision."""
    ds = FORMAT.decisions(st)
    assert len(ds) == 1, ds
    return ds[0].side, ds[0].kind


def choices(st: GridState) -> list[dict[str, Any]]:
    """The pending decision's choices."""
    return list(FORMAT.decisions(st)[0].choices)


def act(st: GridState, choice: dict[str, Any], *faces: int) -> list[MatchEvent]:
    """Take a decision of the side that has one, with the scripted dice for what follows."""
    side = FORMAT.decisions(st)[0].side
    return FORMAT.apply(st, side, choice, Dice(*faces))


def refused(st: GridState, choice: Any, side: str | None = None, error: type = MatchError) -> str:
    """The message of a refused decision; the state must be unchanged."""
    side = side or FORMAT.decisions(st)[0].side
    before = FORMAT.to_dict(st)
    try:
        FORMAT.apply(st, side, choice, Dice())
    except MatchError as exc:
        assert isinstance(exc, error), exc
        assert FORMAT.to_dict(st) == before
        return str(exc)
    raise AssertionError(f"{choice} was accepted")


def at(st: GridState, side: int, number: int) -> str | None:
    """Where a player stands, as "x,y"."""
    s = st.pos[pawn(side, number)]
    return name(s) if s >= 0 else None


def walk(number: int, x: int, y: int) -> dict[str, Any]:
    return {"kind": "walk", "player": number, "to": f"{x},{y}"}


def kick(*squares: tuple[int, int]) -> dict[str, Any]:
    return {"kind": "kick", "path": ">".join(f"{x},{y}" for x, y in squares)}


def kinds(events: list[MatchEvent]) -> list[str]:
    return [e.kind for e in events]
