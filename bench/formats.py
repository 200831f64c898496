"""The match formats of games/ on one core: random matches per second, the strong bot's decision time and
the bots' win shares. One section per format (``SECTIONS``); chess and grid football add theirs.

Usage (from the repository root)::

    .venv/bin/python bench/formats.py [--quick] [--matches N] [--seconds S] [--format KEY] [--write]

Dice football (games/dice_football/):

- *random matches per CPU second*: complete matches (two halves of 60 rolls, the default) between two
  ``random`` bots, one core, best of ``--repeat`` time-boxed rounds (as ``timeit``: other jobs on a shared
  machine only ever slow a round down), median beside it. Two drivers: the engine's fast path
  (``legal_actions``/``apply_action``, what a bot seat or a simulation uses) and the platform's decision
  loop (``decisions``/``apply`` with decision dicts, what a human seat goes through); both produce every
  event, and both draw from the generator a dice-football room uses (``games.rng.BlockRng``, generation
  2). Target: 2,000 matches/s.
- *strong decision time*: every decision of ``strong`` in strong-vs-easy matches, first with its memory
  empty (each new position is weighed over all its dice outcomes), then warm. Target: p95 ≤ 150 ms.
- *win shares*: ``--matches`` matches per pairing (seats alternate), the share of decided matches won,
  with a 95 % Wilson interval. Targets: strong–random ≥ 85 %, strong–easy ≥ 60 %.

Prints the machine's details and the figures; ``--write`` also appends them to docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench.common import append_performance, machine, machine_lines, percentile, wilson  # noqa: E402
from games.rng import GENERATIONS, LATEST, Rng  # noqa: E402

# the generator a room of a game under games/ draws from (tournament/rules/setup.py: new_game)
RoomRng = GENERATIONS[LATEST]

RANDOM_TARGET = 2000
P95_TARGET_MS = 150.0
SHARE_TARGETS = {("strong", "random"): 0.85, ("strong", "easy"): 0.60, ("easy", "random"): None}


def pin_one_core() -> str:
    """Run on one core (the first we may use), so the figures are per core."""
    if hasattr(os, "sched_setaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    return "not pinned"


def rate(run: Callable[[int], object], seconds: float, repeat: int) -> tuple[float, float, int]:
    """(best, median) matches per CPU second over ``repeat`` rounds of ``seconds`` each, and matches played.

    CPU seconds of this process (pinned to one core), not wall seconds: on a shared machine the wall clock
    also counts the time other jobs hold the core, which says nothing about the engine.
    """
    for i in range(20):  # warm-up
        run(10_000_000 + i)
    rates, total, seed = [], 0, 0
    for _ in range(max(1, repeat)):
        done, start = 0, time.process_time()
        while True:
            run(seed)
            seed += 1
            done += 1
            if done % 20 == 0 and time.process_time() - start >= seconds:
                break
        rates.append(done / (time.process_time() - start))
        total += done
    rates.sort()
    return rates[-1], rates[len(rates) // 2], total


class CountingRng(RoomRng):  # type: ignore[valid-type,misc]
    """The rooms' generator, counting its draws (the same numbers)."""

    __slots__ = ("draws",)

    def __init__(self, seed: int, counter: int = 0) -> None:
        super().__init__(seed, counter)
        self.draws = 0

    def randbelow(self, n: int) -> int:
        self.draws += 1
        return super().randbelow(n)


def floor_costs(run_counted: Callable[..., object], matches: int = 200) -> tuple[float, float, float, float]:
    """Per random match: numbers drawn, events created; and the CPU cost of one draw and of one event (as
    the engine builds it)."""
    from games.dice_football.rules import _ev

    draws = events = 0
    for seed in range(matches):
        rng, brng = CountingRng(seed), CountingRng(seed ^ 0x5EED)
        events += run_counted(seed, rng, brng)
        draws += rng.draws + brng.draws
    r = RoomRng(1)
    n = 200_000
    t = time.process_time()
    for _ in range(n):
        r.randbelow(6)
    t_draw = (time.process_time() - t) / n
    sink: list[object] = []
    t = time.process_time()
    for i in range(n):
        _ev(sink, "roll", {"side": "home", "die": "pass", "face": "F2", "use": "attack", "tick": i})
        if i & 255 == 0:
            sink.clear()
    t_event = (time.process_time() - t) / n
    return draws / matches, events / matches, t_draw, t_event


