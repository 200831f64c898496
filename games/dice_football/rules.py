"""Dice football (seeds 001/004) as a pure, deterministic match format (key ``"dice-football"``).

One ball on a 5 × 11 pitch, eight dice (``dice.py``), no pawns. The attacker rolls arrow dice to move the
ball and the SHOT die to shoot; the defender answers with DEF, the keeper with GK; a white STAR die gives
its holder one special move. The whole flow of the digest (§5–§13) with its PROPOSED items and rulings is
written out in ``games/dice_football/RULES.md``; comments cite the digest's sections and ruling ids.

Design for speed (bench/formats.py): the state is one flat slotted dataclass (``state.py``), the ball is
kept in the attacker's relative coordinates, arrow moves come from a precomputed table (``_MOVES``, built
on ``geometry.PATHS``), the legal sets are memoised (``_actions``), events and decisions are made without
the frozen dataclasses' costly ``__init__`` (``_ev``) and ``apply`` mutates in place after validating the
whole decision, so a raised error changes nothing. Replays depend on every draw, event and choice order
staying as it is: tests/games/dice_football/test_dice_replay_digest.py pins them.
Forced rolls (DEF, GK, PEN, the Boskov roll, the STAR reveal) happen inside ``apply``; a side is asked only
when it has a real choice: which die (with a wing rotation or long kick), left or right, where to place
the ball at a restart, DEF or keeper at a crossbar, and whether to play its STAR face in a window.
"""

from __future__ import annotations

from typing import Any

