"""The duel's state: one ``__slots__`` object of small ints and lists, plus the constants naming them.

Why this shape: ``apply`` mutates the state in place after validating (bench/duel.py measures the
engine at thousands of matches per second), and ``to_dict`` stores it as plain JSON between actions.
Sides are 0 (home) and 1 (away); a side's cards are indexes into its ``ids``/``stars`` lists, field
players first in team order and the keeper last.
"""

from __future__ import annotations

from typing import Any

from games.api import MalformedDecision

MAX_SWAPS = 3  # D3: at most three swaps per match, extra time included
REGULATION_KICKS = 5  # D6: five rounds before sudden death
LINEUP_SIZE = 10  # rulebook step 2: ten field players in the stack, the eleventh is the reserve
MAX_FIELD = 11  # a team is at most 10 field + 1 reserve + 1 keeper (digest §2)

# phases
LINEUP = 0
WINDOW = 1
OVER = 2
PHASE_NAMES = ("lineup", "window", "over")

# window kinds
W_MAIN = 0  # after a reveal or a swap
W_MOMENT = 1  # inside a Penalty or Corner moment (D5)
W_GOAL = 2  # right after a provisional goal
WINDOW_NAMES = ("main", "moment", "goal")

# moments and how a goal was scored
M_NONE = 0
M_PENALTY = 1
M_CORNER = 2
HOW_NAMES = ("duel", "penalty", "corner")
MOMENT_NAMES = ("", "penalty", "corner")

# periods
P_FIRST = 1
P_SECOND = 2
P_EXTRA = 3
P_SHOOTOUT = 4

# where a modifier sits (play record "loc"): 0/1 = the card in action of that side, 2 = the moment
LOC_MOMENT = 2


class DuelState:
    """The whole state of one duel; JSON round-trip through ``DuelFormat.to_dict``/``from_dict``.

    Sides are 0 (home) and 1 (away). Cards of a side are indexes into ``ids[side]``/``stars[side]``:
    field players ``0..nfield-1`` in team order, the keeper at index ``nfield``.
    """

    __slots__ = (
        "_legal",
        "active",
        "decided_by",
        "eff",
        "et_cards",
        "et_dealt",
        "et_hold",
        "et_played",
        "goal",
        "half_goals",
        "hold",
        "holding",
        "ids",
        "kfirst",
        "kicks",
        "knockout",
        "labels",
        "lineup_reserve",
        "mods",
        "moment",
        "nfield",
        "order",
        "outer",
        "passes",
        "pending",
        "pens",
        "period",
        "phase",
        "plays",
        "reserve",
        "score",
        "serial",
        "spent",
        "stack",
        "stars",
        "swaps",
        "turn",
        "used",
        "winner",
        "wkind",
    )

    # Fields stored by to_dict, in a stable order (everything but the legal-choice cache).
    FIELDS: tuple[str, ...] = tuple(f for f in __slots__ if f != "_legal")

    labels: list[str]
    ids: list[list[str]]  # per side: field ids then keeper id
    stars: list[list[int]]
    nfield: list[int]  # also the keeper's index
    knockout: bool
    holding: list[list[str]]  # match cards brought to the match
    et_cards: list[str]  # MatchSetup.extra_time_cards
    period: int
    phase: int
    pending: list[bool]  # line-up decision pending per side
    order: list[list[int]]  # last chosen order (top first)
    lineup_reserve: list[int]  # last chosen reserve (-1 none)
    stack: list[list[int]]  # cards still to come, next card LAST
    reserve: list[int]  # current reserve (-1 none)
    active: list[int]  # card in action (-1 none)
    mods: list[list[list[Any]]]  # modifiers on the card in action: [serial, card, is_set, value]
    eff: list[int]  # effective stars of the card in action
    kfirst: int  # side whose keeper came into action first (can no longer score), -1 none
    spent: list[list[int]]  # cards that left action this period
    score: list[int]
    swaps: list[int]  # swaps used (free swaps not counted)
    hold: list[list[str]]  # holding cards not yet played
    et_hold: list[list[str]]  # extra-time cards not yet played
    used: list[list[str]]  # holding cards played (box 6)
    et_dealt: list[str]
    et_played: list[list[str]]
    serial: int  # number of match cards played so far (play ids)
    wkind: int
    turn: int
    passes: int  # consecutive passes in the open window
    plays: list[list[Any]]  # plays of the open window: [serial, side, card, kind, loc]
    outer: list[Any] | None  # the main window saved during a moment: [turn, passes, plays]
    moment: list[Any] | None  # [kind, side, serial, header card, mods]
    goal: list[int] | None  # [scorer, how (M_NONE/M_PENALTY/M_CORNER), card, disallowed_by serial or -1]
    pens: list[int] | None
    kicks: list[list[int]]  # penalty series: [side, card, scored]
    winner: int  # -1 none / level
    decided_by: str
    half_goals: list[int]  # per finished period: scoring side or -1


def copy_data(value: Any) -> Any:
    """Deep copy of a JSON-like structure of lists (tuples become lists)."""
    if isinstance(value, list | tuple):
        return [copy_data(v) for v in value]
    if isinstance(value, dict):
        return {k: copy_data(v) for k, v in value.items()}
    return value


def side_index(side: Any) -> int:
    """0 for ``"home"``, 1 for ``"away"``; anything else is a malformed decision."""
    if side == "home":
        return 0
    if side == "away":
        return 1
    raise MalformedDecision(f"unknown side {side!r}; expected 'home' or 'away'", side=side)


def keeper_stars_in_moment(st: DuelState, k: int) -> int:
    """Stars of side ``k``'s keeper before moment modifiers: its effective stars if it is in action."""
    keeper = st.nfield[k]
    return st.eff[k] if st.active[k] == keeper else st.stars[k][keeper]