# ====================================================================== dice football
def dice_football(args: argparse.Namespace) -> list[str]:
    from games.dice_football import bots
    from games.dice_football.bots import play_match
    from games.dice_football.rules import FORMAT, dice_setup

    setup = dice_setup()
    lines = ["### Dice football (games/dice_football/)", ""]

    def fast(seed: int, rng: Rng | None = None, brng: Rng | None = None) -> int:
        rng = rng or RoomRng(seed)
        brng = brng or RoomRng(seed ^ 0x5EED)
        state, events = FORMAT.start_with_events(setup, rng)
        n = len(events)
        while legal := FORMAT.legal_actions(state):
            n += len(
                FORMAT.apply_action(
                    state, legal[brng.randbelow(len(legal))] if len(legal) > 1 else legal[0], rng
                )
            )
        return n

    def loop(seed: int) -> int:
        return len(play_match(FORMAT, setup, RoomRng(seed), "random", "random")[1])

    print("dice football: random matches per second (one core)")
    lines += [
        "| random vs random, driver | matches | best round, matches/s | median round |",
        "|---|---:|---:|---:|",
    ]
    best_fast = 0.0
    for name, run in (("engine fast path", fast), ("decision loop", loop)):
        best, median, total = rate(run, args.seconds, args.repeat)
        if run is fast:
            best_fast = best
        print(f"  {name:<18} {total:>7} matches: best round {best:7.0f}/s, median {median:7.0f}/s")
        lines.append(f"| {name} | {total} | {best:,.0f} | {median:,.0f} |")
    verdict = "met" if best_fast >= RANDOM_TARGET else "NOT met"
    draws, events, t_draw, t_event = floor_costs(fast)
    cap = 1 / (draws * t_draw + events * t_event)
    print(
        f"  a random match draws {draws:.0f} numbers from {RoomRng.__name__} ({t_draw * 1e6:.2f} µs each)"
        f" and creates {events:.0f} MatchEvent ({t_event * 1e6:.2f} µs each):"
        f" these alone cap it at {cap:,.0f} matches/s"
    )
    lines += [
        "",
        f"Target ≥ {RANDOM_TARGET:,} random matches/s (engine fast path): **{verdict}**. A random match"
        f" draws {draws:.0f} numbers from `games.rng.{RoomRng.__name__}` ({t_draw * 1e6:.2f} µs each here)"
        f" and creates {events:.0f} `MatchEvent`s ({t_event * 1e6:.2f} µs each): those two alone, with no"
        f" rules at all, cap the rate at {cap:,.0f} matches per CPU second.",
        "",
    ]

    print("dice football: strong bot decision time (strong vs easy)")
    timings: dict[str, list[float]] = {"cold": [], "warm": []}
    bots._POLICY.clear()
    n_time = 20 if args.quick else 60
    for i in range(2 * n_time):
        phase = "cold" if i < n_time else "warm"  # the memory filled while cold stays for the warm matches
        rng, brng = RoomRng(50_000 + i), RoomRng(60_000 + i)
        state = FORMAT.start(setup, rng)
        strong_side = "home" if i % 2 == 0 else "away"
        while pending := FORMAT.decisions(state):
            d = pending[0]
            if d.side == strong_side:
                t = time.perf_counter()
                choice = bots.strong_policy(FORMAT, state, d, brng)
                timings[phase].append(time.perf_counter() - t)
            else:
                choice = bots.easy_policy(FORMAT, state, d, brng)
            FORMAT.apply(state, d.side, choice, rng)
    lines += ["| strong decisions | count | p50 ms | p95 ms | max ms |", "|---|---:|---:|---:|---:|"]
    p95_all = 0.0
    for phase, label in (
        ("cold", f"first {n_time} matches, empty memory"),
        ("warm", f"next {n_time} matches"),
    ):
        ts = timings[phase]
        p50, p95, worst = percentile(ts, 0.5) * 1e3, percentile(ts, 0.95) * 1e3, max(ts) * 1e3
        p95_all = max(p95_all, p95)
        print(f"  {label:<34} {len(ts):>6} decisions: p50 {p50:.3f} ms, p95 {p95:.3f} ms, max {worst:.1f} ms")
        lines.append(f"| {label} | {len(ts)} | {p50:.3f} | {p95:.3f} | {worst:.1f} |")
    verdict = "met" if p95_all <= P95_TARGET_MS else "NOT met"
    lines += ["", f"Target p95 ≤ {P95_TARGET_MS:.0f} ms per decision: **{verdict}**.", ""]

    n = args.matches if args.matches is not None else (200 if args.quick else 1000)
    print(f"dice football: win shares over {n} matches per pairing (seats alternate)")
    lines += [
        f"| pairing ({n} matches) | wins | losses | draws | share of decided | 95 % Wilson | target |",
        "|---|---:|---:|---:|---:|---|---|",
    ]
    for (a, b), target in SHARE_TARGETS.items():
        wins = losses = draws = 0
        t0 = time.perf_counter()
        for i in range(n):
            home, away = (a, b) if i % 2 == 0 else (b, a)
            state, _ = play_match(FORMAT, setup, RoomRng(1_000_000 + i), home, away)
            winner = FORMAT.result(state).winner
            if winner is None:
                draws += 1
            elif (winner == "home") == (i % 2 == 0):
                wins += 1
            else:
                losses += 1
        decided = wins + losses
        share = wins / decided if decided else float("nan")
        lo, hi = wilson(wins, decided)
        goal = f"≥ {target:.0%}: {'met' if share >= target else 'NOT met'}" if target else ""
        print(
            f"  {a} vs {b}: {wins} won, {losses} lost, {draws} drawn; {share:.1%} of decided"
            f" [{lo:.1%}, {hi:.1%}] ({time.perf_counter() - t0:.0f} s)"
        )
        lines.append(
            f"| {a} – {b} | {wins} | {losses} | {draws} | {share:.1%} | {lo:.1%} – {hi:.1%} | {goal} |"
        )
    return [*lines, ""]


