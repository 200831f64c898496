"""Shared driver of the benchmarks: a fresh database, bot games played through the real services.

Every decision goes through ``tournament.services.actions.game_act`` exactly as a bot seat's would
(one transaction per action: load, rules, invariants, compare-and-swap, rows, events, ledger); the bot
picks its answer with ``tournament.rules.bots.decide`` from the snapshot the service cached after commit.
SQL statements are counted with a connection execute wrapper around each ``game_act`` call.
"""

from __future__ import annotations

import os
import platform
import secrets
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PG_SERVER = os.environ.get("BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


@dataclass
class GameRun:
    """One game played through the services."""

    seed: int
    seats: int
    seconds: float = 0.0
    actions: int = 0
    queries: list[int] = field(default_factory=list)
    action_seconds: list[float] = field(default_factory=list)
    phase: str = ""
    status: str = ""
    phase1_turns: int = 0


@dataclass
class Database:
    """The database the benchmark runs on."""

    kind: str
    description: str
    version: str
    cleanup: Callable[[], None]


def _pg_admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(PG_SERVER, autocommit=True, connect_timeout=5) as conn:
        conn.execute(sql)


def configure(kind: str) -> Database:
    """Point Django at a fresh database of ``kind`` ("sqlite" or "postgres"), migrate it, load the catalog."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "magicfootball.settings")
    os.environ.pop("REDIS_URL", None)  # the in-memory channel layer: we measure the database, not Redis
    cleanups: list[Callable[[], None]] = []
    if kind == "sqlite":
        tmp = tempfile.mkdtemp(prefix="mft-bench-")
        path = Path(tmp) / "bench.sqlite3"
        os.environ.pop("DATABASE_URL", None)
        os.environ["SQLITE_PATH"] = str(path)

        def drop_sqlite() -> None:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
            os.rmdir(tmp)

        cleanups.append(drop_sqlite)
        description = (
            f"SQLite file {path} (project settings: WAL, synchronous=NORMAL, IMMEDIATE transactions)"
        )
    elif kind == "postgres":
        name = f"mft_bench_{secrets.token_hex(4)}"
        _pg_admin(f'CREATE DATABASE "{name}"')
        base = PG_SERVER.rsplit("/", 1)[0]
        os.environ["DATABASE_URL"] = f"{base}/{name}"
        cleanups.append(lambda: _pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        host = base.split("@")[-1]
        description = f"PostgreSQL database {name} on {host} (psycopg 3, one connection for the run)"
    else:
        raise SystemExit(f"unknown --db {kind!r}: sqlite or postgres")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0, interactive=False)
    call_command("load_catalog", verbosity=0)
    with connection.cursor() as cur:
        cur.execute("select sqlite_version()" if kind == "sqlite" else "show server_version")
        version = cur.fetchone()[0]

    def cleanup() -> None:
        from django.db import connections

        connections.close_all()
        for fn in cleanups:
            fn()

    return Database(kind, description, version, cleanup)


@contextmanager
def counting() -> Iterator[list[int]]:
    """Count the SQL statements executed on the default connection inside the block."""
    from django.db import connection

    counter = [0]

    def wrapper(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        counter[0] += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(wrapper):
        yield counter


def play_game(
    seed: int, seats: int, strength: str = "easy", until_phase: str | None = None, check_rows: bool = False
) -> GameRun:
    """Create a room with ``seats`` bots, start it and let the bots play through ``game_act`` until the
    game is over (or reaches ``until_phase``). Lobby actions are not timed; everything from the start is."""
    from cards.catalog import get_catalog
    from games.rng import Rng
    from tournament.models import Game
    from tournament.rules import bots
    from tournament.rules.events import Actor
    from tournament.services.actions import current_snapshot, game_act
    from tournament.services.rooms import room_create
    from tournament.services.store import cache

    cat = get_catalog()
    room = room_create(nickname=None, bots=[strength] * seats, seed=seed, house_rules={"seats": seats})
    game = Game.objects.get(code=room.code)
    run = GameRun(seed=seed, seats=seats)
    bot_rng = Rng(seed ^ 0xB07, 0)
    version = game.version
    t0 = time.perf_counter()
    action: dict[str, Any] = {"type": "start"}
    actor = Actor("host")
    n = 0
    while True:
        a0 = time.perf_counter()
        with counting() as counter:
            result = game_act(
                code=room.code, actor=actor, action=action, expected_version=version, action_id=f"b{n}"
            )
        run.action_seconds.append(time.perf_counter() - a0)
        run.queries.append(counter[0])
        n += 1
        version = result.version
        snap = cache.get(game.pk, version)
        if snap is None:  # not expected: the service caches every committed version
            game.refresh_from_db()
            snap = current_snapshot(game)
        state = snap.state
        if state.status != "running" or (until_phase is not None and state.phase == until_phase):
            break
        prompt = state.prompts[0]
        seat = prompt.seat
        assert seat is not None
        choice = bots.decide(state, prompt, state.seats[seat].bot or strength, cat, bot_rng)
        action = {"type": "answer", "prompt": prompt.id, "choice": choice}
        actor = Actor("seat", seat)
    run.seconds = time.perf_counter() - t0
    run.actions = n
    run.phase = state.phase
    run.status = state.status
    run.phase1_turns = state.turns.get("phase1", 0)
    return run


# ------------------------------------------------------------------------------------- reporting


def machine() -> dict[str, str]:
    """CPU, cores, Python and OS of this machine."""
    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        model = next(
            (ln.split(":", 1)[1].strip() for ln in lscpu.splitlines() if ln.startswith("Model name")), ""
        )
        cpu = model or cpu
    except OSError:
        pass
    return {
        "cpu": cpu or "unknown",
        "cores": str(os.cpu_count()),
        "python": sys.version.split()[0],
        "os": platform.platform(),
        "sqlite_library": sqlite3.sqlite_version,
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


def summary(runs: list[GameRun]) -> dict[str, float]:
    """Aggregate figures of a list of runs."""
    queries = [q for r in runs for q in r.queries]
    times = [t for r in runs for t in r.action_seconds]
    total = sum(r.seconds for r in runs)
    return {
        "games": len(runs),
        "seconds": total,
        "actions": sum(r.actions for r in runs),
        "mean_game_s": total / len(runs),
        "max_game_s": max(r.seconds for r in runs),
        "mean_actions": statistics.mean(r.actions for r in runs),
        "q_mean": statistics.mean(queries),
        "q_max": max(queries),
        "q_total_mean": statistics.mean(sum(r.queries) for r in runs),
        "ms_mean": 1000 * statistics.mean(times),
        "ms_p95": 1000 * sorted(times)[int(0.95 * (len(times) - 1))],
        "ms_max": 1000 * max(times),
    }


def append_performance(section: str) -> Path:
    """Append a section to docs/PERFORMANCE.md (others write there too: never rewrite it)."""
    path = ROOT / "docs" / "PERFORMANCE.md"
    if not path.exists():
        path.write_text("# Performance\n\nMeasured figures, one section per benchmark run.\n")
    with path.open("a") as fh:
        fh.write("\n" + section.rstrip() + "\n")
    return path


def render_section(title: str, intro: str, rows: list[tuple[str, str]], db: Database) -> str:
    """A Markdown section for docs/PERFORMANCE.md: title, what was measured, a figure table, the machine."""
    m = machine()
    table = ["| figure | value |", "|---|---|", *(f"| {k} | {v} |" for k, v in rows)]
    where = (
        f"Machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}, {m['os']}; "
        f"load average at the end {os.getloadavg()[0]:.1f}; date {m['date']}. "
        f"Database: {db.description}, server {db.version}; SQLite library {m['sqlite_library']}."
    )
    return "\n".join([f"## {title}", "", intro, "", *table, "", where])


def figure_rows(s: dict[str, float], target_queries: int) -> list[tuple[str, str]]:
    """The per-action rows both benchmarks report."""
    met = "met" if s["q_max"] <= target_queries else "MISSED"
    return [
        (
            "time per action (mean / p95 / max)",
            f"{s['ms_mean']:.2f} / {s['ms_p95']:.2f} / {s['ms_max']:.1f} ms",
        ),
        (
            "SQL statements per action (mean / max)",
            f"{s['q_mean']:.1f} / {s['q_max']} (≤ {target_queries}: {met})",
        ),
    ]
