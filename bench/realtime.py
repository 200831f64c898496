"""Real time, end to end: latency from an action being sent to every client of the room having it.

Usage (from the repository root)::

    .venv/bin/python bench/realtime.py [--spectators 50 200] [--actions 500] [--db sqlite|postgres]
                                       [--no-profile] [--no-layer-configs] [--no-peer] [--no-write]

What runs, all on 127.0.0.1:

- Redis (``BENCH_REDIS_URL``, default db 13 of the local server: flushed at the start) as the channel
  layer, and a fresh database (a temporary SQLite file by default) migrated with the catalog loaded.
- **ours**: one daphne process serving the project (``magicfootball.asgi``). This process creates a room
  with 8 human seats through the services (same database), starts it, connects the 8 seats as protocol
  clients (``hello`` with their tokens) and N spectators with the ``websockets`` package, all from one
  asyncio process. Then, for ``--actions`` rounds: the seat with an open prompt sends its default with
  ``act`` (t0), and the round ends when **every** client has received a frame whose ``version`` is the new
  version; latency = last arrival − t0. Clients acknowledge every 8 frames (protocol flow control), and
  each seat keeps to the server's rate limit (12 at once, 4 per second), waiting *before* t0.
- **floor**: ``bench/floor_app.py``, a bare Channels consumer served by daphne with the same Redis layer:
  every socket in one group, and one client's message makes the consumer ``group_send`` a frame of the
  same byte size as our mean update frame to the whole group. Same client code, same sizes.

Reported per size: p50 / p99 / max latency, mean frame size, server CPU per action (daphne's utime +
stime from /proc), Redis CPU per action, the client process's CPU share (if it nears 100 % the clients
are the bottleneck, not the server), our p50 / floor p50, and the targets: p50 ≤ 1.3 × floor, p99 ≤ 100 ms
with 50 spectators and ≤ 250 ms with 200. py-spy samples daphne during the largest size and the top frames
are listed (``--no-profile`` skips it); a few channel-layer settings are measured too, and what happens when
``group_expiry`` is shorter than a socket's life (item 5; ``--no-layer-configs`` skips them).

**peer**: when ``../shared/bench-peer/run.sh`` is there (``BENCH_PEER`` overrides the path), boardgame.io
is measured in the same run, on the same machine, for the same sizes and the same number of moves: its
p50/p99 and server CPU per move beside ours, and our p50 and p99 as a share of the peer's (lower is
better; the goal is below 1). ``--no-peer`` skips it.
Every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
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
    machine,
    machine_lines,
    percentile,
    servers,
    start_daphne,
    temp_database,
    use_database_here,
)

ROUND_TIMEOUT = 10.0  # seconds one action may take to reach every client before it is given up
CONNECT_TIMEOUT = 30.0  # seconds a websocket handshake may take
RUN_LIMIT = 600.0  # seconds one measured loop may last
ACK_EVERY = 8
RATE_BURST, RATE_PER_SECOND = 12, 3.8  # just under the server's 12 / 4 per second
TARGET_RATIO = 1.3
TARGET_P99 = {50: 0.100, 200: 0.250}
VERSION_RE = re.compile(r'"version":(\d+)')
loads = orjson.loads


def dumps(obj: Any) -> bytes:
    return orjson.dumps(obj)


# ---------------------------------------------------------------------------------------- clients


@dataclass
class Round:
    """One action in flight: who still has to receive ``target``."""

    target: int
    t0: float
    waiting: int
    last: float = 0.0
    done: asyncio.Event = field(default_factory=asyncio.Event)
    failed: str = ""


class Client:
    """One websocket: decodes every frame, keeps its view current (deltas applied to the version they
    name), notes the newest version, acknowledges, and for a seat knows its open prompts.

    Built on picows (frames handed to a callback as they are parsed, no task per socket) with orjson, so
    that one process can play 208 clients without becoming the bottleneck it measures; it still does the
    work of a real client for every frame: decode it completely and apply it."""

    def __init__(self, bench: Bench, url: str, player: bool, token: str | None = None) -> None:
        self.bench = bench
        self.url = url
        self.player = player
        self.token = token
        self.version = -1
        self.view: dict[str, Any] | None = None
        self.frames = 0
        self.update_bytes = 0
        self.updates = 0
        self.round_seen: Round | None = None
        self.transport: Any = None
        self.tokens = float(RATE_BURST)
        self.refilled = time.monotonic()
        self.ready = asyncio.Event()
        self.closed = asyncio.Event()
        self.errors: Counter[str] = Counter()

    async def connect(self) -> None:
        from picows import WSListener, WSMsgType, ws_connect

        client = self

        class Listener(WSListener):
            def on_ws_frame(self, transport: Any, frame: Any) -> None:
                if frame.msg_type == WSMsgType.TEXT:
                    client._frame(frame.get_payload_as_bytes(), time.perf_counter())
                elif frame.msg_type == WSMsgType.CLOSE:
                    transport.disconnect()

            def on_ws_disconnected(self, transport: Any) -> None:
                client.closed.set()

        self.transport, _ = await ws_connect(
            Listener,
            self.url,
            extra_headers={"Origin": "http://127.0.0.1"},
            max_frame_size=2**22,
            websocket_handshake_timeout=CONNECT_TIMEOUT,
        )
        if self.token:
            self._send({"type": "hello", "token": self.token})
        else:
            self.ready.set()

    def _frame(self, data: bytes, now: float) -> None:
        self.frames += 1
        if self.frames % ACK_EVERY == 0:
            self._send({"type": "ack"})
        head = data[:64]
        if head.startswith(b'{"type":"error"'):
            frame = loads(data)
            self.errors[frame.get("code", "?")] += 1
            rnd = self.bench.round
            if rnd is not None and frame.get("action_id") == self.bench.action_id:
                rnd.failed = frame.get("code", "error")
                rnd.done.set()
            return
        if not (head.startswith(b'{"type":"update"') or head.startswith(b'{"type":"state"')):
            return
        # Every client decodes every frame and keeps the view current, as a real front end would
        # (a delta applies to the version it names; boardgame.io's clients likewise parse each update).
        frame = loads(data)
        version = frame["version"]
        if frame["type"] == "update":
            self.updates += 1
            self.update_bytes += len(data)
        if version >= self.version:
            if "delta" in frame:
                if self.view is not None and frame.get("base") == self.version:
                    view = {**self.view, **frame["delta"]}
                    for key in frame.get("removed", ()):
                        view.pop(key, None)
                    self.view = view
                else:
                    self.errors["delta_without_base"] += 1
            elif "view" in frame:
                self.view = frame["view"]
        if self.player and frame["type"] == "state" and (frame.get("view") or {}).get("me") is not None:
            self.ready.set()
        self.version = max(self.version, version)
        rnd = self.bench.round
        if rnd is not None and self.round_seen is not rnd and self.version >= rnd.target:
            self.round_seen = rnd
            rnd.last = now
            rnd.waiting -= 1
            if rnd.waiting == 0:
                rnd.done.set()

    def _send(self, obj: dict[str, Any]) -> None:
        from picows import WSMsgType

        with contextlib.suppress(Exception):
            self.transport.send(WSMsgType.TEXT, dumps(obj))

    async def take_token(self) -> None:
        """Keep to the server's per-socket rate limit; waits before the action's clock starts."""
        while True:
            now = time.monotonic()
            self.tokens = min(RATE_BURST, self.tokens + (now - self.refilled) * RATE_PER_SECOND)
            self.refilled = now
            if self.tokens >= 1:
                self.tokens -= 1
                return
            await asyncio.sleep((1 - self.tokens) / RATE_PER_SECOND)

    async def close(self) -> None:
        if self.transport is None:
            return
        with contextlib.suppress(Exception):
            self.transport.send_close()
            self.transport.disconnect()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.closed.wait(), 2)


class Bench:
    """A room's clients and the rounds measured over them."""

    def __init__(self) -> None:
        self.clients: list[Client] = []
        self.round: Round | None = None
        self.action_id = ""

    async def open(self, url: str, tokens: list[str], spectators: int, batch: int = 50) -> None:
        """Connect the seats, then the spectators (in batches: daphne accepts a burst slowly)."""
        self.clients = [Client(self, url, True, t) for t in tokens]
        self.clients += [Client(self, url, False) for _ in range(spectators)]
        # The first socket alone, then the rest: a hub's very first refresh then never races other joins
        # (an early hub dropped sockets that joined during it; connecting this way measures both alike).
        first = self.clients[0]
        await first.connect()
        await asyncio.wait_for(first.ready.wait(), CONNECT_TIMEOUT)
        rest = self.clients[1:]
        for i in range(0, len(rest), batch):
            group = rest[i : i + batch]
            await asyncio.gather(*(c.connect() for c in group))
        await asyncio.wait_for(asyncio.gather(*(c.ready.wait() for c in self.clients)), 2 * CONNECT_TIMEOUT)
        await self.settle()

    async def settle(self, quiet: float = 0.3, limit: float = 20) -> None:
        """Wait until every client holds the same newest version (nothing in flight)."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            versions = {c.version for c in self.clients}
            if len(versions) == 1:
                await asyncio.sleep(quiet)
                if {c.version for c in self.clients} == versions:
                    return
            await asyncio.sleep(0.05)

    async def close(self) -> None:
        await asyncio.gather(*(c.close() for c in self.clients))

    async def measure(self, send, actions: int) -> tuple[list[float], Counter[str]]:
        """Run ``actions`` rounds; ``send(bench, n)`` sends one action (after waiting for its seat's rate
        limit) and returns the version it must produce, or None when nothing is left to do."""
        latencies: list[float] = []
        failures: Counter[str] = Counter()
        # The clients are the measuring instrument: a cyclic collection over their 58-208 views (a gen-2
        # pause of 70-90 ms was seen) would be counted as the server's latency. Nothing they allocate per
        # frame is cyclic, so reference counting frees it all while the collector rests.
        gc.collect()
        gc.freeze()
        gc.disable()
        try:
            return await self._measure(send, actions, latencies, failures)
        finally:
            gc.enable()
            gc.unfreeze()

    async def _measure(
        self, send, actions: int, latencies: list[float], failures: Counter[str]
    ) -> tuple[list[float], Counter[str]]:
        started = time.monotonic()
        n = 0
        while len(latencies) < actions and time.monotonic() - started < RUN_LIMIT and n < actions * 3:
            n += 1
            await self.settle(quiet=0.0, limit=5)
            current = max(c.version for c in self.clients)
            rnd = Round(target=current + 1, t0=0.0, waiting=len(self.clients))
            ok = await send(self, n, rnd)
            if not ok:
                failures["nothing to do"] += 1
                break
            try:
                await asyncio.wait_for(rnd.done.wait(), ROUND_TIMEOUT)
            except TimeoutError:
                failures["timeout"] += 1
                continue
            finally:
                self.round = None
            if rnd.failed:
                failures[rnd.failed] += 1
                continue
            latencies.append(rnd.last - rnd.t0)
        return latencies, failures


# ------------------------------------------------------------------------------------------- ours


async def send_ours(bench: Bench, n: int, rnd: Round) -> bool:
    """The seat with an open prompt answers it with its default."""
    for client in bench.clients:
        if not client.player or not client.view:
            continue
        prompts = client.view.get("my_prompts") or []
        if prompts and client.view.get("status") in (None, "running"):
            prompt = prompts[0]
            await client.take_token()
            bench.action_id = f"a{n}-{client.version}"
            frame = {
                "type": "act",
                "version": client.version,
                "action_id": bench.action_id,
                "action": {"type": "answer", "prompt": prompt["id"], "choice": prompt["default"]},
            }
            rnd.target = client.version + 1
            rnd.t0 = time.perf_counter()
            bench.round = rnd
            client._send(frame)
            return True
    return False


def make_room(seats: int = 8) -> tuple[str, list[str]]:
    """A room with ``seats`` human seats, started; returns its code and the seats' tokens (services,
    same database as the server)."""
    from tournament.models import Game
    from tournament.rules.events import Actor
    from tournament.services.actions import game_act
    from tournament.services.rooms import room_create, room_join

    room = room_create(nickname="P1", seed=2026, house_rules={"seats": seats})
    tokens = [room.token]
    for i in range(2, seats + 1):
        tokens.append(room_join(code=room.code, nickname=f"P{i}")[1])
    game = Game.objects.get(code=room.code)
    game_act(
        code=room.code,
        actor=Actor("host"),
        action={"type": "start"},
        expected_version=game.version,
        action_id="bench-start",
    )
    return room.code, tokens


# ------------------------------------------------------------------------------------------ floor


def send_floor(size: int):
    async def send(bench: Bench, n: int, rnd: Round) -> bool:
        sender = bench.clients[0]
        rnd.target = sender.version + 1
        bench.action_id = f"f{n}"
        rnd.t0 = time.perf_counter()
        bench.round = rnd
        sender._send({"type": "act", "version": sender.version, "size": size})
        return True

    return send


# ------------------------------------------------------------------------------------------- runs


@dataclass
class Result:
    name: str
    spectators: int
    latencies: list[float]
    failures: Counter[str]
    frame_bytes: float
    cpu_per_action: float
    redis_cpu_per_action: float
    client_cpu_share: float
    client_cpu_per_action: float
    wall: float
    top_frames: list[tuple[str, float, float]] = field(default_factory=list)

    def p(self, q: float) -> float:
        return percentile(self.latencies, q)


def redis_cpu(url: str) -> float:
    import redis

    client = redis.Redis.from_url(url)
    info = client.info("cpu")
    client.close()
    return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])


async def run_size(
    server: Server,
    url: str,
    tokens: list[str],
    spectators: int,
    actions: int,
    name: str,
    send,
    profile: Path | None = None,
) -> Result:
    bench = Bench()
    await bench.open(url, tokens, spectators)
    for c in bench.clients:
        c.update_bytes = c.updates = 0
    spy = _start_py_spy(server, profile) if profile else None
    cpu0, redis0, wall0 = server.cpu_seconds(), redis_cpu(REDIS_SERVER), time.perf_counter()
    self0 = resource.getrusage(resource.RUSAGE_SELF)
    latencies, failures = await bench.measure(send, actions)
    wall = time.perf_counter() - wall0
    self1 = resource.getrusage(resource.RUSAGE_SELF)
    cpu = server.cpu_seconds() - cpu0
    rcpu = redis_cpu(REDIS_SERVER) - redis0
    top = _stop_py_spy(spy, profile) if spy else []
    updates = sum(c.updates for c in bench.clients)
    frame_bytes = sum(c.update_bytes for c in bench.clients) / max(1, updates)
    await bench.close()
    done = max(1, len(latencies))
    client_seconds = self1.ru_utime - self0.ru_utime + self1.ru_stime - self0.ru_stime
    return Result(
        name=name,
        spectators=spectators,
        latencies=latencies,
        failures=failures,
        frame_bytes=frame_bytes,
        cpu_per_action=cpu / done,
        redis_cpu_per_action=rcpu / done,
        client_cpu_share=client_seconds / max(wall, 1e-9),
        client_cpu_per_action=client_seconds / done,
        wall=wall,
        top_frames=top,
    )


def _start_py_spy(server: Server, out: Path) -> subprocess.Popen | None:
    exe = Path(sys.executable).parent / "py-spy"
    if not exe.exists():
        print("py-spy is not installed (pip install py-spy): no profile")
        return None
    return subprocess.Popen(
        [
            str(exe),
            "record",
            "--pid",
            str(server.process.pid),
            "--rate",
            "250",
            "--format",
            "raw",
            "--output",
            str(out),
            "--nonblocking",
            "--gil",  # only the thread holding the GIL: where the CPU goes, not threads waiting for it
            "--duration",
            "600",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _stop_py_spy(proc: subprocess.Popen | None, out: Path | None) -> list[tuple[str, float, float]]:
    if proc is None or out is None:
        return []
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        return []
    if not out.exists():
        print("py-spy wrote no profile:", (proc.stderr.read() or b"").decode()[-500:] if proc.stderr else "")
        return []
    return top_frames(out.read_text())


def top_frames(raw: str, n: int = 14) -> list[tuple[str, float, float]]:
    """(function, % of busy samples inside it, % of busy samples on it) from py-spy's collapsed stacks.

    Idle samples (the event loop or a worker thread waiting) are left out. The first list is the busiest
    frames by time inside them, without the roots every busy sample passes through (the event loop, the
    thread pool, daphne's start-up); the second the busiest by own time (where the CPU actually goes).
    """
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0
    for line in raw.splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = [re.sub(r":\d+\)$", ")", f) for f in stack.split(";")[1:]]  # drop the thread, line numbers
        if not frames or any(key in frames[-1] for key in IDLE_FRAMES):
            continue
        k = int(count)
        total += k
        for f in set(frames):
            inclusive[f] += k
        own[frames[-1]] += k
    if not total:
        return []
    inside = [
        (f, 100 * c / total, 100 * own.get(f, 0) / total)
        for f, c in inclusive.most_common()
        if not any(root in f for root in ROOT_FRAMES)
    ][:n]
    by_self = [(f, 100 * inclusive[f] / total, 100 * c / total) for f, c in own.most_common(n)]
    return [*inside, ("— busiest own time —", 0.0, 0.0), *by_self]


IDLE_FRAMES = (
    "select (",
    "poll (",
    "epoll",
    "_worker (concurrent",
    "wait (threading",
    "_wait_for_tstate_lock",
)
ROOT_FRAMES = (
    "<module>",
    "_run_code",
    "_run_module_as_main",
    "entrypoint (daphne",
    "CommandLineInterface.run",
    "Server.run (daphne",
    "AsyncioSelectorReactor.run",
    "run_forever",
    "_run_once",
    "Handle._run",
    "Thread.run",
    "_bootstrap",
    "_WorkItem.run",
    "_worker (concurrent",
    "thread_handler (asgiref",
    "Task.__step",
    "Task.__wakeup",
)


async def measure_ours(
    db,
    spectators: list[int],
    actions: int,
    log_dir: Path,
    profile: bool,
    layer_env: dict[str, str] | None = None,
) -> list[Result]:
    results = []
    env = child_env(
        **db.env,
        REDIS_URL=REDIS_SERVER,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        DEBUG="false",
        LOG_LEVEL="ERROR",
        **(layer_env or {}),
    )
    with servers() as started:
        server = start_daphne("magicfootball.asgi:application", env, log_dir)
        started.append(server)
        for n in spectators:
            code, tokens = await asyncio.to_thread(make_room)
            url = f"{server.ws}/ws/r/{code}/?format=json&delta=1"
            spy_out = log_dir / f"py-spy-{n}.txt" if profile and n == max(spectators) else None
            result = await run_size(server, url, tokens, n, actions, "ours", send_ours, spy_out)
            results.append(result)
            print(_line(result))
    return results


async def measure_floor(
    spectators: list[int],
    sizes: dict[int, float],
    actions: int,
    log_dir: Path,
    layer_env: dict[str, str] | None = None,
) -> list[Result]:
    results = []
    env = child_env(
        REDIS_URL=REDIS_SERVER,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        DEBUG="false",
        LOG_LEVEL="ERROR",
        **(layer_env or {}),
    )
    with servers() as started:
        server = start_daphne("bench.floor_app:application", env, log_dir)
        started.append(server)
        for i, n in enumerate(spectators):
            url = f"{server.ws}/ws/floor/room{i}/"
            size = int(sizes.get(n, 4000))
            result = await run_size(server, url, [], n + 8, actions, "floor", send_floor(size))
            result.spectators = n
            results.append(result)
            print(_line(result))
    return results


PEER_SCRIPT = Path(os.environ.get("BENCH_PEER", str(ROOT.parent / "shared" / "bench-peer" / "run.sh")))


def measure_peer(spectators: list[int], moves: int) -> dict[int, dict[str, Any]]:
    """boardgame.io pushing a move to 8 players + N spectators (``run.sh`` prints one JSON line)."""
    out: dict[int, dict[str, Any]] = {}
    for n in spectators:
        proc = subprocess.run(
            ["bash", str(PEER_SCRIPT), str(n), str(moves)], capture_output=True, text=True, timeout=1800
        )
        lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
        if proc.returncode != 0 or not lines:
            print(f"peer {n}: failed (exit {proc.returncode}): {proc.stderr[-500:]}")
            continue
        out[n] = json.loads(lines[-1])
        r = out[n]
        print(
            f"peer   {n:>4} spectators + 8: {r['moves']} moves  p50 {r['p50_ms']:6.1f} ms"
            f"  p99 {r['p99_ms']:6.1f} ms  max {r['max_ms']:6.1f} ms"
            f"  server CPU {1000 * (r.get('server_cpu_s') or 0) / r['moves']:5.1f} ms/move"
        )
    return out


def _line(r: Result) -> str:
    return (
        f"{r.name:<6} {r.spectators:>4} spectators + 8: {len(r.latencies)} actions  "
        f"p50 {1000 * r.p(0.5):6.1f} ms  p99 {1000 * r.p(0.99):6.1f} ms"
        f"  max {1000 * max(r.latencies or [0]):6.1f} ms"
        f"  frame {r.frame_bytes:,.0f} B  server CPU {1000 * r.cpu_per_action:5.1f} ms/action"
        f"  redis {1000 * r.redis_cpu_per_action:4.2f} ms/action  client CPU {r.client_cpu_share:4.0%}"
        f" ({1000 * r.client_cpu_per_action:.1f} ms/action)"
        f"  failures {dict(r.failures) or 0}"
    )


# ------------------------------------------------------------------------------- group expiry check


async def group_expiry_check(db, log_dir: Path, group_expiry: int, idle: float) -> dict[str, float]:
    """A socket outliving the channel layer's ``group_expiry``: does a push still reach it at once?

    The hub joins the room's group once; Redis forgets the membership after ``group_expiry`` seconds, and
    later pushes reach nobody: clients then see the change only through the hub's 2-second poll.
    """
    env = child_env(
        **db.env,
        REDIS_URL=REDIS_SERVER,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        DEBUG="false",
        LOG_LEVEL="ERROR",
        CHANNEL_GROUP_EXPIRY=str(group_expiry),
    )
    with servers() as started:
        server = start_daphne("magicfootball.asgi:application", env, log_dir)
        started.append(server)
        code, tokens = await asyncio.to_thread(make_room, 2)
        bench = Bench()
        await bench.open(f"{server.ws}/ws/r/{code}/?format=json", tokens, 2)
        before, _ = await bench.measure(send_ours, 5)
        await asyncio.sleep(idle)
        after, _ = await bench.measure(send_ours, 5)
        await bench.close()
    return {"before_ms": 1000 * percentile(before, 0.5), "after_ms": 1000 * percentile(after, 0.5)}


# ------------------------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spectators", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--actions", type=int, default=500, help="measured actions per size (≥ 500)")
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument(
        "--no-profile",
        dest="profile",
        action="store_false",
        help="skip py-spy on daphne during the largest size",
    )
    parser.add_argument(
        "--no-layer-configs",
        dest="layer_configs",
        action="store_false",
        help="skip the channel-layer settings (item 5)",
    )
    parser.add_argument("--no-peer", dest="peer", action="store_false", help="skip boardgame.io")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))  # daphne inherits it

    flush_redis(REDIS_SERVER)
    db = temp_database(args.db)
    use_database_here(db)
    os.environ["REDIS_URL"] = REDIS_SERVER
    import django

    django.setup()
    log_dir = Path(tempfile.mkdtemp(prefix="mft-realtime-"))
    peer: dict[int, dict[str, Any]] = {}
    if args.peer and PEER_SCRIPT.exists():
        peer = measure_peer(args.spectators, args.actions)
    try:
        ours = uvloop.run(measure_ours(db, args.spectators, args.actions, log_dir, args.profile))
        sizes = {r.spectators: r.frame_bytes for r in ours}
        floor = uvloop.run(measure_floor(args.spectators, sizes, args.actions, log_dir))
        configs: list[tuple[str, list[Result], list[Result]]] = []
        expiry: dict[str, float] | None = None
        if args.layer_configs:
            for label, layer in (
                (
                    "capacity 1000, expiry 30 (the first defaults)",
                    {"CHANNEL_CAPACITY": "1000", "CHANNEL_EXPIRY": "30"},
                ),
                ("capacity 20, expiry 5", {"CHANNEL_CAPACITY": "20", "CHANNEL_EXPIRY": "5"}),
            ):
                n = [max(args.spectators)]
                o = uvloop.run(measure_ours(db, n, min(args.actions, 300), log_dir, False, layer))
                f = uvloop.run(measure_floor(n, sizes, min(args.actions, 300), log_dir, layer))
                configs.append((label, o, f))
            expiry = uvloop.run(group_expiry_check(db, log_dir, group_expiry=3, idle=5))
            print(
                "group_expiry 3 s, socket idle 5 s: push latency p50 before",
                f"{expiry['before_ms']:.1f} ms,",
                f"after {expiry['after_ms']:.1f} ms",
            )
    finally:
        from django.db import connections

        connections.close_all()
        db.drop()
        flush_redis(REDIS_SERVER)
        shutil.rmtree(log_dir, ignore_errors=True)  # daphne logs (and the py-spy samples) of this run
    report = _report(args, db.description, ours, floor, configs, expiry, peer)
    print(report)
    if not args.no_write:
        append_performance(report)
        print("appended to docs/PERFORMANCE.md")
    return 0


def _layer_config() -> str:
    from django.conf import settings

    config = settings.CHANNEL_LAYERS["default"].get("CONFIG", {})
    return ", ".join(f"{k} {config[k]}" for k in ("capacity", "expiry", "group_expiry") if k in config)


def _report(
    args,
    db_description: str,
    ours: list[Result],
    floor: list[Result],
    configs: list[tuple[str, list[Result], list[Result]]],
    expiry: dict[str, float] | None,
    peer: dict[int, dict[str, Any]] | None = None,
) -> str:
    info = machine()
    lines = [
        f"## Real time end to end: one room, 8 seats + spectators ({info['date']})",
        "",
        "`python bench/realtime.py"
        + ("" if args.profile else " --no-profile")
        + ("" if args.layer_configs else " --no-layer-configs")
        + ("" if args.peer else " --no-peer")
        + "`: one daphne process, Redis channel layer,"
        f" {db_description.split(' in ')[0]}; all clients in one asyncio process (`websockets`),",
        "real sockets on 127.0.0.1. Latency = from sending an action to **every** client holding the new",
        "version.",
        "The floor is `bench/floor_app.py`: a bare Channels consumer rebroadcasting a frame of our mean",
        "update size to a group of the same size through the same Redis layer.",
        "",
        *machine_lines(info),
        f"- Channel layer (settings defaults): {_layer_config()}",
        "",
        "| stack | spectators | actions | p50 ms | p99 ms | max ms | mean frame B | server CPU ms/action |"
        " Redis CPU ms/action | client CPU share, ms/action | failures |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in [*ours, *floor]:
        lines.append(
            f"| {r.name} | {r.spectators} | {len(r.latencies)} | {1000 * r.p(0.5):.1f} |"
            f" {1000 * r.p(0.99):.1f} | {1000 * max(r.latencies or [0]):.1f} | {r.frame_bytes:,.0f} |"
            f" {1000 * r.cpu_per_action:.1f} | {1000 * r.redis_cpu_per_action:.2f} |"
            f" {r.client_cpu_share:.0%}, {1000 * r.client_cpu_per_action:.1f} |"
            f" {', '.join(f'{k} {v}' for k, v in r.failures.items()) or '–'} |"
        )
    lines += [
        "",
        "| spectators | our p50 / floor p50 (≤ 1.3) | p99 target | verdict |",
        "|---:|---:|---|---|",
    ]
    floor_by = {r.spectators: r for r in floor}
    for r in ours:
        f = floor_by.get(r.spectators)
        ratio = r.p(0.5) / f.p(0.5) if f and f.latencies else float("nan")
        target = TARGET_P99.get(r.spectators)
        p99_ok = target is None or r.p(0.99) <= target
        verdict = (
            "p50 "
            + ("met" if ratio <= TARGET_RATIO else "MISSED")
            + ", p99 "
            + ("met" if p99_ok else "MISSED")
            if target
            else "p50 " + ("met" if ratio <= TARGET_RATIO else "MISSED")
        )
        lines.append(
            f"| {r.spectators} | {ratio:.2f} | {f'≤ {1000 * target:.0f} ms' if target else '–'} | {verdict} |"
        )
    if peer:
        lines += [
            "",
            "Against boardgame.io in the same run (`../shared/bench-peer/run.sh N MOVES`: 8 players + N"
            " spectators, one move in flight, latency to the last client), same machine, same sizes:",
            "",
            "| spectators | moves | peer p50 ms | peer p99 ms | peer server CPU ms/move | our p50 ms"
            " | our p99 ms | our server CPU ms/action | ours / peer p50 | ours / peer p99 |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for r in ours:
            pr = peer.get(r.spectators)
            if not pr:
                continue
            cpu = 1000 * (pr.get("server_cpu_s") or 0) / pr["moves"]
            lines.append(
                f"| {r.spectators} | {pr['moves']} | {pr['p50_ms']:.1f} | {pr['p99_ms']:.1f} | {cpu:.1f} |"
                f" {1000 * r.p(0.5):.1f} | {1000 * r.p(0.99):.1f} | {1000 * r.cpu_per_action:.1f} |"
                f" {1000 * r.p(0.5) / pr['p50_ms']:.2f} | {1000 * r.p(0.99) / pr['p99_ms']:.2f} |"
            )
    profiled = [r for r in ours if r.top_frames]
    if profiled:
        r = profiled[0]
        lines += [
            "",
            f"py-spy on daphne during the {r.spectators}-spectator run (samples holding the GIL):",
            "",
            "| frame | % inside | % own |",
            "|---|---:|---:|",
        ]
        for name, inside, own in r.top_frames:
            lines.append(f"| `{name}` | {inside:.1f} | {own:.1f} |" if inside or own else f"| {name} | | |")
    if configs:
        lines += [
            "",
            "Channel-layer settings (largest size, ≤ 300 actions each):",
            "",
            "| settings | stack | p50 ms | p99 ms | max ms | failures |",
            "|---|---|---:|---:|---:|---|",
        ]
        for label, o, f in configs:
            for r in [*o, *f]:
                lines.append(
                    f"| {label} | {r.name} | {1000 * r.p(0.5):.1f} | {1000 * r.p(0.99):.1f} |"
                    f" {1000 * max(r.latencies or [0]):.1f} |"
                    f" {', '.join(f'{k} {v}' for k, v in r.failures.items()) or '–'} |"
                )
    if expiry:
        lines += [
            "",
            f"group_expiry shorter than a socket's life (3 s, socket idle 5 s): push latency p50 "
            f"{expiry['before_ms']:.1f} ms before, {expiry['after_ms']:.1f} ms after expiry.",
        ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
