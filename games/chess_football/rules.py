"""Chess football (seed 003) behind the ``MatchFormat`` protocol: the pure, deterministic rules engine.

The rules are the digest ``chess-football-003.md`` with its proposals (§2, §3, §13) and rulings X-1..X-40;
RULES.md lists each ruling and the move notation. One move is one whole turn of a side (X-29): moves are
canonical tuples that name their end position, so two ways of playing to the same position (a double pass
and a direct pass) are one move.

Canonical actions (the fast path bots use):

- ``("m", from, to)``: a piece move (a loose ball on ``to`` is picked up, a holding opponent there tackled);
- ``("b", to)``: the holder's ball move (throw, pass, triangulation, goal, keeper short pass or long throw);
- ``("k", red, to)``: the keeper steps onto the ball on his red square and plays it (§9.2, X-17);
- ``("e", piece)``: re-entry of a cautioned piece (§11, X-38);
- ``("c",)`` concede (a penalty), ``("f",)`` forfeit (offside), ``("p",)`` pass (no legal move);
- ``("r", piece, to, inner)``: relocate an offside offender, then play ``inner`` (X-34);
- ``("pen", taker, aim)`` the kicker's and ``("cover", square)`` the keeper's hidden penalty choice (X-18).
"""

from __future__ import annotations

import re
from typing import Any

from games.api import (
    N_,
    Decision,
    IllegalDecision,
    MalformedDecision,
    MatchError,
    MatchEvent,
    MatchResult,
    MatchSetup,
    NotYourDecision,
    Side,
    cardless_result,
    cardless_setup,
    register,
)
from games.chess_football.geometry import (
    BALL_TARGETS,
    CAPTAIN,
    CENTRE,
    DARK,
    DIAG_STEPS,
    GOAL_MIDDLE,
    GOALS,
    HALF,
    KEEPER,
    KIND,
    KIND_LETTERS,
    KING,
    LIGHT,
    LIGHT_SQ,
    LONG_THROW,
    NSQ,
    OUTFIELD_OK,
    OWN_HALF_SQUARES,
    PENALTY_SPOT,
    PIECE_LABEL,
    RAYS,
    RED,
    START,
    STRIP_SKIPS,
    YELLOW,
    ZONE,
    name,
    parse_square,
    xy,
)
from games.chess_football.state import BOX, OFF, P_SHOOTOUT, PH_OVER, PH_PENALTY, PH_PLAY, ChessState, clone
from games.chess_football.state import state_from_dict as _state_from_dict
from games.chess_football.state import state_to_dict as _state_to_dict
from games.rng import Rng

NAMES: tuple[Side, Side] = ("home", "away")
DEFAULT_HALF_MOVES = 40  # §13 PROPOSED: two halves of 40 moves per side
DEFAULT_EXTRA_MOVES = 10  # §13 PROPOSED: extra time 2 x 10 moves per side (knock-out only)
DEFAULT_SHOOTOUT_KICKS = 5  # §13 PROPOSED: 5 penalties per side, then sudden death
MAX_MOVES = 1000
_OPTIONS = {"half_moves", "extra_time_moves", "shootout_kicks", "toss"}
Action = tuple[Any, ...]


class InvalidSetup(MatchError):
    """The options handed to chess football are not a legal match (a platform bug)."""

    code = "invalid_setup"


def chess_setup(
    knockout: bool = False, labels: tuple[str, str] = ("home", "away"), **options: Any
) -> MatchSetup:
    """A ``MatchSetup`` for chess football, which needs no team cards: only labels and options."""
    return cardless_setup(knockout, labels, options)


def _ev(ev: list[MatchEvent], kind: str, data: dict[str, Any], audience: str = "public") -> None:
    ev.append(MatchEvent(kind, data, audience))  # type: ignore[arg-type]


# ====================================================================== board helpers
def occupancy(st: ChessState) -> list[int]:
    """Which piece stands on each square (-1: none)."""
    occ = [-1] * NSQ
    for p, s in enumerate(st.pos):
        if s >= 0:
            occ[s] = p
    return occ


def offenders(st: ChessState, occ: list[int], side: int) -> list[int]:
    """``side``'s offside offenders now (§10, X-20, X-35): its outfield pieces on the opponent's yellow
    squares, unless an opposing outfield piece stands on any yellow square of that end."""
    yellow = YELLOW[1 - side]
    base = 10 * (1 - side)
    for p in range(base + 1, base + 10):
        if st.pos[p] in yellow:
            return []
    base = 10 * side
    return [p for p in range(base + 1, base + 10) if st.pos[p] in yellow]


def _halves(s: int) -> int:
    """Bit set of the halves a square belongs to (the halfway row counts for both, §6.6)."""
    h = HALF[s]
    return 3 if h < 0 else 1 << h


def _landing_ok(side: int, t: int, occ: list[int]) -> bool:
    """§6.3, X-8, X-9, X-26: never an opponent's square, never one's own goal squares."""
    if t in GOALS[side]:
        return False
    o = occ[t]
    return o < 0 or o // 10 == side


def _reentry_square(st: ChessState, occ: list[int], p: int) -> int:
    """X-38: its start square, else the nearest empty square of its colour in its own half (squared
    distance; ties nearer its own goal line, then nearer its own left touchline); -1 if none."""
    start = START[p]
    if occ[start] < 0:
        return start
    side = p // 10
    sx, sy = xy(start)
    best, key = -1, None
    for s in OWN_HALF_SQUARES[side]:
        if occ[s] >= 0 or (KIND[p] != CAPTAIN and LIGHT_SQ[s] != LIGHT_SQ[start]):
            continue
        x, y = xy(s)
        k = (
            (x - sx) ** 2 + (y - sy) ** 2,
            y if side == 0 else 14 - y,
            x if side == 0 else 10 - x,
        )
        if key is None or k < key:
            best, key = s, k
    return best