from games.api import (
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
from games.dice_football.dice import (
    ARROW,
    ASSIST,
    CLEAR,
    CONTROL,
    CORNER,
    CROSSBAR,
    DEF,
    DIE_INDEX,
    DIE_NAMES,
    FACES,
    FOUL,
    GK,
    GOAL,
    LONG,
    LONG_SHOT,
    LOSE,
    MISS_OR_OWN_GOAL,
    ON_TARGET,
    OUT,
    PARRIED,
    PASS,
    PEN,
    PERFECT_SAVE,
    POST,
    QUESTION,
    RECOVERY,
    SAVED,
    SHOT,
    STAR,
    STEAL,
    UNSTOPPABLE,
    vector,
)
from games.dice_football.geometry import (
    ASSIST_MIN_ROW,
    EX_GOAL_LINE,
    EX_NONE,
    EX_OWN_GOAL,
    EX_SIDE,
    EXIT_NAMES,
    FK_DIRECT_N,
    FK_DIRECT_P,
    FK_PENALTY,
    GOAL_KICK_SQUARES,
    KEEPER_SQUARES,
    LONG_SHOT_MIN_ROW,
    PATHS,
    assist_landing,
    can_shoot_from,
    free_kick_kind,
    in_area,
    intercept,
    rotate,
)
from games.dice_football.state import (
    P_SHOOTOUT,
    PH_ACT,
    PH_CROSSBAR,
    PH_DIR,
    PH_OVER,
    PH_PLACE,
    PH_STAR,
    R_CORNER,
    R_DIRECT_N,
    R_DIRECT_P,
    R_FREE,
    R_GOAL_KICK,
    R_KEEPER,
    R_KICKOFF,
    R_NONE,
    R_THROW_IN,
    RESTART_NAMES,
    W_ACTION,
    W_GOAL_MOUTH,
    W_STAR_IN,
    W_STAR_OUT,
    W_UNSTOPPABLE_IN,
    W_UNSTOPPABLE_OUT,
    WINDOW_NAMES,
    DiceState,
    clone,
    state_from_dict,
    state_to_dict,
)
from games.rng import Rng

__all__ = ["DEFAULT_HALF_TICKS", "TOURNAMENT_HALF_TICKS", "DiceFootballFormat", "InvalidSetup", "dice_setup"]

NAMES: tuple[Side, Side] = ("home", "away")
DEFAULT_HALF_TICKS = 60  # §13 PROPOSED: 7:30 of real time ≈ 60 rolls
TOURNAMENT_HALF_TICKS = 40  # §13: tournament matches last 5 + 5 minutes ("partidos de 10 minutos (5+5)")
MAX_TICKS = 10_000
SHOOTOUT_ROUNDS = 5

# DEF roll contexts (§7's table columns).
C_OPEN, C_SHOT, C_POST, C_CROSSBAR = range(4)
_DEF_USE = ("question", "shot", "post", "crossbar")

_STAR_FACES = FACES[STAR]
_DEF_FACES = FACES[DEF]
_GK_FACES = FACES[GK]
_PEN_FACES = FACES[PEN]
_SHOT_FACES = FACES[SHOT]
_CONTROL_FACES = FACES[CONTROL]
_OPTIONS = {"half_ticks", "extra_time_ticks", "boskov", "toss"}


class InvalidSetup(MatchError):
    """The options handed to dice football are not a legal match (a platform bug)."""

    code = "invalid_setup"


def dice_setup(
    knockout: bool = False, labels: tuple[str, str] = ("home", "away"), **options: Any
) -> MatchSetup:
    """A ``MatchSetup`` for dice football, which needs no team cards: only labels and options."""
    return cardless_setup(knockout, labels, options)


# A match creates about 270 events and, through ``decisions``, 140 decisions. ``MatchEvent`` and
# ``Decision`` are frozen dataclasses: their generated ``__init__`` (a Python frame that sets each slot
# through ``object.__setattr__``) costs more than the rules that fill them. ``_ev`` and ``_decision`` fill
# an instance of a plain class with the same slots and then make it a ``MatchEvent`` / ``Decision``
# (``__class__`` assignment, allowed between classes of one layout): the very same object at a third of
# the cost. ``_check_factories`` compares them with the dataclasses' own at import.
_EventSlots = type("_EventSlots", (), {"__slots__": MatchEvent.__slots__})
_DecisionSlots = type("_DecisionSlots", (), {"__slots__": Decision.__slots__})


def _ev(ev: list[MatchEvent], kind: str, data: dict[str, Any]) -> None:
    """Append the public event ``MatchEvent(kind, data)`` to ``ev``."""
    e = _EventSlots()
    e.kind = kind
    e.data = data
    e.audience = "public"
    e.__class__ = MatchEvent  # type: ignore[assignment]
    ev.append(e)


def _decision(
    side: Side,
    kind: str,
    choices: tuple[dict[str, Any], ...],
    default: dict[str, Any],
    options: dict[str, Any],
) -> list[Decision]:
    """``[Decision(side, kind, choices, default, options)]``: the list ``decisions`` returns."""
    d = _DecisionSlots()
    d.side = side
    d.kind = kind
    d.choices = choices
    d.default = default
    d.options = options
    d.__class__ = Decision  # type: ignore[assignment]
    return [d]


def _check_factories() -> None:
    made: list[MatchEvent] = []
    _ev(made, "check", {"a": 1})
    e, want = made[0], MatchEvent("check", {"a": 1})
    assert type(e) is MatchEvent and e == want and repr(e) == repr(want)
    d, want_d = (
        _decision("home", "k", ({"a": 1},), {"a": 1}, {})[0],
        Decision("home", "k", ({"a": 1},), {"a": 1}, {}),
    )
    assert type(d) is Decision and d == want_d and repr(d) == repr(want_d)


_check_factories()


def _abs(st: DiceState, side: int, x: int, y: int) -> list[int]:
    """Side-relative square → absolute ``[x, y]``. Home attacks towards row 11 in periods 1 and 3 (B-34)."""
    if (side == 0) == (st.period & 1 == 1):
        return [x, y]
    return [6 - x, 12 - y]


def _length(st: DiceState) -> int:
    return st.half_ticks if st.period <= 2 else st.extra_ticks


def _expired(st: DiceState) -> bool:
    """§13, B-37: the half has expired once the count reached its length, the current roll included."""
    return st.ticks >= (st.half_ticks if st.period <= 2 else st.extra_ticks)


# ====================================================================== the format
class DiceFootballFormat:
    """Dice football behind the ``MatchFormat`` protocol; stateless, so one instance serves every match."""

    key = "dice-football"

    # ------------------------------------------------------------------ protocol
    def start(self, setup: MatchSetup, rng: Rng) -> DiceState:
        """A new match, kicked off: the toss and the STAR roll are done, the first decision is pending."""
        return self.start_with_events(setup, rng)[0]

    def start_with_events(self, setup: MatchSetup, rng: Rng) -> tuple[DiceState, list[MatchEvent]]:
        """``start`` plus the events of the toss, the first STAR roll and the kick-off (§4)."""
        options = dict(getattr(setup, "options", None) or {})
        unknown = sorted(set(options) - _OPTIONS)
        if unknown:
            raise InvalidSetup(f"unknown dice-football options: {', '.join(unknown)}", options=unknown)
        knockout = bool(setup.knockout)
        half = options.get("half_ticks", TOURNAMENT_HALF_TICKS if knockout else DEFAULT_HALF_TICKS)
        extra = options.get("extra_time_ticks", 0)
        boskov = options.get("boskov", False)
        toss = options.get("toss")
        for name, value in (("half_ticks", half), ("extra_time_ticks", extra)):
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_TICKS:
                raise InvalidSetup(f"{name} must be an integer from 0 to {MAX_TICKS}", option=name)
        if half < 1:
            raise InvalidSetup("a half lasts at least one roll", option="half_ticks")
        if not isinstance(boskov, bool):
            raise InvalidSetup("boskov is true or false", option="boskov")
        if toss not in (None, "home", "away"):
            raise InvalidSetup("toss is 'home', 'away' or absent (then it is rolled)", option="toss")
        st = DiceState(
            labels=[setup.home.label, setup.away.label],
            knockout=knockout,
            half_ticks=half,
            extra_ticks=extra,
            boskov=boskov,
            period=1,
            ticks=0,
            toss=0,
            att=0,
            bx=3,
            by=6,
            must_ctrl=False,
            ctrl_last=False,
            restart=R_NONE,
            assist=False,
            shot_col=3,
            xbar=False,
            star=0,
            face=0,
            fouls=[0, 0],
            score=[0, 0],
            phase=PH_ACT,
            ctx=0,
            p_die=0,
            p_face=0,
            p_mult=1,
            p_rot=False,
            last=None,
            pens=None,
            kicks=[],
            winner=-1,
            decided_by="",
        )
        ev: list[MatchEvent] = []
        # §4: toss; the winner rolls STAR at once and defends first; the other side kicks off.
        winner = rng.randbelow(2) if toss is None else NAMES.index(toss)
        st.toss = winner
        _ev(ev, "toss", {"winner": NAMES[winner], "kicks_off": NAMES[1 - winner], "boskov": boskov})
        _handover(st, ev, rng, winner, "toss")
        _kickoff(st, ev, 1 - winner)
        return st, ev

    def decisions(self, state: DiceState) -> list[Decision]:
        """The one pending decision (of the attacker or the defender); [] when the match is over."""
        st = state
        ph = st.phase
        if ph == PH_OVER:
            return []
        if ph == PH_ACT:
            legal = _actions(st)
            return _decision(
                NAMES[st.att],
                "action",
                tuple(map(dict.copy, _action_dicts(legal))),
                _action_dict(_default_action(st, legal)),
                {"restart": RESTART_NAMES[st.restart], "must_control": st.must_ctrl},
            )
        if ph == PH_DIR:
            return _decision(
                NAMES[st.att],
                "direction",
                ({"kind": "direction", "to": "left"}, {"kind": "direction", "to": "right"}),
                {"kind": "direction", "to": "right" if _default_right(st) else "left"},
                {"die": DIE_NAMES[st.p_die], "face": FACES[st.p_die][st.p_face]},
            )
        if ph == PH_STAR:
            w = st.ctx
            default = "star" if w in (W_UNSTOPPABLE_IN, W_STAR_IN) else "pass"
            return _decision(
                NAMES[1 - st.att],
                "star",
                ({"kind": "pass"}, {"kind": "star"}),
                {"kind": default},
                {"window": WINDOW_NAMES[w], "face": _STAR_FACES[st.face]},
            )
        if ph == PH_CROSSBAR:
            choices: tuple[dict[str, Any], ...] = ({"kind": "defender"}, {"kind": "keeper"})
            if _star_face(st, 1 - st.att) == PERFECT_SAVE:
                choices += ({"kind": "star"},)
            return _decision(NAMES[1 - st.att], "crossbar", choices, {"kind": "defender"}, {})
        squares = _place_squares(st)
        return _decision(
            NAMES[st.att],
            "place",
            tuple({"kind": "place", "square": _abs(st, st.att, x, y)} for x, y in squares),
            {"kind": "place", "square": _abs(st, st.att, *squares[0])},
            {"restart": RESTART_NAMES[st.ctx]},
        )

    def apply(self, state: DiceState, side: Side, choice: dict[str, Any], rng: Rng) -> list[MatchEvent]:
        """Apply one decision of ``side`` and play on (every forced roll included) to the next decision.

        :raises MalformedDecision: unknown side, or a choice that is not a decision dict of a known shape.
        :raises NotYourDecision: the match is over, or the other side is to decide.
        :raises IllegalDecision: the choice is well-formed but not among the legal ones now.

        Nothing is changed when an error is raised: the choice is validated in full first.
        """
        st = state
        action = _validate(st, side, choice)
        ev: list[MatchEvent] = []
        _act(st, action, ev, rng)
        return ev

    def result(self, state: DiceState) -> MatchResult | None:
        """The result once the match is over; the card fields are empty (dice football has no cards)."""
        st = state
        if st.phase != PH_OVER:
            return None
        return cardless_result(st.score, NAMES[st.winner] if st.winner >= 0 else None, st.decided_by, st.pens)

    def view(self, state: DiceState, side: Side | None, reveal_all: bool = False) -> dict[str, Any]:
        """What ``side`` may see (``None``: spectators); see ``view.py``."""
        from games.dice_football.view import project

        return project(self, state, side, reveal_all)

    def to_dict(self, state: DiceState) -> dict[str, Any]:
        """The full state as JSON-safe data."""
        data = state_to_dict(state)
        data["format"] = self.key
        return data

    def from_dict(self, data: dict[str, Any]) -> DiceState:
        """Inverse of ``to_dict``."""
        if not isinstance(data, dict) or data.get("format") != self.key:
            raise MalformedDecision("not a stored dice-football state")
        return state_from_dict(data)

    def clone(self, state: DiceState) -> DiceState:
        """An independent copy of a state (cheaper than a ``to_dict``/``from_dict`` round trip)."""
        return clone(state)

    def to_act(self, state: DiceState) -> int:
        """Index of the side whose decision is pending (-1 when the match is over)."""
        ph = state.phase
        if ph == PH_OVER:
            return -1
        return state.att if ph in (PH_ACT, PH_DIR, PH_PLACE) else 1 - state.att

    def legal_actions(self, state: DiceState) -> tuple[tuple[Any, ...], ...]:
        """The pending side's legal decisions as canonical tuples (what ``decisions`` lists, as dicts).

        Bots and the benchmark use this fast path: ``apply_action`` takes one of these tuples.
        """
        st = state
        if st.phase == PH_ACT:  # the memo look-up of ``_actions`` written out: it answers most calls
            legal = _ACTIONS.get(
                (st.bx, st.by, st.restart, st.must_ctrl, st.ctrl_last, st.face if st.star == st.att else -1)
            )
            if legal is not None:
                return legal
        return _legal(st)

    def apply_action(self, state: DiceState, action: tuple[Any, ...], rng: Rng) -> list[MatchEvent]:
        """Apply a canonical action from ``legal_actions`` (not validated again: only for legal tuples)."""
        ev: list[MatchEvent] = []
        if action[0] == "roll" and action[1] != SHOT and state.phase == PH_ACT:
            _arrow(state, ev, rng, action)  # two actions in three: straight there
        else:
            _act(state, action, ev, rng)
        return ev

    def action_dict(self, action: tuple[Any, ...], state: DiceState) -> dict[str, Any]:
        """The decision dict of a canonical action (what ``apply`` accepts)."""
        return _to_dict(state, action)


# ====================================================================== decisions: legal sets and parsing
# Canonical actions: ("roll", die, rotate, long_kick) · ("star",) · ("pass",) · ("dir", right) ·
# ("place", x, y) with x, y relative to the placing side · ("defender",) · ("keeper",)
_ROLL_KEYS = frozenset(["kind", "die", "rotate", "long_kick"])


def _star_face(st: DiceState, side: int) -> str | None:
    return _STAR_FACES[st.face] if st.star == side else None


def _star_attack_ok(st: DiceState) -> bool:
    """§11.2: the attacker's face fits the ball's square (FOUL anywhere, B-38)."""
    if st.star != st.att:
        return False
    f = _STAR_FACES[st.face]
    x, y = st.bx, st.by
    if f == FOUL:
        return True
    if f == LONG_SHOT:
        return y >= LONG_SHOT_MIN_ROW
    if f == ASSIST:
        return y >= ASSIST_MIN_ROW and not in_area(x, y)
    if f == UNSTOPPABLE:
        return can_shoot_from(x, y)
    return False


def _actions(st: DiceState) -> tuple[tuple[Any, ...], ...]:
    """The attacker's legal actions (§6.1, B-36): arrow dice with their declarations, SHOT, STAR.

    Memoised on the state fields they are computed from (a match asks this about 140 times; there are
    at most a few thousand such keys), so that most calls cost one dictionary look-up.
    """
    key = (st.bx, st.by, st.restart, st.must_ctrl, st.ctrl_last, st.face if st.star == st.att else -1)
    legal = _ACTIONS.get(key)
    if legal is None:
        legal = _ACTIONS[key] = _build_actions(st)
    return legal


def _build_actions(st: DiceState) -> tuple[tuple[Any, ...], ...]:
    x, y = st.bx, st.by
    restart = st.restart
    must, ctrl_last = st.must_ctrl, st.ctrl_last
    rot = y >= 9 and (x == 1 or x == 5) and restart != R_CORNER
    long_kick = restart in (R_GOAL_KICK, R_KEEPER)
    shoot = can_shoot_from(x, y) or restart in (R_DIRECT_N, R_DIRECT_P)
    star = _star_attack_ok(st)
    out: list[tuple[Any, ...]] = []
    for die in (CONTROL, PASS, LONG):
        if ctrl_last if die == CONTROL else must:
            continue
        out.append(("roll", die, False, False))
        if rot:
            out.append(("roll", die, True, False))
        if long_kick:
            out.append(("roll", die, False, True))
    if shoot and not must:
        out.append(("roll", SHOT, False, False))
    if star:
        out.append(("star",))
    return tuple(out)


_ACTIONS: dict[tuple[Any, ...], tuple[tuple[Any, ...], ...]] = {}


def _place_squares(st: DiceState) -> tuple[tuple[int, int], ...]:
    kind = st.ctx
    if kind == R_GOAL_KICK:
        return GOAL_KICK_SQUARES
    if kind == R_KEEPER:
        return KEEPER_SQUARES
    return ((1, 11), (5, 11))


_DIRS = (("dir", False), ("dir", True))
_WINDOW = (("pass",), ("star",))
_CROSSBAR = (("defender",), ("keeper",))
_CROSSBAR_STAR = (("defender",), ("keeper",), ("star",))
_PLACES = {
    k: tuple(("place", x, y) for x, y in sq)
    for k, sq in (
        (R_GOAL_KICK, GOAL_KICK_SQUARES),
        (R_KEEPER, KEEPER_SQUARES),
        (R_CORNER, ((1, 11), (5, 11))),
    )
}


def _legal(st: DiceState) -> tuple[tuple[Any, ...], ...]:
    ph = st.phase
    if ph == PH_ACT:
        return _actions(st)
    if ph == PH_DIR:
        return _DIRS
    if ph == PH_STAR:
        return _WINDOW
    if ph == PH_CROSSBAR:
        return _CROSSBAR_STAR if _star_face(st, 1 - st.att) == PERFECT_SAVE else _CROSSBAR
    if ph == PH_PLACE:
        return _PLACES[st.ctx]
    return ()


def _action_dict(a: tuple[Any, ...]) -> dict[str, Any]:
    if a[0] == "roll":
        d: dict[str, Any] = {"kind": "roll", "die": DIE_NAMES[a[1]]}
        if a[2]:
            d["rotate"] = True
        if a[3]:
            d["long_kick"] = True
        return d
    return {"kind": a[0]}


def _action_dicts(legal: tuple[tuple[Any, ...], ...]) -> tuple[dict[str, Any], ...]:
    """The decision dicts of a legal set, memoised like the sets themselves: callers copy them."""
    dicts = _ACTION_DICTS.get(legal)
    if dicts is None:
        dicts = _ACTION_DICTS[legal] = tuple(_action_dict(a) for a in legal)
    return dicts


_ACTION_DICTS: dict[tuple[tuple[Any, ...], ...], tuple[dict[str, Any], ...]] = {}


def _to_dict(st: DiceState, a: tuple[Any, ...]) -> dict[str, Any]:
    k = a[0]
    if k == "dir":
        return {"kind": "direction", "to": "right" if a[1] else "left"}
    if k == "place":
        return {"kind": "place", "square": _abs(st, st.att, a[1], a[2])}
    return _action_dict(a)


def _default_action(st: DiceState, legal: tuple[tuple[Any, ...], ...]) -> tuple[Any, ...]:
    """The plain choice: shoot from the area or a direct free kick, else CONTROL when it must, else PASS."""
    shot = ("roll", SHOT, False, False)
    if shot in legal and (in_area(st.bx, st.by) or st.restart == R_DIRECT_N):
        return shot
    if st.must_ctrl:
        return ("roll", CONTROL, False, False)
    return ("roll", PASS, False, False)


def _default_right(st: DiceState) -> bool:
    """Left or right: the direction that keeps the ball on the pitch, the more central one on a tie."""
    cls, n, _ = ARROW[st.p_die][st.p_face]
    ends = []
    for right in (False, True):
        dx, dy = vector(cls, right)
        if st.p_rot:
            dx, dy = rotate(st.bx, dx, dy)
        _path, exit_, lx, ly = PATHS[(st.bx, st.by, dx, dy, n * st.p_mult)]
        ends.append((exit_ != EX_NONE, abs(lx - 3), -ly))
    return ends[1] < ends[0]


def _validate(st: DiceState, side: Any, choice: Any) -> tuple[Any, ...]:
    """Check a decision completely; returns the canonical action. Raises, changing nothing."""
    if side == "home":
        s = 0
    elif side == "away":
        s = 1
    else:
        raise MalformedDecision(f"unknown side {side!r}; expected 'home' or 'away'", side=repr(side)[:40])
    if not isinstance(choice, dict) or not isinstance(choice.get("kind"), str):
        raise MalformedDecision("a decision is a dict with a string 'kind'", choice=repr(choice)[:200])
    action = _parse(st, s, choice)
    ph = st.phase
    if ph == PH_OVER:
        raise NotYourDecision("the match is over: no decision can be taken", side=side)
    turn = st.att if ph in (PH_ACT, PH_DIR, PH_PLACE) else 1 - st.att
    if turn != s:
        raise NotYourDecision(f"it is {NAMES[turn]}'s decision now, not {side}'s", side=side)
    if action not in _legal(st):
        raise IllegalDecision(_why_illegal(st, action), side=side, reason=_reason(st, action))
    return action


def _parse(st: DiceState, s: int, choice: dict[str, Any]) -> tuple[Any, ...]:
    kind = choice["kind"]
    keys = set(choice)
    if kind == "roll":
        if not keys <= _ROLL_KEYS:
            raise MalformedDecision(f"unknown keys in a roll: {sorted(keys - _ROLL_KEYS)}")
        die = choice.get("die")
        if not isinstance(die, str) or die not in DIE_INDEX:
            raise MalformedDecision(f"a roll needs 'die', one of {', '.join(DIE_NAMES)}", die=repr(die)[:40])
        rot, long_kick = choice.get("rotate", False), choice.get("long_kick", False)
        if not isinstance(rot, bool) or not isinstance(long_kick, bool):
            raise MalformedDecision("'rotate' and 'long_kick' are true or false")
        return ("roll", DIE_INDEX[die], rot, long_kick)
    if kind in ("star", "pass", "defender", "keeper"):
        if keys != {"kind"}:
            raise MalformedDecision(f"a {kind!r} decision has no other keys")
        return (kind,)
    if kind == "direction":
        to = choice.get("to")
        if keys != {"kind", "to"} or to not in ("left", "right"):
            raise MalformedDecision("a direction is {'kind': 'direction', 'to': 'left' | 'right'}")
        return ("dir", to == "right")
    if kind == "place":
        sq = choice.get("square")
        if (
            keys != {"kind", "square"}
            or not isinstance(sq, list | tuple)
            or len(sq) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in sq)
        ):
            raise MalformedDecision("a placement is {'kind': 'place', 'square': [x, y]}")
        x, y = sq
        if (s == 0) != (st.period & 1 == 1):
            x, y = 6 - x, 12 - y
        return ("place", x, y)
    raise MalformedDecision(f"unknown decision kind {kind!r}", kind=kind[:40])


