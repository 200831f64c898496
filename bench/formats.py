"""The match formats of games/ on one core: random matches per second, the strong bot's decision time and
the bots' win shares. One section per format (``SECTIONS``); grid football adds its own.

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

Chess football (games/chess_football/), at the default length (two halves of 40 moves per side) unless
``--half-moves`` says otherwise (``--quick``: 10):

- *legal-move generation*: full legal move lists per CPU second over a fixed mix (``chess_positions``): the
  kick-off, the middle game (positions of seeded easy-against-easy matches) and tricky positions met in
  seeded random matches (relocation after an offside forfeit, the red-square duty, offenders to move off,
  a re-entry, a triangulation). Target: 5,000 lists/s.
- *random matches per CPU second*: both drivers, as for dice football. Target: 25 matches/s.
- *strong move time*: every move of ``strong`` in strong-vs-easy matches, in CPU time of the process (its
  budget is positions, not time) and, for the record, on the wall clock. Target: p95 ≤ 500 ms.
- *win shares*: ``--matches`` matches per pairing (default 500; seats alternate) with 95 % Wilson
  intervals, of the decided matches and of all. Targets: strong–easy ≥ 80 % of decided, strong–random
  ≥ 95 % of all.

Grid football (games/grid_football/), at the default length (16 counting '1's, §15):

- *random matches per CPU second*: both drivers, as for dice football. Target: 20 matches/s.
- *bot decision time*: every decision of ``easy`` and of ``strong`` in matches between the two, in CPU time
  of the process (the bots' work does not depend on the clock). Target: p95 ≤ 300 ms.
- *win shares*: ``--matches`` matches per pairing (default 500; seats alternate) with 95 % Wilson
  intervals, of the decided matches and of all. Targets (issue 25): strong–random ≥ 90 % and strong–easy
  ≥ 65 % of the decided matches.

Prints the machine's details and the figures; ``--write`` also appends them to docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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


def fast_runner(fmt: Any, setup: Any) -> Callable[..., int]:
    """A random match on the engine's fast path (``legal_actions``/``apply_action``, what a bot seat or a
    simulation uses) from a seed, with the rooms' generator; returns the number of events it made."""

    def fast(seed: int, rng: Rng | None = None, brng: Rng | None = None) -> int:
        rng = rng or RoomRng(seed)
        brng = brng or RoomRng(seed ^ 0x5EED)
        state, events = fmt.start_with_events(setup, rng)
        n = len(events)
        while legal := fmt.legal_actions(state):
            n += len(
                fmt.apply_action(
                    state, legal[brng.randbelow(len(legal))] if len(legal) > 1 else legal[0], rng
                )
            )
        return n

    return fast


def random_rates(
    label: str,
    fast: Callable[[int], object],
    loop: Callable[[int], object],
    args: argparse.Namespace,
    digits: int,
) -> tuple[float, list[str]]:
    """Random matches per CPU second through both drivers (printed, and as table rows): the engine's fast
    path first (its best round is returned: the figure the target is about), then the decision loop."""
    rows = [f"| {label}, driver | matches | best round, matches/s | median round |", "|---|---:|---:|---:|"]
    best_fast = 0.0
    for name, run in (("engine fast path", fast), ("decision loop", loop)):
        best, median, total = rate(run, args.seconds, args.repeat)
        if run is fast:
            best_fast = best
        print(
            f"  {name:<18} {total:>7} matches: best round {best:7.{digits}f}/s, median {median:7.{digits}f}/s"
        )
        rows.append(f"| {name} | {total} | {best:,.{digits}f} | {median:,.{digits}f} |")
    return best_fast, rows


def strong_times(
    fmt: Any, setup: Any, strong: Callable[..., Any], easy: Callable[..., Any], matches: range
) -> tuple[list[float], list[float]]:
    """The CPU and the wall-clock seconds of every decision of ``strong`` in matches against ``easy``
    (match ``i`` from seeds 50,000 + i and 60,000 + i, the strong bot at home in the even ones)."""
    cpu: list[float] = []
    wall: list[float] = []
    for i in matches:
        rng, brng = RoomRng(50_000 + i), RoomRng(60_000 + i)
        state = fmt.start(setup, rng)
        strong_side = "home" if i % 2 == 0 else "away"
        while pending := fmt.decisions(state):
            d = pending[0]
            if d.side == strong_side:
                t, w = time.process_time(), time.perf_counter()
                choice = strong(fmt, state, d, brng)
                cpu.append(time.process_time() - t)
                wall.append(time.perf_counter() - w)
            else:
                choice = easy(fmt, state, d, brng)
            fmt.apply(state, d.side, choice, rng)
    return cpu, wall


