"""A slow spectator hurts nobody: players' latency and the server's memory with spectators that stop
reading, against the same game without them (issue 8, "A slow spectator hurts nobody").

Usage (from the repository root)::

    .venv/bin/python bench/slow_spectator.py [--actions 200] [--blocks 2] [--slow 20] [--spectators 10]
                                             [--db postgres|sqlite] [--no-write]

What runs, all on 127.0.0.1: Redis (``BENCH_REDIS_URL``, default db 13 of the local server, flushed) as
the channel layer, a fresh database with the catalog, one daphne serving the project. This process
creates a room with 4 human seats through the services, connects the 4 seats as protocol clients and
``--spectators`` ordinary spectators (all read everything and acknowledge every 8 frames). Then it plays
``--blocks`` × 2 blocks of ``--actions`` actions, alternating (each block on a fresh room):

- **baseline**: nobody else is connected;
- **slow**: ``--slow`` more spectators connect and then stop reading: their sockets' buffers fill, they
  never acknowledge, so the server sends each of them one window of frames (16) and then keeps only the
  newest frame for it.

An action's latency is from the seat sending ``act`` to the moment **every player** holds the new version
(each seat keeps to the server's rate limit before the clock starts). The target: players' p99 with slow
spectators within 20 % of the baseline p99. The server's resident memory is sampled every 25 actions: in
the slow blocks it must not keep growing (the window bounds what is buffered per socket). Results are
printed and appended to docs/PERFORMANCE.md (``--no-write`` skips that).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench.common import (  # noqa: E402
    REDIS_SERVER,
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

SEATS = 4
ACK_EVERY = 8
RATE_BURST, RATE_PER_SECOND = 12, 3.8  # just under the server's 12 at once / 4 per second
ROUND_TIMEOUT = 10.0
TARGET = 1.20  # p99 with slow spectators ≤ 1.2 × p99 without


@dataclass
class Peer:
    """One websocket of the benchmark."""

    url: str
    token: str | None = None
    version: int = -1
    view: dict[str, Any] | None = None
    frames: int = 0
    ws: Any = None
    reader: asyncio.Task[None] | None = None
    tokens: float = float(RATE_BURST)
    refilled: float = field(default_factory=time.monotonic)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        self.ws = await connect(
            self.url,
            origin="http://127.0.0.1",
            compression=None,
            max_size=2**22,
            open_timeout=30,
            ping_interval=None,
        )
        if self.token:
            await self.ws.send(json.dumps({"type": "hello", "token": self.token}))
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        with contextlib.suppress(Exception):
            async for text in self.ws:
                self.frames += 1
                if self.frames % ACK_EVERY == 0:
                    await self.ws.send('{"type":"ack"}')
                if text.startswith('{"type":"update"') or text.startswith('{"type":"state"'):
                    frame = json.loads(text)
                    if frame["version"] >= self.version:
                        self.version = frame["version"]
                        self.view = frame["view"]
                    self.changed.set()

    def stop_reading(self) -> None:
        """The client freezes: it reads nothing more (TCP back-pressure builds up) and never acks."""
        if self.reader is not None:
            self.reader.cancel()

    async def take_token(self) -> None:
        while True:
            now = time.monotonic()
            self.tokens = min(RATE_BURST, self.tokens + (now - self.refilled) * RATE_PER_SECOND)
            self.refilled = now
            if self.tokens >= 1:
                self.tokens -= 1
                return
            await asyncio.sleep((1 - self.tokens) / RATE_PER_SECOND)

    async def close(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(), 2)


async def wait_all(peers: list[Peer], version: int, timeout: float) -> float:
    """Wait until every peer holds ``version``; the moment the last one got it."""
    deadline = time.monotonic() + timeout
    while True:
        if all(p.version >= version for p in peers):
            return time.perf_counter()
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError(f"version {version} did not reach every player")
        lagging = next(p for p in peers if p.version < version)
        lagging.changed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(lagging.changed.wait(), min(remaining, 0.2))


async def play_block(
    players: list[Peer], actions: int, server: Any, rss: list[tuple[int, int]], done: int
) -> list[float]:
    """``actions`` actions by whichever seat holds a prompt; the latency of each to every player."""
    latencies: list[float] = []
    while len(latencies) < actions:
        newest = max(p.version for p in players)
        await wait_all(players, newest, ROUND_TIMEOUT)
        mover = next((p for p in players if (p.view or {}).get("my_prompts")), None)
        if mover is None or (mover.view or {}).get("status") != "running":
            status = (players[0].view or {}).get("status")
            raise RuntimeError(f"no seat has a decision to take (game {status}, version {newest})")
        prompt = mover.view["my_prompts"][0]
        await mover.take_token()
        frame = {
            "type": "act",
            "version": mover.version,
            "action_id": f"s{done + len(latencies)}-{mover.version}",
            "action": {"type": "answer", "prompt": prompt["id"], "choice": prompt["default"]},
        }
        target = mover.version + 1
        t0 = time.perf_counter()
        await mover.ws.send(json.dumps(frame))
        try:
            last = await wait_all(players, target, ROUND_TIMEOUT)
        except TimeoutError:
            continue  # refused (another prompt was answered first): the next round looks again
        latencies.append(last - t0)
        if len(latencies) % 25 == 0:
            rss.append((done + len(latencies), server.rss_bytes()))
    return latencies


async def buffered_deliveries(peer: Peer) -> int:
    """How many state/update frames the server sent a frozen socket in all (read now, without acking)."""
    count = peer.frames
    while True:
        try:
            text = await asyncio.wait_for(peer.ws.recv(), 0.5)
        except (TimeoutError, Exception):
            return count
        if text.startswith('{"type":"update"') or text.startswith('{"type":"state"'):
            count += 1


def make_room(seed: int) -> tuple[str, list[str]]:
    """A started room with ``SEATS`` human seats (services, same database as the server)."""
    from tournament.rules.events import Actor
    from tournament.services.actions import game_act
    from tournament.services.rooms import room_create, room_join

    room = room_create(nickname="P1", seed=777 + seed, house_rules={"seats": SEATS})
    tokens = [room.token or ""]
    for i in range(2, SEATS + 1):
        tokens.append(room_join(code=room.code, nickname=f"P{i}")[1])
    game_act(
        code=room.code,
        actor=Actor("host"),
        action={"type": "start"},
        expected_version=None,
        action_id="bench-start",
    )
    return room.code, tokens


async def run(
    args: argparse.Namespace, ws_base: str, rooms: list[tuple[str, list[str]]], server: Any
) -> dict[str, Any]:
    """Alternate baseline and slow blocks, each on a fresh room (a tournament ends after ~700 actions)."""
    results: dict[str, list[float]] = {"baseline": [], "slow": []}
    rss: dict[str, list[tuple[int, int]]] = {"baseline": [], "slow": []}
    slow_frames: list[int] = []
    done = 0
    kinds = [kind for _ in range(args.blocks) for kind in ("baseline", "slow")]
    for kind, (code, tokens) in zip(kinds, rooms, strict=True):
        url = f"{ws_base}/ws/r/{code}/?format=json"
        players = [Peer(url, token) for token in tokens]
        spectators = [Peer(url) for _ in range(args.spectators)]
        for peer in [*players, *spectators]:
            await peer.connect()
        await wait_all(players, 0, 30)
        await asyncio.sleep(0.5)
        slow: list[Peer] = []
        if kind == "slow":
            slow = [Peer(url) for _ in range(args.slow)]
            for peer in slow:
                await peer.connect()
            await asyncio.sleep(1.0)  # their first frames arrive; then they freeze
            for peer in slow:
                peer.stop_reading()
        rss[kind].append((done, server.rss_bytes()))
        results[kind] += await play_block(players, args.actions, server, rss[kind], done)
        done += args.actions
        slow_frames += [await buffered_deliveries(p) for p in slow]
        for peer in [*players, *spectators, *slow]:
            await peer.close()
        await asyncio.sleep(1.0)
    return {"latency": results, "rss": rss, "slow_frames": slow_frames}


def report(args: argparse.Namespace, out: dict[str, Any], db: str, info: dict[str, str]) -> tuple[str, bool]:
    lat = out["latency"]
    rows = []
    p99 = {}
    for kind in ("baseline", "slow"):
        values = [v * 1000 for v in lat[kind]]
        p99[kind] = percentile(values, 0.99)
        rows.append(
            f"| {kind} | {len(values)} | {percentile(values, 0.5):.1f} | {percentile(values, 0.95):.1f} | "
            f"{p99[kind]:.1f} | {max(values):.1f} |"
        )
    ratio = p99["slow"] / p99["baseline"]
    met = ratio <= TARGET
    rss_lines = []
    for kind in ("baseline", "slow"):
        samples = out["rss"][kind]
        mib = [b / 2**20 for _, b in samples]
        rss_lines.append(
            f"- {kind} blocks: resident memory {min(mib):.1f}–{max(mib):.1f} MiB over {len(samples)} samples"
        )
    frames = out["slow_frames"]
    section = "\n".join(
        [
            f"## Slow spectators: players' latency and server memory ({info['date']})",
            "",
            f"`python bench/slow_spectator.py`: one daphne ({db}, Redis layer), a room of {SEATS} human "
            f"seats and {args.spectators} reading spectators; {args.blocks} × 2 alternating blocks of "
            f"{args.actions} actions, without and with {args.slow} extra spectators that stop reading (their "
            "sockets fill up and never acknowledge). Latency: `act` sent → every player holds the new "
            "version.",
            "",
            *machine_lines(info),
            "",
            "| blocks | actions | p50 ms | p95 ms | p99 ms | max ms |",
            "|---|---:|---:|---:|---:|---:|",
            *rows,
            "",
            f"Players' p99 with slow spectators / without: **{ratio:.2f}** (target ≤ {TARGET:.2f}): "
            f"**{'met' if met else 'not met'}**.",
            *rss_lines,
            f"- state/update frames the server sent each frozen spectator in all (window: 16): "
            f"min {min(frames)}, max {max(frames)}, while {args.actions} new versions were made"
            if frames
            else "- no slow spectators ran",
        ]
    )
    return section, met


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=200, help="actions per block (default 200)")
    parser.add_argument("--blocks", type=int, default=2, help="baseline+slow block pairs (default 2)")
    parser.add_argument("--slow", type=int, default=20, help="spectators that stop reading (default 20)")
    parser.add_argument("--spectators", type=int, default=10, help="ordinary spectators (default 10)")
    parser.add_argument("--db", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument("--no-write", action="store_true", help="do not append to docs/PERFORMANCE.md")
    args = parser.parse_args()

    flush_redis(REDIS_SERVER)
    db = temp_database(args.db)
    try:
        use_database_here(db)
        import django

        django.setup()
        rooms = [make_room(seed) for seed in range(2 * args.blocks)]
        env = child_env(**db.env, REDIS_URL=REDIS_SERVER, ALLOWED_HOSTS="127.0.0.1,localhost", DEBUG="false")
        with tempfile.TemporaryDirectory() as tmp, servers() as started:
            server = start_daphne("magicfootball.asgi:application", env, Path(tmp))
            started.append(server)
            out = asyncio.run(run(args, server.ws, rooms, server))
    finally:
        db.drop()
    info = machine()
    section, met = report(args, out, db.description.split()[0], info)
    print(section)
    if not args.no_write:
        path = append_performance(section)
        print(f"\nappended to {path}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