_PHASE_KINDS = {
    PH_ACT: ("roll", "star"),
    PH_DIR: ("dir",),
    PH_STAR: ("pass", "star"),
    PH_CROSSBAR: ("defender", "keeper", "star"),
    PH_PLACE: ("place",),
}


def _reason(st: DiceState, action: tuple[Any, ...]) -> str:
    if action[0] not in _PHASE_KINDS[st.phase]:
        return "wrong_decision_kind"
    if action[0] == "roll":
        if action[1] not in (CONTROL, PASS, LONG, SHOT):
            return "not_an_attack_die"
        if ("roll", action[1], False, False) in _legal(st):
            return "declaration_not_allowed"
        return "die_not_allowed"
    return "not_allowed_now"


def _why_illegal(st: DiceState, action: tuple[Any, ...]) -> str:
    """An English sentence that names the situation (the platform translates by ``reason``)."""
    kind = action[0]
    if kind not in _PHASE_KINDS[st.phase]:
        return f"a {kind!r} decision is not what is asked now (a {_PHASE_NAMES_ASKED[st.phase]} is)"
    if kind == "roll":
        die = action[1]
        if die not in (CONTROL, PASS, LONG, SHOT):
            return (
                f"the {DIE_NAMES[die].upper()} die is never chosen: it is rolled when the rules call for it"
            )
        if die == CONTROL and st.ctrl_last:
            return "CONTROL may not be rolled twice in a row (§6.1)"
        if die != CONTROL and st.must_ctrl:
            return "after winning the ball the first roll must be CONTROL (§6.1, B-36)"
        return "the ball is not on a shooting square (the last three rows, corners excepted)"
    if kind == "star":
        if st.phase == PH_ACT:
            return "you hold no STAR face that fits this square (§11.2)"
        return "you hold no STAR PERFECT_SAVE to play (§11.2)"
    if kind == "place":
        return "the ball cannot be placed on that square for this restart (§10.3-10.5)"
    return "that choice is not possible now"