SECTIONS: dict[str, Callable[[argparse.Namespace], list[str]]] = {
    "dice-football": dice_football,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="short rounds and 200 matches per pairing")
    parser.add_argument("--matches", type=int, default=None, help="matches per bot pairing (default 1000)")
    parser.add_argument("--seconds", type=float, default=None, help="seconds per throughput round")
    parser.add_argument("--repeat", type=int, default=3, help="throughput rounds; the best is the figure")
    parser.add_argument("--format", choices=sorted(SECTIONS), action="append", help="only these formats")
    parser.add_argument("--write", action="store_true", help="also append the figures to docs/PERFORMANCE.md")
    args = parser.parse_args(argv)
    if args.seconds is None:
        args.seconds = 0.5 if args.quick else 2.0
    pinned = pin_one_core()
    info = machine()
    print(f"{info['cpu']} ({info['cores']} cores), {info['python']}, {pinned}")
    lines = [
        f"## Match formats: throughput, bot time and strength ({info['date']})",
        "",
        *machine_lines(info),
    ]
    lines += [f"- {pinned}; `python bench/formats.py{' --quick' if args.quick else ''}`", ""]
    for key in args.format or list(SECTIONS):
        lines += SECTIONS[key](args)
    print(f"load average at the end (1 / 5 / 15 min): {machine()['load']}")
    if args.write:
        print(f"appended to {append_performance(chr(10).join(lines)).relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
