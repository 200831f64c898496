"""Benchmark: whole bot tournaments (lobby → Cup) through the real services on SQLite or PostgreSQL.

    .venv/bin/python bench/tournament.py --games 20 --seats 8 --db sqlite
    .venv/bin/python bench/tournament.py --games 10 --seats 8 --db postgres
    .venv/bin/python bench/tournament.py --games 1 --seats 8 --profile   # where the time goes

Reports tournaments per minute, seconds per tournament, SQL statements per ``game_act`` (mean, max)
and per tournament, time per action; appends a section with the machine's details to
docs/PERFORMANCE.md (``--no-write`` to skip). Targets: a full 8-participant tournament in under 2 s
on SQLite; at most 25 SQL statements for one action.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
# this file is called tournament.py: keep it from shadowing the ``tournament`` app
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))
sys.path.append(str(_HERE))

import _driver  # noqa: E402

TARGET_SECONDS = 2.0
TARGET_QUERIES = 25


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=20, help="tournaments to play (default 20)")
    parser.add_argument(
        "--seats", type=int, default=8, help="bot participants per tournament, 2-8 (default 8)"
    )
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--strength", choices=("easy", "strong", "random"), default="easy")
    parser.add_argument("--seed", type=int, default=1000, help="seed of the first tournament (then +1, +2 …)")
    parser.add_argument("--profile", action="store_true", help="cProfile the run and print the top functions")
    parser.add_argument("--no-write", action="store_true", help="do not append to docs/PERFORMANCE.md")
    args = parser.parse_args(argv)
    if not 2 <= args.seats <= 8:
        parser.error("--seats must be 2 to 8")

    db = _driver.configure(args.db)
    try:
        _driver.play_game(args.seed - 1, args.seats, args.strength)  # warm-up: imports, catalog, caches
        profiler = None
        if args.profile:
            import cProfile

            profiler = cProfile.Profile()
            profiler.enable()
        runs = [_driver.play_game(args.seed + i, args.seats, args.strength) for i in range(args.games)]
        if profiler is not None:
            import pstats

            profiler.disable()
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(35)
    finally:
        db.cleanup()

    s = _driver.summary(runs)
    per_minute = 60 * s["games"] / s["seconds"]
    met = "met" if s["max_game_s"] < TARGET_SECONDS else "MISSED"
    rows = [
        ("tournaments per minute", f"{per_minute:.1f}"),
        (
            "seconds per tournament (mean / max)",
            f"{s['mean_game_s']:.3f} / {s['max_game_s']:.3f} (< {TARGET_SECONDS}: {met})",
        ),
        ("actions per tournament (mean)", f"{s['mean_actions']:.0f}"),
        ("SQL statements per tournament (mean)", f"{s['q_total_mean']:.0f}"),
        *_driver.figure_rows(s, TARGET_QUERIES),
    ]
    print(f"tournaments: {s['games']} × {args.seats} {args.strength} bots on {args.db} {db.version}")
    for key, value in rows:
        print(f"  {key}: {value}")
    unfinished = [r.seed for r in runs if r.status != "finished"]
    if unfinished:
        print(f"  NOT FINISHED: seeds {unfinished}")
    if not args.no_write and not args.profile:
        title = f"bench/tournament.py — {args.db}, {args.seats} seats, {args.games} tournaments"
        intro = (
            "Whole bot tournaments (start → Cup) through `game_act`, one transaction per action; "
            f"bots `{args.strength}` (`tournament.rules.bots.decide`), "
            f"seeds {args.seed}…{args.seed + args.games - 1}."
        )
        print(f"appended to {_driver.append_performance(_driver.render_section(title, intro, rows, db))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