_PHASE_NAMES_ASKED = {
    PH_ACT: "roll or STAR play",
    PH_DIR: "direction",
    PH_STAR: "STAR play or pass",
    PH_CROSSBAR: "choice between the defender and the keeper",
    PH_PLACE: "placement of the ball",
}


# ====================================================================== the flow
def _act(st: DiceState, a: tuple[Any, ...], ev: list[MatchEvent], rng: Rng) -> None:
    """The effect of a validated action, then play on to the next decision."""
    ph = st.phase
    kind = a[0]
    if ph == PH_ACT:
        if kind == "roll":
            if a[1] == SHOT:
                _shot(st, ev, rng)
            else:
                _arrow(st, ev, rng, a)
        else:
            _star_attack(st, ev, rng)
    elif ph == PH_DIR:
        cls, n, _ = ARROW[st.p_die][st.p_face]
        right = a[1]
        move = _MOVES[(st.bx, st.by, cls, n * st.p_mult, right, st.p_rot)]
        _move(st, ev, rng, move, "right" if right else "left")
    elif ph == PH_STAR:
        if kind == "star":
            _star_defence(st, ev, rng)
        else:
            _window_pass(st, ev, rng)
    elif ph == PH_CROSSBAR:
        _ev(ev, "crossbar_choice", {"side": NAMES[1 - st.att], "choice": kind})
        if kind == "defender":
            _def_roll(st, ev, rng, C_CROSSBAR)
        elif kind == "keeper":
            _gk_roll(st, ev, rng)
        else:
            _star_defence(st, ev, rng)
    else:  # PH_PLACE
        st.bx, st.by = a[1], a[2]
        st.restart = st.ctx
        _ev(
            ev,
            "ball_placed",
            {"side": NAMES[st.att], "restart": RESTART_NAMES[st.ctx], "square": _abs(st, st.att, a[1], a[2])},
        )
        _begin(st)


