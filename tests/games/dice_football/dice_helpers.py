"""Helpers shared by the dice-football tests: a stand-in ``Rng`` that rolls chosen faces, and positions
set up directly (absolute squares, home = S attacking towards row 11 in the first half)."""

from __future__ import annotations

from typing import Any

from games.api import MatchEvent, get_format
from games.dice_football.dice import DIE_INDEX, FACES
from games.dice_football.rules import _begin, dice_setup
from games.dice_football.state import R_NONE, DiceState

FMT = get_format("dice-football")
SIDE = {"home": 0, "away": 1}


def face(die: str, name: str) -> int:
    """Index of the first face called ``name`` on ``die`` (``face("pass", "F3") == 1``)."""
    return FACES[DIE_INDEX[die]].index(name)


class Faces:
    """An ``Rng`` stand-in that returns scripted die faces in order and fails on any unscripted roll."""

    seed = 0
    counter = 0

    def __init__(self, *rolls: tuple[str, str] | int) -> None:
        self.queue = [face(*r) if isinstance(r, tuple) else r for r in rolls]

    def randbelow(self, n: int) -> int:
        assert self.queue, "the engine rolled a die the test did not script"
        v = self.queue.pop(0)
        assert 0 <= v < n, (v, n)
        return v

    def done(self) -> bool:
        return not self.queue


def position(
    ball: tuple[int, int],
    att: str = "home",
    star: tuple[str, str] = ("away", "ASSIST"),
    **fields: Any,
) -> DiceState:
    """A first-half position: ``att`` attacks with the ball on absolute ``ball``; STAR held as given.

    By default the defender holds ASSIST, a face it cannot play, so no STAR window interferes. Option
    keys (``boskov``, ``half_ticks``, ``extra_time_ticks``, ``knockout``) go to the setup, every other key
    is set on the state as it is (``restart=R_GOAL_KICK``, ``must_ctrl=True`` …).
    """
    opts = {k: fields.pop(k) for k in ("boskov", "half_ticks", "extra_time_ticks") if k in fields}
    knockout = fields.pop("knockout", False)
    st = FMT.start(dice_setup(knockout=knockout, toss="away", **opts), Faces(("star", "ASSIST")))
    a = SIDE[att]
    st.att = a
    x, y = ball
    st.bx, st.by = (x, y) if a == 0 else (6 - x, 12 - y)
    st.star = SIDE[star[0]]
    st.face = face("star", star[1])
    st.restart = fields.pop("restart", R_NONE)
    for k, v in fields.items():
        assert hasattr(st, k), k
        setattr(st, k, v)
    _begin(st)
    return st


def play(st: DiceState, side: str, choice: dict[str, Any], *rolls: tuple[str, str]) -> list[MatchEvent]:
    """Apply one decision with exactly these dice rolled."""
    rng = Faces(*rolls)
    ev = FMT.apply(st, side, choice, rng)  # type: ignore[arg-type]
    assert rng.done(), f"scripted rolls left over: {rng.queue}"
    return ev


def roll(die: str, **kw: Any) -> dict[str, Any]:
    return {"kind": "roll", "die": die, **kw}


def ball(st: DiceState) -> list[int]:
    return FMT.view(st, None)["ball"]


def pending(st: DiceState) -> tuple[str, str] | None:
    d = FMT.decisions(st)
    return (d[0].side, d[0].kind) if d else None


def choices(st: DiceState) -> list[dict[str, Any]]:
    return list(FMT.decisions(st)[0].choices)


def dice_allowed(st: DiceState) -> set[str]:
    return {c["die"] for c in choices(st) if c["kind"] == "roll"}


def kinds(events: list[MatchEvent]) -> list[str]:
    return [e.kind for e in events]


def first(events: list[MatchEvent], kind: str) -> MatchEvent:
    return next(e for e in events if e.kind == kind)
