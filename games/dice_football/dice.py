"""The eight dice of dice football as data (digest §3, ruling B-1).

The rulebooks' pictures of the faces are lost; these are the digest's PROPOSED tables, which honour every
constraint the text gives (CONTROL has exactly one "?" and no "X"; LONG has a diagonal 3 and a back-pass 1;
the STAR faces are the text's own). Replace a table here and the engine, the bots' value tables (regenerate
them, ``python -m games.dice_football.values``) and the board drawing follow.

Arrow faces are strings: a direction class and a length (``"F2"`` forward 2, ``"DF1"`` diagonal forward 1,
``"L2"`` sideways 2, ``"B1"`` back 1, ``"DB1"`` diagonal back 1), ``"?"`` or ``"X"``. ``L``, ``DF`` and ``DB``
leave left or right to the roller, chosen after the face is seen (B-43).
"""

from __future__ import annotations

from typing import Any

CONTROL, PASS, LONG, SHOT, DEF, GK, PEN, STAR = range(8)
DIE_NAMES = ("control", "pass", "long", "shot", "def", "gk", "pen", "star")
DIE_INDEX = {name: i for i, name in enumerate(DIE_NAMES)}
ARROW_DICE = (CONTROL, PASS, LONG)

# Results of the non-arrow dice.
ON_TARGET, UNSTOPPABLE, POST, CROSSBAR, OUT = "ON_TARGET", "UNSTOPPABLE", "POST", "CROSSBAR", "OUT"
STEAL, MISS, MISS_OR_OWN_GOAL, CLEAR, FOUL = "STEAL", "MISS", "MISS_OR_OWN_GOAL", "CLEAR", "FOUL"
SAVED, PARRIED, CORNER, NOT_SAVED = "SAVED", "PARRIED", "CORNER", "NOT_SAVED"
GOAL = "GOAL"
LONG_SHOT, ASSIST, PERFECT_SAVE, RECOVERY = "LONG_SHOT", "ASSIST", "PERFECT_SAVE", "RECOVERY"
QUESTION, LOSE = "?", "X"

FACES: tuple[tuple[str, ...], ...] = (
    ("F1", "F2", "DF1", "L1", "B1", QUESTION),  # CONTROL (orange): small steps, one "?"
    ("F2", "F3", "DF2", "L2", QUESTION, QUESTION),  # PASS (red arrow)
    ("F4", "F3", "DF3", "B1", QUESTION, LOSE),  # LONG (violet): the long ball
    (ON_TARGET, ON_TARGET, UNSTOPPABLE, POST, CROSSBAR, OUT),  # SHOT (red)
    (STEAL, STEAL, MISS, MISS_OR_OWN_GOAL, CLEAR, FOUL),  # DEF (blue)
    (SAVED, SAVED, PARRIED, CORNER, NOT_SAVED, NOT_SAVED),  # GK (light blue)
    (GOAL, GOAL, GOAL, PARRIED, CORNER, OUT),  # PEN (black)
    (LONG_SHOT, ASSIST, UNSTOPPABLE, PERFECT_SAVE, RECOVERY, FOUL),  # STAR (white)
)

# STAR faces by role (§11.1): red while attacking, blue while defending, FOUL in both roles.
STAR_ATTACK = frozenset([LONG_SHOT, ASSIST, UNSTOPPABLE, FOUL])
STAR_DEFENCE = frozenset([PERFECT_SAVE, RECOVERY, FOUL])
STAR_COLOUR = {
    LONG_SHOT: "red",
    ASSIST: "red",
    UNSTOPPABLE: "red",
    PERFECT_SAVE: "blue",
    RECOVERY: "blue",
    FOUL: "red+blue",
}

# Direction classes of arrow faces: unit vector for "left" (x' − 1) where the face leaves a choice.
_VECTORS = {"F": (0, 1), "B": (0, -1), "L": (-1, 0), "DF": (-1, 1), "DB": (-1, -1)}
CHOOSES_SIDE = frozenset(["L", "DF", "DB"])


def parse_arrow(face: str) -> tuple[str, int]:
    """``"DF3"`` → ``("DF", 3)``; ``"?"``/``"X"`` → ``(face, 0)``."""
    if face in (QUESTION, LOSE):
        return face, 0
    cls = face.rstrip("0123456789")
    return cls, int(face[len(cls) :])


def vector(cls: str, right: bool) -> tuple[int, int]:
    """The step of a direction class; ``right`` mirrors the classes that leave a choice."""
    dx, dy = _VECTORS[cls]
    return (-dx, dy) if right else (dx, dy)


# Per arrow die and face index: (class, length, needs a left/right choice).
ARROW: tuple[tuple[tuple[str, int, bool], ...], ...] = tuple(
    tuple((*parse_arrow(f), parse_arrow(f)[0] in CHOOSES_SIDE) for f in FACES[d]) for d in ARROW_DICE
)


def _check() -> None:
    """The constraints the rulebooks state (B-1): a table that breaks one is refused at import."""
    for die in range(8):
        assert len(FACES[die]) == 6, DIE_NAMES[die]
    for die in ARROW_DICE:
        for face in FACES[die]:
            cls, n = parse_arrow(face)
            assert cls in (QUESTION, LOSE) or (cls in _VECTORS and 1 <= n <= 4), face
    control = FACES[CONTROL]
    assert control.count(QUESTION) == 1 and LOSE not in control
    assert "DF3" in FACES[LONG] and "B1" in FACES[LONG]
    assert set(FACES[SHOT]) == {ON_TARGET, UNSTOPPABLE, POST, CROSSBAR, OUT}
    assert set(FACES[DEF]) == {STEAL, MISS, MISS_OR_OWN_GOAL, CLEAR, FOUL}
    assert set(FACES[GK]) == {SAVED, PARRIED, CORNER, NOT_SAVED}
    assert set(FACES[PEN]) == {GOAL, PARRIED, CORNER, OUT}
    assert len(set(FACES[STAR])) == 6


_check()


def dice_table() -> dict[str, Any]:
    """The faces as JSON-safe data, for the board drawing and the rules page."""
    return {
        DIE_NAMES[d]: {
            "faces": list(FACES[d]),
            "kind": "arrow" if d in ARROW_DICE else "result",
        }
        for d in range(8)
    } | {"star_colours": dict(STAR_COLOUR)}
