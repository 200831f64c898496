"""Scale: many rooms of bots with spectators on one server process, then on two sharing Redis + PostgreSQL.

Usage (from the repository root)::

    .venv/bin/python bench/scale.py [--rooms 20] [--spectators 40] [--seats 6] [--seconds 30]
                                    [--warmup 5] [--split sockets|rooms|caddy|both|all]
                                    [--server uvicorn|daphne] [--no-write]

Each room holds ``--seats`` bots (``easy``) that play through the live driver with ``BOT_DELAY=0`` — the
same path as in a real room: of the server processes with sockets in the room, the one holding its
driver lease schedules the decisions and submits them through ``game_act``. ``--spectators`` protocol
clients per room watch it (picows + uvloop, one asyncio process, acknowledging every 8 frames). First one
server process serves every socket; then two on two ports share Redis and the
PostgreSQL database, the clients split between them (``sockets``: every room's spectators alternate
between the processes, as a load balancer without room affinity would; ``rooms``: each room lives on one
process; ``caddy``: every socket goes through a Caddy proxy that routes by the room in the socket's path,
as deploy/Caddyfile does with ``LB_POLICY="header X-MF-Room"``; ``both``, the default: rooms and sockets;
``all``: the three; after the one-process leg, in the same run). Fresh rooms each time. The server is
uvicorn with the project's options (``magicfootball.serve``), what ``docker compose up --scale web=N``
runs (the README's way to a second process); ``--server daphne`` measures ``make run``'s server instead.

Measured over ``--seconds`` after ``--warmup``: actions per second sustained (versions committed, from
the database), the latency from an action's commit (its ``ActionRecord`` time) to the last spectator of
the room holding that version (p50 / p99), frames per second delivered, server CPU, resident memory per
open websocket ((RSS after connecting − RSS before) / sockets), the CPU of PostgreSQL's and Redis's
processes together, the whole machine's busy share of all its cores (/proc/stat: the servers, the clients
and the stores share one machine here, so a leg that keeps it near 100 % busy is bounded by the machine,
not by the app), the second process's speed-up, and the
decisions the processes' drivers submitted over the whole leg (each server logs them, ``DRIVER_LOG_LEVEL``):
attempts, distinct decisions, decisions submitted by more than one process, decisions the lease re-check
stopped right before the database, and duplicates the database refused (issue 22: one driver per room
makes the last 0).
Every loop is bounded in count and time; traffic only to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median
from typing import Any

import uvloop

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench.common import (  # noqa: E402
    REDIS_SERVER,
    Server,
    append_performance,
    child_env,
    flush_redis,
    free_port,
    machine,
    machine_lines,
    percentile,
    servers,
    start_server,
    temp_database,
    use_database_here,
    ws_listen,
)

VERSION_RE = re.compile(rb'"version":(\d+)')
SUBMITTED_RE = re.compile(r"room (\w+): decision for prompt (\d+) submitted")
LEASE_MOVED_RE = re.compile(r"room (\w+): decision for prompt (\d+) not submitted: the lease moved")
DUPLICATE_RE = re.compile(r"room (\w+): decision for prompt (\d+) refused as a duplicate")
ACK_EVERY = 8
CONNECT_BATCH = 50


class Watcher:
    """One spectator socket: notes when each version of its room first reached it.

    Built on picows (each frame handed to a callback as it is parsed, no task per socket), as
    bench/realtime.py's clients are: the 800 spectators share the 2 cores with the servers and the stores
    they measure, so the instrument's own CPU is kept as small as it can be (about a third of what the
    ``websockets`` client it replaces took per frame). Like a browser on the JSON protocol it reads the
    frame's type and version, counts it and acknowledges every ``ACK_EVERY`` frames."""

    def __init__(self, room: Room, url: str) -> None:
        self.room = room
        self.url = url
        self.version = -1
        self.frames = 0
        self.bytes = 0
        self.transport: Any = None
        self.text: Any = None  # picows's WSMsgType.TEXT (picows is imported once a socket connects)
        self.first = asyncio.Event()
        self.closed = asyncio.Event()

    async def connect(self) -> None:
        from picows import WSMsgType

        self.text = WSMsgType.TEXT
        self.transport = await ws_listen(
            self.url, lambda data: self.frame(data, time.time()), self.closed.set, 60
        )

    def frame(self, data: bytes, now: float) -> None:
        self.frames += 1
        self.bytes += len(data)
        if self.frames % ACK_EVERY == 0:
            with contextlib.suppress(Exception):
                self.transport.send(self.text, b'{"type":"ack"}')
        head = data[:64]
        if not (head.startswith(b'{"type":"update"') or head.startswith(b'{"type":"state"')):
            return
        match = VERSION_RE.search(head)
        if match is None:
            return
        version = int(match.group(1))
        if version > self.version:
            if self.version >= 0 and self.room.recording:
                for v in range(self.version + 1, version + 1):
                    seen = self.room.arrivals[v]
                    seen[0] += 1
                    seen[1] = max(seen[1], now)
            self.version = version
        self.first.set()

    async def read(self) -> None:
        """Until the socket closes (frames arrive through ``frame``)."""
        await self.closed.wait()

    async def close(self) -> None:
        if self.transport is None:
            return
        with contextlib.suppress(Exception):
            self.transport.send_close()
            self.transport.disconnect()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.closed.wait(), 2)