# ====================================================================== move generation
def _piece_moves(st: ChessState, occ: list[int], side: int, out: list[Action]) -> None:
    """Piece moves of every piece of ``side`` not in possession (§5, §6.5 tackles)."""
    ball = st.ball
    h = occ[ball]
    # a tackle target: an opposing outfield holder who is holding (X-10, X-11, X-27)
    tackle = h if h >= 0 and h // 10 != side and KIND[h] != KEEPER and not st.fresh else -1
    tsq = ball if tackle >= 0 else -1
    pos = st.pos
    base = 10 * side
    for p in range(base, base + 10):
        at = pos[p]
        if at < 0 or at == ball:  # the holder moves the ball only (§4)
            continue
        kind = KIND[p]
        if kind == KEEPER:
            zone = ZONE[side]
            for t in KING[at]:
                if occ[t] < 0 and t in zone:
                    out.append(("m", at, t))
        elif kind == CAPTAIN:
            hf = HALF[at]
            for ray in RAYS[at]:
                for t in ray:
                    if hf >= 0 and HALF[t] == 1 - hf:
                        break  # §5.2: stop on the halfway row first
                    if occ[t] >= 0:
                        if t == tsq:
                            out.append(("m", at, t))
                        break
                    out.append(("m", at, t))
                    if t == ball:
                        break  # X-30
        else:
            for mid, t in DIAG_STEPS[at]:
                if mid >= 0 and (occ[mid] >= 0 or mid == ball):
                    continue  # X-4, X-30
                if occ[t] < 0 or t == tsq:
                    out.append(("m", at, t))
            for skip, t in STRIP_SKIPS[at]:
                if occ[skip] < 0 and (occ[t] < 0 or t == tsq):
                    out.append(("m", at, t))