def _begin(st: DiceState) -> None:
    """The attacker is about to act: first the defender's STAR window W1 (§11.3), if it can play."""
    d = 1 - st.att
    if st.star == d:
        f = _STAR_FACES[st.face]
        if f == RECOVERY or (f == FOUL and not st.assist):
            st.phase = PH_STAR
            st.ctx = W_ACTION
            return
    st.phase = PH_ACT


# a roll event's data without its use and tick, per side, die and face
_ROLL_DATA = tuple(
    tuple(
        tuple(
            {"side": NAMES[side], "die": DIE_NAMES[die], "face": FACES[die][f], "use": "", "tick": 0}
            for f in range(6)
        )
        for die in range(8)
    )
    for side in (0, 1)
)


def _roll(
    st: DiceState,
    ev: list[MatchEvent],
    rng: Rng,
    side: int,
    die: int,
    use: str,
    extra: dict[str, Any] | None = None,
) -> int:
    """Roll one die (a clock tick, §13) and record it; ``extra`` is added to the event's data."""
    f = rng.randbelow(6)
    tick = st.ticks = st.ticks + 1
    st.last = [side, die, f]
    data = _ROLL_DATA[side][die][f].copy()  # cheaper than the dict display, in the same key order
    data["use"] = use
    data["tick"] = tick
    if extra is not None:
        data.update(extra)
    e = _EventSlots()  # _ev(ev, "roll", data) written out: rolls and moves are most events of a match
    e.kind = "roll"
    e.data = data
    e.audience = "public"
    e.__class__ = MatchEvent  # type: ignore[assignment]
    ev.append(e)
    if tick == (st.half_ticks if st.period <= 2 else st.extra_ticks):
        _ev(ev, "time_up", {"period": st.period})
    return f


def _handover(st: DiceState, ev: list[MatchEvent], rng: Rng, to: int, reason: str) -> None:
    """STAR goes to ``to``, who rolls it at once to reveal a new face (§11.1; not a clock tick)."""
    f = rng.randbelow(6)
    st.star = to
    st.face = f
    st.last = [to, STAR, f]
    _ev(ev, "star_rolled", {"side": NAMES[to], "face": _STAR_FACES[f], "reason": reason})


def _path_abs(st: DiceState, side: int, squares: Any) -> list[list[int]]:
    if (side == 0) == (st.period & 1 == 1):
        return [[x, y] for x, y in squares]
    return [[6 - x, 12 - y] for x, y in squares]


def _carry(st: DiceState, ev: list[MatchEvent], how: str, x: int, y: int) -> None:
    """The ball goes straight to ``(x, y)`` (a shot, a rebound, a parry, an assist …)."""
    a = st.att
    _ev(ev, "move", {"side": NAMES[a], "how": how, "path": _path_abs(st, a, ((st.bx, st.by), (x, y)))})
    st.bx, st.by = x, y


def _free_play(st: DiceState) -> None:
    """The attacker keeps the ball after an intervention: any die next (§6.1 ``free_choice``)."""
    st.must_ctrl = False
    st.ctrl_last = False
    st.restart = R_NONE
    st.assist = False
    st.xbar = False


def _arrow(st: DiceState, ev: list[MatchEvent], rng: Rng, action: tuple[Any, ...]) -> None:
    """§6: roll a direction die (its first roll after a corner is always rotated, §10.5)."""
    _, die, rot, long_kick = action
    if st.restart == R_CORNER:
        rot = True
    st.restart = R_NONE
    st.assist = False
    if die == CONTROL:
        st.ctrl_last = True
        st.must_ctrl = False
    else:
        st.ctrl_last = False
    if rot or long_kick:
        f = _roll(st, ev, rng, st.att, die, "attack", {"rotated": rot, "long_kick": long_kick})
    else:
        f = _roll(st, ev, rng, st.att, die, "attack")
    cls, n, choose = ARROW[die][f]
    if choose:
        st.phase = PH_DIR
        st.p_die = die
        st.p_face = f
        st.p_mult = 2 if long_kick else 1
        st.p_rot = rot
    elif n:  # a straight arrow
        _move(st, ev, rng, _MOVES[(st.bx, st.by, cls, 2 * n if long_kick else n, False, rot)], None)
    elif cls == LOSE:
        _turnover(st, ev, rng, "lost")  # §6.3
    else:  # QUESTION
        _def_roll(st, ev, rng, C_OPEN)  # §6.4


def _move(
    st: DiceState, ev: list[MatchEvent], rng: Rng, move: tuple[Any, ...], direction: str | None
) -> None:
    """§6.2: walk the ball along ``move`` (an entry of ``_MOVES``); leaving the pitch gives a throw-in,
    goal kick, corner or own goal."""
    a = st.att
    paths, exit_, exit_name, lx, ly, corner = move
    # absolute squares: the side attacking towards row 11 (home in odd periods, B-34) sees them as they are
    data: dict[str, Any] = {
        "side": NAMES[a],
        "how": "arrow",
        "path": [[px, py] for px, py in paths[(a + st.period) & 1]],
    }
    if direction is not None:
        data["direction"] = direction
    if exit_:
        data["exit"] = exit_name
    e = _EventSlots()  # _ev(ev, "move", data) written out, as in _roll
    e.kind = "move"
    e.data = data
    e.audience = "public"
    e.__class__ = MatchEvent  # type: ignore[assignment]
    ev.append(e)
    st.bx = lx
    st.by = ly
    if exit_ == EX_NONE:
        _begin(st)
    elif exit_ == EX_SIDE:
        _award(st, ev, rng, 1 - a, R_THROW_IN, 6 - lx, 12 - ly)  # B-31: from the last square inside
    elif exit_ == EX_GOAL_LINE:
        _award(st, ev, rng, 1 - a, R_GOAL_KICK, 0, 0)  # B-5, B-6
    elif exit_ == EX_OWN_GOAL:
        _goal(st, ev, rng, 1 - a, True, "own_goal", None)  # B-7
    else:  # over his own goal line outside column 3: corner for the opponent on that side (B-7)
        _award(st, ev, rng, 1 - a, R_CORNER, corner, 11)


