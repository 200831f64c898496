"""Bot-vs-bot duel matches per second on one core, for the pure engine (cards/rules/duel.py).

Usage (from the repository root)::

    .venv/bin/python bench/duel.py [--matches N] [--seconds S] [--repeat R] [--no-write]

Every match is a complete knock-out match (two halves, extra time and a penalty series when level)
between realistic teams: 11 field players and a keeper drawn from the real catalog for each side,
3–5 of the 40 match cards each and four extra-time cards. Set-ups are built before the clock starts.
Measured, one after the other on one pinned core:

- ``default``: both sides take every decision's default (the plain bot and an expired timer), run
  by ``DuelFormat.advance_defaults`` — the engine's own loop. Target: at least 5,000 matches/s.
- ``default (decision loop)``: the same matches driven one decision at a time through
  ``decisions()`` and ``apply()``, as the service layer does for humans (same events, slower).
- ``easy``, ``strong``, ``random``: both sides on that bot policy (cards/rules/bots.py).

Each policy runs ``--repeat`` rounds of ``--matches`` matches or ``--seconds`` seconds; the best round is
the figure (as ``timeit`` does: other jobs on a shared machine only ever slow a round down), the median
is reported beside it. The figures are printed and appended, with the machine's details, to
docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from cards.catalog import get_catalog  # noqa: E402
from cards.rules.bots import play_match  # noqa: E402
from cards.rules.duel import DuelFormat  # noqa: E402
from games.api import MatchSetup, TeamCard, TeamEntry  # noqa: E402
from games.rng import Rng  # noqa: E402

TARGET = 5000
PERFORMANCE = ROOT / "docs" / "PERFORMANCE.md"
TITLE = "# Performance\n\nMeasured figures, one section per run of a benchmark script (newest last).\n"


def realistic_setups(count: int, seed: int = 2026) -> list[MatchSetup]:
    """Knock-out set-ups from the real catalog: 11 + 1 different cards per side, 3–5 match cards."""
    catalog = get_catalog()
    field = [TeamCard(p.id, p.stars) for p in catalog.field_players.values()]
    keepers = [TeamCard(p.id, p.stars, keeper=True) for p in catalog.keepers.values()]
    match_cards = sorted(catalog.match_cards)
    rng = Rng(seed)
    setups = []
    for i in range(count):
        players = list(field)
        rng.shuffle(players)
        goalies = list(keepers)
        rng.shuffle(goalies)
        cards = list(match_cards)
        rng.shuffle(cards)
        nh, na = 3 + rng.randbelow(3), 3 + rng.randbelow(3)
        setups.append(
            MatchSetup(
                home=TeamEntry(f"H{i}", tuple(players[:11]), goalies[0], tuple(cards[:nh])),
                away=TeamEntry(f"A{i}", tuple(players[11:22]), goalies[1], tuple(cards[nh : nh + na])),
                knockout=True,
                extra_time_cards=tuple(cards[nh + na : nh + na + 4]),
            )
        )
    return setups


def run_defaults(fmt: DuelFormat, setup: MatchSetup, seed: int) -> int:
    rng = Rng(seed)
    state = fmt.start(setup, rng)
    return len(fmt.advance_defaults(state, rng))


def run_decision_loop(fmt: DuelFormat, setup: MatchSetup, seed: int) -> int:
    rng = Rng(seed)
    state = fmt.start(setup, rng)
    events = 0
    while pending := fmt.decisions(state):
        d = pending[0]
        events += len(fmt.apply(state, d.side, d.default, rng))
    return events


def run_policy(name: str) -> Callable[[DuelFormat, MatchSetup, int], int]:
    def run(fmt: DuelFormat, setup: MatchSetup, seed: int) -> int:
        _, events = play_match(fmt, setup, Rng(seed), name, name)
        return len(events)

    return run


def measure(
    run: Callable[[DuelFormat, MatchSetup, int], int],
    fmt: DuelFormat,
    setups: list[MatchSetup],
    matches: int | None,
    seconds: float,
) -> tuple[int, float, float]:
    """(matches played, seconds, events per match) until ``matches`` or ``seconds`` is reached."""
    for i in range(min(50, len(setups))):  # warm-up
        run(fmt, setups[i], i)
    done = 0
    events = 0
    start = time.perf_counter()
    while True:
        events += run(fmt, setups[done % len(setups)], done)
        done += 1
        if matches is not None:
            if done >= matches:
                break
        elif done % 50 == 0 and time.perf_counter() - start >= seconds:
            break
    return done, time.perf_counter() - start, events / done


def machine() -> dict[str, str]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": str(os.cpu_count()),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "load": " / ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a",
    }


def pin_one_core() -> str:
    """Run on one core (the first we may use), so the figure is per core."""
    if hasattr(os, "sched_setaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    return "not pinned"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=None, help="matches per policy (default: time-boxed)")
    parser.add_argument(
        "--seconds", type=float, default=2.0, help="seconds per round when --matches is not given"
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="rounds per policy; the best round is the figure (as timeit)"
    )
    parser.add_argument(
        "--no-write", action="store_true", help="print only; do not append to docs/PERFORMANCE.md"
    )
    args = parser.parse_args(argv)

    pinned = pin_one_core()
    fmt = DuelFormat(get_catalog().match_cards)
    setups = realistic_setups(2000)
    modes: list[tuple[str, Callable[[DuelFormat, MatchSetup, int], int]]] = [
        ("default", run_defaults),
        ("default (decision loop)", run_decision_loop),
        ("easy", run_policy("easy")),
        ("strong", run_policy("strong")),
        ("random", run_policy("random")),
    ]
    rows = []
    for name, run in modes:
        rounds = [measure(run, fmt, setups, args.matches, args.seconds) for _ in range(max(1, args.repeat))]
        rates = sorted(done / secs for done, secs, _ in rounds)
        done = sum(r[0] for r in rounds)
        secs = sum(r[1] for r in rounds)
        per_match = sum(r[0] * r[2] for r in rounds) / done
        best, median = rates[-1], rates[len(rates) // 2]
        rows.append((name, done, secs, best, median, per_match))
        print(
            f"{name:<24} {done:>7} matches in {secs:6.2f} s: best round {best:8.0f} matches/s,"
            f" median {median:8.0f}  ({per_match:.0f} events/match)"
        )
    info = machine()
    verdict = "met" if rows[0][3] >= TARGET else "NOT met"
    print(
        f"target {TARGET}/s for the default decisions: {verdict}; {info['cpu']}, {info['python']}, {pinned}"
    )
    if not args.no_write:
        write_section(rows, info, pinned, verdict)
        print(f"appended to {PERFORMANCE.relative_to(ROOT)}")
    return 0


def write_section(
    rows: list[tuple[str, int, float, float, float, float]], info: dict[str, str], pinned: str, verdict: str
) -> None:
    lines = [
        "",
        f"## Duel engine: bot-vs-bot matches per second ({info['date']})",
        "",
        "`python bench/duel.py`: complete knock-out matches (halves, extra time, penalty series when",
        "level), realistic teams from the catalog, 3–5 match cards each + 4 extra-time cards; one core.",
        "",
        f"- CPU: {info['cpu']} ({info['cores']} cores on the machine, {pinned})",
        f"- Python: {info['python']} on {info['platform']}",
        f"- Load average when the run ended (1 / 5 / 15 min): {info['load']} (other jobs share the machine)",
        "",
        "| policy (both sides) | matches | seconds | matches/s, best round | median round | events/match |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, done, secs, best, median, per_match in rows:
        lines.append(f"| {name} | {done} | {secs:.2f} | {best:,.0f} | {median:,.0f} | {per_match:.0f} |")
    lines += [
        "",
        f"Target ≥ {TARGET:,} matches/s for the plain default decisions: **{verdict}**.",
        "`default` runs the defaults inside the engine (`DuelFormat.advance_defaults`); the",
        "`decision loop` row plays the same matches one `decisions()`/`apply()` call at a time (about 50",
        "decisions per match), with identical events (tests/cards/rules/test_duel_properties.py).",
        "",
    ]
    PERFORMANCE.parent.mkdir(parents=True, exist_ok=True)
    if not PERFORMANCE.exists():
        PERFORMANCE.write_text(TITLE, encoding="utf-8")
    with PERFORMANCE.open("a", encoding="utf-8") as fh:
        fh.write("\n".join(lines))


if __name__ == "__main__":
    raise SystemExit(main())
