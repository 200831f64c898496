"""What the rooms need of the engine: the move list kept in the state (RULES.md §10), defaults that end a
shoot-out (CF-11), refusals a player can read in his own language, and the viewer's side in the view."""

from __future__ import annotations

import pytest
from chess_helpers import position

from games.api import IllegalDecision, MalformedDecision
from games.chess_football import geometry as g
from games.chess_football.rules import FORMAT, chess_setup, illegal_reason, why_illegal
from games.chess_football.state import P_SHOOTOUT, PH_PENALTY
from games.rng import Rng


def _random_match(seed: int, **options) -> tuple[object, list]:
    st = FORMAT.start(chess_setup(**options), Rng(seed))
    rng, events = Rng(seed + 1), []
    while pending := FORMAT.decisions(st):
        d = pending[rng.randbelow(len(pending))]
        events += FORMAT.apply(st, d.side, d.choices[rng.randbelow(len(d.choices))], rng)
    return st, events


@pytest.mark.parametrize("seed", range(4))
def test_the_move_list_is_every_move_played_and_is_stored_with_the_state(seed: int):
    st, events = _random_match(seed, knockout=True, half_moves=12, extra_time_moves=4)
    listed = FORMAT.view(st, None)["moves"]
    played = [e.data["move"] for e in events if e.kind == "move"]
    penalties = [e for e in events if e.kind == "penalty"]
    assert [m[2] for m in listed if not m[2].startswith("penalty ")] == played
    assert len([m for m in listed if m[2].startswith("penalty ")]) == len(penalties)
    goals = [e for e in events if e.kind == "goal"]
    assert sum(1 for m in listed if m[3]) == len(goals)  # each goal of play marks the move that scored it
    assert {m[1] for m in listed} <= {"home", "away"} and {m[0] for m in listed} <= {1, 2, 3, 4}
    restored = FORMAT.from_dict(FORMAT.to_dict(st))
    assert restored == st and FORMAT.view(restored, None)["moves"] == listed


@pytest.mark.parametrize("bad", [[[1, 0, "e5>e9"]], [[1, 2, "e5>e9", False]], [["1", 0, "x", True]], [5]])
def test_a_stored_move_list_of_the_wrong_shape_is_refused(bad):
    data = FORMAT.to_dict(FORMAT.start(chess_setup(), Rng(0)))
    data["moves"] = bad
    with pytest.raises(MalformedDecision):
        FORMAT.from_dict(data)


@pytest.mark.parametrize("kicks", [1, 2, 5, 6])
@pytest.mark.parametrize("toss", ["home", "away"])
def test_two_sides_taking_only_defaults_end_a_shoot_out(kicks: int, toss: str):
    """CF-11: decision timers or absent players on both sides must not keep a cup match going for ever."""
    st = FORMAT.start(
        chess_setup(knockout=True, half_moves=1, extra_time_moves=1, shootout_kicks=kicks, toss=toss), Rng(0)
    )
    aims = []
    for _ in range(500):
        pending = FORMAT.decisions(st)
        if not pending:
            break
        for d in pending:
            if st.period == P_SHOOTOUT and d.kind == "penalty":
                aims.append(d.default["aim"][0])
            FORMAT.apply(st, d.side, d.default, Rng(0))
    result = FORMAT.result(st)
    assert result is not None and result.decided_by == "penalties" and result.winner in ("home", "away")
    assert aims == ["def"[i % 3] for i in range(len(aims))]  # round the goal; the keeper stays in the middle


def test_a_kicker_in_play_aims_at_the_middle_by_default():
    st = position({"S": ["Kf0", "Lc5"], "N": ["Ld4", "Cg9"]}, ball="d4", turn="away")
    FORMAT.apply(st, "away", {"kind": "move", "move": "d4>d1"}, Rng(0))
    FORMAT.apply(st, "home", {"kind": "move", "move": "concede"}, Rng(0))
    assert st.phase == PH_PENALTY
    defaults = {d.kind: d.default for d in FORMAT.decisions(st)}
    assert defaults["penalty"]["aim"] == "e0" and defaults["cover"] == {"kind": "cover", "square": "e0"}


def test_a_refusal_carries_its_sentence_and_values_for_the_readers_language():
    st = position({"S": ["Lc5", "Db3"], "N": ["Lg9"]}, ball="c5")
    with pytest.raises(IllegalDecision) as info:
        FORMAT.apply(st, "home", {"kind": "move", "move": "Db3-b4"}, Rng(0))
    exc = info.value
    assert exc.msgid == "a dark piece stays on squares of its own colour (§5.1)" and exc.words == {}
    with pytest.raises(IllegalDecision) as info:
        FORMAT.apply(st, "home", {"kind": "move", "move": "Db3-e6"}, Rng(0))
    exc = info.value
    assert exc.msgid.startswith("that piece cannot reach %(square)s") and exc.words == {"square": "e6"}
    assert str(exc).startswith("that piece cannot reach e6") and why_illegal(st, "Db3-e6") == str(exc)
    assert illegal_reason(st, "Db3-e6") == (exc.msgid, exc.words)
    with pytest.raises(MalformedDecision) as info:
        FORMAT.apply(st, "home", {"kind": "move", "move": "Qb3-e6"}, Rng(0))
    assert info.value.words == {"move": "Qb3-e6"} and "%(move)s" in info.value.msgid


def test_the_view_names_its_viewer_and_only_the_chooser_sees_his_penalty_choice():
    st = position({"S": ["Kf0", "Lc5"], "N": ["Ld4", "Cg9"]}, ball="d4", turn="away")
    FORMAT.apply(st, "away", {"kind": "move", "move": "d4>d1"}, Rng(0))
    FORMAT.apply(st, "home", {"kind": "move", "move": "concede"}, Rng(0))
    FORMAT.apply(st, "away", {"kind": "penalty", "aim": "f0", "taker": "C"}, Rng(0))
    views = {side: FORMAT.view(st, side) for side in ("home", "away", None)}
    assert [views[s]["viewer"] for s in ("home", "away", None)] == ["home", "away", None]
    assert views["away"]["penalty"]["mine_move"] == "penalty C>f0"
    assert "mine_move" not in views["home"]["penalty"] and "mine_move" not in views[None]["penalty"]
    assert views["home"]["penalty"]["chosen"] == {"home": False, "away": True}
    assert g.name(g.GOAL_MIDDLE[0]) == "e0"
