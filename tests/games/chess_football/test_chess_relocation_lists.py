"""The move list after an offside forfeit (X-34) is built from one list per offender, less what the relocated
piece would block (rules.legal_moves); it must equal, move for move and in order, the lists generated in
full for every relocation square — the order matters: it is the order of the decision's choices."""

from __future__ import annotations

import pytest
import sweep
from chess_helpers import moves, position

from games.chess_football import rules
from games.chess_football.bots import easy_action
from games.chess_football.rules import FORMAT, chess_setup, legal_moves
from games.chess_football.state import PH_PLAY, ChessState
from games.rng import BlockRng


def in_full(st: ChessState) -> list[tuple]:
    """The relocation moves as the rules define them: each relocation, then every move after it."""
    side = st.turn
    out = []
    occ = rules.occupancy(st)
    for p in rules.offenders(st, occ, 1 - side):
        for t in rules.relocation_targets(st, occ, p):
            inner = rules._relocated(st, p, t)
            out += [("r", p, t, a) for a in rules._plain_moves(inner, rules.occupancy(inner), side)]
    return out


@pytest.mark.parametrize("seed", range(sweep.size(ci=2, soak=40)))
def test_relocation_lists_equal_the_lists_generated_in_full(seed: int) -> None:
    """Seeded matches (random moves, every third one the easy bot's so that pieces go forward): at every
    position where the side to move may forfeit, the forfeit is played on a copy and the lists compared,
    until ten positions are compared (a forfeit comes about once in two matches)."""
    compared = 0
    for match in range(100):
        rng, walk = BlockRng(1000 * seed + match), BlockRng(1000 * seed + match ^ 0x5EED)
        st = FORMAT.start(chess_setup(half_moves=30), rng)
        i = 0
        while compared < 10 and (legal := FORMAT.legal_actions(st)):
            i += 1
            if st.phase == PH_PLAY and ("f",) in legal:
                c = FORMAT.clone(st)
                FORMAT.apply_action(c, ("f",), rng)
                if c.phase == PH_PLAY and c.relocate:
                    assert legal_moves(c) == in_full(c)
                    compared += 1
            easy = st.phase == PH_PLAY and i % 3 == 0
            FORMAT.apply_action(st, easy_action(st, walk) if easy else legal[walk.randbelow(len(legal))], rng)
    assert compared == 10


def test_a_relocation_onto_the_yellow_squares_exempts_the_relocating_sides_offenders() -> None:
    """North has its own offender on c2; South's offender b13 relocated to b1 (a South yellow square) ends
    North's offside (X-20), so any North move follows; relocated to b3 it does not."""
    st = position({"S": ["Db13"], "N": ["Dc2", "Lg9"]}, ball="e7", turn="away", relocate=True)
    got = moves(st)
    assert "b13=b1;Lg9-h8" in got and "b13=b1;forfeit" not in got
    assert "b13=b3;Lg9-h8" not in got and "b13=b3;forfeit" in got and "b13=b3;Dc2-d3" in got
    assert legal_moves(st) == in_full(st)