@dataclass
class Room:
    code: str
    game_id: int
    watchers: list[Watcher]
    recording: bool = False

    def __post_init__(self) -> None:
        self.arrivals: dict[int, list[float]] = defaultdict(lambda: [0, 0.0])


def create_rooms(count: int, seats: int) -> list[tuple[str, int]]:
    """Rooms of bots, started (their driver acts once a socket is connected)."""
    from django.db import connections

    from tournament.models import Game
    from tournament.rules.events import Actor
    from tournament.services.actions import game_act
    from tournament.services.rooms import room_create

    rooms = []
    for i in range(count):
        room = room_create(nickname=None, bots=["easy"] * seats, seed=9000 + i, house_rules={"seats": seats})
        game = Game.objects.get(code=room.code)
        game_act(
            code=room.code,
            actor=Actor("host"),
            action={"type": "start"},
            expected_version=game.version,
            action_id="scale-start",
        )
        rooms.append((room.code, game.pk))
    connections.close_all()
    return rooms


def versions(game_ids: list[int]) -> dict[int, int]:
    from django.db import connections

    from tournament.models import Game

    result = dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "version"))
    connections.close_all()
    return result


def commit_times(game_ids: list[int], since: float, until: float) -> dict[tuple[int, int], float]:
    """(game id, version) → when the action that made it was recorded, for actions in the window."""
    import datetime as dt

    from django.db import connections

    from tournament.models import ActionRecord

    start = dt.datetime.fromtimestamp(since, dt.UTC)
    end = dt.datetime.fromtimestamp(until, dt.UTC)
    rows = ActionRecord.objects.filter(game_id__in=game_ids, created_at__gte=start, created_at__lte=end)
    result = {(g, v): t.timestamp() for g, v, t in rows.values_list("game_id", "version_after", "created_at")}
    connections.close_all()
    return result


@dataclass
class Outcome:
    server: str  # uvicorn or daphne
    processes: int
    sockets: int
    actions_per_s: float
    frames_per_s: float
    frame_bytes: float  # mean size of a frame the spectators received
    p50: float
    p99: float
    complete: int
    rss_per_socket: float
    cpu_share: list[float]
    client_cpu: float
    finished_rooms: int
    split: str = ""
    attempts: int = 0  # decisions the drivers submitted (a bot's retry on a newer version counts again)
    decisions: int = 0  # distinct (room, prompt)
    by_several: int = 0  # decisions submitted by more than one process
    lease_moved: int = 0  # decisions a driver stopped right before the database (the lease moved)
    duplicates: int = 0  # decisions that reached the database and were refused there as duplicates
    driven: list[int] = field(default_factory=list)  # rooms each process decided for (its driver's share)
    proxy_cpu: float = 0.0  # Caddy's share of a core (the caddy leg)
    machine_busy: float = 0.0  # the whole machine's busy share of all its cores (/proc/stat)
    store_cpu: float = 0.0  # PostgreSQL's and Redis's processes together, in cores


