"""Paired A/B of two checkouts' real-time latency: the same action mix, alternated action by action.

Usage (from the repository root)::

    .venv/bin/python bench/ab.py OTHER_CHECKOUT [--spectators 50] [--actions 400] [--server uvicorn]

Why: these shared machines drift up to 2× in speed between minutes (docs/PERFORMANCE.md), so two runs of
``bench/realtime.py`` one after the other cannot tell a 5–10 % change from the drift. Here one server
serves this checkout (**A**) and another serves ``OTHER_CHECKOUT`` (**B**, e.g. a ``git worktree`` of
main), each with its own room of 8 seats and N spectators (protocol clients exactly as in
``bench/realtime.py``: every frame decoded, every delta applied) on the same Redis and the same SQLite
file. Actions alternate A, B, B, A, A, B … so both sides meet every moment of the drift alike. Reported:
p50 / p99 of each side, server CPU per action of each, and the median of the paired differences (A − B,
each A action against the B action next to it) with the share of pairs A won. Nothing is appended to
docs/PERFORMANCE.md: this is an instrument for deciding whether a step is kept.
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
    """One checkout: its server, its room's clients, what its actions measured."""

    def __init__(self, name: str, server: Server, bench: Bench) -> None:
        self.name = name
        self.server = server
        self.bench = bench
        self.latencies: list[float] = []
        self.failures: dict[str, int] = {}
        self.cpu = 0.0

    async def one(self, n: int) -> float | None:
        cpu0 = self.server.cpu_seconds()
        latency, failure = await self.bench.one(send_ours, n)
        self.cpu += self.server.cpu_seconds() - cpu0
        if failure:
            self.failures[failure] = self.failures.get(failure, 0) + 1
            return None
        self.latencies.append(latency)
        return latency


async def run(
    other: Path,
    spectators: int,
    actions: int,
    kind: str,
    log_dir: Path,
    env_db: dict,
    pythons: tuple[str | None, str | None] = (None, None),
) -> int:
    """Start both servers and rooms, then alternate their actions."""
    sides: list[Side] = []
    with servers() as started:
        for (name, root), python in zip((("A", ROOT), ("B", other)), pythons, strict=True):
            env = child_env(
                **env_db,
                REDIS_URL=REDIS_SERVER,
                ALLOWED_HOSTS="127.0.0.1,localhost",
                DEBUG="false",
                LOG_LEVEL="ERROR",
                PYTHONPATH=str(root),
            )
            server = start_server(kind, env, log_dir, root=root, python=python)
            started.append(server)
            code, tokens = await asyncio.to_thread(make_room)
            bench = Bench()
            await bench.open(f"{server.ws}/ws/r/{code}/?format=json&delta=1", tokens, spectators)
            sides.append(Side(name, server, bench))
        a, b = sides
        pairs: list[float] = []
        try:
            with collector_resting():
                for n in range(1, actions + 1):
                    first, second = (a, b) if n % 2 else (b, a)  # A B, B A, …: neither side always first
                    x = await first.one(n)
                    y = await second.one(n)
                    if x is not None and y is not None:
                        pairs.append((x - y) if first is a else (y - x))
        finally:
            for side in sides:
                await side.bench.close()
    for side in sides:
        done = max(1, len(side.latencies))
        python = pythons[0] if side is a else pythons[1]
        print(
            f"{side.name} ({ROOT if side is a else other}{', ' + python if python else ''}):"
            f" {len(side.latencies)} actions"
            f"  p50 {1000 * percentile(side.latencies, 0.5):.2f} ms"
            f"  p99 {1000 * percentile(side.latencies, 0.99):.2f} ms"
            f"  server CPU {1000 * side.cpu / done:.2f} ms/action  failures {side.failures or 0}"
        )
    if pairs:
        won = sum(1 for d in pairs if d < 0) / len(pairs)
        print(
            f"A − B over {len(pairs)} neighbouring pairs: median {1000 * statistics.median(pairs):+.2f} ms,"
            f" A faster in {won:.0%} of pairs; p50 ratio A/B"
            f" {percentile(a.latencies, 0.5) / percentile(b.latencies, 0.5):.3f}"
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    """Parse the options, prepare the database and Redis, run the pairs."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("other", type=Path, help="the other checkout (B), e.g. a git worktree of main")
    parser.add_argument("--spectators", type=int, default=50)
    parser.add_argument("--actions", type=int, default=400, help="actions per side")
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
