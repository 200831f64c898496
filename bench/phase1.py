"""Benchmark: phase-1 bot games (start → every participant a BC) through the real services.

    .venv/bin/python bench/phase1.py --games 50 --seats 4 --db sqlite
    .venv/bin/python bench/phase1.py --games 20 --seats 8 --db postgres

Reports phase-1 games per second, actions per game, SQL statements per ``game_act`` (mean, max) and
time per action; appends a section with the machine's details to docs/PERFORMANCE.md (``--no-write``
to skip). Target: at most 25 SQL statements for one action.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
# bench/tournament.py would shadow the ``tournament`` app: the project root comes first
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))
sys.path.append(str(_HERE))

import _driver  # noqa: E402

TARGET_QUERIES = 25


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=50, help="phase-1 games to play (default 50)")
    parser.add_argument("--seats", type=int, default=4, help="bot participants per game, 2-8 (default 4)")
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--strength", choices=("easy", "strong", "random"), default="easy")
    parser.add_argument("--seed", type=int, default=2000, help="seed of the first game (then +1, +2 …)")
    parser.add_argument("--no-write", action="store_true", help="do not append to docs/PERFORMANCE.md")
    args = parser.parse_args(argv)
    if not 2 <= args.seats <= 8:
        parser.error("--seats must be 2 to 8")

    db = _driver.configure(args.db)
    try:
        _driver.play_game(args.seed - 1, args.seats, args.strength, until_phase="phase2")  # warm-up
        runs = [
            _driver.play_game(args.seed + i, args.seats, args.strength, until_phase="phase2")
            for i in range(args.games)
        ]
    finally:
        db.cleanup()

    s = _driver.summary(runs)
    per_second = s["games"] / s["seconds"]
    turns = [r.phase1_turns for r in runs]
    mean_turns = sum(turns) / len(turns)
    rows = [
        ("phase-1 games per second", f"{per_second:.2f}"),
        ("seconds per game (mean / max)", f"{s['mean_game_s']:.3f} / {s['max_game_s']:.3f}"),
        (
            "actions / turns per game (mean; max turns)",
            f"{s['mean_actions']:.0f} / {mean_turns:.0f}; {max(turns)}",
        ),
        *_driver.figure_rows(s, TARGET_QUERIES),
    ]
    print(f"phase 1: {s['games']} games × {args.seats} {args.strength} bots on {args.db} {db.version}")
    for key, value in rows:
        print(f"  {key}: {value}")
    not_done = [r.seed for r in runs if r.phase == "phase1"]
    if not_done:
        print(f"  STILL IN PHASE 1: seeds {not_done}")
    if not args.no_write:
        title = f"bench/phase1.py — {args.db}, {args.seats} seats, {args.games} games"
        intro = (
            "Phase-1 bot games (start → every participant a BC) through `game_act`, "
            "one transaction per action; "
            f"bots `{args.strength}` (`tournament.rules.bots.decide`), "
            f"seeds {args.seed}…{args.seed + args.games - 1}."
        )
        print(f"appended to {_driver.append_performance(_driver.render_section(title, intro, rows, db))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
