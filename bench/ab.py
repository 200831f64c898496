"""Paired A/B of two checkouts' real-time latency: the same action mix, alternated action by action.

Usage (from the repository root)::

    .venv/bin/python bench/ab.py OTHER_CHECKOUT [--spectators 50] [--actions 400] [--server uvicorn]

Why: these shared machines drift up to 2× in speed between minutes (docs/PERFORMANCE.md), so two runs of
``bench/realtime.py`` one after the other cannot tell a 5–10 % change from the drift. Here one server
serves this checkout (**A**) and another serves ``OTHER_CHECKOUT`` (**B**, e.g. a ``git worktree`` of
main), each with its own room of 8 seats and N spectators (protocol clients exactly as in
``bench/realtime.py``: every frame decoded, every delta applied) on the same Redis and the same SQLite
file. Actions alternate A, B, B, A, A, B … so both sides meet every moment of the drift alike. It runs in
two legs, each with fresh servers and rooms: A's server started first, then B's (with the same code on
both sides, the side started first has come out up to 0.1 ms apart from the other). Reported: p50 / p99 of
each side, server CPU per action of each, and the median of the paired differences (A − B, each A action
against the B action next to it) over all pairs and per leg, the legs' mean (the estimate to read) and
half their difference (how far the legs disagree: a smaller step is not resolved), with the share of pairs
A won. Nothing is appended to docs/PERFORMANCE.md: this is an instrument for deciding whether a step is
kept.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import sys
import tempfile
from pathlib import Path

import uvloop

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench.common import (  # noqa: E402
    REDIS_SERVER,
    Server,
    child_env,
    flush_redis,
    percentile,
    servers,
    start_server,
    temp_database,
    use_database_here,
)
from bench.realtime import Bench, collector_resting, make_room, send_ours  # noqa: E402


class Side:
    """One checkout (and interpreter): what its actions measured over both legs; during a leg, its
    server and its room's clients."""

    def __init__(self, name: str, root: Path, python: str | None) -> None:
        self.name = name
        self.root = root
        self.python = python
        self.server: Server | None = None
        self.bench: Bench | None = None
        self.latencies: list[float] = []
        self.failures: dict[str, int] = {}
        self.cpu = 0.0
        self.actions = 0

    async def one(self, n: int) -> float | None:
        assert self.server is not None and self.bench is not None
        cpu0 = self.server.cpu_seconds()
        latency, failure = await self.bench.one(send_ours, n)
        self.cpu += self.server.cpu_seconds() - cpu0
        self.actions += 1
        if failure:
            self.failures[failure] = self.failures.get(failure, 0) + 1
            return None
        self.latencies.append(latency)
        return latency

    def line(self) -> str:
        done = max(1, self.actions)
        return (
            f"{self.name} ({self.root}{', ' + self.python if self.python else ''}):"
            f" {len(self.latencies)} actions"
            f"  p50 {1000 * percentile(self.latencies, 0.5):.2f} ms"
            f"  p99 {1000 * percentile(self.latencies, 0.99):.2f} ms"
            f"  server CPU {1000 * self.cpu / done:.2f} ms/action  failures {self.failures or 0}"
        )


async def leg(
    first: Side, second: Side, a: Side, spectators: int, actions: int, kind: str, log_dir: Path, env_db: dict
) -> list[float]:
    """Start ``first``'s server and room, then ``second``'s, and alternate their actions; the paired
    differences A − B (``a``: the side called A)."""
    with servers() as started:
        for side in (first, second):
            env = child_env(
                **env_db,
                REDIS_URL=REDIS_SERVER,
                ALLOWED_HOSTS="127.0.0.1,localhost",
                DEBUG="false",
                LOG_LEVEL="ERROR",
                PYTHONPATH=str(side.root),
            )
            side.server = start_server(kind, env, log_dir, root=side.root, python=side.python)
            started.append(side.server)
            code, tokens = await asyncio.to_thread(make_room)
            side.bench = Bench()
            await side.bench.open(f"{side.server.ws}/ws/r/{code}/?format=json&delta=1", tokens, spectators)
        pairs: list[float] = []
        try:
            with collector_resting():
                for n in range(1, actions + 1):
                    x_side, y_side = (first, second) if n % 2 else (second, first)  # neither always first
                    x = await x_side.one(n)
                    y = await y_side.one(n)
                    if x is not None and y is not None:
                        pairs.append((x - y) if x_side is a else (y - x))
        finally:
            for side in (first, second):
                if side.bench is not None:
                    await side.bench.close()
                side.server = side.bench = None
    return pairs


async def run(
    other: Path,
    spectators: int,
    actions: int,
    kind: str,
    log_dir: Path,
    env_db: dict,
    pythons: tuple[str | None, str | None] = (None, None),
) -> int:
    """Two legs of half the actions each: A's server started first, then B's first.

    Why: with the same code on both sides, the side whose server started first came out 0.05–0.15 ms
    slower per pair in five runs of 500–1,000 pairs and 0.09 ms faster in one (2026-11-24, cause not
    found). Swapping the start order between the legs cancels any such effect; half the difference of the
    legs' medians shows how far two halves of one run disagree (a step smaller than that is not seen)."""
    a = Side("A", ROOT, pythons[0])
    b = Side("B", other, pythons[1])
    legs: list[list[float]] = []
    for first, second in ((a, b), (b, a)):
        legs.append(await leg(first, second, a, spectators, max(1, actions // 2), kind, log_dir, env_db))
    print(a.line())
    print(b.line())
    pairs = [d for pairs in legs for d in pairs]
    if pairs and all(legs):
        won = sum(1 for d in pairs if d < 0) / len(pairs)
        first_a, first_b = (1000 * statistics.median(pairs) for pairs in legs)
        mean, order = (first_a + first_b) / 2, (first_a - first_b) / 2
        print(
            f"A − B over {len(pairs)} neighbouring pairs: median {1000 * statistics.median(pairs):+.2f} ms"
            f" (A started first {first_a:+.2f}, B started first {first_b:+.2f}: mean {mean:+.2f},"
            f" half their difference {order:+.2f}), A faster in {won:.0%} of pairs;"
            f" p50 ratio A/B {percentile(a.latencies, 0.5) / percentile(b.latencies, 0.5):.3f}"
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    """Parse the options, prepare the database and Redis, run the pairs."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("other", type=Path, help="the other checkout (B), e.g. a git worktree of main")
    parser.add_argument("--spectators", type=int, default=50)
    parser.add_argument("--actions", type=int, default=400, help="actions per side (half in each leg)")
    parser.add_argument("--server", choices=("daphne", "uvicorn"), default="uvicorn")
    parser.add_argument(
        "--python-a", help="the interpreter serving A (default: this one), e.g. another venv's python"
    )
    parser.add_argument("--python-b", help="the interpreter serving B (default: this one)")
    args = parser.parse_args(argv)
    other = args.other.resolve()
    if not (other / "magicfootball" / "serve.py").exists():
        parser.error(f"{other} is not a checkout of this project")
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    flush_redis(REDIS_SERVER)
    db = temp_database("sqlite")
    use_database_here(db)
    os.environ["REDIS_URL"] = REDIS_SERVER
    import django

    django.setup()
    log_dir = Path(tempfile.mkdtemp(prefix="mft-ab-"))
    try:
        return uvloop.run(
            run(
                other,
                args.spectators,
                args.actions,
                args.server,
                log_dir,
                db.env,
                (args.python_a, args.python_b),
            )
        )
    finally:
        db.drop()


if __name__ == "__main__":
    raise SystemExit(main())