def machine_ticks() -> tuple[int, int]:
    """(busy, total) clock ticks of all CPUs since boot: the machine's own share of work, whoever did it."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    total = sum(fields[:8])  # guest time is already in user
    return total - idle, total


def store_seconds() -> float:
    """CPU seconds used so far by every live PostgreSQL and Redis process (the servers' shared stores)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue  # gone meanwhile
        name = text[text.find("(") + 1 : text.rfind(")")]
        if name.startswith(("postgres", "redis-server")):
            fields = text.rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


@dataclass
class Decisions:
    """What the servers' drivers logged about their decisions over one leg."""

    attempts: int = 0
    distinct: int = 0
    by_several: int = 0
    lease_moved: int = 0
    duplicates: int = 0
    driven: list[int] = field(default_factory=list)


def count_decisions(log_paths: list[Path]) -> Decisions:
    """Attempts, distinct decisions, decisions submitted by more than one process, decisions stopped by
    the lease re-check and duplicates refused by the database, from the servers' logs."""
    by: dict[tuple[str, str], set[int]] = defaultdict(set)
    found = Decisions()
    for i, path in enumerate(log_paths):
        text = path.read_text(errors="replace") if path.exists() else ""
        for m in SUBMITTED_RE.finditer(text):
            found.attempts += 1
            by[(m.group(1), m.group(2))].add(i)
        found.lease_moved += len(LEASE_MOVED_RE.findall(text))
        found.duplicates += len(DUPLICATE_RE.findall(text))
    found.distinct = len(by)
    found.driven = [
        len({room for room, _prompt in by if i in by[(room, _prompt)]}) for i in range(len(log_paths))
    ]
    found.by_several = sum(1 for where in by.values() if len(where) > 1)
    return found


async def run(processes: int, split: str, args: argparse.Namespace, db, log_dir: Path) -> Outcome:
    env = child_env(
        **db.env,
        REDIS_URL=REDIS_SERVER,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        DEBUG="false",
        LOG_LEVEL="ERROR",
        DRIVER_LOG_LEVEL="DEBUG",  # one line per decision submitted, in every leg alike
        BOT_DELAY="0",
    )
    with servers() as started:
        for _ in range(processes):
            started.append(start_server(args.server, env, log_dir))
        proxy = start_caddy(started, log_dir) if split == "caddy" else None
        created = await asyncio.to_thread(create_rooms, args.rooms, args.seats)
        await asyncio.sleep(1.0)
        rss0 = [s.rss_bytes() for s in started]
        rooms: list[Room] = []
        for r, (code, game_id) in enumerate(created):
            room = Room(code, game_id, [])
            for j in range(args.spectators):
                # sockets: a room's spectators alternate between the processes, its first one on process
                # r % 2, so each process's hub opens (and drives) half of the rooms, as least_conn spreads
                # the first sockets of rooms in production
                server = proxy or started[(j + r if split == "sockets" else r) % processes]
                room.watchers.append(Watcher(room, f"{server.ws}/ws/r/{code}/?format=json"))
            rooms.append(room)
        readers: list[asyncio.Task[None]] = []
        # the first socket of each (room, process) alone: a hub's very first refresh must finish before
        # other sockets join it (see bench/realtime.py); and the room's very first socket has its first frame
        # (its hub claimed the room's driver lease) before the room's first socket on the other process
        # connects, so that each process drives the half of the rooms it opened, as intended above
        firsts: dict[tuple[str, str], Watcher] = {}
        for room in rooms:
            for w in room.watchers:
                firsts.setdefault((room.code, w.url.split("/ws/")[0]), w)
        waves: list[list[Watcher]] = [[], []]  # each room's very first socket, then its first on the other
        opened: set[str] = set()
        for (code, _), w in firsts.items():
            waves[code in opened].append(w)
            opened.add(code)
        for wave in waves:
            for w in wave:
                await w.connect()
                readers.append(asyncio.create_task(w.read()))
            await asyncio.wait_for(asyncio.gather(*(w.first.wait() for w in wave)), 60)
        rest = [w for room in rooms for w in room.watchers if w not in firsts.values()]
        for i in range(0, len(rest), CONNECT_BATCH):
            batch = rest[i : i + CONNECT_BATCH]
            await asyncio.gather(*(w.connect() for w in batch))
            readers += [asyncio.create_task(w.read()) for w in batch]
        sockets = sum(len(r.watchers) for r in rooms)
        await asyncio.sleep(1.0)
        rss1 = [s.rss_bytes() for s in started]
        await asyncio.sleep(args.warmup)
        game_ids = [r.game_id for r in rooms]
        v0 = await asyncio.to_thread(versions, game_ids)
        frames0 = sum(w.frames for r in rooms for w in r.watchers)
        bytes0 = sum(w.bytes for r in rooms for w in r.watchers)
        cpu0 = [s.cpu_seconds() for s in started]
        proxy_cpu0 = proxy.cpu_seconds() if proxy is not None else 0.0
        self0 = resource.getrusage(resource.RUSAGE_SELF)
        machine0, store0 = machine_ticks(), store_seconds()
        t0 = time.time()
        for room in rooms:
            room.recording = True
        await asyncio.sleep(args.seconds)
        t1 = time.time()
        for room in rooms:
            room.recording = False
        cpu1 = [s.cpu_seconds() for s in started]
        proxy_cpu = (proxy.cpu_seconds() - proxy_cpu0) if proxy is not None else 0.0
        self1 = resource.getrusage(resource.RUSAGE_SELF)
        machine1, store1 = machine_ticks(), store_seconds()
        frames1 = sum(w.frames for r in rooms for w in r.watchers)
        bytes1 = sum(w.bytes for r in rooms for w in r.watchers)
        v1 = await asyncio.to_thread(versions, game_ids)
        await asyncio.sleep(1.0)  # let the last versions of the window arrive
        commits = await asyncio.to_thread(commit_times, game_ids, t0, t1)
        latencies = []
        complete = 0
        for room in rooms:
            for version, (count, last) in room.arrivals.items():
                made = commits.get((room.game_id, version))
                if made is None:
                    continue
                if count >= len(room.watchers):
                    complete += 1
                    latencies.append(last - made)
        await asyncio.gather(*(w.close() for r in rooms for w in r.watchers))
        for task in readers:
            task.cancel()
        finished = await asyncio.to_thread(_finished, game_ids)
        log_paths = [s.log_path for s in started]
        if proxy is not None:
            proxy.stop()
    decided = count_decisions(log_paths)
    wall = t1 - t0
    return Outcome(
        server=args.server,
        processes=processes,
        sockets=sockets,
        actions_per_s=sum(v1[g] - v0[g] for g in game_ids) / wall,
        frames_per_s=(frames1 - frames0) / wall,
        frame_bytes=(bytes1 - bytes0) / max(1, frames1 - frames0),
        p50=percentile(latencies, 0.5),
        p99=percentile(latencies, 0.99),
        complete=complete,
        rss_per_socket=(sum(rss1) - sum(rss0)) / max(1, sockets),
        cpu_share=[(b - a) / wall for a, b in zip(cpu0, cpu1, strict=True)],
        client_cpu=(self1.ru_utime - self0.ru_utime + self1.ru_stime - self0.ru_stime) / wall,
        finished_rooms=finished,
        split=split if processes > 1 else "",
        attempts=decided.attempts,
        decisions=decided.distinct,
        by_several=decided.by_several,
        driven=decided.driven,
        lease_moved=decided.lease_moved,
        duplicates=decided.duplicates,
        proxy_cpu=proxy_cpu / wall,
        machine_busy=(machine1[0] - machine0[0]) / max(1, machine1[1] - machine0[1]),
        store_cpu=(store1 - store0) / wall,
    )


CADDYFILE = """{
	admin off
	auto_https off
}
http://127.0.0.1:%(port)d {
	@room_socket path_regexp room ^/ws/r/([^/?]+)/
	request_header @room_socket X-MF-Room {re.room.1}
	reverse_proxy %(upstreams)s {
		lb_policy header X-MF-Room
	}
}
"""


def start_caddy(upstreams: list[Server], log_dir: Path) -> Server:
    """Caddy in front of ``upstreams`` with room-affine routing, as deploy/Caddyfile does with
    ``LB_POLICY="header X-MF-Room"``: every socket of a room goes to one process."""
    caddy = shutil.which("caddy")
    if caddy is None:
        raise SystemExit("the caddy leg needs the caddy binary on PATH")
    port = free_port()
    config = log_dir / f"Caddyfile-{port}"
    targets = " ".join(f"127.0.0.1:{s.port}" for s in upstreams)
    config.write_text(CADDYFILE % {"port": port, "upstreams": targets})
    log_path = log_dir / f"caddy-{port}.log"
    with log_path.open("w") as log:
        process = subprocess.Popen(
            [caddy, "run", "--config", str(config), "--adapter", "caddyfile"],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    server = Server(port, process, log_path)
    deadline = time.monotonic() + 20
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"caddy exited: {log_path.read_text()[-2000:]}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return server
        if time.monotonic() > deadline:
            server.stop()
            raise RuntimeError("caddy did not start listening within 20 s")
        time.sleep(0.1)


def _finished(game_ids: list[int]) -> int:
    from django.db import connections

    from tournament.models import Game

    n = Game.objects.filter(pk__in=game_ids, status="finished").count()
    connections.close_all()
    return n


def _line(o: Outcome) -> str:
    split = f" (split {o.split})" if o.split else ""
    return (
        f"{o.processes} {o.server}{split}: {o.sockets} sockets, {o.actions_per_s:.1f} actions/s, "
        f"{o.frames_per_s:,.0f} frames/s ({o.frame_bytes:,.0f} B each), latency p50 {1000 * o.p50:.0f} ms"
        f" p99 {1000 * o.p99:.0f} ms "
        f"({o.complete} versions), RSS {o.rss_per_socket / 1024:.0f} KiB/socket, server CPU "
        f"{' + '.join(f'{c:.0%}' for c in o.cpu_share)}{_proxy(o)}, client CPU {o.client_cpu:.0%}, "
        f"PostgreSQL + Redis {o.store_cpu:.0%}, machine busy {o.machine_busy:.0%} of {os.cpu_count()} cores, "
        f"{o.finished_rooms} rooms finished, decisions {o.decisions} ({o.attempts} attempts,"
        f" {o.by_several} by several processes, {o.lease_moved} stopped by the lease re-check,"
        f" {o.duplicates} duplicates refused by the database; rooms driven {' + '.join(map(str, o.driven))})"
    )


def _proxy(o: Outcome) -> str:
    return f" + Caddy {o.proxy_cpu:.0%}" if o.split == "caddy" else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--spectators", type=int, default=40, help="spectators per room")
    parser.add_argument("--seats", type=int, default=6, help="bots per room")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured window")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--split", choices=("sockets", "rooms", "caddy", "both", "all"), default="both")
    parser.add_argument("--db", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument(
        "--server", choices=("uvicorn", "daphne"), default="uvicorn", help="uvicorn: what docker compose runs"
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="repeat the legs in turn (one process, then each split) and report each round and the median",
    )
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    if not (1 <= args.rooms <= 100 and 1 <= args.spectators <= 200 and 0 < args.seconds <= 300):
        parser.error("keep the load bounded: rooms ≤ 100, spectators ≤ 200, seconds ≤ 300")
    if not 1 <= args.rounds <= 5:
        parser.error("keep the load bounded: 1 to 5 rounds")
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))  # the servers inherit it
    flush_redis(REDIS_SERVER)
    db = temp_database(args.db)
    use_database_here(db)
    os.environ["REDIS_URL"] = REDIS_SERVER
    import django

    django.setup()
    log_dir = Path(tempfile.mkdtemp(prefix="mft-scale-"))
    splits = {"both": ("rooms", "sockets"), "all": ("rooms", "sockets", "caddy")}.get(
        args.split, (args.split,)
    )
    rounds: list[tuple[Outcome, list[Outcome]]] = []
    try:
        for _ in range(args.rounds):
            flush_redis(REDIS_SERVER)
            one = uvloop.run(run(1, "", args, db, log_dir))
            print(_line(one))
            twos = []
            for split in splits:
                flush_redis(REDIS_SERVER)
                twos.append(uvloop.run(run(2, split, args, db, log_dir)))
                print(_line(twos[-1]))
            rounds.append((one, twos))
    finally:
        from django.db import connections

        connections.close_all()
        db.drop()
        flush_redis(REDIS_SERVER)
        shutil.rmtree(log_dir, ignore_errors=True)  # the servers' logs of this run
    lines = []
    for n, (one, twos) in enumerate(rounds, 1):
        for two in twos:
            speedup = two.actions_per_s / one.actions_per_s if one.actions_per_s else float("nan")
            p99 = two.p99 / one.p99 if one.p99 else float("nan")
            lines.append(
                f"{f'Round {n}, split' if len(rounds) > 1 else 'Split'} {two.split}: speed-up of the second"
                f" process (actions/s) **{speedup:.2f}×**, p99 latency {p99:.2f}× one process's; decisions"
                f" submitted by both processes: **{two.by_several}** ({two.attempts - two.decisions} attempts"
                " beyond one per decision, retries included); duplicates reaching the database:"
                f" **{two.duplicates}**; stopped by the lease re-check: {two.lease_moved}."
            )
            print(lines[-1].replace("**", ""))
    if len(rounds) > 1:  # each round's two-process legs against that round's one process
        for i, split in enumerate(splits):
            ratios = [
                (twos[i].actions_per_s / one.actions_per_s, twos[i].p99 / one.p99) for one, twos in rounds
            ]
            lines.append(
                f"Split {split} over {len(rounds)} rounds: speed-up"
                f" **{median(r for r, _ in ratios):.2f}×** median"
                f" (rounds {', '.join(f'{r:.2f}×' for r, _ in ratios)}), p99 latency"
                f" {median(p for _, p in ratios):.2f}× one process's median"
                f" (rounds {', '.join(f'{p:.2f}×' for _, p in ratios)})."
            )
            print(lines[-1].replace("**", ""))
    info = machine()
    section = "\n".join(
        [
            f"## Scale: {args.rooms} rooms of bots × {args.spectators} spectators, 1 then 2 {args.server}"
            f" processes ({info['date']})",
            "",
            f"`python bench/scale.py --split {args.split} --server {args.server}"
            f"{f' --rounds {args.rounds}' if args.rounds > 1 else ''}`: {args.rooms} rooms ×"
            f" {args.seats} `easy` bots"
            " playing through the live driver (`BOT_DELAY=0`), "
            f"{args.spectators} protocol spectators per room, Redis channel layer,"
            f" {db.description.split(' on ')[0]} ({args.db}); {args.warmup:.0f} s warm-up,"
            f" {args.seconds:.0f} s measured. Latency: from the action's",
            "commit (its `ActionRecord` time) to the last spectator of the room holding that version."
            " Decisions: what the drivers submitted over the whole leg (from the servers' logs).",
            "",
            *machine_lines(info),
            "",
            f"| {args.server} processes | split | sockets | actions/s | frames/s | bytes per frame |"
            " latency p50 ms | p99 ms | versions timed | RSS per socket | server CPU | client CPU |"
            " PostgreSQL + Redis CPU |"
            f" machine busy ({os.cpu_count()} cores) | rooms finished | decisions | attempts |"
            " by both processes | duplicates in the database | stopped by the lease |",
            "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
            *[
                f"| {o.processes} | {o.split or '–'} | {o.sockets} | {o.actions_per_s:.1f} |"
                f" {o.frames_per_s:,.0f} | {o.frame_bytes:,.0f} | {1000 * o.p50:.0f} | {1000 * o.p99:.0f} |"
                f" {o.complete} |"
                f" {o.rss_per_socket / 1024:.0f} KiB |"
                f" {' + '.join(f'{c:.0%}' for c in o.cpu_share)}{_proxy(o)} | {o.client_cpu:.0%} |"
                f" {o.store_cpu:.0%} | {o.machine_busy:.0%} | {o.finished_rooms} |"
                f" {o.decisions} | {o.attempts} | {o.by_several if o.processes > 1 else '–'} |"
                f" {o.duplicates} | {o.lease_moved} |"
                for one, twos in rounds
                for o in (one, *twos)
            ],
            "",
            *lines,
            "",
        ]
    )
    if not args.no_write:
        append_performance(section)
        print("appended to docs/PERFORMANCE.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
