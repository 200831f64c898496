"""Bot strength: win rates of ``strong``, ``easy`` and ``random`` over seeded tournaments on the pure rules.

Usage (from the repository root)::

    .venv/bin/python bench/bots.py [--games 600] [--duel-games 500] [--workers 2] [--no-write]

Three tables, each over its own seeds, seats rotating so every strength sits in every seat equally often
(turn order is rolled, R3, but seat 1 still breaks ties in some rules):

- ``mixed``: 4 seats (strong, easy, easy, random): the issue's table.
- ``strong vs easy`` and ``strong vs random``: 2 seats, head to head.

A seat *wins* a tournament when it coaches the country that lifts the Cup, as its BC or as the AC of a
rival (R17); a rival coached by the house bot can win too (nobody at the table wins then). Win rates per
seat of a strength with 95 % Wilson intervals are printed and appended to docs/PERFORMANCE.md.
Every game is bounded (20,000 actions) and the run by its game counts.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# bench/tournament.py would shadow the ``tournament`` app: import from the repository root only
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench.common import append_performance, machine, machine_lines, wilson  # noqa: E402

TABLES: dict[str, list[str]] = {
    "mixed": ["strong", "easy", "easy", "random"],
    "strong vs easy": ["strong", "easy"],
    "strong vs random": ["strong", "random"],
}
SEED_BASE = {"mixed": 1_000_000, "strong vs easy": 2_000_000, "strong vs random": 3_000_000}


def play(args: tuple[str, int]) -> tuple[str, list[str], str | None, int, dict[str, int], bool]:
    """Play one seeded tournament; returns (table, seating, winning strength, actions, turns, finished)."""
    table_name, game = args
    from cards.catalog import get_catalog
    from tournament.rules import bots, invariants
    from tournament.rules.engine import apply_action
    from tournament.rules.events import Actor
    from tournament.rules.setup import new_game

    cat = get_catalog()
    table = TABLES[table_name]
    seating = table[game % len(table) :] + table[: game % len(table)]
    st = new_game(SEED_BASE[table_name] + game, house_rules={"seats": len(seating)})
    for strength in seating:
        st, _ = apply_action(st, Actor("host"), {"type": "add_bot", "strength": strength}, cat)
    st, _ = apply_action(st, Actor("host"), {"type": "start"}, cat)
    st, actions = bots.autoplay(st, cat)
    coach = st.winner["coach"] if st.winner else None
    winner = seating[coach - 1] if coach is not None else None
    ok = st.status == "finished" and not invariants.check(st, cat)
    return table_name, seating, winner, actions, dict(st.turns), ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=600, help="tournaments of the mixed 4-seat table")
    parser.add_argument("--duel-games", type=int, default=500, help="tournaments of each 2-seat table")
    parser.add_argument("--workers", type=int, default=2, help="processes (the machine has 2 cores)")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)

    jobs = [("mixed", g) for g in range(args.games)]
    for name in ("strong vs easy", "strong vs random"):
        jobs += [(name, g) for g in range(args.duel_games)]
    t0 = time.perf_counter()
    wins: dict[str, Counter[str]] = {name: Counter() for name in TABLES}
    seats: dict[str, Counter[str]] = {name: Counter() for name in TABLES}
    games: Counter[str] = Counter()
    house: Counter[str] = Counter()
    actions: Counter[str] = Counter()
    broken = 0
    with ProcessPoolExecutor(max_workers=max(1, args.workers)) as pool:
        for table_name, seating, winner, n, _turns, ok in pool.map(play, jobs, chunksize=8):
            games[table_name] += 1
            actions[table_name] += n
            broken += not ok
            for s in seating:
                seats[table_name][s] += 1
            if winner is None:
                house[table_name] += 1
            else:
                wins[table_name][winner] += 1
    seconds = time.perf_counter() - t0

    rows = []
    for name, table in TABLES.items():
        if not games[name]:
            continue
        for strength in dict.fromkeys(table):
            w, n = wins[name][strength], seats[name][strength]
            lo, hi = wilson(w, n)
            rows.append((name, strength, n, w, w / n, lo, hi))
        rows.append(
            (
                name,
                "house bot (a rival nobody coached)",
                games[name],
                house[name],
                house[name] / games[name],
                *wilson(house[name], games[name]),
            )
        )
    for name, strength, n, w, rate, lo, hi in rows:
        print(
            f"{name:<17} {strength:<36} seats {n:>5}  wins {w:>5}  rate {rate:6.1%}"
            f"  95% CI {lo:6.1%}–{hi:6.1%}"
        )
    total = sum(games.values())
    print(
        f"{total} tournaments in {seconds:.1f} s ({total / seconds:.1f}/s on {args.workers} processes); "
        f"{broken} with a broken invariant"
    )
    mixed = {r[1]: r for r in rows if r[0] == "mixed"}
    verdict = (
        "strong" in mixed
        and "easy" in mixed
        and "random" in mixed
        and mixed["strong"][5] > mixed["easy"][6]
        and mixed["strong"][5] > mixed["random"][6]
    )
    print("strong wins clearly more often (CI above easy's and random's):", "yes" if verdict else "NO")
    if not args.no_write:
        info = machine()
        lines = [
            f"## Bots: tournament win rates by strength ({info['date']})",
            "",
            "`python bench/bots.py`: whole tournaments on the pure rules (`tournament.rules.bots.autoplay`),",
            "every decision by the seat's bot, seats rotating. A seat wins when it coaches the Cup winner",
            "(BC, or AC of a rival, R17); the house-bot row counts Cups won by a rival nobody at the table",
            "coached. Rates are per seat of that strength; intervals are 95 % Wilson.",
            "",
            *machine_lines(info),
            f"- {total} tournaments in {seconds:.0f} s on {args.workers} processes;"
            f" broken invariants: {broken}",
            "",
            "| table | strength | seats | wins | win rate | 95 % CI |",
            "|---|---|---:|---:|---:|---|",
        ]
        for name, strength, n, w, rate, lo, hi in rows:
            lines.append(f"| {name} | {strength} | {n} | {w} | {rate:.1%} | {lo:.1%} – {hi:.1%} |")
        lines += [
            "",
            "Mean actions per tournament: "
            + ", ".join(f"{name} {actions[name] / games[name]:.0f}" for name in TABLES if games[name])
            + ".",
            f"Strong wins clearly more often than easy and random (its interval lies above theirs): "
            f"**{'yes' if verdict else 'no'}**. With 4 seats a seat wins 25 % of Cups by chance (less the "
            "house bot's share).",
            "",
        ]
        append_performance("\n".join(lines))
        print("appended to docs/PERFORMANCE.md")
    return 0 if broken == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
