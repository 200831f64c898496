"""``manage.py simulate``: whole bot tournaments through the services, JSON lines, exit code, money plot."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import sweep
from django.core.management import CommandError, call_command

ROOT = Path(__file__).resolve().parents[2]


def _simulate(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SQLITE_PATH", "REDIS_URL")}
    env["DJANGO_SETTINGS_MODULE"] = "magicfootball.settings"
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "simulate", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _check_game_line(game: dict, players: int) -> None:
    assert game["invariants_ok"] is True, game["problems"]
    assert game["status"] == "finished"
    assert len(game["participants"]) == players
    for p in game["participants"]:
        assert set(p) >= {"nickname", "strength", "role", "country"}
        assert p["strength"] in ("strong", "easy", "random")
        assert p["role"] in ("bc", "out")
        assert (p["country"] is None) == (p["role"] == "out")
    assert game["turns"]["phase1"] > 0 and game["turns"]["phase2"] > 0 and game["turns"]["phase3"] == 7
    rounds = [m["round"] for m in game["bracket"]]
    assert rounds == ["QF"] * 4 + ["SF"] * 2 + ["F"]
    for m in game["bracket"]:
        assert m["decided_by"] in ("regular", "extra_time", "penalties")
        assert m["winner"] in (m["home"], m["away"])
        home, away = m["score"]
        if m["decided_by"] == "penalties":
            assert home == away and m["penalties"] is not None
        else:
            assert (home > away) == (m["winner"] == m["home"])
    # the Cup winner is the final's winner, coached by a BC or an AC (R17)
    final = game["bracket"][-1]
    assert game["winner"]["country"] == final["winner"]
    assert game["winner"]["coach_kind"] in ("bc", "ac", "bot")
    # semi-finalists are quarter-final winners
    qf_winners = {m["winner"] for m in game["bracket"][:4]}
    assert {c for m in game["bracket"][4:6] for c in (m["home"], m["away"])} == qf_winners
    assert game["events"] > 100 and game["actions"] > 50


@pytest.mark.slow
def test_simulate_prints_one_json_line_per_game_and_writes_a_png(tmp_path):
    plot = tmp_path / "money.png"
    proc = _simulate(
        "--players", "3", "--games", "2", "--seed", "7", "--strength", "mixed", "--json", "--plot", str(plot)
    )
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    assert len(lines) == 2, proc.stdout[:500]  # nothing else on stdout: no progress bar, no table
    games = [json.loads(line) for line in lines]
    assert [g["seed"] for g in games] == [7, 8]
    for game in games:
        _check_game_line(game, 3)
    strengths = {p["strength"] for g in games for p in g["participants"]}
    assert strengths == {"strong", "easy", "random"}
    data = plot.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 5000


@pytest.mark.slow
def test_simulate_table_mode_prints_a_summary_and_writes_an_svg(tmp_path):
    plot = tmp_path / "money.svg"
    proc = _simulate("--players", "2", "--games", "1", "--seed", "3", "--plot", str(plot))
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for words in (
        "Cup winners",
        "class",
        "average goals per match",
        "phase 1 / phase 2",
        "Money flows",
        "entry_fee",
        "all sound",
    ):
        assert words in out, out
    assert "tournaments" in proc.stderr  # the progress bar goes to stderr
    text = plot.read_text()
    assert "<svg" in text and "Bonus Fund" in text


def test_simulate_refuses_bad_arguments(tmp_path):
    assert _simulate("--players", "9").returncode == 2
    assert _simulate("--plot", str(tmp_path / "money.gif")).returncode != 0
    refused = _simulate("--game", "tiddlywinks")
    assert refused.returncode == 2 and "dice-football" in refused.stderr
    assert _simulate("--competition", "cup").returncode == 2  # Magic Football has its own

    def refusal(*argv: str) -> str:  # refused before any database is made: no child process needed
        with pytest.raises(CommandError) as exc:
            call_command("simulate", *argv)
        assert exc.value.returncode == 2
        return str(exc.value)

    assert "another game" in refusal("--option", "length=short")  # Magic Football has no room options
    assert "short" in refusal("--game", "chess-football", "--option", "length=forever")
    assert "length" in refusal("--game", "chess-football", "--option", "pace=slow")


@pytest.mark.parametrize(
    ("game", "players", "competition"),
    [("dice-football", 3, "league"), ("duel", 3, ""), ("chess-football", 3, ""), ("grid-football", 3, "")],
)
def test_simulate_plays_another_games_rooms_with_the_same_json_lines(game, players, competition):
    extra = ["--competition", competition] if competition else []
    extra += [f"--option={key}={value}" for key, value in sweep.quick_options(game).items()]
    proc = _simulate(
        "--game", game, "--players", str(players), "--games", "2", "--seed", "5", "--json", *extra
    )
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.strip().splitlines()]
    assert [line["seed"] for line in lines] == [5, 6]
    for line in lines:
        assert line["game"] == game and line["invariants_ok"] is True and line["status"] == "finished"
        assert {p["seat"] for p in line["participants"]} == set(range(1, players + 1))
        assert line["winner"]["seat"] in range(1, players + 1)
        if competition == "league":  # everyone meets everyone once; the winner tops the table
            assert len(line["bracket"]) == players * (players - 1) // 2
            assert line["table"][0]["seat"] == line["winner"]["seat"]
            assert sum(row["played"] for row in line["table"]) == 2 * len(line["bracket"])
        else:  # a cup of 3: one bye, two matches, the final's winner wins it
            assert len(line["bracket"]) == 2 and line["bracket"][-1]["winner"] == line["winner"]["seat"]
            assert line["table"] == []


@pytest.mark.slow
def test_simulate_on_a_fresh_postgres_database(postgres_url):
    proc = _simulate("--players", "2", "--games", "1", "--seed", "11", "--db", "postgres", "--json")
    assert proc.returncode == 0, proc.stderr
    _check_game_line(json.loads(proc.stdout.strip().splitlines()[-1]), 2)


@pytest.mark.django_db(transaction=True)
def test_a_broken_invariant_makes_the_command_exit_non_zero(monkeypatch):
    """The stored game is checked after play; a single problem makes the exit code 1."""
    from tournament import simulation

    real = simulation.check_invariants
    monkeypatch.setattr(simulation, "check_invariants", lambda st, cat: [*real(st, cat), "planted problem"])
    monkeypatch.setenv("MFT_SIMULATE_CHILD", "1")
    with pytest.raises(SystemExit) as exc:
        call_command("simulate", "--players", "2", "--games", "1", "--seed", "2", "--json")
    assert exc.value.code == 1


@pytest.mark.django_db(transaction=True)
def test_simulated_games_go_through_game_act_as_the_seats():
    """Every recorded action after the start is an answer by the prompt's own seat (no model writes)."""
    from tournament import simulation
    from tournament.models import ActionRecord, Game

    report = simulation.play_game(seed=4, players=2, strengths=["strong", "random"])
    assert report.invariants_ok, report.problems
    game = Game.objects.get(code=report.code)
    records = list(ActionRecord.objects.filter(game=game).order_by("version_before"))
    assert records[0].actor == "host" and records[-1].version_after == game.version
    answers = [r for r in records if r.action.get("type") == "answer"]
    assert len(answers) == report.actions - 1
    assert {r.actor for r in answers} == {"seat:1", "seat:2"}
    assert game.status == "finished" and game.winner_country == report.winner["country"]


@pytest.mark.django_db(transaction=True)
def test_a_simulated_cup_of_a_game_with_its_own_points_reports_them_and_who_could_not_play():
    """``simulate``'s JSON line of a cup in a game's own points (CP6, CP7): each match's points and absent."""
    from cupgames import grid_cup_game, registered

    from tournament.simulation import play_game

    with registered(grid_cup_game(normal_ones=2, extra_ones=1, shootout_kicks=1)) as game:
        report = play_game(seed=5, players=3, strengths=["random"] * 3, game=game.key, competition="cup")
    line = report.as_json()
    assert line["status"] == "finished" and line["invariants_ok"] is True and len(line["bracket"]) == 2
    for m in line["bracket"]:
        assert sum(m["points"]) == 5 and set(m["absent"]) == {"home", "away"}