@dataclass
class Tally:
    """One pairing's matches from the first bot's side."""

    wins: int = 0
    losses: int = 0
    draws: int = 0
    goals_for: int = 0
    goals_against: int = 0

    @property
    def decided(self) -> int:
        return self.wins + self.losses


def pairing(
    play: Callable[[int, str, str], Any], result: Callable[[Any], Any], a: str, b: str, n: int
) -> Tally:
    """``n`` matches of bot ``a`` against bot ``b``, seats alternating (``a`` at home in the even ones);
    ``play(seed, home, away)`` returns the final state, ``result`` its ``MatchResult``."""
    tally = Tally()
    for i in range(n):
        home, away = (a, b) if i % 2 == 0 else (b, a)
        res = result(play(1_000_000 + i, home, away))
        mine, theirs = ("home", "away") if i % 2 == 0 else ("away", "home")
        tally.goals_for += res.score[0 if mine == "home" else 1]
        tally.goals_against += res.score[0 if theirs == "home" else 1]
        if res.winner is None:
            tally.draws += 1
        elif res.winner == mine:
            tally.wins += 1
        else:
            tally.losses += 1
    return tally


# ====================================================================== dice football
def dice_football(args: argparse.Namespace) -> list[str]:
    from games.dice_football import bots
    from games.dice_football.bots import play_match
    from games.dice_football.rules import FORMAT, dice_setup

    setup = dice_setup()
    lines = ["### Dice football (games/dice_football/)", ""]

    fast = fast_runner(FORMAT, setup)

    def loop(seed: int) -> int:
        return len(play_match(FORMAT, setup, RoomRng(seed), "random", "random")[1])

    print("dice football: random matches per second (one core)")
    best_fast, rows = random_rates("random vs random", fast, loop, args, 0)
    lines += rows
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
    bots._POLICY.clear()
    n_time = 20 if args.quick else 60
    # the memory filled while cold stays for the warm matches
    timings = {
        phase: strong_times(FORMAT, setup, bots.strong_policy, bots.easy_policy, matches)[1]
        for phase, matches in (("cold", range(n_time)), ("warm", range(n_time, 2 * n_time)))
    }
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
        t0 = time.perf_counter()
        tally = pairing(
            lambda seed, home, away: play_match(FORMAT, setup, RoomRng(seed), home, away)[0],
            FORMAT.result,
            a,
            b,
            n,
        )
        wins, losses, draws, decided = tally.wins, tally.losses, tally.draws, tally.decided
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


# ====================================================================== chess football
CHESS_MOVEGEN_TARGET = 5000
CHESS_RANDOM_TARGET = 25
CHESS_P95_TARGET_MS = 500.0
# each pairing's share judged (of the decided matches, or of all), and its target
CHESS_SHARE_TARGETS = {
    ("strong", "easy"): ("decided", 0.80),
    ("strong", "random"): ("all", 0.95),
    ("easy", "random"): ("decided", None),
}
TRICKY = 15  # positions of each tricky kind in the move-generation mix


def _easy_walk(seed: int) -> Iterator[Any]:
    """The positions of a seeded easy-against-easy match on the fast path (each before its move)."""
    from games.chess_football.bots import easy_action, penalty_action
    from games.chess_football.rules import FORMAT, chess_setup
    from games.chess_football.state import PH_PLAY

    rng, brng = RoomRng(seed), RoomRng(seed ^ 0x5EED)
    state = FORMAT.start(chess_setup(), rng)
    while FORMAT.legal_actions(state):
        if state.phase == PH_PLAY:
            yield state
            action = easy_action(state, brng)
        else:
            action = penalty_action(state, FORMAT.to_act(state), brng, False)
        FORMAT.apply_action(state, action, rng)


