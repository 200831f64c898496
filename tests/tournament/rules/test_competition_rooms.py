"""Rooms of the other games (tournament/rules/competition.py, rulings CP1–CP5): one match, a cup, a league,
played seat against seat through the room's prompts, for every registered game."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
import sweep
from helpers import CAT, GUEST, HOST, act, refused, seat

from games.api import game_keys, get_game
from games.rng import LATEST, BlockRng, Rng
from tournament.rules import bots
from tournament.rules.competition import standings
from tournament.rules.engine import apply_action
from tournament.rules.errors import MalformedAction
from tournament.rules.events import Ctx
from tournament.rules.setup import from_setup, new_game, setup_of
from tournament.rules.state import GameState

ROOMS = [("single", 2), ("cup", 3), ("cup", 5), ("league", 4)]
SEEDS = range(sweep.size(ci=2, soak=20))


def room(game: str, kind: str, players: int, seed: int = 1, **rules: Any) -> GameState:
    """A started room of ``game``: the host and bots of every strength in ``players`` seats."""
    rules = {"options": sweep.quick_options(game), **rules}  # short chess matches in CI, full in the soak
    st = new_game(seed, game=game, house_rules={"seats": players, "competition": kind, **rules})
    st, _ = act(st, HOST, {"type": "join", "nickname": "Anna", "host": True})
    strengths = itertools.cycle(["strong", "easy", "random"])
    while len(st.seats) < players:
        st, _ = act(st, HOST, {"type": "add_bot", "strength": next(strengths)})
    st, _ = act(st, HOST, {"type": "start"})
    return st


def play_out(st: GameState, seed: int) -> tuple[GameState, list[Any], int]:
    """Answer every prompt with the seat's bot (Anna plays strong) until the competition ends."""
    rng = Rng(seed)
    events: list[Any] = []
    most_at_once = 0
    for _ in range(100_000):
        if st.status != "running":
            break
        most_at_once = max(most_at_once, len(st.playing_matches()))
        prompt = st.prompts[rng.randbelow(len(st.prompts))]
        strength = st.seats[prompt.seat].bot or "strong"
        choice = bots.decide(st, prompt, strength, CAT, rng)
        st, evs = act(st, seat(prompt.seat), {"type": "answer", "prompt": prompt.id, "choice": choice})
        events += evs
    return st, events, most_at_once


