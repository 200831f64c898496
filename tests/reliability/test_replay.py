"""Deterministic replay (issue 8): ``python manage.py replay <room>`` rebuilds a game from its seed and
action log and proves it equals the stored state — checked on PostgreSQL for 4 simulated tournaments in
CI (one of each configuration below) and 100 under ``make soak``.

The tournaments are played by ``manage.py simulate`` (bots answering through ``game_act``, as a live
game does) with 2 to 8 participants, every bot strength and both modes. A tampered game must be
reported as different, so the check cannot pass by comparing nothing.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import sweep

ROOT = Path(__file__).resolve().parents[2]
# (players, strength, mode, games): 4 tournaments in CI, 100 in the soak
BATCHES = [
    (2, "random", "euro", sweep.size(ci=2, soak=20)),  # two: one replayed alone, one tampered with
    (4, "mixed", "world_cup", sweep.size(ci=1, soak=30)),
    (6, "strong", "world_cup", sweep.size(ci=1, soak=25)),
    (8, "easy", "euro", sweep.size(ci=1, soak=25)),
]


def _manage(database_url: str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {
        k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "SQLITE_PATH", "DJANGO_SETTINGS_MODULE")
    }
    proc = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        cwd=ROOT,
        env={**env, "DATABASE_URL": database_url},
        capture_output=True,
        text=True,
        timeout=3600,
        check=False,
    )
    if check and proc.returncode != 0:
        pytest.fail(
            f"manage.py {' '.join(args)} exited {proc.returncode}:\n"
            f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
        )
    return proc


@pytest.mark.slow
@pytest.mark.parametrize("batch", range(len(BATCHES)))
def test_replay_command_proves_simulated_tournaments_equal_their_stored_state(
    pg_database: str, batch: int
) -> None:
    """One configuration per test case (each on its own database), so parallel workers share the work."""
    rooms: list[str] = []
    seed = 1000 + sum(b[3] for b in BATCHES[:batch])
    for players, strength, mode, games in BATCHES[batch : batch + 1]:
        out = _manage(
            pg_database,
            "simulate",
            "--players",
            str(players),
            "--games",
            str(games),
            "--seed",
            str(seed),
            "--strength",
            strength,
            "--mode",
            mode,
            "--db",
            pg_database,
            "--json",
        )
        reports = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
        assert len(reports) == games
        assert all(r["status"] == "finished" for r in reports), [r["problems"] for r in reports][:3]
        rooms += [r["room"] for r in reports]
        seed += games
    assert len(rooms) == len(set(rooms)) == BATCHES[batch][3]

    out = _manage(pg_database, "replay", "--all")
    ok = re.findall(r"^(\w+): OK — (\d+) actions replayed to version (\d+)$", out.stdout, re.MULTILINE)
    assert sorted(code for code, _, _ in ok) == sorted(rooms)
    assert all(int(actions) > 100 for _, actions, _ in ok)
    print(f"replayed {len(ok)} tournaments, {sum(int(a) for _, a, _ in ok)} actions in all")

    if batch:
        return
    one = _manage(pg_database, "replay", rooms[0])  # the command as the issue names it
    assert one.stdout.startswith(f"{rooms[0]}: OK")

    # tamper with one stored game (two cards of one pile change places): replay must say so and fail
    swap = (
        "from tournament.models import Game; from cards.models import CardCopy\n"
        f"g = Game.objects.get(code={rooms[1]!r})\n"
        "rows = CardCopy.objects.filter(game=g).exclude(location='square')\n"
        "rows = list(rows.order_by('location', 'owner_id', 'position'))\n"
        "same = lambda x, y: (x.location, x.owner_id) == (y.location, y.owner_id)\n"
        "a, b = next((x, y) for x, y in zip(rows, rows[1:]) if same(x, y))\n"
        "pa, pb = a.position, b.position\n"
        "a.position = 32000; a.save(update_fields=['position'])\n"
        "b.position = pa; b.save(update_fields=['position'])\n"
        "a.position = pb; a.save(update_fields=['position'])\n"
    )
    _manage(pg_database, "shell", "-c", swap)
    bad = _manage(pg_database, "replay", rooms[1], check=False)
    assert bad.returncode != 0
    assert f"{rooms[1]}: DIFFERENT" in bad.stdout and "piles" in bad.stdout


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "players", "competition"), [("dice-football", 5, "cup"), ("duel", 4, "league")]
)
def test_replay_command_proves_other_games_rooms_equal_their_stored_state(
    pg_database: str, game: str, players: int, competition: str
) -> None:
    """The rooms of the other games on PostgreSQL: simulated through game_act, replayed from seed and log."""
    out = _manage(
        pg_database,
        "simulate",
        *("--game", game, "--competition", competition, "--players", str(players), "--games", "2"),
        *("--seed", "3000", "--strength", "mixed", "--db", pg_database, "--json"),
    )
    reports = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    assert [r["game"] for r in reports] == [game, game]
    assert all(r["status"] == "finished" and r["invariants_ok"] for r in reports), [
        r["problems"] for r in reports
    ]
    out = _manage(pg_database, "replay", "--all")
    ok = re.findall(r"^(\w+): OK — (\d+) actions replayed to version (\d+)$", out.stdout, re.MULTILINE)
    assert sorted(code for code, _, _ in ok) == sorted(r["room"] for r in reports)