def _tricky_kind(state: Any, legal: tuple[Any, ...]) -> str | None:
    """What makes a position hard for the move generator, if anything."""
    from games.chess_football.geometry import BALL_TARGETS
    from games.chess_football.rules import occupancy, offenders

    if state.relocate:
        return "relocation"
    if state.red >= 0:
        return "red square"
    if offenders(state, occupancy(state), state.turn):
        return "offside"
    if any(a[0] == "e" for a in legal):
        return "re-entry"
    if any(a[0] == "b" and a[1] not in BALL_TARGETS[state.ball] for a in legal):
        return "triangulation"
    return None


def chess_positions(quick: bool) -> dict[str, list[Any]]:
    """The fixed mix legal-move generation is timed on: the kick-off; the middle game (every tenth position
    of seeded easy-against-easy matches); tricky positions met in seeded random matches (a relocation after
    an offside forfeit, the red-square duty, offenders to move off, a re-entry, a triangulation), up to
    ``TRICKY`` of each kind."""
    from games.chess_football.rules import FORMAT, chess_setup
    from games.chess_football.state import PH_PLAY

    middle = [
        FORMAT.clone(st)
        for seed in range(2 if quick else 6)
        for i, st in enumerate(_easy_walk(seed))
        if i % 10 == 5
    ]
    kinds: dict[str, list[Any]] = {}
    for seed in range(400):
        rng, brng = RoomRng(seed), RoomRng(seed ^ 0x5EED)
        state = FORMAT.start(chess_setup(), rng)
        while legal := FORMAT.legal_actions(state):
            kind = _tricky_kind(state, legal) if state.phase == PH_PLAY else None
            if kind and len(kinds.setdefault(kind, [])) < TRICKY:
                kinds[kind].append(FORMAT.clone(state))
            FORMAT.apply_action(state, legal[brng.randbelow(len(legal))], rng)
        if len(kinds) == 5 and all(len(v) == TRICKY for v in kinds.values()):
            break
    return {
        "kick-off": [FORMAT.start(chess_setup(toss="home"), RoomRng(0))],
        "middle game": middle,
        "tricky": [st for kind in sorted(kinds) for st in kinds[kind]],
    }