def _build_moves() -> dict[tuple[Any, ...], tuple[Any, ...]]:
    """Every arrow move from every square, keyed ``(x, y, class, length, right, rotated)``, precomputed:
    ((path for the side attacking towards row 1, path for the side attacking towards row 11), exit,
    exit name, last square inside, corner column for the opponent)."""
    table: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    lengths = {n * m for d in (CONTROL, PASS, LONG) for _c, n, _ in ARROW[d] for m in (1, 2) if n}
    for x in range(1, 6):
        for y in range(1, 12):
            for cls in ("F", "B", "L", "DF", "DB"):
                for n in lengths:
                    for right in (False, True):
                        for rot in (False, True):
                            dx, dy = vector(cls, right)
                            if rot:
                                if x not in (1, 5):
                                    continue
                                dx, dy = rotate(x, dx, dy)
                            path, exit_, lx, ly = PATHS[(x, y, dx, dy, n)]
                            squares = ((x, y), *path)
                            col = min(max(path[-1][0], 1), 5)
                            table[(x, y, cls, n, right, rot)] = (
                                (tuple((6 - px, 12 - py) for px, py in squares), squares),
                                exit_,
                                EXIT_NAMES[exit_],
                                lx,
                                ly,
                                1 if 6 - col <= 2 else 5,
                            )
    return table


_MOVES = _build_moves()


def _turnover(st: DiceState, ev: list[MatchEvent], rng: Rng, reason: str) -> None:
    """Possession change in open play (§5): the ball stays, the new attacker must start with CONTROL."""
    st.att = a = 1 - st.att
    st.bx, st.by = 6 - st.bx, 12 - st.by
    st.must_ctrl = True
    st.ctrl_last = False
    st.restart = R_NONE
    st.assist = False
    st.xbar = False
    _ev(ev, "possession", {"side": NAMES[a], "reason": reason, "square": _abs(st, a, st.bx, st.by)})
    if _expired(st):
        _end_half(st, ev, rng)
    else:
        _begin(st)


def _award(st: DiceState, ev: list[MatchEvent], rng: Rng, side: int, kind: int, x: int, y: int) -> None:
    """A restart for ``side`` (§10) on ``(x, y)`` in its own relative frame; ``x == 0``: it places the ball.

    When this takes the ball from the attacker after the half has expired, the half ends instead (§13).
    """
    if side != st.att:
        st.att = side
        st.bx, st.by = 6 - st.bx, 12 - st.by
        changed = True
    else:
        changed = False
    st.must_ctrl = False
    st.ctrl_last = False
    st.assist = False
    st.xbar = False
    st.restart = R_NONE
    if x:
        st.bx, st.by = x, y
    data: dict[str, Any] = {"side": NAMES[side], "restart": RESTART_NAMES[kind]}
    data["square"] = _abs(st, side, x, y) if x else None
    _ev(ev, "restart", data)
    if changed and _expired(st):
        _end_half(st, ev, rng)
        return
    if x:
        st.restart = kind
        _begin(st)
    else:
        st.phase = PH_PLACE
        st.ctx = kind


def _goal(
    st: DiceState, ev: list[MatchEvent], rng: Rng, scorer: int, own: bool, how: str, into: int | None
) -> None:
    """A goal; the side that conceded kicks off (B-16) unless the half has expired (§13).

    ``into``: the ball flies from its square into the goal the attacker attacks (1) or defends (0); None
    when a ``move`` event already carried it in.
    """
    st.score[scorer] += 1
    data: dict[str, Any] = {"side": NAMES[scorer], "own_goal": own, "how": how, "score": list(st.score)}
    if into is not None:
        a = st.att
        data["path"] = _path_abs(st, a, ((st.bx, st.by), (3, 12 if into else 0)))
    _ev(ev, "goal", data)
    if _expired(st):
        _end_half(st, ev, rng)
    else:
        _kickoff(st, ev, 1 - scorer)


def _kickoff(st: DiceState, ev: list[MatchEvent], side: int) -> None:
    st.att = side
    st.bx, st.by = 3, 6
    _free_play(st)
    st.restart = R_KICKOFF
    _ev(ev, "kickoff", {"side": NAMES[side], "period": st.period, "square": [3, 6]})
    _begin(st)


# ---------------------------------------------------------------------- defender and keeper
def _def_roll(st: DiceState, ev: list[MatchEvent], rng: Rng, ctx: int) -> None:
    """§7: the defender rolls DEF at the ball's square in one of four contexts."""
    a = st.att
    d = 1 - a
    f = _roll(st, ev, rng, d, DEF, _DEF_USE[ctx])
    r = _DEF_FACES[f]
    if r == FOUL:
        st.fouls[d] += 1
    else:
        st.fouls[d] = 0
    if r == STEAL:
        _turnover(st, ev, rng, "steal")
    elif r == CLEAR:
        _clear(st, ev, rng)
    elif r == FOUL:
        if st.fouls[d] >= 2:  # §12.1, B-26, B-27
            st.fouls[d] = 0
            _ev(ev, "sent_off", {"side": NAMES[d], "star": st.star == d})
            if st.star == d:
                _handover(st, ev, rng, a, "sent_off")
        _foul_award(st, ev, rng)
    elif r == MISS_OR_OWN_GOAL and st.bx == 3 and st.by >= 10:  # a red square: own goal (§7)
        _goal(st, ev, rng, a, True, "own_goal", 1)
    elif ctx == C_SHOT:  # the shot goes on (§8.2)
        _carry(st, ev, "shot", 3, 11)
        _keeper(st, ev, rng)
    else:  # MISS: the attacker keeps the ball (§7), any die next
        _free_play(st)
        _begin(st)