def _keeper_ball_targets(side: int, frm: int, occ: list[int]) -> list[int]:
    """§7, X-15, X-16: short passes landing in his own half, long throws to the opponent's green squares."""
    out = [t for t in BALL_TARGETS[frm] if HALF[t] == side and _landing_ok(side, t, occ)]
    out += [t for t in LONG_THROW[side] if occ[t] < 0 or occ[t] // 10 == side]
    return out


def _ball_targets(st: ChessState, occ: list[int], side: int, h: int) -> list[int]:
    """Every end square of the holder's ball move: throws, passes, goals and triangulations (§6, X-29)."""
    frm = st.ball
    if KIND[h] == KEEPER:
        return _keeper_ball_targets(side, frm, occ)
    targets: list[int] = []
    seen: set[int] = set()
    mates: list[int] = []
    goals = GOALS[1 - side]
    scored = False
    for t in BALL_TARGETS[frm]:
        if not _landing_ok(side, t, occ):
            continue
        if t in goals:  # every goal ends in the same position: one move (X-29), the first goal square
            if scored:
                continue
            scored = True
        o = occ[t]  # a keeper team-mate is never on an own goal square here (X-26)
        targets.append(t)
        seen.add(t)
        if o >= 0 and KIND[o] != KEEPER:
            mates.append(t)
    # §6.6, X-13: X -> Y -> Z in one move, all three squares in one half, Z a team-mate, no keeper
    hx = _halves(frm)
    for y in mates:
        hxy = hx & _halves(y)
        if not hxy:
            continue
        for z in BALL_TARGETS[y]:
            o = occ[z]
            if (
                o >= 0
                and o // 10 == side
                and z != frm
                and KIND[o] != KEEPER
                and hxy & _halves(z)
                and z not in seen
            ):
                seen.add(z)
                targets.append(z)
    return targets


def ordinary_moves(st: ChessState, occ: list[int], side: int) -> list[Action]:
    """Every move of ``side`` with no obligation in force (§4): ball moves, piece moves, re-entries."""
    out: list[Action] = []
    h = occ[st.ball]
    if h >= 0 and h // 10 == side:
        out += [("b", t) for t in _ball_targets(st, occ, side, h)]
    _piece_moves(st, occ, side, out)
    if st.cards[side] < 2:
        for p in range(10 * side, 10 * side + 10):
            if st.pos[p] == BOX and _reentry_square(st, occ, p) >= 0:
                out.append(("e", p))
    return out


def _plain_moves(st: ChessState, occ: list[int], side: int) -> list[Action]:
    """The moves with the offside obligation applied (X-22, X-31, X-35), or the pass (§4)."""
    offs = offenders(st, occ, side)
    moves = ordinary_moves(st, occ, side)
    if offs:
        yellow = YELLOW[1 - side]
        squares = {st.pos[p] for p in offs}
        holder_off = occ[st.ball] in offs
        moves = [
            a
            for a in moves
            if (a[0] == "m" and a[1] in squares and a[2] not in yellow) or (a[0] == "b" and holder_off)
        ]
        moves.append(("f",))
    elif not moves:
        moves.append(("p",))
    return moves


def relocation_targets(st: ChessState, occ: list[int], p: int) -> list[int]:
    """X-19, X-34: empty squares of the offender's colour (any for the captain) in its own half, not the
    loose ball's square."""
    side = p // 10
    light = LIGHT_SQ[st.pos[p]]
    return [
        s
        for s in OWN_HALF_SQUARES[side]
        if occ[s] < 0 and s != st.ball and (KIND[p] == CAPTAIN or LIGHT_SQ[s] == light)
    ]


def _relocated(st: ChessState, p: int, t: int) -> ChessState:
    c = clone(st)
    c.pos[p] = t
    c.relocate = False
    return c


def legal_moves(st: ChessState) -> list[Action]:
    """Every legal move of the side to move in play (one per end position, X-29)."""
    side = st.turn
    occ = occupancy(st)
    if st.red >= 0:  # §9.2, X-17, X-31, X-32, X-36: clear it with the keeper or concede
        moves: list[Action] = []
        k = 10 * side
        ks, red = st.pos[k], st.red
        (kx, ky), (rx, ry) = xy(ks), xy(red)
        if max(abs(kx - rx), abs(ky - ry)) <= 1:
            occ[ks] = -1
            occ[red] = k
            moves = [("k", red, t) for t in _keeper_ball_targets(side, red, occ)]
        moves.append(("c",))
        return moves
    if st.relocate:  # X-34: relocate one of the other side's offenders, then a full move
        out: list[Action] = []
        for p in offenders(st, occ, 1 - side):
            targets = relocation_targets(st, occ, p)
            if not targets:
                continue
            # The moves after a relocation to t are the moves with the offender off the board, less those
            # whose piece or ball would land on t or pass over it (a piece there only ever blocks); unless
            # t is a yellow square of the other side's end and we have offenders there, whom it exempts
            # (X-20): then they are generated in full. The same moves in the same order as generating each
            # list in full, at a fraction of the cost.
            off_st = _relocated(st, p, OFF)
            off_occ = occupancy(off_st)
            base = _plain_moves(off_st, off_occ, side)
            touched = [_touched(a) for a in base]
            yellow = YELLOW[1 - side] if offenders(off_st, off_occ, side) else ()
            for t in targets:
                if t in yellow:
                    inner_st = _relocated(st, p, t)
                    inner = _plain_moves(inner_st, occupancy(inner_st), side)
                else:
                    bit = 1 << t
                    inner = [a for a, m in zip(base, touched, strict=True) if not m & bit] or [("p",)]
                out += [("r", p, t, a) for a in inner]
        if out:
            return out
    return _plain_moves(st, occ, side)


def _touched(a: Action) -> int:
    """Bit set of the squares a move's piece lands on or passes over (every piece moves along a line), or
    its ball lands on."""
    if a[0] == "b":
        return 1 << a[1]
    if a[0] != "m":
        return 0
    frm, to = a[1], a[2]
    (fx, fy), (tx, ty) = xy(frm), xy(to)
    step = 10 * ((ty > fy) - (ty < fy)) + (tx > fx) - (tx < fx)
    mask = 0
    while frm != to:
        frm += step
        mask |= 1 << frm
    return mask


def takers(st: ChessState, side: int) -> list[int]:
    """X-33: the pieces that may take a penalty: light pieces and the captain on the board."""
    return [p for p in range(10 * side + 1, 10 * side + 10) if st.pos[p] >= 0 and KIND[p] in (CAPTAIN, LIGHT)]


def penalty_actions(st: ChessState, side: int) -> list[Action]:
    """The hidden penalty choices of ``side`` (X-18): the kicker's taker and aim, the keeper's cover."""
    goal = sorted(GOALS[1 - st.pen_side])
    if side == st.pen_side:
        who = takers(st, side) if st.period != P_SHOOTOUT else [-1]
        return [("pen", p, g) for p in who for g in goal]
    return [("cover", g) for g in goal]


# ====================================================================== notation
_PIECE_RE = re.compile(r"^([KCDL])([a-i]\d{1,2})([-x])([a-i]\d{1,2})$")
_BALL_RE = re.compile(r"^([a-i]\d{1,2})>([a-i]\d{1,2})$")
_CLEAR_RE = re.compile(r"^K([a-i]\d{1,2})-([a-i]\d{1,2})>([a-i]\d{1,2})$")
_ENTRY_RE = re.compile(r"^\+(C|[DL][1-4])([a-i]\d{1,2})$")
_RELOC_RE = re.compile(r"^([a-i]\d{1,2})=([a-i]\d{1,2});(.+)$")
_WORDS = {"concede": ("c",), "forfeit": ("f",), "pass": ("p",)}


def notation(st: ChessState, a: Action, occ: list[int] | None = None) -> str:
    """Our compact text of a move (RULES.md, "Move notation"); ``occ``: the position's ``occupancy`` when
    the caller has it (a decision words every legal move)."""
    k = a[0]
    if k == "m":
        p = (occ if occ is not None else occupancy(st))[a[1]]
        sep = "x" if a[2] in st.pos else "-"
        return f"{KIND_LETTERS[KIND[p]]}{name(a[1])}{sep}{name(a[2])}"
    if k == "b":
        return f"{name(st.ball)}>{name(a[1])}"
    if k == "k":
        return f"K{name(st.pos[10 * st.turn])}-{name(a[1])}>{name(a[2])}"
    if k == "e":
        return f"+{PIECE_LABEL[a[1]]}{name(_reentry_square(st, occupancy(st), a[1]))}"
    if k == "r":
        return f"{name(st.pos[a[1]])}={name(a[2])};{notation(_relocated(st, a[1], a[2]), a[3])}"
    if k == "pen":
        return f"penalty {PIECE_LABEL[a[1]] if a[1] >= 0 else ''}>{name(a[2])}".replace(" >", ">")
    if k == "cover":
        return f"cover {name(a[1])}"
    return {"c": "concede", "f": "forfeit", "p": "pass"}[k]


def _action_dict(st: ChessState, a: Action, occ: list[int] | None = None) -> dict[str, Any]:
    if a[0] == "pen":
        d: dict[str, Any] = {"kind": "penalty", "aim": name(a[2])}
        if a[1] >= 0:
            d["taker"] = PIECE_LABEL[a[1]]
        return d
    if a[0] == "cover":
        return {"kind": "cover", "square": name(a[1])}
    return {"kind": "move", "move": notation(st, a, occ)}


# ====================================================================== the format
class ChessFootballFormat:
    """Chess football behind the ``MatchFormat`` protocol; stateless, so one instance serves every match."""

    key = "chess-football"

    # ------------------------------------------------------------------ protocol
    def start(self, setup: MatchSetup, rng: Rng) -> ChessState:
        """A new match, kicked off (§3): the first move is pending."""
        return self.start_with_events(setup, rng)[0]

    def start_with_events(self, setup: MatchSetup, rng: Rng) -> tuple[ChessState, list[MatchEvent]]:
        """``start`` plus the events of the toss and the kick-off."""
        options = dict(getattr(setup, "options", None) or {})
        unknown = sorted(set(options) - _OPTIONS)
        if unknown:
            raise InvalidSetup(f"unknown chess-football options: {', '.join(unknown)}", options=unknown)
        knockout = bool(setup.knockout)
        values = {
            "half_moves": options.get("half_moves", DEFAULT_HALF_MOVES),
            "extra_time_moves": options.get("extra_time_moves", DEFAULT_EXTRA_MOVES if knockout else 0),
            "shootout_kicks": options.get("shootout_kicks", DEFAULT_SHOOTOUT_KICKS),
        }
        for key, value in values.items():
            low = 1 if key != "extra_time_moves" else 0
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= MAX_MOVES:
                raise InvalidSetup(f"{key} must be an integer from {low} to {MAX_MOVES}", option=key)
        toss = options.get("toss")
        if toss not in (None, "home", "away"):
            raise InvalidSetup("toss is 'home', 'away' or absent (then it is drawn)", option="toss")
        first = rng.randbelow(2) if toss is None else NAMES.index(toss)
        st = ChessState(
            labels=[setup.home.label, setup.away.label],
            knockout=knockout,
            half_moves=values["half_moves"],
            extra_moves=values["extra_time_moves"],
            shootout_kicks=values["shootout_kicks"],
            first=first,
            period=1,
            plies=0,
            turn=first,
            pos=list(START),
            ball=CENTRE,
            fresh=True,
            score=[0, 0],
            cards=[0, 0],
            red=-1,
            relocate=False,
            phase=PH_PLAY,
            pen_side=-1,
            pen_choice=[None, None],
            pens=None,
            kicks=[],
            winner=-1,
            decided_by="",
            last="",
            moves=(),
        )
        ev: list[MatchEvent] = []
        _ev(ev, "toss", {"winner": NAMES[first]})
        _kickoff(st, ev, first)
        return st, ev

    def decisions(self, state: ChessState) -> list[Decision]:
        """The pending decisions: the side to move's, or both sides' hidden penalty choices (X-18)."""
        st = state
        if st.phase == PH_OVER:
            return []
        if st.phase == PH_PENALTY:
            out = []
            for side in (st.pen_side, 1 - st.pen_side):
                if st.pen_choice[side] is None:
                    acts = penalty_actions(st, side)
                    choices = tuple(_action_dict(st, a) for a in acts)
                    kind = "penalty" if side == st.pen_side else "cover"
                    opts = {"shootout": st.period == P_SHOOTOUT, "kicker": NAMES[st.pen_side]}
                    out.append(
                        Decision(NAMES[side], kind, choices, _penalty_default(st, kind, choices), opts)
                    )
            return sorted(out, key=lambda d: d.side)
        acts = legal_moves(st)
        occ = occupancy(st)
        choices = tuple(_action_dict(st, a, occ) for a in acts)
        return [
            Decision(
                NAMES[st.turn],
                "move",
                choices,
                dict(choices[_default_index(st, acts)]),
                {"red_obligation": name(st.red) if st.red >= 0 else None, "relocate": st.relocate},
            )
        ]

    def apply(self, state: ChessState, side: Side, choice: dict[str, Any], rng: Rng) -> list[MatchEvent]:
        """Apply one decision of ``side`` and run the match on to the next decision.

        :raises MalformedDecision: unknown side, or a choice that is not a decision of a known shape.
        :raises NotYourDecision: the match is over, or ``side`` has no decision pending.
        :raises IllegalDecision: well-formed but not legal now; the message says why (offside, colour …).

        Nothing changes when an error is raised: the choice is validated in full first.
        """
        action = _validate(state, side, choice)
        return self.apply_action(state, action, rng)

    def result(self, state: ChessState) -> MatchResult | None:
        """The result once the match is over; the card fields are empty (chess football has no cards)."""
        st = state
        if st.phase != PH_OVER:
            return None
        return cardless_result(st.score, NAMES[st.winner] if st.winner >= 0 else None, st.decided_by, st.pens)

    def view(self, state: ChessState, side: Side | None, reveal_all: bool = False) -> dict[str, Any]:
        """What ``side`` may see (``None``: spectators): everything but the other side's unrevealed
        penalty choice (X-18); see ``view.py``."""
        from games.chess_football.view import project

        return project(self, state, side, reveal_all)

    def to_dict(self, state: ChessState) -> dict[str, Any]:
        """The full state as JSON-safe data."""
        data = _state_to_dict(state)
        data["format"] = self.key
        return data

    def from_dict(self, data: dict[str, Any]) -> ChessState:
        """Inverse of ``to_dict``."""
        if not isinstance(data, dict) or data.get("format") != self.key:
            raise MalformedDecision("not a stored chess-football state")
        return _state_from_dict(data)

    def clone(self, state: ChessState) -> ChessState:
        """An independent copy of a state (cheaper than a ``to_dict``/``from_dict`` round trip)."""
        return clone(state)

    def to_act(self, state: ChessState) -> int:
        """Index of a side whose decision is pending (-1 when over); in a penalty the kicker first."""
        st = state
        if st.phase == PH_OVER:
            return -1
        if st.phase == PH_PENALTY:
            return st.pen_side if st.pen_choice[st.pen_side] is None else 1 - st.pen_side
        return st.turn

    def legal_actions(self, state: ChessState) -> tuple[Action, ...]:
        """The legal canonical actions of the side ``to_act`` names (what ``decisions`` lists, as dicts)."""
        st = state
        if st.phase == PH_PLAY:
            return tuple(legal_moves(st))
        if st.phase == PH_PENALTY:
            return tuple(penalty_actions(st, self.to_act(st)))
        return ()

    def apply_action(self, state: ChessState, action: Action, rng: Rng) -> list[MatchEvent]:
        """Apply a canonical action from ``legal_actions`` (not validated again: only for legal tuples)."""
        ev: list[MatchEvent] = []
        if action[0] in ("pen", "cover"):
            _choose_penalty(state, action, ev)
        else:
            _play(state, action, ev)
        return ev

    def action_dict(self, action: Action, state: ChessState) -> dict[str, Any]:
        """The decision dict of a canonical action (what ``apply`` accepts)."""
        return _action_dict(state, action)


def _penalty_default(st: ChessState, kind: str, choices: tuple[dict[str, Any], ...]) -> dict[str, Any]:
    """CF-11: the keeper covers the middle; the kicker aims at the middle in play, and in the shoot-out at
    the goal squares in turn (d, e, f by the kicks taken), so that two sides taking only defaults (decision
    timers, absent players, plain bots) still end a shoot-out instead of missing for ever."""
    column = "e"
    if kind == "penalty" and st.period == P_SHOOTOUT:
        column = "def"[len(st.kicks) % 3]
    return dict(next(c for c in choices if c.get("aim", c.get("square", ""))[0] == column))


def _default_index(st: ChessState, acts: list[Action]) -> int:
    """The plain choice: a goal if there is one, else the first move that is not a void move."""
    goals = GOALS[1 - st.turn]
    for i, a in enumerate(acts):
        if a[0] == "b" and a[1] in goals:
            return i
    for i, a in enumerate(acts):
        if a[0] not in ("c", "f"):
            return i
    return 0


# ====================================================================== validation
# Every refusal a player can meet is an ``N_``-marked msgid with ``%(name)s`` placeholders and its values
# (``games.api.MatchError``'s ``words``): the platform says it in the reader's language.
Reason = tuple[str, dict[str, Any]]


def _side_index(side: Any) -> int:
    if side == "home":
        return 0
    if side == "away":
        return 1
    raise MalformedDecision(f"unknown side {side!r}; expected 'home' or 'away'", side=repr(side)[:40])


_SHAPES = {
    "move": N_("a move is {'kind': 'move', 'move': '<notation>'}"),
    "penalty": N_("a penalty is {'kind': 'penalty', 'aim': 'd14', 'taker': 'L1'}"),
    "cover": N_("a keeper's choice is {'kind': 'cover', 'square': 'e0'}"),
}
_ASKED = {
    "penalty": N_("a penalty choice is asked of you now: the taker and the goal square you aim at"),
    "cover": N_("a keeper's choice is asked of you now: the goal square your keeper covers"),
}
_NOT_ASKED = {
    "penalty": N_("no penalty choice is asked now: it is a move"),
    "cover": N_("no keeper's choice is asked now: it is a move"),
}


def _validate(st: ChessState, side: Any, choice: Any) -> Action:
    """Check a decision completely; returns the canonical action. Raises, changing nothing."""
    s = _side_index(side)
    if not isinstance(choice, dict) or not isinstance(choice.get("kind"), str):
        raise MalformedDecision(N_("a decision is a dict with a string 'kind'"), choice=repr(choice)[:200])
    kind = choice["kind"]
    if kind == "move":
        ok = set(choice) == {"kind", "move"} and isinstance(choice["move"], str)
    elif kind == "penalty":
        ok = set(choice) <= {"kind", "aim", "taker"} and isinstance(choice.get("aim"), str)
    elif kind == "cover":
        ok = set(choice) == {"kind", "square"} and isinstance(choice["square"], str)
    else:
        raise MalformedDecision(N_("unknown decision kind “%(kind)s”"), words={"kind": kind[:40]})
    if not ok:
        raise MalformedDecision(_SHAPES[kind])
    if st.phase == PH_OVER:
        raise NotYourDecision(N_("the match is over: no decision can be taken"), side=side)
    if st.phase == PH_PENALTY:
        waiting = [i for i in (0, 1) if st.pen_choice[i] is None]
        if s not in waiting:
            raise NotYourDecision(N_("you have already made your penalty choice"), side=side)
        want = "penalty" if s == st.pen_side else "cover"
        if kind != want:
            raise IllegalDecision(_ASKED[want], reason="wrong_kind")
        for a in penalty_actions(st, s):
            if _action_dict(st, a) == choice:
                return a
        raise IllegalDecision(
            N_("aim at one of the three goal squares with a light piece or the captain on the board (X-33)")
            if want == "penalty"
            else N_("cover one of your three goal squares"),
            reason="not_a_goal_square",
        )
    if s != st.turn:
        raise NotYourDecision(f"it is {NAMES[st.turn]}'s move now, not {side}'s", side=side)
    if kind != "move":
        raise IllegalDecision(_NOT_ASKED[kind], reason="wrong_kind")
    text = choice["move"].strip()
    acts = legal_moves(st)
    for a in acts:
        if notation(st, a) == text:
            return a
    goal = _other_goal_square(st, acts, text)
    if goal is not None:
        return goal
    msgid, words = illegal_reason(st, text)
    raise IllegalDecision(msgid, words=words, reason="illegal_move", move=text[:40])


def _other_goal_square(st: ChessState, acts: list[Action], text: str) -> Action | None:
    """A shot at another free goal square the ball reaches is the same move as the listed goal (X-29)."""
    m = _BALL_RE.match(text)
    goals = GOALS[1 - st.turn]
    listed = [a for a in acts if a[0] == "b" and a[1] in goals]
    if not m or not listed or parse_square(m.group(1)) != st.ball:
        return None
    t = parse_square(m.group(2))
    if t in goals and t in BALL_TARGETS[st.ball] and t not in st.pos:
        return listed[0]
    return None


def why_illegal(st: ChessState, text: str) -> str:
    """An English sentence saying why a move in our notation is not legal now (``illegal_reason`` worded).

    :raises MalformedDecision: the text is not a move in our notation.
    """
    msgid, words = illegal_reason(st, text)
    return msgid % words if words else msgid


_WRONG_KIND = {
    KEEPER: N_("the piece on %(square)s is your keeper (K), not %(letter)s"),
    CAPTAIN: N_("the piece on %(square)s is your captain (C), not %(letter)s"),
    DARK: N_("the piece on %(square)s is a dark piece (D), not %(letter)s"),
    LIGHT: N_("the piece on %(square)s is a light piece (L), not %(letter)s"),
}
_OWN_COLOUR = {
    DARK: N_("a dark piece stays on squares of its own colour (§5.1)"),
    LIGHT: N_("a light piece stays on squares of its own colour (§5.1)"),
}


def illegal_reason(st: ChessState, text: str) -> Reason:
    """Why a move in our notation is not legal now: an ``N_``-marked msgid and its values.

    :raises MalformedDecision: the text is not a move in our notation.
    """
    if not any(r.match(text) for r in (_PIECE_RE, _BALL_RE, _CLEAR_RE, _ENTRY_RE, _RELOC_RE)) and (
        text not in _WORDS
    ):
        raise MalformedDecision(
            N_("“%(move)s” is not a move in our notation (the rules, §10)"), words={"move": text[:40]}
        )
    side = st.turn
    occ = occupancy(st)
    if st.red >= 0 and not text.startswith("K") and text != "concede":
        return (
            N_(
                "the ball is on your red square %(square)s: your keeper must play it away this move, "
                "or you concede a penalty (§9.2)"
            ),
            {"square": name(st.red)},
        )
    if text in _WORDS or (st.relocate and not _RELOC_RE.match(text)):
        return _void_reason(st, text), {}
    offs = offenders(st, occ, side)
    m = _PIECE_RE.match(text)
    if m:
        return _piece_reason(st, occ, offs, m)
    m = _BALL_RE.match(text)
    if m:
        return _ball_reason(st, occ, offs, m)
    if _ENTRY_RE.match(text):
        if st.cards[side] >= 2:
            return N_("both admonition cards are used: a cautioned piece cannot come back (§11)"), {}
        return N_("that piece is not in your admonition box, or re-enters on another square (X-38)"), {}
    if _CLEAR_RE.match(text):
        if st.red < 0:
            return N_("the keeper's step-and-play is only for a ball on your red square (§9.2)"), {}
        return N_("your keeper cannot reach the ball and play it there in one move: concede (§9.2, X-32)"), {}
    if not st.relocate:
        return N_("there is no offside offender to relocate (X-34)"), {}
    return (
        N_(
            "relocate an offender to an empty square of its colour in its own half, then make a legal "
            "move (X-34)"
        ),
        {},
    )


def _void_reason(st: ChessState, text: str) -> str:
    """Why a void move (or any move but a relocation when one is due) is refused."""
    if text == "concede":
        return N_("there is no red-square obligation to concede (§9.2)")
    if text == "forfeit":
        return N_("none of your pieces is offside, so there is no move to forfeit (§10)")
    if text == "pass":
        return N_("you may pass only when you have no legal move (§4)")
    return N_("the other side forfeited an offside move: relocate one of its offenders first (X-34)")


def _piece_reason(st: ChessState, occ: list[int], offs: list[int], m: re.Match[str]) -> Reason:
    side = st.turn
    frm, to = parse_square(m.group(2)), parse_square(m.group(4))
    if frm is None or to is None:
        return N_("that square is not on the board"), {}
    p = occ[frm]
    if p < 0 or p // 10 != side:
        return N_("you have no piece on %(square)s"), {"square": name(frm)}
    kind = KIND[p]
    if KIND_LETTERS[kind] != m.group(1):
        return _WRONG_KIND[kind], {"square": name(frm), "letter": m.group(1)}
    if st.ball == frm:
        return N_("a piece in possession cannot move itself, only the ball (§4)"), {}
    if kind == KEEPER and to not in ZONE[side]:
        return N_("the keeper may not leave his keeper zone (§5.3)"), {}
    if kind != KEEPER and not OUTFIELD_OK[to]:
        return N_("outfield pieces may not enter a red or a goal square (§5, X-7)"), {}
    if kind in (LIGHT, DARK) and LIGHT_SQ[to] != LIGHT_SQ[frm]:
        return _OWN_COLOUR[kind], {}
    if kind == CAPTAIN and HALF[frm] >= 0 and HALF[to] == 1 - HALF[frm]:
        return N_("the captain must stop on the halfway row before he enters the other half (§5.2)"), {}
    if offs and p not in offs:
        return _offside_reason(st, offs)
    o = occ[to]
    if o >= 0 and (o != occ[st.ball] or o // 10 == side):
        return N_("%(square)s is occupied"), {"square": name(to)}
    if o >= 0 and KIND[o] == KEEPER:
        return N_("the keeper cannot be tackled (X-27)"), {}
    if o >= 0:
        return N_(
            "that opponent got the ball only just now: he cannot be tackled before he holds it (X-11)"
        ), {}
    if offs and to in YELLOW[1 - side]:
        return _offside_reason(st, offs)
    return (
        N_("that piece cannot reach %(square)s in one move (its pattern, or a piece or the ball in the way)"),
        {"square": name(to)},
    )


def _ball_reason(st: ChessState, occ: list[int], offs: list[int], m: re.Match[str]) -> Reason:
    side = st.turn
    frm, to = parse_square(m.group(1)), parse_square(m.group(2))
    h = occ[st.ball]
    if h < 0 or h // 10 != side or frm != st.ball:
        return N_("none of your pieces has the ball there"), {}
    if to is None:
        return N_("the ball must land on the board (X-25)"), {}
    if offs and h not in offs:
        return _offside_reason(st, offs)
    if to in GOALS[side]:
        return N_("the ball may not be played onto your own goal squares (X-8)"), {}
    if occ[to] >= 0 and occ[to] // 10 != side:
        return N_("the ball may not land on a square an opponent occupies (X-8, X-9)"), {}
    if KIND[h] == KEEPER:
        return (
            N_(
                "the keeper's short pass must land in his own half (X-15) and his long throw on a green "
                "square of the other half that is not circled, yellow or red (X-16)"
            ),
            {},
        )
    if occ[to] >= 0 and KIND[occ[to]] == KEEPER:
        return N_(
            "a pass to your keeper is allowed only while he stands on a circled or red square (X-26)"
        ), {}
    return (
        N_(
            "the ball goes 1 to 4 squares straight or an L of 2+1 or 3+1; a double pass needs all three "
            "squares in one half and a team-mate at the end (§6.2, §6.6)"
        ),
        {},
    )


def _offside_reason(st: ChessState, offs: list[int]) -> Reason:
    return (
        N_(
            "offside: move your piece off the opponent's yellow squares (%(squares)s) or play the ball with "
            "it, or forfeit the move (§10, X-35)"
        ),
        {"squares": ", ".join(name(st.pos[p]) for p in offs)},
    )


# ====================================================================== the flow
def _caution(st: ChessState, p: int, ev: list[MatchEvent]) -> None:
    """§11, C-15: the cautioned piece goes to its box, or off for good once both cards are used."""
    side = p // 10
    sent_off = st.cards[side] >= 2
    st.pos[p] = OFF if sent_off else BOX
    _ev(ev, "send_off" if sent_off else "caution", {"side": NAMES[side], "piece": PIECE_LABEL[p], "id": p})


def _ball_move(st: ChessState, side: int, t: int, occ: list[int], ev: list[MatchEvent]) -> bool:
    """The ball goes to ``t``; returns whether ``side`` gained possession by it (a pass)."""
    if t in GOALS[1 - side]:
        _goal(st, side, ev)
        return False
    st.ball = t
    if occ[t] >= 0:
        return True
    if t in RED[1 - side]:
        st.red = t  # §9.1: the other side's keeper must clear it on its next move
        _ev(ev, "red_square", {"side": NAMES[1 - side], "square": name(t)})
    return False


def _play(st: ChessState, a: Action, ev: list[MatchEvent]) -> None:
    """The effect of one legal move of the side to move, then the clock (X-29: one whole turn)."""
    side = st.turn
    text = notation(st, a)
    st.last = text
    _ev(ev, "move", {"side": NAMES[side], "move": text, "period": st.period, "ply": st.plies + 1})
    period, goals = st.period, st.score[side]
    st.red = -1
    st.relocate = False
    if a[0] == "r":
        p, t = a[1], a[2]
        _ev(ev, "relocation", {"side": NAMES[1 - side], "piece": PIECE_LABEL[p], "id": p, "to": name(t)})
        st.pos[p] = t  # a relocated holder leaves the ball loose where it was (X-34)
        a = a[3]
    gained = _move_effect(st, side, a, ev)
    st.moves = (*st.moves, (period, side, text, st.score[side] > goals))
    if st.phase == PH_PLAY and st.turn == side:
        h = occupancy(st)[st.ball]
        if h >= 0 and h // 10 == side and not gained:
            st.fresh = False  # X-11, X-37: his side moved without playing the ball
        if a[0] == "c":
            _award_penalty(st, 1 - side, ev)
        else:
            st.turn = 1 - side
    _tick(st, ev)


def _move_effect(st: ChessState, side: int, a: Action, ev: list[MatchEvent]) -> bool:
    """Apply a move's change of the board; returns whether ``side`` gained the ball with it."""
    k = a[0]
    occ = occupancy(st)
    if k == "m":
        p, t = occ[a[1]], a[2]
        o = occ[t]
        st.pos[p] = t
        if o >= 0:  # a tackle (§6.5): the holder is cautioned, the tackler holds, fresh (X-12)
            _ev(ev, "tackle", {"side": NAMES[side], "piece": PIECE_LABEL[p], "square": name(t)})
            _caution(st, o, ev)
        if t == st.ball:
            st.fresh = True
            return True
        return False
    if k == "b":
        gained = _ball_move(st, side, a[1], occ, ev)
        if gained:
            st.fresh = True
        return gained
    if k == "k":
        keeper = 10 * side
        occ[st.pos[keeper]] = -1
        st.pos[keeper] = a[1]
        occ[a[1]] = keeper
        gained = _ball_move(st, side, a[2], occ, ev)
        if gained:
            st.fresh = True
        return gained
    if k == "e":
        p = a[1]
        t = _reentry_square(st, occ, p)
        st.pos[p] = t
        st.cards[side] += 1
        _ev(ev, "reentry", {"side": NAMES[side], "piece": PIECE_LABEL[p], "id": p, "square": name(t)})
        if t == st.ball:
            st.fresh = True
            return True
        return False
    if k == "f":
        _ev(ev, "offside_forfeit", {"side": NAMES[side]})
        st.relocate = True
    elif k == "c":
        _ev(ev, "concede", {"side": NAMES[side]})
    return False


def _award_penalty(st: ChessState, kicker: int, ev: list[MatchEvent]) -> None:
    """X-32, X-33: the awarded side's next move is the penalty; without a taker the keeper gets the ball."""
    if not takers(st, kicker):
        keeper = 10 * (1 - kicker)
        st.pos[keeper] = GOAL_MIDDLE[1 - kicker]
        st.ball = st.pos[keeper]
        st.fresh = True
        _ev(ev, "penalty_void", {"side": NAMES[kicker]})
        return  # the awarded side's move is spent (the ply is counted in _tick), the defenders move
    _ev(ev, "penalty_awarded", {"side": NAMES[kicker]})
    st.phase = PH_PENALTY
    st.pen_side = kicker
    st.pen_choice = [None, None]
    st.turn = kicker


def choice_dict(st: ChessState, side: int) -> dict[str, Any] | None:
    """A side's recorded penalty choice as the decision it made (None: not chosen yet)."""
    ch = st.pen_choice[side]
    if ch is None:
        return None
    return _action_dict(st, ("pen", ch[0], ch[1]) if side == st.pen_side else ("cover", ch[0]))


def _choose_penalty(st: ChessState, a: Action, ev: list[MatchEvent]) -> None:
    """Record one side's hidden choice (X-18); once both are in, reveal and resolve."""
    side = st.pen_side if a[0] == "pen" else 1 - st.pen_side
    st.pen_choice[side] = [a[1], a[2]] if a[0] == "pen" else [a[1]]
    _ev(ev, "penalty_choice", {"side": NAMES[side], "choice": choice_dict(st, side)}, NAMES[side])
    _ev(ev, "penalty_chosen", {"side": NAMES[side]})
    if st.pen_choice[0] is None or st.pen_choice[1] is None:
        return
    kicker = st.pen_side
    taker, aim = st.pen_choice[kicker] or [-1, -1]
    cover = (st.pen_choice[1 - kicker] or [-1])[0]
    scored = aim != cover
    st.pen_choice = [None, None]
    st.phase = PH_PLAY
    data = {"side": NAMES[kicker], "aim": name(aim), "cover": name(cover), "scored": scored}
    if st.period == P_SHOOTOUT:
        st.kicks.append([kicker, aim, cover, int(scored)])
        if st.pens is not None and scored:
            st.pens[kicker] += 1
        _ev(ev, "shootout_kick", {**data, "pens": list(st.pens or [0, 0])})
        _next_kick(st, ev)
        return
    data["taker"] = PIECE_LABEL[taker]
    _ev(ev, "penalty", data)
    st.last = f"penalty {PIECE_LABEL[taker]}>{name(aim)} cover {name(cover)}"
    st.moves = (*st.moves, (st.period, kicker, st.last, scored))
    if scored:
        _goal(st, kicker, ev)
    else:  # X-32, X-33: reset, the taker on the spot, the keeper holds on the covered square, fresh
        _reset(st)
        defender = 1 - kicker
        spot = PENALTY_SPOT[defender]
        if st.pos[taker] >= 0:
            st.pos[taker] = spot
        st.pos[10 * defender] = cover
        st.ball = cover
        st.fresh = True
        st.turn = defender
    _tick(st, ev)


def _reset(st: ChessState) -> None:
    """X-39: pieces on the board go back to their start squares; boxed and sent-off pieces stay."""
    for p, s in enumerate(st.pos):
        if s >= 0:
            st.pos[p] = START[p]
    st.red = -1
    st.relocate = False


def _kickoff(st: ChessState, ev: list[MatchEvent], side: int) -> None:
    """§3, X-39: reset; the kicking captain on the centre square with the ball (else the ball lies there)."""
    _reset(st)
    captain = 10 * side + 1
    if st.pos[captain] >= 0:
        st.pos[captain] = CENTRE
    st.ball = CENTRE
    st.fresh = True
    st.turn = side
    st.last = ""
    _ev(ev, "kickoff", {"side": NAMES[side], "period": st.period})


def _goal(st: ChessState, side: int, ev: list[MatchEvent]) -> None:
    """§8: score, reset, the conceding side kicks off."""
    st.score[side] += 1
    _ev(ev, "goal", {"side": NAMES[side], "score": list(st.score), "period": st.period})
    _kickoff(st, ev, 1 - side)


def _tick(st: ChessState, ev: list[MatchEvent]) -> None:
    """Count the move; after the half's last move comes half time whatever is pending (X-40)."""
    st.plies += 1
    limit = 2 * (st.half_moves if st.period <= 2 else st.extra_moves)
    if st.plies < limit:
        return
    st.phase = PH_PLAY
    st.pen_choice = [None, None]
    level = st.score[0] == st.score[1]
    _ev(ev, "period_end", {"period": st.period, "score": list(st.score)})
    if st.period in (1, 3):
        _start_period(st, ev, st.period + 1, 1 - st.first)
    elif not (st.knockout and level):
        _finish(st, ev, "regular" if st.period == 2 else "extra_time")
    elif st.period == 2 and st.extra_moves > 0:
        _start_period(st, ev, 3, st.first)
    else:
        st.period = P_SHOOTOUT
        st.pens = [0, 0]
        st.kicks = []
        _ev(ev, "shootout", {"kicks": st.shootout_kicks})
        _begin_kick(st, st.first)


def _start_period(st: ChessState, ev: list[MatchEvent], period: int, kicker: int) -> None:
    st.period = period
    st.plies = 0
    _kickoff(st, ev, kicker)


def _begin_kick(st: ChessState, side: int) -> None:
    st.phase = PH_PENALTY
    st.pen_side = side
    st.pen_choice = [None, None]
    st.turn = side


def _next_kick(st: ChessState, ev: list[MatchEvent]) -> None:
    """§13: five kicks each (or fewer once one side cannot catch up), then sudden death by pairs."""
    pens = st.pens or [0, 0]
    taken = [sum(1 for k in st.kicks if k[0] == s) for s in (0, 1)]
    n = st.shootout_kicks
    left = [n - taken[0], n - taken[1]]
    if min(left) >= 0 and pens[0] + left[0] < pens[1]:
        _finish(st, ev, "penalties", 1)
    elif min(left) >= 0 and pens[1] + left[1] < pens[0]:
        _finish(st, ev, "penalties", 0)
    elif taken[0] == taken[1] and taken[0] >= n and pens[0] != pens[1]:
        _finish(st, ev, "penalties", 0 if pens[0] > pens[1] else 1)
    else:
        _begin_kick(st, 1 - st.kicks[-1][0])


def _finish(st: ChessState, ev: list[MatchEvent], how: str, winner: int | None = None) -> None:
    if winner is None:
        winner = -1 if st.score[0] == st.score[1] else (0 if st.score[0] > st.score[1] else 1)
    st.phase = PH_OVER
    st.winner = winner
    st.decided_by = how
    _ev(
        ev,
        "full_time",
        {
            "winner": NAMES[winner] if winner >= 0 else None,
            "score": list(st.score),
            "pens": None if st.pens is None else list(st.pens),
            "decided_by": how,
        },
    )


FORMAT = register(ChessFootballFormat())