def chess_football(args: argparse.Namespace) -> list[str]:
    from games.chess_football import bots
    from games.chess_football.rules import FORMAT, chess_setup, legal_moves

    half = args.half_moves or (10 if args.quick else None)
    setup = chess_setup() if half is None else chess_setup(half_moves=half)
    length = f"{half} moves per side per half" if half else "the default 40 moves per side per half"
    lines = ["### Chess football (games/chess_football/)", ""]

    print("chess football: full legal move lists per second (one core)")
    mix = chess_positions(args.quick)
    everything = [st for group in mix.values() for st in group]
    lines += [
        "| positions | count | moves per list | lists/s, best round | median round |",
        "|---|---:|---:|---:|---:|",
    ]
    overall = 0.0
    for label, group in (*mix.items(), ("the whole mix", everything)):
        best, median, _ = rate(lambda i, g=group: legal_moves(g[i % len(g)]), args.seconds, args.repeat)
        per = sum(len(legal_moves(st)) for st in group) / len(group)
        if group is everything:
            overall = best
        print(
            f"  {label:<14} {len(group):>4} positions, {per:6.1f} moves:"
            f" best {best:8.0f}/s, median {median:8.0f}/s"
        )
        lines.append(f"| {label} | {len(group)} | {per:.1f} | {best:,.0f} | {median:,.0f} |")
    verdict = "met" if overall >= CHESS_MOVEGEN_TARGET else "NOT met"
    lines += [
        "",
        f"Target ≥ {CHESS_MOVEGEN_TARGET:,} full legal move lists/s over the whole mix: **{verdict}**. The"
        f" tricky positions are up to {TRICKY} of each kind met in seeded random matches (relocation after"
        " an offside forfeit, red-square duty, offenders to move off, a re-entry, a triangulation); a"
        " relocation's list holds every relocation square times every move after it.",
        "",
    ]

    print("chess football: random matches per second (one core)")
    fast = fast_runner(FORMAT, setup)

    def loop(seed: int) -> int:
        return len(bots.play_match(FORMAT, setup, RoomRng(seed), "random", "random")[1])

    best_fast, rows = random_rates(f"random vs random ({length})", fast, loop, args, 1)
    lines += rows
    verdict = "met" if best_fast >= CHESS_RANDOM_TARGET else "NOT met"
    lines += ["", f"Target ≥ {CHESS_RANDOM_TARGET} random matches/s (engine fast path): **{verdict}**.", ""]

    n_time = 2 if args.quick else 10
    print(f"chess football: strong bot move time ({n_time} matches strong vs easy, {length})")
    cpu, wall = strong_times(FORMAT, setup, bots.strong_policy, bots.easy_policy, range(n_time))
    lines += [
        f"| strong moves ({bots.STRONG_NODES:,} positions each at most) | count | p50 ms | p95 ms | max ms |",
        "|---|---:|---:|---:|---:|",
    ]
    for label, ts in (("CPU time of the process", cpu), ("wall clock (shared machine)", wall)):
        p50, p95, worst = percentile(ts, 0.5) * 1e3, percentile(ts, 0.95) * 1e3, max(ts) * 1e3
        print(f"  {label:<28} {len(ts):>6} moves: p50 {p50:.1f} ms, p95 {p95:.1f} ms, max {worst:.1f} ms")
        lines.append(f"| {label} | {len(ts)} | {p50:.1f} | {p95:.1f} | {worst:.1f} |")
    verdict = "met" if percentile(cpu, 0.95) * 1e3 <= CHESS_P95_TARGET_MS else "NOT met"
    lines += [
        "",
        f"Target p95 ≤ {CHESS_P95_TARGET_MS:.0f} ms per move (CPU time: the bot's budget is positions, not"
        f" time, so its moves do not depend on the clock): **{verdict}**.",
        "",
    ]

    n = args.matches if args.matches is not None else (20 if args.quick else 500)

    def play(seed: int, home: str, away: str) -> Any:
        return bots.play_match(FORMAT, setup, RoomRng(seed), home, away)[0]

    table = share_table("chess football", play, FORMAT.result, CHESS_SHARE_TARGETS, n, length)
    return [*lines, *table, ""]


def share_table(
    title: str,
    play: Callable[[int, str, str], Any],
    result: Callable[[Any], Any],
    targets: dict[tuple[str, str], tuple[str, float | None]],
    n: int,
    detail: str = "",
) -> list[str]:
    """Each pairing's ``n`` matches (``pairing``) as a row of a table: wins, losses, draws, goals, the share
    of the decided matches and of all with 95 % Wilson intervals, and the target (of ``decided`` or ``all``)
    with whether the share and the whole interval meet it."""
    matches = f"{n} matches, {detail}" if detail else f"{n} matches"
    print(f"{title}: win shares over {matches} per pairing (seats alternate)")
    lines = [
        f"| pairing ({matches}) | wins | losses | draws | goals | share of decided (95 % Wilson)"
        " | share of all (95 % Wilson) | target |",
        "|---|---:|---:|---:|---:|---|---|---|",
    ]
    for (a, b), (judged, target) in targets.items():
        t0 = time.perf_counter()
        tally = pairing(play, result, a, b, n)
        shares = {}
        for key, base in (("decided", tally.decided), ("all", n)):
            lo, hi = wilson(tally.wins, base)
            share = tally.wins / base if base else float("nan")
            shares[key] = (share, lo, f"{share:.1%} ({lo:.1%} – {hi:.1%})")
        share, lo, _ = shares[judged]
        goal = ""
        if target is not None:
            goal = (
                f"≥ {target:.0%} of {judged}: {'met' if share >= target else 'NOT met'}"
                f"{', the interval too' if lo >= target else ', not the interval'}"
            )
        goals = f"{tally.goals_for}–{tally.goals_against}"
        print(
            f"  {a} vs {b}: {tally.wins} won, {tally.losses} lost, {tally.draws} drawn, goals {goals};"
            f" decided {shares['decided'][2]}, all {shares['all'][2]} ({time.perf_counter() - t0:.0f} s)"
        )
        lines.append(
            f"| {a} – {b} | {tally.wins} | {tally.losses} | {tally.draws} | {goals} | {shares['decided'][2]}"
            f" | {shares['all'][2]} | {goal} |"
        )
    return lines