def _clear(st: DiceState, ev: list[MatchEvent], rng: Rng) -> None:
    """DEF CLEAR: three squares straight back; near his own goal §12.3; after time, the half ends (B-42)."""
    a = st.att
    x, y = st.bx, st.by
    if _expired(st):
        _end_half(st, ev, rng)
        return
    if y - 3 >= 1:
        _ev(
            ev,
            "move",
            {
                "side": NAMES[a],
                "how": "clearance",
                "path": _path_abs(st, a, [(x, y - i) for i in range(4)]),
            },
        )
        st.by = y - 3
        _free_play(st)
        _begin(st)
        return
    if x != 3:  # §12.3: out over his own goal line: a goal kick for the attacker, who keeps the ball
        _ev(
            ev,
            "move",
            {
                "side": NAMES[a],
                "how": "clearance",
                "path": _path_abs(st, a, [(x, y - i) for i in range(y + 1)]),
                "exit": "own_goal_line",
            },
        )
        st.by = 1  # where it left the pitch, until the goal kick is placed
        _award(st, ev, rng, a, R_GOAL_KICK, 0, 0)
        return
    # §12.3 column 3: the ball stops on (3,1) and the attacker rolls GK to keep it out of his own net (B-28)
    if y != 1:
        _ev(
            ev,
            "move",
            {
                "side": NAMES[a],
                "how": "clearance",
                "path": _path_abs(st, a, [(3, v) for v in range(y, 0, -1)]),
            },
        )
    st.bx, st.by = 3, 1
    r = _GK_FACES[_roll(st, ev, rng, a, GK, "own_keeper")]
    if r == SAVED:
        _award(st, ev, rng, a, R_KEEPER, 0, 0)
    elif r == PARRIED:
        _carry(st, ev, "parry", 3, 2)
        st.att = d = 1 - a
        st.bx, st.by = 3, 10
        _free_play(st)
        _ev(ev, "possession", {"side": NAMES[d], "reason": "parried", "square": _abs(st, d, 3, 10)})
        if _expired(st):
            _end_half(st, ev, rng)
        else:
            _begin(st)
    elif r == CORNER:
        _award(st, ev, rng, 1 - a, R_CORNER, 0, 0)
    else:
        _goal(st, ev, rng, 1 - a, True, "own_goal", 0)


def _foul_award(st: DiceState, ev: list[MatchEvent], rng: Rng) -> None:
    """The attacker was fouled on the ball's square: penalty, direct or ordinary free kick (§7, §10.6-8)."""
    k = free_kick_kind(st.bx, st.by)
    if k == FK_PENALTY:
        _penalty(st, ev, rng)
        return
    _free_play(st)
    st.restart = R_DIRECT_N if k == FK_DIRECT_N else R_DIRECT_P if k == FK_DIRECT_P else R_FREE
    _ev(
        ev,
        "restart",
        {
            "side": NAMES[st.att],
            "restart": RESTART_NAMES[st.restart],
            "square": _abs(st, st.att, st.bx, st.by),
            "zone": "N" if k == FK_DIRECT_N else "P" if k == FK_DIRECT_P else None,
        },
    )
    _begin(st)


def _penalty(st: DiceState, ev: list[MatchEvent], rng: Rng) -> None:
    """§10.8 and the Boskov variant §10.9 (B-25)."""
    a = st.att
    _ev(ev, "restart", {"side": NAMES[a], "restart": "penalty", "square": _abs(st, a, st.bx, st.by)})
    if st.boskov:
        r = _CONTROL_FACES[_roll(st, ev, rng, a, CONTROL, "boskov")]
        if r == QUESTION:
            _ev(ev, "no_penalty", {"side": NAMES[a], "square": _abs(st, a, st.bx, st.by)})
            _free_play(st)
            _begin(st)
            return
    if (st.bx, st.by) != (3, 10):
        _carry(st, ev, "to_penalty_spot", 3, 10)
    _free_play(st)
    r = _PEN_FACES[_roll(st, ev, rng, a, PEN, "penalty")]
    if r == GOAL:
        _goal(st, ev, rng, a, False, "penalty", 1)
    elif r == CORNER:
        _award(st, ev, rng, a, R_CORNER, 0, 0)  # B-13: the taker chooses the side
    elif r == OUT:
        _award(st, ev, rng, 1 - a, R_GOAL_KICK, 0, 0)
    else:  # PARRIED: the ball comes back to the spot; any die next, SHOT included
        _begin(st)


def _shot(st: DiceState, ev: list[MatchEvent], rng: Rng) -> None:
    """§8 (and the direct free kicks of §10.7): roll SHOT from the ball's square."""
    a = st.att
    x, y = st.bx, st.by
    r0 = st.restart
    inside = r0 == R_DIRECT_N or (r0 != R_DIRECT_P and in_area(x, y))
    st.restart = R_NONE
    st.ctrl_last = False
    st.assist = False
    st.xbar = False
    st.shot_col = x
    r = _SHOT_FACES[_roll(st, ev, rng, a, SHOT, "shot", {"inside": inside})]
    if r == ON_TARGET:
        if inside:
            _carry(st, ev, "shot", 3, 11)
            _keeper(st, ev, rng)
        else:
            tx, ty = intercept(x, y)
            _carry(st, ev, "shot", tx, ty)
            _def_roll(st, ev, rng, C_SHOT)
    elif r == UNSTOPPABLE:
        if inside:
            if _star_face(st, 1 - a) == PERFECT_SAVE:
                st.phase = PH_STAR
                st.ctx = W_UNSTOPPABLE_IN
            else:
                _goal(st, ev, rng, a, False, "unstoppable", 1)
        else:  # §8.2: too far for a sure goal: on to the keeper (B-23: RECOVERY may still intercept)
            _carry(st, ev, "shot", 3, 11)
            if _star_face(st, 1 - a) in (PERFECT_SAVE, RECOVERY):
                st.phase = PH_STAR
                st.ctx = W_UNSTOPPABLE_OUT
            else:
                _gk_roll(st, ev, rng)
    elif r == POST:
        _carry(st, ev, "post", 3, 10)
        _def_roll(st, ev, rng, C_POST)
    elif r == CROSSBAR:
        _carry(st, ev, "crossbar", 3, 11)
        st.xbar = True
        st.phase = PH_CROSSBAR
    else:
        _award(st, ev, rng, 1 - a, R_GOAL_KICK, 0, 0)


def _keeper(st: DiceState, ev: list[MatchEvent], rng: Rng) -> None:
    """The ball is on GM: W2 (PERFECT_SAVE instead of the roll) if the defender holds it, else GK."""
    if _star_face(st, 1 - st.att) == PERFECT_SAVE:
        st.phase = PH_STAR
        st.ctx = W_GOAL_MOUTH
    else:
        _gk_roll(st, ev, rng)


def _gk_roll(st: DiceState, ev: list[MatchEvent], rng: Rng) -> None:
    """§9: the defender's keeper rolls GK with the ball on GM."""
    a = st.att
    r = _GK_FACES[_roll(st, ev, rng, 1 - a, GK, "keeper")]
    if r == SAVED:
        _award(st, ev, rng, 1 - a, R_KEEPER, 0, 0)
    elif r == PARRIED:
        _carry(st, ev, "parry", 3, 10)
        _free_play(st)
        _begin(st)
    elif r == CORNER:
        col = st.shot_col
        if col == 3:
            _award(st, ev, rng, a, R_CORNER, 0, 0)
        else:
            _award(st, ev, rng, a, R_CORNER, 1 if col < 3 else 5, 11)
    else:
        _goal(st, ev, rng, a, st.xbar, "own_goal" if st.xbar else "not_saved", 1)