@pytest.mark.parametrize(("kind", "players"), ROOMS)
@pytest.mark.parametrize("game", game_keys())
def test_a_competition_is_played_to_its_end(game: str, kind: str, players: int) -> None:
    for seed in SEEDS:
        st, events, at_once = play_out(room(game, kind, players, seed), seed)
        assert st.status == st.phase == "finished"
        matches = [m for m in st.matches if m.status == "finished"]
        expected = {"single": 1, "cup": players - 1, "league": players * (players - 1) // 2}[kind]
        assert len(matches) == expected and not st.prompts
        kinds = [e.kind for e in events]
        assert kinds.count("match_over") == expected
        if kind == "league":
            rows = standings(st)  # the winner tops the table
            assert st.winner == {"seat": rows[0]["seat"], "competition": "league"}
            assert sum(r["played"] for r in rows) == 2 * expected
            assert at_once == players // 2  # CP5: a round's matches are played side by side
        elif kind == "cup":
            final = st.matches[-1]
            assert st.winner["seat"] in (final.home.seat, final.away.seat)
            assert all(m.winner_side for m in matches)  # a cup match always has a winner
            assert "competition_won" in kinds
        else:
            assert kinds[-1] in ("competition_won", "competition_drawn")


def test_the_draw_and_every_roll_are_the_seeds() -> None:
    a, _, _ = play_out(room("dice-football", "league", 4, seed=7), 7)
    b, _, _ = play_out(room("dice-football", "league", 4, seed=7), 7)
    assert [m.score for m in a.matches] == [m.score for m in b.matches]
    assert a.competition == b.competition and a.winner == b.winner


def test_magic_football_plays_its_matches_as_dice_football_when_the_house_rule_says_so() -> None:
    st = new_game(5, house_rules={"seats": 4, "match_format": "dice-football"})
    for name in ("Anna", "Ben"):
        st, _ = act(st, GUEST, {"type": "join", "nickname": name})
    for strength in ("easy", "strong"):
        st, _ = act(st, HOST, {"type": "add_bot", "strength": strength})
    st, _ = act(st, HOST, {"type": "start"})
    rng = Rng(5)
    for _ in range(60_000):
        if st.status != "running":
            break
        prompt = st.prompts[rng.randbelow(len(st.prompts))]
        strength = st.seats[prompt.seat].bot or "easy" if prompt.seat else "strong"
        choice = bots.decide(st, prompt, strength, CAT, rng)
        st, _ = act(st, seat(prompt.seat), {"type": "answer", "prompt": prompt.id, "choice": choice})
    assert st.status == "finished" and st.winner and st.winner["country"]
    played = [m for m in st.matches if m.status == "finished"]
    assert played and all(m.format == "dice-football" for m in played)
    assert {m.kind for m in played} >= {"qf", "sf", "f"}


# ------------------------------------------------------------------------------------------ bad input


@pytest.mark.parametrize("offered", [True, False])
def test_a_match_format_magic_football_does_not_offer_is_refused(monkeypatch, offered: bool) -> None:
    """R20: only a game that offers itself (its board can draw a Magic Football match) may be chosen."""
    import dataclasses

    from games import api

    dice = get_game("dice-football")
    monkeypatch.setitem(api._GAMES, dice.key, dataclasses.replace(dice, in_magic_football=offered))
    for key in ("tiddlywinks", "dice-football"):
        if key == "dice-football" and offered:
            chosen = new_game(5, house_rules={"seats": 4, "match_format": key}).house_rules
            assert chosen["match_format"] == key
            continue
        with pytest.raises(Exception) as info:
            new_game(5, house_rules={"seats": 4, "match_format": key})
        assert getattr(info.value, "code", None) == "malformed"


def test_a_game_that_does_not_exist_is_refused() -> None:
    with pytest.raises(Exception) as info:
        new_game(1, game="tiddlywinks")
    assert getattr(info.value, "code", None) == "unknown_game"


@pytest.mark.parametrize(
    "rules",
    [
        {"seats": 9, "competition": "cup"},
        {"seats": 2, "competition": "cup"},
        {"seats": 4, "competition": "single"},
        {"seats": 4, "competition": "knock-out"},
        {"seats": 4, "competition": "league", "options": {"length": "forever"}},
        {"seats": 4, "competition": "league", "visit_fee_to": "bank"},
        {"seats": 4, "competition": "league", "decision_timer": 5},
    ],
)
def test_house_rules_the_game_does_not_hold_are_refused(rules: dict[str, Any]) -> None:
    with pytest.raises(Exception) as info:
        new_game(1, game="dice-football", house_rules=rules)
    assert getattr(info.value, "code", None) == "malformed"


def test_a_cup_started_with_too_few_players_is_refused_and_changes_nothing() -> None:
    st = new_game(1, game="dice-football", house_rules={"seats": 4, "competition": "cup"})
    st, _ = act(st, HOST, {"type": "join", "nickname": "Anna", "host": True})
    st, _ = act(st, HOST, {"type": "add_bot", "strength": "easy"})
    assert refused(st, HOST, {"type": "start"}).code == "not_enough_players"


def test_money_and_foreign_choices_are_refused_in_a_dice_room() -> None:
    st = room("dice-football", "single", 2)
    assert refused(
        st, HOST, {"type": "transfer", "src": "bank", "dst": "p1", "amount": 5, "memo": "x"}
    ).code in (
        "illegal_choice",
        "malformed",
    )
    prompt = next(p for p in st.prompts)
    assert refused(st, seat(prompt.seat), {"type": "answer", "prompt": prompt.id, "choice": {"kind": "fly"}})
    other = 2 if prompt.seat == 1 else 1
    assert refused(
        st, seat(other), {"type": "answer", "prompt": prompt.id, "choice": prompt.default}
    ).code == ("not_your_prompt")
    after, _ = apply_action(
        st, seat(prompt.seat), {"type": "answer", "prompt": prompt.id, "choice": prompt.default}
    )
    assert after.prompts != st.prompts  # the default is legal, and the game moved on


def test_the_rooms_games_are_the_registered_ones() -> None:
    assert {get_game(k).key for k in game_keys()} == set(game_keys()) >= {"duel", "dice-football"}


def test_a_rematch_keeps_every_house_rule_its_game_knows() -> None:
    from tournament.rules.setup import rematch_house_rules

    dice = room("dice-football", "league", 3, options={"length": "short"}, decision_timer=30)
    assert rematch_house_rules(dice) == dice.house_rules
    assert rematch_house_rules(dice)["options"]["length"] == "short"
    mf = new_game(1, house_rules={"seats": 3, "match_format": "duel", "visit_fee_to": "bank"})
    kept = rematch_house_rules(mf)
    assert kept["match_format"] == "duel" and kept["visit_fee_to"] == "bank" and kept["seats"] == 3


def test_a_decision_can_be_taken_by_the_number_of_its_listed_choice() -> None:
    """What a board's buttons send (``pick``): the same as sending that choice, and nothing else."""
    st = room("dice-football", "single", 2, seed=9)
    prompt = st.prompts[0]
    by_pick, events_pick = act(st, seat(prompt.seat), {"type": "answer", "prompt": prompt.id, "pick": 1})
    by_choice, events_choice = act(
        st, seat(prompt.seat), {"type": "answer", "prompt": prompt.id, "choice": prompt.choices[1]}
    )
    assert [e.payload for e in events_pick] == [e.payload for e in events_choice]
    assert by_pick.rng_counter == by_choice.rng_counter
    for bad, code in (
        ({"pick": len(prompt.choices)}, "illegal_choice"),
        ({"pick": -1}, "illegal_choice"),
        ({"pick": True}, "malformed"),
        ({"pick": "1"}, "malformed"),
        ({"pick": 0, "choice": prompt.choices[0]}, "malformed"),
    ):
        assert refused(st, seat(prompt.seat), {"type": "answer", "prompt": prompt.id, **bad}).code == code


# ------------------------------------------------------------------ the generator a room draws from
@pytest.mark.parametrize("game", game_keys())
def test_a_new_room_of_a_game_names_generator_2_in_its_setup_and_draws_from_it(game: str) -> None:
    st = new_game(4, game=game, house_rules={"seats": 2})
    assert st.rng_generation == LATEST == 2
    assert setup_of(st)["rng"] == 2 and from_setup(4, setup_of(st)).rng_generation == 2
    assert type(Ctx(st, CAT, HOST).rng) is BlockRng
    started = room(game, "single", 2, seed=4)
    assert started.rng_generation == 2 and started.rng_counter > 0  # the toss and the draw came from it


def test_magic_football_and_every_setup_older_than_generator_2_draw_from_generator_1() -> None:
    mf = new_game(4)
    assert mf.rng_generation == 1 and "rng" not in setup_of(mf)  # as every stored Magic Football setup
    assert type(Ctx(mf, CAT, HOST).rng) is Rng
    old_dice = {"mode": "world_cup", "house_rules": {"seats": 2}, "game": "dice-football"}  # before 2 came
    assert from_setup(4, old_dice).rng_generation == 1
    assert type(Ctx(from_setup(4, old_dice), CAT, HOST).rng) is Rng


@pytest.mark.parametrize("bad", [0, 3, "2", None, True, [2], {"g": 2}])
def test_a_setup_naming_a_generator_that_does_not_exist_is_refused(bad: Any) -> None:
    setup = {"mode": "world_cup", "house_rules": {"seats": 2}, "game": "dice-football", "rng": bad}
    with pytest.raises(MalformedAction, match="unknown random generator"):
        from_setup(4, setup)


# --------------------------------------------- a game's own points and what a seat carries (CP6, CP7)
def test_a_league_in_a_game_s_own_points_has_no_draw_and_a_seat_s_book_moves_only_with_its_matches() -> None:
    """Grid football's engine with its Champions Cup hooks (``tests/cupgames.py``), short matches: every
    league match is decided (5-0, 4-1 or 3-2), the table adds those points, and a seat's book changes only
    after its own matches (a rest is no match, GF-21) and always as the hook says from that match's report."""
    from cupgames import grid_cup_game, registered

    from games.grid_football.competition import CARRY, match_points
    from games.grid_football.rules import FORMAT

    with registered(grid_cup_game(normal_ones=3, extra_ones=1, shootout_kicks=2)) as game:
        st = room(game.key, "league", 3, seed=2)
        books = [dict(st.competition["books"])]
        rng = Rng(2)
        while st.status == "running":
            prompt = st.prompts[rng.randbelow(len(st.prompts))]
            choice = bots.decide(st, prompt, "random", CAT, rng)
            before = {m.number for m in st.matches if m.status == "finished"}
            st, _ = act(st, seat(prompt.seat), {"type": "answer", "prompt": prompt.id, "choice": choice})
            for m in st.matches:
                if m.status != "finished" or m.number in before:
                    continue
                moved = {str(m.home.seat), str(m.away.seat)}
                report = FORMAT.report(m.engine)
                old = books[-1]
                assert st.competition["books"][str(m.home.seat)] == CARRY.after(
                    old[str(m.home.seat)], report["home"]
                )
                assert st.competition["books"][str(m.away.seat)] == CARRY.after(
                    old[str(m.away.seat)], report["away"]
                )
                assert all(st.competition["books"][s] == b for s, b in old.items() if s not in moved)
                books.append(dict(st.competition["books"]))
        assert len(books) == 4  # three matches, each moved the books of its two seats on
        assert any(books[-1].values())  # and some card or injury was carried
        rows = standings(st)
        for m in st.matches:
            assert m.winner_side  # no draw
            expected = match_points(FORMAT.result(m.engine))
            assert m.context["points"] == [expected["home"], expected["away"]]
        assert sum(r["points"] for r in rows) == 5 * 3 and sum(r["drawn"] for r in rows) == 0
        assert st.winner == {"seat": rows[0]["seat"], "competition": "league"}