# ====================================================================== grid football
GRID_RANDOM_TARGET = 20
GRID_P95_TARGET_MS = 300.0
GRID_SHARE_TARGETS = {
    ("strong", "random"): ("decided", 0.90),
    ("strong", "easy"): ("decided", 0.65),
    ("easy", "random"): ("decided", None),
}


def grid_football(args: argparse.Namespace) -> list[str]:
    from games.bots import play_match
    from games.grid_football import bots
    from games.grid_football.rules import FORMAT, grid_setup

    setup = grid_setup()
    lines = ["### Grid football (games/grid_football/)", ""]

    print("grid football: random matches per second (one core)")
    fast = fast_runner(FORMAT, setup)

    def loop(seed: int) -> int:
        random = bots.random_policy
        return len(play_match(FORMAT, setup, RoomRng(seed), random, random)[1])

    best_fast, rows = random_rates("random vs random (16 counting '1's)", fast, loop, args, 1)
    lines += rows
    verdict = "met" if best_fast >= GRID_RANDOM_TARGET else "NOT met"
    lines += ["", f"Target ≥ {GRID_RANDOM_TARGET} random matches/s (engine fast path): **{verdict}**.", ""]

    n_time = 4 if args.quick else 20
    print(f"grid football: bot decision time ({n_time} matches easy vs strong)")
    lines += [
        f"| decisions ({n_time} matches easy vs strong), CPU time | count | p50 ms | p95 ms | max ms |",
        "|---|---:|---:|---:|---:|",
    ]
    worst_p95 = 0.0
    for name, me, rival in (
        ("easy", bots.easy_policy, bots.strong_policy),
        ("strong", bots.strong_policy, bots.easy_policy),
    ):
        cpu, _wall = strong_times(FORMAT, setup, me, rival, range(n_time))
        p50, p95, worst = percentile(cpu, 0.5) * 1e3, percentile(cpu, 0.95) * 1e3, max(cpu) * 1e3
        worst_p95 = max(worst_p95, p95)
        print(f"  {name:<8} {len(cpu):>6} decisions: p50 {p50:.2f} ms, p95 {p95:.2f} ms, max {worst:.1f} ms")
        lines.append(f"| {name} | {len(cpu)} | {p50:.2f} | {p95:.2f} | {worst:.1f} |")
    verdict = "met" if worst_p95 <= GRID_P95_TARGET_MS else "NOT met"
    lines += [
        "",
        f"Target p95 ≤ {GRID_P95_TARGET_MS:.0f} ms per decision (CPU time; every decision asked of the"
        f" bot's side): **{verdict}**.",
        "",
    ]

    n = args.matches if args.matches is not None else (20 if args.quick else 500)

    def play(seed: int, home: str, away: str) -> Any:
        return play_match(FORMAT, setup, RoomRng(seed), bots.POLICIES[home], bots.POLICIES[away])[0]

    return [*lines, *share_table("grid football", play, FORMAT.result, GRID_SHARE_TARGETS, n), ""]


SECTIONS: dict[str, Callable[[argparse.Namespace], list[str]]] = {
    "dice-football": dice_football,
    "chess-football": chess_football,
    "grid-football": grid_football,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="short rounds and 200 matches per pairing")
    parser.add_argument(
        "--matches",
        type=int,
        default=None,
        help="matches per bot pairing (default: dice 1000, chess and grid 500)",
    )
    parser.add_argument(
        "--half-moves", type=int, default=None, help="chess football: moves per side per half (default 40)"
    )
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
    body: list[str] = []
    for key in args.format or list(SECTIONS):
        body += SECTIONS[key](args)
    end = machine()  # the load average is the one when the run ended, as machine_lines says
    print(f"load average at the end (1 / 5 / 15 min): {end['load']}")
    command = " ".join(["python bench/formats.py", *(sys.argv[1:] if argv is None else argv)])
    lines = [
        f"## Match formats: throughput, bot time and strength ({info['date']})",
        "",
        *machine_lines({**info, "load": end["load"]}),
        f"- {pinned}; `{command}`",
        "",
        *body,
    ]
    if args.write:
        print(f"appended to {append_performance(chr(10).join(lines)).relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