# ---------------------------------------------------------------------- the STAR die
def _star_attack(st: DiceState, ev: list[MatchEvent], rng: Rng) -> None:
    """§11.2: the attacker plays his face; STAR goes to the defender, who rolls it first (§11.1)."""
    a = st.att
    face = _STAR_FACES[st.face]
    _ev(ev, "star_played", {"side": NAMES[a], "face": face, "square": _abs(st, a, st.bx, st.by)})
    _handover(st, ev, rng, 1 - a, "handover")
    st.ctrl_last = False  # B-10: a STAR play breaks a CONTROL sequence, must_ctrl stays (B-41)
    st.restart = R_NONE
    st.assist = False
    st.xbar = False
    x, y = st.bx, st.by
    if face == LONG_SHOT:
        st.shot_col = x
        _carry(st, ev, "long_shot", 3, 11)
        _keeper(st, ev, rng)
    elif face == ASSIST:
        lx, ly = assist_landing(x)
        _carry(st, ev, "assist", lx, ly)
        st.assist = True
        _begin(st)
    elif face == UNSTOPPABLE:
        st.shot_col = x
        inside = in_area(x, y)
        new = _STAR_FACES[st.face]
        if new == PERFECT_SAVE or (not inside and new == RECOVERY):
            st.phase = PH_STAR
            st.ctx = W_STAR_IN if inside else W_STAR_OUT
        else:
            _goal(st, ev, rng, a, False, "star_unstoppable", 1)
    else:  # FOUL: a foul is whistled against the defence on the ball's square (B-25, B-38)
        _foul_award(st, ev, rng)


def _star_defence(st: DiceState, ev: list[MatchEvent], rng: Rng) -> None:
    """The defender plays his face in a window (W1-W3) or at the crossbar (B-42)."""
    a = st.att
    d = 1 - a
    face = _STAR_FACES[st.face]
    _ev(ev, "star_played", {"side": NAMES[d], "face": face, "square": _abs(st, a, st.bx, st.by)})
    _handover(st, ev, rng, a, "handover")
    if face == PERFECT_SAVE:  # B-22: as GK SAVED
        _award(st, ev, rng, d, R_KEEPER, 0, 0)
    elif face == RECOVERY:
        _turnover(st, ev, rng, "recovery")
    else:  # FOUL by the defence: possession changes, free kick on the ball's square (§11.2, 12.5, B-24)
        st.att = d
        st.bx, st.by = 6 - st.bx, 12 - st.by
        k = free_kick_kind(st.bx, st.by)
        if k == FK_PENALTY:
            k = FK_DIRECT_N  # §12.5: in the other side's own area it is a direct free kick, never a penalty
        kind = R_DIRECT_N if k == FK_DIRECT_N else R_DIRECT_P if k == FK_DIRECT_P else R_FREE
        _free_play(st)
        _ev(
            ev,
            "restart",
            {
                "side": NAMES[d],
                "restart": RESTART_NAMES[kind],
                "square": _abs(st, d, st.bx, st.by),
                "zone": "N" if kind == R_DIRECT_N else "P" if kind == R_DIRECT_P else None,
            },
        )
        if _expired(st):
            _end_half(st, ev, rng)
        else:
            st.restart = kind
            _begin(st)


def _window_pass(st: DiceState, ev: list[MatchEvent], rng: Rng) -> None:
    """The defender lets a window go by: play goes on as if he held nothing."""
    w = st.ctx
    if w == W_ACTION:
        st.phase = PH_ACT
    elif w in (W_GOAL_MOUTH, W_UNSTOPPABLE_OUT):
        _gk_roll(st, ev, rng)
    elif w == W_UNSTOPPABLE_IN:
        _goal(st, ev, rng, st.att, False, "unstoppable", 1)
    else:
        _goal(st, ev, rng, st.att, False, "star_unstoppable", 1)


# ---------------------------------------------------------------------- halves and the end
def _end_half(st: DiceState, ev: list[MatchEvent], rng: Rng) -> None:
    """§13: the half is over; next half, extra time (option), shoot-out or the final whistle."""
    p = st.period
    _ev(ev, "half_over", {"period": p, "score": list(st.score)})
    level = st.score[0] == st.score[1]
    if p == 1 or p == 3:
        _start_period(st, ev, p + 1)
    elif p == 2:
        if st.knockout and level:
            if st.extra_ticks > 0:
                _ev(ev, "extra_time", {"ticks": st.extra_ticks})
                _start_period(st, ev, 3)
            else:
                _shootout(st, ev, rng)
        else:
            _finish(st, ev, "regular", -1 if level else (0 if st.score[0] > st.score[1] else 1))
    elif level:
        _shootout(st, ev, rng)
    else:
        _finish(st, ev, "extra_time", 0 if st.score[0] > st.score[1] else 1)


def _start_period(st: DiceState, ev: list[MatchEvent], period: int) -> None:
    """The toss loser kicks off periods 1 and 3, the toss winner periods 2 and 4 (§13); ends swap (B-34)."""
    st.period = period
    st.ticks = 0
    _kickoff(st, ev, st.toss if period % 2 == 0 else 1 - st.toss)


def _shootout(st: DiceState, ev: list[MatchEvent], rng: Rng) -> None:
    """§13 ruling (B-35): five PEN rolls each, alternating, GOAL scores; then sudden death. The side that
    kicked off the match shoots first; the series stops as soon as one side cannot be caught."""
    st.period = P_SHOOTOUT
    st.ticks = 0
    pens = st.pens = [0, 0]
    st.kicks = []
    first = 1 - st.toss
    order = (first, 1 - first)
    _ev(ev, "shootout_start", {"first": NAMES[first]})
    taken = [0, 0]
    rnd = 0
    while True:
        for s in order:
            f = rng.randbelow(6)
            scored = _PEN_FACES[f] == GOAL
            taken[s] += 1
            pens[s] += scored
            st.kicks.append([s, f, int(scored)])
            st.last = [s, PEN, f]
            _ev(
                ev,
                "shootout_kick",
                {
                    "round": rnd + 1,
                    "side": NAMES[s],
                    "face": _PEN_FACES[f],
                    "scored": scored,
                    "score": list(pens),
                },
            )
            if rnd < SHOOTOUT_ROUNDS and (
                pens[0] + SHOOTOUT_ROUNDS - taken[0] < pens[1]
                or pens[1] + SHOOTOUT_ROUNDS - taken[1] < pens[0]
            ):
                _finish(st, ev, "penalties", 0 if pens[0] > pens[1] else 1)
                return
        rnd += 1
        if rnd >= SHOOTOUT_ROUNDS and pens[0] != pens[1]:
            _finish(st, ev, "penalties", 0 if pens[0] > pens[1] else 1)
            return


def _finish(st: DiceState, ev: list[MatchEvent], how: str, winner: int) -> None:
    st.phase = PH_OVER
    st.winner = winner
    st.decided_by = how
    _ev(
        ev,
        "match_over",
        {
            "score": list(st.score),
            "winner": NAMES[winner] if winner >= 0 else None,
            "decided_by": how,
            "penalties": list(st.pens) if st.pens is not None else None,
        },
    )


FORMAT = register(DiceFootballFormat())
