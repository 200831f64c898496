"""Chess football in the rooms (issue 24): a move taken by its notation or by the number of its choice (a
relocation lists thousands), a refusal told in the player's language, a short room option, and Magic
Football's matches played as chess football (R20)."""

from __future__ import annotations

import pytest
from django.utils import translation
from helpers import CAT, GUEST, HOST, act, refused, seat
from test_competition_rooms import room

from games.api import get_game
from games.chess_football import geometry as g
from games.chess_football.rules import FORMAT
from games.chess_football.state import OFF
from games.rng import Rng
from tournament.messages import error_text
from tournament.rules import bots
from tournament.rules.events import Ctx
from tournament.rules.matches import sync_prompts
from tournament.rules.setup import new_game
from tournament.views.forms import parse

CHESS = "chess-football"


def _relocation(st):
    """Put the room's match in a position where its mover relocates an offender first (X-34)."""
    record = st.playing_matches()[0]
    engine = record.engine
    engine.pos = [OFF] * 20
    engine.pos[0], engine.pos[10] = g.GOAL_MIDDLE
    squares = {2: "b13", 6: "c12", 1: "c11", 7: "e3", 12: "d11", 16: "g9", 11: "e9"}
    for piece, square in squares.items():
        engine.pos[piece] = g.parse_square(square)
    engine.ball, engine.turn, engine.relocate, engine.red = g.parse_square("c11"), 1, True, -1
    sync_prompts(Ctx(st, CAT, HOST), record)
    return st


def test_a_decision_of_thousands_of_moves_is_answered_by_the_number_of_its_choice():
    """A relocation and a whole move are one move (X-34): the board's buttons count past 999."""
    st = _relocation(room(CHESS, "single", 2, seed=3))
    prompt = next(p for p in st.prompts if p.kind == "move")
    assert len(prompt.choices) > 1000
    pick = len(prompt.choices) - 1
    form = parse(
        {"action": "pick", "prompt": str(prompt.id), "pick": str(pick), "version": "1", "action_id": "a"}
    )
    assert form.action == {"type": "answer", "prompt": prompt.id, "pick": pick}
    _after, events = act(st, seat(prompt.seat), form.action)
    moves = [e.payload["move"] for e in events if e.kind == "m.move"]
    assert moves == [prompt.choices[pick]["move"]]


def test_a_move_in_notation_is_played_and_an_illegal_one_told_why_in_the_players_language():
    st = room(CHESS, "single", 2, seed=4)
    prompt = next(p for p in st.prompts if p.kind == "move")
    engine = st.playing_matches()[0].engine
    base = 0 if prompt.context["side"] == "home" else 10
    # a light piece of the mover on its start square, sent one square forward: a square of the other colour
    piece = next(p for p in range(base, base + 10) if g.KIND[p] == g.LIGHT)
    x, y = g.xy(engine.pos[piece])
    wrong = f"L{g.name(engine.pos[piece])}-{g.name(g.sq(x, y + 1 if base == 0 else y - 1))}"
    mover = seat(prompt.seat)
    error = refused(
        st, mover, {"type": "answer", "prompt": prompt.id, "choice": {"kind": "move", "move": wrong}}
    )
    assert error.code == "illegal_choice"
    assert "a light piece stays on squares of its own colour" in error_text(error)
    with translation.override("nl"):
        assert "een licht stuk blijft op velden van zijn eigen kleur" in error_text(error)
    with translation.override("de"):
        assert "eine helle Figur bleibt auf Feldern ihrer eigenen Farbe" in error_text(error)
    garbage = refused(
        st, mover, {"type": "answer", "prompt": prompt.id, "choice": {"kind": "move", "move": "Qx9"}}
    )
    assert garbage.code == "malformed"
    with translation.override("es"):
        assert "«Qx9» no es una jugada en nuestra notación" in error_text(garbage)
    legal = prompt.choices[0]
    _after, events = act(st, mover, {"type": "answer", "prompt": prompt.id, "choice": dict(legal)})
    assert [e.payload["move"] for e in events if e.kind == "m.move"] == [legal["move"]]


def test_a_short_room_plays_halves_of_ten_moves_and_a_cup_adds_short_extra_time():
    game = get_game(CHESS)
    short = game.room_setup(("p1", "p2"), False, {"length": "short"}, Rng(1))
    cup = game.room_setup(("p1", "p2"), True, {"length": "short"}, Rng(1))
    normal = game.room_setup(("p1", "p2"), True, {"length": "normal"}, Rng(1))
    assert FORMAT.view(FORMAT.start(short, Rng(1)), None)["moves_per_half"] == 10
    assert FORMAT.start(short, Rng(1)).extra_moves == 0 and FORMAT.start(cup, Rng(1)).extra_moves == 3
    assert FORMAT.start(normal, Rng(1)).half_moves == 40 and FORMAT.start(normal, Rng(1)).extra_moves == 10
    with pytest.raises(ValueError):
        game.clean_options({"length": "blitz"})


def test_magic_football_plays_its_matches_as_chess_football_when_the_house_rule_says_so():
    """R20: the first match of the tournament is a chess-football match between the countries, played to
    its end with its cards put back as the rules of Magic Football want."""
    st = new_game(6, house_rules={"seats": 3, "match_format": CHESS})
    st, _ = act(st, GUEST, {"type": "join", "nickname": "Anna"})
    for strength in ("easy", "strong"):
        st, _ = act(st, HOST, {"type": "add_bot", "strength": strength})
    st, _ = act(st, HOST, {"type": "start"})
    rng = Rng(6)
    for _ in range(20_000):
        finished = [m for m in st.matches if m.status == "finished"]
        if finished or st.status != "running":
            break
        prompt = st.prompts[rng.randbelow(len(st.prompts))]
        strength = st.seats[prompt.seat].bot or "easy" if prompt.seat else "strong"
        choice = bots.decide(st, prompt, strength, CAT, rng)
        st, _ = act(st, seat(prompt.seat), {"type": "answer", "prompt": prompt.id, "choice": choice})
    assert finished, "no match was played"
    match = finished[0]
    assert match.format == CHESS and match.home.country and match.away.country
    assert FORMAT.result(match.engine) is not None and match.winner_side in ("home", "away")
