"""Grid football in the rooms (issue 25): a line-up answered by the squad-sheet form, refusals told in the
player's language (a twelfth pawn, a suspended player, a walk longer than the roll), the match-length option,
bots of every strength and Magic Football's matches played as grid football (R20)."""

from __future__ import annotations

import pytest
from django.utils import translation
from helpers import CAT, GUEST, HOST, act, refused, seat
from test_competition_rooms import room

from games.api import get_game
from games.grid_football.rules import FORMAT
from games.rng import Rng
from tournament.messages import error_text
from tournament.rules import bots
from tournament.rules.setup import new_game
from tournament.views.forms import parse

GRID = "grid-football"
ELEVEN = [1, 2, 3, 4, 5, 8, 9, 10, 11, 14, 15]


def _lineup_prompt(st):
    return next(p for p in st.prompts if p.kind == "lineup" and p.seat == 1)


def test_a_line_up_is_posted_as_squad_numbers_and_kept_secret_from_the_other_seat():
    st = room(GRID, "single", 2, seed=3, options={"length": "short"})
    prompt = _lineup_prompt(st)
    assert prompt.choices == []  # a line-up cannot be listed: the board's own form answers it
    form = parse(
        {
            "action": "lineup",
            "prompt": str(prompt.id),
            "players": [str(n) for n in ELEVEN],
            "keeper_column": "6",
            "centre": ["5", "6", "5"],
            "version": "1",
            "action_id": "a",
        }
    )
    choice = {"kind": "lineup", "players": ELEVEN, "keeper_column": 6, "centre": [5, 6, 5]}
    assert form.action == {"type": "answer", "prompt": prompt.id, "choice": choice}
    after, events = act(st, seat(1), form.action)
    secret = [e for e in events if e.kind == "m.lineup"]
    assert [e.audience for e in secret] == [(1,)] and secret[0].payload["players"] == ELEVEN
    engine = after.playing_matches()[0].engine
    side = prompt.context["side"]
    assert FORMAT.view(engine, "away" if side == "home" else "home")["lineups"][side]["players"] is None


@pytest.mark.parametrize(
    ("players", "english", "dutch"),
    [
        ([*ELEVEN, 16], "a twelfth pawn is not allowed", "een twaalfde pion mag niet"),
        ([1, 20, *ELEVEN[1:10]], "exactly one keeper", "precies één keeper"),
        ([*ELEVEN[:10], 21], "there is no player 21 in a squad of 20", "er is geen speler 21"),
    ],
)
def test_a_bad_line_up_is_refused_in_the_players_language_and_changes_nothing(players, english, dutch):
    st = room(GRID, "single", 2, seed=3)
    prompt = _lineup_prompt(st)
    error = refused(
        st, seat(1), {"type": "answer", "prompt": prompt.id, "choice": {"kind": "lineup", "players": players}}
    )
    assert error.code == "illegal_choice"
    assert english in error_text(error)
    with translation.override("nl"):
        assert dutch in error_text(error)


def test_a_suspended_player_in_the_line_up_is_refused_with_his_number():
    st = room(GRID, "single", 2, seed=3)
    record = st.playing_matches()[0]
    side = 0 if record.home.seat == 1 else 1
    record.engine.status[20 * side + 9 - 1] = 0  # no. 9 is suspended (the cup's unavailable option)
    prompt = _lineup_prompt(st)
    error = refused(
        st, seat(1), {"type": "answer", "prompt": prompt.id, "choice": {"kind": "lineup", "players": ELEVEN}}
    )
    with translation.override("de"):
        assert "Spieler 9 ist gesperrt oder verletzt" in error_text(error)


def test_a_walk_longer_than_the_roll_is_refused_in_the_players_language():
    st = room(GRID, "single", 2, seed=5, options={"length": "short"})
    rng = Rng(5)
    for _ in range(400):  # play on until seat 1 walks
        prompt = st.prompts[0]
        if prompt.seat == 1 and prompt.kind == "act" and any(c["kind"] == "walk" for c in prompt.choices):
            break
        st, _ = act(st, seat(prompt.seat), {"type": "answer", "prompt": prompt.id, "choice": prompt.default})
    else:
        pytest.fail("seat 1 never walked")
    engine = st.playing_matches()[0].engine
    walk = next(c for c in prompt.choices if c["kind"] == "walk")
    view = FORMAT.view(engine, None)
    side = prompt.context["side"]
    at = next(p["square"] for p in view["squads"][side] if p["number"] == walk["player"])
    px, py = (int(v) for v in at.split(","))
    taken = {p["square"] for s in ("home", "away") for p in view["squads"][s] if p["square"]}
    far = next(
        f"{x},{y}"
        for y in range(4, 13)
        for x in range(1, 11)
        if abs(x - px) + abs(y - py) > engine.roll and f"{x},{y}" not in taken and f"{x},{y}" != view["ball"]
    )
    before = engine.roll
    error = refused(st, seat(1), {"type": "answer", "prompt": prompt.id, "choice": {**walk, "to": far}})
    assert error.code == "illegal_choice"
    assert f"a walk to {far} is longer than the roll of {before}" in error_text(error)
    with translation.override("es"):
        assert f"caminar a {far} es más largo que la tirada de {before}" in error_text(error)
    assert rng  # nothing was rolled for a refusal


def test_the_match_length_option_sets_the_clock():
    game = get_game(GRID)
    normal = FORMAT.start(game.room_setup(("a", "b"), True, {"length": "normal"}, Rng(1)), Rng(1))
    fixed = FORMAT.start(game.room_setup(("a", "b"), True, {"length": "fixed"}, Rng(1)), Rng(1))
    short = FORMAT.start(game.room_setup(("a", "b"), False, {"length": "short"}, Rng(1)), Rng(1))
    assert not normal.fixed and normal.normal_ones == 16
    assert fixed.fixed and fixed.fixed_rolls == 90 and fixed.fixed_extra_rolls == 30
    assert short.fixed and short.fixed_rolls == 30 and short.fixed_extra_rolls == 10 and not short.knockout
    with pytest.raises(ValueError):
        game.clean_options({"length": "forever"})


def test_magic_football_plays_its_matches_as_grid_football_when_the_house_rule_says_so():
    """R20: the first match of the tournament is a grid-football match between the countries, played to its
    end (line-ups, dice and all) with its cards put back as the rules of Magic Football want."""
    st = new_game(6, house_rules={"seats": 3, "match_format": GRID})
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
    assert match.format == GRID and match.home.country and match.away.country
    assert FORMAT.result(match.engine) is not None and match.winner_side in ("home", "away")
    assert FORMAT.view(match.engine, None)["labels"] == [match.home.country, match.away.country]
